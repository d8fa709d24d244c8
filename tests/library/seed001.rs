//! Seed 001's experiment (its §3) on ibfat's model: the RICC-like two-level fat-tree (52
//! leaves × 20 hosts, 2 spines, 2 cables per leaf-spine pair: 4 uplinks per leaf, host d
//! reached over uplink d mod 4), 128 ranks in the five placement patterns, all-to-all
//! with 16 KiB and 1 MiB blocks, every algorithm priced on ibfat's own tables.
//!
//! Parameters: L = 20 µs, B = 1.5 GB/s — the DDR-era figures docs/predict.md explains
//! (an effective per-message latency of MPI point-to-point at 16 KiB, rendezvous
//! included, and the link's MPI bandwidth).

use ibfat::families::twolevel::model::TwolevelParams;
use ibfat::routing::{route, Lids};
use ibfat::schedule::Job;
use ibfat::select::model::{costs, predict, Hockney, Placement, SizePrediction};
use ibfat::topology::{FamilySpec, Spec, Topology};

const RICC: TwolevelParams = TwolevelParams {
    leaves: 52,
    hosts_per_leaf: 20,
    spines: 2,
    links_per_pair: 2,
};

/// Fabric ranks of pattern `p` (seed 001 §3), leaf-major.
fn pattern(p: usize) -> Vec<u32> {
    let (leaves, slots): (u32, Vec<u32>) = match p {
        0 => (32, vec![0, 4, 8, 12]),
        1 => (32, vec![0, 2, 4, 6]),
        2 => (32, vec![0, 1, 2, 3]),
        3 => (16, (0..8).collect()),
        _ => (8, (0..16).collect()),
    };
    (0..leaves)
        .flat_map(|l| slots.iter().map(move |&n| RICC.rank(l, n)))
        .collect()
}

fn table(plan: &Topology, sizes: &[u64], h: &Hockney) -> Vec<Vec<SizePrediction>> {
    let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), 0).unwrap();
    let lfts = route(&plan.fabric, &plan.layout, &lids).unwrap();
    (0..5)
        .map(|p| {
            let job = Job::from_fabric_ranks(plan.layout.hosts(), pattern(p)).unwrap();
            assert_eq!(job.len(), 128);
            let placement = Placement {
                plan,
                lids: &lids,
                lfts: &lfts,
                job: &job,
                ranks_per_node: 1,
            };
            let (c, _) = costs(&placement, None).unwrap();
            sizes.iter().map(|&m| predict(&c, h, m, 2.0)).collect()
        })
        .collect()
}

fn time(s: &SizePrediction, name: &str) -> f64 {
    s.algorithms
        .iter()
        .find(|a| a.algorithm == name)
        .unwrap()
        .predicted_seconds
}

fn best(s: &SizePrediction) -> f64 {
    time(s, &s.best)
}

#[test]
fn the_seeds_qualitative_findings_hold_on_the_ricc_like_fabric() {
    let plan = Spec::new(FamilySpec::Pgft(RICC.pgft().unwrap())).build().unwrap();
    let h = Hockney::new(20e-6, 1.5e9).unwrap();
    let t = table(&plan, &[16 << 10, 1 << 20], &h);
    for (p, row) in t.iter().enumerate() {
        for s in row {
            let mut line = format!("pattern {p} M={:>8}:", s.msg_size);
            for a in &s.algorithms {
                line += &format!(" {}={:.3}ms", a.algorithm, a.predicted_seconds * 1e3);
            }
            eprintln!("{line} best={} shortlist={:?}", s.best, s.shortlist);
        }
    }
    let k16 = |p: usize| &t[p][0];
    let ratio = |p: usize| time(k16(p), "bruck") / best(k16(p));
    eprintln!("bruck/best at 16 KiB: {:?}", (0..5).map(ratio).collect::<Vec<_>>());
    // the seed's Figure 2: Bruck at least twice the best in pattern 0, close in pattern 2
    assert!(ratio(0) >= 2.0, "pattern 0: bruck {:.2}× best", ratio(0));
    assert!(ratio(2) <= 1.3, "pattern 2: bruck {:.2}× best", ratio(2));
    // pattern 4: the seed measured ≥ 2×; the exact per-step model gives less (≈ 1.6×),
    // because Bruck's first four steps (shifts 1, 2, 4, 8) stay on each leaf in pattern 4
    // and share no uplink, where the seed's closed form charges every step the
    // placement's worst average bandwidth (docs/predict.md). Still clearly worse than in
    // pattern 2, where every rank has an uplink of its own.
    assert!(
        ratio(4) >= 1.5 && ratio(4) > ratio(2) + 0.25,
        "pattern 4: bruck {:.2}× best",
        ratio(4)
    );
    // the ranking changes with placement: Bruck is pruned (≥ 2× the best) in pattern 0
    // only, and in pattern 2 it ranks ahead of the light-barrier variants
    let rank = |s: &SizePrediction, n: &str| s.shortlist.iter().position(|a| a == n);
    assert_eq!(rank(k16(0), "bruck"), None);
    for p in 1..5 {
        assert!(rank(k16(p), "bruck").is_some(), "pattern {p}");
    }
    assert!(rank(k16(2), "bruck") < rank(k16(2), "ring-light-barrier"));
    assert!(rank(k16(4), "bruck") > rank(k16(4), "ring-light-barrier"));
    // 1 MiB: bandwidth dominates, every algorithm slows down with the sharing of uplinks
    // (pattern 0 four ranks per uplink, pattern 2 one), Bruck most
    for a in ["spread", "ring", "pair", "bruck"] {
        assert!(time(&t[0][1], a) > 3.0 * time(&t[2][1], a), "{a}");
    }
    assert!(time(&t[2][1], "bruck") > 2.0 * best(&t[2][1]));
}
