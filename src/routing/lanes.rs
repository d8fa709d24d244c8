//! Service levels and virtual lanes: what keeps routes that turn from down to up (detours)
//! deadlock-free.
//!
//! A route set whose paths all go up, then down, is deadlock-free on one VL. A route that
//! turns once more (a detour through another leaf, a relay switch) needs a second VL from
//! the turn on. InfiniBand gives a path its VLs in two steps: the source picks an SL per
//! destination (what a subnet manager answers in PathRecords — OpenSM's `path_sl`), and
//! every switch maps (SL, input port, output port) to a VL with its SL-to-VL tables
//! (OpenSM's `update_sl2vl`). The VL of a hop therefore cannot depend on the VL the packet
//! arrived on; a rule must make the VL each hop gets the one its CDG proof assumed.
//!
//! [`LaneRules`] is that pair of functions for any family that needs it: the per-VL
//! check (`check::vls`) walks every path with them, the formats write them next to the
//! dump (`path-sl.txt`, `sl2vl.txt`) and the OpenSM plugin answers OpenSM's callbacks
//! with them. [`Lanes`] is the rule of a degraded LSFT
//! (docs/routing.md §2.4, [`super::degraded`]):
//!
//! * SL 0 (a route without a turn, or a switch-LID route up, then down by the family's
//!   ranks — up*/down*, whatever its physical turns): VL 0 everywhere;
//! * SL 1 + c for a route that turns once, at a leaf m of colour 1 − c: VL 0 until the
//!   turn, VL 1 from it: at a leaf, input from a spine → VL 1 (the turn to a spine, or the
//!   last hop to a host after it), input from a host or the leaf itself → VL 0; at a spine
//!   → VL 1 exactly when the leaf at its output port has colour c;
//! * SLs above 2 are not used by the routes and map to VL 0.
//!
//! Why two VLs suffice: VL 0 then carries only paths that are up, then down by rank
//! (every physical leaf → spine → leaf path is, so are the family routes and every
//! detour's part before its turn), whose dependency graph up*/down* keeps acyclic; VL 1
//! carries only the part after a detour's single physical turn — up, then down, with no
//! down → up dependency; and VLs never decrease along a path. The full argument is in
//! [`super::degraded`].

use super::degraded::DegradedRoutes;
use crate::topology::degraded::{LsftHoles, DEAD};
use crate::topology::{Fabric, NodeId, NodeKind};

/// Data VLs the degraded-LSFT rule needs.
pub const DATA_VLS: u8 = 2;

/// The colour of a leaf: the parity of its leaf index (side·n + point; one-sided, the
/// canonical point index). Any two-colouring works for the rule as long as a detour's turn
/// leaf has the other colour than its destination leaf.
pub fn colour(p: u32) -> u8 {
    (p & 1) as u8
}

/// SLs per path and VLs per hop of a routed fabric, as functions of switches and ports.
pub trait LaneRules {
    /// The SL a host on switch `src` (or `src` itself) uses towards `dlid`.
    fn sl(&self, src: NodeId, dlid: usize) -> u8;
    /// The VL of a hop at `switch` for `sl`, in at `in_port` (0: from the switch itself)
    /// and out at `out_port`.
    fn vl(&self, switch: NodeId, sl: u8, in_port: u8, out_port: u8) -> u8;
    /// Data VLs the rule uses (a port must offer at least this many).
    fn data_vls(&self) -> u8;
}

/// The VL of a hop under the degraded-LSFT rule (module documentation): at a leaf
/// (`at_leaf`) or a spine, for `sl`, from a host or the switch itself (`from_host`) or a
/// switch, out to a host or the switch itself (`to_switch` false) or to a switch whose
/// point colour is `out_colour` (2: not a leaf).
pub fn vl(sl: u8, at_leaf: bool, from_host: bool, to_switch: bool, out_colour: u8) -> u8 {
    if sl == 0 || sl > DATA_VLS {
        return 0; // SL 0, and SLs the rule does not use
    }
    let c = sl - 1;
    if at_leaf {
        if from_host {
            0
        } else {
            1 // the turn (spine → spine) or the last hop after it (spine → host)
        }
    } else if to_switch && out_colour == c {
        1
    } else {
        0
    }
}

/// What is at the far end of a port, for the rule: a host, nothing, or the switch itself
/// (port 0); 1 + colour for a leaf of that colour; or a switch that is not a leaf.
const TO_HOST: u8 = 0;
const TO_OTHER_SWITCH: u8 = 3;

