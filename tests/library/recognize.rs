//! Recognition on fabrics made by the builders (shuffled ports and GUIDs, partial host
//! populations, both sides) and on fabrics that are deliberately not in a family; the
//! real-component counterpart is `recognize_on_ibsim.rs`.

use crate::harness::{swap_far_ends, switch_peers};
use ibfat::families::kary::model::{self as kary, KaryParams};
use ibfat::families::lsft::model::{self as lsft, LsftParams};
use ibfat::families::mols::model::{self as mols, MolsParams, WiringChoice};
use ibfat::families::Family;
use ibfat::geometry::Plane;
use ibfat::recognize::{recognize, Recognition};
use ibfat::topology::{BuildOptions, Fabric, Layout, LsftLayout, NodeId, NodeKind, Wiring};
use ibfat::SplitMix64;
use std::collections::BTreeSet;

fn shuffled(seed: u64) -> BuildOptions {
    BuildOptions {
        shuffle: Some(seed),
        ..Default::default()
    }
}

fn recognised(f: &Fabric, hint: Option<Family>) -> Layout {
    match recognize(f, hint) {
        Recognition::Recognized { layout, .. } => layout,
        Recognition::Unrecognized { reason, attempts, .. } => panic!("unrecognised: {reason} ({attempts:?})"),
    }
}

fn reason(f: &Fabric, hint: Option<Family>) -> String {
    match recognize(f, hint) {
        Recognition::Recognized { layout, .. } => panic!("recognised as {}", layout.describe()),
        Recognition::Unrecognized { reason, .. } => reason,
    }
}

/// The leaf → point and spine → line maps preserve incidence both ways: leaf p is
/// cabled to spine l exactly when point p lies on line l of the canonical plane.
fn assert_incidence_isomorphism(f: &Fabric, l: &LsftLayout) {
    let npts = l.npts() as usize;
    assert_eq!(l.spines.iter().collect::<BTreeSet<_>>().len(), npts);
    assert_eq!(l.leaves.iter().collect::<BTreeSet<_>>().len(), npts * l.sides as usize);
    for (i, &leaf) in l.leaves.iter().enumerate() {
        let p = (i % npts) as u32;
        let want: BTreeSet<NodeId> = l.plane.lines_through(p).iter().map(|&x| l.spines[x as usize]).collect();
        assert_eq!(
            switch_peers(f, leaf),
            want,
            "leaf {} at {}",
            f.node(leaf).name,
            l.plane.point(p)
        );
    }
}

#[test]
fn lsft_of_every_small_order_is_mapped_onto_pg2q() {
    for (q, two_sided, seed) in [
        (2, false, 1),
        (3, false, 2),
        (4, false, 3),
        (5, true, 4),
        (7, false, 5),
        (8, false, 6),
        (9, false, 7),
    ] {
        let p = LsftParams::new(q, two_sided);
        let (f, _) = lsft::build(&p, &shuffled(seed)).unwrap();
        let Layout::Lsft(l) = recognised(&f, None) else {
            panic!("q={q}: not an LSFT")
        };
        assert_eq!((l.q, l.sides), (q, if two_sided { 2 } else { 1 }));
        assert_eq!(l.hosts_per_leaf, q + 1);
        assert_eq!(l.hosts.len(), f.endpoints().len());
        assert_incidence_isomorphism(&f, &l);
    }
}

#[test]
fn two_sided_lsft_pairs_leaves_by_guid_and_slots_follow_port_order() {
    let p = LsftParams {
        order: 3,
        two_sided: true,
        hosts_per_leaf: Some(2),
    };
    let (f, _) = lsft::build(&p, &shuffled(21)).unwrap();
    let Layout::Lsft(l) = recognised(&f, Some(Family::Lsft)) else {
        panic!()
    };
    assert_eq!((l.sides, l.hosts_per_leaf), (2, 2));
    assert_incidence_isomorphism(&f, &l);
    let npts = l.npts() as usize;
    let d = l.degree() as usize;
    for p in 0..npts {
        let (a, b) = (l.leaves[p], l.leaves[npts + p]);
        assert_eq!(
            switch_peers(&f, a),
            switch_peers(&f, b),
            "the two leaves of a point share spines"
        );
        assert!(f.node(a).guid < f.node(b).guid, "side 0 is the lower GUID");
    }
    for li in 0..l.leaves.len() {
        let ports: Vec<u8> = l.leaf_host[li * d..(li + 1) * d]
            .iter()
            .copied()
            .filter(|&x| x != 0)
            .collect();
        assert_eq!(ports.len(), 2);
        assert!(ports[0] < ports[1], "slot j is the j-th host port in port order");
    }
}

