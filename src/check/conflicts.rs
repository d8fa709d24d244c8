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
//! Speed: routes are compiled once ([`CompiledRoutes::compile`], in `routes`) — LFT routing is destination based, so the path of a
//! flow depends only on the switch its source is cabled to and on the destination LID —
//! into a flat table of link ids. A phase is then three sequential passes over flat
//! arrays (count, take maxima, reset), phases run in parallel, and a pattern is generated
//! phase by phase, never materialised (LSFT(31) has about a billion flows).

use crate::topology::label::Labels;
use crate::topology::{Endpoint, Fabric};
use crate::{Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::phase::{keep_worst, Acc};
use super::rates::{rate_name, RateWeights, RatesSummary};
use crate::schedule::Pattern;
pub(super) const NO_LINK: u32 = u32::MAX;

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
    pub(super) ranks: usize,
    /// slots per route (the longest route's switch-to-switch links, at least 1)
    pub(super) width: usize,
    /// entry index of each rank's switch
    pub(super) entry_of: Vec<u32>,
    /// columns of the table: `ranks`, or the number of entry switches when routes are
    /// kept per destination switch
    pub(super) cols: usize,
    /// column of each destination rank: the rank itself, or the entry index of its switch
    pub(super) col_of: Vec<u32>,
    /// `slots[(entry * cols + col_of[dest]) * width + k]`: channel, `NO_LINK` padding, or
    /// a fault
    pub(super) slots: Vec<u32>,
    /// global port index of the sending end of each channel
    pub(super) channel_port: Vec<u32>,
}

pub(super) const FAULT_BASE: u32 = u32::MAX - 16;

fn fault_of(code: u32) -> Option<RouteFault> {
    match code.wrapping_sub(FAULT_BASE) {
        1 => Some(RouteFault::BlackHole),
        2 => Some(RouteFault::Loop),
        3 => Some(RouteFault::Misdelivered),
        _ => None,
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
    /// With `check --rates`: the link's rate, weight and weighted load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<LinkRate>,
}

/// A link's rate and weight in a rate-weighted check (`check --rates`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LinkRate {
    /// The cable's active rate (`4xDDR`); absent when the input does not state it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<String>,
    /// Reference rate / this rate (1 when the rate is unknown): what one flow counts for.
    pub weight: f64,
    /// `max_flows` × `weight`: the largest weighted load in a phase.
    pub weighted_max: f64,
}

impl LinkLoad {
    /// The load links are ranked and coloured by: the weighted one in a rate-weighted
    /// check, else the most flows in a phase.
    pub(crate) fn load(&self) -> f64 {
        self.rate.as_ref().map_or(self.max_flows as f64, |r| r.weighted_max)
    }
}

/// The load of one directed link as the checker counts it, before it is named: by the
/// global index of its sending port ([`Fabric::ports`]).
#[derive(Clone, Debug, PartialEq)]
pub struct LinkCount {
    /// Global port index of the sending end.
    pub port: u32,
    /// Largest number of flows the link carried in one phase.
    pub max_flows: u32,
    /// Flows carried over all checked phases.
    pub total_flows: u64,
    /// With `check --rates`: the link's rate, weight and weighted load.
    pub rate: Option<LinkRate>,
}

impl LinkCount {
    /// As [`LinkLoad::load`].
    pub fn load(&self) -> f64 {
        self.rate.as_ref().map_or(self.max_flows as f64, |r| r.weighted_max)
    }

    /// The link named: `switch:port -> switch` and the sending port's GUID.
    pub(crate) fn named(&self, fabric: &Fabric, labels: &Labels) -> LinkLoad {
        let p = &fabric.ports[self.port as usize];
        let q = &fabric.ports[p.peer as usize];
        LinkLoad {
            link: format!("{}:{} -> {}", labels.get(p.node), p.num, labels.get(q.node)),
            from_guid: format!("0x{:016x}", p.guid),
            from_port: p.num,
            max_flows: self.max_flows,
            total_flows: self.total_flows,
            rate: self.rate.clone(),
        }
    }
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
    /// With `check --rates`: the report is rate-weighted (its ratio, congestion, histogram,
    /// worst phases and links), against this reference. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rates: Option<RatesSummary>,
    /// Rail patterns (`rail-alltoall`, `rail-ring`): the figures of every rail run alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_rail: Vec<RailFigures>,
    /// What no routing of the fabric can exceed for these phases ([`super::bound`]): the
    /// ratio reads against it. Set by `ibfat check` for an unweighted check, and by a
    /// merge of shards that all have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaf_cut: Option<super::LeafCut>,
}

