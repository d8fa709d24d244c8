//! Switch-LID columns of a degraded LSFT (leaf and spine LIDs): the intact router's rule
//! — up*/down* ([`crate::routing::updown`]) by the family's ranking — over the surviving
//! cables, so that a fault changes only the columns whose routes crossed it; then every
//! leaf's path to every switch LID is walked on the filled tables and given the SL the
//! per-VL proof (module documentation of [`super`]) needs, or removed.
//!
//! The ranking is the intact family's, by canonical coordinates: the root spine (line 0)
//! rank 0, the side-0 leaves of the points of line 0 rank 1, the other spines 2, the other
//! leaves 3. No cable joins two switches of one rank, so "up" (towards a lower rank) is
//! the same under the ranks and under up*/down*'s root-first order, and a surviving
//! up*/down* route is the intact one.
//!
//! A leaf's path to a switch LID is
//! * rank-legal (up, then down, by rank): SL 0 — VL 0 on every hop, whatever its
//!   physical turns (at most two, both at rank-1 leaves: s → l → p → L → p' → t);
//! * otherwise (up*/down* found no legal path and stepped sideways) with one or two
//!   physical turns, its part before the first rank-legal: the lowest SL under which the
//!   VL rule ([`super::vl`]) gives every hop the VL the proof assumes — 0 before the first
//!   turn, 1 from it, 2 from the second (one-sided, a rank-1 leaf cut from the root spine
//!   reaches it only so: every other spine through it meets line 0 at the leaf itself);
//! * otherwise the leaf's entry is removed and counted.
//!
//! A kept path through a leaf whose entry is removed would break there: the removals are
//! repeated on the kept paths until none is left broken (m's path not kept and a path
//! arriving at m from a spine and leaving up: the longer path has m's path as its tail
//! and one more turn, so it is seldom kept — but the VLs of its tail are one higher, and
//! an SL may fit it where none fits m's path).
//!
//! Before the walks, two repairs where up*/down* stepped sideways (they touch no
//! rank-legal path): a spine whose own path to a switch is not rank-legal — so neither is
//! any path through it — and does not already turn once at a relay goes down instead to a
//! leaf m next to it: one whose own path reaches the switch without a turn (a leaf d: m →
//! spine → d, m able to relay for d ([`super::relay_sl`]); a spine t: m → t), else one
//! whose own path turns once (so that a leaf whose only spines meet the target at no
//! surviving relay still reaches it turning twice), fewer turns than the spine's path had,
//! spread by (spine + target); a leaf whose path is still not kept, or turns twice, takes
//! the up port with the fewest turns, then the shortest kept path, spread by (leaf +
//! destination). The walks then run on the final tables. In the sweep of
//! `tests/degraded_routing.rs` (37 fault sets far beyond the test matrix) this leaves 14 (leaf,
//! switch LID) pairs unrouted, 3 of them with no path of the fabric turning less than
//! three times; every pair with a path turning at most once is routed.
//!
//! Spines' entries are not walked from the spine: a spine originates only management
//! traffic (VL 15), as in [`crate::routing::updown`]; as hops of leaves' paths they are
//! walked with those.

use super::{partitions, relay_sl, vl, End};
use crate::routing::lft::{LftSet, NO_ROUTE};
use crate::routing::lids::Lids;
use crate::routing::updown;
use crate::topology::degraded::LsftHoles;
use crate::topology::{Fabric, NodeId, NodeKind};
use rayon::prelude::*;

/// The longest path a kept route can have: rank-legal, up from rank 3 to the root and
/// down again (leaf, spine, leaf, root, leaf, spine, leaf: 6 hops).
const MAX_HOPS: usize = 6;

/// The family rank of a switch, by canonical coordinates: `point_of` (leaf index,
/// side·n + point) and `line_of` (spine line) per node, `u32::MAX` where not one.
fn rank(h: &LsftHoles, point_of: u32, line_of: u32) -> u32 {
    let n = h.plane.size();
    match (point_of, line_of) {
        (p, _) if p != u32::MAX => match p < n && h.plane.incident(p, 0) {
            true => 1,
            false => 3,
        },
        (_, 0) => 0,
        (_, l) if l != u32::MAX => 2,
        _ => u32::MAX,
    }
}

/// Walks on the filled tables towards switch LIDs.
struct Walker<'a> {
    fabric: &'a Fabric,
    lfts: &'a LftSet,
    /// Leaf index (side·n + point) per node, `u32::MAX` for other nodes.
    point_of: &'a [u32],
    /// Family rank per node ([`rank`]).
    rank_of: &'a [u32],
    /// J, the leaf bipartitions the SLs name.
    parts: u32,
}

