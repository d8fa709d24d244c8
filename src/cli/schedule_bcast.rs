//! `ibfat schedule --pattern bcast-multilane`: multi-lane broadcast trees for a job
//! (library: `ibfat::schedule::bcast`; file contract: docs/schedules.md §6).

use super::output::print_json;
use ibfat::check::steps::StepMeter;
use ibfat::check::CompiledRoutes;
use ibfat::schedule::bcast::{subtree_levels, Bcast, Predicted};
use ibfat::schedule::Job;
use ibfat::select::bcast::{Compared, Comparer, Segmenting};
use ibfat::topology::{Endpoint, Topology};
use ibfat::{Error, Result};
use serde::Serialize;
use std::path::PathBuf;

/// Which hosts take which tree positions (`--placement`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// `nested` or `rank-order`, whichever the cost model predicts faster at
    /// --message-size on the tables
    Auto,
    /// Every subtree (leaf switch, pod) entered and left through one rank: conflict-free
    /// steady state on trees, deeper
    Nested,
    /// Tree positions in job-rank order: shallowest
    RankOrder,
    /// Sites (hosts behind one leaf) chained: one flow per part across every boundary
    Sites,
}

/// The broadcast options of `ibfat schedule`.
pub struct BcastArgs {
    /// Job rank holding the message.
    pub root: u32,
    /// Ports per host used (parts of the message).
    pub lanes: u32,
    /// Which hosts take which tree positions.
    pub placement: Placement,
    /// Segment size of the pipelines (`None`: the best for each algorithm).
    pub segment: Option<f64>,
    /// Draw predicted time against message size per algorithm (SVG).
    pub plot: Option<PathBuf>,
    /// Message size in bytes, for the predicted times.
    pub message: f64,
    /// Latency per hop in µs.
    pub latency_us: f64,
    /// Bandwidth of one port in GB/s.
    pub bandwidth_gbs: f64,
    /// Where to write the broadcast file.
    pub out: Option<PathBuf>,
    /// Print the report as JSON.
    pub json: bool,
}

#[derive(Serialize)]
struct Report {
    topology: String,
    pattern: &'static str,
    ranks: u32,
    root: u32,
    lanes: u32,
    /// Depth of every part's tree (flows on the longest path from the root).
    depth: Vec<u32>,
    /// The placement used (`auto` resolved).
    placement: Placement,
    /// Rails the lanes run on (lane k on rail k mod rails).
    rails: usize,
    /// Levels of nested groups (leaf switches, pods ...) the fabric gave.
    group_levels: usize,
    /// Sites chained (hosts behind one leaf switch), when --placement sites.
    #[serde(skip_serializing_if = "Option::is_none")]
    sites: Option<usize>,
    /// Every lane is a partial permutation (checked on the plan written).
    one_flow_per_lane_port: bool,
    message_bytes: f64,
    latency_us: f64,
    bandwidth_gbs: f64,
    predicted: Predicted,
    /// Every algorithm measured on the tables and priced at the message size (the
    /// cost model with congestion: docs/schedules.md §6.3).
    comparison: Vec<Priced>,
    /// Every lane's flows at once, checked on ibfat's own tables for the fabric (lane k on
    /// rail k of a multi-rail fabric): throughput ratio and most flows on one link.
    steady_state: Vec<LaneCheck>,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<PathBuf>,
}

#[derive(Serialize)]
struct Priced {
    #[serde(flatten)]
    measured: Compared,
    predicted_seconds: f64,
    /// Segment size used (0: not pipelined).
    segment_bytes: f64,
    /// This plan's large-message bandwidth over this algorithm's.
    plan_bandwidth_ratio: f64,
}

#[derive(Serialize)]
struct LaneCheck {
    lane: u32,
    throughput_ratio: f64,
    max_congestion: u32,
}

