//! The lane rule of a degraded LSFT: which SL a route takes and which VL each hop gets,
//! so that detours through another leaf stay deadlock-free ([`crate::routing::lanes`] says
//! why a rule is needed). [`LsftLanes`] is the rule
//! (docs/routing.md §2.4, [`super::route_degraded`]), stated with 7 bipartitions of the leaves:
//! partition j < J = min(7, bits of the largest leaf index) ([`partitions`]) splits them
//! by bit j of the leaf index (side·n + point).
//!
//! * SL 0 (a route without a turn, or a switch-LID route up, then down by the family's
//!   ranks — up*/down*, whatever its physical turns): VL 0 everywhere;
//! * SL 1 + 2j + b (j < 7, b ∈ {0, 1}): the *destination side* is the leaves on side b of
//!   partition j. At a leaf: input from a host (or the leaf itself) → VL 0; input from a spine
//!   and output to a spine (a turn) → VL 1 at a leaf off the destination side, VL 2 at one
//!   on it; input from a spine and output to a host → VL 2. At a spine: output to a leaf
//!   off the destination side → VL 0; to a leaf on it → VL 1, or VL 2 when the input leaf
//!   is on the destination side too;
//! * with two data VLs (no route turns twice) VL 2 reads VL 1; SL 15 is not used by the
//!   routes and maps to VL 0 (the subnet manager's to use).
//!
//! Partitions J..6 ([`pattern`]) split the leaves by the parity of two (or all J) index
//! bits: extra chances for a route that turns twice, whose turn leaves the single bits may
//! not separate the right way.
//!
//! A route turning once at m towards d takes a partition j with bit j of m ≠ bit j of d
//! and b = bit j of d ([`relay_sl`]): VL 0 up to m, VL 1 from the turn. A route turning at
//! m1, then at m2, takes a partition with bit j of m1 ≠ bit j of d = bit j of m2
//! ([`two_turn_sl`]): VL 0 to m1, VL 1 from m1 to m2, VL 2 from m2 on.
//!
//! Why this is deadlock-free: VL 0 carries only paths that are up, then down by rank
//! (every physical leaf → spine → leaf path is, so are the family routes and every
//! detour's part before its first turn), whose dependency graph up*/down* keeps acyclic;
//! VL 1 and VL 2 carry only parts of paths between two turns or after the last one — up,
//! then down, with no down → up dependency — and VLs never decrease along a path. The full
//! argument is in [`super::route_degraded`].

use crate::families::lsft::model_holes::LsftHoles;
use crate::routing::escape::ESCAPE_SL;
use crate::routing::lanes::{FarEnds, LaneRules};
use crate::topology::degraded::DEAD;
use crate::topology::{Fabric, NodeId};

/// Data VLs of a degraded LSFT whose detours turn at most once.
pub(crate) const DATA_VLS: u8 = 2;
/// Data VLs of a degraded LSFT with some route turning twice: the rule's bound.
pub const MAX_DATA_VLS: u8 = 3;
/// Most leaf bipartitions the SLs can name: SL 1 + 2j + b ≤ 14 leaves SL 15 to the subnet
/// manager's keep-alive mapping (the OpenSM plugin's `KEEPALIVE_SL`).
pub(crate) const MAX_PARTITIONS: u32 = 7;

/// J: the leaf bipartitions (bits of the leaf index) the SLs use for `leaves` leaves —
/// enough that any two leaf indices differ in one of them, at most [`MAX_PARTITIONS`].
pub(crate) fn partitions(leaves: u32) -> u32 {
    (u32::BITS - leaves.saturating_sub(1).leading_zeros()).clamp(1, MAX_PARTITIONS)
}

/// The highest SL the rule gives a route: every fabric has all [`MAX_PARTITIONS`]
/// partitions (those past J serve routes that turn twice), so SLs 1 ..= 14.
pub(crate) const RULE_SLS: u8 = (2 * MAX_PARTITIONS) as u8;

