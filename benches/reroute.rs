//! Fault response at subnet scale (issue 21 item 2; not a timed test: it prints figures).
//! `cargo bench --bench reroute` — `IBFAT_BENCH_ORDER=q` (default 32, the largest LSFT one
//! subnet holds), `IBFAT_BENCH_RUNS` (default 3, the median is printed).
//!
//! The fabric is LSFT(q) with shuffled ports and random GUIDs, degraded by 1, 10 and 100
//! seeded switch-to-switch cuts and by one dead spine, each rendered as an ibsim net file
//! and read back the way `ibfat route` reads it. Per case: parse, recognise (faults by
//! canonical coordinates) and route (every LFT entry and the SLs of the detours) — the
//! stages OpenSM waits for after a fault; writing files and validating are left out (the
//! plugin hands the tables to OpenSM in memory). Peak RSS is the process's high-water mark
//! since the case started (reset through /proc/self/clear_refs). Target: recognise + route
//! ≤ 1.0 s and ≤ 1 GiB.

use ibfat::formats::{dump, ibsim};
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::degraded::route_lsft;
use ibfat::routing::Lids;
use ibfat::topology::faults::inject;
use ibfat::topology::lsft::{build, LsftParams};
use ibfat::topology::BuildOptions;
use std::path::Path;
use std::time::Instant;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{name}={v}: not a valid value")))
        .unwrap_or(default)
}

/// Peak RSS since the last reset, in MiB (None where /proc does not say).
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib / 1024.0)
}

fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let q: u32 = env_or("IBFAT_BENCH_ORDER", 32);
    let runs: usize = env_or::<usize>("IBFAT_BENCH_RUNS", 3).max(1);
    let opts = BuildOptions {
        shuffle: Some(5),
        ..Default::default()
    };
    let (fabric, _) = build(&LsftParams::new(q, false), &opts).expect("the LSFT builds");
    let spine = fabric
        .switches()
        .find(|&s| fabric.node(s).name.starts_with('S'))
        .expect("a spine");
    println!(
        "LSFT({q}): {} switches, {} hosts (shuffled ports, random GUIDs); median of {runs}",
        fabric.switches().count(),
        fabric.cas().count()
    );
    println!("| faults | read s | recognize s | route s | recognize + route s | peak RSS MiB | unrouted pairs | unrouted switch LIDs |");
    println!("|---|---|---|---|---|---|---|---|");
    let cases: [(&str, usize, bool); 4] = [
        ("1 cut cable", 1, false),
        ("10 cut cables", 10, false),
        ("100 cut cables", 100, false),
        ("1 dead spine", 0, true),
    ];
    for (what, cut, dead) in cases {
        let dead_nodes = if dead { vec![spine] } else { Vec::new() };
        let inj = inject(&fabric, cut, 3, &dead_nodes).expect("faults inject");
        let net = ibsim::write_net(&inj.fabric, &["benchmark".into()]);
        drop(inj);
        let (mut read, mut rec, mut rt, mut peak) = (Vec::new(), Vec::new(), Vec::new(), 0f64);
        let mut missing = (0, 0);
        for _ in 0..runs {
            reset_peak();
            let t = Instant::now();
            let parsed = dump::parse(&net, Path::new("degraded.net")).expect("parses");
            read.push(t.elapsed().as_secs_f64());
            let f = parsed.fabric;
            let t = Instant::now();
            let Recognition::Unrecognised { degraded: Some(d), .. } = recognize(&f, None) else {
                panic!("{what}: not recognised as a degraded LSFT")
            };
            rec.push(t.elapsed().as_secs_f64());
            let lids = Lids::plan(&f, &[], 0).expect("LIDs");
            let t = Instant::now();
            let r = route_lsft(&f, d.lsft().expect("LSFT holes"), &lids).expect("routes");
            rt.push(t.elapsed().as_secs_f64());
            missing = (r.unrouted, r.unrouted_switch_lids);
            peak = peak.max(peak_mib().unwrap_or(0.0));
        }
        let (read, rec, rt) = (median(read), median(rec), median(rt));
        println!(
            "| {what} | {read:.2} | {rec:.2} | {rt:.2} | {:.2} | {peak:.0} | {} | {} |",
            rec + rt,
            missing.0,
            missing.1
        );
    }
}
