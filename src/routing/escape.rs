//! The escape lane: one SL and one VL of its own for the pairs a family's rule cannot
//! route, so that every pair the surviving cables connect is routed.
//!
//! A family's detour rule ([`super::lanes`], [`crate::families::tree::lanes`]) keeps its proof by
//! limiting what a route may do: how often it turns, and where. On fault sets far beyond
//! the usual (a leaf cut from most of its spines, a tree switch cut from most of its
//! parents) a few pairs have no path of that shape and their entries are left empty. The
//! escape lane serves exactly those, without touching any route the rule kept:
//!
//! * for each LID with an empty entry at some source, the switches whose walk on the
//!   tables reaches the LID ("good") keep their entries; every other switch gets a way
//!   towards the nearest good switch (fewest hops to the LID in all, Dijkstra over the
//!   surviving switch-to-switch cables from the good switches at their own distances).
//!   No kept route passes a switch that is not good (it would not arrive), so none
//!   changes;
//! * the sources whose entry was empty take [`ESCAPE_SL`] towards that LID, which every
//!   switch maps to the escape VL on every (input, output) port pair: such a path runs on
//!   the escape VL from its first switch to its last, and no other path uses that VL;
//! * the escape VL's channel dependency graph is grown path by path, LIDs in order and
//!   each LID's sources nearest first: a source's path is taken, and the entries on its
//!   way written, only when its dependencies keep that graph acyclic; otherwise its other
//!   cables are tried (shortest path first). A source none serves stays unrouted and is
//!   counted in [`Escape::refused`]; a way through it is then closed to the others.
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

/// (Source, LID) pairs of `sources` whose first entry is empty (no route, or port 0 at a
/// switch that is not the LID's), in source order then LID order.
pub fn missing(fabric: &Fabric, lids: &Lids, lfts: &LftSet, sources: &[NodeId]) -> Vec<(NodeId, u32)> {
    missing_with(lfts, sources, &lids.switch_of_each(fabric))
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
                (t != NO_PEER && t != s && (p == NO_ROUTE || p == 0)).then_some((s, lid as u32))
            })
        })
        .collect()
}

/// The surviving switch-to-switch cables of every row: (own port, neighbour row,
/// neighbour's port), in port order.
pub(crate) struct Links {
    start: Vec<u32>,
    link: Vec<(u8, u32, u8)>,
}

impl Links {
    pub(crate) fn new(fabric: &Fabric, lfts: &LftSet) -> Links {
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

    pub(crate) fn of(&self, row: u32) -> &[(u8, u32, u8)] {
        &self.link[self.start[row as usize] as usize..self.start[row as usize + 1] as usize]
    }

    /// The row behind `port` of `row`, if a switch.
    pub(crate) fn next(&self, row: u32, port: u8) -> Option<u32> {
        let l = self.of(row);
        l.binary_search_by_key(&port, |x| x.0).ok().map(|i| l[i].1)
    }
}

/// One LID's escape search: which switches already arrive, and the way the others go.
struct Column {
    lid: u32,
    /// The row delivering the LID.
    target: u32,
    /// Per row: its walk on the tables arrives (its entry is kept).
    good: Vec<bool>,
    /// Per row that does not arrive but has a surviving way: the port towards the nearest
    /// arriving switch (fewest hops to the LID in all); 0 where none.
    via: Vec<u8>,
    /// Per row: hops to the LID over the tables (arriving rows) or its way; `u32::MAX`
    /// where none.
    best: Vec<u32>,
    /// The gap sources with a way, nearest first (rows).
    sources: Vec<u32>,
}

/// The escape VL's channel dependency graph, grown path by path: a path is taken only
/// if its dependencies keep the graph acyclic.
struct Cdg {
    next: Vec<Vec<u32>>,
    stamp: Vec<u32>,
    round: u32,
}

impl Cdg {
    fn new(channels: usize) -> Cdg {
        Cdg {
            next: vec![Vec::new(); channels],
            stamp: vec![0; channels],
            round: 0,
        }
    }

