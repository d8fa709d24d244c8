//! The phase-by-phase link-conflict checker.
//!
//! Every flow of every phase is routed along the LFTs; flows are counted per directed
//! switch-to-switch link; a flow's congestion c is the largest count on its path and its
//! throughput 1/c; the throughput ratio of a pattern is the mean throughput over all flows
//! of all phases (self-flows excluded, unrouted flows count 0). 1.0 means conflict-free.
//!
//! Host links are not counted: in a partial permutation (checked for every phase) each
//! host sends and receives at most one flow, so its two links never carry two.
//!
//! Speed: routes are compiled once — LFT routing is destination based, so the path of a
//! flow depends only on the switch its source is cabled to and on the destination LID —
//! into a flat table of link ids. A phase is then three sequential passes over flat
//! arrays (count, take maxima, reset), phases run in parallel, and a pattern is generated
//! phase by phase, never materialised (LSFT(31) has about a billion flows).

use crate::routing::lids::Lids;
use crate::routing::{LftSet, NO_ROUTE};
use crate::topology::{Endpoint, Fabric, NodeKind, NO_PEER};
use crate::{Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::schedule::{Pattern, IDLE};
const NO_LINK: u32 = u32::MAX;

/// Why a route does not deliver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RouteFault {
    /// An LFT entry is 255, a port is out of range or not cabled.
    BlackHole,
    /// The route comes back to a switch it already passed.
    Loop,
    /// Delivered to another node than the destination.
    Misdelivered,
}

/// Routes of every (source switch, destination rank) pair as channel ids.
///
/// Channels are the directed switch-to-switch links, numbered densely so the per-phase
/// counters stay in cache. A route that does not deliver has a fault code in its first
/// slot instead of a channel.
pub struct CompiledRoutes {
    ranks: usize,
    /// slots per route (the longest route's switch-to-switch links, at least 1)
    width: usize,
    /// entry index of each rank's switch
    entry_of: Vec<u32>,
    /// columns of the table: `ranks`, or the number of entry switches when routes are
    /// kept per destination switch
    cols: usize,
    /// column of each destination rank: the rank itself, or the entry index of its switch
    col_of: Vec<u32>,
    /// `slots[(entry * cols + col_of[dest]) * width + k]`: channel, `NO_LINK` padding, or
    /// a fault
    slots: Vec<u32>,
    /// global port index of the sending end of each channel
    channel_port: Vec<u32>,
}

const FAULT_BASE: u32 = u32::MAX - 16;

/// The routes from one entry switch: channels packed, start of each column's, longest.
type RouteLists = (Vec<u32>, Vec<u32>, usize);

fn fault_code(f: RouteFault) -> u32 {
    FAULT_BASE
        + match f {
            RouteFault::BlackHole => 1,
            RouteFault::Loop => 2,
            RouteFault::Misdelivered => 3,
        }
}

