//! Degraded two-sided LSFTs (issue 12, items 1–3 and 5 for the two-sided LSFT): cut
//! cables, a dead spine or a dead leaf of either side are recognised as that two-sided
//! LSFT with exactly the injected faults (the side in the point's name), and routed:
//! every leaf keeps the intact tables' entry for every pair whose family route survives,
//! every connected pair is routed, and with the SLs and the SL-to-VL rule each of the two
//! data VLs has an acyclic dependency graph. The CLI does the same end to end.

use crate::harness;

use crate::harness::{build_shuffled, ibfat, leaf_spine};
use ibfat::check::vls::check_lanes;
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::Family;
use ibfat::recognize::{recognize, Degraded, Fault, Recognition};
use ibfat::routing::{route, Ask, Lids, Routed};
use ibfat::topology::faults::inject;
use ibfat::topology::{FamilySpec, Layout, NodeId, Topology};
use std::collections::BTreeSet;

/// Two-sided LSFT(q), ports shuffled and GUIDs drawn at random from `shuffle`.
fn two_sided(q: u32, shuffle: u64) -> Topology {
    build_shuffled(FamilySpec::Lsft(LsftParams::new(q, true)), shuffle)
}

fn by_name(f: &ibfat::topology::Fabric, name: &str) -> NodeId {
    f.switches().find(|&s| f.node(s).name == name).unwrap()
}

/// Inject `cut` cuts (seed) and the named dead switches; the recognition, which must be
/// a degraded two-sided LSFT(q).
fn degrade(t: &Topology, cut: usize, seed: u64, dead: &[&str]) -> (ibfat::topology::faults::Injected, Degraded) {
    let f = &t.fabric;
    let dead: Vec<NodeId> = dead.iter().map(|n| by_name(f, n)).collect();
    let inj = inject(f, cut, seed, &dead).unwrap();
    let Recognition::Unrecognized { degraded: Some(d), .. } = recognize(&inj.fabric, None) else {
        panic!("{cut} cuts (seed {seed}), dead {dead:?}: not recognised as degraded")
    };
    (inj, d)
}

/// More dead spines than the order allows leaves more points than the order the live
/// spines fit: refused as a degraded LSFT, not a subtraction that wraps (found by fuzzing
/// a ports report). Every 7 of the first 9 spines of LSFT(3) die in turn.
#[test]
fn more_points_than_the_spines_order_is_refused() {
    let t = two_sided(3, 9);
    let spines: Vec<NodeId> = (0..9).map(|i| by_name(&t.fabric, &format!("S{i}"))).collect();
    for skip in 0..9 * 9 {
        let (a, b) = (skip / 9, skip % 9);
        if a >= b {
            continue;
        }
        let dead: Vec<NodeId> = (0..9).filter(|&i| i != a && i != b).map(|i| spines[i]).collect();
        let inj = inject(&t.fabric, 0, 1, &dead).unwrap();
        if let Recognition::Unrecognized { degraded: Some(d), .. } = recognize(&inj.fabric, Some(Family::Lsft)) {
            panic!("7 dead spines read as {}", d.description);
        }
    }
}

/// The intact fabric's leaf of each (side, point), by name: what the intact recogniser
/// calls side a and side b (the lower GUID of a point is side a).
fn intact_sides(t: &Topology) -> Vec<String> {
    let Recognition::Recognized { layout, .. } = recognize(&t.fabric, None) else {
        panic!("the intact two-sided LSFT is not recognised")
    };
    let Layout::Lsft(l) = &layout else {
        panic!("not an LSFT")
    };
    assert_eq!(l.sides, 2);
    l.leaves.iter().map(|&a| t.fabric.node(a).name.clone()).collect()
}