    /// The CDG of the routes traffic takes on the tables: the walks from every switch a
    /// host hangs off towards every LID (a walk that does not arrive counts as far as it
    /// goes). Walks that start at switches alone (management traffic from a hostless
    /// switch: [`super::mgmt_fill`]) are left out, as the proof leaves them out.
    fn of_walks(fabric: &Fabric, lfts: &LftSet, links: &Links) -> Cdg {
        let mut cdg = Cdg::new(fabric.ports.len());
        let stride = lfts.stride;
        let hosted: Vec<u32> = (0..lfts.switches.len() as u32)
            .filter(|&r| {
                let sw = lfts.switches[r as usize];
                (1..=fabric.node(sw).nports).any(|p| {
                    fabric
                        .peer(sw, p)
                        .is_some_and(|(n, _)| fabric.node(n).kind != NodeKind::Switch)
                })
            })
            .collect();
        // walks towards one LID converge: a row met before has its way recorded, so every
        // entry is followed once per LID (and a loop ends where it closes)
        let mut seen = vec![0u32; lfts.switches.len()];
        for lid in 1..stride {
            for &r in &hosted {
                let (mut at, mut prev) = (r, None::<u32>);
                loop {
                    let p = lfts.ports[at as usize * stride + lid];
                    if p == 0 || p == NO_ROUTE {
                        break;
                    }
                    let ch = fabric.port_index(lfts.switches[at as usize], p);
                    if let Some(x) = prev {
                        let next = &mut cdg.next[x as usize];
                        if !next.contains(&ch) {
                            next.push(ch);
                        }
                    }
                    if seen[at as usize] == lid as u32 {
                        break;
                    }
                    seen[at as usize] = lid as u32;
                    prev = Some(ch);
                    match links.next(at, p) {
                        Some(n) => at = n,
                        None => break,
                    }
                }
            }
        }
        cdg
    }

    /// Add the dependencies `deps`, or none of them when one would close a cycle.
    fn try_add(&mut self, deps: &[(u32, u32)]) -> bool {
        let mut added: Vec<(u32, u32)> = Vec::new();
        for &(a, b) in deps {
            if self.next[a as usize].contains(&b) {
                continue;
            }
            self.round += 1;
            if self.reaches(b, a) {
                for (a, b) in added {
                    let v = &mut self.next[a as usize];
                    if let Some(i) = v.iter().rposition(|&x| x == b) {
                        v.swap_remove(i);
                    }
                }
                return false;
            }
            self.next[a as usize].push(b);
            added.push((a, b));
        }
        true
    }

    /// Whether `to` is reachable from `from` (iterative depth-first search).
    fn reaches(&mut self, from: u32, to: u32) -> bool {
        let mut stack = vec![from];
        self.stamp[from as usize] = self.round;
        while let Some(x) = stack.pop() {
            if x == to {
                return true;
            }
            for &y in &self.next[x as usize] {
                if self.stamp[y as usize] != self.round {
                    self.stamp[y as usize] = self.round;
                    stack.push(y);
                }
            }
        }
        false
    }
}

/// Route every source's empty entry (pairs of [`missing`]) on the escape lane, writing the
/// entries into `lfts` (module documentation). `sources` are the switches whose paths the
/// family counts (its leaves).
pub fn route(fabric: &Fabric, lids: &Lids, lfts: &mut LftSet, sources: &[NodeId]) -> Escape {
    route_with(fabric, lids, lfts, sources, Lane::Own)
}

/// Route the empty entries of `sources` on the one VL every route shares, where a subnet
/// offers no VL for the escape lane: the same search, but the CDG starts with the
/// dependencies of every route hosts' traffic takes, and a written entry adds those of the
/// routes that ran into it (they now go on). A taken path turns where up*/down* would
/// not, and the whole VL stays acyclic (docs/tree.md §2.3).
pub(crate) fn route_shared(fabric: &Fabric, lids: &Lids, lfts: &mut LftSet, sources: &[NodeId]) -> Escape {
    route_with(fabric, lids, lfts, sources, Lane::Shared)
}

/// Which VL escape paths take: their own, or the one all routes share.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lane {
    Own,
    Shared,
}

