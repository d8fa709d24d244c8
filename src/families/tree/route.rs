//! Routing a tree as it is found ([`TreeLayout`]): up*/down* on one VL, balanced the way
//! d-mod-k balances a regular tree, without its closed forms.
//!
//! **One path in per destination.** Destinations are taken in rank order. For each, a
//! chain is drawn from its leaf upwards to a switch with no parent, taking at every switch
//! an up-cable that the fewest destinations so far descend (parallel cables and
//! different parents alike), to the parent the fewest chains climb through (on a small
//! tree: into which the fewest source hosts climb per cable below, [`climb`]; docs/tree.md
//! §2.1). Every switch of the chain sends the destination down that chain; a switch
//! from which the chain's top is reached going up climbs towards it (to a parent on the
//! chain, else to one from which the top is reached going up); a switch
//! that cannot, but has the destination below itself, goes down towards it (to a child
//! on the chain, else to one that goes down too: no packet ever climbs again); any other
//! switch climbs to a parent below which the destination lies, else to any parent with an
//! up*/down* path. Among equals a switch takes the cable it has used for the fewest
//! destinations so far (going down, the chains that descend a cable count too).
//! All traffic towards a destination therefore enters its leaf over one cable, and each
//! cable a leaf has upwards carries the fewest destinations downwards it can: on a regular
//! tree this is d-mod-k's property (every down-link serves ⌈hosts / up-links⌉ hosts),
//! and on an irregular one it is kept wherever the cabling allows.
//!
//! Every route climbs and then descends, and down-only switches never climb again, so the
//! channel dependency graph is acyclic on one VL. Switch LIDs and hosts above the leaves
//! go up*/down* by level ([`crate::families::tree::route_degraded::route_switch_lids`]: the switch's
//! column, then the host's port), with the degraded trees' relay detours and escape lane
//! for what up*/down* cannot reach. A switch that reaches a leaf by no up*/down* path
//! (a leaf whose every way up is cut) sends a packet that starts there down towards a
//! switch that does (management only); a leaf that reaches it by none leaves the pair
//! unrouted, counted and named.

use crate::error::{Error, Result};
use crate::families::tree::model::{cables, or_row, LeafReach, TreeLayout};
use crate::families::tree::route_degraded::{name_pairs, route_switch_lids_from, TreeRoutes};
use crate::routing::hosts::{Entries, RoutedLayout};
use crate::routing::lft::{LftSet, NO_ROUTE};
use crate::routing::lids::Lids;
use crate::routing::pipeline::{Ask, Objective, Refusal, Routed};
use crate::routing::small::SMALL;
use crate::topology::{Endpoint, Fabric, NodeId};
use rayon::prelude::*;

mod climb;

/// The tree by LFT row: levels, cables up and down, leaf index, reach sets.
struct Rows {
    /// Level per row (1 = leaf).
    level: Vec<u32>,
    /// Up-cables of row r: `up[up_off[r]..up_off[r+1]]` as (own port, parent row, parent port).
    up_off: Vec<u32>,
    up: Vec<(u8, u32, u8)>,
    /// Down-cables of row r, likewise (own port, child row).
    down_off: Vec<u32>,
    down: Vec<(u8, u32)>,
    /// Leaf index per row (`u32::MAX` above the leaves).
    leaf: Vec<u32>,
    reach: LeafReach,
    /// Tops (rows without parents) each row reaches going up: `words` per row.
    tops: Vec<u64>,
    top_words: usize,
    /// Index of each top row among the tops (`u32::MAX` otherwise).
    top_of: Vec<u32>,
    /// Per row, its up-cables by parent: (parent row, cable index k) sorted, in
    /// `by_parent[up_off[r]..up_off[r+1]]`.
    by_parent: Vec<(u32, u32)>,
    /// Per row and top, the up-cables whose parent reaches that top going up:
    /// `to_top[top_off[r·T + t]..top_off[r·T + t + 1]]` (T tops).
    top_off: Vec<u32>,
    to_top: Vec<u32>,
    /// T: how many tops.
    ntops: usize,
    /// Per row, how many parents it has when their cable counts differ by at most one
    /// (they are then the first entries of its interleaved up-cables), else 0.
    even_parents: Vec<u32>,
}

