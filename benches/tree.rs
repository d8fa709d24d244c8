//! Trees as found at scale (issue 39 item 7): an irregular three-level tree of about
//! 10,000 hosts (tests/harness/found.rs `big_irregular`: 40 pods of 18 leaves with 10 to
//! 18 hosts and a few missing up-cables, 720 middle and 360 top switches) recognised and
//! routed through the one pipeline, with the peak resident memory of the process. Prints
//! times; asserts nothing (targets are read from the output: ≤ 1 s, ≤ 1 GiB).
//!
//!     cargo bench --bench tree            # IBFAT_BENCH_PODS=n for another size

#[path = "../tests/harness/found.rs"]
#[allow(dead_code)]
mod found;
#[path = "support/measure.rs"]
mod measure;

use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::{route_fabric, Ask, Lids, Shape};
use ibfat::topology::Layout;
use std::time::Instant;

fn main() {
    let pods: usize = std::env::var("IBFAT_BENCH_PODS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let f = found::big_irregular(1, pods);
    let (switches, hosts) = (f.switches().count(), f.endpoints().len());
    println!(
        "irregular 3-level tree: {switches} switches, {hosts} hosts, {} cables",
        f.link_count()
    );
    let lids = Lids::plan(&f, &[], 0).unwrap();
    let rss0 = measure::peak_rss_kib();
    let mut best = (f64::MAX, f64::MAX);
    let mut digest = 0u64;
    for _ in 0..5 {
        let t = Instant::now();
        let layout = match recognize(&f, None) {
            Recognition::Recognized {
                layout: l @ Layout::Tree(_),
                ..
            } => l,
            Recognition::Recognized { layout, .. } => panic!("recognised as {}", layout.describe()),
            Recognition::Unrecognized { reason, .. } => panic!("unrecognised: {reason}"),
        };
        let recognised = t.elapsed().as_secs_f64();
        let routed = route_fabric(&f, Shape::Intact(&layout), &lids, &Ask::default()).unwrap();
        let total = t.elapsed().as_secs_f64();
        assert_eq!(routed.unrouted, 0);
        digest = measure::fnv(&routed.lfts.ports);
        best = (best.0.min(recognised), best.1.min(total));
    }
    println!(
        "recognise {:.3} s, recognise + route {:.3} s (best of 5); peak RSS {} MiB (fabric built: {} MiB)",
        best.0,
        best.1,
        measure::peak_rss_kib() / 1024,
        rss0 / 1024
    );
    // a speed-up that changes the tables shows here (FNV-1a of every entry)
    println!("tables: FNV-1a {digest:016x}");
}
