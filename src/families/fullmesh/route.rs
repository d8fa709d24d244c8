//! Routing a full mesh of switches with LMC multipath: one direct route and up to N−2
//! two-hop detours per destination switch, deadlock-free on two data VLs.
//!
//! Switches are numbered 0..N in the layout's canonical order; host LID offset o
//! (0 ≤ o < 2^LMC) of a host on switch t, at switch i:
//! * i = t: the host's port;
//! * o = 0: straight to t (the direct route, one switch-to-switch hop);
//! * o ≥ 1: relay m = relay(t, o) = (t + 1 + (o − 1) mod (N − 1)) mod N; switch m itself
//!   goes straight to t, every other switch goes to m (then m → t: two switch hops).
//!
//! **Why the relay depends on (t, o) only.** LFTs forward by DLID alone: a packet for
//! (t, o) that reached its relay m must leave m towards t, so m's entry for (t, o) is the
//! direct one, and m's own hosts take the direct route on that offset. Whatever rule is
//! chosen, for every (t, o) at least one switch is a relay and goes direct; one relay per
//! (t, o) is the fewest, and it serves every other source. So relay(s, t, o) = relay(t, o)
//! for s ≠ relay(t, o), and the pair (relay(t, o), t) has a direct route on offset o (the
//! path plan of `ibfat plan-paths` leaves that offset out for that pair).
//!
//! **Balance.** For a fixed offset o ≥ 1, t ↦ relay(t, o) is a rotation of the switches
//! without fixed points, so every switch is the relay of exactly one destination switch
//! and carries the N−2 source switches of that destination: an equal share, N−2 of the
//! N(N−1) − (N−1) detoured (source, destination) switch pairs per offset. For one pair
//! (s, t) the offsets 1..=N−1 give N−1 distinct relays (every switch but t).
//!
//! **More offsets than relays.** When 2^LMC − 1 > N − 1, offset o and o + (N − 1) share a
//! relay (the rule wraps); their paths differ only in the cable on a W > 1 mesh.
//!
//! **Parallel cables.** A hop from i towards switch j for host slot x and offset o takes
//! cable (x + o) mod W of the pair: a switch's hosts spread over the cables, and so do
//! one host's offsets.
//!
//! **Switch LIDs** go straight to the switch (one hop) from everywhere.
//!
//! **Missing cables** ([`FullmeshLayout::cut`], a degraded mesh): a pair without cables
//! goes through a bypass switch cabled to both (spread by (i + t)); a relay cut off from t
//! is replaced, for every source, by the next switch of the rotation cabled to t; a source
//! cut off from the relay sends that offset direct, or — cut off from t too — through a
//! neighbour that itself goes direct, or as a last resort through the pair's bypass, which
//! hands it on to the relay (three switch hops). SL 1 marks every route of more than one
//! switch hop (switch LIDs included) and the same VL rule applies: VL 1 from the second
//! switch on. Two-hop routes keep both VLs acyclic as above; a three-hop route adds a
//! switch-to-switch dependency on VL 1, so the per-VL check (`check::vls`) proves each
//! degraded mesh before its tables are used (`ibfat route`, the plugin with `validate=1`).
//! Pairs with their cables keep their routes (see [`next_switch`]).
//!
//! **Virtual lanes ([`FullmeshLanes`]).** A detour runs s → m → t → host. Paths on SL 1 are the
//! detours (source switch neither t nor the relay, offset ≥ 1), everything else SL 0. The
//! SL-to-VL rule at any switch: SL 1 arriving from a switch port → VL 1, everything else
//! VL 0. So a detour's first hop is on VL 0 and its second and last on VL 1; direct routes
//! stay on VL 0. VL 0 then carries dependencies only from a switch-to-switch channel into
//! a switch-to-host channel, VL 1 likewise (m → t into t → host): no channel of either VL
//! depends on a switch-to-switch channel of the same VL after it, so both CDGs are
//! acyclic, and VLs never decrease along a path. Two data VLs: [`DATA_VLS`].

use crate::routing::hosts::{Entries, HostRoutes, RoutedLayout};
use crate::routing::lids::Lids;
use crate::routing::NO_ROUTE;
use crate::topology::{Fabric, FullmeshLayout, NodeId, NodeKind, NO_PEER};

/// Data VLs the full-mesh rule needs (VL 0 and VL 1).
pub(crate) const DATA_VLS: u8 = 2;