fn route_with(fabric: &Fabric, lids: &Lids, lfts: &mut LftSet, sources: &[NodeId], lane: Lane) -> Escape {
    let target = lids.switch_of_each(fabric);
    let mut by_lid = missing_with(lfts, sources, &target);
    if by_lid.is_empty() {
        return Escape::default();
    }
    let links = Links::new(fabric, lfts);
    by_lid.sort_unstable_by_key(|&(s, lid)| (lid, s));
    let groups: Vec<&[(NodeId, u32)]> = by_lid.chunk_by(|a, b| a.1 == b.1).collect();
    let mut is_source = vec![false; lfts.switches.len()];
    for &s in sources {
        if let Some(&r) = lfts.row_of.get(s as usize).filter(|&&r| r != u32::MAX) {
            is_source[r as usize] = true;
        }
    }
    let table = &*lfts;
    let columns: Vec<Option<Column>> = groups
        .par_iter()
        .map(|g| column(fabric, table, &links, target[g[0].1 as usize], g))
        .collect();
    let mut cdg = match lane {
        Lane::Own => Cdg::new(fabric.ports.len()),
        Lane::Shared => Cdg::of_walks(fabric, lfts, &links),
    };
    let mut out = Escape::default();
    for col in columns.into_iter().flatten() {
        let to_switch = {
            let owner = lids.owner[col.lid as usize];
            fabric.node(fabric.ports[owner as usize].node).kind == NodeKind::Switch
        };
        let (served, refused) = settle(fabric, lfts, (&links, lane), &col, &is_source, &mut cdg, &mut out);
        out.refused += refused;
        if to_switch {
            out.switch_pairs += served;
        } else {
            out.host_pairs += served;
        }
    }
    out.pairs.sort_unstable();
    out
}

/// Take one LID's sources, nearest first: a source's whole path (its way to the nearest
/// arriving switch, then that switch's route) is taken when its dependencies keep the
/// escape VL's CDG acyclic, and its entries are written; otherwise its other surviving
/// cables are tried, shortest path first. A source that none serves stays unrouted, and
/// a way through it is closed to the others. A switch on a taken way that is itself a
/// source (its own walk did not arrive) runs on the escape lane too. Returns (gap sources
/// served, refused).
fn settle(
    fabric: &Fabric,
    lfts: &mut LftSet,
    (links, lane): (&Links, Lane),
    col: &Column,
    is_source: &[bool],
    cdg: &mut Cdg,
    out: &mut Escape,
) -> (u64, u64) {
    let (stride, lid) = (lfts.stride, col.lid as usize);
    let mut state = vec![FREE; col.good.len()];
    // the port each row that does not arrive takes (its way, until a source takes another)
    let mut port_of = col.via.clone();
    let (mut served, mut refused) = (0, 0);
    let mut walk = Walk::default();
    for &s in &col.sources {
        if state[s as usize] == TAKEN {
            served += 1; // on an earlier source's way, its path taken with it
            continue;
        }
        // its own way first, then its other cables to switches that lead on
        let mut firsts: Vec<(u32, u8)> = vec![(0, col.via[s as usize])];
        for &(port, n, _) in links.of(s) {
            let reach = if col.good[n as usize] {
                col.best[n as usize]
            } else {
                col.best[n as usize].saturating_add(1)
            };
            if port != col.via[s as usize] && reach != u32::MAX && state[n as usize] != REFUSED {
                firsts.push((reach, port));
            }
        }
        firsts[1..].sort_unstable();
        let taken = firsts.iter().any(|&(_, first)| {
            port_of[s as usize] = first;
            if !walk.run((fabric, lfts, links), col, &port_of, &state, s) {
                return false;
            }
            if lane == Lane::Shared {
                walk.inflow((fabric, lfts, links), col.lid, &port_of);
            }
            cdg.try_add(&walk.deps)
        });
        if !taken {
            state[s as usize] = REFUSED;
            refused += 1;
            continue;
        }
        served += 1;
        for &r in &walk.rows {
            if state[r as usize] == FREE {
                state[r as usize] = TAKEN;
                lfts.ports[r as usize * stride + lid] = port_of[r as usize];
                out.entries += 1;
                if is_source[r as usize] {
                    out.pairs.push((lfts.switches[r as usize], col.lid));
                }
            }
        }
    }
    (served, refused)
}

/// A row's state while one LID's sources are settled.
const FREE: u8 = 0;
const TAKEN: u8 = 1;
const REFUSED: u8 = 2;

/// One source's path towards a LID, walked on the tables and the ways chosen so far.
#[derive(Default)]
struct Walk {
    /// (channel, next channel) dependencies, the last hop to a host included.
    deps: Vec<(u32, u32)>,
    /// The rows on it that do not arrive on the tables (their entries to write).
    rows: Vec<u32>,
}

