//! Fault response at subnet scale (issue 21 items 2 and 4; not a timed test: it prints
//! figures). `cargo bench --bench reroute` — `IBFAT_BENCH_FABRIC` picks the table:
//! * `lsft` (default): LSFT(q) with shuffled ports and random GUIDs, `IBFAT_BENCH_ORDER=q`
//!   (default 32, the largest LSFT one subnet holds), degraded by 1, 10 and 100 seeded
//!   switch-to-switch cuts and by one dead spine;
//! * `pgft`: the 3-level PGFT(3; 20,20,25; 1,20,20; 1,1,1) — 10,000 hosts, 1,400 40-port
//!   switches, shuffled ports — intact (the yardstick), with 1, 10 and 100 seeded cuts and
//!   with its top switch `S3_17` dead (the faults `scripts/bench-degraded-pgft.sh` injects);
//! * `change`: the share of all LFT entries one cut cable changes, per family at scale
//!   (`benches/reroute/change.rs`);
//! * `load`: how evenly a degraded LSFT's detours spread — the worst link's flows under
//!   uniform all-to-all against a lower bound (`benches/reroute/load.rs`).
//!
//! `IBFAT_BENCH_RUNS` (default 3): the median of that many runs is printed.
//!
//! Each degraded fabric is rendered as an ibsim net file and read back the way `ibfat
//! route` reads it. Per case: parse, recognise (faults by canonical coordinates) and route
//! (every LFT entry, and the SLs of the LSFT's detours) — the stages OpenSM waits for after
//! a fault; writing files and validating are left out (the plugin hands the tables to
//! OpenSM in memory). Peak RSS is the process's high-water mark since the case started
//! (reset through /proc/self/clear_refs). Target: recognise + route ≤ 1.0 s and ≤ 1 GiB.
//! The last column fingerprints the tables ([`ibfat::routing::LftSet::fingerprint`]), so
//! that a faster router can be checked to give the very same entries.

#[path = "reroute/change.rs"]
mod change;
#[path = "reroute/load.rs"]
mod load;

use ibfat::families::lsft::model::{build, LsftParams};
use ibfat::families::pgft::model::PgftParams;
use ibfat::formats::{dump, ibsim};
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::{route, route_fabric, Ask, Lids, Shape};
use ibfat::topology::faults::inject;
use ibfat::topology::{BuildOptions, Fabric, FamilySpec, NodeId, Spec};
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

/// What routing one case gave: unrouted pairs, unrouted switch LIDs, tables' fingerprint.
type Routed = (u64, u64, String);

/// One table row: inject, render, then `runs` times parse, recognise and route.
fn case(
    what: &str,
    fabric: &Fabric,
    cut: usize,
    seed: u64,
    dead: &[NodeId],
    runs: usize,
    route_it: impl Fn(&Fabric, Recognition, &Lids) -> Routed,
) {
    let inj = inject(fabric, cut, seed, dead).expect("faults inject");
    let net = ibsim::write_net(&inj.fabric, &["benchmark".into()]);
    drop(inj);
    let (mut read, mut rec, mut rt, mut peak) = (Vec::new(), Vec::new(), Vec::new(), 0f64);
    let mut routed = (0, 0, String::new());
    for _ in 0..runs {
        reset_peak();
        let t = Instant::now();
        let parsed = dump::parse(&net, Path::new("degraded.net")).expect("parses");
        read.push(t.elapsed().as_secs_f64());
        let f = parsed.fabric;
        let t = Instant::now();
        let r = recognize(&f, None);
        rec.push(t.elapsed().as_secs_f64());
        let lids = Lids::plan(&f, &[], 0).expect("LIDs");
        let t = Instant::now();
        routed = route_it(&f, r, &lids);
        rt.push(t.elapsed().as_secs_f64());
        peak = peak.max(peak_mib().unwrap_or(0.0));
    }
    let (read, rec, rt) = (median(read), median(rec), median(rt));
    println!(
        "| {what} | {read:.3} | {rec:.3} | {rt:.3} | {:.3} | {peak:.0} | {} | {} | {} |",
        rec + rt,
        routed.0,
        routed.1,
        routed.2
    );
}

