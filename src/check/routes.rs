//! Route compilation for the conflict checker: every (entry switch, destination) route
//! walked once along the LFTs into a flat table of channel ids, kept per destination
//! switch where all its destinations are routed alike.

use super::conflicts::{CompiledRoutes, RouteFault, FAULT_BASE, NO_LINK};
use crate::routing::lids::Lids;
use crate::routing::{LftSet, NO_ROUTE};
use crate::topology::{Endpoint, Fabric, NodeKind, NO_PEER};
use crate::{Error, Result};
use rayon::prelude::*;

/// The routes from one entry switch: channels packed, start of each column's, longest.
type RouteLists = (Vec<u32>, Vec<u32>, usize);

/// What lies behind every port of every switch row, flattened once so that a route walk
/// reads one small table per hop instead of the fabric's node and port records.
struct Hops {
    /// `start[row]`: offset of the row's port 0 in `next` and `channel`; `start[row + 1]`
    /// bounds its ports
    start: Vec<u32>,
    /// The row of the switch behind the port, `HOST | port index` of a CA or router port,
    /// or `GONE` (no cable, or port 0)
    next: Vec<u32>,
    /// The port's channel id (switch-to-switch cables), else `NO_LINK`
    channel: Vec<u32>,
}

const HOST: u32 = 1 << 31;
const GONE: u32 = u32::MAX;

impl Hops {
    fn new(fabric: &Fabric, lfts: &LftSet, channel_of: &[u32]) -> Hops {
        let mut start = Vec::with_capacity(lfts.switches.len() + 1);
        let (mut next, mut channel) = (Vec::new(), Vec::new());
        for &sw in &lfts.switches {
            start.push(next.len() as u32);
            for port in 0..=fabric.node(sw).nports {
                let out = fabric.port_index(sw, port) as usize;
                let peer = fabric.ports[out].peer;
                let to = if port == 0 || peer == NO_PEER {
                    GONE
                } else {
                    let pn = fabric.ports[peer as usize].node;
                    match fabric.node(pn).kind {
                        NodeKind::Switch => lfts.row_of[pn as usize],
                        _ if peer < HOST => HOST | peer,
                        _ => GONE,
                    }
                };
                next.push(to);
                channel.push(channel_of[out]);
            }
        }
        start.push(next.len() as u32);
        Hops { start, next, channel }
    }

    /// The hop out of `row` at `port`: `(next, channel)`, `None` for a port the switch
    /// does not have.
    #[inline]
    fn at(&self, row: usize, port: u8) -> Option<(u32, u32)> {
        let i = self.start[row] as usize + port as usize;
        (i < self.start[row + 1] as usize).then(|| (self.next[i], self.channel[i]))
    }
}

/// The code a route fault is stored as in a route's first slot.
pub(super) fn fault_code(f: RouteFault) -> u32 {
    FAULT_BASE
        + match f {
            RouteFault::BlackHole => 1,
            RouteFault::Loop => 2,
            RouteFault::Misdelivered => 3,
        }
}

/// Walk the route from switch row `row0` toward the host port `dest` (global port index),
/// reading each switch's entry for the destination with `port_at(row)`: 0 and the
/// channels in `buf` when it delivers, else the fault's code. A route longer than the
/// switch count loops.
fn walk_route(hops: &Hops, nsw: usize, row0: u32, dest: u32, buf: &mut Vec<u32>, port_at: impl Fn(usize) -> u8) -> u32 {
    buf.clear();
    let mut row = row0 as usize;
    for _ in 0..=nsw {
        let port = port_at(row);
        if port == 0 {
            return fault_code(RouteFault::Misdelivered);
        }
        let Some((next, channel)) = hops.at(row, port).filter(|_| port != NO_ROUTE) else {
            return fault_code(RouteFault::BlackHole);
        };
        if next == GONE {
            return fault_code(RouteFault::BlackHole);
        }
        if next & HOST != 0 {
            return if next & !HOST == dest {
                0
            } else {
                fault_code(RouteFault::Misdelivered)
            };
        }
        buf.push(channel);
        row = next as usize;
    }
    fault_code(RouteFault::Loop)
}

