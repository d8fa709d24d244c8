//! Deadlock freedom with virtual lanes: the channel dependency graph per VL.
//!
//! With one VL a route set is deadlock-free when its channel dependency graph (CDG) is
//! acyclic ([`super::lfts`]). Routes that need a cycle-breaking VL change (detours in a
//! degraded fabric) are proven per VL instead: every path is walked with its SL, each hop
//! gets the VL the switch's SL-to-VL table gives for (SL, input port, output port), a
//! dependency is recorded between consecutive channels on the same VL, and every VL's graph
//! must be acyclic — with VLs never decreasing along a path, so that no dependency runs
//! from a higher VL back to a lower one.

use crate::routing::lanes::LaneRules;
use crate::routing::{LftSet, Lids, NO_ROUTE};
use crate::topology::{Fabric, NodeId, NodeKind, NO_PEER};

/// What walking every host-sourced path with its VLs found.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct VlReport {
    /// Paths walked: (leaf with hosts, destination LID).
    pub paths: u64,
    /// Paths on an SL other than 0.
    pub sl_paths: u64,
    /// Paths whose first hop has no route (counted, not walked).
    pub unrouted: u64,
    /// Paths that did not arrive (loop, black hole, wrong host).
    pub broken: u64,
    /// Paths on which the VL goes down at some hop.
    pub vl_decreases: u64,
    /// Highest VL used, plus one.
    pub vls: u8,
    /// Per VL: channels and dependencies of its CDG, and whether it is acyclic.
    pub per_vl: Vec<VlCdg>,
}

/// The CDG of one VL.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct VlCdg {
    /// Channels (directed links) carrying a dependency on this VL.
    pub channels: usize,
    /// Dependencies between them.
    pub dependencies: usize,
    /// True when the graph has no cycle.
    pub acyclic: bool,
}

/// [`check_vls`] with the SLs and VLs of a routed family's [`LaneRules`].
pub fn check_lanes(fabric: &Fabric, lids: &Lids, lfts: &LftSet, rules: &dyn LaneRules) -> VlReport {
    check_vls(
        fabric,
        lids,
        lfts,
        |s, l| rules.sl(s, l),
        |w, sl, i, o| rules.vl(w, sl, i, o),
    )
}

impl VlReport {
    /// Every path arrives, VLs never decrease, every VL's CDG is acyclic.
    pub fn ok(&self) -> bool {
        self.broken == 0 && self.vl_decreases == 0 && self.per_vl.iter().all(|v| v.acyclic)
    }

    /// One line per VL for reports: `VL 0: 38 channels, 52 dependencies, acyclic`.
    pub fn per_vl_lines(&self) -> Vec<String> {
        self.per_vl
            .iter()
            .enumerate()
            .map(|(i, c)| {
                format!(
                    "VL {i}: {} channels, {} dependencies, {}",
                    c.channels,
                    c.dependencies,
                    if c.acyclic { "acyclic" } else { "CYCLE" }
                )
            })
            .collect()
    }
}

/// Walk, from every switch with hosts, every destination LID: `sl(leaf, lid)` is the SL
/// its hosts use, `vl(switch, sl, in_port, out_port)` the VL of the hop (`in_port` 0 for
/// the first hop, from the host).
pub fn check_vls(
    fabric: &Fabric,
    lids: &Lids,
    lfts: &LftSet,
    sl: impl Fn(NodeId, usize) -> u8,
    vl: impl Fn(NodeId, u8, u8, u8) -> u8,
) -> VlReport {
    let mut r = VlReport::default();
    let mut edges: Vec<Vec<(u32, u32)>> = Vec::new();
    let sources: Vec<NodeId> = fabric.switches_with_hosts().collect();
    let max_hops = lfts.switches.len() + 1;
    for &src in &sources {
        for (lid, &owner) in lids.owner.iter().enumerate() {
            if owner == NO_PEER || lid == 0 {
                continue;
            }
            let target = fabric.ports[owner as usize].node;
            if target == src {
                continue;
            }
            let first = lfts.ports[lfts.row_of[src as usize] as usize * lfts.stride + lid];
            if first == NO_ROUTE || first == 0 {
                r.unrouted += 1;
                continue;
            }
            let s = sl(src, lid);
            r.paths += 1;
            r.sl_paths += (s != 0) as u64;
            let (mut at, mut in_port, mut prev): (NodeId, u8, Option<(u32, u8)>) = (src, 0, None);
            let mut hops = 0;
            let arrived = loop {
                if at == target {
                    break true;
                }
                let row = lfts.row_of[at as usize];
                let port = lfts.ports[row as usize * lfts.stride + lid];
                if port == NO_ROUTE || port == 0 {
                    break false;
                }
                let Some((next, next_in)) = fabric.peer(at, port) else {
                    break false;
                };
                let v = vl(at, s, in_port, port);
                let ch = fabric.port_index(at, port);
                if let Some((pc, pv)) = prev {
                    if v < pv {
                        r.vl_decreases += 1;
                    } else if v == pv {
                        if edges.len() <= v as usize {
                            edges.resize(v as usize + 1, Vec::new());
                        }
                        edges[v as usize].push((pc, ch));
                    }
                }
                r.vls = r.vls.max(v + 1);
                prev = Some((ch, v));
                hops += 1;
                if fabric.node(next).kind != NodeKind::Switch {
                    break next == target;
                }
                if hops > max_hops {
                    break false;
                }
                at = next;
                in_port = next_in;
            };
            r.broken += (!arrived) as u64;
        }
    }
    edges.resize(r.vls as usize, Vec::new());
    r.per_vl = edges.into_iter().map(acyclic).collect();
    r
}

/// Kahn's algorithm over the channels that occur in `e`.
fn acyclic(mut e: Vec<(u32, u32)>) -> VlCdg {
    e.sort_unstable();
    e.dedup();
    let mut ids: Vec<u32> = e.iter().flat_map(|&(a, b)| [a, b]).collect();
    ids.sort_unstable();
    ids.dedup();
    let id = |c: u32| ids.binary_search(&c).expect("a channel of the graph");
    let mut indeg = vec![0usize; ids.len()];
    let mut start = vec![0usize; ids.len() + 1];
    for &(a, b) in &e {
        indeg[id(b)] += 1;
        start[id(a) + 1] += 1;
    }
    for i in 0..ids.len() {
        start[i + 1] += start[i];
    }
    let out: Vec<usize> = e.iter().map(|&(_, b)| id(b)).collect(); // sorted by a: CSR order
    let mut stack: Vec<usize> = (0..ids.len()).filter(|&i| indeg[i] == 0).collect();
    let mut seen = 0;
    while let Some(a) = stack.pop() {
        seen += 1;
        for &b in &out[start[a]..start[a + 1]] {
            indeg[b] -= 1;
            if indeg[b] == 0 {
                stack.push(b);
            }
        }
    }
    VlCdg {
        channels: ids.len(),
        dependencies: e.len(),
        acyclic: seen == ids.len(),
    }
}