/// A leaf's path to a switch LID walked: (leaf, LID, target switch, (SL, turns) or none).
type Classified = (NodeId, u16, NodeId, Option<(u8, u32)>);

/// A path of at most [`MAX_HOPS`] hops: its switches and how many.
type Path = ([NodeId; MAX_HOPS + 1], usize);

impl<'a> Walker<'a> {
    fn new(fabric: &'a Fabric, lfts: &'a LftSet, point_of: &'a [u32], rank_of: &'a [u32], parts: u32) -> Walker<'a> {
        Walker {
            fabric,
            lfts,
            point_of,
            rank_of,
            parts,
        }
    }

    /// What a hop sees at the end of a path's switch `node`.
    fn end(&self, node: NodeId) -> End {
        match self.point_of[node as usize] {
            u32::MAX => End::Spine,
            p => End::Leaf(p),
        }
    }

    fn entry(&self, node: NodeId, lid: usize) -> u8 {
        self.lfts.ports[self.lfts.row_of[node as usize] as usize * self.lfts.stride + lid]
    }

    fn is_leaf(&self, node: NodeId) -> bool {
        self.point_of[node as usize] != u32::MAX
    }

    /// The switches from `from` to `target` (LID `lid`) on the tables, the first hop out
    /// of port `first` when given (a candidate entry: the walk must not come back to
    /// `from`); none for no route, a loop or a path longer than any kept one.
    fn path(&self, from: NodeId, first: Option<u8>, target: NodeId, lid: usize) -> Option<Path> {
        let mut path = [0 as NodeId; MAX_HOPS + 1];
        let mut len = 1;
        path[0] = from;
        let mut at = from;
        while at != target {
            if len > MAX_HOPS {
                return None;
            }
            let port = match first {
                Some(p) if at == from && len == 1 => p,
                Some(_) if at == from => return None,
                _ => self.entry(at, lid),
            };
            if port == 0 || port == NO_ROUTE {
                return None;
            }
            let (next, _) = self.fabric.peer(at, port)?;
            if self.fabric.node(next).kind != NodeKind::Switch {
                return None;
            }
            path[len] = next;
            len += 1;
            at = next;
        }
        Some((path, len))
    }

    /// Up, then down, by rank (no hop up after a hop down).
    fn legal(&self, path: &[NodeId]) -> bool {
        let mut down = false;
        path.windows(2).all(|w| {
            let up = self.rank_of[w[1] as usize] < self.rank_of[w[0] as usize];
            let ok = !(down && up);
            down |= !up;
            ok
        })
    }

    /// The SL a leaf's path (from `path[0]`) needs (module documentation) and its physical
    /// turns (0 for a rank-legal path), or none.
    fn sl(&self, path: &[NodeId]) -> Option<(u8, u32)> {
        if self.legal(path) {
            return Some((0, 0));
        }
        // physical turns: the leaves inside the path (in from a spine, out to a spine)
        let len = path.len();
        let mut turns = (1..len - 1).filter(|&i| self.is_leaf(path[i]));
        let (Some(t), second, None) = (turns.next(), turns.next(), turns.next()) else {
            return None;
        };
        if !self.legal(&path[..=t]) {
            return None;
        }
        // the VL the proof assumes at hop i: the turns at or before it
        let want = |i: usize| (i >= t) as u8 + second.is_some_and(|u| i >= u) as u8;
        let right = |sl: u8| {
            (0..len - 1).all(|i| {
                let at = match self.end(path[i]) {
                    End::Leaf(p) => Some(p),
                    _ => None,
                };
                let from = match i {
                    0 => End::Host,
                    _ => self.end(path[i - 1]),
                };
                vl(sl, self.parts, at, from, self.end(path[i + 1])) == want(i)
            })
        };
        let sl = (1..=super::super::lanes::RULE_SLS).find(|&sl| right(sl))?;
        Some((sl, 1 + second.is_some() as u32))
    }

    /// The SL of `leaf`'s entry towards switch `target` (LID `lid`) and its turns, or none.
    fn classify(&self, leaf: NodeId, target: NodeId, lid: usize) -> Option<(u8, u32)> {
        let (p, len) = self.path(leaf, None, target, lid)?;
        self.sl(&p[..len])
    }
}

