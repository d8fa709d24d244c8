//! Service levels and virtual lanes: what keeps routes that turn from down to up (detours)
//! deadlock-free.
//!
//! A route set whose paths all go up, then down, is deadlock-free on one VL. A route that
//! turns once more (a detour through another leaf, a relay switch) needs a further VL from
//! the turn on. InfiniBand gives a path its VLs in two steps: the source picks an SL per
//! destination (what a subnet manager answers in PathRecords — OpenSM's `path_sl`), and
//! every switch maps (SL, input port, output port) to a VL with its SL-to-VL tables
//! (OpenSM's `update_sl2vl`). The VL of a hop therefore cannot depend on the VL the packet
//! arrived on; a rule must make the VL each hop gets the one its CDG proof assumed.
//!
//! [`LaneRules`] is that pair of functions for any family that needs it: the per-VL
//! check (`check::vls`) walks every path with them, the formats write them next to the
//! with them. Each family that detours keeps its rule in its folder ([`crate::families::lsft::lanes`], [`crate::families::tree::lanes`], the full mesh's in [`crate::families::fullmesh::route`]).

use crate::topology::{Fabric, NodeId, NodeKind};
/// SLs per path and VLs per hop of a routed fabric, as functions of switches and ports.
pub trait LaneRules {
    /// The SL a host on switch `src` (or `src` itself) uses towards `dlid`.
    fn sl(&self, src: NodeId, dlid: usize) -> u8;
    /// The VL of a hop at `switch` for `sl`, in at `in_port` (0: from the switch itself)
    /// and out at `out_port`.
    fn vl(&self, switch: NodeId, sl: u8, in_port: u8, out_port: u8) -> u8;
    /// Data VLs the rule uses (a port must offer at least this many).
    fn data_vls(&self) -> u8;
    /// The highest SL the rule gives a route: SLs 1 ..= this are the rule's, and a route on
    /// SL 0 must not be moved onto one of them (a subnet manager's SL hint).
    fn rule_sls(&self) -> u8 {
        self.data_vls()
    }
}

/// What a lane rule needs to know about the far end of every port, computed once from the
/// fabric and looked up per hop (a subnet manager asks per (switch, in port, out port)).
#[derive(Clone, Debug)]
pub(crate) struct FarEnds<T> {
    /// First global port index of every node (as in the fabric).
    first_port: Vec<u32>,
    /// Per global port: `of(peer)` for a cabled switch-to-switch port, else `host`.
    far: Vec<T>,
}

impl<T: Copy> FarEnds<T> {
    /// `of(peer switch)` behind every cabled port other than port 0 that leads to a switch,
    /// `host` behind every other port.
    pub(crate) fn new(fabric: &Fabric, host: T, of: impl Fn(NodeId) -> T) -> FarEnds<T> {
        FarEnds {
            first_port: (0..fabric.len() as NodeId).map(|n| fabric.port_index(n, 0)).collect(),
            far: fabric
                .ports
                .iter()
                .map(|port| match fabric.peer(port.node, port.num) {
                    Some((n, _)) if port.num != 0 && fabric.node(n).kind == NodeKind::Switch => of(n),
                    _ => host,
                })
                .collect(),
        }
    }

    /// What is behind port `port` of `node`; none for port 0 and for a node or port the
    /// fabric does not have (a query from outside cannot index past a node's ports).
    pub(crate) fn get(&self, node: NodeId, port: u8) -> Option<T> {
        let first = *self.first_port.get(node as usize)?;
        let next = self
            .first_port
            .get(node as usize + 1)
            .copied()
            .unwrap_or(self.far.len() as u32);
        let i = first + port as u32;
        (port != 0 && i < next)
            .then(|| self.far.get(i as usize).copied())
            .flatten()
    }
}