/// The leaf-index bits whose parity is partition j's side, with J = `parts` index bits:
/// bit j for j < J; past J, pairs of neighbouring bits, then pairs further apart, then all
/// J bits — extra bipartitions for routes that turn twice (a route turning at m1, then
/// m2, towards d needs a partition with m1 off d's side and m2 on it; with x = m1 ⊕ d and
/// y = m2 ⊕ d, a parity mask P works when P·x is odd and P·y even, which the single bits
/// miss whenever every bit of x is in y).
pub(crate) fn pattern(j: u32, parts: u32) -> u32 {
    if j < parts {
        return 1 << j;
    }
    let mut k = parts;
    for gap in 1..parts {
        for i in 0..parts - gap {
            if k == j {
                return (1 << i) | (1 << (i + gap));
            }
            k += 1;
        }
    }
    (1u32 << parts) - 1
}

/// The side (0 or 1) of leaf index `x` in partition j of a rule with J = `parts`.
fn side(x: u32, j: u32, parts: u32) -> u32 {
    (x & pattern(j, parts)).count_ones() & 1
}

/// The SL of a route that turns once, at leaf `m`, towards leaf `d`: the lowest partition
/// that puts m off d's side (one of the J index bits when m and d differ in one); none
/// when m and d agree on every partition (only a fabric of more than 2^7 leaves has such
/// pairs).
pub(crate) fn relay_sl(m: u32, d: u32, parts: u32) -> Option<u8> {
    (0..MAX_PARTITIONS)
        .find(|&j| side(m, j, parts) != side(d, j, parts))
        .map(|j| (1 + 2 * j + side(d, j, parts)) as u8)
}

/// The SL of a route that turns at leaf `m1`, then at leaf `m2`, towards leaf `d`: the
/// lowest partition with m1 off d's side and m2 on it; none when there is none.
pub(crate) fn two_turn_sl(m1: u32, m2: u32, d: u32, parts: u32) -> Option<u8> {
    (0..MAX_PARTITIONS)
        .find(|&j| side(m1, j, parts) != side(d, j, parts) && side(m2, j, parts) == side(d, j, parts))
        .map(|j| (1 + 2 * j + side(d, j, parts)) as u8)
}

/// What a hop's port leads to or comes from, for the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// A host, nothing, or the switch itself (port 0).
    Host,
    /// The leaf with this leaf index.
    Leaf(u32),
    /// A switch that is not a leaf (a spine).
    Spine,
}

/// The VL of a hop under the degraded-LSFT rule (module documentation) before it is
/// limited to the data VLs in use: at the leaf with index `at` (none: a spine), for `sl`
/// of a rule with `parts` partitions, in from `from` and out to `to`.
pub(crate) fn vl(sl: u8, parts: u32, at: Option<u32>, from: End, to: End) -> u8 {
    if sl == 0 || sl > RULE_SLS {
        return 0; // SL 0, and SLs the rule does not use
    }
    let (j, b) = (((sl - 1) / 2) as u32, ((sl - 1) % 2) as u32);
    let dest_side = |x: u32| side(x, j, parts) == b;
    match (at, from, to) {
        (Some(_), End::Host, _) => 0,
        // the turn: the first off the destination side, the second on it
        (Some(x), _, End::Leaf(_) | End::Spine) => 1 + dest_side(x) as u8,
        // the last hop, to a host (or the leaf itself)
        (Some(_), _, End::Host) => 2,
        (None, _, End::Leaf(y)) if !dest_side(y) => 0,
        (None, End::Leaf(x), End::Leaf(_)) if dest_side(x) => 2,
        (None, _, End::Leaf(_)) => 1,
        (None, _, _) => 0,
    }
}
/// What is at the far end of a port, for the rule: a leaf index, or one of these.
const FAR_HOST: u32 = u32::MAX;
const FAR_SPINE: u32 = u32::MAX - 1;