#[test]
fn cut_cables_dead_spines_and_dead_leaves_are_named_with_their_side() {
    for (q, cuts) in [(3u32, &[1usize, 3, 10][..]), (4, &[1, 3, 10][..]), (5, &[1, 3, 10][..])] {
        let t = two_sided(q, 60 + q as u64);
        let sides = intact_sides(&t);
        let n = (q * q + q + 1) as usize;
        for (i, &cut) in cuts.iter().enumerate() {
            let (inj, d) = degrade(&t, cut, i as u64 + 2, &[]);
            let what = format!("two-sided LSFT({q}), {cut} cuts");
            assert_eq!((d.family, d.order), (Family::Lsft, q), "{what}");
            let h = d.lsft().unwrap();
            assert_eq!(h.sides, 2, "{what}");
            assert!(d.description.contains("two-sided"), "{what}: {}", d.description);
            // exactly the cut cables, each leaf named by its point and the intact side
            let f = &inj.fabric;
            let want: BTreeSet<(String, String)> = inj.cut.iter().map(|c| leaf_spine(&t.fabric, c.a, c.b)).collect();
            let mut got = BTreeSet::new();
            for fault in &d.faults {
                let Fault::MissingCable { leaf, point, .. } = fault else {
                    panic!("{what}: {fault:?}")
                };
                let name = f.node(*leaf).name.clone();
                let i = sides.iter().position(|s| *s == name).unwrap();
                let side = ["a", "b"][i / n];
                assert!(
                    point.starts_with('P') && point.ends_with(side),
                    "{what}: {point} for {name}"
                );
                assert_eq!(h.leaves[i], *leaf, "{what}: {name} not at its intact (side, point)");
                got.insert((name, f.node(fault_spine(fault)).name.clone()));
            }
            assert_eq!(got, want, "{what}");
        }
        // a dead spine (with cuts elsewhere), a dead leaf of either side, both leaves of a point
        let (_, d) = degrade(&t, 2, 9, &["S1"]);
        let counts = count(&d);
        assert_eq!((counts.1, counts.2), (1, 0), "LSFT({q}) without S1: {:?}", d.faults);
        assert_eq!(counts.0, 2, "LSFT({q}) without S1: {:?}", d.faults);
        for dead in [&["L2a"][..], &["L3b"], &["L4a", "L4b"]] {
            let (_, d) = degrade(&t, 0, 1, dead);
            assert_eq!(count(&d), (0, 0, dead.len()), "LSFT({q}) without {dead:?}");
            assert!(
                d.faults.iter().all(|f| f.describe().starts_with("leaf P")),
                "{:?}",
                d.faults
            );
            let h = d.lsft().unwrap();
            assert_eq!(
                h.leaves
                    .iter()
                    .filter(|&&a| a == ibfat::topology::degraded::DEAD)
                    .count(),
                dead.len()
            );
        }
        // a lone leaf of a point is side a, the lost one side b
        let (_, d) = degrade(&t, 0, 1, &["L2a"]);
        assert!(matches!(&d.faults[0], Fault::DeadLeaf { point } if point.ends_with('b')));
    }
}

fn fault_spine(f: &Fault) -> NodeId {
    match f {
        Fault::MissingCable { spine, .. } => *spine,
        _ => unreachable!(),
    }
}

/// (missing cables, dead spines, dead leaves).
fn count(d: &Degraded) -> (usize, usize, usize) {
    let mut c = (0, 0, 0);
    for f in &d.faults {
        match f {
            Fault::MissingCable { .. } => c.0 += 1,
            Fault::DeadSpine { .. } => c.1 += 1,
            Fault::DeadLeaf { .. } => c.2 += 1,
            _ => panic!("a tree's fault on an LSFT: {f:?}"),
        }
    }
    c
}