fn fault_of(code: u32) -> Option<RouteFault> {
    match code.wrapping_sub(FAULT_BASE) {
        1 => Some(RouteFault::BlackHole),
        2 => Some(RouteFault::Loop),
        3 => Some(RouteFault::Misdelivered),
        _ => None,
    }
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
        // dense channel ids
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
        let mut entry_row: Vec<u32> = Vec::new();
        let mut entry_of_row = vec![u32::MAX; lfts.switches.len()];
        let mut entry_of = Vec::with_capacity(ranks);
        let mut dest_lid = Vec::with_capacity(ranks);
        let mut dest_port = Vec::with_capacity(ranks);
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
                entry_of_row[row as usize] = entry_row.len() as u32;
                entry_row.push(row);
            }
            entry_of.push(entry_of_row[row as usize]);
            let pidx = fabric.port_index(ep.node, ep.port);
            let base = lids.base[pidx as usize];
            if base == 0 {
                return Err(Error::input(
                    "job",
                    format!("rank {r}: '{}' has no LID", node.desc),
                    None,
                ));
            }
            dest_lid.push(base + lid_offset);
            dest_port.push(pidx);
        }
        // walk every (entry, dest) once; a route longer than the switch count loops
        let nsw = lfts.switches.len();
        let walk = |row0: u32, d: usize, buf: &mut Vec<u32>| -> u32 {
            buf.clear();
            let lid = dest_lid[d] as usize;
            let mut row = row0 as usize;
            for _ in 0..=nsw {
                let sw = lfts.switches[row];
                let port = if lid < lfts.stride {
                    lfts.ports[row * lfts.stride + lid]
                } else {
                    NO_ROUTE
                };
                if port == NO_ROUTE || port == 0 || port > fabric.node(sw).nports {
                    return if port == 0 {
                        fault_code(RouteFault::Misdelivered)
                    } else {
                        fault_code(RouteFault::BlackHole)
                    };
                }
                let out = fabric.port_index(sw, port);
                let peer = fabric.ports[out as usize].peer;
                if peer == NO_PEER {
                    return fault_code(RouteFault::BlackHole);
                }
                let pn = fabric.ports[peer as usize].node;
                if fabric.node(pn).kind != NodeKind::Switch {
                    return if peer == dest_port[d] {
                        0
                    } else {
                        fault_code(RouteFault::Misdelivered)
                    };
                }
                buf.push(channel_of[out as usize]);
                row = lfts.row_of[pn as usize] as usize;
            }
            fault_code(RouteFault::Loop)
        };
        // one walk per route into variable-length lists
        let lists_of = |row: u32| {
            let mut buf = Vec::new();
            let mut flat = Vec::with_capacity(ranks * 3);
            let mut start = Vec::with_capacity(ranks + 1);
            let mut width = 1;
            for d in 0..ranks {
                start.push(flat.len() as u32);
                let f = walk(row, d, &mut buf);
                if f != 0 {
                    flat.push(f);
                } else {
                    width = width.max(buf.len());
                    flat.extend_from_slice(&buf);
                }
            }
            start.push(flat.len() as u32);
            (flat, start, width)
        };
        // Where every destination on a switch has the same route from every entry switch
        // (LSFT: the route depends on the leaves only), the table is kept per destination
        // switch: entries² instead of entries × ranks routes (9 MB instead of 300 MB on
        // LSFT(32)), small enough to stay in cache whatever order a pattern's flows take.
        // That holds when the switch delivers each of its destinations to its own port and
        // every other switch a route toward the first of them passes has the same entry
        // for all of them: every walk toward them is then the same until it ends there.
        let groups = entry_row.len();
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); groups];
        for (d, &g) in entry_of.iter().enumerate() {
            members[g as usize].push(d);
        }
        let entry = |row: usize, d: usize| {
            let lid = dest_lid[d] as usize;
            if lid < lfts.stride {
                lfts.ports[row * lfts.stride + lid]
            } else {
                NO_ROUTE
            }
        };
        let uniform = members.par_iter().enumerate().all(|(g, m)| {
            let home = entry_row[g] as usize;
            let sw = lfts.switches[home];
            let delivers = m.iter().all(|&d| {
                let port = entry(home, d);
                port != 0
                    && port != NO_ROUTE
                    && port <= fabric.node(sw).nports
                    && fabric.ports[fabric.port_index(sw, port) as usize].peer == dest_port[d]
            });
            if !delivers {
                return false;
            }
            // the switches routes toward m[0] pass
            let mut passed = vec![false; nsw];
            let mut rows = Vec::new();
            for &start in &entry_row {
                let mut row = start as usize;
                for _ in 0..=nsw {
                    if std::mem::replace(&mut passed[row], true) {
                        break;
                    }
                    rows.push(row);
                    let port = entry(row, m[0]);
                    let sw = lfts.switches[row];
                    if row == home || port == 0 || port == NO_ROUTE || port > fabric.node(sw).nports {
                        break;
                    }
                    let peer = fabric.ports[fabric.port_index(sw, port) as usize].peer;
                    if peer == NO_PEER {
                        break;
                    }
                    let pn = fabric.ports[peer as usize].node;
                    if fabric.node(pn).kind != NodeKind::Switch {
                        break;
                    }
                    row = lfts.row_of[pn as usize] as usize;
                }
            }
            rows.iter()
                .filter(|&&r| r != home)
                .all(|&r| m.iter().all(|&d| entry(r, d) == entry(r, m[0])))
        });
        let per_switch: Option<Vec<RouteLists>> = uniform.then(|| {
            entry_row
                .par_iter()
                .map(|&row| {
                    let mut buf = Vec::new();
                    let mut flat = Vec::with_capacity(groups * 3);
                    let mut start = Vec::with_capacity(groups + 1);
                    let mut width = 1;
                    for m in &members {
                        start.push(flat.len() as u32);
                        let f = walk(row, m[0], &mut buf);
                        if f != 0 {
                            flat.push(f);
                        } else {
                            width = width.max(buf.len());
                            flat.extend_from_slice(&buf);
                        }
                    }
                    start.push(flat.len() as u32);
                    (flat, start, width)
                })
                .collect()
        });
        let (lists, cols, col_of) = match per_switch {
            Some(l) => (l, groups, entry_of.clone()),
            None => (
                entry_row.par_iter().map(|&row| lists_of(row)).collect(),
                ranks,
                (0..ranks as u32).collect(),
            ),
        };
        Self::pack(ranks, entry_of, cols, col_of, &lists, channel_port)
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
    pub fn channels(&self) -> usize {
        self.channel_port.len()
    }
}

