//! What the up*/down* routers of degraded trees share ([`crate::families::pgft::route_degraded`] for PGFTs
//! and k-ary n-trees, [`crate::families::mols::route_degraded`] for MOLS 3-level trees): the shape of their
//! result, division by a row's fixed divisor, and the switch-LID pass (up*/down* by level
//! over the surviving cables; routes that turn up again once, at a relay leaf, kept on a
//! second VL ([`crate::families::tree::lanes`]), the others removed).

use crate::families::tree::lanes::{self as tree_lanes, Level};
use crate::routing::escape::{self, Escape};
use crate::routing::lft::{LftSet, NO_ROUTE};
use crate::routing::lids::Lids;
use crate::topology::{Fabric, NodeId};
use rayon::prelude::*;

/// How many unrouted pairs are named (the count is complete).
pub(crate) const NAMED: usize = 20;

/// The tables of a degraded tree and the pairs they cannot serve.
#[derive(Clone, Debug)]
pub(crate) struct TreeRoutes {
    /// Forwarding tables of every switch (host and switch LIDs).
    pub(crate) lfts: LftSet,
    /// (Leaf with hosts, host LID) pairs that no up*/down* path connects (entry unrouted).
    pub(crate) unrouted: u64,
    /// The first of those pairs, named: (source leaf, destination host port).
    pub(crate) unrouted_named: Vec<(String, String)>,
    /// (Leaf, switch LID) pairs left unrouted: no up*/down* path to that switch, no detour
    /// on the second VL of [`crate::families::tree::lanes`], and the escape lane cannot take it (or
    /// [`TreeRoutes::drop_detours`] removed it).
    pub(crate) unrouted_switch_lids: u64,
    /// (Leaf row, switch LID, SL) of the switch-LID routes that turn once, at a relay leaf
    /// (SL 1) or a level-2 switch (SL 2): deadlock-free only with the SL-to-VL rule of
    /// [`crate::families::tree::lanes`] (two data VLs). Sorted; empty when every switch-LID route is
    /// up*/down*.
    pub(crate) detours: Vec<(u32, u16, u8)>,
    /// Rank of every row (0 = top level, `u32::MAX` = not a switch of the tree).
    pub(crate) rank: Vec<u32>,
    /// The pairs neither up*/down* nor a detour serves, on the escape lane
    /// ([`crate::routing::escape`]: SL 15, a VL of its own); they are not counted in `unrouted` or
    /// `unrouted_switch_lids`.
    pub(crate) escape: Escape,
}

impl TreeRoutes {
    /// Data VLs the routes need: 2 with detours, else 1; one more with the escape lane.
    pub(crate) fn data_vls(&self) -> u8 {
        let rule = if self.detours.is_empty() {
            1
        } else {
            crate::families::tree::lanes::DATA_VLS
        };
        rule + self.escape.used() as u8
    }

    /// Route what up*/down* and the detours left unrouted on the escape lane, where the
    /// surviving cables connect it (the routers' last step).
    pub(crate) fn escape_the_rest(&mut self, fabric: &Fabric, lids: &Lids) {
        let leaves = self.leaves();
        self.escape_from(fabric, lids, &leaves);
    }

    /// [`TreeRoutes::escape_the_rest`] for the pairs of `leaves` only (a tree as found:
    /// the leaves with hosts; a leaf without any originates management traffic only).
    pub(crate) fn escape_from(&mut self, fabric: &Fabric, lids: &Lids, leaves: &[NodeId]) {
        self.escape = escape::route(fabric, lids, &mut self.lfts, leaves);
        if self.escape.used() {
            self.unrouted = self.unrouted.saturating_sub(self.escape.host_pairs);
            self.unrouted_switch_lids = self.unrouted_switch_lids.saturating_sub(self.escape.switch_pairs);
            self.name_unrouted(fabric, lids, leaves);
        }
    }