/// The job's hosts on every rail: rail 0's are the job's; rail k's are the same hosts
/// (CA node GUID) on their port cabled in that plane.
fn hosts_per_rail(planes: &[Topology], job: &Job) -> Result<Vec<Vec<Endpoint>>> {
    let f0 = &planes[0].fabric;
    planes
        .iter()
        .map(|t| {
            let by_guid = t.fabric.guid_index();
            job.hosts()
                .iter()
                .map(|e| {
                    let guid = f0.node(e.node).guid;
                    let node = *by_guid.get(&guid).ok_or_else(|| {
                        Error::input(
                            "rails",
                            format!(
                                "host {} (node GUID 0x{guid:016x}) is missing on a rail",
                                f0.node(e.node).name
                            ),
                            Some("every host needs a port on every rail".into()),
                        )
                    })?;
                    let port = (1..=t.fabric.node(node).nports)
                        .find(|&p| t.fabric.peer(node, p).is_some())
                        .ok_or_else(|| {
                            Error::input(
                                "rails",
                                format!("host {} has no cable on a rail", t.fabric.node(node).name),
                                None,
                            )
                        })?;
                    Ok(Endpoint { node, port })
                })
                .collect()
        })
        .collect()
}

/// ibfat's tables of every rail, compiled over the job's hosts.
fn routes_per_rail(planes: &[Topology], hosts: &[Vec<Endpoint>]) -> Result<Vec<CompiledRoutes>> {
    planes
        .iter()
        .zip(hosts)
        .map(|(t, h)| {
            let lids = ibfat::routing::Lids::plan(&t.fabric, t.layout.hosts(), 0)?;
            let lfts = ibfat::routing::route(&t.fabric, &t.layout, &lids)?;
            CompiledRoutes::compile(&t.fabric, &lids, &lfts, h, 0)
        })
        .collect()
}

/// Check every lane of the steady state on its rail's tables (lane k on rail k).
fn steady_state(
    planes: &[Topology],
    hosts: &[Vec<Endpoint>],
    routes: &[CompiledRoutes],
    b: &Bcast,
) -> Result<Vec<LaneCheck>> {
    use ibfat::check::check;
    let pattern = ibfat::schedule::bcast::SteadyState(b);
    (0..b.lanes as usize)
        .map(|k| {
            let r = k % planes.len();
            let c = check(&planes[r].fabric, &hosts[r], &routes[r], &pattern, k..k + 1, &|| {})?;
            Ok(LaneCheck {
                lane: k as u32,
                throughput_ratio: c.throughput_ratio,
                max_congestion: c.max_congestion,
            })
        })
        .collect()
}

/// Build, write and report the plan for `job` (on rail 0's plane, `planes[0]`) with
/// lane k on `planes[k mod rails]`.
pub fn run(planes: &[Topology], job: &Job, a: &BcastArgs) -> Result<i32> {
    let plan = &planes[0];
    let fabric = &plan.fabric;
    check_args(planes, a)?;
    let hosts = hosts_per_rail(planes, job)?;
    let routes = routes_per_rail(planes, &hosts)?;
    let levels = subtree_levels(fabric, job.hosts());
    let ranks = job.len() as u32;
    let site_of: Option<Vec<u32>> = (a.placement == Placement::Sites).then(|| levels[0].clone());
    let cost = Cost::of(a);
    let (trees, measured) = build_and_measure(&routes, ranks, a, &levels, site_of.as_deref())?;
    let placement = resolve_placement(a.placement, &measured, cost);
    let (b, chosen) = trees.take(placement);
    let comparison = price(&measured, chosen, cost);
    let steady = steady_state(planes, &hosts, &routes, &b)?;
    let one_per_port = one_flow_per_lane_port(&b);
    if let Some(path) = &a.out {
        b.write(path, &job.port_guids(fabric))?;
    }
    if let Some(path) = &a.plot {
        let title = format!(
            "broadcast on {}: {} ranks, {} lanes, {} rail(s)",
            plan.name,
            ranks,
            a.lanes,
            planes.len()
        );
        plot(path, &title, &measured, cost)?;
    }
    let report = Report {
        topology: plan.name.clone(),
        pattern: "bcast-multilane",
        ranks: b.ranks,
        root: b.root,
        lanes: b.lanes,
        depth: b.depths(),
        placement,
        rails: planes.len(),
        group_levels: levels.len(),
        sites: site_of.filter(|_| placement == Placement::Sites).map(|s| {
            let mut v = s.clone();
            v.sort_unstable();
            v.dedup();
            v.len()
        }),
        one_flow_per_lane_port: one_per_port,
        message_bytes: a.message,
        latency_us: a.latency_us,
        bandwidth_gbs: a.bandwidth_gbs,
        predicted: b.predict(a.message, a.latency_us * 1e-6, a.bandwidth_gbs * 1e9),
        comparison,
        steady_state: steady,
        out: a.out.clone(),
    };
    if a.json {
        print_json("schedule-bcast", &report)?;
        return Ok(0);
    }
    print_report(&report, a.plot.as_deref());
    Ok(0)
}

