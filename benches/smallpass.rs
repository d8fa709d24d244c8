//! The plugin's pass on small fabrics as found (issue 39 item 4), outside OpenSM:
//! recognise and route the 145-host lab, the grown lab, the storage shape and one
//! SuperPOD unit many times over, printing the median µs of each stage and an FNV-1a
//! digest of every fabric's tables (a speed-up that changes a table shows in it).
//!
//!     cargo bench --bench smallpass      # IBFAT_BENCH_ONLY=lab|grown|storage|superpod1,
//!                                        # IBFAT_BENCH_PASSES=n (default 200)
//!
//! Under callgrind, `IBFAT_BENCH_ONLY=lab IBFAT_BENCH_PASSES=1` profiles one pass.
//! `IBFAT_BENCH_FLUSH=1` writes 64 MiB between passes, as OpenSM's own work between two
//! routing passes does to the caches: the times are then those the plugin logs inside
//! OpenSM (the lab: recognise 28 → 100 µs, route 94 → 153 µs, 2026-12-04).

#[path = "../tests/harness/found.rs"]
#[allow(dead_code)]
mod found;
#[path = "support/measure.rs"]
#[allow(dead_code)]
mod measure;

use ibfat::formats::dump::ParseOptions;
use ibfat::load::{load, Recognize};
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::small::PassThreads;
use ibfat::routing::{route_fabric, Ask, Lids, Shape};
use ibfat::topology::Fabric;
use std::path::Path;
use std::time::Instant;

/// The fabrics of the OpenSM bench's small rows, by short name.
fn fabrics() -> Vec<(&'static str, Fabric)> {
    let lab = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/public/loginoff-sx6036-fdr10-2014.ibnetdiscover");
    let lab = load(&lab, ParseOptions::default(), Recognize::No)
        .expect("the lab fixture loads")
        .fabric()
        .clone();
    vec![
        ("lab", lab),
        ("grown", found::grown_lab(1)),
        ("storage", found::storage_on_spine(1)),
        ("superpod1", found::superpod(1, 1)),
    ]
}

/// The median of some microsecond figures.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Recognise and route one fabric `passes` times on this thread, as the plugin does a
/// small pass; print the median stage times and the tables' digest.
fn run(name: &str, f: &Fabric, passes: usize) {
    let lids = Lids::plan(f, &[], 0).expect("LIDs");
    let threads = PassThreads::for_entries(0);
    let (mut rec, mut rou) = (Vec::new(), Vec::new());
    let mut digest = 0;
    let mut what = String::new();
    let flush = std::env::var_os("IBFAT_BENCH_FLUSH").is_some();
    let mut junk = vec![0u8; if flush { 64 << 20 } else { 0 }];
    for pass in 0..passes {
        // a cache line at a time, different bytes every pass (nothing to optimise away)
        for (k, b) in junk.iter_mut().enumerate().step_by(64) {
            *b = b.wrapping_add((k ^ pass) as u8);
        }
        let t = Instant::now();
        let layout = match threads.run(|| recognize(f, None)) {
            Recognition::Recognized { layout, .. } => layout,
            Recognition::Unrecognized { reason, .. } => panic!("{name}: unrecognised: {reason}"),
        };
        let recognised = t.elapsed();
        let routed = threads
            .run(|| route_fabric(f, Shape::Intact(&layout), &lids, &Ask::default()))
            .expect("routes");
        let total = t.elapsed();
        rec.push(recognised.as_secs_f64() * 1e6);
        rou.push((total - recognised).as_secs_f64() * 1e6);
        digest = measure::fnv(&routed.lfts.ports);
        what = layout.describe();
    }
    println!(
        "{name}: {what}: recognise {:.0} µs, route {:.0} µs (median of {passes}); tables FNV-1a {digest:016x}",
        median(rec),
        median(rou)
    );
}

fn main() {
    let only = std::env::var("IBFAT_BENCH_ONLY").ok();
    let passes: usize = std::env::var("IBFAT_BENCH_PASSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
        .max(1);
    for (name, f) in fabrics() {
        if only.as_deref().map_or(true, |o| o == name) {
            run(name, &f, passes);
        }
    }
}