impl CompiledRoutes {
    /// Compile the routes between `hosts` (the ranks) for LID offset `lid_offset`.
    pub fn compile(
        fabric: &Fabric,
        lids: &Lids,
        lfts: &LftSet,
        hosts: &[Endpoint],
        lid_offset: u16,
    ) -> Result<CompiledRoutes> {
        let ranks = hosts.len();
        check_job(ranks, lids, lid_offset)?;
        let (channel_of, channel_port) = channel_ids(fabric);
        let ends = Ends::of(fabric, lids, lfts, hosts, lid_offset)?;
        let c = Compiler {
            lfts,
            hops: Hops::new(fabric, lfts, &channel_of),
            nsw: lfts.switches.len(),
            ends: &ends,
        };
        let (lists, cols, col_of) = match c.per_switch() {
            Some(l) => (l, ends.entry_row.len(), ends.entry_of.clone()),
            None => (c.per_destination(), ranks, (0..ranks as u32).collect()),
        };
        Self::pack(ranks, ends.entry_of, cols, col_of, &lists, channel_port)
    }

    /// Pack per-entry route lists (`flat`, `start` per column, width) at the longest width.
    fn pack(
        ranks: usize,
        entry_of: Vec<u32>,
        cols: usize,
        col_of: Vec<u32>,
        lists: &[RouteLists],
        channel_port: Vec<u32>,
    ) -> Result<CompiledRoutes> {
        let width = lists.iter().map(|l| l.2).max().unwrap_or(1);
        let mut slots = vec![NO_LINK; lists.len() * cols * width];
        slots
            .par_chunks_mut(cols * width)
            .zip(lists.par_iter())
            .for_each(|(out, (flat, start, _))| {
                for d in 0..cols {
                    let route = &flat[start[d] as usize..start[d + 1] as usize];
                    out[d * width..d * width + route.len()].copy_from_slice(route);
                }
            });
        Ok(CompiledRoutes {
            ranks,
            width,
            entry_of,
            cols,
            col_of,
            slots,
            channel_port,
        })
    }

    /// Number of channels.
    pub(crate) fn channels(&self) -> usize {
        self.channel_port.len()
    }

    /// The channels of the route from rank `src` to rank `dst` (empty between the hosts of
    /// one switch), or `None` when it does not deliver.
    pub(crate) fn route(&self, src: usize, dst: usize) -> Option<&[u32]> {
        let idx = (self.entry_of[src] as usize * self.cols + self.col_of[dst] as usize) * self.width;
        let slots = &self.slots[idx..idx + self.width];
        if slots[0] >= FAULT_BASE && slots[0] != NO_LINK {
            return None;
        }
        let len = slots.iter().position(|&c| c == NO_LINK).unwrap_or(self.width);
        Some(&slots[..len])
    }
}

/// Refuse a job the checker cannot index (more ranks than a u16 holds) or a LID offset
/// the LMC does not give.
fn check_job(ranks: usize, lids: &Lids, lid_offset: u16) -> Result<()> {
    if ranks > u16::MAX as usize {
        return Err(Error::input(
            "job",
            format!("{ranks} ranks: the checker handles up to {}", u16::MAX),
            None,
        ));
    }
    if lid_offset as u32 >= 1 << lids.lmc {
        return Err(Error::input(
            "lid_offset",
            format!(
                "LID offset {lid_offset} needs LMC >= 1 (the LIDs have LMC {})",
                lids.lmc
            ),
            None,
        ));
    }
    Ok(())
}

/// Dense channel ids for the switch-to-switch cable ends: the id of every global port
/// (`NO_LINK` elsewhere) and the port of every id.
fn channel_ids(fabric: &Fabric) -> (Vec<u32>, Vec<u32>) {
    let mut channel_of = vec![NO_LINK; fabric.ports.len()];
    let mut channel_port = Vec::new();
    for (i, p) in fabric.ports.iter().enumerate() {
        if p.peer != NO_PEER
            && fabric.node(p.node).kind == NodeKind::Switch
            && fabric.node(fabric.ports[p.peer as usize].node).kind == NodeKind::Switch
        {
            channel_of[i] = channel_port.len() as u32;
            channel_port.push(i as u32);
        }
    }
    (channel_of, channel_port)
}

/// Where every rank enters the fabric and how it is addressed.
struct Ends {
    /// Table row of each entry switch (a switch with ranks), in order of first rank.
    entry_row: Vec<u32>,
    /// Entry switch (index into `entry_row`) of each rank.
    entry_of: Vec<u32>,
    /// Destination LID (with the offset) and global port of each rank.
    dest_lid: Vec<u16>,
    dest_port: Vec<u32>,
}