/// Refuse more lanes than a multi-rail fabric has rails (a host has one port per rail)
/// and a segment under one byte.
fn check_args(planes: &[Topology], a: &BcastArgs) -> Result<()> {
    if planes.len() > 1 && a.lanes as usize > planes.len() {
        return Err(Error::input(
            "--lanes",
            format!(
                "{} lanes on a fabric of {} rails: a host has one port per rail",
                a.lanes,
                planes.len()
            ),
            Some(format!("--lanes 1..={}", planes.len())),
        ));
    }
    if let Some(s) = a.segment {
        if !(s >= 1.0 && s.is_finite()) {
            return Err(Error::input(
                "--segment",
                format!("{s}: a segment is at least one byte"),
                None,
            ));
        }
    }
    Ok(())
}

/// The cost model's inputs: message size, latency per hop (s), port bandwidth (B/s) and
/// segmenting.
#[derive(Clone, Copy)]
struct Cost {
    message: f64,
    l: f64,
    bw: f64,
    seg: Segmenting,
}

impl Cost {
    fn of(a: &BcastArgs) -> Cost {
        Cost {
            message: a.message,
            l: a.latency_us * 1e-6,
            bw: a.bandwidth_gbs * 1e9,
            seg: a.segment.map_or(Segmenting::Auto, Segmenting::Bytes),
        }
    }
}

/// The multi-lane trees a placement can choose.
struct Trees {
    nested: Bcast,
    rank_order: Bcast,
    /// Sites chained, when `--placement sites`.
    sites: Option<Bcast>,
}

impl Trees {
    /// The tree of `placement` (not `auto`: resolved) and its index in the comparison.
    fn take(self, placement: Placement) -> (Bcast, usize) {
        match placement {
            Placement::RankOrder => (self.rank_order, 1),
            Placement::Sites => (self.sites.expect("built above"), 2),
            _ => (self.nested, 0),
        }
    }
}

/// Build the multi-lane trees (nested, rank order, and sites chained when `site_of` is
/// given) and measure them and the classic algorithms on the tables, in that order.
fn build_and_measure(
    routes: &[CompiledRoutes],
    ranks: u32,
    a: &BcastArgs,
    levels: &[Vec<u32>],
    site_of: Option<&[u32]>,
) -> Result<(Trees, Vec<Compared>)> {
    let nested = Bcast::build_nested(ranks, a.root, a.lanes, levels)?;
    let rank_order = Bcast::build(ranks, a.root, a.lanes, None)?;
    let mut cmp = Comparer::new(routes.iter().map(StepMeter::new).collect());
    let mut measured = vec![
        cmp.multilane("multilane-nested", &nested)?,
        cmp.multilane("multilane-rank-order", &rank_order)?,
    ];
    let sites = match site_of {
        Some(s) => {
            let b = Bcast::build(ranks, a.root, a.lanes, Some(s))?;
            measured.push(cmp.multilane("multilane-sites", &b)?);
            Some(b)
        }
        None => None,
    };
    measured.extend(cmp.classic(ranks, a.root)?);
    let trees = Trees {
        nested,
        rank_order,
        sites,
    };
    Ok((trees, measured))
}

/// `auto`: nested or rank order, whichever the cost model predicts faster.
fn resolve_placement(placement: Placement, measured: &[Compared], c: Cost) -> Placement {
    match placement {
        Placement::Auto => {
            let t = |i: usize| measured[i].time(c.message, c.l, c.bw, c.seg).0;
            if t(0) <= t(1) {
                Placement::Nested
            } else {
                Placement::RankOrder
            }
        }
        p => p,
    }
}