/// Route, check per VL, and return the routes with the number of leaf entries compared
/// with the intact tables (same LIDs) when no switch is dead.
fn route_and_check(t: &Topology, inj: &ibfat::topology::faults::Injected, d: &Degraded, what: &str) -> (Routed, usize) {
    let h = d.lsft().unwrap();
    let lids = Lids::plan(&inj.fabric, &[], 0).unwrap();
    let r = harness::route_degraded(&inj.fabric, d, &lids, &Ask::default(), what);
    assert_eq!(r.unrouted, 0, "{what}");
    let again = harness::route_degraded(&inj.fabric, d, &lids, &Ask::default(), what);
    assert!(
        again.lfts.ports == r.lfts.ports && harness::sls_of(&again) == harness::sls_of(&r),
        "{what}: not deterministic"
    );
    let v = check_lanes(&inj.fabric, &lids, &r.lfts, r.lanes.as_deref().expect("lanes"));
    assert!(v.ok(), "{what}: {v:?}");
    assert_eq!(v.unrouted, r.unrouted_switch_lids, "{what}: {v:?}");
    // the VLs above 0 carry exactly the paths that turn (SL > 0): without a broken pair (a
    // dead leaf only) one VL is used — switch LIDs follow up*/down* by the family's ranks;
    // the third exactly when some route turns twice
    let twice = r.two_turn.0 + r.two_turn.1;
    assert_eq!(r.data_vls(), 2 + (twice > 0) as u8, "{what}");
    let want = if v.sl_paths > 0 { r.data_vls() } else { 1 };
    assert!(v.vls == want && v.paths > 0, "{what}: {v:?}");
    let mut kept = 0;
    if inj.dead.is_empty() {
        // every leaf's entry for a host whose family route (for its slot) survives is the
        // intact tables' entry, twins included (the same canonical labels without dead switches)
        // (against the intact fabric as recognised: its sides and labels, which the
        // degraded recognition keeps when no switch is dead)
        let Recognition::Recognized { layout, .. } = recognize(&t.fabric, None) else {
            panic!("{what}: the intact fabric is not recognised")
        };
        let whole = route(&t.fabric, &layout, &lids).unwrap();
        let mut slot = vec![0u32; inj.fabric.len()];
        let mut next = vec![0u32; h.leaves.len()];
        for &(i, _, ep) in &h.hosts {
            slot[ep.node as usize] = next[i as usize];
            next[i as usize] += 1;
        }
        for &(dl, _, ep) in &h.hosts {
            let lid = lids.base[inj.fabric.port_index(ep.node, ep.port) as usize];
            for (s, &leaf) in h.leaves.iter().enumerate() {
                let s = s as u32;
                if s == dl || !h.intact_slot(s, dl, slot[ep.node as usize]) {
                    continue;
                }
                assert_eq!(
                    r.lfts.get(leaf, lid),
                    whole.get(leaf, lid),
                    "{what}: an intact pair changed its route"
                );
                kept += 1;
            }
        }
        assert!(kept > 0, "{what}");
    }
    (r, kept)
}

/// Routing (issue 12 items 2, 3): the bound proven in src/families/lsft/route_degraded/mod.rs — two
/// data VLs for any faults that leave every broken pair of different points a detour
/// through one other leaf and the two leaves of a point a common spine with both cables.
#[test]
fn degraded_two_sided_lsfts_are_routed_deadlock_free_on_two_vls() {
    for (q, cut, dead) in [
        (3u32, 1usize, &[][..]),
        (3, 3, &[]),
        (3, 10, &[]),
        (4, 3, &[]),
        (4, 10, &["S5"]),
        (5, 1, &[]),
        (5, 10, &[]),
        (5, 3, &["S2"]),
        (5, 0, &["L3a"]),
        (5, 3, &["L6b"]),
        (7, 30, &[]),
    ] {
        let t = two_sided(q, 70 + q as u64);
        let what = format!("two-sided LSFT({q}), {cut} cuts, dead {dead:?}");
        let (inj, d) = degrade(&t, cut, 4, dead);
        let t0 = std::time::Instant::now();
        let (r, kept) = route_and_check(&t, &inj, &d, &what);
        // a leaf that lost its cable to a spine reaches it by turning at its twin; left
        // unrouted only when the twin cannot take it (lost that spine too, or shares no
        // surviving spine with the leaf) — at most one per cut cable
        if dead.is_empty() && cut <= 10 {
            assert_eq!(r.unrouted_switch_lids, 0, "{what}");
        }
        assert!(
            r.unrouted_switch_lids <= cut as u64,
            "{what}: {}",
            r.unrouted_switch_lids
        );
        eprintln!(
            "{what}: routed and checked in {:.2} s, {kept} intact leaf entries kept, {} (leaf, spine LID) unrouted",
            t0.elapsed().as_secs_f64(),
            r.unrouted_switch_lids
        );
    }
}