impl Rows {
    fn new(fabric: &Fabric, t: &TreeLayout, lfts: &LftSet) -> Rows {
        let n = lfts.switches.len();
        let level: Vec<u32> = lfts.switches.iter().map(|&s| t.level[s as usize] as u32).collect();
        let (mut up_off, mut up, mut down_off, mut down) = (vec![0], Vec::new(), vec![0], Vec::new());
        let mut nbrs: Vec<Vec<u32>> = Vec::with_capacity(n);
        for &s in &lfts.switches {
            let c = cables(fabric, t, s);
            up.extend(interleaved(&c.up).map(|&(p, q, qp)| (p, lfts.row_of[q as usize], qp)));
            down.extend(c.down.iter().map(|&(p, q, _)| (p, lfts.row_of[q as usize])));
            up_off.push(up.len() as u32);
            down_off.push(down.len() as u32);
            nbrs.push(
                c.up.iter()
                    .chain(&c.down)
                    .map(|&(_, q, _)| lfts.row_of[q as usize])
                    .collect(),
            );
        }
        let mut leaf = vec![u32::MAX; n];
        for (i, &s) in t.leaves().iter().enumerate() {
            leaf[lfts.row_of[s as usize] as usize] = i as u32;
        }
        let reach = LeafReach::new(&level, |r| &nbrs[r], &leaf, t.leaves().len());
        let mut rows = Rows {
            level,
            up_off,
            up,
            down_off,
            down,
            leaf,
            reach,
            tops: Vec::new(),
            top_words: 0,
            top_of: vec![u32::MAX; n],
            by_parent: Vec::new(),
            top_off: Vec::new(),
            to_top: Vec::new(),
            ntops: 0,
            even_parents: Vec::new(),
        };
        rows.tops_above();
        rows.index_ups();
        rows
    }

    /// The lookups of [`Rows::by_parent`] and [`Rows::to_top`]: what an entry asks of a
    /// row's up-cables (is the chain's switch a parent? which parents climb to its top?)
    /// answered without scanning them.
    fn index_ups(&mut self) {
        let n = self.level.len();
        let tops = self.top_of.iter().filter(|&&t| t != u32::MAX).count();
        let mut by_parent = Vec::with_capacity(self.up.len());
        let mut top_off = Vec::with_capacity(n * tops + 1);
        let mut to_top = Vec::new();
        let mut even_parents = Vec::with_capacity(n);
        for r in 0..n {
            let lo = self.up_off[r] as usize;
            let mut mine: Vec<(u32, u32)> = self.ups(r).iter().enumerate().map(|(k, c)| (c.1, k as u32)).collect();
            mine.sort_unstable();
            let per: Vec<usize> = mine.chunk_by(|a, b| a.0 == b.0).map(<[_]>::len).collect();
            let (most, fewest) = (per.iter().max().copied(), per.iter().min().copied());
            let even = most.zip(fewest).is_some_and(|(a, b)| a - b <= 1);
            even_parents.push(if even { per.len() as u32 } else { 0 });
            by_parent.extend(mine);
            for t in 0..tops as u32 {
                top_off.push(to_top.len() as u32);
                for (k, c) in self.up[lo..self.up_off[r + 1] as usize].iter().enumerate() {
                    if self.reaches_top(c.1 as usize, t) {
                        to_top.push(k as u32);
                    }
                }
            }
        }
        top_off.push(to_top.len() as u32);
        self.by_parent = by_parent;
        self.top_off = top_off;
        self.to_top = to_top;
        self.ntops = tops;
        self.even_parents = even_parents;
    }