    /// On one VL, after [`TreeRoutes::drop_detours`]: route again on VL 0 the pairs a turn
    /// serves without closing a cycle in that VL's channel dependency graph
    /// ([`escape::route_shared`]; on the grown lab, a leaf cabled to 2 of 4 spines reaches
    /// the other two and the hostless switch through a turn at another leaf). Returns the
    /// pairs it routed.
    pub(crate) fn turn_on_one_vl(&mut self, fabric: &Fabric, lids: &Lids) -> u64 {
        debug_assert!(self.detours.is_empty() && !self.escape.used());
        let leaves = self.leaves();
        let shared = escape::route_shared(fabric, lids, &mut self.lfts, &leaves);
        if !shared.used() {
            return 0;
        }
        self.unrouted = self.unrouted.saturating_sub(shared.host_pairs);
        self.unrouted_switch_lids = self.unrouted_switch_lids.saturating_sub(shared.switch_pairs);
        self.name_unrouted(fabric, lids, &leaves);
        shared.host_pairs + shared.switch_pairs
    }

    /// The leaf switches (the rows at the leaves' rank): the sources whose pairs are counted.
    fn leaves(&self) -> Vec<NodeId> {
        let top = leaf_rank(&self.rank);
        (0..self.rank.len())
            .filter(|&r| self.rank[r] == top)
            .map(|r| self.lfts.switches[r])
            .collect()
    }

    /// Name the first [`NAMED`] (leaf, host LID) pairs the tables leave unrouted.
    fn name_unrouted(&mut self, fabric: &Fabric, lids: &Lids, leaves: &[NodeId]) {
        let is_host = |lid: u32| {
            let owner = lids.owner[lid as usize];
            fabric.node(fabric.ports[owner as usize].node).kind != crate::topology::NodeKind::Switch
        };
        let left: Vec<(NodeId, u32)> = escape::missing(fabric, lids, &self.lfts, leaves)
            .into_iter()
            .filter(|&(_, lid)| is_host(lid))
            .collect();
        self.unrouted_named = name_pairs(fabric, lids, left.iter());
    }

    /// The SL and SL-to-VL rules of these routes on `fabric` (the fabric they were routed on).
    pub(crate) fn lanes(&self, fabric: &Fabric) -> crate::families::tree::lanes::TreeLanes {
        let mut rank_of_node = vec![u32::MAX; fabric.len()];
        for (r, &n) in self.lfts.switches.iter().enumerate() {
            rank_of_node[n as usize] = self.rank.get(r).copied().unwrap_or(u32::MAX);
        }
        let detours = self
            .detours
            .iter()
            .map(|&(r, lid, sl)| (self.lfts.switches[r as usize], lid, sl))
            .chain(
                self.escape
                    .pairs
                    .iter()
                    .map(|&(n, lid)| (n, lid as u16, escape::ESCAPE_SL)),
            )
            .collect();
        crate::families::tree::lanes::TreeLanes::new(fabric, &rank_of_node, leaf_rank(&self.rank), detours)
    }

    /// For a caller without a second VL: the detours' and the escape lane's entries at
    /// their sources become unrouted again (counted in `unrouted_switch_lids` and
    /// `unrouted`), leaving routes deadlock-free on one VL as they were before detours. No
    /// kept path passes a detour's row for its LID (it would arrive from above and turn up
    /// there: a second turn, or the row's own route would have no turn), nor a row the
    /// escape lane wrote (its walk did not arrive), so nothing else breaks. Returns how
    /// many pairs were dropped.
    pub(crate) fn drop_detours(&mut self, fabric: &Fabric, lids: &Lids) -> u64 {
        let stride = self.lfts.stride;
        for &(r, lid, _) in &self.detours {
            self.lfts.ports[r as usize * stride + lid as usize] = NO_ROUTE;
        }
        for &(n, lid) in &self.escape.pairs {
            let r = self.lfts.row_of[n as usize] as usize;
            self.lfts.ports[r * stride + lid as usize] = NO_ROUTE;
        }
        let n = self.detours.len() as u64 + self.escape.pairs.len() as u64;
        self.unrouted_switch_lids += self.detours.len() as u64 + self.escape.switch_pairs;
        self.unrouted += self.escape.host_pairs;
        self.detours.clear();
        if std::mem::take(&mut self.escape).used() {
            let leaves = self.leaves();
            self.name_unrouted(fabric, lids, &leaves);
        }
        n
    }
}

/// The rank of the leaves: the highest of the tree's switches (0 when there are none).
fn leaf_rank(rank: &[u32]) -> u32 {
    rank.iter().copied().filter(|&r| r != u32::MAX).max().unwrap_or(0)
}