fn header() {
    println!("| faults | read s | recognize s | route s | recognize + route s | peak RSS MiB | unrouted pairs | unrouted switch LIDs | tables |");
    println!("|---|---|---|---|---|---|---|---|---|");
}

fn lsft(runs: usize) {
    let q: u32 = env_or("IBFAT_BENCH_ORDER", 32);
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
    header();
    let routed = |what: &str| {
        let what = what.to_string();
        move |f: &Fabric, r: Recognition, lids: &Lids| {
            let Recognition::Unrecognized { degraded: Some(d), .. } = r else {
                panic!("{what}: not recognised as a degraded LSFT")
            };
            assert!(d.lsft().is_some(), "{what}: not an LSFT's holes");
            let r = degraded_routes(f, &d, lids);
            (r.unrouted, r.unrouted_switch_lids, r.lfts.fingerprint(f, lids))
        }
    };
    for (what, cut, dead) in [
        ("1 cut cable", 1, false),
        ("10 cut cables", 10, false),
        ("100 cut cables", 100, false),
        ("1 dead spine", 0, true),
    ] {
        let dead: Vec<NodeId> = if dead { vec![spine] } else { Vec::new() };
        case(what, &fabric, cut, 3, &dead, runs, routed(what));
    }
}

/// The routes `ibfat route` computes for a degraded fabric (`route_fabric`, every VL
/// offered), timed as a front end pays for them.
fn degraded_routes(f: &Fabric, d: &ibfat::recognize::Degraded, lids: &Lids) -> ibfat::routing::Routed {
    let shape = Shape::Degraded {
        holes: &d.holes,
        description: &d.description,
    };
    route_fabric(f, shape, lids, &Ask::default()).expect("routes")
}

/// Route a recognised tree, intact (d-mod-k) or degraded (up*/down* around the holes).
fn route_tree(what: &str, f: &Fabric, r: Recognition, lids: &Lids) -> Routed {
    match r {
        Recognition::Recognized { layout, .. } => {
            let t = route(f, &layout, lids).expect("routes");
            (0, 0, t.fingerprint(f, lids))
        }
        Recognition::Unrecognized { degraded: Some(d), .. } => {
            let ibfat::topology::degraded::Holes::Pgft(_) = &d.holes else {
                panic!("{what}: not a degraded tree")
            };
            let r = degraded_routes(f, &d, lids);
            (r.unrouted, r.unrouted_switch_lids, r.lfts.fingerprint(f, lids))
        }
        Recognition::Unrecognized { reason, .. } => panic!("{what}: not recognised: {reason}"),
    }
}

fn pgft(runs: usize) {
    let p = PgftParams::from_lists(&[20, 20, 25], &[1, 20, 20], &[1, 1, 1], None).expect("a PGFT");
    let mut s = Spec::new(FamilySpec::Pgft(p));
    s.options = BuildOptions {
        shuffle: Some(5),
        ..Default::default()
    };
    let fabric = s.build().expect("the PGFT builds").fabric;
    let top = fabric
        .switches()
        .find(|&s| fabric.node(s).name == "S3_17")
        .expect("top switch S3_17");
    println!(
        "{}: {} switches, {} hosts (shuffled ports); median of {runs}",
        p.describe(),
        fabric.switches().count(),
        fabric.cas().count()
    );
    header();
    for (what, cut, dead) in [
        ("none (intact, for comparison)", 0, false),
        ("1 cut cable", 1, false),
        ("10 cut cables", 10, false),
        ("100 cut cables", 100, false),
        ("dead top switch", 0, true),
        ("dead top switch + 10 cuts", 10, true),
    ] {
        let dead: Vec<NodeId> = if dead { vec![top] } else { Vec::new() };
        case(what, &fabric, cut, 7, &dead, runs, |f, r, lids| {
            route_tree(what, f, r, lids)
        });
    }
}

fn main() {
    let runs: usize = env_or::<usize>("IBFAT_BENCH_RUNS", 3).max(1);
    match std::env::var("IBFAT_BENCH_FABRIC").as_deref().unwrap_or("lsft") {
        "lsft" => lsft(runs),
        "pgft" => pgft(runs),
        "change" => change::main(),
        "load" => load::main(),
        other => panic!("IBFAT_BENCH_FABRIC={other}: lsft, pgft, change or load"),
    }
}