#[test]
fn partial_host_population_is_recognised() {
    let p = LsftParams::new(4, false);
    let (mut f, _) = lsft::build(&p, &shuffled(8)).unwrap();
    // unplug every third host, and all hosts of one leaf
    let eps = f.endpoints();
    for (i, ep) in eps.iter().enumerate() {
        if i % 3 == 0 || i < 5 {
            f.disconnect(ep.node, ep.port);
        }
    }
    let Layout::Lsft(l) = recognised(&f, None) else {
        panic!()
    };
    assert_eq!(l.q, 4);
    assert_eq!(l.hosts.len(), f.endpoints().len());
    assert_incidence_isomorphism(&f, &l);

    let (mut t, _) = kary::build(&KaryParams { arity: 3, levels: 3 }, &shuffled(9)).unwrap();
    let eps = t.endpoints();
    for ep in eps.iter().step_by(4) {
        t.disconnect(ep.node, ep.port);
    }
    let Layout::Kary(k) = recognised(&t, None) else {
        panic!()
    };
    assert_eq!((k.k, k.levels, k.hosts.len()), (3, 3, t.endpoints().len()));
}

#[test]
fn kary_trees_get_levels_subtrees_and_consistent_lanes() {
    for (k, n, seed) in [
        (2, 2, 1),
        (2, 3, 2),
        (2, 4, 3),
        (3, 2, 4),
        (3, 3, 5),
        (4, 3, 6),
        (3, 4, 7),
        (5, 2, 8),
    ] {
        let (f, _) = kary::build(&KaryParams { arity: k, levels: n }, &shuffled(seed)).unwrap();
        let Layout::Kary(l) = recognised(&f, None) else {
            panic!("{k}-ary {n}-tree not recognised as kary")
        };
        assert_eq!((l.k, l.levels), (k, n));
        assert_eq!(l.hosts.len() as u32, k.pow(n));
        // every host at tree position d hangs off leaf d / k
        for (rank, ep) in l.hosts.iter().enumerate() {
            let leaf = l.switches[(l.host_pos[rank] / k) as usize];
            assert_eq!(f.peer(ep.node, ep.port).unwrap().0, leaf);
        }
        // tops have no up cables: their `up` table is empty, every other level full
        for i in 0..l.switches.len() as u32 {
            let (lv, _, _) = l.coords(i);
            let ups = &l.up[(i * k) as usize..((i + 1) * k) as usize];
            assert_eq!(ups.iter().all(|&p| p != 0), lv < n, "level {lv}");
        }
    }
}

#[test]
fn mols_trees_and_their_wiring_kinds() {
    for (n, w, want) in [
        (3, WiringChoice::Mols, Wiring::Mols),
        (4, WiringChoice::Mols, Wiring::Mols),
        (4, WiringChoice::Basic, Wiring::Basic),
        (5, WiringChoice::Auto, Wiring::Mols),
        (6, WiringChoice::Basic, Wiring::Basic),
    ] {
        let (f, built) = mols::build(&MolsParams { arity: n, wiring: w }, &shuffled(n as u64)).unwrap();
        let Layout::Mols(l) = recognised(&f, None) else {
            panic!("n={n} {w}: not a MOLS tree")
        };
        assert_eq!((l.n, l.wiring), (n, want), "n={n} {w}");
        let Layout::Mols(b) = built else { panic!() };
        assert_eq!(
            l.proximity().per_bottom.iter().sum::<u32>(),
            b.proximity().per_bottom.iter().sum::<u32>()
        );
        assert_eq!(l.hosts.len() as u32, n * n * n);
    }
}