    /// The up-cable indices of row `r` to parent `p` (none when `p` is not a parent).
    fn cables_to(&self, r: usize, p: u32) -> impl Iterator<Item = usize> + '_ {
        let list = &self.by_parent[self.up_off[r] as usize..self.up_off[r + 1] as usize];
        let from = list.partition_point(|&(q, _)| q < p);
        list[from..]
            .iter()
            .take_while(move |&&(q, _)| q == p)
            .map(|&(_, k)| k as usize)
    }

    /// The up-cable indices of row `r` whose parent reaches top `t` going up.
    fn cables_climbing(&self, r: usize, t: u32) -> impl Iterator<Item = usize> + '_ {
        let i = r * self.ntops + t as usize;
        self.to_top[self.top_off[i] as usize..self.top_off[i + 1] as usize]
            .iter()
            .map(|&k| k as usize)
    }

    fn ups(&self, r: usize) -> &[(u8, u32, u8)] {
        &self.up[self.up_off[r] as usize..self.up_off[r + 1] as usize]
    }

    fn downs(&self, r: usize) -> &[(u8, u32)] {
        &self.down[self.down_off[r] as usize..self.down_off[r + 1] as usize]
    }

    /// The tops each row reaches going up (itself when it is one), top level first.
    fn tops_above(&mut self) {
        let n = self.level.len();
        let mut k = 0;
        for r in 0..n {
            if self.ups(r).is_empty() {
                self.top_of[r] = k;
                k += 1;
            }
        }
        let words = (k as usize).div_ceil(64).max(1);
        let mut tops = vec![0u64; n * words];
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&r| std::cmp::Reverse(self.level[r]));
        for r in order {
            if self.top_of[r] != u32::MAX {
                tops[r * words + self.top_of[r] as usize / 64] |= 1 << (self.top_of[r] % 64);
            }
            for i in self.up_off[r] as usize..self.up_off[r + 1] as usize {
                or_row(&mut tops, words, r, self.up[i].1 as usize);
            }
        }
        self.tops = tops;
        self.top_words = words;
    }

    fn reaches_top(&self, r: usize, top: u32) -> bool {
        self.tops[r * self.top_words + top as usize / 64] >> (top % 64) & 1 == 1
    }
}

/// Up-cables parent by parent in turn (the first cable to every parent, in the order of
/// their first ports, then every second cable ...): consecutive destinations then climb to
/// different parents first, as d-mod-k's port numbering has it, so that a run of
/// destinations splits evenly over the parents wherever it starts.
fn interleaved(up: &[(u8, NodeId, u8)]) -> impl Iterator<Item = &(u8, NodeId, u8)> {
    let mut parents: Vec<NodeId> = Vec::new();
    let mut key: Vec<(usize, usize)> = Vec::with_capacity(up.len());
    let mut seen: Vec<usize> = Vec::new();
    for &(_, q, _) in up {
        let i = parents.iter().position(|&x| x == q).unwrap_or_else(|| {
            parents.push(q);
            seen.push(0);
            parents.len() - 1
        });
        key.push((seen[i], i));
        seen[i] += 1;
    }
    let mut order: Vec<usize> = (0..up.len()).collect();
    order.sort_by_key(|&k| key[k]);
    order.into_iter().map(move |k| &up[k])
}

/// A destination host port on a leaf: its LID, leaf row and chain.
struct Dest {
    lid: u16,
    leaf: u32,
    /// Leaf index of its leaf.
    leaf_index: u32,
    /// The chain in `chains[start..end]`: (row, port towards the host), leaf first.
    start: u32,
    end: u32,
    /// The chain's top, as an index among the tops.
    top: u32,
}

/// Draw every destination's chain (module doc), each parent weighed by the chains that
/// climb through it so far.
fn chains(fabric: &Fabric, rows: &Rows, lfts: &LftSet, lids: &Lids, hosts: &[Endpoint]) -> (Vec<Dest>, Vec<(u32, u8)>) {
    let mut drawn = Chains::new(rows, hosts.len());
    let mut through = vec![0u64; rows.level.len()];
    let mut dests = Vec::with_capacity(hosts.len());
    for ep in hosts {
        let Some(start) = first_hop(fabric, lfts, lids, ep) else {
            continue;
        };
        let d = drawn.draw(rows, start, dests.len(), |p| (through[p], 1));
        for &(parent, _) in &drawn.chain[d.start as usize + 1..d.end as usize] {
            through[parent as usize] += 1;
        }
        dests.push(d);
    }
    (dests, drawn.chain)
}

/// Where a destination host port enters the tree: (leaf row, the leaf's port to it, its
/// LID); `None` for an uncabled port.
fn first_hop(fabric: &Fabric, lfts: &LftSet, lids: &Lids, ep: &Endpoint) -> Option<(u32, u8, u16)> {
    let (sw, port) = fabric.peer(ep.node, ep.port)?;
    let lid = lids.base[fabric.port_index(ep.node, ep.port) as usize];
    Some((lfts.row_of[sw as usize], port, lid))
}