/// The SL of detour paths (every other path uses SL 0).
pub(crate) const DETOUR_SL: u8 = 1;

/// The relay switch of destination switch `t` on LID offset `o` ≥ 1 in a mesh of `n`
/// switches (see the module documentation); never `t`.
#[inline]
pub fn relay(t: u32, o: u32, n: u32) -> u32 {
    debug_assert!(o >= 1 && n >= 2);
    (t + 1 + (o - 1) % (n - 1)) % n
}

/// Which cable of a pair a hop takes for host slot `x` on offset `o` with `w` cables.
#[inline]
pub(crate) fn cable_of(x: u32, o: u32, w: u32) -> u32 {
    (x + o) % w
}

/// The relay of (t, o) on a mesh with cables missing: relay(t, o) when it is still cabled
/// to t, else the next switch in the rotation that is (every source uses the same one:
/// the relay's own entry is the one that turns towards t).
fn relay_of(l: &FullmeshLayout, t: u32, o: u32) -> Option<u32> {
    let m0 = relay(t, o, l.n);
    if l.cut.is_empty() {
        return Some(m0);
    }
    (0..l.n).map(|k| (m0 + k) % l.n).find(|&m| l.linked(m, t))
}

/// A switch other than i and t cabled to both, spread by (i + t): the way around a pair
/// whose cables are all cut.
fn bypass(l: &FullmeshLayout, i: u32, t: u32) -> Option<u32> {
    (0..l.n)
        .map(|k| (i + t + k) % l.n)
        .find(|&m| m != i && m != t && l.linked(i, m) && l.linked(m, t))
}

/// The switch a packet for host LID offset `o` of a host on switch t goes to next from
/// switch i (i ≠ t): the direct route or the relay, around missing cables (module
/// documentation); `None` when there is no such two-hop route.
pub(crate) fn next_switch(l: &FullmeshLayout, i: u32, t: u32, o: u32) -> Option<u32> {
    if o == 0 {
        return if l.linked(i, t) { Some(t) } else { bypass(l, i, t) };
    }
    let m = relay_of(l, t, o)?;
    if i == m {
        return Some(t);
    }
    if l.linked(i, m) {
        Some(m)
    } else if l.linked(i, t) {
        Some(t) // the relay is out of reach: this offset goes direct from here
    } else {
        // neither: through a neighbour that goes direct itself (cut off from the relay),
        // else through the pair's bypass, which hands it to the relay (three switch hops)
        (0..l.n)
            .map(|k| (i + t + k) % l.n)
            .find(|&b| b != i && b != t && l.linked(i, b) && l.linked(b, t) && !l.linked(b, m))
            .or_else(|| bypass(l, i, t))
    }
}

/// Host routes of a full mesh (for [`crate::routing::route`]).
pub(crate) struct FullmeshRouter<'a> {
    l: &'a FullmeshLayout,
    /// switch index of a node, or u32::MAX
    index: Vec<u32>,
    /// position of each rank (hosts, then others)
    pos: Vec<u32>,
}

