//! A second VL for the switch-LID detours of a degraded tree (PGFT, k-ary n-tree, MOLS
//! 3-level tree; [`crate::families::tree::route_degraded`]).
//!
//! Host routes of a degraded tree are up*/down* on one VL. A leaf L whose cable into the
//! copy class of a switch X is cut has no up*/down* path to X's LID; [`crate::routing::updown`]
//! steps sideways instead: L → M (the level above the leaves) → L' (a sibling leaf that
//! kept its cable) → … → X. The route turns up again at L', which on one VL would close a
//! cycle in the channel dependency graph of host-sourced routes. Likewise, when the cable
//! between a level-2 switch M and a top switch X is cut, the leaves below M reach X only
//! through another pod: L → M → T → M' → X, turning up again at the level-2 switch M'.
//! This module gives such detours their own SL and an SL-to-VL rule that puts the part
//! from the turn on VL 1.
//!
//! Levels as in [`crate::families::tree::route_degraded::route_switch_lids`]: leaves are the bottom level,
//! "level 2" the one above them, "higher" anything above that.
//!
//! * SL 0 (host routes, switch-LID routes that are up*/down*): VL 0 everywhere;
//! * SL 1 ([`RELAY_LEAF_SL`], a detour turning once, at a relay leaf): at a leaf, input
//!   from a switch above → VL 1, else (a host, the leaf itself) → VL 0; at a level-2
//!   switch, input from a leaf or from the switch itself and output to a leaf → VL 0,
//!   anything else → VL 1; at a higher switch → VL 1;
//! * SL 2 ([`RELAY_TWO_SL`], a detour turning once, at a level-2 switch): VL 1 at a level-2
//!   switch with input from a switch above and output to a switch above (the turn), else
//!   VL 0 — so only a detour that ends right after its turn (at a top switch of a 3-level
//!   tree) is served.
//!
//! An SL-to-VL table sees (SL, input port, output port) only, never the packet's history,
//! so the rule cannot serve every detour: a detour gets the first of SL 1, 2 under which
//! the VLs the rule gives it hop by hop are 0 … 0 up to its turn and 1 … 1 from there,
//! with no second down → up turn ([`detour_sl`]). Detours that turn above level 2, turn
//! twice, whose part after a relay leaf turns leaf → leaf at a level-2 switch (towards a
//! leaf X: the rule would give that hop VL 0 again), or that go on past the switch above a
//! level-2 turn go on the escape lane ([`crate::routing::escape`]: SL 15, a VL of their own).
//!
//! Why this is deadlock-free: VL 0 carries host routes and legal switch-LID routes (up,
//! then down) and the detours' parts before their turn (up, then down); VL 1 only the
//! parts from the turn on, which have no further down → up turn, so up*/down* by level as
//! well. The dependency graph of up*/down* paths over one level order is acyclic (up
//! channels by level, then down channels), on each VL; VLs never decrease along a path
//! ([`detour_sl`] admits only 0 … 0 1 … 1), so no dependency runs from VL 1 back to VL 0.

use crate::routing::escape::ESCAPE_SL;
use crate::routing::lanes::{FarEnds, LaneRules};
use crate::topology::{Fabric, NodeId};

/// The SL of a switch-LID detour turning at a relay leaf (module documentation).
pub const RELAY_LEAF_SL: u8 = 1;
/// The SL of a switch-LID detour turning at a level-2 switch (module documentation).
pub const RELAY_TWO_SL: u8 = 2;
/// Data VLs of a degraded tree with detours (VL 0 and VL 1).
pub(crate) const DATA_VLS: u8 = 2;

/// Where a switch sits in the tree, or what a port leads to, for the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// A host, nothing, the switch itself (port 0), or a switch outside the tree.
    Host,
    /// A leaf (bottom level).
    Leaf,
    /// A switch of the level above the leaves.
    Two,
    /// A switch above level 2.
    Higher,
}

impl Level {
    /// The level of a switch of rank `rank` (0 = top, as in `route_switch_lids`) in a tree
    /// whose leaves have rank `leaf_rank`; `u32::MAX`: not a switch of the tree.
    pub(crate) fn of_rank(rank: u32, leaf_rank: u32) -> Level {
        match rank {
            u32::MAX => Level::Host,
            r if r == leaf_rank => Level::Leaf,
            r if r + 1 == leaf_rank => Level::Two,
            _ => Level::Higher,
        }
    }
}

/// The VL of a hop under the rule (module documentation): at a switch of level `at`, for
/// `sl`, in from `from` and out to `to`.
pub(crate) fn vl(sl: u8, at: Level, from: Level, to: Level) -> u8 {
    let above = |l: Level| matches!(l, Level::Two | Level::Higher);
    match (sl, at) {
        (RELAY_LEAF_SL, Level::Leaf) => u8::from(above(from)),
        (RELAY_LEAF_SL, Level::Two) => u8::from(!(matches!(from, Level::Leaf | Level::Host) && to == Level::Leaf)),
        (RELAY_LEAF_SL, Level::Higher) => 1,
        (RELAY_TWO_SL, Level::Two) => u8::from(from == Level::Higher && to == Level::Higher),
        _ => 0,
    }
}

