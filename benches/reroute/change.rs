//! How small a reroute is (issue 21 item 4), per family at scale: the share of all LFT
//! entries (host and switch LIDs, every switch) that one cut switch-to-switch cable changes,
//! compared by [`ibfat::check::lft_diff::diff`] (what `ibfat lfts diff` reports) between the
//! intact tables and the degraded ones, same LIDs, over seeds 1..=`IBFAT_BENCH_SEEDS`
//! (default 5). Fabrics: PGFT(3; 20,20,25; 1,20,20; 1,1,1) (10,000 hosts), the 10-ary
//! 3-tree (1,000 hosts) and LSFT(13), each with shuffled ports.

use super::env_or;
use ibfat::check::lft_diff::{diff, DumpTables};
use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::pgft::model::PgftParams;
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::{route_fabric, Ask, LftSet, Lids, Shape};
use ibfat::topology::faults::inject;
use ibfat::topology::{BuildOptions, Fabric, FamilySpec, NodeKind, Spec, NO_PEER};

/// The tables of `f` as `ibfat route` computes them, intact or degraded.
fn tables(f: &Fabric, lids: &Lids, what: &str) -> LftSet {
    match recognize(f, None) {
        Recognition::Recognized { layout, .. } => {
            route_fabric(f, Shape::Intact(&layout), lids, &Ask::default())
                .expect("routes")
                .lfts
        }
        Recognition::Unrecognized { degraded: Some(d), .. } => {
            let shape = Shape::Degraded {
                holes: &d.holes,
                description: &d.description,
            };
            route_fabric(f, shape, lids, &Ask::default()).expect("routes").lfts
        }
        Recognition::Unrecognized { reason, .. } => panic!("{what}: not recognised: {reason}"),
    }
}

/// Print one row: the changed share of every seed, and its range.
fn family(family: FamilySpec, seeds: u64) {
    let mut s = Spec::new(family);
    s.options = BuildOptions {
        shuffle: Some(5),
        ..Default::default()
    };
    let t = s.build().expect("the fabric builds");
    let what = t.layout.describe();
    let lids = Lids::plan(&t.fabric, &[], 0).expect("LIDs");
    let intact = tables(&t.fabric, &lids, &what);
    let mut shares: Vec<(f64, f64)> = Vec::new();
    let mut total = 0;
    for seed in 1..=seeds {
        // a cut keeps every node (and its number): the same LIDs and rows on both sides
        let inj = inject(&t.fabric, 1, seed, &[]).expect("a cut");
        let degraded = tables(&inj.fabric, &lids, &what);
        let listed = vec![true; intact.switches.len()];
        let side = |lfts| DumpTables {
            lids: &lids,
            lfts,
            listed: &listed,
        };
        let d = diff(&inj.fabric, side(&intact), side(&degraded)).expect("same LIDs");
        total = d.entries_compared;
        // host LIDs alone: the data flows a reroute disturbs
        let host = |lid: u16| {
            let owner = lids.owner[lid as usize];
            owner != NO_PEER && inj.fabric.node(inj.fabric.ports[owner as usize].node).kind != NodeKind::Switch
        };
        let host_lids = (1..lids.owner.len() as u16).filter(|&l| host(l)).count();
        let host_changed: usize = d
            .switches
            .iter()
            .map(|s| s.changes.iter().filter(|c| host(c.lid)).count())
            .sum();
        shares.push((
            d.changed_fraction * 100.0,
            host_changed as f64 * 100.0 / (host_lids * intact.switches.len()) as f64,
        ));
    }
    let range = |v: Vec<f64>| {
        let (lo, hi) = v.iter().fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        let each: Vec<String> = v.iter().map(|x| format!("{x:.3}")).collect();
        format!("{lo:.3}–{hi:.3} % ({})", each.join(", "))
    };
    println!(
        "| {what} | {} | {} | {total} | {} | {} |",
        t.fabric.switches().count(),
        t.fabric.cas().count(),
        range(shares.iter().map(|x| x.0).collect()),
        range(shares.iter().map(|x| x.1).collect()),
    );
}

/// The `change` table (module doc).
pub fn main() {
    let seeds: u64 = env_or("IBFAT_BENCH_SEEDS", 5);
    println!("One cut switch-to-switch cable (seeds 1..={seeds}): share of all LFT entries changed");
    println!("| fabric | switches | hosts | entries compared | all entries changed (per seed) | host-LID entries changed (per seed) |");
    println!("|---|---|---|---|---|---|");
    let pgft = PgftParams::from_lists(&[20, 20, 25], &[1, 20, 20], &[1, 1, 1], None).expect("a PGFT");
    family(FamilySpec::Pgft(pgft), seeds);
    family(FamilySpec::Kary(KaryParams { arity: 10, levels: 3 }), seeds);
    family(FamilySpec::Lsft(LsftParams::new(13, false)), seeds);
}