/// The chains drawn so far: how many destinations descend each up-cable, and every
/// chain as (row, port towards the host), leaf first.
struct Chains {
    load: Vec<u32>,
    chain: Vec<(u32, u8)>,
}

impl Chains {
    fn new(rows: &Rows, hosts: usize) -> Chains {
        Chains {
            load: vec![0; rows.up.len()],
            chain: Vec::with_capacity(hosts * 3),
        }
    }

    /// Draw the chain of the `d`-th destination, which enters the tree at `start` (leaf
    /// row, port, LID), from its leaf up to a switch with no parent ([`least_loaded_up`]
    /// with the parents' weights `weigh`).
    fn draw(
        &mut self,
        rows: &Rows,
        (leaf, port, lid): (u32, u8, u16),
        d: usize,
        weigh: impl Fn(usize) -> (u64, u64),
    ) -> Dest {
        let start = self.chain.len() as u32;
        self.chain.push((leaf, port));
        let mut at = leaf as usize;
        while !rows.ups(at).is_empty() {
            let best = least_loaded_up(rows, &self.load, &weigh, at, d);
            self.load[best] += 1;
            let (_, parent, parent_port) = rows.up[best];
            self.chain.push((parent, parent_port));
            at = parent as usize;
        }
        Dest {
            lid,
            leaf,
            leaf_index: rows.leaf[leaf as usize],
            start,
            end: self.chain.len() as u32,
            top: rows.top_of[at],
        }
    }
}

/// The up-cable of row `at` for the chain of destination `d`: one of the cables the
/// fewest destinations descend so far (each cable of a leaf then serves
/// ⌈hosts / cables⌉ of its hosts at most), to the lightest parent by `weigh` (a fraction
/// (numerator, denominator) per parent row: the chains climbing through it so far, or on
/// a small tree the source hosts climbing into it per cable below, [`climb`]): a leaf with
/// few hosts leaves its spare cables on the parents that the others load, so a source
/// switch's cables to each parent carry about as many destinations. Then the parent
/// d-mod-k takes (d mod parents, when the parents have about as many cables each), then
/// d-mod-k's cable (d mod cables, counted from the first).
fn least_loaded_up(rows: &Rows, load: &[u32], weigh: &impl Fn(usize) -> (u64, u64), at: usize, d: usize) -> usize {
    let (lo, hi) = (rows.up_off[at] as usize, rows.up_off[at + 1] as usize);
    let n = hi - lo;
    let parents = rows.even_parents[at] as usize;
    let d_mod_k_parent = (parents > 0).then(|| rows.up[lo + d % parents].1);
    let fewest = (lo..hi).map(|k| load[k]).min().unwrap_or(0);
    let rest = |k: usize| {
        let parent = rows.up[k].1;
        (d_mod_k_parent.is_some_and(|p| p != parent), (k - lo + n - d % n) % n)
    };
    (lo..hi)
        .filter(|&k| load[k] == fewest)
        .min_by(|&a, &b| {
            let ((wa, na), (wb, nb)) = (weigh(rows.up[a].1 as usize), weigh(rows.up[b].1 as usize));
            (u128::from(wa) * u128::from(nb))
                .cmp(&(u128::from(wb) * u128::from(na)))
                .then_with(|| rest(a).cmp(&rest(b)))
        })
        .unwrap_or(lo)
}

/// A row's use of its own cables so far: destinations per up-cable and per down-cable.
struct Load {
    up: Vec<u32>,
    down: Vec<u32>,
    /// The leaf the `fallback` mask was worked out for.
    leaf: u32,
    /// Per up-cable, 0 when it is of the best of tiers 2 and 3 towards that leaf, else
    /// `u32::MAX` (or-ed onto its count, it bars the cable from the minimum).
    fallback: Vec<u32>,
    /// The leaf the `below` cables were worked out for.
    below_leaf: u32,
    /// Down-cables to children with that leaf below, in port order.
    below: Vec<usize>,
    /// Down-cable index of each port (`usize::MAX` for the others), so that a chain
    /// descending here counts on its cable ([`Load::count_chain`]).
    down_of_port: Vec<usize>,
}

impl Load {
    fn new(rows: &Rows, r: usize) -> Load {
        Load {
            up: vec![0; rows.ups(r).len()],
            down: vec![0; rows.downs(r).len()],
            leaf: u32::MAX,
            fallback: vec![u32::MAX; rows.ups(r).len()],
            below_leaf: u32::MAX,
            below: Vec::new(),
            down_of_port: down_index(rows.downs(r)),
        }
    }

