//! Rail-optimised clusters at scale (issue 40 item 7): the largest plan one subnet holds
//! for the DGX SuperPOD unit (32 servers × 8 rails, 64-port switches, three levels:
//! 175 units, 44,800 HCAs, 3,992 switches, 48,792 of the 49,151 unicast LIDs), with
//! ports and GUIDs shuffled as a discovered fabric has them, recognised (servers in
//! their slots), rail-checked and routed through the one pipeline. Prints times and the
//! peak resident memory; asserts nothing (the target, ≤ 1 s, is read from the output).
//!
//!     cargo bench --bench railopt          # IBFAT_BENCH_SUS=n for another size

#[path = "support/measure.rs"]
mod measure;
use ibfat::families::railopt::model::check::{check, Severity};
use ibfat::families::railopt::model::plan::RailoptParams;
use ibfat::families::railopt::model::RailFabric;
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::{route_fabric, Ask, Lids, Shape};
use ibfat::topology::{FamilySpec, Spec};
use std::time::Instant;

fn main() {
    let sus: u32 = std::env::var("IBFAT_BENCH_SUS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(175);
    let mut spec = Spec::new(FamilySpec::Railopt(RailoptParams {
        sus,
        levels: 3,
        ..RailoptParams::default()
    }));
    spec.options.shuffle = Some(1);
    let f = spec.build().expect("the plan builds").fabric;
    let (switches, hosts) = (f.switches().count(), f.endpoints().len());
    println!(
        "rail-optimised, {sus} units: {switches} switches, {hosts} HCAs, {} LIDs, {} cables",
        switches + hosts,
        f.link_count()
    );
    let lids = Lids::plan(&f, &[], 0).unwrap();
    let rss0 = measure::peak_rss_kib();
    let mut best = [f64::MAX; 4];
    let mut digest = 0u64;
    for _ in 0..3 {
        let t = Instant::now();
        let layout = match recognize(&f, None) {
            Recognition::Recognized { layout, .. } => layout,
            Recognition::Unrecognized { reason, .. } => panic!("unrecognised: {reason}"),
        };
        let recognised = t.elapsed().as_secs_f64();
        let rf = RailFabric::of(&f).expect("rail-optimised");
        let findings = check(&f, &rf);
        // shuffled ports break the one-port-per-server convention: one warning, no error
        let errors: Vec<_> = findings.iter().filter(|f| f.severity == Severity::Error).collect();
        assert!(errors.is_empty(), "{:?}", &errors[..errors.len().min(3)]);
        assert_eq!(rf.servers.len() as u32, sus * 32);
        let checked = t.elapsed().as_secs_f64();
        let routed = route_fabric(&f, Shape::Intact(&layout), &lids, &Ask::default()).unwrap();
        let total = t.elapsed().as_secs_f64();
        assert_eq!(routed.unrouted, 0);
        digest = measure::fnv(&routed.lfts.ports);
        for (b, v) in best
            .iter_mut()
            .zip([recognised, checked - recognised, total - checked, total])
        {
            *b = b.min(v);
        }
    }
    println!(
        "recognise {:.3} s, rail check {:.3} s, route {:.3} s; all {:.3} s (best of 3); peak RSS {} MiB (fabric built: {} MiB)",
        best[0],
        best[1],
        best[2],
        best[3],
        measure::peak_rss_kib() / 1024,
        rss0 / 1024
    );
    println!("tables: FNV-1a {digest:016x}");
}
