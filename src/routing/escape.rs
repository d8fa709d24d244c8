//! The escape lane: one SL and one VL of its own for the pairs a family's rule cannot
//! route, so that every pair the surviving cables connect is routed.
//!
//! A family's detour rule ([`super::lanes`], [`super::tree_lanes`]) keeps its proof by
//! limiting what a route may do: how often it turns, and where. On fault sets far beyond
//! the usual (a leaf cut from most of its spines, a tree switch cut from most of its
//! parents) a few pairs have no path of that shape and their entries are left empty. The
//! escape lane serves exactly those, without touching any route the rule kept:
//!
//! * for each LID with an empty entry at some source, the switches whose walk on the
//!   tables reaches the LID ("good") keep their entries; every other switch on the way
//!   gets an entry towards the nearest good switch (fewest hops to the LID in all,
//!   breadth first over the surviving switch-to-switch cables, lowest port first). No kept
//!   route passes a switch that is not good (it would not arrive), so none changes;
//! * the sources whose entry was empty take [`ESCAPE_SL`] towards that LID, which every
//!   switch maps to the escape VL on every (input, output) port pair: such a path runs on
//!   the escape VL from its first switch to its last, and no other path uses that VL;
//! * the escape VL's channel dependency graph is built as the LIDs are taken in order;
//!   a LID whose paths would close a cycle in it is left as it was (its pairs stay
//!   unrouted and are counted in [`Escape::refused`]).
//!
//! Why the whole is deadlock-free: the family's VLs carry the same paths as before; the
//! escape VL carries only escape paths, whose CDG is acyclic by construction; and an
//! escape path never changes VL, so no dependency joins the escape VL to another one. A
//! host's own link (host → first switch) starts every path and depends on nothing.
//!
//! SL 15 is the one SL the families' rules leave free; the OpenSM plugin uses it to keep
//! every SL-to-VL table from being all VL 0, which the escape lane's mapping does as well.

use super::lft::{LftSet, NO_ROUTE};
use super::lids::Lids;
use crate::topology::{Fabric, NodeId, NodeKind, NO_PEER};
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The SL of every escape path.
pub const ESCAPE_SL: u8 = 15;

/// What the escape lane carries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Escape {
    /// (Source switch, LID) pairs routed on the escape lane, sorted.
    pub pairs: Vec<(NodeId, u32)>,
    /// Of those, pairs towards a host (or router) LID.
    pub host_pairs: u64,
    /// Of those, pairs towards a switch LID.
    pub switch_pairs: u64,
    /// (Source, LID) pairs still unrouted: the escape paths towards their LID would close a
    /// cycle in the escape VL's CDG.
    pub refused: u64,
    /// Table entries the escape lane wrote (at sources and on their way).
    pub entries: u64,
}

impl Escape {
    /// True when some pair runs on the escape lane (it then needs its own VL).
    pub fn used(&self) -> bool {
        !self.pairs.is_empty()
    }

    /// Whether the escape lane carries `source` → `lid`.
    pub fn carries(&self, source: NodeId, lid: u32) -> bool {
        self.pairs.binary_search(&(source, lid)).is_ok()
    }
}

/// The switch a LID's packets are delivered by (the switch itself, or a host's switch),
/// per LID; `u32::MAX` where none.
fn target_switches(fabric: &Fabric, lids: &Lids) -> Vec<NodeId> {
    lids.owner
        .iter()
        .enumerate()
        .map(|(lid, &owner)| {
            if lid == 0 || owner == NO_PEER {
                return u32::MAX;
            }
            let p = &fabric.ports[owner as usize];
            match fabric.node(p.node).kind {
                NodeKind::Switch => p.node,
                _ => fabric.peer(p.node, p.num).map_or(u32::MAX, |(n, _)| n),
            }
        })
        .collect()
}

/// (Source, LID) pairs of `sources` whose first entry is empty (no route, or port 0 at a
/// switch that is not the LID's), in source order then LID order.
pub fn missing(fabric: &Fabric, lids: &Lids, lfts: &LftSet, sources: &[NodeId]) -> Vec<(NodeId, u32)> {
    let target = target_switches(fabric, lids);
    missing_with(lfts, sources, &target)
}

fn missing_with(lfts: &LftSet, sources: &[NodeId], target: &[NodeId]) -> Vec<(NodeId, u32)> {
    let width = lfts.stride.min(target.len());
    sources
        .par_iter()
        .flat_map_iter(|&s| {
            let row = lfts.row_of.get(s as usize).copied().unwrap_or(u32::MAX);
            let cells: &[u8] = if row == u32::MAX { &[] } else { lfts.row(row as usize) };
            (1..width.min(cells.len())).filter_map(move |lid| {
                let t = target[lid];
                let p = cells[lid];
                (t != u32::MAX && t != s && (p == NO_ROUTE || p == 0)).then_some((s, lid as u32))
            })
        })
        .collect()
}