#[test]
fn standard_mols_is_a_kary_tree_unless_asked_for_mols() {
    let (f, _) = mols::build(
        &MolsParams {
            arity: 4,
            wiring: WiringChoice::Standard,
        },
        &shuffled(3),
    )
    .unwrap();
    match recognize(&f, None) {
        Recognition::Recognized {
            layout: Layout::Kary(l),
            equivalent,
        } => {
            assert_eq!((l.k, l.levels), (4, 3));
            assert_eq!(equivalent.as_deref(), Some("mols arity 4 wiring standard"));
        }
        other => panic!("{other:?}"),
    }
    match recognize(&f, Some(Family::Mols)) {
        Recognition::Recognized {
            layout: Layout::Mols(l),
            equivalent,
        } => {
            assert_eq!((l.n, l.wiring), (4, Wiring::Standard));
            assert_eq!(equivalent.as_deref(), Some("kary arity 4 levels 3"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn broken_lsft_says_precisely_what_is_wrong() {
    let p = LsftParams::new(3, false);
    let (f, built) = lsft::build(&p, &BuildOptions::default()).unwrap();
    let Layout::Lsft(l) = built else { panic!() };
    let plane = &l.plane;
    // leaf P keeps its spines; move one spine cable of leaf 1 to a spine of leaf 2's lines
    // so that two leaves share two spines
    let mut g = f.clone();
    let (p1, p2) = (1u32, 5u32);
    let join = plane.join(p1, p2);
    let other_line = *plane.lines_through(p1).iter().find(|&&x| x != join).unwrap();
    let leaf1 = l.leaves[p1 as usize];
    let k = plane.position_at_point(p1, other_line).unwrap() as usize;
    let port1 = l.leaf_up[p1 as usize * 4 + k];
    // a spine through p2, not through p1, whose cable to some leaf we exchange
    let target = *plane
        .lines_through(p2)
        .iter()
        .find(|&&x| !plane.incident(p1, x))
        .unwrap();
    let victim_pt = *plane
        .points_on(target)
        .iter()
        .find(|&&x| x != p2 && !plane.incident(x, other_line))
        .unwrap();
    let victim = l.leaves[victim_pt as usize];
    let kv = plane.position_at_point(victim_pt, target).unwrap() as usize;
    swap_far_ends(&mut g, leaf1, port1, victim, l.leaf_up[victim_pt as usize * 4 + kv]);
    // automatic mode finds the fat-tree it still is (issue 39); the LSFT says what broke
    assert_eq!(recognised(&g, None).family_name(), "tree");
    let r = reason(&g, Some(Family::Lsft));
    assert!(r.contains("share 2 spines") || r.contains("share no spine"), "{r}");
    assert!(r.contains("lsft3 leaf"), "names nodes by description: {r}");

    // a missing spine cable
    let mut g = f.clone();
    g.disconnect(l.leaves[4], l.leaf_up[4 * 4]);
    let r = reason(&g, Some(Family::Lsft));
    assert!(
        r.contains("has 3 spines, expected q+1 = 4") || r.contains("has 3 leaves, expected 4"),
        "{r}"
    );

    // two cables between one leaf and one spine: the cable of another leaf on that
    // spine's line is exchanged with one of the first leaf's other spine cables
    let mut g = f.clone();
    let line_a = plane.lines_through(p1)[0];
    let p3 = *plane.points_on(line_a).iter().find(|&&x| x != p1).unwrap();
    let k3 = plane.position_at_point(p3, line_a).unwrap() as usize;
    swap_far_ends(
        &mut g,
        leaf1,
        l.leaf_up[p1 as usize * 4 + 1],
        l.leaves[p3 as usize],
        l.leaf_up[p3 as usize * 4 + k3],
    );
    let r = reason(&g, Some(Family::Lsft));
    assert!(r.contains("joined by more than one cable"), "{r}");
    assert!(
        r.contains("lsft3 leaf") && r.contains("lsft3 spine"),
        "names both switches: {r}"
    );

    // a leaf cabled to a leaf
    let mut g = f.clone();
    let (a, b) = (l.leaves[0], l.leaves[1]);
    g.disconnect(a, l.leaf_up[0]);
    g.disconnect(b, l.leaf_up[4]);
    g.connect(a, l.leaf_up[0] as u32, b, l.leaf_up[4] as u32).unwrap();
    let r = reason(&g, Some(Family::Lsft));
    assert!(r.contains("same level"), "{r}");

    // a host on a spine
    let mut g = f.clone();
    let h = l.hosts[0];
    let spine = l.spines[0];
    let free = (1..=g.node(spine).nports)
        .find(|&p| g.peer(spine, p).is_none())
        .unwrap();
    g.disconnect(h.node, h.port);
    g.connect(spine, free as u32, h.node, h.port as u32).unwrap();
    let r = reason(&g, Some(Family::Lsft));
    assert!(r.contains("both have hosts but lie on different levels"), "{r}");
}

#[test]
fn counts_that_fit_no_family_are_reported_per_family() {
    // 6 spines, 6 leaves: no LSFT (q²+q+1), no 3-level tree; a 3-ary 2-tree has 6 though
    let (mut f, _) = kary::build(&KaryParams { arity: 3, levels: 2 }, &BuildOptions::default()).unwrap();
    let Layout::Kary(l) = recognised(&f, None) else {
        panic!()
    };
    // remove one up cable: no longer a tree
    f.disconnect(l.switches[0], l.up[0]);
    match recognize(&f, None) {
        Recognition::Unrecognized {
            reason,
            closest,
            attempts,
            ..
        } => {
            assert_eq!(attempts.len(), 5, "lsft, kary, mols, pgft, fullmesh");
            assert_eq!(closest, Some(Family::Kary), "{reason}");
            assert!(reason.contains("has 2 cables to switches"), "{reason}");
            assert!(attempts[0].reason.contains("q²+q+1"), "{attempts:?}");
            assert!(attempts[2].reason.contains("3n²"), "{attempts:?}");
            assert_eq!(attempts[3].family, Family::Pgft);
            assert!(
                attempts[3].reason.contains("a PGFT has the same number everywhere"),
                "{attempts:?}"
            );
            assert_eq!(attempts[4].family, Family::Fullmesh);
        }
        other => panic!("{other:?}"),
    }
}

// ---- a non-Desarguesian plane of order 9 (the Dickson nearfield plane) ----

/// GF(9) = GF(3)[i]/(i²+1), elements a + 3b.
fn gf9_mul(x: u32, y: u32) -> u32 {
    let (a, b, c, d) = (x % 3, x / 3, y % 3, y / 3);
    let re = (a * c + 2 * b * d) % 3; // ac - bd
    let im = (a * d + b * c) % 3;
    re + 3 * im
}
fn gf9_add(x: u32, y: u32) -> u32 {
    (x % 3 + y % 3) % 3 + 3 * ((x / 3 + y / 3) % 3)
}
/// Nearfield product: x·m for squares m, x³·m otherwise.
fn near_mul(x: u32, m: u32, squares: &[bool]) -> u32 {
    if squares[m as usize] {
        gf9_mul(x, m)
    } else {
        let x3 = gf9_mul(gf9_mul(x, x), x);
        gf9_mul(x3, m)
    }
}

/// Points and lines (as point lists) of the projective nearfield plane of order 9.
fn nearfield_plane() -> Vec<Vec<u32>> {
    let mut squares = [false; 9];
    for x in 0..9 {
        squares[gf9_mul(x, x) as usize] = true;
    }
    // points: (x,y) -> 9x + y; slope points 81 + m; vertical infinity 90
    let mut lines = Vec::new();
    for m in 0..9 {
        for b in 0..9 {
            let mut l: Vec<u32> = (0..9).map(|x| 9 * x + gf9_add(near_mul(x, m, &squares), b)).collect();
            l.push(81 + m);
            lines.push(l);
        }
    }
    for c in 0..9 {
        let mut l: Vec<u32> = (0..9).map(|y| 9 * c + y).collect();
        l.push(90);
        lines.push(l);
    }
    lines.push((81..=90).collect());
    lines
}

/// Incidence helpers for a plane given as line point-lists.
struct Inc {
    lines: Vec<Vec<u32>>,
}
impl Inc {
    fn join(&self, a: u32, b: u32) -> usize {
        self.lines
            .iter()
            .position(|l| l.contains(&a) && l.contains(&b))
            .unwrap()
    }
    fn meet(&self, l: usize, m: usize) -> u32 {
        *self.lines[l].iter().find(|p| self.lines[m].contains(p)).unwrap()
    }
}

/// True when some perspective triangle pair violates Desargues' theorem.
fn desargues_fails(lines: &[Vec<u32>], seed: u64) -> bool {
    let inc = Inc { lines: lines.to_vec() };
    let mut rng = SplitMix64::new(seed);
    let n = lines.len() as u64;
    for _ in 0..3000 {
        let o = rng.below(n) as u32;
        let pick = |rng: &mut SplitMix64, l: usize, avoid: &[u32]| loop {
            let p = inc.lines[l][rng.below(10) as usize];
            if !avoid.contains(&p) {
                return p;
            }
        };
        let through: Vec<usize> = (0..lines.len()).filter(|&l| lines[l].contains(&o)).collect();
        let (la, lb, lc) = (through[0], through[3], through[7]);
        let a = pick(&mut rng, la, &[o]);
        let a2 = pick(&mut rng, la, &[o, a]);
        let b = pick(&mut rng, lb, &[o]);
        let b2 = pick(&mut rng, lb, &[o, b]);
        let c = pick(&mut rng, lc, &[o]);
        let c2 = pick(&mut rng, lc, &[o, c]);
        let (ab, ab2) = (inc.join(a, b), inc.join(a2, b2));
        let (ac, ac2) = (inc.join(a, c), inc.join(a2, c2));
        let (bc, bc2) = (inc.join(b, c), inc.join(b2, c2));
        if ab == ab2 || ac == ac2 || bc == bc2 {
            continue;
        }
        let (p, q, r) = (inc.meet(ab, ab2), inc.meet(ac, ac2), inc.meet(bc, bc2));
        if p == q || p == r || q == r {
            continue;
        }
        if !lines[inc.join(p, q)].contains(&r) {
            return true;
        }
    }
    false
}

/// An LSFT-shaped fabric on any plane: leaf per point, spine per line, one host per leaf.
fn fabric_on(lines: &[Vec<u32>]) -> Fabric {
    let n = lines.len() as u32;
    let d = lines[0].len() as u32;
    let mut f = Fabric::new();
    let leaves: Vec<NodeId> = (0..n)
        .map(|p| {
            f.add_node(
                NodeKind::Switch,
                2 * d,
                0x1000 + p as u64,
                format!("L{p}"),
                format!("leaf {p}"),
            )
            .unwrap()
        })
        .collect();
    let spines: Vec<NodeId> = (0..n)
        .map(|l| {
            f.add_node(
                NodeKind::Switch,
                2 * d,
                0x2000 + l as u64,
                format!("S{l}"),
                format!("spine {l}"),
            )
            .unwrap()
        })
        .collect();
    let mut next_leaf_port = vec![d + 1; n as usize];
    for (l, pts) in lines.iter().enumerate() {
        for (k, &p) in pts.iter().enumerate() {
            let lp = next_leaf_port[p as usize];
            next_leaf_port[p as usize] += 1;
            f.connect(leaves[p as usize], lp, spines[l], k as u32 + 1).unwrap();
        }
    }
    for p in 0..n {
        let h = f
            .add_node(
                NodeKind::Ca,
                1,
                0x10_0000 + 2 * p as u64,
                format!("H{p}"),
                format!("H{p} HCA-1"),
            )
            .unwrap();
        f.connect(leaves[p as usize], 1, h, 1).unwrap();
    }
    f
}

#[test]
fn a_non_desarguesian_plane_of_order_9_is_unrecognised_with_the_reason() {
    let lines = nearfield_plane();
    // it is a projective plane of order 9 ...
    assert_eq!(lines.len(), 91);
    for a in 0..91u32 {
        for b in a + 1..91 {
            let common = lines.iter().filter(|l| l.contains(&a) && l.contains(&b)).count();
            assert_eq!(common, 1, "points {a} {b}");
        }
    }
    // ... in which Desargues' theorem fails, while it holds in PG(2,9)
    assert!(desargues_fails(&lines, 1));
    let pg = Plane::new(9).unwrap();
    let pg_lines: Vec<Vec<u32>> = (0..91).map(|l| pg.points_on(l).to_vec()).collect();
    assert!(!desargues_fails(&pg_lines, 1));
    assert!(matches!(
        recognize(&fabric_on(&pg_lines), Some(Family::Lsft)),
        Recognition::Recognized { .. }
    ));
    let started = std::time::Instant::now();
    // a 2-level fat-tree all the same (issue 39): the LSFT recogniser says why it is no LSFT
    assert_eq!(recognised(&fabric_on(&lines), None).family_name(), "tree");
    let r = reason(&fabric_on(&lines), Some(Family::Lsft));
    assert!(
        r.contains("not isomorphic to PG(2,9)") && r.contains("non-Desarguesian"),
        "{r}"
    );
    assert!(
        started.elapsed().as_secs() < 10,
        "bounded time: {:?}",
        started.elapsed()
    );
}
