//! The schedules on real tables (docs/schedules.md §5.2): every generated schedule that claims to be
//! conflict-free measures throughput ratio 1.0 with the checker on ibfat's own LFTs, over
//! every flow of every phase (two-sided LSFTs included, which depend on the routing
//! sending twin-leaf traffic to slot j over the j-th line through the point).

use ibfat::check::{check, CheckReport, CompiledRoutes};
use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::mols::model::{MolsParams, WiringChoice};
use ibfat::geometry::is_prime_power;
use ibfat::routing::{route, LftSet, Lids};
use ibfat::schedule::{Job, Pattern, PatternKind, Request};
use ibfat::select::generate;
use ibfat::topology::{BuildOptions, FamilySpec, Spec, Topology};
use rayon::prelude::*;

struct Routed {
    plan: Topology,
    lids: Lids,
    lfts: LftSet,
}

fn routed(family: FamilySpec, shuffle: Option<u64>, lmc: u8) -> Routed {
    let spec = Spec {
        family,
        options: BuildOptions {
            shuffle,
            ..Default::default()
        },
    };
    let plan = spec.build().unwrap();
    let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), lmc).unwrap();
    let lfts = route(&plan.fabric, &plan.layout, &lids).unwrap();
    Routed { plan, lids, lfts }
}

fn measure(r: &Routed, job: &Job, pattern: &dyn Pattern) -> CheckReport {
    let routes = CompiledRoutes::compile(&r.plan.fabric, &r.lids, &r.lfts, job.hosts(), 0).unwrap();
    check(
        &r.plan.fabric,
        job.hosts(),
        &routes,
        pattern,
        0..pattern.phases(),
        &|| {},
    )
    .unwrap()
}

fn lsft(q: u32, two_sided: bool, hosts_per_leaf: Option<u32>) -> FamilySpec {
    FamilySpec::Lsft(LsftParams {
        order: q,
        two_sided,
        hosts_per_leaf,
    })
}

fn assert_conflict_free(what: &str, r: &CheckReport) {
    assert_eq!(r.unrouted_flows, 0, "{what}: {:?}", r.unrouted_examples.first());
    assert!(
        r.max_congestion <= 1,
        "{what}: {:?} {:?}",
        r.worst_phases.first(),
        r.worst_links.first()
    );
    assert_eq!(r.throughput_ratio, 1.0, "{what}");
}

#[test]
fn lsft_measures_one_for_every_prime_power_up_to_13_one_and_two_sided() {
    let configs: Vec<(u32, bool)> = (2..=13)
        .rev()
        .filter(|&q| is_prime_power(q))
        .flat_map(|q| [(q, true), (q, false)])
        .collect();
    configs.par_iter().for_each(|&(q, two)| {
        let r = routed(lsft(q, two, None), None, 0);
        let (g, _) = generate(&r.plan, &Request::new(PatternKind::Lsft)).unwrap();
        let n = g.job.len() as u64;
        let report = measure(&r, &g.job, g.pattern.as_ref());
        assert_eq!(
            report.flows,
            n * (n - 1),
            "q={q} two-sided={two}: every pair, self excluded"
        );
        assert_conflict_free(&format!("lsft q={q} two-sided={two}"), &report);
    });
}

#[test]
fn lsft_on_shuffled_cabling_partial_leaves_and_jobs_measures_one() {
    // shuffled ports and GUIDs: the canonical numbering comes from the layout, not the ports
    let r = routed(lsft(4, true, None), Some(17), 0);
    let (g, _) = generate(&r.plan, &Request::new(PatternKind::Lsft)).unwrap();
    assert_conflict_free("shuffled two-sided q=4", &measure(&r, &g.job, g.pattern.as_ref()));
    // fewer hosts per leaf, and a scattered job in reverse order: idle slots, still 1.0
    let r = routed(lsft(5, true, Some(4)), None, 0);
    let (g, _) = generate(&r.plan, &Request::new(PatternKind::Lsft)).unwrap();
    assert_conflict_free(
        "q=5 two-sided, 4 hosts per leaf",
        &measure(&r, &g.job, g.pattern.as_ref()),
    );
    let ranks: Vec<u32> = (0..r.plan.layout.hosts().len() as u32)
        .rev()
        .filter(|x| x % 7 < 3)
        .collect();
    let mut req = Request::new(PatternKind::Lsft);
    req.job = Some(Job::from_fabric_ranks(r.plan.layout.hosts(), ranks).unwrap());
    let (g, _) = generate(&r.plan, &req).unwrap();
    assert_conflict_free("q=5 job subset", &measure(&r, &g.job, g.pattern.as_ref()));
}

