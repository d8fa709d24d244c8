//! `ibfat schedule --pattern bcast-multilane`: multi-lane broadcast trees for a job
//! (library: `ibfat::schedule::bcast`; file contract: docs/schedules.md §6).

use super::output::print_json;
use ibfat::schedule::bcast::{check_steady_state, Bcast, Predicted};
use ibfat::schedule::Job;
use ibfat::topology::Topology;
use ibfat::Result;
use serde::Serialize;
use std::path::PathBuf;

/// The broadcast options of `ibfat schedule`.
pub struct BcastArgs {
    /// Job rank holding the message.
    pub root: u32,
    /// Ports per host used (parts of the message).
    pub lanes: u32,
    /// Chain the sites (hosts behind one leaf switch), one flow per part per boundary.
    pub sites: bool,
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
    /// Sites chained (hosts behind one leaf switch), when --sites.
    #[serde(skip_serializing_if = "Option::is_none")]
    sites: Option<usize>,
    /// Every lane is a partial permutation (checked on the plan written).
    one_flow_per_lane_port: bool,
    message_bytes: f64,
    latency_us: f64,
    bandwidth_gbs: f64,
    predicted: Predicted,
    /// Every lane's flows at once, checked on ibfat's own tables for the fabric (lane k on
    /// rail k of a multi-rail fabric): throughput ratio and most flows on one link.
    steady_state: Vec<LaneCheck>,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<PathBuf>,
}

#[derive(Serialize)]
struct LaneCheck {
    lane: u32,
    throughput_ratio: f64,
    max_congestion: u32,
}

/// Check every lane of the steady state on ibfat's tables (`route` on the plan).
fn steady_state(plan: &Topology, job: &Job, b: &Bcast) -> Result<Vec<LaneCheck>> {
    let lids = ibfat::routing::Lids::plan(&plan.fabric, plan.layout.hosts(), 0)?;
    let lfts = ibfat::routing::route(&plan.fabric, &plan.layout, &lids)?;
    let reports = check_steady_state(&plan.fabric, job.hosts(), &lids, &lfts, b, 0..b.lanes)?;
    Ok(reports
        .into_iter()
        .enumerate()
        .map(|(k, r)| LaneCheck {
            lane: k as u32,
            throughput_ratio: r.throughput_ratio,
            max_congestion: r.max_congestion,
        })
        .collect())
}

/// Build, write and report the plan for `job` on `plan`.
pub fn run(plan: &Topology, job: &Job, a: &BcastArgs) -> Result<i32> {
    let fabric = &plan.fabric;
    let site_of: Option<Vec<u32>> = a.sites.then(|| {
        job.hosts()
            .iter()
            .map(|e| fabric.peer(e.node, e.port).map_or(u32::MAX, |(sw, _)| sw))
            .collect()
    });
    let b = Bcast::build(job.len() as u32, a.root, a.lanes, site_of.as_deref())?;
    if let Some(path) = &a.out {
        b.write(path, &job.port_guids(fabric))?;
    }
    let one_per_port = (0..b.lanes).all(|k| {
        let mut seen = vec![(false, false); b.ranks as usize];
        b.flows.iter().filter(|f| f.lane == k).all(|f| {
            let s = !std::mem::replace(&mut seen[f.from as usize].0, true);
            let r = !std::mem::replace(&mut seen[f.to as usize].1, true);
            s && r
        })
    });
    let report = Report {
        topology: plan.name.clone(),
        pattern: "bcast-multilane",
        ranks: b.ranks,
        root: b.root,
        lanes: b.lanes,
        depth: b.depths(),
        sites: site_of.map(|s| {
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
        steady_state: steady_state(plan, job, &b)?,
        out: a.out.clone(),
    };
    if a.json {
        print_json("schedule-bcast", &report)?;
        return Ok(0);
    }
    outln!(
        "bcast-multilane on {}: {} ranks, root {}, {} lanes, depth per part {:?}{}",
        report.topology,
        report.ranks,
        report.root,
        report.lanes,
        report.depth,
        report.sites.map(|s| format!(", {s} sites chained")).unwrap_or_default()
    );
    outln!("  every lane a partial permutation: {}", report.one_flow_per_lane_port);
    let p = &report.predicted;
    outln!(
        "  predicted for {} bytes (latency {} us, {} GB/s per port): multi-lane {:.3} ms, binary tree {:.3} ms, chain {:.3} ms",
        report.message_bytes,
        report.latency_us,
        report.bandwidth_gbs,
        p.multilane_s * 1e3,
        p.binary_tree_s * 1e3,
        p.chain_s * 1e3
    );
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
    Ok(0)
}
