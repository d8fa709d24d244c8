//! The per-VL check of degraded trees' switch-LID detours (issue 12,
//! [`crate::families::tree::lanes`]): a shuffled 4-ary 3-tree, a PGFT with parallel cables
//! and MOLS 3-level trees (LMC 0 and 1) with 1, 3 and 10 seeded cuts and a dead top
//! switch. With the detours on SL 1 and 2 the routes pass the per-VL check (every path
//! arrives, VLs never decrease, every VL's CDG acyclic); every (leaf, switch LID) pair is
//! routed but the counted remainder; dropping the detours (`TreeRoutes::drop_detours`)
//! gives back one-VL routes whose CDG is acyclic and whose unrouted count is the old one
//! (every turning route dropped); host routes do not change; routing twice gives the same
//! tables and detours.
//!
//! Unit tests, because they read the routers' own result (the detour list, the ranks, the
//! drop's count), which is crate-private and folded into `Routed` by `route_fabric`; here
//! in `check`, because they need recognition and the checkers, layers above the routers.
//! tests/cli/tree_lanes.rs checks what the CLI and the pipeline give.

use crate::check::lfts::validate;
use crate::check::vls::check_lanes;
use crate::families::kary::model::KaryParams;
use crate::families::mols::model::{MolsParams, WiringChoice};
use crate::families::mols::route_degraded::route_mols;
use crate::families::pgft::model::PgftParams;
use crate::families::pgft::route_degraded::route_pgft;
use crate::families::tree::lanes::{RELAY_LEAF_SL, RELAY_TWO_SL};
use crate::families::tree::route_degraded::TreeRoutes;
use crate::families::Family;
use crate::recognize::{recognize, Degraded, Recognition};
use crate::routing::escape::ESCAPE_SL;
use crate::routing::lanes::LaneRules;
use crate::routing::{Lids, NO_ROUTE};
use crate::topology::degraded::Holes;
use crate::topology::faults::inject;
use crate::topology::{BuildOptions, Fabric, FamilySpec, Layout, NodeKind, Spec, Topology};

fn build(family: FamilySpec, shuffle: u64) -> Topology {
    let mut s = Spec::new(family);
    s.options = BuildOptions {
        shuffle: Some(shuffle),
        ..Default::default()
    };
    s.build().unwrap()
}

/// The switches of the top level of a tree: a PGFT's by its recognised layout, a MOLS
/// tree's by name.
fn tops(t: &Topology) -> Vec<u32> {
    if matches!(t.layout, Layout::Mols(_)) {
        return t
            .fabric
            .switches()
            .filter(|&s| t.fabric.node(s).name.starts_with('T'))
            .collect();
    }
    let Recognition::Recognized {
        layout: Layout::Pgft(p),
        ..
    } = recognize(&t.fabric, Some(Family::Pgft))
    else {
        panic!("intact fabric not recognised as a PGFT")
    };
    p.level(p.offset.len() as u32 - 1).to_vec()
}

/// Route the degraded fabric `g` whose holes are `h`.
fn route_tree(g: &Fabric, h: &Holes, lids: &Lids) -> TreeRoutes {
    match h {
        Holes::Pgft(h) => route_pgft(g, h, lids).unwrap(),
        Holes::Mols(h) => route_mols(g, h, lids).unwrap(),
        Holes::Lsft(_) => panic!("not a tree"),
    }
}

/// The degraded recognition of `f`; panics (naming `what`) when it is intact or not a
/// known family with faults.
fn degraded(f: &Fabric, what: &str) -> Degraded {
    match recognize(f, None) {
        Recognition::Unrecognized { degraded: Some(d), .. } => d,
        Recognition::Unrecognized { reason, attempts, .. } => {
            panic!("{what}: not recognised as degraded: {reason} {attempts:?}")
        }
        Recognition::Recognized { .. } => panic!("{what}: recognised as intact"),
    }
}

