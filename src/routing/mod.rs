//! Deterministic forwarding tables (LFTs) for every family.
//!
//! [`route`] fills the LFT of every switch for every LID — host LIDs with the family's
//! routing ([`hosts`]) and switch LIDs with up*/down* over the family's ranking
//! ([`updown`]) — so no LID is left unrouted anywhere (OpenSM's ftree leaves leaf-to-spine
//! LIDs unrouted on an LSFT; ibfat does not).

use crate::families::lsft::route_degraded as degraded;
use crate::families::tree::route_degraded as degraded_tree;
pub mod escape;
pub(crate) mod hosts;
pub mod lanes;
pub(crate) mod lft;
pub mod lids;
pub(crate) mod mgmt_fill;
pub mod pipeline;
pub mod small;
pub(crate) mod updown;

pub use lft::{LftSet, NO_ROUTE};
pub use lids::Lids;
pub use pipeline::{route_fabric, Ask, Method, Objective, Refusal, Routed, Shape};

use crate::error::{Error, Result};
use crate::topology::{Fabric, Layout, NodeKind, NO_PEER};
use rayon::prelude::*;

/// Compute the LFTs of every switch for the given LIDs (on one VL: a tree's relay
/// detours, which need a second, are left out, and what a turn serves with that VL's
/// CDG acyclic is routed again, as [`route_fabric`] does when one VL is offered).
pub fn route(fabric: &Fabric, layout: &Layout, lids: &Lids) -> Result<LftSet> {
    lids.require_complete(fabric)?;
    let family = hosts::routed(layout);
    let router = match family.host_router(fabric, lids)? {
        hosts::Entries::Rows(router) => router,
        hosts::Entries::Tables(lfts) => return Ok(lfts),
    };
    let mut lfts = LftSet::new(fabric, lids.max_lid());
    // rank of each host port (by global port index)
    let mut rank_of_port = vec![u32::MAX; fabric.ports.len()];
    for (r, ep) in layout.hosts().iter().chain(layout.others()).enumerate() {
        rank_of_port[fabric.port_index(ep.node, ep.port) as usize] = r as u32;
    }
    // what each LID is: a host (rank, offset), a switch, a host port outside the
    // family's rank order (on a switch of the fabric: row of that switch, its port), or
    // something else
    #[derive(Clone, Copy)]
    enum Dest {
        None,
        Host(u32, u16),
        Switch,
        Beside(usize, u8),
    }
    let row_of =
        |n: crate::topology::NodeId| Some(lfts.row_of[n as usize] as usize).filter(|&r| r != u32::MAX as usize);
    let mut dest = vec![Dest::None; lfts.stride];
    for (lid, &owner) in lids.owner.iter().enumerate() {
        if owner == NO_PEER || lid == 0 {
            continue;
        }
        let p = &fabric.ports[owner as usize];
        dest[lid] = match fabric.node(p.node).kind {
            NodeKind::Switch => Dest::Switch,
            _ => {
                let r = rank_of_port[owner as usize];
                let beside = fabric
                    .peer(p.node, p.num)
                    .filter(|&(sw, _)| layout.hosts_beside_allowed() && fabric.node(sw).kind == NodeKind::Switch)
                    .and_then(|(sw, port)| row_of(sw).map(|row| Dest::Beside(row, port)));
                if let (u32::MAX, Some(b)) = (r, beside) {
                    b
                } else if r == u32::MAX {
                    return Err(Error::input(
                        "topology",
                        format!(
                            "{} has a LID but is not a host of the {}",
                            lids::describe_port(fabric, owner),
                            layout.family_name()
                        ),
                        None,
                    ));
                } else {
                    Dest::Host(r, lid as u16 - lids.base[owner as usize])
                }
            }
        };
    }
    let stride = lfts.stride;
    let switches = lfts.switches.clone();
    let targets: Vec<(u32, u32, u16)> = dest
        .iter()
        .enumerate()
        .filter_map(|(lid, d)| match *d {
            Dest::Host(r, off) => Some((lid as u32, r, off)),
            _ => None,
        })
        .collect();
    lfts.ports
        .par_chunks_mut(stride)
        .zip(switches.par_iter())
        .for_each(|(row, &sw)| router.fill_row(sw, &targets, row));
    let rank: Vec<u32> = switches.iter().map(|&s| router.rank(s)).collect();
    let graph = updown::SwitchGraph::new(fabric, &lfts, &rank);
    let switch_lid: Vec<u16> = switches
        .iter()
        .map(|&s| lids.base[fabric.port_index(s, 0) as usize])
        .collect();
    updown::fill(&graph, &mut lfts, &switch_lid);
    family.route_switch_lids(fabric, lids, &mut lfts);
    // hosts outside the rank order (a management host on a spine): the way to their
    // switch, then their port
    for (lid, d) in dest.iter().enumerate() {
        if let Dest::Beside(row, port) = *d {
            let to = switch_lid[row] as usize;
            for r in 0..switches.len() {
                lfts.ports[r * stride + lid] = if r == row { port } else { lfts.ports[r * stride + to] };
            }
        }
    }
    Ok(lfts)
}