impl<'a> FullmeshRouter<'a> {
    /// Precompute the switch indices and host positions.
    pub(crate) fn new(fabric: &Fabric, l: &'a FullmeshLayout) -> FullmeshRouter<'a> {
        FullmeshRouter {
            l,
            index: switch_index(fabric, l),
            pos: l.host_pos.iter().chain(&l.other_pos).copied().collect(),
        }
    }

    /// Out port at `node` towards host `rank` on LID offset `offset`.
    pub(crate) fn port(&self, node: NodeId, rank: u32, offset: u16) -> u8 {
        let i = self.index[node as usize];
        if i == u32::MAX {
            return NO_ROUTE;
        }
        let l = self.l;
        let d = self.pos[rank as usize];
        let (t, x, o) = (d / l.h, d % l.h, offset as u32);
        if i == t {
            return l.down[d as usize];
        }
        let c = cable_of(x, o, l.w);
        if l.cut.is_empty() {
            if o == 0 {
                return l.cable(i, t, c);
            }
            let m = relay(t, o, l.n);
            return l.cable(i, if i == m { t } else { m }, c);
        }
        match next_switch(l, i, t, o) {
            Some(j) => l.live_cable(i, j, c),
            None => NO_ROUTE,
        }
    }

    /// Every switch is at the same level (up*/down* ranking for switch LIDs, overridden by
    /// [`route_switch_lids`]).
    pub(crate) fn rank(&self, _node: NodeId) -> u32 {
        0
    }
}

fn switch_index(fabric: &Fabric, l: &FullmeshLayout) -> Vec<u32> {
    let mut index = vec![u32::MAX; fabric.len()];
    for (i, &s) in l.switches.iter().enumerate() {
        index[s as usize] = i as u32;
    }
    index
}

/// Route every switch LID straight to its switch (cable 0 of the pair; port 0 at itself).
pub(crate) fn route_switch_lids(fabric: &Fabric, l: &FullmeshLayout, lids: &Lids, lfts: &mut crate::routing::LftSet) {
    let index = switch_index(fabric, l);
    for (lid, &owner) in lids.owner.iter().enumerate().skip(1) {
        if owner == NO_PEER {
            continue;
        }
        let t = index[fabric.ports[owner as usize].node as usize];
        if t == u32::MAX {
            continue;
        }
        for (i, &s) in l.switches.iter().enumerate() {
            let i = i as u32;
            let port = if i == t {
                0
            } else {
                match next_switch(l, i, t, 0) {
                    Some(j) => l.live_cable(i, j, 0),
                    None => NO_ROUTE,
                }
            };
            lfts.set(s, lid as u16, port);
        }
    }
}

/// The SLs and SL-to-VL rule of a routed full mesh (see the module documentation): what
/// `ibfat route` writes into path-sl.txt and sl2vl.txt, what the per-VL check walks, and
/// what a subnet manager plugin answers for PathRecords (`sl`) and programs into the
/// switches' SL-to-VL tables (`vl`).
pub struct FullmeshLanes {
    n: u32,
    h: u32,
    index: Vec<u32>,
    /// per global port index of a host port: its position, or u32::MAX
    pos_of_port: Vec<u32>,
    /// per global port index: true when a switch is at its far end
    from_switch: Vec<bool>,
    /// first global port index of every node
    first_port: Vec<u32>,
    /// owner port of every LID, and base LID of every port (as in the routes' [`Lids`])
    owner: Vec<u32>,
    base: Vec<u16>,
    /// the layout, where cables are missing (the routes go around them)
    holes: Option<FullmeshLayout>,
    /// per LID: the switch index when it is a switch's LID, else u32::MAX
    lid_switch: Vec<u32>,
}

impl FullmeshLanes {
    /// The rule for `l` routed with `lids` (any LMC; at LMC 0 every path is SL 0). It owns
    /// what it needs, so a subnet manager can keep it to answer queries after routing.
    pub fn new(fabric: &Fabric, l: &FullmeshLayout, lids: &Lids) -> FullmeshLanes {
        let mut pos_of_port = vec![u32::MAX; fabric.ports.len()];
        for (ep, &d) in l.hosts.iter().zip(&l.host_pos).chain(l.others.iter().zip(&l.other_pos)) {
            pos_of_port[fabric.port_index(ep.node, ep.port) as usize] = d;
        }
        let from_switch = fabric
            .ports
            .iter()
            .map(|p| {
                p.num != 0
                    && fabric
                        .peer(p.node, p.num)
                        .is_some_and(|(n, _)| fabric.node(n).kind == NodeKind::Switch)
            })
            .collect();
        FullmeshLanes {
            n: l.n,
            h: l.h,
            index: switch_index(fabric, l),
            pos_of_port,
            from_switch,
            first_port: (0..fabric.len() as NodeId).map(|n| fabric.port_index(n, 0)).collect(),
            owner: lids.owner.clone(),
            base: lids.base.clone(),
            holes: (!l.cut.is_empty()).then(|| l.clone()),
            lid_switch: {
                let index = switch_index(fabric, l);
                lids.owner
                    .iter()
                    .map(|&o| match fabric.ports.get(o as usize) {
                        Some(p) if p.num == 0 => index[p.node as usize],
                        _ => u32::MAX,
                    })
                    .collect()
            },
        }
    }

