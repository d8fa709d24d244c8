//! Degraded trees (issues 12 and 21): a shuffled k-ary n-tree, a PGFT with parallel cables
//! and a two-level fat-tree with 1, 3 and 10 seeded cuts, or a dead top or middle switch,
//! are recognised as that family with exactly the injected faults, and routed up*/down*
//! around them on one VL: every host pair routed, every path up then down, no loop, the
//! channel dependency graph acyclic (`check::lfts::validate`), switch LIDs too; one cut
//! changes only a small share of the LFT entries (printed; bounded here).

use crate::harness;

use crate::harness::{build_shuffled, degraded};

use ibfat::check::lfts::validate;
use ibfat::families::kary::model::KaryParams;
use ibfat::families::pgft::model::PgftParams;
use ibfat::families::twolevel::model::TwolevelParams;
use ibfat::families::Family;
use ibfat::recognize::{recognize, Fault, Recognition};
use ibfat::routing::{route, Ask, Lids, NO_ROUTE};
use ibfat::topology::degraded::{Holes, DEAD};
use ibfat::topology::faults::inject;
use ibfat::topology::{FamilySpec, Layout, NodeKind, Topology};

fn kary43() -> Topology {
    build_shuffled(FamilySpec::Kary(KaryParams { arity: 4, levels: 3 }), 11)
}

fn pgft_parallel() -> Topology {
    let p = PgftParams::from_lists(&[4, 4, 2], &[1, 2, 4], &[1, 2, 2], None).unwrap();
    build_shuffled(FamilySpec::Pgft(p), 12)
}

fn twolevel() -> Topology {
    let t = TwolevelParams {
        leaves: 8,
        hosts_per_leaf: 8,
        spines: 4,
        links_per_pair: 2,
    };
    build_shuffled(FamilySpec::Pgft(t.pgft().unwrap()), 13)
}

/// Switches of level `l` (1 = leaves) of the intact fabric, by its PGFT layout.
fn level(t: &Topology, l: u32) -> Vec<u32> {
    let Recognition::Recognized {
        layout: Layout::Pgft(p),
        ..
    } = recognize(&t.fabric, Some(Family::Pgft))
    else {
        panic!("intact fabric not recognised as a PGFT")
    };
    p.level(l).to_vec()
}