impl Walk {
    /// Add the dependencies of the routes that run into the rows this walk writes: a
    /// switch whose entry for `lid` leads into such a row now goes on through it.
    fn inflow(&mut self, (fabric, lfts, links): (&Fabric, &LftSet, &Links), lid: u32, port_of: &[u8]) {
        let stride = lfts.stride;
        for &r in &self.rows {
            let out = fabric.port_index(lfts.switches[r as usize], port_of[r as usize]);
            for &(_, u, uport) in links.of(r) {
                if lfts.ports[u as usize * stride + lid as usize] == uport {
                    self.deps
                        .push((fabric.port_index(lfts.switches[u as usize], uport), out));
                }
            }
        }
    }

    /// Walk from row `s`: a row that arrives follows its entry, any other the port in
    /// `port_of`. False when the walk runs into a refused row, repeats a row, or does not
    /// arrive.
    fn run(
        &mut self,
        (fabric, lfts, links): (&Fabric, &LftSet, &Links),
        col: &Column,
        port_of: &[u8],
        state: &[u8],
        s: u32,
    ) -> bool {
        let (stride, lid) = (lfts.stride, col.lid as usize);
        self.deps.clear();
        self.rows.clear();
        let (mut at, mut prev) = (s, None::<u32>);
        while at != col.target {
            let port = if col.good[at as usize] {
                lfts.ports[at as usize * stride + lid]
            } else {
                if (state[at as usize] == REFUSED && at != s) || self.rows.contains(&at) {
                    return false;
                }
                self.rows.push(at);
                port_of[at as usize]
            };
            let ch = fabric.port_index(lfts.switches[at as usize], port);
            if let Some(p) = prev {
                self.deps.push((p, ch));
            }
            prev = Some(ch);
            match links.next(at, port) {
                Some(n) => at = n,
                None => return false,
            }
        }
        // the last hop, to a host: a channel nothing depends on further
        let last = lfts.ports[col.target as usize * stride + lid];
        if let (Some(p), false) = (prev, last == 0 || last == NO_ROUTE) {
            self.deps
                .push((p, fabric.port_index(lfts.switches[col.target as usize], last)));
        }
        true
    }
}

/// The escape search of one LID whose delivering switch is `target`, for the sources
/// `gaps` (pairs of that LID); none when no source has a surviving way, or the tables do
/// not deliver the LID at `target`.
fn column(fabric: &Fabric, lfts: &LftSet, links: &Links, target: NodeId, gaps: &[(NodeId, u32)]) -> Option<Column> {
    const UNKNOWN: u32 = u32::MAX;
    const BAD: u32 = u32::MAX - 1;
    const WALKING: u32 = u32::MAX - 2;
    let lid = gaps.first()?.1;
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
    // the nearest good switch for every other row: fewest hops to the LID in all; ties go
    // to the lower GUID, never to the order the switches were discovered in
    let guid = |r: u32| fabric.node(lfts.switches[r as usize]).guid;
    let mut best: Vec<u32> = dist.iter().map(|&d| if d == BAD { u32::MAX } else { d }).collect();
    let mut via = vec![0u8; rows];
    let mut heap: BinaryHeap<Reverse<(u32, u64, u32)>> = (0..rows as u32)
        .filter(|&r| dist[r as usize] != BAD)
        .map(|r| Reverse((best[r as usize], guid(r), r)))
        .collect();
    while let Some(Reverse((d, _, u))) = heap.pop() {
        if d > best[u as usize] {
            continue;
        }
        for &(_, v, vport) in links.of(u) {
            if dist[v as usize] == BAD && d + 1 < best[v as usize] {
                best[v as usize] = d + 1;
                via[v as usize] = vport;
                heap.push(Reverse((d + 1, guid(v), v)));
            }
        }
    }
    let mut sources: Vec<u32> = gaps
        .iter()
        .map(|&(s, _)| lfts.row_of[s as usize])
        .filter(|&r| best[r as usize] != u32::MAX)
        .collect();
    if sources.is_empty() {
        return None;
    }
    sources.sort_unstable_by_key(|&r| (best[r as usize], guid(r)));
    Some(Column {
        lid,
        target: t,
        good: dist.iter().map(|&d| d != BAD).collect(),
        via,
        best,
        sources,
    })
}