/// Check one fault set; returns (detours, unrouted switch LIDs with them, without them).
fn check(t: &Topology, cut: usize, seed: u64, dead: &[u32], lmc: u8) -> (usize, u64, u64) {
    let what = format!(
        "{} with {cut} cuts (seed {seed}), {} dead, LMC {lmc}",
        t.layout.describe(),
        dead.len()
    );
    let inj = inject(&t.fabric, cut, seed, dead).unwrap();
    let g = &inj.fabric;
    let d = degraded(g, &what);
    let lids = Lids::plan(g, &[], lmc).unwrap();
    let r = route_tree(g, &d.holes, &lids);
    let escaped = r.escape.pairs.len();
    assert_eq!(
        r.data_vls(),
        if r.detours.is_empty() { 1 } else { 2 } + (escaped > 0) as u8,
        "{what}"
    );
    // every pair these connected fabrics join is routed: by up*/down*, a detour, or the
    // escape lane
    assert_eq!(
        (r.unrouted, r.unrouted_switch_lids, r.escape.refused),
        (0, 0, 0),
        "{what}: {:?}",
        r.unrouted_named
    );
    // per VL: every routed path arrives, VLs never decrease, every VL's CDG acyclic
    let lanes = r.lanes(g);
    let v = check_lanes(g, &lids, &r.lfts, &lanes);
    assert!(v.ok() && v.vl_decreases == 0 && v.broken == 0, "{what}: {v:?}");
    assert!(v.vls <= r.data_vls(), "{what}: {v:?}");
    // every leaf of these trees has hosts: the walks from them are exactly the leaf rows,
    // so the unrouted paths are the counted host pairs and (leaf, switch LID) pairs, and
    // the paths on SL 1 and 2 are the detours
    let leaves_without_hosts = r
        .lfts
        .switches
        .iter()
        .enumerate()
        .filter(|&(row, &s)| {
            r.rank[row] == *r.rank.iter().filter(|&&x| x != u32::MAX).max().unwrap() && !has_hosts(g, s)
        })
        .count();
    assert_eq!(leaves_without_hosts, 0, "{what}");
    assert_eq!(v.unrouted, r.unrouted + r.unrouted_switch_lids, "{what}: {v:?}");
    assert_eq!(v.sl_paths, (r.detours.len() + escaped) as u64, "{what}: {v:?}");
    if !r.detours.is_empty() || escaped > 0 {
        assert_eq!(v.vls, r.data_vls(), "{what}: {v:?}");
    }
    for &(leaf, lid) in &r.escape.pairs {
        assert_eq!(lanes.sl(leaf, lid as usize), ESCAPE_SL, "{what}");
        let row = r.lfts.row_of[leaf as usize] as usize;
        assert_ne!(r.lfts.ports[row * r.lfts.stride + lid as usize], NO_ROUTE);
    }
    for &(row, lid, sl) in &r.detours {
        let leaf = r.lfts.switches[row as usize];
        assert!([RELAY_LEAF_SL, RELAY_TWO_SL].contains(&sl), "{what}");
        assert_eq!(lanes.sl(leaf, lid as usize), sl, "{what}");
        assert_ne!(r.lfts.ports[row as usize * r.lfts.stride + lid as usize], NO_ROUTE);
        let owner = lids.owner[lid as usize];
        assert_eq!(g.node(g.ports[owner as usize].node).kind, NodeKind::Switch, "{what}");
    }
    // without a second VL: the detours and the escape lane dropped, the one-VL routes as
    // before this rule (every turning route removed), CDG acyclic
    let mut one = r.clone();
    let dropped = one.drop_detours(g, &lids);
    assert_eq!(dropped, (r.detours.len() + escaped) as u64);
    assert_eq!(
        one.unrouted_switch_lids,
        r.unrouted_switch_lids + r.detours.len() as u64 + r.escape.switch_pairs,
        "{what}"
    );
    assert_eq!(one.unrouted, r.unrouted + r.escape.host_pairs, "{what}");
    assert_eq!(one.data_vls(), 1);
    let v1 = validate(g, &lids, &one.lfts, None);
    assert!(
        v1.deadlock_free && v1.loops == 0 && v1.misdelivered == 0,
        "{what}: {v1:?}"
    );
    assert_eq!(v1.broken_host_routes, one.unrouted, "{what}");
    let c1 = check_lanes(g, &lids, &one.lfts, &one.lanes(g));
    assert!(c1.ok() && c1.sl_paths == 0 && c1.vls <= 1, "{what}: {c1:?}");
    assert_eq!(c1.unrouted, one.unrouted + one.unrouted_switch_lids, "{what}");
    // with and without detours, the tables differ only at the detours' and the escape
    // pairs' first switches (the escape lane's entries on the way stay: no kept route
    // crosses them)
    for row in 0..r.lfts.switches.len() {
        for lid in 1..r.lfts.stride {
            let i = row * r.lfts.stride + lid;
            let detour = r
                .detours
                .iter()
                .any(|&(dr, dl, _)| (dr, dl) == (row as u32, lid as u16))
                || r.escape.carries(r.lfts.switches[row], lid as u32);
            assert_eq!(
                r.lfts.ports[i] == one.lfts.ports[i],
                !detour,
                "{what}: row {row} LID {lid}"
            );
        }
    }
    // deterministic
    let again = route_tree(g, &d.holes, &lids);
    assert_eq!(again.lfts.ports, r.lfts.ports, "{what}");
    assert_eq!(again.detours, r.detours, "{what}");
    assert_eq!(again.unrouted_switch_lids, r.unrouted_switch_lids, "{what}");
    assert_eq!(again.escape, r.escape, "{what}");
    println!(
        "{what}: {} detours on SL 1, {} on SL 2, {} host and {} switch-LID pairs on the escape lane, {} (leaf, \
         switch LID) pairs unrouted (was {})",
        r.detours.iter().filter(|d| d.2 == RELAY_LEAF_SL).count(),
        r.detours.iter().filter(|d| d.2 == RELAY_TWO_SL).count(),
        r.escape.host_pairs,
        r.escape.switch_pairs,
        r.unrouted_switch_lids,
        one.unrouted_switch_lids
    );
    (r.detours.len(), r.unrouted_switch_lids, one.unrouted_switch_lids)
}