/// The SL and VL rules of a routed degraded LSFT. It owns what it needs (the SL of every
/// (leaf, LID) pair and one byte per port), so a subnet manager can keep it to answer
/// PathRecord and SL-to-VL queries long after routing.
#[derive(Clone, Debug)]
pub struct Lanes {
    /// Leaf index (side·n + point) of every leaf node, `u32::MAX` for other nodes.
    point_of: Vec<u32>,
    /// First global port index of every node (as in the fabric).
    first_port: Vec<u32>,
    /// Per global port: what is at its far end (TO_HOST, 1 + colour, TO_OTHER_SWITCH).
    far: Vec<u8>,
    /// `sl[i * stride + lid]` per leaf index i, as in [`DegradedRoutes::sl`].
    sl: Vec<u8>,
    stride: usize,
}

impl Lanes {
    /// The rules of `routes`, computed for `h` on `fabric` (the SL table is copied).
    pub fn new(fabric: &Fabric, h: &LsftHoles, routes: &DegradedRoutes) -> Lanes {
        Lanes::with_sl(fabric, h, routes.sl.clone(), routes.stride)
    }

    /// As [`Lanes::new`], taking the SL table (`sl[p * stride + lid]`) of the routes.
    pub fn with_sl(fabric: &Fabric, h: &LsftHoles, sl: Vec<u8>, stride: usize) -> Lanes {
        let mut point_of = vec![u32::MAX; fabric.len()];
        for (p, &a) in h.leaves.iter().enumerate() {
            if a != DEAD {
                point_of[a as usize] = p as u32;
            }
        }
        let first_port = (0..fabric.len() as NodeId).map(|n| fabric.port_index(n, 0)).collect();
        let far = fabric
            .ports
            .iter()
            .map(|port| match fabric.peer(port.node, port.num) {
                Some((n, _)) if port.num != 0 && fabric.node(n).kind == NodeKind::Switch => {
                    match point_of[n as usize] {
                        u32::MAX => TO_OTHER_SWITCH,
                        p => 1 + colour(p),
                    }
                }
                _ => TO_HOST,
            })
            .collect();
        Lanes {
            point_of,
            first_port,
            far,
            sl,
            stride,
        }
    }

    /// What is behind port `port` of `node` (TO_HOST for a port the node does not have).
    fn far_end(&self, node: NodeId, port: u8) -> u8 {
        let Some(&first) = self.first_port.get(node as usize) else {
            return TO_HOST;
        };
        let next = self
            .first_port
            .get(node as usize + 1)
            .copied()
            .unwrap_or(self.far.len() as u32);
        let i = first + port as u32;
        if i < next {
            self.far[i as usize]
        } else {
            TO_HOST
        }
    }

    /// The SL hosts on `leaf` use towards `lid` (0 for anything that is not a leaf).
    pub fn sl(&self, leaf: NodeId, lid: usize) -> u8 {
        match self.point_of.get(leaf as usize) {
            Some(&p) if p != u32::MAX && lid < self.stride => self.sl[p as usize * self.stride + lid],
            _ => 0,
        }
    }

    /// The VL of a hop at `switch` for `sl`, in at `in_port` (0: from the switch itself or
    /// a host) and out at `out_port`.
    pub fn vl(&self, switch: NodeId, sl: u8, in_port: u8, out_port: u8) -> u8 {
        let at_leaf = self.point_of.get(switch as usize).is_some_and(|&p| p != u32::MAX);
        let from_host = in_port == 0 || self.far_end(switch, in_port) == TO_HOST;
        let out = self.far_end(switch, out_port);
        let (to_switch, out_colour) = match out {
            TO_HOST => (false, 2),
            TO_OTHER_SWITCH => (true, 2),
            c => (true, c - 1),
        };
        vl(sl, at_leaf, from_host, to_switch, out_colour)
    }
}

impl LaneRules for Lanes {
    fn sl(&self, src: NodeId, dlid: usize) -> u8 {
        Lanes::sl(self, src, dlid)
    }
    fn vl(&self, switch: NodeId, sl: u8, in_port: u8, out_port: u8) -> u8 {
        Lanes::vl(self, switch, sl, in_port, out_port)
    }
    fn data_vls(&self) -> u8 {
        DATA_VLS
    }
}
