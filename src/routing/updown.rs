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

use super::lft::{LftSet, NO_ROUTE};
use crate::topology::{Fabric, NodeKind};
use rayon::prelude::*;

const INF: u32 = u32::MAX;

/// Switch-to-switch graph in compressed rows.
pub struct SwitchGraph {
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
    /// Class of the row at each position of `order`: rows with the same set of upward
    /// neighbours (a tree's leaves under one group of spines) share one, so a column
    /// compares their neighbours' distances once per class, not once per row.
    up_class: Vec<u32>,
    /// The distinct upward neighbours of each class (compressed rows).
    class_start: Vec<u32>,
    class_nbrs: Vec<u32>,
    /// Rows with the same set of neighbours (by row), for the switches that have no
    /// up*/down* route and step to the neighbour with the shortest one.
    nbr_class: Vec<u32>,
    nbr_class_start: Vec<u32>,
    nbr_class_nbrs: Vec<u32>,
}

/// Per-thread buffers of [`SwitchGraph::column`].
#[derive(Default)]
pub struct Scratch {
    /// Per class: the column that computed `class_best`, +1 (0: none yet).
    class_seen: Vec<u32>,
    /// Per class: the shortest legal distance among its neighbours, and whether all of
    /// them have it (then every up cable of a member is a candidate).
    class_best: Vec<(u32, bool)>,
    /// The same per neighbour class ([`SwitchGraph::nbr_class`]).
    nbr_seen: Vec<u32>,
    nbr_best: Vec<(u32, bool)>,
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
    pub fn new(fabric: &Fabric, lfts: &LftSet, rank: &[u32]) -> SwitchGraph {
        let mut start = Vec::with_capacity(lfts.switches.len() + 1);
        let (mut adj, mut far) = (Vec::new(), Vec::new());
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
            let (mut st, mut out, mut out_far) = (Vec::with_capacity(rank.len() + 1), Vec::new(), Vec::new());
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
        let (up_class, class_start, class_nbrs) = up_classes(&up_start, &up_adj);
        let (nbr_class, nbr_class_start, nbr_class_nbrs) = up_classes(&start, &adj);
        SwitchGraph {
            start,
            adj,
            up_start,
            up_adj,
            up_far,
            pos,
            order,
            canon,
            up_class,
            class_start,
            class_nbrs,
            nbr_class,
            nbr_class_start,
            nbr_class_nbrs,
        }
    }

    /// The shortest legal distance among the upward neighbours of class `c` and whether
    /// they all have it, computed once per column `x` (the neighbours come earlier in
    /// root-first order than any member, so their distances are final).
    fn class_best(&self, c: usize, x: usize, legal: &[u32], seen: &mut [u32], best: &mut [(u32, bool)]) -> (u32, bool) {
        best_of_class((&self.class_start, &self.class_nbrs), c, x, legal, (seen, best))
    }
}

