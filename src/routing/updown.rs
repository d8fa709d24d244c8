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

mod classes;

use super::lft::{LftSet, NO_ROUTE};
use crate::topology::{Fabric, NodeKind};
use classes::{ClassCache, Classes};
use rayon::prelude::*;

const INF: u32 = u32::MAX;

/// Switch-to-switch graph in compressed rows.
pub(crate) struct SwitchGraph {
    start: Vec<u32>,
    /// (neighbour row, local port)
    adj: Vec<(u32, u8)>,
    /// The neighbours closer to the root, in port order (compressed rows like `adj`, by
    /// position in `order`): what a route going up chooses from, split off once so that
    /// the columns do not compare positions per cable.
    up_start: Vec<u32>,
    up_adj: Vec<(u32, u8)>,
    /// The port at the far (upper) end of each `up_adj` cable: the cable a route to the
    /// lower switch leaves the upper one by.
    up_far: Vec<u8>,
    /// Position of each row in root-first order: smaller is closer to the root.
    pos: Vec<u32>,
    /// Rows in root-first order.
    order: Vec<u32>,
    /// Position of each row among the switches sorted by GUID: the order-free index that
    /// spreads destinations over equal candidates.
    canon: Vec<u32>,
    /// The neighbours farther from the root, in port order (by position likewise).
    down_start: Vec<u32>,
    down_adj: Vec<(u32, u8)>,
    /// Positions grouped by their upward, and by their downward, neighbours
    /// ([`classes`]): a column decides a class's members alike.
    up_classes: Classes,
    down_classes: Classes,
}

/// Per-thread buffers of [`SwitchGraph::column`].
#[derive(Default)]
pub(crate) struct Scratch {
    /// Per up and per down class: the shortest distance among its neighbours and
    /// whether all have it, for the current stamp (a column, or a ring of its fallback).
    up_cache: ClassCache,
    down_cache: ClassCache,
    stamp: u32,
    dl: Vec<u32>,
    legal: Vec<u32>,
    queue: Vec<u32>,
    cands: Vec<u8>,
    orphans: Vec<u32>,
    /// (switch above x, its port one down-only step closer to x), sorted.
    down_cands: Vec<(u32, u8)>,
    /// Per switch above x: where its cables start in `down_cands`, and how many.
    down_at: Vec<(u32, u32)>,
}

