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
//! `tests/library/degraded_routing.rs` (37 fault sets far beyond the test matrix) this leaves 14 (leaf,
//! switch LID) pairs unrouted, 3 of them with no path of the fabric turning less than
//! three times; every pair with a path turning at most once is routed.
//!
//! Spines' entries are not walked from the spine: a spine originates only management
//! traffic (VL 15), as in [`crate::routing::updown`]; as hops of leaves' paths they are
//! walked with those.

use super::{partitions, relay_sl, vl, End};
use crate::families::lsft::model_holes::LsftHoles;
use crate::routing::lft::{LftSet, NO_ROUTE};
use crate::routing::lids::Lids;
use crate::routing::updown;
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
        let sl = (1..=crate::families::lsft::lanes::RULE_SLS).find(|&sl| right(sl))?;
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
    let cols = Columns::new(fabric, h, point_of, line_of);
    let (switch_lid, stepped) = cols.fill_updown(lids, lfts);
    let walked = stepped_sideways(lfts, &switch_lid, &stepped);
    let spine_fix = cols.spine_fixes(lfts, &walked);
    set_entries(lfts, &spine_fix);
    let leaf_fix = cols.leaf_fixes(lfts, &walked);
    set_entries(lfts, &leaf_fix);
    let (kept, dropped) = cols.remove_unkept(lfts, (sl, stride), &walked);
    #[cfg(debug_assertions)]
    cols.assert_rank_legal(lfts, &switch_lid, &stepped);
    let mut twice = 0;
    for &(leaf, lid, (s, turns)) in &kept {
        let p = point_of[leaf as usize] as usize;
        sl[p * stride + lid as usize] = s;
        twice += (turns == 2) as u64;
    }
    (dropped, twice)
}

/// A switch-LID column whose up*/down* routes stepped sideways somewhere: (switch LID,
/// its switch, the switches that stepped sideways towards it).
type Walked = (u16, NodeId, Vec<NodeId>);

/// A leaf's path kept: (leaf, LID, (SL, turns)).
type Kept = (NodeId, u16, (u8, u32));

/// A new table entry: (switch, LID, port).
type Entry = (NodeId, u16, u8);

/// The columns that need walking: those where some switch stepped sideways (only a
/// switch without a legal route does; every other path is rank-legal all the way — SL 0,
/// nothing to repair or remove). After a few faults none, after 100 cuts of LSFT(32)
/// about one per column.
fn stepped_sideways(lfts: &LftSet, switch_lid: &[u16], stepped: &[Vec<u32>]) -> Vec<Walked> {
    switch_lid
        .iter()
        .zip(&lfts.switches)
        .zip(stepped)
        .filter(|&(_, rows)| !rows.is_empty())
        .map(|((&lid, &sw), rows)| (lid, sw, rows.iter().map(|&r| lfts.switches[r as usize]).collect()))
        .collect()
}

/// Write the entries into the tables.
fn set_entries(lfts: &mut LftSet, entries: &[Entry]) {
    for &(n, lid, port) in entries {
        lfts.ports[lfts.row_of[n as usize] as usize * lfts.stride + lid as usize] = port;
    }
}

/// What the steps of [`route`] share: the fabric, its canonical coordinates and ranks.
struct Columns<'a> {
    fabric: &'a Fabric,
    h: &'a LsftHoles,
    point_of: &'a [u32],
    line_of: &'a [u32],
    /// Family rank per node ([`rank`]).
    rank_of: Vec<u32>,
    /// J, the leaf bipartitions the SLs name.
    parts: u32,
}

impl<'a> Columns<'a> {
    fn new(fabric: &'a Fabric, h: &'a LsftHoles, point_of: &'a [u32], line_of: &'a [u32]) -> Self {
        Columns {
            fabric,
            h,
            point_of,
            line_of,
            rank_of: (0..fabric.len()).map(|n| rank(h, point_of[n], line_of[n])).collect(),
            parts: partitions(h.leaf_count()),
        }
    }