    /// Count a chain's destination on the down-cable it descends from this row: traffic
    /// from every source climbing here enters the leaf over it, so a switch off the chain
    /// that must go down here (no way up to the chain's top) takes the parallel cable
    /// carrying the fewest destinations in all, not only the fewest of its own.
    fn count_chain(&mut self, port: u8) {
        if let Some(c) = self.down.get_mut(self.down_of_port[port as usize]) {
            *c += 1;
        }
    }
}

/// The down-cable index of each port of a row (`usize::MAX` where none is).
fn down_index(downs: &[(u8, u32)]) -> Vec<usize> {
    let mut index = vec![usize::MAX; 256];
    for (k, c) in downs.iter().enumerate() {
        index[c.0 as usize] = k;
    }
    index
}

/// The least-used of the `cands` indices (ties: the smallest index), counted once more.
/// Count and index packed into one integer make the minimum branch-free: this runs for
/// nearly every one of the 18 M entries of a 10,000-host tree.
fn least(counts: &mut [u32], cands: impl Iterator<Item = usize>) -> Option<usize> {
    let key = cands.map(|k| (u64::from(counts[k]) << 32) | k as u64).min()?;
    let pick = key as u32 as usize;
    counts[pick] += 1;
    Some(pick)
}

/// [`least`] over the indices `barred` leaves open (0 there, `u32::MAX` elsewhere): the
/// smallest open count, then the first cable with it (two passes over contiguous
/// counts the compiler vectorises; counts stay far below `u32::MAX`).
fn least_open(counts: &mut [u32], barred: &[u32]) -> Option<usize> {
    let keys = || counts.iter().zip(barred).map(|(&c, &b)| c | b);
    let fewest = keys().min().filter(|&m| m != u32::MAX)?;
    let pick = keys().position(|c| c == fewest)?;
    counts[pick] += 1;
    Some(pick)
}

/// The entry of row `r` for destination `d` (module doc); `chain[k]` is the chain's
/// switch on level k + 1, so the chain's switch beside any row is found at once.
fn entry(rows: &Rows, r: usize, d: &Dest, chain: &[(u32, u8)], load: &mut Load) -> u8 {
    let lv = rows.level[r] as usize;
    let chain_at = |l: usize| l.checked_sub(1).and_then(|i| chain.get(i)).map(|c| c.0);
    if let Some(&(row, port)) = chain.get(lv - 1) {
        if row as usize == r {
            load.count_chain(port);
            return port;
        }
    }
    let leaf = d.leaf_index;
    let climbs = rows.reaches_top(r, d.top);
    if !climbs && rows.reach.down(r, leaf) {
        return down_entry(rows, r, d, chain_at(lv - 1), load);
    }
    // up: the best tier of parent, then the least-used cable of that tier; the first two
    // tiers (the chain's switch above; parents climbing to its top) by lookup — neither
    // has a member when this switch does not reach the chain's top going up
    let ups = rows.ups(r);
    if climbs {
        if let Some(p) = chain_at(lv + 1) {
            if let Some(k) = least(&mut load.up, rows.cables_to(r, p)) {
                return ups[k].0;
            }
        }
        if let Some(k) = least(&mut load.up, rows.cables_climbing(r, d.top)) {
            return ups[k].0;
        }
    }
    // tiers 2 (a parent with the leaf below) and 3 (one that reaches it) depend on the
    // leaf alone, and destinations come leaf by leaf: worked out once per leaf
    if load.leaf != leaf {
        load.leaf = leaf;
        let tier = |p: u32| {
            if rows.reach.down(p as usize, leaf) {
                2
            } else if rows.reach.reaches(p as usize, leaf) {
                3
            } else {
                4
            }
        };
        let best = ups.iter().map(|c| tier(c.1)).min().unwrap_or(4);
        for (b, c) in load.fallback.iter_mut().zip(ups) {
            *b = if best < 4 && tier(c.1) == best { 0 } else { u32::MAX };
        }
    }
    if let Some(k) = least_open(&mut load.up, &load.fallback) {
        return ups[k].0;
    }
    // no up*/down* path from here (management only): down towards one that has
    let downs = rows.downs(r);
    least(
        &mut load.down,
        (0..downs.len()).filter(|&k| rows.reach.any(downs[k].1 as usize, leaf)),
    )
    .map_or(NO_ROUTE, |k| downs[k].0)
}