impl SwitchGraph {
    /// Build from the fabric; `rank[row]` ranks the switches (0 = root level).
    pub(crate) fn new(fabric: &Fabric, lfts: &LftSet, rank: &[u32]) -> SwitchGraph {
        let mut start = Vec::with_capacity(lfts.switches.len() + 1);
        // every switch port at most once: sized up front instead of grown push by push
        let ports: usize = lfts
            .switches
            .iter()
            .map(|&sw| usize::from(fabric.node(sw).nports))
            .sum();
        let (mut adj, mut far) = (Vec::with_capacity(ports), Vec::with_capacity(ports));
        for &sw in &lfts.switches {
            start.push(adj.len() as u32);
            for p in 1..=fabric.node(sw).nports {
                if let Some((peer, pp)) = fabric.peer(sw, p) {
                    if fabric.node(peer).kind == NodeKind::Switch {
                        adj.push((lfts.row_of[peer as usize], p));
                        far.push(pp);
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
        // stored in root-first order (indexed by position): [`SwitchGraph::column`]'s pass
        // then reads them front to back
        let split = |keep: &dyn Fn(u32, u32) -> bool| {
            let (mut st, mut out, mut out_far) = (
                Vec::with_capacity(rank.len() + 1),
                Vec::with_capacity(adj.len()),
                Vec::with_capacity(adj.len()),
            );
            for &r in &order {
                let r = r as usize;
                st.push(out.len() as u32);
                for k in start[r] as usize..start[r + 1] as usize {
                    if keep(pos[r], pos[adj[k].0 as usize]) {
                        out.push(adj[k]);
                        out_far.push(far[k]);
                    }
                }
            }
            st.push(out.len() as u32);
            (st, out, out_far)
        };
        let (up_start, up_adj, up_far) = split(&|me, them| them < me);
        let (down_start, down_adj, _) = split(&|me, them| them > me);
        let up_classes = Classes::new(&up_start, &up_adj);
        let down_classes = Classes::new(&down_start, &down_adj);
        SwitchGraph {
            start,
            adj,
            up_start,
            up_adj,
            up_far,
            pos,
            order,
            canon,
            down_start,
            down_adj,
            up_classes,
            down_classes,
        }
    }
}

impl SwitchGraph {
    fn nbrs(&self, r: usize) -> &[(u32, u8)] {
        &self.adj[self.start[r] as usize..self.start[r + 1] as usize]
    }

    /// The neighbours closer to the root of the row at position i of `order` (a step to
    /// them goes up).
    #[inline]
    fn ups_at(&self, i: usize) -> &[(u32, u8)] {
        &self.up_adj[self.up_start[i] as usize..self.up_start[i + 1] as usize]
    }

    /// The neighbours farther from the root of the row at position i of `order`.
    #[inline]
    fn downs_at(&self, i: usize) -> &[(u32, u8)] {
        &self.down_adj[self.down_start[i] as usize..self.down_start[i + 1] as usize]
    }

    /// The cables of the row at position i towards the neighbours with the least of
    /// `vals`, when the classes tell without reading the cables: every up cable (all up
    /// neighbours have the least, no down neighbour has it) or every down cable; `None`
    /// when the cables must be read. Also returns that least value.
    fn by_class(
        &self,
        i: usize,
        stamp: u32,
        vals: &[u32],
        sc_up: &mut ClassCache,
        sc_down: &mut ClassCache,
    ) -> (u32, Option<&[(u32, u8)]>) {
        let (bu, uu) = sc_up.get(&self.up_classes, i, stamp, vals);
        let (bd, ud) = sc_down.get(&self.down_classes, i, stamp, vals);
        let best = bu.min(bd);
        let half = match (bu.cmp(&bd), uu, ud) {
            _ if best == INF => None,
            (std::cmp::Ordering::Less, true, _) => Some(self.ups_at(i)),
            (std::cmp::Ordering::Greater, _, true) => Some(self.downs_at(i)),
            _ => None,
        };
        (best, half)
    }

    /// Down-only distances to `x` (`sc.dl`: x and the switches above it), and for each
    /// switch above x its cables one step closer, in port order (`sc.down_cands`,
    /// `sc.down_at`): found while climbing from x, so a column reads the cables of x's
    /// ancestors only, not every down cable of every switch.
    fn down_only(&self, x: usize, sc: &mut Scratch) {
        let n = self.pos.len();
        debug_assert!(x < n);
        sc.dl.clear();
        sc.dl.resize(n, INF);
        sc.down_at.resize(n, (0, 0));
        sc.dl[x] = 0;
        sc.queue.clear();
        sc.queue.push(x as u32);
        sc.down_cands.clear();
        let mut head = 0;
        while head < sc.queue.len() {
            let v = sc.queue[head] as usize;
            head += 1;
            let next = sc.dl[v] + 1;
            let i = self.pos[v] as usize;
            let (lo, hi) = (self.up_start[i] as usize, self.up_start[i + 1] as usize);
            for (&(u, _), &pu) in self.up_adj[lo..hi].iter().zip(&self.up_far[lo..hi]) {
                let du = &mut sc.dl[u as usize];
                if *du == INF {
                    *du = next;
                    sc.queue.push(u);
                }
                if *du == next {
                    sc.down_cands.push((u, pu));
                }
            }
        }
        sc.down_cands.sort_unstable();
        let mut k = 0;
        while k < sc.down_cands.len() {
            let u = sc.down_cands[k].0;
            let end = k + sc.down_cands[k..].iter().take_while(|c| c.0 == u).count();
            sc.down_at[u as usize] = (k as u32, (end - k) as u32);
            k = end;
        }
        // every switch above x was reached by a cable one step closer, so each has an entry
    }

    /// Out port of every switch row towards switch row `x` (0 at x itself), into `col`.
    ///
    /// One pass in root-first order decides every switch with a legal route (its legal
    /// neighbours are final by then); the switches without one are then routed by a
    /// breadth-first search from the legal region outwards, so they step towards the
    /// nearest switch with a legal route (strictly decreasing distance: no loops).
    pub(crate) fn column(&self, x: usize, col: &mut [u8], sc: &mut Scratch) {
        // down-only distance to x (x and the switches above it): climb from x
        self.down_only(x, sc);
        sc.legal.clear();
        sc.legal.extend_from_slice(&sc.dl);
        let cands = &mut sc.cands;
        let spread = self.canon[x] as usize;
        sc.orphans.clear();
        sc.stamp = sc.stamp.wrapping_add(1).max(1);
        let stamp = sc.stamp;
        for (i, &y) in self.order.iter().enumerate() {
            let y = y as usize;
            if y == x {
                col[y] = 0;
                continue;
            }
            cands.clear();
            let dy = sc.dl[y];
            if dy != INF {
                // on a down-only path: keep going down, by the cables found climbing from x
                let (at, len) = sc.down_at[y];
                col[y] = match len {
                    0 => NO_ROUTE,
                    len => sc.down_cands[at as usize + spread % len as usize].1,
                };
                continue;
            } else {
                let (b, uniform) = sc.up_cache.get(&self.up_classes, i, stamp, &sc.legal);
                if uniform {
                    // every up cable is a candidate, in port order
                    let ups = self.ups_at(i);
                    if b == INF || ups.is_empty() {
                        sc.orphans.push(y as u32);
                        col[y] = NO_ROUTE;
                    } else {
                        sc.legal[y] = b + 1;
                        col[y] = ups[spread % ups.len()].1;
                    }
                    continue;
                }
                // the up cables to the neighbours with the shortest legal route
                let best = sc.up_cache.least_cables(&self.up_classes, i, stamp, &sc.legal, cands);
                if best == INF {
                    sc.orphans.push(y as u32);
                    col[y] = NO_ROUTE;
                    continue;
                }
                sc.legal[y] = best + 1;
            }
            // adjacency is in port order, so the choice is deterministic; spread by destination
            col[y] = cands.get(spread % cands.len().max(1)).copied().unwrap_or(NO_ROUTE);
        }
        if sc.orphans.is_empty() {
            return;
        }
        // switches without a legal route: distance to the legal region (0 inside it), found
        // breadth-first from the orphans next to it (distance 1: they step to the neighbour
        // with the shortest legal route) outwards
        let legal = &sc.legal;
        let fb = &mut sc.dl;
        for (f, &l) in fb.iter_mut().zip(legal) {
            *f = if l == INF { INF } else { 0 };
        }
        sc.queue.clear();
        let mut farther = false;
        for &y in &sc.orphans {
            let y = y as usize;
            let (b, half) = self.by_class(self.pos[y] as usize, stamp, legal, &mut sc.up_cache, &mut sc.down_cache);
            if b == INF {
                farther = true;
                continue;
            }
            if let Some(cables) = half {
                // every cable of one direction leads to the shortest legal route
                fb[y] = 1;
                sc.queue.push(y as u32);
                col[y] = cables[spread % cables.len()].1;
                continue;
            }
            // the neighbours with the shortest legal route, in one pass
            let mut best = INF;
            cands.clear();
            for &(u, p) in self.nbrs(y) {
                let lu = legal[u as usize];
                if lu < best {
                    best = lu;
                    cands.clear();
                }
                if lu == best && lu != INF {
                    cands.push(p);
                }
            }
            if best == INF {
                farther = true;
                continue;
            }
            fb[y] = 1;
            sc.queue.push(y as u32);
            col[y] = cands[spread % cands.len()];
        }
        if !farther {
            return; // every orphan is next to the legal region
        }
        // the rest, ring by ring: an orphan at distance k+1 has a neighbour at k (the
        // orphans already placed stay in `queue`, the others are rescanned per ring)
        let mut rest: Vec<u32> = sc.orphans.iter().copied().filter(|&y| fb[y as usize] == INF).collect();
        let mut ring = 1;
        while !rest.is_empty() {
            let before = rest.len();
            let mut placed = Vec::new();
            sc.stamp = sc.stamp.wrapping_add(1).max(1);
            let stamp = sc.stamp;
            let (up_cache, down_cache) = (&mut sc.up_cache, &mut sc.down_cache);
            rest.retain(|&y| {
                let y = y as usize;
                let (best, half) = self.by_class(self.pos[y] as usize, stamp, fb, up_cache, down_cache);
                if best != ring {
                    return true;
                }
                if let Some(cables) = half {
                    placed.push((y, cables[spread % cables.len()].1));
                    return false;
                }
                cands.clear();
                cands.extend(
                    self.nbrs(y)
                        .iter()
                        .filter(|&&(u, _)| fb[u as usize] == ring)
                        .map(|&(_, p)| p),
                );
                if cands.is_empty() {
                    return true;
                }
                placed.push((y, cands[spread % cands.len()]));
                false
            });
            for (y, p) in placed {
                fb[y] = ring + 1;
                col[y] = p;
            }
            if rest.len() == before {
                break; // cut off from every switch with a route: left unrouted
            }
            ring += 1;
        }
    }
}

/// Fill the entries of every switch LID (`switch_lid[row]`) in all rows.
pub(crate) fn fill(graph: &SwitchGraph, lfts: &mut LftSet, switch_lid: &[u16]) {
    fill_marking(graph, lfts, switch_lid);
}

/// [`fill`], telling per switch-LID column (in `switch_lid`'s order) the rows of the
/// switches that had no legal route and stepped sideways. Every other switch's path is
/// up*/down*-legal all the way (a switch with a legal route steps to one with a legal
/// route), so callers that assign VLs per path walk only from these.
pub(crate) fn fill_marking(graph: &SwitchGraph, lfts: &mut LftSet, switch_lid: &[u16]) -> Vec<Vec<u32>> {
    let (cols, stepped) = columns(graph, switch_lid.len());
    write(lfts, &cols, switch_lid);
    stepped
}

/// [`fill`], returning the entries also as columns: `cols[x·n + y]` is row y's port
/// towards switch x (n rows). Walks along one destination's routes read 1 byte per row
/// there, where the tables space rows a stride of every LID apart.
pub(crate) fn fill_columns(graph: &SwitchGraph, lfts: &mut LftSet, switch_lid: &[u16]) -> Vec<u8> {
    let (cols, _) = columns(graph, switch_lid.len());
    write(lfts, &cols, switch_lid);
    cols
}

/// Every column of the `n` switch rows, and the rows that stepped sideways in each.
fn columns(graph: &SwitchGraph, n: usize) -> (Vec<u8>, Vec<Vec<u32>>) {
    let mut cols = vec![0u8; n * n];
    let mut stepped = vec![Vec::new(); n];
    cols.par_chunks_mut(n.max(1))
        .zip(stepped.par_iter_mut())
        .enumerate()
        .for_each_init(Scratch::default, |sc, (x, (col, rows))| {
            graph.column(x, col, sc);
            rows.extend_from_slice(&sc.orphans);
        });
    (cols, stepped)
}

/// The columns into the tables, row by row (each row's writes stay in its own cache lines).
fn write(lfts: &mut LftSet, cols: &[u8], switch_lid: &[u16]) {
    let n = switch_lid.len();
    let stride = lfts.stride;
    lfts.ports
        .par_chunks_mut(stride.max(1))
        .take(n)
        .enumerate()
        .for_each(|(y, row)| {
            for (x, &lid) in switch_lid.iter().enumerate() {
                row[lid as usize] = cols[x * n + y];
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kary::model::KaryParams;
    use crate::families::lsft::model::LsftParams;
    use crate::families::pgft::model::PgftParams;
    use crate::topology::faults::inject;
    use crate::topology::{BuildOptions, FamilySpec, Spec};

    /// The column as first written (every cable's direction compared per column, the
    /// fallback search started from the whole legal region): the reference the faster
    /// [`SwitchGraph::column`] must agree with entry for entry.
    fn reference_column(g: &SwitchGraph, x: usize, col: &mut [u8]) {
        let n = g.pos.len();
        let up = |a: usize, b: usize| g.pos[b] < g.pos[a];
        let bfs = |dist: &mut [u32], queue: &mut Vec<u32>, step: &dyn Fn(usize, usize) -> bool| {
            let mut head = 0;
            while head < queue.len() {
                let v = queue[head] as usize;
                head += 1;
                for &(u, _) in g.nbrs(v) {
                    let u = u as usize;
                    if dist[u] == INF && step(v, u) {
                        dist[u] = dist[v] + 1;
                        queue.push(u as u32);
                    }
                }
            }
        };
        let mut dl = vec![INF; n];
        dl[x] = 0;
        let mut queue = vec![x as u32];
        bfs(&mut dl, &mut queue, &|v, u| up(v, u));
        let mut legal = dl.clone();
        let spread = g.canon[x] as usize;
        let pick = |cands: &[u8]| cands.get(spread % cands.len().max(1)).copied().unwrap_or(NO_ROUTE);
        let mut orphans = 0;
        for &y in &g.order {
            let y = y as usize;
            if y == x {
                col[y] = 0;
                continue;
            }
            let mut cands = Vec::new();
            if dl[y] != INF {
                for &(v, p) in g.nbrs(y) {
                    let dv = dl[v as usize];
                    if up(v as usize, y) && dv != INF && dv + 1 == dl[y] {
                        cands.push(p);
                    }
                }
            } else {
                let mut best = INF;
                for &(u, p) in g.nbrs(y) {
                    if up(y, u as usize) {
                        let lu = legal[u as usize];
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
                    col[y] = NO_ROUTE;
                    continue;
                }
                legal[y] = best + 1;
            }
            col[y] = pick(&cands);
        }
        if orphans == 0 {
            return;
        }
        let mut fb = vec![INF; n];
        queue.clear();
        for y in 0..n {
            if legal[y] != INF {
                fb[y] = 0;
                queue.push(y as u32);
            }
        }
        bfs(&mut fb, &mut queue, &|_, _| true);
        for y in 0..n {
            if legal[y] != INF || y == x || fb[y] == INF {
                continue;
            }
            let cands: Vec<u8> = if fb[y] == 1 {
                let best = g.nbrs(y).iter().map(|&(u, _)| legal[u as usize]).min().unwrap_or(INF);
                g.nbrs(y)
                    .iter()
                    .filter(|&&(u, _)| legal[u as usize] == best)
                    .map(|&(_, p)| p)
                    .collect()
            } else {
                g.nbrs(y)
                    .iter()
                    .filter(|&&(u, _)| fb[u as usize] != INF && fb[u as usize] + 1 == fb[y])
                    .map(|&(_, p)| p)
                    .collect()
            };
            col[y] = pick(&cands);
        }
    }

    fn fabric(family: FamilySpec, cut: usize) -> Fabric {
        let mut s = Spec::new(family);
        s.options = BuildOptions {
            shuffle: Some(3),
            ..Default::default()
        };
        let f = s.build().unwrap().fabric;
        inject(&f, cut, 9, &[]).unwrap().fabric
    }

    /// Every column of several fabrics, intact and with cut cables, under rankings that
    /// leave some switches without a legal route (sidesteps, searches from the region),
    /// equals the reference entry for entry.
    #[test]
    fn columns_equal_the_reference() {
        let pgft = PgftParams::from_lists(&[4, 4, 2], &[1, 2, 4], &[1, 2, 2], None).unwrap();
        let fabrics = [
            fabric(FamilySpec::Kary(KaryParams { arity: 4, levels: 3 }), 0),
            fabric(FamilySpec::Kary(KaryParams { arity: 4, levels: 3 }), 6),
            fabric(FamilySpec::Pgft(pgft), 5),
            fabric(FamilySpec::Lsft(LsftParams::new(5, false)), 4),
        ];
        for f in &fabrics {
            let lfts = LftSet::new(f, 1);
            let n = lfts.switches.len();
            // hop distance from the switches with hosts (a tree's levels), then rankings
            // that do not follow the cabling
            let hosts: Vec<u32> = lfts
                .switches
                .iter()
                .map(|&s| {
                    (1..=f.node(s).nports)
                        .filter(|&p| f.peer(s, p).is_some_and(|(t, _)| f.node(t).kind != NodeKind::Switch))
                        .count() as u32
                })
                .collect();
            let rankings: [Vec<u32>; 3] = [
                hosts.iter().map(|&h| if h > 0 { 2 } else { 0 }).collect(),
                (0..n as u32).map(|r| r % 3).collect(),
                vec![0; n],
            ];
            for rank in &rankings {
                let g = SwitchGraph::new(f, &lfts, rank);
                let mut sc = Scratch::default();
                let (mut got, mut want) = (vec![0u8; n], vec![0u8; n]);
                for x in 0..n {
                    g.column(x, &mut got, &mut sc);
                    reference_column(&g, x, &mut want);
                    assert_eq!(got, want, "column {x}");
                }
            }
        }
    }
}