#[test]
fn lsft_partial_measures_one_for_every_valid_block_up_to_q11() {
    let qs: Vec<u32> = (2..=11).filter(|&q| is_prime_power(q)).collect();
    qs.par_iter().for_each(|&q| {
        let r = routed(lsft(q, false, None), None, 0);
        for k in 1..=q {
            for m in 1..=k {
                let mut req = Request::new(PatternKind::LsftPartial);
                req.block = Some((k, m));
                let (g, _) = generate(&r.plan, &req).unwrap();
                let d = (q * k * m) as u64;
                assert_eq!((g.job.len() as u64, g.pattern.phases() as u64), (d, d));
                let report = measure(&r, &g.job, g.pattern.as_ref());
                assert_eq!(report.flows, d * (d - 1));
                assert_conflict_free(&format!("lsft-partial (q,k,m)=({q},{k},{m})"), &report);
            }
        }
    });
}

#[test]
fn placed_jobs_measure_one_when_a_conflict_free_placement_is_chosen() {
    let r = routed(lsft(7, false, None), None, 0);
    for d in [1usize, 14, 50, 100, 196, 300, 343] {
        let mut req = Request::new(PatternKind::LsftPartial);
        req.job_size = Some(d);
        let (g, choice) = generate(&r.plan, &req).unwrap();
        assert_eq!(g.job.len(), d);
        if [14, 196, 343].contains(&d) {
            // D = 7·k·m: an exact block exists and is never beaten
            assert!(choice.as_ref().unwrap().exact && g.block.is_some(), "D={d}");
        }
        if g.conflict_free.is_some() {
            assert_conflict_free(&format!("placed D={d}"), &measure(&r, &g.job, g.pattern.as_ref()));
        }
    }
}

#[test]
fn tree_shifts_measure_one_when_the_guarantee_holds() {
    // k-ary 3-tree, k = 3: pods of 9 hosts. Two whole pods listed in a shuffled order,
    // and a job aligned mod 9 that is no union of pods.
    let r = routed(FamilySpec::Kary(KaryParams { arity: 3, levels: 3 }), None, 0);
    let pods: Vec<u32> = (18..27).chain(0..9).rev().collect();
    let aligned: Vec<u32> = vec![0, 1, 2, 3, 13, 14, 15, 16, 26];
    for ranks in [pods, aligned] {
        let mut req = Request::new(PatternKind::KaryShift);
        req.job = Some(Job::from_fabric_ranks(r.plan.layout.hosts(), ranks.clone()).unwrap());
        let (g, _) = generate(&r.plan, &req).unwrap();
        assert!(g.conflict_free.is_some(), "{ranks:?}");
        assert_conflict_free(
            &format!("kary-shift {ranks:?}"),
            &measure(&r, &g.job, g.pattern.as_ref()),
        );
    }
    // the first 5 hosts of a binary 3-tree: no guarantee, and shift does collide there
    let r = routed(FamilySpec::Kary(KaryParams { arity: 2, levels: 3 }), None, 0);
    let mut req = Request::new(PatternKind::KaryShift);
    req.job = Some(Job::from_fabric_ranks(r.plan.layout.hosts(), (0..5).collect()).unwrap());
    let (g, _) = generate(&r.plan, &req).unwrap();
    assert!(g.conflict_free.is_none());
    assert!(measure(&r, &g.job, g.pattern.as_ref()).throughput_ratio < 1.0);
    // MOLS 3-tree (bandwidth routes, LMC 1): two whole pods of n² hosts
    for wiring in [WiringChoice::Mols, WiringChoice::Basic, WiringChoice::Standard] {
        let r = routed(FamilySpec::Mols(MolsParams { arity: 4, wiring }), None, 1);
        let mut req = Request::new(PatternKind::MolsShift);
        req.job = Some(Job::from_fabric_ranks(r.plan.layout.hosts(), (16..48).collect()).unwrap());
        let (g, _) = generate(&r.plan, &req).unwrap();
        assert!(g.conflict_free.is_some());
        assert_conflict_free(
            &format!("mols-shift {wiring}"),
            &measure(&r, &g.job, g.pattern.as_ref()),
        );
    }
}