/// Down from a switch with the destination below it and no way up to the chain's top: to
/// the chain's switch below it (the least-used of parallel cables), else to a child that goes down too, else to any child
/// with the leaf below (that child then climbs to the chain: a turn, but never back here,
/// as what climbs only meets switches that climb or the chain; the proof would name it).
fn down_entry(rows: &Rows, r: usize, d: &Dest, chain_below: Option<u32>, load: &mut Load) -> u8 {
    let downs = rows.downs(r);
    // the children with the leaf below depend on the leaf alone (and destinations come
    // leaf by leaf): listed once per leaf; the chain's switch below is one of them
    if load.below_leaf != d.leaf_index {
        load.below_leaf = d.leaf_index;
        load.below.clear();
        let below = |k: usize| rows.reach.down(downs[k].1 as usize, d.leaf_index);
        load.below.extend((0..downs.len()).filter(|&k| below(k)));
    }
    let Load { down, below, .. } = load;
    // parallel cables to the chain's switch take turns: the first of them for every
    // destination loaded one cable with all the traffic this switch sends down that way
    let to_chain = below.iter().copied().filter(|&k| Some(downs[k].1) == chain_below);
    if let Some(k) = least(down, to_chain) {
        return downs[k].0;
    }
    let goes_down = |k: usize| !rows.reaches_top(downs[k].1 as usize, d.top);
    least(down, below.iter().copied().filter(|&k| goes_down(k)))
        .or_else(|| least(down, below.iter().copied()))
        .map_or(NO_ROUTE, |k| downs[k].0)
}

/// Every switch's entry for every host on a leaf. A small tree (a pass on one thread
/// anyway, [`SMALL`]) weighs each chain's parents by the source hosts the routes so far
/// climb into them ([`climb`]: destination by destination, as each chain depends on every
/// entry before it); a larger one by the chains so far, its chains drawn first and its
/// rows then filled in parallel (the climb-weighted pass on one thread took the 10,000-host
/// bench from 0.8 s to 1.8 s; docs/tree.md §3).
fn host_entries(fabric: &Fabric, rows: &Rows, lfts: &mut LftSet, lids: &Lids, hosts: &[Endpoint]) -> Vec<Dest> {
    if lfts.ports.len() < SMALL {
        return climb::route_hosts(fabric, rows, lfts, lids, hosts);
    }
    let (dests, chain) = chains(fabric, rows, lfts, lids, hosts);
    let stride = lfts.stride;
    lfts.ports.par_chunks_mut(stride).enumerate().for_each(|(r, row)| {
        let mut load = Load::new(rows, r);
        for d in &dests {
            let on_chain = &chain[d.start as usize..d.end as usize];
            row[d.lid as usize] = entry(rows, r, d, on_chain, &mut load);
        }
    });
    dests
}

/// Route a tree as found with `lids` (LMC 0).
pub(crate) fn route_tree(fabric: &Fabric, t: &TreeLayout, lids: &Lids) -> Result<TreeRoutes> {
    lids.require_complete(fabric)?;
    if lids.lmc != 0 {
        return Err(Error::input(
            "lmc",
            format!("LMC {}: a tree as found is routed with LMC 0", lids.lmc),
            Some("drop --lmc".into()),
        ));
    }
    let mut lfts = LftSet::new(fabric, lids.max_lid());
    let rows = Rows::new(fabric, t, &lfts);
    let (on_leaves, above): (Vec<Endpoint>, Vec<Endpoint>) = t
        .hosts
        .iter()
        .chain(&t.others)
        .partition(|&&ep| !t.above_leaves(fabric, ep));
    let dests = host_entries(fabric, &rows, &mut lfts, lids, &on_leaves);
    let rank: Vec<u32> = rows.level.iter().map(|&l| t.levels() - l).collect();
    // the switches hosts hang off: the only sources of data traffic
    let mut hosted = vec![false; lfts.switches.len()];
    dests.iter().for_each(|d| hosted[d.leaf as usize] = true);
    for ep in &above {
        if let Some((sw, _)) = fabric.peer(ep.node, ep.port) {
            hosted[lfts.row_of[sw as usize] as usize] = true;
        }
    }
    let (unrouted_switch_lids, mut detours) = route_switch_lids_from(fabric, &mut lfts, lids, &rank, &hosted);
    hosts_above(fabric, lids, &mut lfts, &above, &mut detours);
    let leaf_rows: Vec<u32> = t.leaves().iter().map(|&n| lfts.row_of[n as usize]).collect();
    let missing = unrouted_host_pairs(fabric, lids, &lfts, &leaf_rows, &dests, &above, &hosted);
    let mut routes = TreeRoutes {
        unrouted: missing.len() as u64,
        unrouted_named: name_pairs(fabric, lids, missing.iter()),
        lfts,
        unrouted_switch_lids,
        detours,
        rank,
        escape: Default::default(),
    };
    let sources: Vec<NodeId> = leaf_rows
        .iter()
        .filter(|&&r| hosted[r as usize])
        .map(|&r| routes.lfts.switches[r as usize])
        .collect();
    routes.escape_from(fabric, lids, &sources);
    crate::routing::mgmt_fill::fill(fabric, lids, &mut routes.lfts, &hosted);
    Ok(routes)
}

