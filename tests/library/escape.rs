//! The escape lane (`routing::escape`, issue 12) on hand-made rings, where what it must do
//! is plain: fill every empty entry of a connected fabric on a shortest way, leave every
//! entry that routes alone, keep its own VL's channel dependency graph acyclic — refusing
//! (and counting) the LIDs whose paths would close a cycle — and leave a cut-off switch's
//! pairs unrouted without calling them refused.

use ibfat::check::vls::{check_vls, VlReport};
use ibfat::routing::escape::{missing, route, Escape, ESCAPE_SL};
use ibfat::routing::{LftSet, Lids, NO_ROUTE};
use ibfat::topology::{Fabric, NodeId, NodeKind, NO_PEER};

/// A ring of `n` switches (port 1 clockwise, port 2 counter-clockwise), one host each
/// on port 3; tables that only deliver (each switch its own LID and its host's).
fn ring(n: u32) -> (Fabric, Lids, LftSet) {
    let mut f = Fabric::new();
    let sw: Vec<NodeId> = (0..n)
        .map(|i| {
            f.add_node(NodeKind::Switch, 3, 0x100 + u64::from(i), format!("s{i}"), "sw")
                .unwrap()
        })
        .collect();
    for i in 0..n as usize {
        f.connect(sw[i], 1, sw[(i + 1) % n as usize], 2).unwrap();
        let h = f
            .add_node(NodeKind::Ca, 1, 0x900 + i as u64, format!("h{i}"), "host")
            .unwrap();
        f.connect(sw[i], 3, h, 1).unwrap();
    }
    let lids = Lids::plan(&f, &[], 0).unwrap();
    let mut lfts = LftSet::new(&f, lids.max_lid());
    for (lid, &owner) in lids.owner.iter().enumerate().skip(1) {
        if owner == NO_PEER {
            continue;
        }
        let p = &f.ports[owner as usize];
        match f.node(p.node).kind {
            NodeKind::Switch => lfts.set(p.node, lid as u16, 0),
            _ => lfts.set(f.peer(p.node, p.num).unwrap().0, lid as u16, 3),
        }
    }
    (f, lids, lfts)
}

/// Walk every pair with SL 15 on the escape pairs and VL = SL's lane (one VL each).
fn walk(f: &Fabric, lids: &Lids, lfts: &LftSet, e: &Escape) -> VlReport {
    check_vls(
        f,
        lids,
        lfts,
        |s, l| if e.carries(s, l as u32) { ESCAPE_SL } else { 0 },
        |_, sl, _, _| u8::from(sl == ESCAPE_SL),
    )
}

/// A ring of 4: every empty entry is filled by a shortest path, every path arrives,
/// and the escape VL's CDG (VL 1 here) is acyclic; tables that already route keep
/// every entry.
#[test]
fn fills_every_gap_on_shortest_paths() {
    let (f, lids, mut lfts) = ring(4);
    let sources: Vec<NodeId> = f.switches().collect();
    let gaps = missing(&f, &lids, &lfts, &sources).len();
    assert_eq!(gaps, 4 * 3 * 2, "4 switches x 3 others x (switch + host LID)");
    let before = lfts.clone();
    let e = route(&f, &lids, &mut lfts, &sources);
    assert_eq!(e.pairs.len() as u64 + e.refused, gaps as u64);
    assert_eq!(e.host_pairs + e.switch_pairs, e.pairs.len() as u64);
    assert!(missing(&f, &lids, &lfts, &sources).len() as u64 == e.refused);
    let v = walk(&f, &lids, &lfts, &e);
    assert!(v.ok() && v.broken == 0, "{v:?}");
    assert_eq!(v.unrouted, e.refused);
    // delivery entries untouched; every escape path at most 2 switch hops (the ring's
    // diameter: shortest ways)
    for (i, (&a, &b)) in before.ports.iter().zip(&lfts.ports).enumerate() {
        assert!(a == NO_ROUTE || a == b, "entry {i} changed");
    }
    for &(s, lid) in &e.pairs {
        let (mut at, mut hops) = (s, 0);
        loop {
            let port = lfts.get(at, lid as u16).unwrap();
            let (next, _) = f.peer(at, port).unwrap_or((at, 0));
            if port == 0 || f.node(next).kind != NodeKind::Switch {
                break;
            }
            at = next;
            hops += 1;
        }
        assert!(hops <= 2, "switch {s} to LID {lid}: {hops} hops");
    }
    // routing the routed tables again changes nothing
    let again = lfts.clone();
    assert_eq!(route(&f, &lids, &mut lfts, &sources), Escape::default());
    assert_eq!(again, lfts);
}

/// A ring of 5 whose shortest paths would all turn the same way round: the escape VL's
/// CDG would close a cycle, so some LIDs are refused (counted) and what is routed
/// stays acyclic; a source without any path stays unrouted and is not refused.
#[test]
fn refuses_what_would_close_a_cycle() {
    let (f, lids, mut lfts) = ring(5);
    let sources: Vec<NodeId> = f.switches().collect();
    let gaps = missing(&f, &lids, &lfts, &sources).len() as u64;
    let e = route(&f, &lids, &mut lfts, &sources);
    assert!(e.refused > 0 && e.used(), "{e:?}");
    assert_eq!(e.pairs.len() as u64 + e.refused, gaps);
    let v = walk(&f, &lids, &lfts, &e);
    assert!(v.ok() && v.broken == 0, "{v:?}");
    assert_eq!(v.unrouted, e.refused);
    // the same again: deterministic
    let (_, _, mut other) = ring(5);
    assert_eq!(route(&f, &lids, &mut other, &sources), e);
    assert_eq!(other, lfts);
    // a switch cut off from the rest: its gaps are neither routed nor refused
    let (mut f, _, _) = ring(4);
    let s0 = f.switches().next().unwrap();
    f.disconnect(s0, 1);
    f.disconnect(s0, 2);
    let lids = Lids::plan(&f, &[], 0).unwrap();
    let mut lfts = LftSet::new(&f, lids.max_lid());
    for (lid, &owner) in lids.owner.iter().enumerate().skip(1) {
        let p = &f.ports[owner as usize];
        match f.node(p.node).kind {
            NodeKind::Switch => lfts.set(p.node, lid as u16, 0),
            _ => lfts.set(f.peer(p.node, p.num).unwrap().0, lid as u16, 3),
        }
    }
    let sources: Vec<NodeId> = f.switches().collect();
    let e = route(&f, &lids, &mut lfts, &sources);
    assert_eq!(e.refused, 0);
    let left = missing(&f, &lids, &lfts, &sources);
    assert!(
        !left.is_empty()
            && left.iter().all(|&(s, lid)| {
                let owner = &f.ports[lids.owner[lid as usize] as usize];
                let t = match f.node(owner.node).kind {
                    NodeKind::Switch => owner.node,
                    _ => f.peer(owner.node, owner.num).unwrap().0,
                };
                s == s0 || t == s0
            })
    );
}