/// Division by a divisor fixed for a whole row, as one multiplication: n / d is
/// ⌊n·M / 2⁶⁴⌋ with M = ⌊2⁶⁴ / d⌋ + 1, exact for every 32-bit n and divisor 2 ≤ d < 2³²
/// (M exceeds 2⁶⁴/d by at most 1, so n·M / 2⁶⁴ exceeds n/d by less than 2⁻³² < 1/d: too
/// little to reach the next integer; the test checks it). The host entries divide every
/// tree position by the level's W and take it modulo the up-port count — 14 M entries on a
/// 10,000-host tree — where hardware division would dominate the pass.
#[derive(Clone, Copy)]
pub(crate) struct Div {
    d: u32,
    m: u64,
}

impl Div {
    /// A divisor of 0 (an empty level) divides as 1: its results are never used.
    pub(crate) fn new(d: u32) -> Div {
        let d = d.max(1);
        Div {
            d,
            m: (u64::MAX / d as u64).wrapping_add(1),
        }
    }

    #[inline]
    pub(crate) fn div(self, n: u32) -> u32 {
        if self.d == 1 {
            n
        } else {
            ((self.m as u128 * n as u128) >> 64) as u32
        }
    }

    #[inline]
    pub(crate) fn rem(self, n: u32) -> u32 {
        n - self.div(n) * self.d
    }
}

/// Switch LIDs of a degraded tree: up*/down* by `rank` (0 = top level, `u32::MAX` = not a
/// switch of the tree) over the surviving cables ([`crate::routing::updown`], the intact families'
/// rule, so entries away from the faults stay as they were), then the routes that turn up
/// again sorted ([`settle_turning_switch_routes`]); returns how many (leaf, switch LID)
/// entries were left unrouted and the detours kept with their SL.
pub(crate) fn route_switch_lids(
    fabric: &Fabric,
    lfts: &mut LftSet,
    lids: &Lids,
    rank: &[u32],
) -> (u64, Vec<(u32, u16, u8)>) {
    route_switch_lids_from(fabric, lfts, lids, rank, &vec![true; rank.len()])
}

/// [`route_switch_lids`] where only the leaf rows `source` holds originate host traffic:
/// the turning routes of the other leaves (no hosts: management only) are kept as they are.
pub(crate) fn route_switch_lids_from(
    fabric: &Fabric,
    lfts: &mut LftSet,
    lids: &Lids,
    rank: &[u32],
    source: &[bool],
) -> (u64, Vec<(u32, u16, u8)>) {
    let graph = crate::routing::updown::SwitchGraph::new(fabric, lfts, rank);
    let switch_lid: Vec<u16> = lfts
        .switches
        .iter()
        .map(|&n| lids.base[fabric.port_index(n, 0) as usize])
        .collect();
    let cols = crate::routing::updown::fill_columns(&graph, lfts, &switch_lid);
    let top = leaf_rank(rank);
    let rows: Vec<usize> = (0..rank.len()).filter(|&r| rank[r] == top && source[r]).collect();
    settle_turning_switch_routes(fabric, lfts, rank, &switch_lid, &cols, &rows)
}

/// The first [`NAMED`] unrouted (switch, host LID) pairs as (switch name, host port).
pub(crate) fn name_pairs<'a>(
    fabric: &Fabric,
    lids: &Lids,
    pairs: impl Iterator<Item = &'a (NodeId, u32)>,
) -> Vec<(String, String)> {
    pairs
        .take(NAMED)
        .map(|(node, lid)| {
            let owner = lids.owner[*lid as usize];
            (
                fabric.node(*node).name.clone(),
                crate::routing::lids::describe_port(fabric, owner),
            )
        })
        .collect()
}

