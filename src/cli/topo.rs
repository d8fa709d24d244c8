//! The LIDs that go with a TOPOLOGY argument (`--lids`, the topology's own, or an LFT
//! dump's annotations). Loading the topology itself is the library's [`ibfat::load`].

use ibfat::formats::{guid2lid, lftdump};
use ibfat::load::Loaded;
use ibfat::routing::{LftSet, Lids};
use ibfat::topology::Fabric;
use ibfat::Result;
use std::path::{Path, PathBuf};

static NODE_NAMES: std::sync::OnceLock<ibfat::formats::node_name_map::NodeNameMap> = std::sync::OnceLock::new();

/// Read `--node-name-map` once for the run.
pub fn set_node_name_map(path: &Path) -> Result<()> {
    let text = ibfat::formats::input::read_text(path, ibfat::formats::input::NODE_NAME_MAP)?;
    let map = ibfat::formats::node_name_map::parse(&text, path)?;
    let _ = NODE_NAMES.set(map);
    Ok(())
}

static READ: std::sync::OnceLock<ibfat::formats::dump::ParseOptions> = std::sync::OnceLock::new();

/// Keep `--input-format` and `--partial` for the run.
pub fn set_read_options(opts: ibfat::formats::dump::ParseOptions) {
    let _ = READ.set(opts);
}

/// How TOPOLOGY files are read in this run (`--input-format`, `--partial`).
pub fn read_options() -> ibfat::formats::dump::ParseOptions {
    READ.get().copied().unwrap_or_default()
}

static ROLES: std::sync::OnceLock<ibfat::formats::roles::RoleSources> = std::sync::OnceLock::new();

/// Keep the host-role options (`--compute-guids`, `--io-guids`, `--io-hosts`) for the run.
pub fn set_roles(src: ibfat::formats::roles::RoleSources) {
    let _ = ROLES.set(src);
}

/// True when no host-role option was given.
pub fn roles_are_empty() -> bool {
    ROLES.get().map_or(true, |s| s.is_empty())
}

/// Give the layout's hosts the roles the options name (strict: a GUID not in `fabric`,
/// listed twice, or a pattern matching nothing is an error). Nothing when no role option
/// is given.
pub fn apply_roles(fabric: &Fabric, layout: &mut ibfat::topology::Layout) -> Result<()> {
    let Some(src) = ROLES.get().filter(|s| !s.is_empty()) else {
        return Ok(());
    };
    let roles = ibfat::formats::roles::resolve(fabric, src, true)?;
    let n = layout.apply_roles(fabric, &roles)?;
    for w in layout.role_warnings() {
        super::output::note("warning", format_args!("{w}"));
    }
    super::output::detail(format_args!(
        "{n} non-compute hosts by the role options (routed, not ranked); {} compute hosts",
        layout.hosts().len()
    ));
    Ok(())
}

/// [`named`], then the host roles: for commands whose output depends on the rank order
/// (route, check, schedule, export). A fabric whose family is unknown only has the role
/// options checked against it.
pub fn with_roles(loaded: Loaded) -> Result<Loaded> {
    let mut loaded = named(loaded);
    if let ibfat::topology::Model::Known(t) = &mut loaded.model {
        apply_roles(&t.fabric, &mut t.layout)?;
    } else if let Some(src) = ROLES.get().filter(|s| !s.is_empty()) {
        ibfat::formats::roles::resolve(loaded.fabric(), src, true)?;
    }
    Ok(loaded)
}

/// Finish loading a TOPOLOGY argument: names from `--node-name-map`, and the `-v` line.
pub fn named(mut loaded: Loaded) -> Loaded {
    if let Some(map) = NODE_NAMES.get() {
        let n = ibfat::formats::node_name_map::apply(map, loaded.model.fabric_same_cabling_mut());
        if let Some(d) = loaded.discovered.as_mut() {
            ibfat::formats::node_name_map::apply(map, &mut d.fabric);
        }
        super::output::detail(format_args!("{n} nodes named by --node-name-map"));
    }
    if let Some(d) = &loaded.discovered {
        skipped_lines(&loaded.path, d);
    }
    super::output::loaded(&loaded);
    loaded
}

/// One warning naming the lines a reader skipped (pasted prompts, banners, `ibwarn:`)
/// and one for the ports that lead outside a `--partial` dump.
fn skipped_lines(path: &Path, d: &ibfat::formats::dump::Discovered) {
    let skipped: Vec<&ibfat::formats::dump::Problem> = d
        .notes
        .iter()
        .filter(|n| n.message.starts_with("skipped a line"))
        .collect();
    if let Some(first) = skipped.first() {
        let lines: Vec<String> = skipped.iter().take(8).map(|n| n.line.to_string()).collect();
        let more = if skipped.len() > 8 { ", ..." } else { "" };
        super::output::note(
            "warning",
            format_args!(
                "{}: skipped {} line(s) that belong to no record (line {}{more}); the first: {}",
                ibfat::formats::input::display(path),
                skipped.len(),
                lines.join(", "),
                first
                    .message
                    .trim_start_matches("skipped a line that belongs to no record: ")
            ),
        );
    }
    if !d.outside.is_empty() {
        super::output::note(
            "warning",
            format_args!(
                "{}: {} port(s) lead outside the dump (--partial): counted as uncabled; recognition may not be possible, cabling and check work on what is there",
                ibfat::formats::input::display(path),
                d.outside.len()
            ),
        );
    }
}

/// A path given as a positional argument or by its deprecated flag (kept for one release;
/// using it prints a note on standard error). clap makes sure at most one is given.
pub fn positional(pos: Option<PathBuf>, flag: Option<PathBuf>, flag_name: &str, name: &str) -> Result<PathBuf> {
    match (pos, flag) {
        (Some(p), _) => Ok(p),
        (None, Some(p)) => {
            super::output::note(
                "note",
                format_args!("{flag_name} is deprecated and goes away in the next release; give {name} as an argument"),
            );
            Ok(p)
        }
        (None, None) => Err(ibfat::Error::input(
            name,
            format!("{name} is missing"),
            Some(format!("give {name} as an argument")),
        )),
    }
}

/// A `guid2lid` file for `fabric` (`--lids`).
pub fn read_guid2lid(fabric: &Fabric, path: &Path) -> Result<Lids> {
    let text = ibfat::formats::input::read_text(path, ibfat::formats::input::GUID2LID)?;
    guid2lid::parse(fabric, &text, path)
}

/// The LIDs given (`--lids`), else the topology's own.
pub fn given_lids(loaded: &Loaded, lids: Option<&Path>) -> Result<Option<Lids>> {
    match lids {
        Some(p) => read_guid2lid(loaded.fabric(), p).map(Some),
        None => loaded.own_lids(),
    }
}

/// An LFT dump and the LIDs it was made for: `--lids`, else the topology's own, else the
/// LIDs the dump's `portguid` annotations name (OpenSM's dumps carry them).
pub fn read_lfts(loaded: &Loaded, lids: Option<&Path>, lfts: &Path) -> Result<(Lids, LftSet)> {
    let given = given_lids(loaded, lids)?;
    if ibfat::formats::lftbin::is_lft_file(lfts) {
        let f = ibfat::formats::lftbin::read(lfts, loaded.fabric(), given.as_ref())?;
        return Ok((f.lids, f.lfts));
    }
    lftdump::read_with_lids(lfts, loaded.fabric(), given.as_ref())
}