/// One of the worst phases.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PhaseSummary {
    /// The phase's index in the pattern (0-based).
    pub phase: usize,
    /// Flows in the phase (idle ranks and self-flows excluded).
    pub flows: u64,
    /// Mean over the phase's flows of 1/c, c the most flows sharing a link of its route.
    pub throughput_ratio: f64,
    /// Most flows sharing one directed link in this phase.
    pub max_congestion: u32,
}

/// Load of one directed link over the checked phases.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LinkLoad {
    /// `switch:port -> switch` by node description.
    pub link: String,
    /// Port GUID and port number of the sending end.
    pub from_guid: String,
    /// Port number of the sending end on its switch.
    pub from_port: u8,
    /// Largest number of flows the link carried in one phase.
    pub max_flows: u32,
    /// Flows carried over all checked phases.
    pub total_flows: u64,
}

/// A flow that does not arrive.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct UnroutedFlow {
    /// The phase the flow belongs to.
    pub phase: usize,
    /// Rank of the sender in the pattern's rank order.
    pub source_rank: u32,
    /// Rank of the receiver.
    pub dest_rank: u32,
    /// The sending host port, by description and GUID.
    pub source: String,
    /// The receiving host port, by description and GUID.
    pub destination: String,
    /// Why the route does not deliver.
    pub fault: RouteFault,
    /// The switch the route starts at.
    pub at_switch: String,
}

/// The checker's report to users (`ibfat check --json`). Shards of a check are exchanged
/// as [`super::shard::CheckShard`], not as this type, and merge into it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CheckReport {
    /// The pattern's name (`shift`, `lsft`, a schedule file's pattern ...).
    pub pattern: String,
    /// Ranks (hosts) the pattern runs on.
    pub ranks: usize,
    /// Phases of the whole pattern, and the range checked (a shard checks part of them).
    pub phases: usize,
    /// The checked phases as a half-open range `[start, end)`.
    pub phase_range: (usize, usize),
    /// Phases actually checked (all of them unless sharded).
    pub phases_checked: usize,
    /// True for a merge of an incomplete shard set (`check merge --allow-partial`): the
    /// figures cover only `phases_checked` phases and prove nothing about the others.
    #[serde(default)]
    pub partial: bool,
    /// Flows checked (self-flows excluded).
    pub flows: u64,
    /// Flows whose route does not deliver (black hole, loop, misdelivery).
    pub unrouted_flows: u64,
    /// Mean over routed flows of 1/c, c the most flows sharing a link of the flow's route
    /// in its phase: 1.0 means conflict-free, the time of an ideal phase over the real one.
    pub throughput_ratio: f64,
    /// Most flows sharing one directed link in any checked phase.
    pub max_congestion: u32,
    /// `histogram[c]` = flows whose congestion is c (index 0 unused; unrouted not included).
    pub histogram: Vec<u64>,
    /// The phases with the lowest throughput ratio, worst first.
    pub worst_phases: Vec<PhaseSummary>,
    /// The links with the highest per-phase load (then total), worst first.
    pub worst_links: Vec<LinkLoad>,
    /// The first unrouted flows, to show what is broken.
    pub unrouted_examples: Vec<UnroutedFlow>,
    /// Sum of 1/c over flows, computed from the histogram so that it does not depend on
    /// the order flows were added in (a merge of shards gives the same bits).
    pub sum_throughput: f64,
    /// Every link that carried a flow, by port GUID and number. The library always fills
    /// it (heat maps, shards); the CLI prints it only with `--links`, since it is nearly
    /// all of a report's lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub link_loads: Vec<LinkLoad>,
}