/// Fill every switch-LID column of `lfts` by up*/down* with the family ranking, walk
/// every leaf's path to every switch LID and write its SL into `sl` (rows of `stride`
/// per leaf index), remove the entries no SL makes deadlock-free; returns how many
/// (leaf, switch LID) entries are left unrouted and how many turn twice.
pub(super) fn route(
    fabric: &Fabric,
    h: &LsftHoles,
    lids: &Lids,
    lfts: &mut LftSet,
    (point_of, line_of): (&[u32], &[u32]),
    sl: &mut [u8],
    stride: usize,
) -> (u64, u64) {
    let parts = partitions(h.leaf_count());
    let rank_of: Vec<u32> = (0..fabric.len()).map(|n| rank(h, point_of[n], line_of[n])).collect();
    let rank: Vec<u32> = lfts.switches.iter().map(|&s| rank_of[s as usize]).collect();
    let graph = updown::SwitchGraph::new(fabric, lfts, &rank);
    let switch_lid: Vec<u16> = lfts
        .switches
        .iter()
        .map(|&s| lids.base[fabric.port_index(s, 0) as usize])
        .collect();
    // only a switch without a legal route steps sideways; every other switch's path is
    // rank-legal all the way (SL 0, nothing to repair or remove), so only the former are
    // walked: after a few faults none, after 100 cuts of LSFT(32) about one per column
    let stepped = updown::fill_marking(&graph, lfts, &switch_lid);
    // (switch LID, its switch, the switches that stepped sideways towards it)
    let walked: Vec<(u16, NodeId, Vec<NodeId>)> = switch_lid
        .iter()
        .zip(&lfts.switches)
        .zip(&stepped)
        .filter(|&(_, rows)| !rows.is_empty())
        .map(|((&lid, &sw), rows)| (lid, sw, rows.iter().map(|&r| lfts.switches[r as usize]).collect()))
        .collect();
    let nl = h.leaves.len() as u32;
    // an order-free index per switch (leaf index, or leaf count + line) to spread by
    let canon = |n: NodeId| match point_of[n as usize] {
        u32::MAX => nl + line_of[n as usize],
        p => p,
    };
    // 1. a spine without a rank-legal route to a switch hands it to a leaf m next to it
    //    (a leaf d: m → spine → d, m able to relay for d; a spine t: m → t), so that the
    //    paths through it turn once, at m, with an SL the VL rule can follow (every path
    //    through that spine is off the rank order already: no rank-legal path changes)
    let w = Walker::new(fabric, lfts, point_of, &rank_of, parts);
    let spine_fix: Vec<(NodeId, u16, u8)> = walked
        .par_iter()
        .flat_map_iter(|(lid, d, stepped)| {
            let (lid, d, w) = (*lid as usize, *d, &w);
            let dp = point_of[d as usize];
            // towards a spine any leaf relays (some partition has it off the side the SL
            // names); towards a leaf, one the partitions tell apart from it
            let relay = move |m: NodeId| dp == u32::MAX || relay_sl(point_of[m as usize], dp, parts).is_some();
            // a relay's own path: to a leaf over one spine, to a spine its cable
            let hops = if dp == u32::MAX { 2 } else { 3 };
            // physical turns of a path: the leaves inside it
            let turns = move |p: &[NodeId]| p[1..p.len() - 1].iter().filter(|&&x| w.is_leaf(x)).count();
            stepped
                .iter()
                .copied()
                .filter(|&l| line_of[l as usize] != u32::MAX)
                .filter_map(move |l| {
                    let now = match w.path(l, None, d, lid) {
                        Some((p, len)) => {
                            let p = &p[..len];
                            let turns_once_right = len == hops + 1 && w.is_leaf(p[1]) && relay(p[1]);
                            if w.legal(p) || turns_once_right {
                                return None;
                            }
                            turns(p)
                        }
                        None => usize::MAX,
                    };
                    // the relays whose own path reaches it directly (one turn through
                    // the spine, at the relay), else over one more turn
                    let mut cands: Vec<(usize, u8)> = (1..=fabric.node(l).nports)
                        .filter_map(|port| {
                            let (m, _) = fabric.peer(l, port)?;
                            if m == d || !w.is_leaf(m) || !relay(m) {
                                return None;
                            }
                            let (p, k) = w.path(m, None, d, lid)?;
                            match k {
                                _ if k == hops => Some((1, port)),
                                _ if k == hops + 2 && w.is_leaf(p[2]) => Some((2, port)),
                                _ => None,
                            }
                        })
                        .collect();
                    let best = cands.iter().map(|c| c.0).min()?;
                    // a spine whose path turns once at a leaf that cannot relay is
                    // mended even by a path turning once elsewhere; else only fewer turns
                    if best >= now && now != 1 {
                        return None;
                    }
                    cands.retain(|c| c.0 == best);
                    let k = (canon(l) + canon(d)) as usize % cands.len();
                    Some((l, lid as u16, cands[k].1))
                })
        })
        .collect();
    for &(l, lid, port) in &spine_fix {
        lfts.ports[lfts.row_of[l as usize] as usize * lfts.stride + lid as usize] = port;
    }
    // 2. a leaf whose path is still not kept, or turns twice, tries its other up ports: the
    //    fewest turns, then the shortest kept path, spread by the pair (only leaves that
    //    stepped sideways: the others' paths are rank-legal and pass no switch whose entry
    //    pass 1 changed)
    let leaves_of = |stepped: &[NodeId], target: NodeId| -> Vec<NodeId> {
        let mut v: Vec<NodeId> = stepped
            .iter()
            .copied()
            .filter(|&n| point_of[n as usize] != u32::MAX && n != target)
            .collect();
        v.sort_unstable();
        v
    };
    let w = Walker::new(fabric, lfts, point_of, &rank_of, parts);
    let leaf_fix: Vec<(NodeId, u16, u8)> = walked
        .par_iter()
        .flat_map_iter(|(lid, target, stepped)| {
            let (lid, target, w) = (*lid as usize, *target, &w);
            leaves_of(stepped, target).into_iter().filter_map(move |leaf| {
                let now = w.classify(leaf, target, lid).map_or(u32::MAX, |(_, turns)| turns);
                if now <= 1 {
                    return None;
                }
                let mut cands: Vec<((u32, usize), u8)> = (1..=fabric.node(leaf).nports)
                    .filter(|&port| {
                        fabric
                            .peer(leaf, port)
                            .is_some_and(|(x, _)| line_of[x as usize] != u32::MAX)
                    })
                    .filter_map(|port| {
                        let (p, len) = w.path(leaf, Some(port), target, lid)?;
                        w.sl(&p[..len]).map(|(_, turns)| ((turns, len), port))
                    })
                    .collect();
                let best = cands.iter().map(|c| c.0).min()?;
                if best.0 >= now {
                    return None; // turns twice either way: the entry stays
                }
                cands.retain(|c| c.0 == best);
                let k = (canon(leaf) + canon(target)) as usize % cands.len();
                Some((leaf, lid as u16, cands[k].1))
            })
        })
        .collect();
    for &(leaf, lid, port) in &leaf_fix {
        lfts.ports[lfts.row_of[leaf as usize] as usize * lfts.stride + lid as usize] = port;
    }
    // 3. every such leaf's path on the final tables: its SL, or the entry removed; then
    //    the kept paths again until none runs into a removed entry (module documentation)
    let mut todo: Vec<(NodeId, u16, NodeId)> = walked
        .iter()
        .flat_map(|(lid, target, stepped)| {
            leaves_of(stepped, *target)
                .into_iter()
                .map(move |leaf| (leaf, *lid, *target))
        })
        .collect();
    let mut kept: Vec<(NodeId, u16, (u8, u32))> = Vec::with_capacity(todo.len());
    let mut dropped = 0;
    while !todo.is_empty() {
        let w = Walker::new(fabric, lfts, point_of, &rank_of, parts);
        let classified: Vec<Classified> = todo
            .par_iter()
            .map(|&(leaf, lid, target)| (leaf, lid, target, w.classify(leaf, target, lid as usize)))
            .collect();
        let removed: Vec<(NodeId, u16)> = classified
            .iter()
            .filter(|c| c.3.is_none())
            .map(|c| (c.0, c.1))
            .collect();
        kept.clear();
        kept.extend(classified.iter().filter_map(|c| c.3.map(|k| (c.0, c.1, k))));
        if removed.is_empty() {
            break;
        }
        for &(leaf, lid) in &removed {
            let p = point_of[leaf as usize] as usize;
            sl[p * stride + lid as usize] = 0;
            lfts.ports[lfts.row_of[leaf as usize] as usize * lfts.stride + lid as usize] = NO_ROUTE;
            dropped += 1;
        }
        todo = classified
            .into_iter()
            .filter(|c| c.3.is_some())
            .map(|c| (c.0, c.1, c.2))
            .collect();
    }
    // the paths of the switches that found a legal route are rank-legal (SL 0, as `sl`
    // holds): proven here in test and debug builds
    #[cfg(debug_assertions)]
    {
        let w = Walker::new(fabric, lfts, point_of, &rank_of, parts);
        for ((&lid, &target), rows) in switch_lid.iter().zip(&w.lfts.switches).zip(&stepped) {
            for &leaf in h
                .leaves
                .iter()
                .filter(|&&l| l != crate::topology::degraded::DEAD && l != target)
            {
                if !rows.contains(&w.lfts.row_of[leaf as usize]) {
                    assert_eq!(
                        w.classify(leaf, target, lid as usize),
                        Some((0, 0)),
                        "a legal route is not rank-legal"
                    );
                }
            }
        }
    }
    let mut twice = 0;
    for &(leaf, lid, (s, turns)) in &kept {
        let p = point_of[leaf as usize] as usize;
        sl[p * stride + lid as usize] = s;
        twice += (turns == 2) as u64;
    }
    (dropped, twice)
}
