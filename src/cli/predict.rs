//! `ibfat predict`: predicted all-to-all time of every algorithm for a job's placement,
//! the best, and the shortlist after pruning (seed 001's steps (1)–(3)).

use super::output::print_json;
use super::topo;
use clap::Args;
use ibfat::families::Family;
use ibfat::formats::{atomic, chart};
use ibfat::load::load_rail;
use ibfat::routing::{route, Lids};
use ibfat::schedule::job::Hosts;
use ibfat::schedule::Job;
use ibfat::select::model::{self, Cost, Hockney, Placement, SizePrediction, Skipped};
use ibfat::{Error, Result};
use serde::Serialize;
use std::path::PathBuf;

const AFTER: &str = "\
For every message size M (bytes one rank sends to each other rank) the predicted time of
every algorithm: seed 001's Table 1 (spread, ring, pair, their one-barrier / MPI-barrier
/ light-barrier variants, bruck) and ibfat's schedules where the fabric has them (lsft,
lsft-partial on an LSFT, kary-shift on trees, mols-shift). Every message costs
L + M·c/B (Hockney), c the congestion of its step on the tables (host cables included;
within a node c = 1). Algorithms predicted at --prune × the best or slower are dropped
from the shortlist. The JSON layout is `ibfat.predict/1` (docs/predict.md).

Examples:
  ibfat predict ricc/ --job ranks:0-3,20-23,40-43 --msg-size 16K,1M
  ibfat predict fabric.txt --lfts opensm-lfts.dump --job hosts.txt --msg-size 1K,64K,1M \\
        --ranks-per-node 8 --latency 1.5e-6 --bandwidth 12e9 --json
  ibfat predict lsft7/ --job ranks:0-63 --msg-size 4K --profile lab.profile --plot t.svg";

const EXAMPLES: &str = "\
Examples:
  ibfat predict ricc/ --job ranks:0-3,20-23,40-43 --msg-size 16K,1M
  ibfat predict lsft7/ --job ranks:0-63 --msg-size 4K --profile lab.profile --plot t.svg";

#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = AFTER)]
pub struct PredictArgs {
    /// A multi-rail fabric: work on rail K's plane
    ///
    /// The plane on HCA port K+1, its own subnet.
    #[arg(long, value_name = "K")]
    rail: Option<u32>,
    /// Plan folder, fabric.yaml, topology.net or ibnetdiscover output
    #[arg(value_name = "TOPOLOGY")]
    topology: PathBuf,
    /// LFT dump (default: ibfat's own routes for the topology)
    #[arg(long)]
    lfts: Option<PathBuf>,
    /// guid2lid file with the LIDs the tables were made for
    #[arg(short = 'l', long)]
    lids: Option<PathBuf>,
    /// The family the fabric must be (auto: recognise it)
    #[arg(short = 'f', long, default_value = "auto", value_parser = super::family_choice())]
    family: String,
    /// The job's nodes in rank order: `ranks:0-3,20-23`, names `dgx[001-004]` or a file
    ///
    /// `ranks:` lists fabric ranks.
    #[arg(short = 'j', long, value_name = "HOSTS")]
    job: String,
    /// Message sizes: bytes, or with K, M, G (16K,1M)
    #[arg(short = 'm', long, value_name = "SIZES", value_delimiter = ',', required = true)]
    msg_size: Vec<String>,
    /// Ranks on every node (P_n, 1..=256)
    ///
    /// At most 65536 ranks in all; rank r is on node r / P_n.
    #[arg(long, value_name = "N", default_value_t = 1)]
    ranks_per_node: u32,
    /// Drop algorithms predicted X times the best or slower
    #[arg(long, value_name = "X", default_value_t = 2.0, value_parser = super::positive_number)]
    prune: f64,
    /// Latency of one message, seconds
    #[arg(long, value_name = "SECONDS", conflicts_with = "profile", value_parser = super::positive_number)]
    latency: Option<f64>,
    /// Bandwidth of one link, bytes per second
    #[arg(long, value_name = "BYTES_PER_S", conflicts_with = "profile", value_parser = super::positive_number)]
    bandwidth: Option<f64>,
    /// File with `latency: SECONDS` and `bandwidth: BYTES_PER_S`
    ///
    /// Measured once.
    #[arg(long, value_name = "FILE")]
    profile: Option<PathBuf>,
    /// Only these algorithms (comma-separated names)
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    algorithms: Option<Vec<String>>,
    /// Draw predicted time against message size (log-log SVG)
    ///
    /// One line per algorithm.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Print the report as JSON
    #[arg(long)]
    pub(crate) json: bool,
}

/// Default latency (2 µs) and bandwidth (3.2 GB/s, a 4x QDR link's data rate).
const DEFAULT_LATENCY: f64 = 2e-6;
const DEFAULT_BANDWIDTH: f64 = 3.2e9;