/// The SL a switch-LID route whose hops are `hops` — (level of the switch, level the
/// packet came from, level it leaves to), the first from the source leaf's port 0 — may
/// take: it turns down → up exactly once, at a leaf (SL 1) or a level-2 switch (SL 2), and
/// the rule gives it VL 0 on every hop before that turn and VL 1 on every hop from it.
/// `None` for a route without a turn (SL 0 serves it) or one the rule cannot serve.
pub(crate) fn detour_sl(hops: &[(Level, Level, Level)]) -> Option<u8> {
    let rank = |l: Level| match l {
        Level::Leaf | Level::Host => 0,
        Level::Two => 1,
        Level::Higher => 2,
    };
    let mut turn = None;
    let mut was_down = false;
    for (i, &(at, _, to)) in hops.iter().enumerate() {
        if to == Level::Host {
            return None; // a route to a switch LID leaves the tree only at its end
        }
        let up = rank(to) > rank(at);
        if was_down && up {
            if turn.is_some() {
                return None;
            }
            turn = Some(i);
        }
        was_down = !up;
    }
    let turn = turn?;
    let sl = match hops[turn].0 {
        Level::Leaf => RELAY_LEAF_SL,
        Level::Two => RELAY_TWO_SL,
        _ => return None,
    };
    hops.iter()
        .enumerate()
        .all(|(i, &(at, from, to))| vl(sl, at, from, to) == u8::from(i >= turn))
        .then_some(sl)
}

/// The SL and VL rules of a routed degraded tree with switch-LID detours. It owns what it
/// needs (the level of every switch and of every port's far end, the detour pairs), so a
/// subnet manager can keep it to answer PathRecord and SL-to-VL queries after routing.
#[derive(Clone, Debug)]
pub(crate) struct TreeLanes {
    /// Level of every node.
    level: Vec<Level>,
    /// Per port: the level of its far end (Host for port 0 and hosts).
    far: FarEnds<Level>,
    /// (source leaf, switch LID, SL) of every detour, sorted (SL 15: the escape lane).
    detours: Vec<(NodeId, u16, u8)>,
    /// Data VLs of the relay detours' rule: 2 with some detour, else 1.
    rule_vls: u8,
    /// The escape lane's VL (the one after the rule's), when it carries a pair.
    escape_vl: Option<u8>,
}

impl TreeLanes {
    /// The rules for `fabric` whose tree switches have `rank` per node (`u32::MAX`: not
    /// a switch of the tree), leaves at rank `leaf_rank`, and the detours `detours`
    /// ((leaf node, switch LID, SL), any order).
    pub(crate) fn new(
        fabric: &Fabric,
        rank_of_node: &[u32],
        leaf_rank: u32,
        mut detours: Vec<(NodeId, u16, u8)>,
    ) -> TreeLanes {
        let level: Vec<Level> = (0..fabric.len())
            .map(|n| Level::of_rank(rank_of_node.get(n).copied().unwrap_or(u32::MAX), leaf_rank))
            .collect();
        let far = FarEnds::new(fabric, Level::Host, |n| level[n as usize]);
        detours.sort_unstable();
        detours.dedup();
        let rule_vls = if detours.iter().any(|d| d.2 != ESCAPE_SL) {
            DATA_VLS
        } else {
            1
        };
        let escape_vl = detours.iter().any(|d| d.2 == ESCAPE_SL).then_some(rule_vls);
        TreeLanes {
            level,
            far,
            detours,
            rule_vls,
            escape_vl,
        }
    }

    /// What is behind port `port` of `node` (a host for a port the node does not have).
    fn far_end(&self, node: NodeId, port: u8) -> Level {
        self.far.get(node, port).unwrap_or(Level::Host)
    }
}