/// The surviving switch-to-switch cables of every row: (own port, neighbour row,
/// neighbour's port), in port order.
struct Links {
    start: Vec<u32>,
    link: Vec<(u8, u32, u8)>,
}

impl Links {
    fn new(fabric: &Fabric, lfts: &LftSet) -> Links {
        let mut start = vec![0u32];
        let mut link = Vec::new();
        for &sw in &lfts.switches {
            for port in 1..=fabric.node(sw).nports {
                if let Some((n, np)) = fabric.peer(sw, port) {
                    let r = lfts.row_of.get(n as usize).copied().unwrap_or(u32::MAX);
                    if r != u32::MAX {
                        link.push((port, r, np));
                    }
                }
            }
            start.push(link.len() as u32);
        }
        Links { start, link }
    }

    fn of(&self, row: u32) -> &[(u8, u32, u8)] {
        &self.link[self.start[row as usize] as usize..self.start[row as usize + 1] as usize]
    }

    /// The row behind `port` of `row`, if a switch.
    fn next(&self, row: u32, port: u8) -> Option<u32> {
        let l = self.of(row);
        l.binary_search_by_key(&port, |x| x.0).ok().map(|i| l[i].1)
    }
}

/// One LID's escape: the entries to write and the dependencies its paths add.
struct Column {
    lid: u32,
    /// (row, port) entries.
    entries: Vec<(u32, u8)>,
    /// Sources it serves.
    sources: Vec<NodeId>,
    /// Of the gaps it was asked for, how many it serves.
    served: u64,
    /// (channel, next channel) dependencies of its paths (global port indices).
    deps: Vec<(u32, u32)>,
}

/// Route every source's empty entry (pairs of [`missing`]) on the escape lane, writing the
/// entries into `lfts` (module documentation). `sources` are the switches whose paths the
/// family counts (its leaves).
pub fn route(fabric: &Fabric, lids: &Lids, lfts: &mut LftSet, sources: &[NodeId]) -> Escape {
    let target = target_switches(fabric, lids);
    let gaps = missing_with(lfts, sources, &target);
    if gaps.is_empty() {
        return Escape::default();
    }
    let links = Links::new(fabric, lfts);
    let mut by_lid = gaps.clone();
    by_lid.sort_unstable_by_key(|&(s, lid)| (lid, s));
    let groups: Vec<&[(NodeId, u32)]> = by_lid.chunk_by(|a, b| a.1 == b.1).collect();
    let table = &*lfts;
    let mut is_source = vec![false; lfts.switches.len()];
    for &s in sources {
        if let Some(&r) = lfts.row_of.get(s as usize).filter(|&&r| r != u32::MAX) {
            is_source[r as usize] = true;
        }
    }
    let columns: Vec<Option<Column>> = groups
        .par_iter()
        .map(|g| column(fabric, table, &links, &is_source, target[g[0].1 as usize], g))
        .collect();
    // the escape VL's CDG, grown LID by LID (adjacency per channel)
    let mut cdg: Vec<Vec<u32>> = vec![Vec::new(); fabric.ports.len()];
    let mut stamp = vec![0u32; fabric.ports.len()];
    let mut round = 0u32;
    let mut out = Escape::default();
    for col in columns {
        let Some(col) = col else {
            continue; // no surviving path: the pairs stay unrouted as they were
        };
        let mut added: Vec<(u32, u32)> = Vec::new();
        let mut cyclic = false;
        for &(a, b) in &col.deps {
            if cdg[a as usize].contains(&b) {
                continue;
            }
            round += 1;
            if reaches(&cdg, b, a, &mut stamp, round) {
                cyclic = true;
                break;
            }
            cdg[a as usize].push(b);
            added.push((a, b));
        }
        if cyclic {
            for (a, b) in added {
                let v = &mut cdg[a as usize];
                if let Some(i) = v.iter().rposition(|&x| x == b) {
                    v.swap_remove(i);
                }
            }
            out.refused += col.served;
            continue;
        }
        for &(row, port) in &col.entries {
            lfts.ports[row as usize * lfts.stride + col.lid as usize] = port;
        }
        out.entries += col.entries.len() as u64;
        let to_switch = {
            let owner = lids.owner[col.lid as usize];
            fabric.node(fabric.ports[owner as usize].node).kind == NodeKind::Switch
        };
        let n = col.served;
        if to_switch {
            out.switch_pairs += n;
        } else {
            out.host_pairs += n;
        }
        out.pairs.extend(col.sources.iter().map(|&s| (s, col.lid)));
    }
    out.pairs.sort_unstable();
    out
}

/// Whether `to` is reachable from `from` in `g` (iterative depth-first search).
fn reaches(g: &[Vec<u32>], from: u32, to: u32, stamp: &mut [u32], round: u32) -> bool {
    let mut stack = vec![from];
    stamp[from as usize] = round;
    while let Some(x) = stack.pop() {
        if x == to {
            return true;
        }
        for &y in &g[x as usize] {
            if stamp[y as usize] != round {
                stamp[y as usize] = round;
                stack.push(y);
            }
        }
    }
    false
}