/// Every algorithm priced at the message size, against the chosen one's bandwidth.
fn price(measured: &[Compared], chosen: usize, c: Cost) -> Vec<Priced> {
    let share = measured[chosen].bandwidth_share;
    measured
        .iter()
        .map(|m| {
            let (t, s) = m.time(c.message, c.l, c.bw, c.seg);
            Priced {
                measured: m.clone(),
                predicted_seconds: t,
                segment_bytes: s,
                plan_bandwidth_ratio: share / m.bandwidth_share,
            }
        })
        .collect()
}

/// Whether every lane is a partial permutation: no rank sends, or receives, twice in it.
fn one_flow_per_lane_port(b: &Bcast) -> bool {
    (0..b.lanes).all(|k| {
        let mut seen = vec![(false, false); b.ranks as usize];
        b.flows.iter().filter(|f| f.lane == k).all(|f| {
            let s = !std::mem::replace(&mut seen[f.from as usize].0, true);
            let r = !std::mem::replace(&mut seen[f.to as usize].1, true);
            s && r
        })
    })
}

/// Write the predicted time against message size (1 KiB to 64 MiB) of every algorithm
/// as an SVG chart.
fn plot(path: &std::path::Path, title: &str, measured: &[Compared], c: Cost) -> Result<()> {
    let sizes: Vec<f64> = (0..9).map(|i| 1024.0 * 4f64.powi(i)).collect();
    let series: Vec<ibfat::formats::chart::Series> = measured
        .iter()
        .map(|m| ibfat::formats::chart::Series {
            name: m.algorithm.clone(),
            points: sizes
                .iter()
                .map(|&x| (x, m.time(x, c.l, c.bw, c.seg).0 * 1e6))
                .collect(),
        })
        .collect();
    let svg = ibfat::formats::chart::loglog_svg(title, "message size (bytes)", "predicted time (us)", &series);
    ibfat::formats::atomic::write_file(path, svg.as_bytes())?;
    Ok(())
}

/// The report as text.
fn print_report(report: &Report, plot: Option<&std::path::Path>) {
    outln!(
        "bcast-multilane on {}: {} ranks, root {}, {} lanes, depth per part {:?}{}",
        report.topology,
        report.ranks,
        report.root,
        report.lanes,
        report.depth,
        report.sites.map(|s| format!(", {s} sites chained")).unwrap_or_default()
    );
    outln!(
        "  placement {:?} ({} group levels, {} rail(s)); every lane a partial permutation: {}",
        report.placement,
        report.group_levels,
        report.rails,
        report.one_flow_per_lane_port
    );
    outln!(
        "  on the tables, {} bytes (latency {} us, {} GB/s per port):",
        report.message_bytes,
        report.latency_us,
        report.bandwidth_gbs
    );
    outln!(
        "    {:<22} {:>6} {:>11} {:>10} {:>12} {:>10}",
        "algorithm",
        "depth",
        "congestion",
        "bandwidth",
        "predicted",
        "plan/this"
    );
    for c in &report.comparison {
        let m = &c.measured;
        let cong = m.congestion.iter().map(u32::to_string).collect::<Vec<_>>().join("+");
        outln!(
            "    {:<22} {:>6} {:>11} {:>9.3}b {:>9.3} ms {:>10.2}",
            m.algorithm,
            m.depth,
            cong,
            m.bandwidth_share,
            c.predicted_seconds * 1e3,
            c.plan_bandwidth_ratio
        );
    }
    for l in &report.steady_state {
        outln!(
            "  steady state, lane {} on ibfat's tables: throughput ratio {:.3}, at most {} flows on a link",
            l.lane,
            l.throughput_ratio,
            l.max_congestion
        );
    }
    if let Some(o) = &report.out {
        outln!("  wrote {}", o.display());
    }
    if let Some(o) = plot {
        outln!("  wrote {}", o.display());
    }
}