fn has_hosts(g: &Fabric, s: u32) -> bool {
    (1..=g.node(s).nports).any(|p| g.peer(s, p).is_some_and(|(n, _)| g.node(n).kind != NodeKind::Switch))
}

/// The fault sets of every family: 1, 3 and 10 seeded cuts, a dead top switch, both.
fn run(t: &Topology, lmcs: &[u8]) -> Vec<(usize, u64, u64)> {
    let top = tops(t)[1];
    let mut out = Vec::new();
    for &lmc in lmcs {
        for (cut, seed, dead) in [
            (1usize, 1u64, vec![]),
            (3, 2, vec![]),
            (10, 3, vec![]),
            (0, 1, vec![top]),
            (3, 4, vec![top]),
        ] {
            out.push(check(t, cut, seed, &dead, lmc));
        }
    }
    // some fault set had switch LIDs no up*/down* path reaches, and the detours serve them
    assert!(out.iter().any(|&(_, _, before)| before > 0), "{}", t.layout.describe());
    for &(detours, after, before) in &out {
        assert!(after <= before);
        if before > 0 {
            assert!(detours > 0, "{}: {out:?}", t.layout.describe());
        }
    }
    out
}

#[test]
fn kary_tree_detours_on_a_second_vl() {
    let t = build(FamilySpec::Kary(KaryParams { arity: 4, levels: 3 }), 11);
    run(&t, &[0]);
}

/// Four levels: the rule's "higher" merges levels 3 and 4, so a route that turns at a
/// relay leaf and again up there must still be refused (the per-VL check of `check`
/// would find the cycle).
#[test]
fn four_level_tree_detours_on_a_second_vl() {
    let t = build(FamilySpec::Kary(KaryParams { arity: 3, levels: 4 }), 13);
    run(&t, &[0]);
}

#[test]
fn pgft_with_parallel_cables_detours_on_a_second_vl() {
    let p = PgftParams::from_lists(&[4, 4, 2], &[1, 2, 4], &[1, 2, 2], None).unwrap();
    run(&build(FamilySpec::Pgft(p), 12), &[0]);
}

#[test]
fn mols_tree_detours_on_a_second_vl() {
    for (n, wiring, shuffle) in [(4, WiringChoice::Mols, 23), (5, WiringChoice::Basic, 32)] {
        let t = build(FamilySpec::Mols(MolsParams { arity: n, wiring }), shuffle);
        run(&t, &[0, 1]);
    }
}
