//! Routing (docs/routing.md §8): the LSFT's LFTs pass the independent validator with its
//! own promises (up*/down* for switch-sourced routes too, at most 3 switches leaf to leaf),
//! the validator finds every kind of defect it is shown, and the dump size `auto` decides
//! by is exact. Every family's tables — every LID reachable from every switch, no loops or
//! black holes, minimal where promised, an acyclic channel dependency graph for all data
//! traffic — are the family suite's (families.rs), over every registered family.

use ibfat::check::validate;
use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::routing::{route, Lids};
use ibfat::topology::{BuildOptions, FamilySpec, Layout, Spec};

fn plan(f: FamilySpec, shuffle: Option<u64>) -> ibfat::topology::Topology {
    Spec {
        family: f,
        options: BuildOptions {
            shuffle,
            ..Default::default()
        },
    }
    .build()
    .unwrap()
}

fn assert_valid(f: FamilySpec, shuffle: Option<u64>, lmc: u8) {
    let p = plan(f, shuffle);
    let lids = Lids::plan(&p.fabric, p.layout.hosts(), lmc).unwrap();
    let lfts = route(&p.fabric, &p.layout, &lids).unwrap();
    assert_eq!(
        lfts.routed_entries(),
        lfts.switches.len() * (lids.owner.iter().skip(1).filter(|&&o| o != u32::MAX).count()),
        "{f:?}: every switch routes every LID"
    );
    let r = validate(&p.fabric, &lids, &lfts, Some(&p.layout));
    assert!(r.ok, "{f:?} lmc {lmc}: {:#?}", r);
    assert!(r.ca_sourced.acyclic && r.ca_sourced.dependencies > 0);
    if let Layout::Lsft(_) = p.layout {
        assert!(
            r.all_sources.acyclic,
            "{f:?}: LSFT is up*/down* for switch-sourced routes too: {:?}",
            r.all_sources.cycle
        );
        // leaf to leaf through one spine: at most 3 switches
        assert_eq!(r.host_hops.max, 3);
    }
}

#[test]
fn lsft_one_and_two_sided() {
    for q in [2, 3, 4, 5, 7, 8, 9] {
        assert_valid(FamilySpec::Lsft(LsftParams::new(q, false)), None, 0);
    }
    for q in [2, 3, 4, 5] {
        assert_valid(FamilySpec::Lsft(LsftParams::new(q, true)), Some(q as u64), 0);
    }
    assert_valid(
        FamilySpec::Lsft(LsftParams {
            order: 3,
            two_sided: false,
            hosts_per_leaf: Some(2),
        }),
        Some(7),
        1,
    );
}