/// [`SwitchGraph::class_best`] for the classes `(start, nbrs)`, cached in `(seen, best)`.
fn best_of_class(
    (start, class_nbrs): (&[u32], &[u32]),
    c: usize,
    x: usize,
    legal: &[u32],
    (seen, best): (&mut [u32], &mut [(u32, bool)]),
) -> (u32, bool) {
    {
        if seen[c] != x as u32 + 1 {
            let nbrs = &class_nbrs[start[c] as usize..start[c + 1] as usize];
            let first = nbrs.first().map_or(INF, |&u| legal[u as usize]);
            let mut b = (first, true);
            for &u in nbrs {
                let l = legal[u as usize];
                b = (b.0.min(l), b.1 && l == first);
            }
            seen[c] = x as u32 + 1;
            best[c] = b;
        }
        best[c]
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
    pub fn column(&self, x: usize, col: &mut [u8], sc: &mut Scratch) {
        // down-only distance to x (x and the switches above it): climb from x
        self.down_only(x, sc);
        sc.legal.clear();
        sc.legal.extend_from_slice(&sc.dl);
        let cands = &mut sc.cands;
        let spread = self.canon[x] as usize;
        sc.orphans.clear();
        let classes = self.class_start.len() - 1;
        if sc.class_seen.len() != classes {
            sc.class_seen = vec![0; classes];
            sc.class_best = vec![(INF, false); classes];
        }
        let classes = self.nbr_class_start.len() - 1;
        if sc.nbr_seen.len() != classes {
            sc.nbr_seen = vec![0; classes];
            sc.nbr_best = vec![(INF, false); classes];
        }
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
                let c = self.up_class[i] as usize;
                let (b, uniform) = self.class_best(c, x, &sc.legal, &mut sc.class_seen, &mut sc.class_best);
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
                let mut best = INF;
                for &(u, p) in self.ups_at(i) {
                    let lu = sc.legal[u as usize];
                    if lu < best {
                        best = lu;
                        cands.clear();
                    }
                    if lu == best && lu != INF {
                        cands.push(p);
                    }
                }
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
            let c = self.nbr_class[y] as usize;
            let classes = (&self.nbr_class_start[..], &self.nbr_class_nbrs[..]);
            let (b, uniform) = best_of_class(classes, c, x, legal, (&mut sc.nbr_seen, &mut sc.nbr_best));
            if uniform {
                // every neighbour has the shortest legal route: every cable is a candidate
                let nbrs = self.nbrs(y);
                if b == INF || nbrs.is_empty() {
                    farther = true;
                    continue;
                }
                fb[y] = 1;
                sc.queue.push(y as u32);
                col[y] = nbrs[spread % nbrs.len()].1;
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
            rest.retain(|&y| {
                let y = y as usize;
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

/// Rows (by position) grouped by their set of upward neighbours: (class of each
/// position, start of each class's neighbours, the distinct neighbours).
fn up_classes(up_start: &[u32], up_adj: &[(u32, u8)]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let n = up_start.len() - 1;
    let mut of: std::collections::HashMap<Vec<u32>, u32> = std::collections::HashMap::new();
    let (mut class, mut start, mut nbrs) = (Vec::with_capacity(n), vec![0u32], Vec::new());
    for i in 0..n {
        let mut set: Vec<u32> = up_adj[up_start[i] as usize..up_start[i + 1] as usize]
            .iter()
            .map(|&(u, _)| u)
            .collect();
        set.sort_unstable();
        set.dedup();
        let next = start.len() as u32 - 1;
        let c = *of.entry(set).or_insert_with_key(|set| {
            nbrs.extend_from_slice(set);
            start.push(nbrs.len() as u32);
            next
        });
        class.push(c);
    }
    (class, start, nbrs)
}

/// Fill the entries of every switch LID (`switch_lid[row]`) in all rows.
pub fn fill(graph: &SwitchGraph, lfts: &mut LftSet, switch_lid: &[u16]) {
    fill_marking(graph, lfts, switch_lid);
}

/// [`fill`], telling per switch-LID column (in `switch_lid`'s order) the rows of the
/// switches that had no legal route and stepped sideways. Every other switch's path is
/// up*/down*-legal all the way (a switch with a legal route steps to one with a legal
/// route), so callers that assign VLs per path walk only from these.
pub fn fill_marking(graph: &SwitchGraph, lfts: &mut LftSet, switch_lid: &[u16]) -> Vec<Vec<u32>> {
    let (cols, stepped) = columns(graph, switch_lid.len());
    write(lfts, &cols, switch_lid);
    stepped
}

/// [`fill`], returning the entries also as columns: `cols[x·n + y]` is row y's port
/// towards switch x (n rows). Walks along one destination's routes read 1 byte per row
/// there, where the tables space rows a stride of every LID apart.
pub fn fill_columns(graph: &SwitchGraph, lfts: &mut LftSet, switch_lid: &[u16]) -> Vec<u8> {
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
    use crate::topology::faults::inject;
    use crate::topology::kary::KaryParams;
    use crate::topology::lsft::LsftParams;
    use crate::topology::pgft::PgftParams;
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