/// Leaves' routes to switch LIDs that turn up again after going down (up*/down* has no
/// path: the leaf's cable into the destination's copy class is cut, and [`crate::routing::updown`]
/// then steps sideways). On one VL such a route would close a cycle in the channel
/// dependency graph of host-sourced routes; a route that [`tree_lanes::detour_sl`] serves
/// (one turn, at a relay leaf reached through a level-2 switch or at a level-2 switch
/// right below the destination, up*/down* after it) is returned as a detour with its SL,
/// every other one is removed and counted. Longer detours (turning above level 2, or
/// reaching the relay leaf over level 3) are removed. The walks read the entries as
/// `updown` filled them (`cols`, [`crate::routing::updown::fill_columns`]: one destination's
/// entries side by side, so a destination's walks from every leaf stay in cache): a kept
/// detour's relay has no turn of its own, so no removal breaks a kept path.
pub(crate) fn settle_turning_switch_routes(
    fabric: &Fabric,
    lfts: &mut LftSet,
    rank: &[u32],
    switch_lid: &[u16],
    cols: &[u8],
    rows: &[usize],
) -> (u64, Vec<(u32, u16, u8)>) {
    let top = leaf_rank(rank);
    let stride = lfts.stride;
    let n = switch_lid.len();
    // the row behind every port of every row (u32::MAX: none), `next_row[off[r] + port]`,
    // so that walks are lookups
    let mut off = Vec::with_capacity(n + 1);
    let mut next_row = Vec::new();
    for &sw in &lfts.switches {
        off.push(next_row.len());
        next_row.push(u32::MAX); // port 0: the switch itself
        for port in 1..=fabric.node(sw).nports {
            next_row.push(fabric.peer(sw, port).map_or(u32::MAX, |(q, _)| lfts.row_of[q as usize]));
        }
    }
    off.push(next_row.len());
    let hop = |at: usize, port: u8| {
        let i = off[at] + port as usize;
        if i < off[at + 1] {
            next_row[i]
        } else {
            u32::MAX
        }
    };
    let level = |r: u32| match r {
        u32::MAX => Level::Host,
        r => Level::of_rank(rank[r as usize], top),
    };
    // (row, lid, the SL of a kept detour), destination by destination
    let turning: Vec<(usize, u16, Option<u8>)> = switch_lid
        .par_iter()
        .enumerate()
        .flat_map_iter(|(x, &lid)| {
            let col = &cols[x * n..(x + 1) * n];
            let mut hops: Vec<(Level, Level, Level)> = Vec::new();
            rows.iter().filter_map(move |&r| {
                let (mut at, mut from, mut looped) = (r, u32::MAX, false);
                // down → up turns by the tree's own ranks (the rule's levels merge every
                // level above 2, so a second turn up there is counted here)
                let (mut turns, mut last_down) = (0, false);
                hops.clear();
                let arrived = loop {
                    let port = col[at];
                    if port == 0 {
                        break true;
                    }
                    if hops.len() > 2 * top as usize + 2 {
                        looped = true; // removed, as a turning route
                        break false;
                    }
                    if port == NO_ROUTE {
                        break false;
                    }
                    let next = hop(at, port);
                    if next == u32::MAX {
                        break false;
                    }
                    let up = rank[next as usize] < rank[at];
                    turns += u32::from(last_down && up);
                    last_down = !up;
                    hops.push((level(at as u32), level(from), level(next)));
                    from = at as u32;
                    at = next as usize;
                };
                let served = arrived && turns == 1;
                (looped || turns > 0).then(|| (r, lid, if served { tree_lanes::detour_sl(&hops) } else { None }))
            })
        })
        .collect();
    let mut detours = Vec::new();
    let mut dropped = 0;
    for &(r, lid, sl) in &turning {
        if let Some(sl) = sl {
            detours.push((r as u32, lid, sl));
        } else {
            lfts.ports[r * stride + lid as usize] = NO_ROUTE;
            dropped += 1;
        }
    }
    detours.sort_unstable();
    (dropped, detours)
}

#[cfg(test)]
mod tests {
    use super::Div;

    /// Division by multiplication equals the hardware's for every divisor a tree has and
    /// positions around every multiple and power of two, up to the top of u32.
    #[test]
    fn division_by_multiplication_is_exact() {
        let mut ns: Vec<u32> = (0..5000).collect();
        ns.extend((1..32).flat_map(|k| [(1u32 << k) - 1, 1 << k, (1 << k) + 1]));
        ns.extend([u32::MAX, u32::MAX - 1, u32::MAX / 3, 1_000_003, 123_456_789]);
        let mut x = 0x9e37_79b9u32;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            ns.push(x);
        }
        for d in (1..=1200u32).chain([4096, 65_535, 65_536, 1 << 31, u32::MAX]) {
            let q = Div::new(d);
            for &n in &ns {
                assert_eq!((q.div(n), q.rem(n)), (n / d, n % d), "{n} / {d}");
            }
        }
    }
}
