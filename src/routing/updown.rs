//! Routes to switch LIDs by up*/down* over a family-given ranking of the switches.
//!
//! Host routes of every family go up then down with respect to its ranks (LSFT: the root
//! spine L, the points of L on side A, the other spines, the other leaves; trees: top to
//! bottom). Routing the switch LIDs with the same up*/down* rule keeps the channel
//! dependency graph of all those routes acyclic, hence deadlock-free. A switch from which
//! no legal path exists (in a tree, a middle switch reaching another plane's middle switch
//! of the same pod: planes meet only at the bottom) first steps to the neighbour with the
//! shortest legal route, or along a shortest path towards one: such routes start at
//! switches, which originate only management traffic (VL15), never data.
//!
//! Destination-based consistency: a switch on a down-only path to the destination always
//! uses a down-only route (even when an up-down one is as short), so a packet that has
//! started down never has to climb again.
//!
//! The tables depend on the cabling alone, not on the order the dump listed the nodes in
//! (ibnetdiscover started from another host lists them in another order): switches of one
//! rank are ordered by GUID, and the spread of destinations over equal candidates uses
//! the destination's GUID order, never a node or row index. Candidates themselves come in
//! port-number order.

use super::lft::LftSet;
use crate::topology::{Fabric, NodeKind};
use rayon::prelude::*;

const INF: u32 = u32::MAX;

/// Switch-to-switch graph in compressed rows.
pub struct SwitchGraph {
    start: Vec<u32>,
    /// (neighbour row, local port)
    adj: Vec<(u32, u8)>,
    /// Position of each row in root-first order: smaller is closer to the root.
    pos: Vec<u32>,
    /// Rows in root-first order.
    order: Vec<u32>,
    /// Position of each row among the switches sorted by GUID: the order-free index that
    /// spreads destinations over equal candidates.
    canon: Vec<u32>,
}

/// Per-thread buffers of [`SwitchGraph::column`].
#[derive(Default)]
pub struct Scratch {
    dl: Vec<u32>,
    legal: Vec<u32>,
    queue: Vec<u32>,
    cands: Vec<u8>,
}

impl SwitchGraph {
    /// Build from the fabric; `rank[row]` ranks the switches (0 = root level).
    pub fn new(fabric: &Fabric, lfts: &LftSet, rank: &[u32]) -> SwitchGraph {
        let mut start = Vec::with_capacity(lfts.switches.len() + 1);
        let mut adj = Vec::new();
        for &sw in &lfts.switches {
            start.push(adj.len() as u32);
            for p in 1..=fabric.node(sw).nports {
                if let Some((peer, _)) = fabric.peer(sw, p) {
                    if fabric.node(peer).kind == NodeKind::Switch {
                        adj.push((lfts.row_of[peer as usize], p));
                    }
                }
            }
        }
        start.push(adj.len() as u32);
        // GUID order, then root-first order: by rank, ties by GUID (rows follow the input
        // order, which must not matter)
        let guid = |r: u32| fabric.node(lfts.switches[r as usize]).guid;
        let mut by_guid: Vec<u32> = (0..rank.len() as u32).collect();
        by_guid.sort_unstable_by_key(|&r| guid(r));
        let mut canon = vec![0u32; rank.len()];
        for (i, &r) in by_guid.iter().enumerate() {
            canon[r as usize] = i as u32;
        }
        let mut order = by_guid;
        order.sort_by_key(|&r| rank[r as usize]); // stable: GUID order within a rank
        let mut pos = vec![0u32; rank.len()];
        for (i, &r) in order.iter().enumerate() {
            pos[r as usize] = i as u32;
        }
        SwitchGraph {
            start,
            adj,
            pos,
            order,
            canon,
        }
    }

    fn nbrs(&self, r: usize) -> &[(u32, u8)] {
        &self.adj[self.start[r] as usize..self.start[r + 1] as usize]
    }

    /// Breadth-first distances from the rows already in `queue` (at distance 0 in `dist`),
    /// following an edge v -> u only when `step(v, u)` allows it.
    fn bfs(&self, dist: &mut [u32], queue: &mut Vec<u32>, step: impl Fn(usize, usize) -> bool) {
        let mut head = 0;
        while head < queue.len() {
            let v = queue[head] as usize;
            head += 1;
            for &(u, _) in self.nbrs(v) {
                let u = u as usize;
                if dist[u] == INF && step(v, u) {
                    dist[u] = dist[v] + 1;
                    queue.push(u as u32);
                }
            }
        }
    }