    /// The SL hosts on switch `src` use towards `dlid`: [`DETOUR_SL`] when that path is a
    /// detour, 0 otherwise (direct routes, switch LIDs, LIDs outside the mesh).
    pub fn sl(&self, src: NodeId, dlid: usize) -> u8 {
        let Some(&owner) = self.owner.get(dlid) else {
            return 0;
        };
        if owner == NO_PEER {
            return 0;
        }
        let d = self.pos_of_port[owner as usize];
        let s = self.index.get(src as usize).copied().unwrap_or(u32::MAX);
        if s == u32::MAX {
            return 0;
        }
        if let Some(l) = &self.holes {
            // around missing cables: SL 1 exactly for the two-hop routes
            let (t, o) = match (d, self.lid_switch[dlid]) {
                (u32::MAX, u32::MAX) => return 0,
                (u32::MAX, t) => (t, 0),
                (d, _) => (d / self.h, dlid as u32 - self.base[owner as usize] as u32),
            };
            return match next_switch(l, s, t, o) {
                Some(j) if s != t && j != t => DETOUR_SL,
                _ => 0,
            };
        }
        if d == u32::MAX {
            return 0;
        }
        let o = dlid as u32 - self.base[owner as usize] as u32;
        let t = d / self.h;
        (o >= 1 && s != t && s != relay(t, o, self.n)) as u8 * DETOUR_SL
    }

    /// The VL of a hop at `switch` on SL `sl` from `in_port` (0: from the switch itself)
    /// to `out_port`: VL 1 for a detour arriving from another switch, VL 0 otherwise.
    pub fn vl(&self, switch: NodeId, sl: u8, in_port: u8, _out_port: u8) -> u8 {
        if sl != DETOUR_SL || in_port == 0 || self.index.get(switch as usize).map_or(true, |&i| i == u32::MAX) {
            return 0;
        }
        let i = self.first_port[switch as usize] as usize + in_port as usize;
        let end = self
            .first_port
            .get(switch as usize + 1)
            .map_or(self.from_switch.len(), |&e| e as usize);
        (i < end && self.from_switch[i]) as u8
    }
}

impl crate::routing::lanes::LaneRules for FullmeshLanes {
    fn sl(&self, src: NodeId, dlid: usize) -> u8 {
        FullmeshLanes::sl(self, src, dlid)
    }
    fn vl(&self, switch: NodeId, sl: u8, in_port: u8, out_port: u8) -> u8 {
        FullmeshLanes::vl(self, switch, sl, in_port, out_port)
    }
    fn data_vls(&self) -> u8 {
        DATA_VLS
    }
}

impl HostRoutes for FullmeshRouter<'_> {
    fn port(&self, node: NodeId, rank: u32, offset: u16) -> u8 {
        FullmeshRouter::port(self, node, rank, offset)
    }

    fn rank(&self, node: NodeId) -> u32 {
        FullmeshRouter::rank(self, node)
    }
}

impl RoutedLayout for FullmeshLayout {
    fn host_router<'a>(&'a self, fabric: &Fabric, _lids: &crate::routing::Lids) -> crate::error::Result<Entries<'a>> {
        Ok(Entries::Rows(Box::new(FullmeshRouter::new(fabric, self))))
    }

    /// Detours (LMC offsets, or around missing cables) turn at the relay: two VLs.
    fn lanes(&self, fabric: &Fabric, lids: &Lids) -> Option<crate::routing::pipeline::LaneBox> {
        (lids.lmc >= 1 || !self.cut.is_empty()).then(|| Box::new(FullmeshLanes::new(fabric, self, lids)) as _)
    }

    /// Every switch is one hop from every other: no ranking needed.
    fn route_switch_lids(&self, fabric: &Fabric, lids: &Lids, lfts: &mut crate::routing::LftSet) {
        route_switch_lids(fabric, self, lids, lfts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_relay_carries_an_equal_share_per_offset() {
        for n in 3..=12u32 {
            for o in 1..=2 * n {
                // relay -> (source, destination) switch pairs it carries at offset o
                let mut load = vec![0u32; n as usize];
                let mut direct = 0;
                for s in 0..n {
                    for t in (0..n).filter(|&t| t != s) {
                        let m = relay(t, o, n);
                        assert_ne!(m, t);
                        if m == s {
                            direct += 1;
                        } else {
                            load[m as usize] += 1;
                        }
                    }
                }
                assert!(load.iter().all(|&x| x == n - 2), "n {n} o {o}: {load:?}");
                assert_eq!(direct, n, "one relay per destination switch goes direct");
            }
            // one pair: offsets 1..=n-1 give n-1 distinct relays, then the rule wraps
            for t in 0..n {
                let mut rs: Vec<u32> = (1..n).map(|o| relay(t, o, n)).collect();
                rs.sort_unstable();
                rs.dedup();
                assert_eq!(rs.len() as u32, n - 1);
                assert_eq!(relay(t, n, n), relay(t, 1, n));
            }
        }
    }
}
