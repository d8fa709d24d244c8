//! What every LID of a (degraded) LSFT is, for its routers: a host in a slot of a leaf, or
//! a switch whose column is routed up*/down* (`switch_lids`). Shared by the family-first
//! router ([`super::route_lsft`]) and the spreading one ([`super::spread`]).

use crate::error::{Error, Result};
use crate::families::lsft::model_holes::LsftHoles;
use crate::routing::lft::LftSet;
use crate::routing::lids::{describe_port, Lids};
use crate::topology::degraded::DEAD;
use crate::topology::{Fabric, NodeKind, NO_PEER};

/// What a LID is, for routing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dest {
    None,
    /// A host on the leaf with leaf index i (side·n + point), behind leaf port `port`.
    Host(u32, u8),
    /// A leaf or spine switch: its column is routed up*/down* (`switch_lids`).
    Switch,
}

/// The LIDs of a fabric seen through its LSFT structure.
pub(super) struct Columns {
    /// Leaf index of every leaf node, `u32::MAX` for other nodes.
    pub point_of: Vec<u32>,
    /// Line of every spine node, `u32::MAX` for other nodes.
    pub line_of: Vec<u32>,
    /// What each LID is (index: LID).
    pub dest: Vec<Dest>,
    /// The slot of the host behind each host LID on its leaf (hosts in leaf-port order).
    pub host_slot: Vec<u32>,
    /// Hosts per leaf index.
    pub count: Vec<u32>,
}

impl Columns {
    /// Classify every LID of `lids` (rows of `stride` LIDs); a LID on a switch that is
    /// neither leaf nor spine, or on a host off the leaves, is an error.
    pub(super) fn new(fabric: &Fabric, h: &LsftHoles, lids: &Lids, stride: usize) -> Result<Columns> {
        let mut point_of = vec![u32::MAX; fabric.len()];
        let mut line_of = vec![u32::MAX; fabric.len()];
        for (p, &a) in h.leaves.iter().enumerate() {
            if a != DEAD {
                point_of[a as usize] = p as u32;
            }
        }
        for (l, &b) in h.spines.iter().enumerate() {
            if b != DEAD {
                line_of[b as usize] = l as u32;
            }
        }
        let mut host_at = vec![(u32::MAX, 0u8); fabric.len()];
        let mut slot = vec![0u32; fabric.len()];
        let mut count = vec![0u32; h.leaf_count() as usize];
        for &(p, port, ep) in &h.hosts {
            host_at[ep.node as usize] = (p, port);
            slot[ep.node as usize] = count[p as usize];
            count[p as usize] += 1;
        }
        let mut dest = vec![Dest::None; stride];
        let mut host_slot = vec![0u32; stride];
        for (lid, &owner) in lids.owner.iter().enumerate() {
            if owner == NO_PEER || lid == 0 {
                continue;
            }
            let node = fabric.ports[owner as usize].node;
            host_slot[lid] = slot[node as usize];
            dest[lid] = match fabric.node(node).kind {
                NodeKind::Switch if point_of[node as usize] != u32::MAX || line_of[node as usize] != u32::MAX => {
                    Dest::Switch
                }
                NodeKind::Switch => {
                    return Err(Error::input(
                        "topology",
                        format!(
                            "switch {} is neither a leaf nor a spine of the LSFT",
                            fabric.node(node).name
                        ),
                        None,
                    ))
                }
                _ => match host_at[node as usize] {
                    (p, port) if p != u32::MAX => Dest::Host(p, port),
                    _ => {
                        return Err(Error::input(
                            "topology",
                            format!("{} is not on a leaf of the LSFT", describe_port(fabric, owner)),
                            None,
                        ))
                    }
                },
            };
        }
        Ok(Columns {
            point_of,
            line_of,
            dest,
            host_slot,
            count,
        })
    }
}

/// The SL table's row of every leaf (`sl[i * stride ..]` for leaf index i), placed at its
/// switch's row of `lfts` (empty for spines and dead leaves), so the rows of the tables and
/// of the SLs can be filled together, one switch per task.
pub(super) fn sl_rows<'s>(sl: &'s mut [u8], lfts: &LftSet, h: &LsftHoles) -> Vec<&'s mut [u8]> {
    let mut rows: Vec<&mut [u8]> = (0..lfts.switches.len()).map(|_| -> &mut [u8] { &mut [] }).collect();
    for (p, chunk) in sl.chunks_mut(lfts.stride).enumerate() {
        if h.leaves[p] != DEAD {
            rows[lfts.row_of[h.leaves[p] as usize] as usize] = chunk;
        }
    }
    rows
}