/// One rail's traffic checked alone (a rail pattern's `per_rail`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RailFigures {
    /// Rail index.
    pub rail: usize,
    /// Its HCAs' device (`mlx5_3`).
    pub device: String,
    /// Flows of this rail.
    pub flows: u64,
    /// Its throughput ratio alone.
    pub throughput_ratio: f64,
    /// Its largest congestion alone.
    pub max_congestion: u32,
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
        // (a merge gives them in this order, a check none: one pass to confirm)
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
            worst_links: worst(&link_loads, |l| (l.load(), l.max_flows, l.total_flows))
                .into_iter()
                .cloned()
                .collect(),
            unrouted_examples,
            sum_throughput: sum,
            link_loads,
            rates: None,
            per_rail: Vec::new(),
            leaf_cut: None,
        };
        trim_histogram(&mut r);
        r
    }
}

/// How many worst phases / links / unrouted examples a report lists.
pub(crate) const TOP: usize = 10;

/// Check phases `range` of `pattern` on the compiled routes, every loaded link named in
/// the report. `tick` is called after every phase (progress bars).
pub fn check<P: Pattern + ?Sized>(
    fabric: &Fabric,
    hosts: &[Endpoint],
    routes: &CompiledRoutes,
    pattern: &P,
    range: std::ops::Range<usize>,
    tick: &(dyn Fn() + Sync),
) -> Result<CheckReport> {
    let (mut report, links) = check_counted(fabric, hosts, routes, pattern, range, None, tick)?;
    report.link_loads = name_links(fabric, &links);
    Ok(report)
}

