//! The checker (docs/schedules.md §5): published figures and conflict-freeness proven on ibfat's own
//! LFTs, defects reported instead of crashing, shards that merge exactly.

use ibfat::check::shard::{job_fingerprint, slice, ShardLinks};
use ibfat::check::{check, check_counted, merge, CheckShard, CompiledRoutes};
use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::mols::model::{MolsParams, WiringChoice};
use ibfat::routing::{route, Lids};
use ibfat::schedule::shift::Shift;
use ibfat::schedule::{Pattern, IDLE};
use ibfat::topology::{FamilySpec, Spec, Topology};

fn routed(f: FamilySpec, lmc: u8) -> (Topology, Lids, ibfat::routing::LftSet) {
    let plan = Spec::new(f).build().unwrap();
    let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), lmc).unwrap();
    let lfts = route(&plan.fabric, &plan.layout, &lids).unwrap();
    (plan, lids, lfts)
}

fn shift_report(f: FamilySpec, lmc: u8, offset: u16) -> ibfat::check::CheckReport {
    let (plan, lids, lfts) = routed(f, lmc);
    let hosts = plan.layout.hosts();
    let routes = CompiledRoutes::compile(&plan.fabric, &lids, &lfts, hosts, offset).unwrap();
    let pat = Shift::new(hosts.len());
    check(&plan.fabric, hosts, &routes, &pat, 0..pat.phases(), &|| {}).unwrap()
}

/// docs/schedules.md §5.3: shift all-to-all on LSFT(17), all 5,526 hosts, has throughput ratio 0.108.
#[test]
fn shift_on_lsft17_matches_the_published_ratio() {
    let r = shift_report(FamilySpec::Lsft(LsftParams::new(17, false)), 0, 0);
    assert_eq!(r.flows, 5526 * 5525);
    assert_eq!(r.unrouted_flows, 0);
    assert!((r.throughput_ratio - 0.108).abs() <= 0.001, "{}", r.throughput_ratio);
    assert!(r.max_congestion > 1);
    assert_eq!(r.histogram.iter().sum::<u64>(), r.flows);
}

#[test]
fn tree_order_shift_is_conflict_free_on_kary_3_trees() {
    for k in [2, 3, 4, 5, 6] {
        let r = shift_report(FamilySpec::Kary(KaryParams { arity: k, levels: 3 }), 0, 0);
        assert_eq!(r.throughput_ratio, 1.0, "{k}-ary 3-tree: {:?}", r.worst_phases.first());
        assert_eq!(r.max_congestion, 1);
    }
}

#[test]
fn bandwidth_routes_keep_shift_conflict_free_on_every_mols_wiring() {
    for n in [2, 3, 4, 5, 6, 7] {
        for w in [WiringChoice::Standard, WiringChoice::Basic, WiringChoice::Auto] {
            let r = shift_report(FamilySpec::Mols(MolsParams { arity: n, wiring: w }), 1, 0);
            assert_eq!(r.throughput_ratio, 1.0, "n={n} {w}: {:?}", r.worst_links.first());
        }
    }
    // the latency routes (base+1) are not built for bandwidth: shift conflicts there
    let r = shift_report(
        FamilySpec::Mols(MolsParams {
            arity: 5,
            wiring: WiringChoice::Mols,
        }),
        1,
        1,
    );
    assert!(r.throughput_ratio < 1.0);
}

/// Broken tables produce counted, named unrouted flows, never a crash.
#[test]
fn unrouted_flows_are_counted_and_named() {
    let (plan, lids, mut lfts) = routed(FamilySpec::Lsft(LsftParams::new(3, false)), 0);
    let hosts = plan.layout.hosts();
    let victim = hosts[7];
    let lid = lids.lid(&plan.fabric, victim.node, victim.port);
    for &sw in &lfts.switches.clone() {
        lfts.set(sw, lid, ibfat::routing::NO_ROUTE);
    }
    let routes = CompiledRoutes::compile(&plan.fabric, &lids, &lfts, hosts, 0).unwrap();
    let pat = Shift::new(hosts.len());
    let r = check(&plan.fabric, hosts, &routes, &pat, 0..pat.phases(), &|| {}).unwrap();
    assert_eq!(
        r.unrouted_flows,
        (hosts.len() - 1) as u64,
        "every other host's flow to rank 7"
    );
    assert!(r.throughput_ratio < 1.0);
    let ex = &r.unrouted_examples[0];
    assert_eq!(ex.dest_rank, 7);
    assert!(ex.destination.contains(&plan.fabric.node(victim.node).desc));
}