impl CheckReport {
    /// A report from the exact counts of a check or of merged shards: the ratio, the
    /// largest congestion and the worst links are derived here, one way for both.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_counts(
        pattern: String,
        ranks: usize,
        phases: usize,
        phase_range: (usize, usize),
        phases_checked: usize,
        (flows, unrouted_flows): (u64, u64),
        histogram: Vec<u64>,
        mut worst_phases: Vec<PhaseSummary>,
        mut unrouted_examples: Vec<UnroutedFlow>,
        mut link_loads: Vec<LinkLoad>,
    ) -> CheckReport {
        keep_worst(&mut worst_phases);
        unrouted_examples.sort_by_key(|u| (u.phase, u.source_rank));
        unrouted_examples.truncate(TOP);
        link_loads.sort_by(|a, b| (&a.from_guid, a.from_port).cmp(&(&b.from_guid, b.from_port)));
        // 1/c summed per congestion class, in class order: exact inputs, fixed order
        let sum: f64 = histogram
            .iter()
            .enumerate()
            .skip(1)
            .map(|(c, &n)| n as f64 / c as f64)
            .sum();
        let mut r = CheckReport {
            pattern,
            ranks,
            phases,
            phase_range,
            phases_checked,
            partial: false,
            flows,
            unrouted_flows,
            throughput_ratio: if flows > 0 { sum / flows as f64 } else { 1.0 },
            max_congestion: 0, // set by trim_histogram
            histogram,
            worst_phases,
            worst_links: worst_links(&link_loads),
            unrouted_examples,
            sum_throughput: sum,
            link_loads,
        };
        trim_histogram(&mut r);
        r
    }
}

/// How many worst phases / links / unrouted examples a report lists.
pub const TOP: usize = 10;

struct Acc {
    cnt: Vec<u16>,
    /// the channels of this phase's routed flows, packed (pass 2 reads them from here)
    flow_ch: Vec<u32>,
    touched: Vec<u32>,
    link_max: Vec<u32>,
    link_sum: Vec<u64>,
    dest: Vec<u32>,
    recv: Vec<u32>,
    hist: Vec<u64>,
    flows: u64,
    unrouted: u64,
    worst: Vec<PhaseSummary>,
    unrouted_examples: Vec<(usize, u32, u32, u32)>,
    error: Option<String>,
}

impl Acc {
    fn new(nlinks: usize, ranks: usize) -> Acc {
        Acc {
            cnt: vec![0; nlinks],
            flow_ch: Vec::new(),
            touched: Vec::new(),
            link_max: vec![0; nlinks],
            link_sum: vec![0; nlinks],
            dest: vec![0; ranks],
            recv: vec![u32::MAX; ranks],
            hist: vec![0; ranks + 2],
            flows: 0,
            unrouted: 0,
            worst: Vec::new(),
            unrouted_examples: Vec::new(),
            error: None,
        }
    }

    fn merge(mut self, o: Acc) -> Acc {
        for (a, b) in self.link_max.iter_mut().zip(&o.link_max) {
            *a = (*a).max(*b);
        }
        for (a, b) in self.link_sum.iter_mut().zip(&o.link_sum) {
            *a += *b;
        }
        if self.hist.len() < o.hist.len() {
            self.hist.resize(o.hist.len(), 0);
        }
        for (a, b) in self.hist.iter_mut().zip(&o.hist) {
            *a += *b;
        }
        self.flows += o.flows;
        self.unrouted += o.unrouted;
        self.worst.extend(o.worst);
        keep_worst(&mut self.worst);
        self.unrouted_examples.extend(o.unrouted_examples);
        self.unrouted_examples.sort_unstable();
        self.unrouted_examples.truncate(TOP);
        self.error = self.error.or(o.error);
        self
    }
}

