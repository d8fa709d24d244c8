//! The fabrics as found that the OpenSM benches route: a file, or a generator of
//! tests/harness/found.rs by name.

#[path = "../../../../tests/harness/found.rs"]
#[allow(dead_code)]
mod found;

use ibfat::formats::dump::ParseOptions;
use ibfat::load::{load, Recognize};
use ibfat::topology::Fabric;

/// The fabric of `IBFAT_BENCH_FABRIC` (a file) or `IBFAT_BENCH_FOUND` (a generator of
/// field shapes), with its name; none when neither is set.
pub fn found_fabric(seed: u64) -> Option<(Fabric, String)> {
    if let Ok(path) = std::env::var("IBFAT_BENCH_FABRIC") {
        let loaded = load(std::path::Path::new(&path), ParseOptions::default(), Recognize::No)
            .unwrap_or_else(|e| panic!("IBFAT_BENCH_FABRIC: {e}"));
        let name = std::path::Path::new(&path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        return Some((loaded.fabric().clone(), name));
    }
    let name = std::env::var("IBFAT_BENCH_FOUND").ok()?;
    let fabric = match name.as_str() {
        "grown-lab" => found::grown_lab(seed),
        "storage-on-spine" => found::storage_on_spine(seed),
        // Janus's shape: ~100 edge switches under 3 directors of 36 leaf chips (648 ports)
        "directors" => found::under_directors(seed, 100, 3, 36),
        "superpod1" => found::superpod(seed, 1),
        "superpod2" => found::superpod(seed, 2),
        "superpod4" => found::superpod(seed, 4),
        "big" => found::big_irregular(seed, 40),
        other => panic!(
            "IBFAT_BENCH_FOUND={other}: one of grown-lab, storage-on-spine, directors, superpod1, superpod2, superpod4, big"
        ),
    };
    Some((fabric, format!("{name} (seed {seed})")))
}