/// Hosts above the leaves: the way to their switch, then their port; a relay detour
/// towards the switch is one towards its hosts too.
fn hosts_above(fabric: &Fabric, lids: &Lids, lfts: &mut LftSet, above: &[Endpoint], detours: &mut Vec<(u32, u16, u8)>) {
    let stride = lfts.stride;
    let mut extra = Vec::new();
    for ep in above {
        let Some((sw, port)) = fabric.peer(ep.node, ep.port) else {
            continue;
        };
        let lid = lids.base[fabric.port_index(ep.node, ep.port) as usize] as usize;
        let to = lids.base[fabric.port_index(sw, 0) as usize] as usize;
        let own = lfts.row_of[sw as usize] as usize;
        for r in 0..lfts.switches.len() {
            lfts.ports[r * stride + lid] = if r == own { port } else { lfts.ports[r * stride + to] };
        }
        extra.extend(
            detours
                .iter()
                .filter(|&&(_, l, _)| l as usize == to)
                .map(|&(r, _, sl)| (r, lid as u16, sl)),
        );
    }
    detours.extend(extra);
    detours.sort_unstable();
}

/// (Leaf with hosts (`hosted`), host LID) pairs whose entry is empty, in leaf then LID order.
fn unrouted_host_pairs(
    fabric: &Fabric,
    lids: &Lids,
    lfts: &LftSet,
    leaf_rows: &[u32],
    dests: &[Dest],
    above: &[Endpoint],
    hosted: &[bool],
) -> Vec<(NodeId, u32)> {
    let mut host_lids: Vec<u32> = dests.iter().map(|d| d.lid as u32).collect();
    host_lids.extend(
        above
            .iter()
            .map(|ep| lids.base[fabric.port_index(ep.node, ep.port) as usize] as u32),
    );
    host_lids.sort_unstable();
    let mut out = Vec::new();
    for &r in leaf_rows {
        let sw = lfts.switches[r as usize];
        if !hosted[r as usize] {
            continue;
        }
        for &lid in &host_lids {
            if lfts.ports[r as usize * lfts.stride + lid as usize] == NO_ROUTE {
                out.push((sw, lid));
            }
        }
    }
    out
}

impl RoutedLayout for TreeLayout {
    /// Routed destination by destination, balancing load as it goes; on one VL the relay
    /// detours, which need a second, are left out, and what a turn serves with that VL's
    /// CDG acyclic is routed again.
    fn host_router<'a>(&'a self, fabric: &Fabric, lids: &Lids) -> Result<Entries<'a>> {
        let mut r = route_tree(fabric, self, lids)?;
        r.drop_detours(fabric, lids);
        r.turn_on_one_vl(fabric, lids);
        Ok(Entries::Tables(r.lfts))
    }

    /// Up*/down* with the relay detours and the escape lane the subnet offers VLs for.
    fn route_own(&self, fabric: &Fabric, lids: &Lids, ask: &Ask) -> Option<Result<Routed, Refusal>> {
        (ask.objective == Objective::Family).then(|| {
            let r = route_tree(fabric, self, lids)?;
            Ok(crate::routing::pipeline::tree(fabric, r, lids, ask))
        })
    }
}