    /// A walker on the tables as they are now.
    fn walker<'w>(&'w self, lfts: &'w LftSet) -> Walker<'w> {
        Walker::new(self.fabric, lfts, self.point_of, &self.rank_of, self.parts)
    }

    /// An order-free index per switch to spread by: leaf index, or leaf count + line.
    fn canon(&self, n: NodeId) -> u32 {
        match self.point_of[n as usize] {
            u32::MAX => self.h.leaves.len() as u32 + self.line_of[n as usize],
            p => p,
        }
    }

    /// Fill every switch-LID column by up*/down* under the family ranking; returns the
    /// switch LIDs by table row and, per column, the rows that stepped sideways.
    fn fill_updown(&self, lids: &Lids, lfts: &mut LftSet) -> (Vec<u16>, Vec<Vec<u32>>) {
        let fabric = self.fabric;
        let rank: Vec<u32> = lfts.switches.iter().map(|&s| self.rank_of[s as usize]).collect();
        let graph = updown::SwitchGraph::new(fabric, lfts, &rank);
        let switch_lid: Vec<u16> = lfts
            .switches
            .iter()
            .map(|&s| lids.base[fabric.port_index(s, 0) as usize])
            .collect();
        let stepped = updown::fill_marking(&graph, lfts, &switch_lid);
        (switch_lid, stepped)
    }

    /// Repair 1: a spine without a rank-legal route to a switch hands it to a leaf m next
    /// to it (a leaf d: m → spine → d, m able to relay for d; a spine t: m → t), so that
    /// the paths through it turn once, at m, with an SL the VL rule can follow (every path
    /// through that spine is off the rank order already: no rank-legal path changes).
    fn spine_fixes(&self, lfts: &LftSet, walked: &[Walked]) -> Vec<Entry> {
        let w = self.walker(lfts);
        walked
            .par_iter()
            .flat_map_iter(|(lid, d, stepped)| {
                let (lid, d, w) = (*lid as usize, *d, &w);
                stepped
                    .iter()
                    .copied()
                    .filter(|&l| self.line_of[l as usize] != u32::MAX)
                    .filter_map(move |l| self.spine_fix(w, l, d, lid))
            })
            .collect()
    }

    /// Towards a spine any leaf `m` relays (some partition has it off the side the SL
    /// names); towards a leaf (point `dp`), one the partitions tell apart from it.
    fn relays(&self, m: NodeId, dp: u32) -> bool {
        dp == u32::MAX || relay_sl(self.point_of[m as usize], dp, self.parts).is_some()
    }