/// Inject, recognise, check the faults are exactly the injected ones, route and check the
/// routes; the degraded recognition and the number of LFT entries that differ from the
/// intact tables (when no switch died: same nodes, same LIDs).
fn check(t: &Topology, hint: Option<Family>, family: Family, cut: usize, seed: u64, dead: &[u32]) -> usize {
    let what = format!(
        "{} with {cut} cuts (seed {seed}), {} dead",
        t.layout.describe(),
        dead.len()
    );
    let f = &t.fabric;
    let inj = inject(f, cut, seed, dead).unwrap();
    let d = degraded(&inj.fabric, hint, &what);
    assert_eq!(d.family, family, "{what}: {}", d.description);
    assert!(d.description.contains(", degraded: "), "{}", d.description);
    // exactly the injected faults: cut cables by their two switches, dead switches counted
    let harness::TreeFaults {
        want,
        got,
        cable_positions,
        dead: dead_positions,
    } = harness::tree_faults(f, &inj.fabric, &inj.cut, &d.faults, &what);
    assert!(
        cable_positions.iter().all(|p| p.starts_with('T')),
        "{cable_positions:?}"
    );
    assert!(dead_positions.iter().all(|p| p.starts_with('T')), "{dead_positions:?}");
    let dead_got = dead_positions.len();
    assert_eq!(got, want, "{what}: missing cables");
    assert_eq!(dead_got, dead.len(), "{what}: dead switches");
    let Holes::Pgft(h) = &d.holes else {
        panic!("{what}: not a tree's holes")
    };
    // route and validate: loop-free, delivered, CDG acyclic, every pair routed
    let g = &inj.fabric;
    let lids = Lids::plan(g, &[], 0).unwrap();
    // the one-VL routes, as a subnet offering one data VL gets them: switch-LID detours
    // (SL 1, a second VL: tests/cli/tree_lanes.rs) dropped, what a turn serves with VL 0's
    // CDG acyclic routed again
    let one_vl = Ask {
        vls: 1,
        ..Ask::default()
    };
    let r = harness::route_degraded(g, &d, &lids, &one_vl, &what);
    assert_eq!(r.unrouted, 0, "{what}: {:?}", r.unrouted_named);
    let v = validate(g, &lids, &r.lfts, None);
    assert_eq!((v.loops, v.misdelivered), (0, 0), "{what}: {:?}", v.defects);
    assert!(v.deadlock_free && v.data_path_ok, "{what}: {v:?}");
    assert_eq!((v.broken_host_routes, v.defective_host_lid_entries), (0, 0), "{what}");
    // switch LIDs: complete unless a leaf has no up*/down* path to one (counted)
    assert_eq!(v.complete, r.unrouted_switch_lids == 0, "{what}: {v:?}");
    assert!(v.black_holes >= r.unrouted_switch_lids, "{what}");
    // every host path goes up, then down (levels from the recognised layout)
    let mut lv = vec![0u32; g.len()];
    for (s, &n) in h.layout.switches.iter().enumerate() {
        if n != DEAD {
            lv[n as usize] = h.layout.coords(s as u32).0;
        }
    }
    let hosts: Vec<(u32, u16)> = h
        .layout
        .hosts
        .iter()
        .map(|ep| {
            let leaf = g.peer(ep.node, ep.port).unwrap().0;
            (leaf, lids.base[g.port_index(ep.node, ep.port) as usize])
        })
        .collect();
    let mut leaves: Vec<u32> = hosts.iter().map(|x| x.0).collect();
    leaves.dedup();
    for &src in &leaves {
        for &(_, lid) in &hosts {
            let (mut at, mut down, mut hops) = (src, false, 0);
            loop {
                let port = r.lfts.get(at, lid).unwrap();
                assert_ne!(port, NO_ROUTE, "{what}: no route at {} for LID {lid}", g.node(at).name);
                let (next, _) = g.peer(at, port).unwrap();
                if g.node(next).kind != NodeKind::Switch {
                    break;
                }
                let up = lv[next as usize] > lv[at as usize];
                assert!(
                    !(down && up),
                    "{what}: LID {lid} from {} turns up again",
                    g.node(src).name
                );
                down |= !up;
                at = next;
                hops += 1;
                assert!(hops <= 2 * h.layout.params.levels, "{what}: path too long");
            }
        }
    }
    if !dead.is_empty() {
        return 0;
    }
    // the intact tables `ibfat route` computes on the intact dump (recognised labels; the
    // builder's own layout may number copies in another order)
    let Recognition::Recognized { layout, .. } = recognize(f, None) else {
        panic!("{what}: intact fabric not recognised")
    };
    let intact = route(f, &layout, &lids).unwrap();
    intact.ports.iter().zip(&r.lfts.ports).filter(|(a, b)| a != b).count()
}

#[test]
fn kary_tree_with_cuts_and_dead_switches() {
    let t = kary43();
    let hint = None;
    for (cut, seed) in [(1usize, 1u64), (3, 2), (10, 3)] {
        check(&t, hint, Family::Kary, cut, seed, &[]);
    }
    let (top, mid) = (level(&t, 3)[5], level(&t, 2)[6]);
    check(&t, hint, Family::Kary, 0, 1, &[top]);
    check(&t, hint, Family::Kary, 0, 1, &[mid]);
    check(&t, hint, Family::Kary, 3, 4, &[top]);
    // asked for as a PGFT it is named one
    check(&t, Some(Family::Pgft), Family::Pgft, 3, 2, &[]);
}

#[test]
fn pgft_with_parallel_cables_cuts_and_dead_switches() {
    let t = pgft_parallel();
    for (cut, seed) in [(1usize, 1u64), (3, 2), (10, 3)] {
        check(&t, None, Family::Pgft, cut, seed, &[]);
    }
    let (top, mid) = (level(&t, 3)[1], level(&t, 2)[3]);
    check(&t, None, Family::Pgft, 0, 1, &[top]);
    check(&t, None, Family::Pgft, 0, 1, &[mid]);
    check(&t, None, Family::Pgft, 2, 5, &[mid]);
}

#[test]
fn twolevel_with_cuts() {
    let t = twolevel();
    for (cut, seed) in [(1usize, 1u64), (3, 2), (10, 3)] {
        check(&t, Some(Family::Twolevel), Family::Twolevel, cut, seed, &[]);
        check(&t, None, Family::Pgft, cut, seed, &[]);
    }
}