#[derive(Serialize)]
struct Report {
    topology: String,
    family: String,
    nodes: usize,
    ranks_per_node: u32,
    ranks: usize,
    latency_seconds: f64,
    bandwidth_bytes_per_second: f64,
    prune: f64,
    sizes: Vec<SizePrediction>,
    costs: Vec<Cost>,
    skipped: Vec<Skipped>,
}

fn params(a: &PredictArgs) -> Result<Hockney> {
    match &a.profile {
        Some(p) => {
            let text = ibfat::formats::input::read_text(p, ibfat::formats::input::SPEC)?;
            Hockney::from_profile(&text, p)
        }
        None => Hockney::new(
            a.latency.unwrap_or(DEFAULT_LATENCY),
            a.bandwidth.unwrap_or(DEFAULT_BANDWIDTH),
        ),
    }
}

pub fn run(a: PredictArgs) -> Result<i32> {
    // everything the user typed is checked before the fabric is read
    let sizes = a
        .msg_size
        .iter()
        .map(|s| model::parse_size(s))
        .collect::<Result<Vec<u64>>>()?;
    if !(a.prune.is_finite() && a.prune >= 1.0) {
        return Err(Error::input(
            "prune",
            format!(
                "{} is out of range; valid: a factor ≥ 1 (2.0 drops what is twice the best)",
                a.prune
            ),
            None,
        ));
    }
    if a.ranks_per_node == 0 || a.ranks_per_node > model::MAX_RANKS_PER_NODE {
        return Err(Error::input(
            "ranks_per_node",
            format!(
                "{} is out of range; valid: 1..={}",
                a.ranks_per_node,
                model::MAX_RANKS_PER_NODE
            ),
            None,
        ));
    }
    if let Some(names) = &a.algorithms {
        model::check_names(names)?;
    }
    let h = params(&a)?;
    let hint = Family::parse_opt(&a.family)?;
    let loaded = load_rail(&a.topology, super::topo::read_options(), hint, a.rail)?;
    let loaded = topo::with_roles(loaded)?;
    let plan = loaded.topology()?;
    let hosts_view = Hosts::new(&plan.fabric, plan.layout.hosts(), loaded.name());
    let job = Job::from_arg(&a.job, &hosts_view)?;
    let (lids, lfts) = match &a.lfts {
        Some(p) => topo::read_lfts(&loaded, a.lids.as_deref(), p)?,
        None => {
            let lids = match topo::given_lids(&loaded, a.lids.as_deref())? {
                Some(l) => l,
                None => Lids::plan(&plan.fabric, plan.layout.hosts(), 0)?,
            };
            let lfts = route(&plan.fabric, &plan.layout, &lids)?;
            (lids, lfts)
        }
    };
    let placement = Placement {
        plan,
        lids: &lids,
        lfts: &lfts,
        job: &job,
        ranks_per_node: a.ranks_per_node,
    };
    let (costs, skipped) = model::costs(&placement, a.algorithms.as_deref())?;
    let predictions: Vec<SizePrediction> = sizes.iter().map(|&m| model::predict(&costs, &h, m, a.prune)).collect();
    if let Some(path) = &a.plot {
        let series: Vec<chart::Series> = costs
            .iter()
            .map(|c| chart::Series {
                name: c.algorithm.clone(),
                points: sizes.iter().map(|&m| (m as f64, c.seconds(&h, m))).collect(),
            })
            .collect();
        let title = format!(
            "{}: {} ranks on {} nodes",
            loaded.name(),
            job.len() * a.ranks_per_node as usize,
            job.len()
        );
        let svg = chart::loglog_svg(&title, "message size (bytes)", "predicted time (s)", &series);
        atomic::write_file(path, svg.as_bytes())?;
    }
    let r = Report {
        topology: loaded.name(),
        family: plan.layout.family_name().into(),
        nodes: job.len(),
        ranks_per_node: a.ranks_per_node,
        ranks: job.len() * a.ranks_per_node as usize,
        latency_seconds: h.latency,
        bandwidth_bytes_per_second: h.bandwidth,
        prune: a.prune,
        sizes: predictions,
        costs,
        skipped,
    };
    if a.json {
        print_json("predict", &r)?;
    } else {
        print_report(&r);
    }
    Ok(0)
}

fn print_report(r: &Report) {
    outln!(
        "{} ({}): {} ranks on {} nodes, L = {:e} s, B = {:e} B/s, prune at {}x the best",
        r.topology,
        r.family,
        r.ranks,
        r.nodes,
        r.latency_seconds,
        r.bandwidth_bytes_per_second,
        r.prune
    );
    for s in &r.sizes {
        outln!("  message size {} bytes:", s.msg_size);
        for a in &s.algorithms {
            outln!(
                "    {:<20} {:>12.6} ms{}",
                a.algorithm,
                a.predicted_seconds * 1e3,
                if a.kept { "" } else { "  (pruned)" }
            );
        }
        outln!("    best {}; shortlist {}", s.best, s.shortlist.join(", "));
    }
    for k in &r.skipped {
        outln!("  not priced: {}: {}", k.algorithm, k.reason);
    }
}