fn keep_worst(v: &mut Vec<PhaseSummary>) {
    v.sort_by(|a, b| {
        a.throughput_ratio
            .total_cmp(&b.throughput_ratio)
            .then(b.max_congestion.cmp(&a.max_congestion))
            .then(a.phase.cmp(&b.phase))
    });
    v.truncate(TOP);
}

/// Check phases `range` of `pattern` on the compiled routes. `tick` is called after every
/// phase (progress bars).
pub fn check<P: Pattern + ?Sized>(
    fabric: &Fabric,
    hosts: &[Endpoint],
    routes: &CompiledRoutes,
    pattern: &P,
    range: std::ops::Range<usize>,
    tick: &(dyn Fn() + Sync),
) -> Result<CheckReport> {
    let ranks = pattern.ranks();
    if ranks != routes.ranks || ranks != hosts.len() {
        return Err(Error::input(
            "pattern",
            format!("the pattern has {ranks} ranks but the job has {} hosts", hosts.len()),
            None,
        ));
    }
    let range = range.start.min(pattern.phases())..range.end.min(pattern.phases());
    let w = routes.width;
    let nch = routes.channels();
    // 1/c by table lookup: c is at most the number of ranks
    let recip: Vec<f64> = (0..ranks + 2)
        .map(|c| if c == 0 { 0.0 } else { 1.0 / c as f64 })
        .collect();
    let acc = range
        .clone()
        .into_par_iter()
        .fold(
            || Acc::new(nch, ranks),
            |mut a, p| {
                if a.error.is_some() {
                    return a;
                }
                let mut dest = std::mem::take(&mut a.dest);
                pattern.phase(p, &mut dest);
                // partial permutation: every rank receives at most once
                for (r, &d) in dest.iter().enumerate() {
                    if d == IDLE {
                        continue;
                    }
                    if d as usize >= ranks {
                        a.error = Some(format!(
                            "phase {p}: rank {r} sends to rank {d}, beyond the {ranks} ranks"
                        ));
                        break;
                    }
                    if a.recv[d as usize] == p as u32 {
                        a.error = Some(format!(
                            "phase {p} is not a partial permutation: rank {d} receives twice (second sender rank {r})"
                        ));
                        break;
                    }
                    a.recv[d as usize] = p as u32;
                }
                if a.error.is_some() {
                    a.dest = dest;
                    return a;
                }
                // pass 1: count flows per channel, packing each routed flow's channels
                // (terminated by NO_LINK) so pass 2 reads them sequentially
                let mut unrouted = 0u64;
                a.flow_ch.clear();
                for (r, &d) in dest.iter().enumerate() {
                    if d == IDLE || d as usize == r {
                        continue;
                    }
                    let col = routes.col_of[d as usize] as usize;
                    let idx = (routes.entry_of[r] as usize * routes.cols + col) * w;
                    let route = &routes.slots[idx..idx + w];
                    if route[0] >= FAULT_BASE && route[0] != NO_LINK {
                        unrouted += 1;
                        if a.unrouted_examples.len() < TOP {
                            a.unrouted_examples.push((p, r as u32, d, route[0]));
                        }
                        continue;
                    }
                    for &l in route {
                        if l == NO_LINK {
                            break;
                        }
                        a.flow_ch.push(l);
                        let c = &mut a.cnt[l as usize];
                        if *c == 0 {
                            a.touched.push(l);
                        }
                        *c += 1;
                    }
                    a.flow_ch.push(NO_LINK);
                }
                // pass 2: congestion of every flow
                let (mut flows, mut sum, mut maxc) = (0u64, 0.0f64, 0u32);
                let mut c = 1u32;
                for &l in &a.flow_ch {
                    if l == NO_LINK {
                        flows += 1;
                        sum += recip[c as usize];
                        maxc = maxc.max(c);
                        a.hist[c as usize] += 1;
                        c = 1;
                    } else {
                        c = c.max(a.cnt[l as usize] as u32);
                    }
                }
                // pass 3: channel statistics and reset; when most channels carried flows (a
                // conflict-free pattern uses them all) a sequential sweep beats the scattered
                // touched list
                if a.touched.len() * 4 > a.cnt.len() {
                    for ((c, m), s) in a.cnt.iter_mut().zip(&mut a.link_max).zip(&mut a.link_sum) {
                        let v = std::mem::take(c) as u32;
                        *m = (*m).max(v);
                        *s += v as u64;
                    }
                } else {
                    for &l in &a.touched {
                        let c = std::mem::take(&mut a.cnt[l as usize]) as u32;
                        a.link_max[l as usize] = a.link_max[l as usize].max(c);
                        a.link_sum[l as usize] += c as u64;
                    }
                }
                a.touched.clear();
                let total = flows + unrouted;
                a.flows += total;
                a.unrouted += unrouted;
                if total > 0 {
                    a.worst.push(PhaseSummary {
                        phase: p,
                        flows: total,
                        throughput_ratio: sum / total as f64,
                        max_congestion: maxc,
                    });
                    if a.worst.len() > 4 * TOP {
                        keep_worst(&mut a.worst);
                    }
                }
                a.dest = dest;
                tick();
                a
            },
        )
        .reduce(|| Acc::new(nch, ranks), Acc::merge);
    if let Some(e) = acc.error {
        return Err(Error::input("pattern", e, None));
    }
    let link_loads: Vec<LinkLoad> = acc
        .link_max
        .iter()
        .zip(&acc.link_sum)
        .enumerate()
        .filter(|(_, (m, _))| **m > 0)
        .map(|(ch, (&m, &s))| link_load(fabric, routes.channel_port[ch], m, s))
        .collect();
    let unrouted_examples = acc
        .unrouted_examples
        .iter()
        .map(|&(p, s, d, f)| {
            let name = |r: u32| {
                let ep = hosts[r as usize];
                format!(
                    "{} (port GUID 0x{:016x})",
                    fabric.node(ep.node).desc,
                    fabric.port(ep.node, ep.port).guid
                )
            };
            UnroutedFlow {
                phase: p,
                source_rank: s,
                dest_rank: d,
                source: name(s),
                destination: name(d),
                fault: fault_of(f).expect("fault code"),
                at_switch: {
                    let ep = hosts[s as usize];
                    let sw = fabric.peer(ep.node, ep.port).map(|x| x.0).unwrap_or(ep.node);
                    fabric.node(sw).desc.clone()
                },
            }
        })
        .collect();
    Ok(CheckReport::from_counts(
        pattern.name(),
        ranks,
        pattern.phases(),
        (range.start, range.end),
        range.len(),
        (acc.flows, acc.unrouted),
        acc.hist,
        acc.worst,
        unrouted_examples,
        link_loads,
    ))
}