impl Ends {
    /// The ends of `hosts`; refuses a rank that is a switch, is not cabled to a switch or
    /// has no LID.
    fn of(fabric: &Fabric, lids: &Lids, lfts: &LftSet, hosts: &[Endpoint], lid_offset: u16) -> Result<Ends> {
        let ranks = hosts.len();
        let mut entry_of_row = vec![u32::MAX; lfts.switches.len()];
        let mut e = Ends {
            entry_row: Vec::new(),
            entry_of: Vec::with_capacity(ranks),
            dest_lid: Vec::with_capacity(ranks),
            dest_port: Vec::with_capacity(ranks),
        };
        for (r, ep) in hosts.iter().enumerate() {
            let node = fabric.node(ep.node);
            if node.kind == NodeKind::Switch {
                return Err(Error::input(
                    "job",
                    format!("rank {r}: '{}' is a switch, not a host", node.desc),
                    None,
                ));
            }
            let Some((sw, _)) = fabric.peer(ep.node, ep.port) else {
                return Err(Error::input(
                    "job",
                    format!("rank {r}: '{}' port {} is not cabled", node.desc, ep.port),
                    None,
                ));
            };
            let row = lfts.row_of.get(sw as usize).copied().unwrap_or(u32::MAX);
            if row == u32::MAX {
                return Err(Error::input(
                    "job",
                    format!("rank {r}: '{}' is not cabled to a switch", node.desc),
                    None,
                ));
            }
            if entry_of_row[row as usize] == u32::MAX {
                entry_of_row[row as usize] = e.entry_row.len() as u32;
                e.entry_row.push(row);
            }
            e.entry_of.push(entry_of_row[row as usize]);
            let pidx = fabric.port_index(ep.node, ep.port);
            let base = lids.base[pidx as usize];
            if base == 0 {
                return Err(Error::input(
                    "job",
                    format!("rank {r}: '{}' has no LID", node.desc),
                    None,
                ));
            }
            e.dest_lid.push(base + lid_offset);
            e.dest_port.push(pidx);
        }
        Ok(e)
    }
}

/// One walk per route (from `row` to each of `cols` destinations) into variable-length
/// lists.
fn lists_for(row: u32, cols: usize, walk: &dyn Fn(u32, usize, &mut Vec<u32>) -> u32) -> RouteLists {
    let mut buf = Vec::new();
    let mut flat = Vec::with_capacity(cols * 3);
    let mut start = Vec::with_capacity(cols + 1);
    let mut width = 1;
    for k in 0..cols {
        start.push(flat.len() as u32);
        let f = walk(row, k, &mut buf);
        if f != 0 {
            flat.push(f);
        } else {
            width = width.max(buf.len());
            flat.extend_from_slice(&buf);
        }
    }
    start.push(flat.len() as u32);
    (flat, start, width)
}

/// What the route walks share: the tables, the hops behind every port and the ends.
struct Compiler<'a> {
    lfts: &'a LftSet,
    hops: Hops,
    /// Switch count: a route longer than it loops.
    nsw: usize,
    ends: &'a Ends,
}

/// Per destination switch (group of ranks), every switch's entry toward its first
/// destination and whether it has that entry for the others too:
/// `first[row * groups + g]`, `same[...]`.
struct GroupEntries {
    members: Vec<Vec<usize>>,
    first: Vec<u8>,
    same: Vec<bool>,
}