/// [`check`] with the loaded links as counts instead of in the report (`link_loads` is
/// left empty; the worst links are named): what a shard or a report without `--links`
/// needs, without naming every link ([`name_links`] does).
///
/// Rate-weighted when `weights` are given (`check --rates`, see [`super::rates`]): a
/// flow's congestion is the largest weighted load on its route, and the report's ratio,
/// congestion, histogram (classes rounded up), worst phases and worst links are the
/// weighted ones. Without weights its figures are exactly [`check`]'s.
pub fn check_counted<P: Pattern + ?Sized>(
    fabric: &Fabric,
    hosts: &[Endpoint],
    routes: &CompiledRoutes,
    pattern: &P,
    range: std::ops::Range<usize>,
    weights: Option<&RateWeights>,
    tick: &(dyn Fn() + Sync),
) -> Result<(CheckReport, Vec<LinkCount>)> {
    let ranks = pattern.ranks();
    if ranks != routes.ranks || ranks != hosts.len() {
        return Err(Error::input(
            "pattern",
            format!("the pattern has {ranks} ranks but the job has {} hosts", hosts.len()),
            None,
        ));
    }
    let range = range.start.min(pattern.phases())..range.end.min(pattern.phases());
    let nch = routes.channels();
    // 1/c by table lookup: c is at most the number of ranks
    let recip: Vec<f64> = (0..ranks + 2)
        .map(|c| if c == 0 { 0.0 } else { 1.0 / c as f64 })
        .collect();
    // at most four pieces per thread: each piece fills an accumulator of its own (2 MB on
    // LSFT(32), zeroed page by page, merged at the end), and a piece's phases are
    // consecutive, which the repeat-the-previous-phase shortcut needs; four leave room to
    // even out a thread the OS holds up
    let pieces = 4 * rayon::current_num_threads();
    let mut acc = range
        .clone()
        .into_par_iter()
        .with_min_len(range.len().div_ceil(pieces).max(1))
        .fold(
            || Acc::new(nch, ranks),
            |mut a, p| {
                if a.error.is_none() {
                    a.phase(routes, pattern, p, weights, &recip);
                    if a.error.is_none() {
                        tick();
                    }
                }
                a
            },
        )
        // no identity: each of rayon's pieces already brings an accumulator (2 MB each on
        // LSFT(32), zeroed page by page), so empty ones are never made just to merge
        .reduce_with(Acc::merge)
        .unwrap_or_else(|| Acc::new(nch, ranks));
    acc.flush();
    if let Some(e) = acc.error {
        return Err(Error::input("pattern", e, None));
    }
    // the loaded links in the report's order — by sending port GUID and number, which the
    // GUID's fixed-width hex text sorts as its value does — as counts: naming 70,000 links
    // (LSFT(32)) is a cost only `--links` reports and heat maps need, not shards
    let mut loaded: Vec<(u64, u8, usize)> = (0..nch)
        .filter(|&ch| acc.link_max[ch] > 0)
        .map(|ch| {
            let p = &fabric.ports[routes.channel_port[ch] as usize];
            (p.guid, p.num, ch)
        })
        .collect();
    loaded.sort_unstable();
    let links: Vec<LinkCount> = loaded
        .iter()
        .map(|&(_, _, ch)| {
            let max_flows = u32::from(acc.link_max[ch]);
            LinkCount {
                port: routes.channel_port[ch],
                max_flows,
                total_flows: acc.link_sum[ch],
                rate: weights.map(|wt| LinkRate {
                    rate: wt.channel_rate[ch].map(|(w, s)| rate_name(w, s)),
                    weight: wt.weight(ch),
                    weighted_max: (u64::from(max_flows) * u64::from(wt.channel[ch])) as f64 / wt.unit as f64,
                }),
            }
        })
        .collect();
    let labels = Labels::new(fabric);
    let mut phase_sums = acc.phase_sums;
    phase_sums.sort_unstable_by_key(|&(p, _)| p);
    let weighted_sum: f64 = phase_sums.iter().map(|&(_, s)| s).sum();
    let unrouted_examples = acc
        .unrouted_examples
        .iter()
        .map(|&(p, s, d, f)| {
            let name = |r: u32| {
                let ep = hosts[r as usize];
                format!(
                    "{} (port GUID 0x{:016x})",
                    labels.get(ep.node),
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
                    labels.get(sw).to_string()
                },
            }
        })
        .collect();
    let mut report = CheckReport::from_counts(
        pattern.name(),
        ranks,
        pattern.phases(),
        (range.start, range.end),
        range.len(),
        (acc.flows, acc.unrouted),
        acc.hist,
        acc.worst,
        unrouted_examples,
        Vec::new(),
    );
    report.worst_links = worst(&links, |l| (l.load(), l.max_flows, l.total_flows))
        .into_iter()
        .map(|l| l.named(fabric, &labels))
        .collect();
    if let Some(wt) = weights {
        // the histogram's classes are rounded up; the ratio is the exact one
        report.sum_throughput = weighted_sum;
        report.throughput_ratio = if report.flows > 0 {
            weighted_sum / report.flows as f64
        } else {
            1.0
        };
        report.rates = Some(RatesSummary::new(wt, acc.wmax));
    }
    Ok((report, links))
}

/// The named loads of `links` (in their order, named in parallel).
pub fn name_links(fabric: &Fabric, links: &[LinkCount]) -> Vec<LinkLoad> {
    let labels = Labels::new(fabric);
    links.par_iter().map(|l| l.named(fabric, &labels)).collect()
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

/// The `TOP` most loaded of `links`, which are in (port GUID, number) order: largest
/// (weighted, in a rate-weighted check) load in a phase, then largest in a phase, then
/// total, then that order — so a check's counts and a merge's named loads rank alike.
/// `key` gives (load, most flows in a phase, total flows).
fn worst<T>(links: &[T], key: impl Fn(&T) -> (f64, u32, u64)) -> Vec<&T> {
    let rank = |a: &(usize, &T), b: &(usize, &T)| {
        let (ka, kb) = (key(a.1), key(b.1));
        kb.0.total_cmp(&ka.0)
            .then(kb.1.cmp(&ka.1))
            .then(kb.2.cmp(&ka.2))
            .then(a.0.cmp(&b.0))
    };
    let mut v: Vec<(usize, &T)> = links.iter().enumerate().collect();
    // the order is total (a link is one port): the first TOP by selection, then sorted
    if v.len() > TOP {
        v.select_nth_unstable_by(TOP, rank);
        v.truncate(TOP);
    }
    v.sort_by(rank);
    v.into_iter().map(|(_, l)| l).collect()
}