/// The named load of the directed link leaving global port `port`.
fn link_load(fabric: &Fabric, port: u32, max_flows: u32, total_flows: u64) -> LinkLoad {
    let p = &fabric.ports[port as usize];
    let q = &fabric.ports[p.peer as usize];
    LinkLoad {
        link: format!("{}:{} -> {}", fabric.node(p.node).desc, p.num, fabric.node(q.node).desc),
        from_guid: format!("0x{:016x}", p.guid),
        from_port: p.num,
        max_flows,
        total_flows,
    }
}

fn trim_histogram(r: &mut CheckReport) {
    while r.histogram.len() > 2 && *r.histogram.last().unwrap() == 0 {
        r.histogram.pop();
    }
    r.max_congestion = (r.histogram.len() - 1) as u32;
    if r.histogram.iter().skip(1).all(|&x| x == 0) {
        r.max_congestion = 0;
    }
}

/// The `TOP` most loaded links: largest load in a phase, then total, then port GUID and
/// number (names only, so a merge of shards ranks exactly as the whole check does).
fn worst_links(loads: &[LinkLoad]) -> Vec<LinkLoad> {
    let mut v: Vec<&LinkLoad> = loads.iter().collect();
    v.sort_by(|a, b| {
        b.max_flows
            .cmp(&a.max_flows)
            .then(b.total_flows.cmp(&a.total_flows))
            .then((&a.from_guid, a.from_port).cmp(&(&b.from_guid, b.from_port)))
    });
    v.into_iter().take(TOP).cloned().collect()
}
