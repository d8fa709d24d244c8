//! The tables step of `ibfat check`: the LFTs a check walks (a table file, a dump, or
//! ibfat's own), compiled into routes, with their fingerprint when one is needed.

use super::{CheckArgs, Stages};
use crate::cli::topo;
use ibfat::check::CompiledRoutes;
use ibfat::fingerprint::ComputedFor;
use ibfat::formats::lftbin;
use ibfat::load::{load_rail, Loaded};
use ibfat::routing::{route, LftSet, Lids};
use ibfat::topology::Endpoint;
use ibfat::{Error, Result};
use std::path::Path;

/// A table file is read and checksummed on the other core while the topology and the
/// LIDs the tables must match load: fixed costs every shard of a sharded check pays.
pub(super) fn read_inputs(
    a: &CheckArgs,
    topology: &Path,
) -> Result<(Loaded, Option<Lids>, Option<Result<lftbin::Opened>>)> {
    let table_file = a.lfts.as_deref().filter(|p| lftbin::is_lft_file(p));
    let (loaded, opened) = rayon::join(
        || {
            let loaded = load_rail(topology, topo::read_options(), None, a.rail).and_then(topo::with_roles)?;
            let given = match table_file {
                Some(_) => topo::given_lids(&loaded, a.lids.as_deref())?,
                None => None,
            };
            Ok::<_, Error>((loaded, given))
        },
        || table_file.map(lftbin::open),
    );
    let (loaded, given) = loaded?;
    Ok((loaded, given, opened))
}

/// The tables a check walks, and the fingerprint of them and the fabric when one is
/// needed (a schedule file to compare with, a shard to record it in).
pub(super) struct Tables {
    pub(super) lids: Lids,
    pub(super) lfts: LftSet,
    pub(super) fingerprint: Option<ComputedFor>,
}

/// The routes are compiled but their error is left to the caller: a stale schedule is
/// refused first, as it always was.
pub(super) type Compiled = (Tables, Result<CompiledRoutes>);

/// Tables from an ibfat-lfts.bin, checksummed while loading: only matched to the fabric
/// here, and they carry their own fingerprint.
pub(super) fn file_tables(
    opened: Result<lftbin::Opened>,
    loaded: &Loaded,
    given: Option<&Lids>,
    hosts: &[Endpoint],
    lid_offset: u16,
    stages: &mut Stages,
) -> Result<Compiled> {
    let file = opened?.resolve(loaded.fabric(), given)?;
    stages.mark("tables");
    let routes = CompiledRoutes::compile(loaded.fabric(), &file.lids, &file.lfts, hosts, lid_offset);
    stages.mark("compile");
    let tables = Tables {
        lids: file.lids,
        lfts: file.lfts,
        fingerprint: Some(file.computed_for),
    };
    Ok((tables, routes))
}

/// Tables parsed from a dump or computed by ibfat; the fingerprint (one pass over every
/// entry) is taken on the other core while the routes compile.
pub(super) fn own_or_dumped_tables(
    a: &CheckArgs,
    topology: &Path,
    loaded: &Loaded,
    hosts: &[Endpoint],
    need_fingerprint: bool,
    stages: &mut Stages,
) -> Result<Compiled> {
    let (lids, lfts) = match &a.lfts {
        Some(p) => topo::read_lfts(loaded, a.lids.as_deref(), p)?,
        None => own_tables(a, topology, loaded)?,
    };
    stages.mark("tables");
    let (fingerprint, routes) = rayon::join(
        || need_fingerprint.then(|| lfts.computed_for(loaded.fabric(), &lids)),
        || CompiledRoutes::compile(loaded.fabric(), &lids, &lfts, hosts, a.lid_offset),
    );
    stages.mark("fingerprint+compile");
    Ok((
        Tables {
            lids,
            lfts,
            fingerprint,
        },
        routes,
    ))
}

/// ibfat's own tables when none are given, on the LIDs given, the topology's own, or
/// planned for its hosts (a second LID per host when --lid-offset asks for LMC paths).
fn own_tables(a: &CheckArgs, topology: &Path, loaded: &Loaded) -> Result<(Lids, LftSet)> {
    let lids = match (topo::given_lids(loaded, a.lids.as_deref())?, loaded.model.layout()) {
        (Some(l), _) => l,
        (None, Some(layout)) => Lids::plan(loaded.fabric(), layout.hosts(), if a.lid_offset > 0 { 1 } else { 0 })?,
        (None, None) => {
            return Err(Error::at(topology, 0, "no LIDs known for this topology").with_hint("pass --lids guid2lid"))
        }
    };
    let lfts = route(loaded.fabric(), &loaded.topology()?.layout, &lids)?;
    Ok((lids, lfts))
}