/// The SL and VL rules of a routed degraded LSFT. It owns what it needs (the SL of every
/// (leaf, LID) pair and what is behind every port), so a subnet manager can keep it to
/// answer PathRecord and SL-to-VL queries long after routing.
#[derive(Clone, Debug)]
pub(crate) struct LsftLanes {
    /// Leaf index (side·n + point) of every leaf node, `u32::MAX` for other nodes.
    point_of: Vec<u32>,
    /// Per port: what is at its far end (a leaf index, FAR_HOST, FAR_SPINE).
    far: FarEnds<u32>,
    /// `sl[i * stride + lid]` per leaf index i, as in
    /// [`super::route_degraded::DegradedRoutes::sl`].
    sl: Vec<u8>,
    stride: usize,
    /// J, the leaf bipartitions the SLs name ([`partitions`]).
    parts: u32,
    /// Data VLs the rule's routes need: 2, or 3 when some route turns twice.
    rule_vls: u8,
    /// The escape lane's VL (the one after the rule's), when it carries a pair.
    escape_vl: Option<u8>,
}

impl LsftLanes {
    /// The rules of routes computed for `h` on `fabric`, taking their SL table
    /// (`sl[p * stride + lid]`, moved: a copy would cost as much as a table), the data VLs
    /// of the routes ([`super::route_degraded::DegradedRoutes::data_vls`]) and whether the
    /// escape lane carries a pair (its VL is then the last of them).
    pub(crate) fn with_sl(
        fabric: &Fabric,
        h: &LsftHoles,
        sl: Vec<u8>,
        stride: usize,
        (data_vls, escape): (u8, bool),
    ) -> LsftLanes {
        let mut point_of = vec![u32::MAX; fabric.len()];
        for (p, &a) in h.leaves.iter().enumerate() {
            if a != DEAD {
                point_of[a as usize] = p as u32;
            }
        }
        let far = FarEnds::new(fabric, FAR_HOST, |n| match point_of[n as usize] {
            u32::MAX => FAR_SPINE,
            p => p,
        });
        let rule_vls = data_vls.saturating_sub(escape as u8).clamp(DATA_VLS, MAX_DATA_VLS);
        LsftLanes {
            point_of,
            far,
            sl,
            stride,
            parts: partitions(h.leaf_count()),
            rule_vls,
            escape_vl: escape.then_some(rule_vls),
        }
    }

    /// What is behind port `port` of `node` (a host for a port the node does not have).
    fn far_end(&self, node: NodeId, port: u8) -> End {
        match self.far.get(node, port) {
            Some(FAR_SPINE) => End::Spine,
            Some(FAR_HOST) | None => End::Host,
            Some(p) => End::Leaf(p),
        }
    }

    /// The highest SL the routes use: 2J, or [`ESCAPE_SL`] with the escape lane.
    pub(crate) fn rule_sls(&self) -> u8 {
        match self.escape_vl {
            Some(_) => ESCAPE_SL,
            None => RULE_SLS,
        }
    }

    /// Data VLs the routes need (2, or 3 when some route turns twice; one more with the
    /// escape lane).
    pub(crate) fn data_vls(&self) -> u8 {
        self.rule_vls + self.escape_vl.is_some() as u8
    }

    /// The SL hosts on `leaf` use towards `lid` (0 for anything that is not a leaf).
    pub(crate) fn sl(&self, leaf: NodeId, lid: usize) -> u8 {
        match self.point_of.get(leaf as usize) {
            Some(&p) if p != u32::MAX && lid < self.stride => self.sl[p as usize * self.stride + lid],
            _ => 0,
        }
    }

    /// The VL of a hop at `switch` for `sl`, in at `in_port` (0: from the switch itself or
    /// a host) and out at `out_port`.
    pub(crate) fn vl(&self, switch: NodeId, sl: u8, in_port: u8, out_port: u8) -> u8 {
        if let (ESCAPE_SL, Some(v)) = (sl, self.escape_vl) {
            return v; // the escape lane: one VL from the first switch to the last
        }
        let at = self.point_of.get(switch as usize).copied().filter(|&p| p != u32::MAX);
        let from = self.far_end(switch, in_port);
        let to = self.far_end(switch, out_port);
        vl(sl, self.parts, at, from, to).min(self.rule_vls - 1)
    }
}