struct Broken;
impl Pattern for Broken {
    fn name(&self) -> String {
        "broken".into()
    }
    fn ranks(&self) -> usize {
        52
    }
    fn phases(&self) -> usize {
        3
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        out.iter_mut().for_each(|o| *o = IDLE);
        if p == 2 {
            out[0] = 5;
            out[1] = 5;
        }
    }
}

#[test]
fn a_phase_that_is_not_a_partial_permutation_is_refused() {
    let (plan, lids, lfts) = routed(FamilySpec::Lsft(LsftParams::new(3, false)), 0);
    let hosts = plan.layout.hosts();
    let routes = CompiledRoutes::compile(&plan.fabric, &lids, &lfts, hosts, 0).unwrap();
    let e = check(&plan.fabric, hosts, &routes, &Broken, 0..3, &|| {})
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("phase 2 is not a partial permutation: rank 5 receives twice"),
        "{e}"
    );
}

#[test]
fn shards_merge_into_the_full_report() {
    let (plan, lids, lfts) = routed(FamilySpec::Lsft(LsftParams::new(4, false)), 0);
    let hosts = plan.layout.hosts();
    let routes = CompiledRoutes::compile(&plan.fabric, &lids, &lfts, hosts, 0).unwrap();
    let pat = Shift::new(hosts.len());
    let full = check(&plan.fabric, hosts, &routes, &pat, 0..pat.phases(), &|| {}).unwrap();
    let n = pat.phases();
    let job = job_fingerprint(&plan.fabric, hosts);
    let on = lfts.computed_for(&plan.fabric, &lids);
    // a shard made from a named report and one made from the counts (as `check --shard`
    // does, never naming each link) are the same shard
    let shards: Vec<_> = (0..3)
        .map(|i| {
            let mut r = check(&plan.fabric, hosts, &routes, &pat, slice(i, 3, n), &|| {}).unwrap();
            let named = CheckShard::new(&mut r, (i, 3), String::new(), job.clone(), on.clone()).unwrap();
            let (rc, counts) = check_counted(&plan.fabric, hosts, &routes, &pat, slice(i, 3, n), None, &|| {}).unwrap();
            assert!(rc.link_loads.is_empty() && !counts.is_empty());
            let links = ShardLinks::from_counts(&plan.fabric, &counts).unwrap();
            assert_eq!(links.len(), counts.len());
            let counted = CheckShard::with_links(&rc, links, (i, 3), String::new(), job.clone(), on.clone());
            assert_eq!(
                counted.links.loads().collect::<Vec<_>>(),
                named.links.loads().collect::<Vec<_>>()
            );
            assert_eq!(counted.links, named.links, "the names table in the same order");
            assert_eq!(counted.worst_phases, named.worst_phases);
            assert_eq!((counted.flows, &counted.histogram), (named.flows, &named.histogram));
            (format!("s{i}"), counted)
        })
        .collect();
    let m = merge(&shards, false).unwrap();
    assert_eq!(
        (m.flows, m.unrouted_flows, m.max_congestion),
        (full.flows, full.unrouted_flows, full.max_congestion)
    );
    assert_eq!(m.histogram, full.histogram);
    assert!((m.throughput_ratio - full.throughput_ratio).abs() < 1e-12);
    assert_eq!(m.link_loads, full.link_loads);
    assert_eq!(m.worst_links, full.worst_links);
    assert_eq!(m.phases_checked, n);
    assert!(
        merge(&[shards[0].clone(), shards[0].clone()], false).is_err(),
        "overlapping shards"
    );
}
