//! TOPOLOGY arguments for the commands: the shared loader of `ibfat::topology::load`
//! plus the LIDs that come with a topology.

use ibfat::formats::dump::ParseOptions;
use ibfat::formats::{guid2lid, lftdump};
use ibfat::recognize::{recognize, FamilyHint, Recognition};
use ibfat::routing::{LftSet, Lids};
use ibfat::topology::load::{load_fabric, load_topology, Loaded};
use ibfat::topology::{Fabric, Layout, Topo};
use ibfat::{Error, Result};
use std::path::{Path, PathBuf};

/// A topology whose family may be unknown (validation and checks work without one).
pub struct Any {
    pub fabric: Fabric,
    pub layout: Option<Layout>,
    /// Why the family is unknown, when it is.
    pub unrecognised: Option<String>,
    /// Discovered LIDs, or a plan folder's guid2lid.
    pub lids: Option<Lids>,
    pub path: PathBuf,
    pub name: String,
}

impl Any {
    /// The family structure, or an input error with the recognition's reason.
    pub fn topo(&self) -> Result<Topo<'_>> {
        match &self.layout {
            Some(layout) => Ok(Topo {
                fabric: &self.fabric,
                layout,
                name: self.name.clone(),
            }),
            None => Err(Error::at(
                &self.path,
                0,
                format!(
                    "not a recognisable fabric: {}",
                    self.unrecognised.as_deref().unwrap_or("unknown family")
                ),
            )
            .with_hint("`ibfat recognize --json` says what each family needs")),
        }
    }
}

/// LIDs that come with a topology: the dump's own (after an SM sweep), or the guid2lid a
/// plan folder holds next to its fabric.yaml.
fn lids_with(path: &Path, fabric: &Fabric) -> Result<Option<Lids>> {
    if let Some(l) = Lids::discovered(fabric).map_err(|e| e.in_file(path, 0))? {
        return Ok(Some(l));
    }
    let folder = if path.is_dir() {
        path.to_path_buf()
    } else {
        path.parent().map(Path::to_path_buf).unwrap_or_default()
    };
    let g2l = folder.join("guid2lid");
    if g2l.is_file() {
        let text = std::fs::read_to_string(&g2l).map_err(|e| Error::io(format!("cannot read {}", g2l.display()), e))?;
        // a guid2lid for another fabric in the same folder is not ours to use
        if let Ok(l) = guid2lid::parse(fabric, &text, &g2l) {
            return Ok(Some(l));
        }
    }
    Ok(None)
}

/// Load any topology; recognise its family when it has none, but keep going without one.
pub fn load_any(path: &Path, hint: Option<FamilyHint>) -> Result<Any> {
    let lf = load_fabric(path, ParseOptions::default())?;
    let lids = lids_with(path, &lf.fabric)?;
    let name = match &lf.spec {
        Some(s) => s.short_name(),
        None => lf
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let (layout, unrecognised) = match (lf.layout, hint) {
        (Some(l), None) => (Some(l), None),
        (Some(l), Some(h)) if FamilyHint::of(&l) == h => (Some(l), None),
        _ => match recognize(&lf.fabric, hint) {
            Recognition::Recognised { layout, .. } => (Some(layout), None),
            Recognition::Unrecognised { reason, .. } => (None, Some(reason)),
        },
    };
    Ok(Any {
        fabric: lf.fabric,
        layout,
        unrecognised,
        lids,
        path: lf.path,
        name,
    })
}

/// Load a topology that must be of a known family, with its LIDs.
pub fn load_family(path: &Path, hint: Option<FamilyHint>) -> Result<(Loaded, Option<Lids>)> {
    let loaded = load_topology(path, hint)?;
    let lids = lids_with(path, &loaded.fabric)?;
    Ok((loaded, lids))
}

/// A `guid2lid` file for `fabric` (`--lids`).
pub fn read_guid2lid(fabric: &Fabric, path: &Path) -> Result<Lids> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    guid2lid::parse(fabric, &text, path)
}

/// The LIDs given (`--lids`), else the topology's own.
pub fn given_lids(any: &Any, lids: Option<&Path>) -> Result<Option<Lids>> {
    match lids {
        Some(p) => read_guid2lid(&any.fabric, p).map(Some),
        None => Ok(any.lids.clone()),
    }
}

/// An LFT dump and the LIDs it was made for: `--lids`, else the topology's own, else the
/// LIDs the dump's `portguid` annotations name (OpenSM's dumps carry them).
pub fn read_lfts(any: &Any, lids: Option<&Path>, lfts: &Path) -> Result<(Lids, LftSet)> {
    let given = given_lids(any, lids)?;
    lftdump::read_with_lids(lfts, &any.fabric, given.as_ref())
}