impl LaneRules for LsftLanes {
    fn sl(&self, src: NodeId, dlid: usize) -> u8 {
        LsftLanes::sl(self, src, dlid)
    }
    fn vl(&self, switch: NodeId, sl: u8, in_port: u8, out_port: u8) -> u8 {
        LsftLanes::vl(self, switch, sl, in_port, out_port)
    }
    fn data_vls(&self) -> u8 {
        LsftLanes::data_vls(self)
    }
    fn rule_sls(&self) -> u8 {
        LsftLanes::rule_sls(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_cover_every_leaf_index_up_to_seven_bits() {
        for (leaves, parts) in [
            (1, 1),
            (2, 1),
            (3, 2),
            (13, 4),
            (16, 4),
            (17, 5),
            (57, 6),
            (128, 7),
            (1057, 7),
        ] {
            assert_eq!(partitions(leaves), parts, "{leaves} leaves");
            // any two distinct indices below 2^parts differ in a partition
            let span = leaves.min(1 << parts);
            for m in 0..span {
                for d in (0..span).filter(|&d| d != m) {
                    let sl = relay_sl(m, d, parts).unwrap();
                    assert!((1..=RULE_SLS).contains(&sl) && sl < 15);
                }
            }
        }
        assert_eq!(relay_sl(5, 5 + 128, 7), None);
    }

    /// Every one- and two-turn path of leaves (s, m1, m2, d) the SL functions accept gets
    /// VL 0 before its first turn, 1 from it, 2 from the second (hop by hop as the switches
    /// see it), and the rule never lowers a VL along such a path.
    #[test]
    fn turns_get_the_vls_of_the_proof() {
        let parts = partitions(13);
        for d in 0..13u32 {
            for m1 in (0..13).filter(|&x| x != d) {
                let s = (m1 + 3) % 13;
                let sl = relay_sl(m1, d, parts).unwrap();
                // s → spine → m1 → spine → d → host
                let one = [
                    vl(sl, parts, Some(s), End::Host, End::Spine),
                    vl(sl, parts, None, End::Leaf(s), End::Leaf(m1)),
                    vl(sl, parts, Some(m1), End::Spine, End::Spine),
                    vl(sl, parts, None, End::Leaf(m1), End::Leaf(d)),
                    vl(sl, parts, Some(d), End::Spine, End::Host),
                ];
                assert_eq!(one.map(|v| v.min(DATA_VLS - 1)), [0, 0, 1, 1, 1], "{m1} -> {d}");
                assert!(one.windows(2).all(|w| w[0] <= w[1]));
                for m2 in (0..13).filter(|&x| x != d && x != m1) {
                    let Some(sl) = two_turn_sl(m1, m2, d, parts) else {
                        continue;
                    };
                    let two = [
                        vl(sl, parts, Some(s), End::Host, End::Spine),
                        vl(sl, parts, None, End::Leaf(s), End::Leaf(m1)),
                        vl(sl, parts, Some(m1), End::Spine, End::Spine),
                        vl(sl, parts, None, End::Leaf(m1), End::Leaf(m2)),
                        vl(sl, parts, Some(m2), End::Spine, End::Spine),
                        vl(sl, parts, None, End::Leaf(m2), End::Leaf(d)),
                        vl(sl, parts, Some(d), End::Spine, End::Host),
                    ];
                    assert_eq!(two, [0, 0, 1, 1, 2, 2, 2], "{m1} -> {m2} -> {d}");
                }
            }
        }
        // SL 0 and SLs the rule does not use: VL 0
        assert_eq!(vl(0, parts, Some(1), End::Spine, End::Spine), 0);
        assert_eq!(vl(RULE_SLS + 1, parts, Some(1), End::Spine, End::Spine), 0);
    }
}