    /// Moving from a to b goes up (towards the root).
    #[inline]
    fn up(&self, a: usize, b: usize) -> bool {
        self.pos[b] < self.pos[a]
    }

    /// Out port of every switch row towards switch row `x` (0 at x itself), into `col`.
    ///
    /// One pass in root-first order decides every switch with a legal route (its legal
    /// neighbours are final by then); the switches without one are then routed by a
    /// breadth-first search from the legal region outwards, so they step towards the
    /// nearest switch with a legal route (strictly decreasing distance: no loops).
    pub fn column(&self, x: usize, col: &mut [u8], sc: &mut Scratch) {
        let n = self.pos.len();
        // down-only distance to x (x and the switches above it)
        sc.dl.clear();
        sc.dl.resize(n, INF);
        sc.dl[x] = 0;
        sc.queue.clear();
        sc.queue.push(x as u32);
        self.bfs(&mut sc.dl, &mut sc.queue, |v, u| self.up(v, u));
        sc.legal.clear();
        sc.legal.extend_from_slice(&sc.dl);
        let cands = &mut sc.cands;
        let spread = self.canon[x] as usize;
        let mut orphans = 0usize;
        for &y in &self.order {
            let y = y as usize;
            if y == x {
                col[y] = 0;
                continue;
            }
            cands.clear();
            if sc.dl[y] != INF {
                // on a down-only path: keep going down
                for &(v, p) in self.nbrs(y) {
                    let dv = sc.dl[v as usize];
                    if self.up(v as usize, y) && dv != INF && dv + 1 == sc.dl[y] {
                        cands.push(p);
                    }
                }
            } else {
                let mut best = INF;
                for &(u, p) in self.nbrs(y) {
                    if self.up(y, u as usize) {
                        let lu = sc.legal[u as usize];
                        if lu < best {
                            best = lu;
                            cands.clear();
                        }
                        if lu == best && lu != INF {
                            cands.push(p);
                        }
                    }
                }
                if best == INF {
                    orphans += 1;
                    col[y] = super::lft::NO_ROUTE;
                    continue;
                }
                sc.legal[y] = best + 1;
            }
            // adjacency is in port order, so the choice is deterministic; spread by destination
            col[y] = cands
                .get(spread % cands.len().max(1))
                .copied()
                .unwrap_or(super::lft::NO_ROUTE);
        }
        if orphans == 0 {
            return;
        }
        // switches without a legal route: BFS outwards from the legal region
        let legal = &sc.legal;
        let fb = &mut sc.dl; // reuse: distance to the legal region
        fb.clear();
        fb.resize(n, INF);
        sc.queue.clear();
        for y in 0..n {
            if legal[y] != INF {
                fb[y] = 0;
                sc.queue.push(y as u32);
            }
        }
        self.bfs(fb, &mut sc.queue, |_, _| true);
        for y in 0..n {
            if legal[y] != INF || y == x || fb[y] == INF {
                continue;
            }
            cands.clear();
            if fb[y] == 1 {
                // next to the legal region: the neighbour with the shortest legal route
                let best = self
                    .nbrs(y)
                    .iter()
                    .map(|&(u, _)| legal[u as usize])
                    .min()
                    .unwrap_or(INF);
                cands.extend(
                    self.nbrs(y)
                        .iter()
                        .filter(|&&(u, _)| legal[u as usize] == best)
                        .map(|&(_, p)| p),
                );
            } else {
                cands.extend(
                    self.nbrs(y)
                        .iter()
                        .filter(|&&(u, _)| fb[u as usize] != INF && fb[u as usize] + 1 == fb[y])
                        .map(|&(_, p)| p),
                );
            }
            col[y] = cands
                .get(spread % cands.len().max(1))
                .copied()
                .unwrap_or(super::lft::NO_ROUTE);
        }
    }
}

/// Fill the entries of every switch LID (`switch_lid[row]`) in all rows.
pub fn fill(graph: &SwitchGraph, lfts: &mut LftSet, switch_lid: &[u16]) {
    let n = switch_lid.len();
    let mut cols = vec![0u8; n * n];
    cols.par_chunks_mut(n.max(1))
        .enumerate()
        .for_each_init(Scratch::default, |sc, (x, col)| graph.column(x, col, sc));
    let stride = lfts.stride;
    for (x, col) in cols.chunks(n.max(1)).enumerate() {
        let lid = switch_lid[x] as usize;
        for (y, &p) in col.iter().enumerate() {
            lfts.ports[y * stride + lid] = p;
        }
    }
}
