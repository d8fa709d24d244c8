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

use super::lft::LftSet;
use crate::topology::{Fabric, NodeKind};
use rayon::prelude::*;

const INF: u32 = u32::MAX;

/// Switch-to-switch graph in compressed rows.
pub struct SwitchGraph {
    start: Vec<u32>,
    /// (neighbour row, local port)
    adj: Vec<(u32, u8)>,
    /// (rank, row): smaller is closer to the root.
    key: Vec<(u32, u32)>,
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
        let key = rank.iter().enumerate().map(|(r, &k)| (k, r as u32)).collect();
        SwitchGraph { start, adj, key }
    }

    fn nbrs(&self, r: usize) -> &[(u32, u8)] {
        &self.adj[self.start[r] as usize..self.start[r + 1] as usize]
    }

    /// Moving from a to b goes up (towards the root).
    #[inline]
    fn up(&self, a: usize, b: usize) -> bool {
        self.key[b] < self.key[a]
    }

    /// Out port of every switch row towards switch row `x` (0 at x itself).
    pub fn column(&self, x: usize) -> Vec<u8> {
        let n = self.key.len();
        // down-only distance to x (x and the switches above it)
        let mut dl = vec![INF; n];
        dl[x] = 0;
        let mut queue = vec![x as u32];
        let mut head = 0;
        while head < queue.len() {
            let v = queue[head] as usize;
            head += 1;
            for &(u, _) in self.nbrs(v) {
                let u = u as usize;
                if self.up(v, u) && dl[u] == INF {
                    dl[u] = dl[v] + 1;
                    queue.push(u as u32);
                }
            }
        }
        // legal (up* down*) distance, rows in root-first order
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_unstable_by_key(|&r| self.key[r as usize]);
        let mut legal = dl.clone();
        for &y in &order {
            let y = y as usize;
            if dl[y] != INF {
                continue;
            }
            let best = self
                .nbrs(y)
                .iter()
                .filter(|&&(u, _)| self.up(y, u as usize))
                .map(|&(u, _)| legal[u as usize])
                .min();
            if let Some(b) = best.filter(|&b| b != INF) {
                legal[y] = b + 1;
            }
        }
        let needs_fallback = legal.contains(&INF);
        let plain = if needs_fallback { self.bfs(x) } else { Vec::new() };
        let mut col = vec![super::lft::NO_ROUTE; n];
        let mut cands: Vec<u8> = Vec::with_capacity(64);
        for y in 0..n {
            if y == x {
                col[y] = 0;
                continue;
            }
            cands.clear();
            if dl[y] != INF {
                for &(v, p) in self.nbrs(y) {
                    if self.up(v as usize, y) && dl[v as usize] != INF && dl[v as usize] + 1 == dl[y] {
                        cands.push(p);
                    }
                }
            } else if legal[y] != INF {
                for &(u, p) in self.nbrs(y) {
                    if self.up(y, u as usize) && legal[u as usize] != INF && legal[u as usize] + 1 == legal[y] {
                        cands.push(p);
                    }
                }
            } else {
                // no legal path: step to the neighbour with the shortest legal route, else
                // along a shortest path towards the destination
                let best = self
                    .nbrs(y)
                    .iter()
                    .map(|&(u, _)| legal[u as usize])
                    .min()
                    .unwrap_or(INF);
                if best != INF {
                    cands.extend(
                        self.nbrs(y)
                            .iter()
                            .filter(|&&(u, _)| legal[u as usize] == best)
                            .map(|&(_, p)| p),
                    );
                } else if plain[y] != INF {
                    cands.extend(
                        self.nbrs(y)
                            .iter()
                            .filter(|&&(u, _)| plain[u as usize] != INF && plain[u as usize] + 1 == plain[y])
                            .map(|&(_, p)| p),
                    );
                }
            }
            if !cands.is_empty() {
                cands.sort_unstable();
                cands.dedup();
                // spread destinations over equal choices, deterministically
                col[y] = cands[x % cands.len()];
            }
        }
        col
    }

    fn bfs(&self, x: usize) -> Vec<u32> {
        let mut d = vec![INF; self.key.len()];
        d[x] = 0;
        let mut queue = vec![x as u32];
        let mut head = 0;
        while head < queue.len() {
            let v = queue[head] as usize;
            head += 1;
            for &(u, _) in self.nbrs(v) {
                if d[u as usize] == INF {
                    d[u as usize] = d[v] + 1;
                    queue.push(u);
                }
            }
        }
        d
    }
}

/// Fill the entries of every switch LID (`switch_lid[row]`) in all rows.
pub fn fill(graph: &SwitchGraph, lfts: &mut LftSet, switch_lid: &[u16]) {
    let cols: Vec<Vec<u8>> = (0..switch_lid.len()).into_par_iter().map(|x| graph.column(x)).collect();
    let stride = lfts.stride;
    for (x, col) in cols.iter().enumerate() {
        let lid = switch_lid[x] as usize;
        for (y, &p) in col.iter().enumerate() {
            lfts.ports[y * stride + lid] = p;
        }
    }
}
