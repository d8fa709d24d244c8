//! The LIDs that go with a TOPOLOGY argument (`--lids`, the topology's own, or an LFT
//! dump's annotations). Loading the topology itself is the library's [`ibfat::load`].

use ibfat::formats::{guid2lid, lftdump};
use ibfat::load::Loaded;
use ibfat::routing::{LftSet, Lids};
use ibfat::topology::Fabric;
use ibfat::Result;
use std::path::{Path, PathBuf};

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
    lftdump::read_with_lids(lfts, loaded.fabric(), given.as_ref())
}