impl Compiler<'_> {
    /// Switch `row`'s entry toward rank `d`.
    #[inline]
    fn entry(&self, row: usize, d: usize) -> u8 {
        let lid = self.ends.dest_lid[d] as usize;
        if lid < self.lfts.stride {
            self.lfts.ports[row * self.lfts.stride + lid]
        } else {
            NO_ROUTE
        }
    }

    /// The routes kept per destination switch, when every destination on a switch has
    /// the same route from every entry switch (LSFT: the route depends on the leaves
    /// only): entries² instead of entries × ranks routes (9 MB instead of 300 MB on
    /// LSFT(32)), small enough to stay in cache whatever order a pattern's flows take.
    /// That holds when the switch delivers each of its destinations to its own port and
    /// every other switch a route toward the first of them passes has the same entry for
    /// all of them: every walk toward them is then the same until it ends there.
    fn per_switch(&self) -> Option<Vec<RouteLists>> {
        let ge = self.group_entries();
        let uniform = ge
            .members
            .par_iter()
            .enumerate()
            .all(|(g, m)| self.group_uniform(&ge, g, m));
        let groups = ge.members.len();
        let (nsw, hops, dest_port) = (self.nsw, &self.hops, &self.ends.dest_port);
        uniform.then(|| {
            let walk = |row: u32, g: usize, buf: &mut Vec<u32>| {
                walk_route(hops, nsw, row, dest_port[ge.members[g][0]], buf, |r| {
                    ge.first[r * groups + g]
                })
            };
            self.ends
                .entry_row
                .par_iter()
                .map(|&row| lists_for(row, groups, &walk))
                .collect()
        })
    }

    /// Every route walked to every destination rank.
    fn per_destination(&self) -> Vec<RouteLists> {
        let ranks = self.ends.entry_of.len();
        let (nsw, hops, dest_port) = (self.nsw, &self.hops, &self.ends.dest_port);
        let walk = |row: u32, d: usize, buf: &mut Vec<u32>| {
            walk_route(hops, nsw, row, dest_port[d], buf, |r| self.entry(r, d))
        };
        self.ends
            .entry_row
            .par_iter()
            .map(|&row| lists_for(row, ranks, &walk))
            .collect()
    }

    /// The ranks of every entry switch and every switch's entries toward them, gathered
    /// table by table (each read in LID order, not one cache line per entry as walks on
    /// the 78 MB of LSFT(32)'s tables do; 2.2 MB each there). The group checks read only
    /// these.
    fn group_entries(&self) -> GroupEntries {
        let (lfts, dest_lid, nsw) = (self.lfts, &self.ends.dest_lid, self.nsw);
        let groups = self.ends.entry_row.len();
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); groups];
        for (d, &g) in self.ends.entry_of.iter().enumerate() {
            members[g as usize].push(d);
        }
        let runs: Vec<Option<(usize, usize)>> = members
            .iter()
            .map(|m| {
                let lo = dest_lid[m[0]] as usize;
                let consecutive = m.iter().enumerate().all(|(i, &d)| dest_lid[d] as usize == lo + i);
                (consecutive && lo + m.len() <= lfts.stride).then_some((lo, lo + m.len()))
            })
            .collect();
        let mut first = vec![NO_ROUTE; nsw * groups];
        let mut same = vec![false; nsw * groups];
        first
            .par_chunks_mut(groups.max(1))
            .zip(same.par_chunks_mut(groups.max(1)))
            .enumerate()
            .for_each(|(row, (first, same))| {
                let table = lfts.row(row);
                for (g, m) in members.iter().enumerate() {
                    let e = self.entry(row, m[0]);
                    first[g] = e;
                    same[g] = match runs[g] {
                        // or-folded, not `all`: no early exit, so it runs in vector steps
                        Some((lo, hi)) => table[lo..hi].iter().fold(0, |acc, &x| acc | (x ^ e)) == 0,
                        None => m[1..].iter().all(|&d| self.entry(row, d) == e),
                    };
                }
            });
        GroupEntries { members, first, same }
    }

    /// Whether group `g` (ranks `m`) is routed alike: its switch delivers each to its own
    /// port, and every switch a route toward `m[0]` passes has one entry for them all.
    fn group_uniform(&self, ge: &GroupEntries, g: usize, m: &[usize]) -> bool {
        let (hops, nsw, groups) = (&self.hops, self.nsw, ge.members.len());
        let home = self.ends.entry_row[g] as usize;
        let delivers = m.iter().all(|&d| {
            let port = self.entry(home, d);
            port != 0
                && port != NO_ROUTE
                && hops
                    .at(home, port)
                    .is_some_and(|(next, _)| next & HOST != 0 && next != GONE && next & !HOST == self.ends.dest_port[d])
        });
        if !delivers {
            return false;
        }
        // the switches routes toward m[0] pass: each walk stops where an earlier one went
        // on, so this reads each switch's entry once
        let mut passed = vec![false; nsw];
        let mut rows = Vec::new();
        for &start in &self.ends.entry_row {
            let mut row = start as usize;
            for _ in 0..=nsw {
                if std::mem::replace(&mut passed[row], true) {
                    break;
                }
                rows.push(row);
                let port = ge.first[row * groups + g];
                if row == home || port == 0 || port == NO_ROUTE {
                    break;
                }
                match hops.at(row, port) {
                    Some((next, _)) if next & HOST == 0 => row = next as usize,
                    _ => break,
                }
            }
        }
        rows.iter().filter(|&&r| r != home).all(|&r| ge.same[r * groups + g])
    }
}