    /// The new entry of spine `l` towards switch `d` (LID `lid`), when a neighbouring
    /// relay leaf gives a path with fewer turns than `l`'s own.
    fn spine_fix(&self, w: &Walker<'_>, l: NodeId, d: NodeId, lid: usize) -> Option<Entry> {
        let fabric = self.fabric;
        let dp = self.point_of[d as usize];
        // a relay's own path: to a leaf over one spine, to a spine its cable
        let hops = if dp == u32::MAX { 2 } else { 3 };
        let now = match w.path(l, None, d, lid) {
            Some((p, len)) => {
                let p = &p[..len];
                let turns_once_right = len == hops + 1 && w.is_leaf(p[1]) && self.relays(p[1], dp);
                if w.legal(p) || turns_once_right {
                    return None;
                }
                // physical turns of a path: the leaves inside it
                p[1..p.len() - 1].iter().filter(|&&x| w.is_leaf(x)).count()
            }
            None => usize::MAX,
        };
        // the relays whose own path reaches it directly (one turn through the spine, at
        // the relay), else over one more turn
        let mut cands: Vec<(usize, u8)> = (1..=fabric.node(l).nports)
            .filter_map(|port| {
                let (m, _) = fabric.peer(l, port)?;
                if m == d || !w.is_leaf(m) || !self.relays(m, dp) {
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
        // a spine whose path turns once at a leaf that cannot relay is mended even by a
        // path turning once elsewhere; else only fewer turns
        if best >= now && now != 1 {
            return None;
        }
        cands.retain(|c| c.0 == best);
        let k = (self.canon(l) + self.canon(d)) as usize % cands.len();
        Some((l, lid as u16, cands[k].1))
    }

    /// The leaves of a column that stepped sideways, in node order, but the target.
    fn leaves_of(&self, stepped: &[NodeId], target: NodeId) -> Vec<NodeId> {
        let mut v: Vec<NodeId> = stepped
            .iter()
            .copied()
            .filter(|&n| self.point_of[n as usize] != u32::MAX && n != target)
            .collect();
        v.sort_unstable();
        v
    }

    /// Repair 2: a leaf whose path is still not kept, or turns twice, tries its other up
    /// ports (only leaves that stepped sideways: the others' paths are rank-legal and pass
    /// no switch whose entry repair 1 changed).
    fn leaf_fixes(&self, lfts: &LftSet, walked: &[Walked]) -> Vec<Entry> {
        let w = self.walker(lfts);
        walked
            .par_iter()
            .flat_map_iter(|(lid, target, stepped)| {
                let (lid, target, w) = (*lid as usize, *target, &w);
                self.leaves_of(stepped, target)
                    .into_iter()
                    .filter_map(move |leaf| self.leaf_fix(w, leaf, target, lid))
            })
            .collect()
    }

    /// The up port of `leaf` towards `target` (LID `lid`) with the fewest turns, then the
    /// shortest kept path, spread by the pair; none when it turns no less than now.
    fn leaf_fix(&self, w: &Walker<'_>, leaf: NodeId, target: NodeId, lid: usize) -> Option<Entry> {
        let fabric = self.fabric;
        let now = w.classify(leaf, target, lid).map_or(u32::MAX, |(_, turns)| turns);
        if now <= 1 {
            return None;
        }
        let mut cands: Vec<((u32, usize), u8)> = (1..=fabric.node(leaf).nports)
            .filter(|&port| {
                fabric
                    .peer(leaf, port)
                    .is_some_and(|(x, _)| self.line_of[x as usize] != u32::MAX)
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
        let k = (self.canon(leaf) + self.canon(target)) as usize % cands.len();
        Some((leaf, lid as u16, cands[k].1))
    }

    /// Walk every such leaf's path on the final tables: its SL, or the entry removed (and
    /// its SL zeroed in `sl`); then the kept paths again until none runs into a removed
    /// entry (module documentation). Returns the kept (leaf, LID, (SL, turns)) and how
    /// many entries were removed.
    fn remove_unkept(
        &self,
        lfts: &mut LftSet,
        (sl, stride): (&mut [u8], usize),
        walked: &[Walked],
    ) -> (Vec<Kept>, u64) {
        let mut todo: Vec<(NodeId, u16, NodeId)> = walked
            .iter()
            .flat_map(|(lid, target, stepped)| {
                self.leaves_of(stepped, *target)
                    .into_iter()
                    .map(move |leaf| (leaf, *lid, *target))
            })
            .collect();
        let mut kept: Vec<Kept> = Vec::with_capacity(todo.len());
        let mut dropped = 0;
        while !todo.is_empty() {
            let w = self.walker(lfts);
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
                let p = self.point_of[leaf as usize] as usize;
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
        (kept, dropped)
    }

    /// The paths of the switches that found a legal route are rank-legal (SL 0, as `sl`
    /// holds): proven in test and debug builds.
    #[cfg(debug_assertions)]
    fn assert_rank_legal(&self, lfts: &LftSet, switch_lid: &[u16], stepped: &[Vec<u32>]) {
        let w = self.walker(lfts);
        for ((&lid, &target), rows) in switch_lid.iter().zip(&w.lfts.switches).zip(stepped) {
            for &leaf in self
                .h
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
}