impl LaneRules for TreeLanes {
    fn sl(&self, src: NodeId, dlid: usize) -> u8 {
        let Ok(lid) = u16::try_from(dlid) else {
            return 0;
        };
        match self.detours.binary_search_by_key(&(src, lid), |&(n, l, _)| (n, l)) {
            Ok(i) => self.detours[i].2,
            Err(_) => 0,
        }
    }
    fn vl(&self, switch: NodeId, sl: u8, in_port: u8, out_port: u8) -> u8 {
        if let (ESCAPE_SL, Some(v)) = (sl, self.escape_vl) {
            return v; // the escape lane: one VL from the first switch to the last
        }
        let at = self.level.get(switch as usize).copied().unwrap_or(Level::Host);
        vl(sl, at, self.far_end(switch, in_port), self.far_end(switch, out_port))
    }
    fn data_vls(&self) -> u8 {
        self.rule_vls + self.escape_vl.is_some() as u8
    }
    fn rule_sls(&self) -> u8 {
        match self.escape_vl {
            Some(_) => ESCAPE_SL,
            None => RELAY_TWO_SL,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Level::{Higher, Host, Leaf, Two};
    use super::*;

    fn vls(sl: u8, hops: &[(Level, Level, Level)]) -> Vec<u8> {
        hops.iter().map(|&(a, f, t)| vl(sl, a, f, t)).collect()
    }

    /// The detours of the module documentation get VL 0 up to their turn and VL 1 from it.
    #[test]
    fn relay_detours_get_vl_0_then_1() {
        // L → M_j → L' → M_c → T (a top switch of the class L lost its cable into)
        let hops = [
            (Leaf, Host, Two),
            (Two, Leaf, Leaf),
            (Leaf, Two, Two),
            (Two, Leaf, Higher),
        ];
        assert_eq!(vls(RELAY_LEAF_SL, &hops), [0, 0, 1, 1]);
        assert_eq!(detour_sl(&hops), Some(RELAY_LEAF_SL));
        // on to a middle switch of another pod: T → M_c(q), still VL 1
        let longer = [hops.as_slice(), &[(Higher, Two, Two)]].concat();
        assert_eq!(vls(RELAY_LEAF_SL, &longer), [0, 0, 1, 1, 1]);
        assert_eq!(detour_sl(&longer), Some(RELAY_LEAF_SL));
        // to the relay's own level-2 switch M_c (the detour ends there)
        assert_eq!(detour_sl(&hops[..3]), Some(RELAY_LEAF_SL));
        // L → M → T → M' → X (M lost its cable to the top switch X): turns at M'
        let two = [
            (Leaf, Host, Two),
            (Two, Leaf, Higher),
            (Higher, Two, Two),
            (Two, Higher, Higher),
        ];
        assert_eq!(vls(RELAY_TWO_SL, &two), [0, 0, 0, 1]);
        assert_eq!(detour_sl(&two), Some(RELAY_TWO_SL));
        // SL 0 is VL 0 everywhere
        assert!(vls(0, &hops).iter().chain(&vls(0, &two)).all(|&v| v == 0));
    }

    /// Detours the rule cannot serve are refused: a turn at level 3, a turn at a leaf
    /// reached over level 3, two turns, a leaf → leaf turn at level 2 after the relay, a
    /// level-2 turn that goes on past the switch above, no turn.
    #[test]
    fn detours_the_rule_cannot_serve_are_refused() {
        // L → M → T → M' → L' → M'' → X: VL 1 from M on under SL 1, before the turn
        let high = [
            (Leaf, Host, Two),
            (Two, Leaf, Higher),
            (Higher, Two, Two),
            (Two, Higher, Leaf),
            (Leaf, Two, Two),
            (Two, Leaf, Higher),
        ];
        assert_eq!(vls(RELAY_LEAF_SL, &high), [0, 1, 1, 1, 1, 1]);
        assert_eq!(detour_sl(&high), None);
        // a turn at level 3 (a 4-level tree): L → M → T → U → T' → U'
        let level3 = [
            (Leaf, Host, Two),
            (Two, Leaf, Higher),
            (Higher, Two, Higher),
            (Higher, Higher, Higher),
        ];
        assert_eq!(detour_sl(&level3), None);
        // two turns: L → M → L' → M' → L'' → M''
        let twice = [
            (Leaf, Host, Two),
            (Two, Leaf, Leaf),
            (Leaf, Two, Two),
            (Two, Leaf, Leaf),
            (Leaf, Two, Two),
        ];
        assert_eq!(detour_sl(&twice), None);
        // towards a leaf: L → M → L' → M' → L'' (VL 0 again at M')
        assert_eq!(vls(RELAY_LEAF_SL, &twice[..4]), [0, 0, 1, 0]);
        assert_eq!(detour_sl(&twice[..4]), None);
        // a level-2 turn going on: L → M → T → M' → X → M'' (VL 0 again at X)
        let on = [
            (Leaf, Host, Two),
            (Two, Leaf, Higher),
            (Higher, Two, Two),
            (Two, Higher, Higher),
            (Higher, Two, Two),
        ];
        assert_eq!(vls(RELAY_TWO_SL, &on), [0, 0, 0, 1, 0]);
        assert_eq!(detour_sl(&on), None);
        // up*/down*: no turn, SL 0 serves it
        assert_eq!(
            detour_sl(&[(Leaf, Host, Two), (Two, Leaf, Higher), (Higher, Two, Two)]),
            None
        );
        assert_eq!(detour_sl(&[]), None);
    }
}