/// One cut cable changes only the routes that crossed it and the entries of switch LIDs
/// near it: the share of changed LFT entries, per family (docs/routing.md).
#[test]
fn one_cut_changes_few_entries() {
    for (t, family) in [
        (kary43(), Family::Kary),
        (pgft_parallel(), Family::Pgft),
        (twolevel(), Family::Pgft),
    ] {
        let lids = Lids::plan(&t.fabric, &[], 0).unwrap();
        let total = t.fabric.switches().count() * (lids.max_lid() as usize + 1);
        let mut worst = 0f64;
        for seed in 1..=5 {
            let changed = check(&t, None, family, 1, seed, &[]);
            let share = changed as f64 / total as f64;
            println!(
                "{}: one cut (seed {seed}): {changed} of {total} LFT entries changed ({:.2}%)",
                t.layout.describe(),
                share * 100.0
            );
            worst = worst.max(share);
        }
        assert!(worst < 0.05, "{}: {:.2}% changed", t.layout.describe(), worst * 100.0);
    }
}

/// A dead leaf switch (issue 21): its hosts are gone with it; the tree is still recognised,
/// the leaf listed as a dead switch at level 1 and its host positions named unreachable,
/// and every other pair routed up*/down* (`check`: exactly the injected faults, routes
/// validated, every path up then down) — alone, with cuts, and with a dead top switch.
#[test]
fn dead_leaf_switches_are_faults_and_the_rest_is_routed() {
    let t = kary43();
    let (leaves, tops) = (level(&t, 1), level(&t, 3));
    for dead in [vec![leaves[0]], vec![leaves[6]], vec![leaves[3], leaves[9]]] {
        let d = degraded(&inject(&t.fabric, 0, 1, &dead).unwrap().fabric, None, "dead leaf");
        let leaf_faults = d
            .faults
            .iter()
            .filter(|f| matches!(f, Fault::DeadSwitch { position } if position.starts_with("T1(")))
            .count();
        assert_eq!(leaf_faults, dead.len(), "{}: {:?}", d.description, d.faults);
        assert!(
            d.description.contains(&format!(
                "{} of them leaves: their {} host positions are unreachable",
                dead.len(),
                4 * dead.len()
            )),
            "{}",
            d.description
        );
        check(&t, None, Family::Kary, 0, 1, &dead);
        check(&t, None, Family::Kary, 3, 2, &dead);
    }
    check(&t, None, Family::Kary, 2, 3, &[leaves[5], tops[2]]);
    let p = pgft_parallel();
    let leaves = level(&p, 1);
    check(&p, None, Family::Pgft, 0, 1, &[leaves[1]]);
    check(&p, None, Family::Pgft, 3, 4, &[leaves[2]]);
}

/// An empty rack — a leaf without hosts — whose own cables or its siblings' are cut is
/// still a leaf: the degraded tree is recognised with exactly the cut cables (none of the
/// empty leaf's position taken for a dead switch) and routed as every degraded tree is.
#[test]
fn an_empty_leaf_with_cut_cables_is_still_a_leaf() {
    let mut t = kary43();
    let leaf = level(&t, 1)[2];
    for p in 1..=t.fabric.node(leaf).nports {
        if let Some((peer, _)) = t.fabric.peer(leaf, p) {
            if t.fabric.node(peer).kind != NodeKind::Switch {
                t.fabric.disconnect(leaf, p);
            }
        }
    }
    let mut cut_at_leaf = 0;
    for seed in 1..=8 {
        let inj = inject(&t.fabric, 10, seed, &[]).unwrap();
        cut_at_leaf += inj.cut.iter().filter(|l| l.a == leaf || l.b == leaf).count();
        check(&t, None, Family::Kary, 10, seed, &[]);
    }
    assert!(cut_at_leaf > 0, "no seed cut a cable of the empty leaf");
}

/// Bad input: a tree that lost a subtree's every uplink is disconnected — not a degraded
/// tree; a fabric too far from any tree stays unrecognised without a panic.
#[test]
fn too_broken_is_not_a_degraded_tree() {
    let t = kary43();
    let tops = level(&t, 3);
    // all tops dead: the leaves' subtrees no longer meet
    let inj = inject(&t.fabric, 0, 1, &tops).unwrap();
    match recognize(&inj.fabric, None) {
        Recognition::Unrecognized { degraded, .. } => {
            assert!(degraded.is_none(), "{:?}", degraded.map(|d| d.description))
        }
        Recognition::Recognized { .. } => {} // two separate 2-level trees are not a 4-ary 3-tree either
    }
}