/// The escape of one LID whose delivering switch is `target`, for the sources `gaps`
/// (pairs of that LID) that have a surviving path to it; none when none has, or the
/// tables do not deliver the LID at `target`. A source row whose entry is rewritten on
/// another source's way (its own walk did not arrive either) is served too.
fn column(
    fabric: &Fabric,
    lfts: &LftSet,
    links: &Links,
    is_source: &[bool],
    target: NodeId,
    gaps: &[(NodeId, u32)],
) -> Option<Column> {
    let lid = gaps.first()?.1;
    const UNKNOWN: u32 = u32::MAX;
    const BAD: u32 = u32::MAX - 1;
    const WALKING: u32 = u32::MAX - 2;
    let rows = lfts.switches.len();
    let stride = lfts.stride;
    let entry = |row: u32| lfts.ports[row as usize * stride + lid as usize];
    let t = *lfts.row_of.get(target as usize).filter(|&&r| r != u32::MAX)?;
    let delivers = match entry(t) {
        0 => fabric.node(target).kind == NodeKind::Switch && lfts.switches[t as usize] == target,
        NO_ROUTE => false,
        p => links.next(t, p).is_none() && fabric.peer(target, p).is_some(),
    };
    if !delivers {
        return None;
    }
    // hops from every row to the LID on the tables as they are (good rows), else BAD
    let mut dist = vec![UNKNOWN; rows];
    dist[t as usize] = 0;
    let mut path = Vec::new();
    for start in 0..rows as u32 {
        let mut at = start;
        path.clear();
        let end = loop {
            match dist[at as usize] {
                WALKING => break BAD, // a loop
                UNKNOWN => {}
                d => break d,
            }
            dist[at as usize] = WALKING;
            path.push(at);
            match links.next(at, entry(at)) {
                Some(n) => at = n,
                None => break BAD,
            }
        };
        for (k, &r) in path.iter().rev().enumerate() {
            dist[r as usize] = if end == BAD { BAD } else { end + 1 + k as u32 };
        }
    }
    // nearest good switch for every other row: fewest hops to the LID in all
    let mut best: Vec<u32> = dist.iter().map(|&d| if d == BAD { u32::MAX } else { d }).collect();
    let mut via = vec![0u8; rows];
    let mut heap: BinaryHeap<Reverse<(u32, u32)>> = (0..rows as u32)
        .filter(|&r| dist[r as usize] != BAD)
        .map(|r| Reverse((best[r as usize], r)))
        .collect();
    while let Some(Reverse((d, u))) = heap.pop() {
        if d > best[u as usize] {
            continue;
        }
        for &(_, v, vport) in links.of(u) {
            if dist[v as usize] == BAD && d + 1 < best[v as usize] {
                best[v as usize] = d + 1;
                via[v as usize] = vport;
                heap.push(Reverse((d + 1, v)));
            }
        }
    }
    let mut entries = Vec::new();
    let mut set = vec![false; rows];
    let mut sources = Vec::with_capacity(gaps.len());
    let mut served = 0;
    for &(s, _) in gaps {
        let r = lfts.row_of[s as usize];
        if best[r as usize] == u32::MAX {
            continue; // no surviving path: stays unrouted
        }
        served += 1;
        sources.push(s);
        let mut at = r;
        while dist[at as usize] == BAD && !set[at as usize] {
            set[at as usize] = true;
            entries.push((at, via[at as usize]));
            if is_source[at as usize] && at != r {
                sources.push(lfts.switches[at as usize]);
            }
            at = links.next(at, via[at as usize])?;
        }
    }
    if sources.is_empty() {
        return None;
    }
    sources.sort_unstable();
    sources.dedup();
    // the dependencies of every source's path on the new tables
    let port_of = |row: u32| {
        if set[row as usize] {
            via[row as usize]
        } else {
            entry(row)
        }
    };
    let mut deps = Vec::new();
    for &s in &sources {
        let mut at = lfts.row_of[s as usize];
        let mut prev: Option<u32> = None;
        while at != t {
            let port = port_of(at);
            let ch = fabric.port_index(lfts.switches[at as usize], port);
            if let Some(p) = prev {
                deps.push((p, ch));
            }
            prev = Some(ch);
            at = links.next(at, port)?;
        }
        // the last hop, to a host: a channel nothing depends on further
        let last = entry(t);
        if last != 0 && last != NO_ROUTE {
            if let Some(p) = prev {
                deps.push((p, fabric.port_index(target, last)));
            }
        }
    }
    deps.sort_unstable();
    deps.dedup();
    entries.sort_unstable();
    Some(Column {
        lid,
        entries,
        sources,
        served,
        deps,
    })
}