/// A fault changes little (issue 21 item 4, every entry): on two-sided LSFT(7) and (5)
/// with one cut cable the degraded tables differ from the intact fabric's (same LIDs) in
/// at most 2 % of ALL entries, switch LIDs included (their columns follow the intact
/// up*/down* rule over the surviving cables).
#[test]
fn one_cut_cable_changes_at_most_two_percent_of_all_entries() {
    for (q, seeds, pct) in [(7u32, 1..=5u64, 2), (5, 1..=3, 2)] {
        let t = two_sided(q, 5);
        let Recognition::Recognized { layout, .. } = recognize(&t.fabric, None) else {
            panic!("intact two-sided LSFT({q}) not recognised")
        };
        let lids = Lids::plan(&t.fabric, &[], 0).unwrap();
        let whole = route(&t.fabric, &layout, &lids).unwrap();
        for seed in seeds {
            let (inj, d) = degrade(&t, 1, seed, &[]);
            let what = format!("LSFT({q}) seed {seed}");
            let r = harness::route_degraded(&inj.fabric, &d, &lids, &Ask::default(), &what);
            harness::assert_change_share(
                &format!("two-sided LSFT({q}) one cut, seed {seed}"),
                &t.fabric,
                &lids,
                (&whole, &r.lfts),
                r.unrouted_switch_lids,
                pct,
            );
            assert_eq!((r.unrouted, r.unrouted_switch_lids), (0, 0), "LSFT({q}) seed {seed}");
        }
    }
}

/// Detours are spread by load: on LSFT(5) two-sided with 10 cuts, uniform all-to-all on
/// the degraded tables loads no switch-to-switch link more than 5 % above what the
/// endpoints force (a leaf's flows over its surviving cables). Spreading detours by count
/// alone put 1.19× that on a link here.
#[test]
fn detours_spread_over_the_surviving_spines() {
    let t = two_sided(5, 91);
    let (inj, d) = degrade(&t, 10, 7, &[]);
    assert!(d.lsft().is_some(), "not a degraded LSFT");
    let lids = Lids::plan(&inj.fabric, &[], 0).unwrap();
    let r = harness::route_degraded(&inj.fabric, &d, &lids, &Ask::default(), "two-sided LSFT(5), 10 cuts");
    assert!(harness::sls_of(&r).iter().any(|&s| s > 0), "no detour");
    let (worst, bound) = harness::uniform_link_load(&inj.fabric, &lids, &r.lfts);
    eprintln!(
        "busiest link {worst} flows, endpoint bound {bound:.0}: {:.3}",
        worst as f64 / bound
    );
    assert!(
        worst as f64 <= 1.05 * bound,
        "busiest link {worst} flows, bound {bound:.0}"
    );
}

