//! Multipath throughput on a routed full mesh: every flow is split over the DLID offsets
//! of its path plan ([`crate::families::fullmesh::route_plan`]) by their share of the ten slots, every
//! share is walked on the real tables, and the pattern's throughput is what the busiest
//! channel allows.
//!
//! Model: every flow wants the same rate r; a channel (a switch or host port sending on
//! its cable) carries the sum of the shares that cross it and has capacity 1 (one cable's
//! rate). The largest r every channel allows is 1 / (largest load), so the pattern's
//! throughput is flows / (largest load), in cables' worth of bandwidth. Host links count
//! too (a host sends and receives on one cable).
//!
//! The seed's patterns between switches (its nodes; the hosts of a switch are its
//! processes), for a mesh of N switches with H hosts each:
//! * `point-to-point`: host x of switch 0 → host x of switch 1, every x;
//! * `one-to-n`: host x of switch 0 → host ⌊x / (N−1)⌋ of switch 1 + (x mod (N−1));
//! * `n-to-one`: host 0 of switch j → host (j − 1) mod H of switch 0, every j ≠ 0;
//! * `n-to-n`: host x of switch i → host x of switch (i + 1 + x mod (N−1)) mod N, every
//!   i and x (every switch sends to every other switch when H ≥ N−1).

use crate::error::{Error, Result};
use crate::families::fullmesh::route_plan::{PathPlan, SLOTS};
use crate::routing::{LftSet, Lids, NO_ROUTE};
use crate::topology::{Fabric, FullmeshLayout, NodeKind};
use std::fmt;
use std::str::FromStr;

/// One of the seed's traffic patterns (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshPattern {
    /// Every host of one switch to the hosts of one other switch.
    PointToPoint,
    /// The hosts of one switch to every other switch.
    OneToN,
    /// One host of every other switch to one switch.
    NToOne,
    /// Every switch to every other switch.
    NToN,
}

impl MeshPattern {
    /// All four, in the order reports list them.
    pub const ALL: [MeshPattern; 4] = [
        MeshPattern::PointToPoint,
        MeshPattern::OneToN,
        MeshPattern::NToOne,
        MeshPattern::NToN,
    ];

    /// The flows of the pattern as (source rank, destination rank); host positions that
    /// are not populated are skipped.
    pub fn flows(self, l: &FullmeshLayout) -> Vec<(u32, u32)> {
        let (n, h) = (l.n, l.h);
        let mut rank_at = vec![u32::MAX; (n * h) as usize];
        for (r, &d) in l.host_pos.iter().enumerate() {
            rank_at[d as usize] = r as u32;
        }
        let at = |sw: u32, x: u32| rank_at[(sw * h + x) as usize];
        let pairs: Vec<(u32, u32)> = match self {
            MeshPattern::PointToPoint => (0..h).map(|x| (at(0, x), at(1, x))).collect(),
            MeshPattern::OneToN => (0..h)
                .filter(|&x| x / (n - 1) < h)
                .map(|x| (at(0, x), at(1 + x % (n - 1), x / (n - 1))))
                .collect(),
            MeshPattern::NToOne => (1..n).map(|j| (at(j, 0), at(0, (j - 1) % h))).collect(),
            MeshPattern::NToN => (0..n)
                .flat_map(|i| (0..h).map(move |x| (i, x)))
                .map(|(i, x)| (at(i, x), at((i + 1 + x % (n - 1)) % n, x)))
                .collect(),
        };
        pairs
            .into_iter()
            .filter(|&(a, b)| a != u32::MAX && b != u32::MAX)
            .collect()
    }
}

impl fmt::Display for MeshPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MeshPattern::PointToPoint => "point-to-point",
            MeshPattern::OneToN => "one-to-n",
            MeshPattern::NToOne => "n-to-one",
            MeshPattern::NToN => "n-to-n",
        })
    }
}

impl FromStr for MeshPattern {
    type Err = Error;
    fn from_str(s: &str) -> Result<MeshPattern> {
        MeshPattern::ALL
            .into_iter()
            .find(|p| p.to_string() == s)
            .ok_or_else(|| {
                Error::input(
                    "pattern",
                    format!("`{s}` is not a multipath pattern"),
                    Some("point-to-point, one-to-n, n-to-one, n-to-n (or all)".into()),
                )
            })
    }
}

/// What one pattern achieves at one direct share.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MultipathResult {
    /// Flows of the pattern.
    pub flows: usize,
    /// Load of the busiest channel (flows' shares crossing it).
    pub max_load: f64,
    /// flows / max_load: the aggregate rate, in cables' worth of bandwidth.
    pub throughput: f64,
}

/// Split every flow over its plan's offsets and walk the shares on `lfts` (see the module
/// documentation). A share that does not arrive is an input error naming the pair (the
/// tables are not the mesh's routes at the plan's LMC).
pub fn throughput(
    fabric: &Fabric,
    lids: &Lids,
    lfts: &LftSet,
    l: &FullmeshLayout,
    plan: &PathPlan,
    flows: &[(u32, u32)],
) -> Result<MultipathResult> {
    let mut load = vec![0f64; fabric.ports.len()];
    let max_hops = lfts.switches.len() + 1;
    for &(s, t) in flows {
        let offs = plan
            .offsets(s, t)
            .ok_or_else(|| Error::input("flows", format!("rank pair ({s}, {t}) is outside the plan"), None))?;
        let (src, dst) = (l.hosts[s as usize], l.hosts[t as usize]);
        let base = lids.lid(fabric, dst.node, dst.port);
        let mut counts = [0u32; 128];
        for &o in &offs {
            counts[o as usize] += 1;
        }
        load[fabric.port_index(src.node, src.port) as usize] += 1.0;
        let Some((first, _)) = fabric.peer(src.node, src.port) else {
            return Err(Error::input("flows", format!("rank {s} is not cabled"), None));
        };
        for (o, &c) in counts.iter().enumerate().filter(|(_, &c)| c > 0) {
            let share = c as f64 / SLOTS as f64;
            let lid = base + o as u16;
            let mut at = first;
            let mut hops = 0;
            loop {
                let port = lfts.get(at, lid).unwrap_or(NO_ROUTE);
                let next = (port != NO_ROUTE && port != 0)
                    .then(|| fabric.peer(at, port))
                    .flatten()
                    .filter(|_| hops <= max_hops);
                let Some((next, _)) = next else {
                    return Err(Error::input(
                        "lfts",
                        format!("ranks {s} -> {t}, LID 0x{lid:04x}: the route does not arrive"),
                        Some("route the mesh with the plan's --lmc".into()),
                    ));
                };
                load[fabric.port_index(at, port) as usize] += share;
                hops += 1;
                if fabric.node(next).kind != NodeKind::Switch {
                    break;
                }
                at = next;
            }
        }
    }
    let max_load = load.iter().copied().fold(0.0, f64::max);
    Ok(MultipathResult {
        flows: flows.len(),
        max_load,
        throughput: if max_load > 0.0 {
            flows.len() as f64 / max_load
        } else {
            0.0
        },
    })
}