/// The validator must see every kind of defect (a validator that always passes proves nothing).
#[test]
fn validator_detects_injected_defects() {
    let p = plan(FamilySpec::Lsft(LsftParams::new(3, false)), Some(2));
    let Layout::Lsft(l) = &p.layout else { unreachable!() };
    let lids = Lids::plan(&p.fabric, p.layout.hosts(), 0).unwrap();
    let good = route(&p.fabric, &p.layout, &lids).unwrap();
    let host = p.layout.hosts()[40];
    let lid = lids.lid(&p.fabric, host.node, host.port);
    let (leaf0, leaf1) = (l.leaves[0], l.leaves[1]);
    let spine = l.spines[0]; // line L through points 0 and 1

    // black hole: leaf 0 drops the LID
    let mut t = good.clone();
    t.set(leaf0, lid, ibfat::routing::NO_ROUTE);
    let r = validate(&p.fabric, &lids, &t, Some(&p.layout));
    assert!(!r.ok && r.black_holes >= 1 && r.loops == 0, "{r:#?}");
    assert!(r.defects.iter().any(|d| d.kind.contains("no route") && d.lid == lid));

    // loop: leaf 0 -> spine L -> leaf 1 -> spine L -> ...
    let mut t = good.clone();
    let up0 = (1..=p.fabric.node(leaf0).nports)
        .find(|&q| p.fabric.peer(leaf0, q).map(|x| x.0) == Some(spine))
        .unwrap();
    let up1 = (1..=p.fabric.node(leaf1).nports)
        .find(|&q| p.fabric.peer(leaf1, q).map(|x| x.0) == Some(spine))
        .unwrap();
    let s_to_1 = p.fabric.peer(leaf1, up1).unwrap().1;
    t.set(leaf0, lid, up0);
    t.set(spine, lid, s_to_1);
    t.set(leaf1, lid, up1);
    let r = validate(&p.fabric, &lids, &t, Some(&p.layout));
    assert!(!r.ok && r.loops >= 1, "{r:#?}");
    assert!(r.defects.iter().any(|d| d.kind == "loop" && d.path.contains(" -> ")));

    // misdelivery: the destination leaf sends the LID to another host
    let mut t = good.clone();
    let (dleaf, dport) = p.fabric.peer(host.node, host.port).unwrap();
    let other = (1..=p.fabric.node(dleaf).nports)
        .find(|&q| {
            q != dport
                && p.fabric
                    .node(p.fabric.peer(dleaf, q).map(|x| x.0).unwrap_or(dleaf))
                    .kind
                    != ibfat::topology::NodeKind::Switch
        })
        .unwrap();
    t.set(dleaf, lid, other);
    let r = validate(&p.fabric, &lids, &t, Some(&p.layout));
    assert!(!r.ok && r.misdelivered >= 1, "{r:#?}");

    // non-minimal: leaf 0 detours a host route through a spine not on the line
    let mut t = good.clone();
    let target_leaf = l.leaves.iter().position(|&x| x == dleaf).unwrap() as u32;
    let detour = (1..=p.fabric.node(leaf0).nports).find(|&q| {
        p.fabric
            .peer(leaf0, q)
            .map(|(s, _)| {
                l.spines
                    .iter()
                    .position(|&x| x == s)
                    .map(|line| !l.plane.incident(target_leaf, line as u32))
                    .unwrap_or(false)
            })
            .unwrap_or(false)
    });
    let detour = detour.expect("a spine not through the destination point");
    t.set(leaf0, lid, detour);
    let r = validate(&p.fabric, &lids, &t, Some(&p.layout));
    assert!(r.non_minimal >= 1 || r.loops >= 1, "{r:#?}");
    assert!(!r.ok);
}

/// A cyclic channel dependency graph is found. On a 3-ary 2-tree (leaves l0..l2, tops
/// t0..t2), route two LIDs of leaf l2 "down then up": y as l0 -> t0 -> l1 -> t1 -> l2 and
/// w as l1 -> t1 -> l0 -> t0 -> l2. Together they close the channel cycle
/// l0->t0 -> t0->l1 -> l1->t1 -> t1->l0 -> l0->t0.
#[test]
fn validator_finds_dependency_cycles() {
    let p = plan(FamilySpec::Kary(KaryParams { arity: 3, levels: 2 }), None);
    let Layout::Kary(l) = &p.layout else { unreachable!() };
    let lids = Lids::plan(&p.fabric, p.layout.hosts(), 0).unwrap();
    let good = route(&p.fabric, &p.layout, &lids).unwrap();
    assert!(validate(&p.fabric, &lids, &good, Some(&p.layout)).ca_sourced.acyclic);
    let mut t = good.clone();
    let (l0, l1, t0, t1) = (l.switches[0], l.switches[1], l.switches[3], l.switches[4]);
    let port = |a: u32, b: u32| {
        (1..=p.fabric.node(a).nports)
            .find(|&q| p.fabric.peer(a, q).map(|x| x.0) == Some(b))
            .unwrap()
    };
    let h = p.layout.hosts();
    let (y, w) = (
        lids.lid(&p.fabric, h[6].node, h[6].port),
        lids.lid(&p.fabric, h[7].node, h[7].port),
    );
    let l2 = p.fabric.peer(h[6].node, h[6].port).unwrap().0;
    for (lid, hops) in [
        (y, [(l0, t0), (t0, l1), (l1, t1), (t1, l2)]),
        (w, [(l1, t1), (t1, l0), (l0, t0), (t0, l2)]),
    ] {
        for (a, b) in hops {
            t.set(a, lid, port(a, b));
        }
    }
    let r = validate(&p.fabric, &lids, &t, Some(&p.layout));
    assert!(!r.ca_sourced.acyclic, "{r:#?}");
    assert_eq!(r.ca_sourced.cycle.len(), 4, "{:?}", r.ca_sourced.cycle);
    assert!(!r.ok);
    assert_eq!(
        (r.black_holes, r.loops, r.misdelivered),
        (0, 0, 0),
        "the routes themselves still deliver"
    );
}