/// The CLI on a two-sided plan: `faults` cuts cables and kills a spine, `recognize` lists
/// them (exit 1) with the side, JSON with `sides: 2`; `route` writes tables, SLs and
/// SL-to-VL tables; `lfts validate` with them passes per VL.
#[test]
fn cli_two_sided_faults_recognize_route_validate() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    harness::build_plan(
        &["build", "lsft", "--order", "3", "--two-sided", "--shuffle", "5"],
        &plan,
    );
    let out = t.path().join("cut");
    let (c, o, e) = ibfat(&[
        "faults",
        plan.to_str().unwrap(),
        "--cut",
        "3",
        "--seed",
        "2",
        "--dead",
        "S4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{o}{e}");
    let net = out.join("topology.net");
    let (c, o, e) = ibfat(&["recognize", net.to_str().unwrap(), "--json"]);
    assert_eq!(c, 1, "{o}{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(
        (v["family"].as_str(), v["order"].as_u64(), v["sides"].as_u64()),
        (Some("lsft"), Some(3), Some(2)),
        "{o}"
    );
    let faults = v["faults"].as_array().unwrap();
    assert_eq!(faults.iter().filter(|f| f["kind"] == "dead-spine").count(), 1, "{o}");
    let cables: Vec<_> = faults.iter().filter(|f| f["kind"] == "missing-cable").collect();
    assert_eq!(cables.len(), 3, "{o}");
    assert!(
        cables.iter().all(|f| {
            let p = f["point"].as_str().unwrap();
            p.ends_with('a') || p.ends_with('b')
        }),
        "{o}"
    );
    let (c, o, _) = ibfat(&["recognize", net.to_str().unwrap()]);
    assert_eq!(c, 1);
    assert!(
        o.contains("LSFT(3) two-sided, degraded: 3 missing cables, 1 dead spines"),
        "{o}"
    );
    let routes = t.path().join("routes");
    let (c, o, e) = ibfat(&[
        "route",
        net.to_str().unwrap(),
        "--out",
        routes.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(c, 0, "{o}{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["lanes"]["proof"]["vls"].as_u64(), v["data_vls"].as_u64(), "{o}");
    assert!(v["data_vls"].as_u64().is_some_and(|x| x == 2 || x == 3), "{o}");
    assert!(v["lanes"]["proof"]["sl_paths"].as_u64().unwrap() > 0, "{o}");
    let (c, o, e) = ibfat(&[
        "lfts",
        "validate",
        net.to_str().unwrap(),
        "--lfts",
        routes.join("opensm-lfts.dump").to_str().unwrap(),
        "--sl",
        routes.join("path-sl.txt").to_str().unwrap(),
        "--sl2vl",
        routes.join("sl2vl.txt").to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{o}{e}");
    assert!(o.contains("deadlock per VL: free (2 data VLs"), "{o}");
}

/// Schedule repair (issue 12 item 4) on two-sided LSFTs: the two-sided all-to-all of every
/// host that is there, repaired for the degraded tables — every ordered pair once, no
/// unrouted flow, conflict-free as measured by the checker on those tables.
#[test]
fn repaired_two_sided_schedules_are_conflict_free_on_the_degraded_tables() {
    for (q, cut, dead) in [(3u32, 3usize, &[][..]), (4, 10, &["S3"][..])] {
        let t = two_sided(q, 80 + q as u64);
        let (inj, d) = degrade(&t, cut, 6, dead);
        let h = d.lsft().unwrap();
        let lids = Lids::plan(&inj.fabric, &[], 0).unwrap();
        let what = format!("two-sided LSFT({q}) {cut} cuts dead {dead:?}");
        let r = harness::route_degraded(&inj.fabric, &d, &lids, &Ask::default(), &what);
        let rep = harness::repaired_lsft_checked(&inj.fabric, h, &lids, &r.lfts, t.layout.hosts().len(), &what);
        assert!(rep.kept_phases > 0 && rep.moved_flows > 0, "{what}");
        eprintln!(
            "{what}\n  phases {} (intact {}), throughput vs intact: repaired {:.3}, unrepaired {:.3}",
            rep.phases,
            rep.original_phases,
            rep.throughput_vs_intact(),
            rep.unrepaired_vs_intact()
        );
    }
}
