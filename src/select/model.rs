//! Performance model of all-to-all algorithms on a job's placement (seed 001 §4.2, with
//! ibfat's tables in place of the seed's closed-form average bandwidth).
//!
//! A job is N nodes (hosts of the fabric) with P_n ranks each, P = N·P_n ranks, rank r
//! on node ⌊r / P_n⌋. Every message follows Hockney's model: L + bytes / B′, where L is
//! the latency and B′ the bandwidth the message gets. Within a step of an algorithm every
//! message has the same size, so the step takes as long as its slowest message: the one
//! crossing the step's most loaded link, which it shares with c − 1 others
//! ([`crate::check::steps`]: the flows of that very step routed on the real LFTs, host
//! cables included), so B′ = B / c. Flows within a node are not on any link and get the
//! full B (c = 1). A step whose ranks each post k messages of b blocks costs
//! k·L + b·c·M / B, and an algorithm the sum over its steps plus its synchronisation
//! latencies ([`barrier_latencies`]).
//!
//! Since congestion does not depend on M, an algorithm is measured once ([`Cost`]: Σk,
//! Σ b·c, extra latencies, all integers, so the result does not depend on thread order)
//! and priced for any M and (L, B) in O(1).
//!
//! Algorithms: the ten of seed 001's Table 1 ([`Algorithm::ALL`]: spread, ring, pair with
//! their barrier variants, Bruck, whose step sizes and combining are counted exactly by
//! [`crate::schedule::alltoall`]) and ibfat's own schedules where the fabric has them —
//! `lsft` and `lsft-partial` on an LSFT, the tree shift (`kary-shift`, `mols-shift`) on
//! trees — which are node-level patterns: one node-level flow carries P_n² rank messages
//! (each rank posts P_n), and with P_n > 1 the ranks of a node first exchange among
//! themselves (P_n − 1 messages each, at full B).

use crate::check::steps::{StepMeter, StepScratch};
use crate::check::CompiledRoutes;
use crate::error::{Error, Result};
use crate::routing::{LftSet, Lids};
use crate::schedule::alltoall::{barrier_latencies, Algorithm, Base, Steps};
use crate::schedule::generate::{PatternKind, Request};
use crate::schedule::{Job, Pattern, IDLE};
use crate::topology::{Endpoint, Layout, Topology};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

/// Hockney parameters of one link: latency L (seconds) and bandwidth B (bytes/second).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Hockney {
    /// Latency of one message, seconds.
    pub latency: f64,
    /// Bandwidth of one link, bytes per second.
    pub bandwidth: f64,
}

impl Hockney {
    /// Checked parameters: both finite, L ≥ 0, B > 0.
    pub fn new(latency: f64, bandwidth: f64) -> Result<Hockney> {
        if !latency.is_finite() || latency < 0.0 {
            return Err(Error::input(
                "latency",
                format!("{latency} is out of range; valid: seconds ≥ 0 (2e-6 for 2 µs)"),
                None,
            ));
        }
        if !bandwidth.is_finite() || bandwidth <= 0.0 {
            return Err(Error::input(
                "bandwidth",
                format!("{bandwidth} is out of range; valid: bytes per second > 0 (3.2e9)"),
                None,
            ));
        }
        Ok(Hockney { latency, bandwidth })
    }
}

impl Hockney {
    /// Read a profile file: `latency: SECONDS` and `bandwidth: BYTES_PER_SECOND` lines
    /// (`#` comments), as measured once per fabric; errors name the file and line.
    pub fn from_profile(text: &str, path: &std::path::Path) -> Result<Hockney> {
        let (mut lat, mut bw) = (None, None);
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = |what: String| {
                Error::at(path, i + 1, what)
                    .with_hint("a profile has two lines: `latency: 2e-6` and `bandwidth: 3.2e9`")
            };
            let (k, v) = line
                .split_once(':')
                .ok_or_else(|| bad(format!("`{line}`: expected `key: value`")))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| bad(format!("{}: `{}` is not a number", k.trim(), v.trim())))?;
            match k.trim() {
                "latency" => lat = Some(v),
                "bandwidth" => bw = Some(v),
                other => return Err(bad(format!("unknown key `{other}`; valid: latency, bandwidth"))),
            }
        }
        let need = |v: Option<f64>, k: &str| {
            v.ok_or_else(|| Error::at(path, 0, format!("{k}: missing; a profile needs latency and bandwidth")))
        };
        Hockney::new(need(lat, "latency")?, need(bw, "bandwidth")?).map_err(|e| e.in_file(path, 0))
    }
}

/// A message size: bytes, or with a binary suffix K, M, G (`16K` = 16384, `1M`,
/// optionally `KiB`/`KB`); 0 and unparsable sizes are refused.
pub fn parse_size(s: &str) -> Result<u64> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let mult: u64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        _ => 0,
    };
    let n: Option<u64> = num.parse().ok();
    match n.and_then(|n| n.checked_mul(mult)) {
        Some(b) if b > 0 => Ok(b),
        _ => Err(Error::input(
            "msg_size",
            format!("`{s}` is not a message size; valid: bytes > 0, or with K, M, G (16K, 1M)"),
            None,
        )),
    }
}

/// What an algorithm costs on a placement, independent of the message size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// `spread`, `ring`, …, `bruck`, `lsft`, `lsft-partial`, `kary-shift`, `mols-shift`.
    pub algorithm: String,
    /// `table1` (seed 001's algorithms) or `ibfat` (ibfat's schedules).
    pub source: &'static str,
    /// Steps (phases) of the algorithm.
    pub steps: usize,
    /// Σ over steps of the messages a rank posts (each costs L).
    pub messages: u64,
    /// Σ over steps of blocks per message × the step's congestion (each costs M / B).
    pub weighted_blocks: u64,
    /// Latencies added by synchronisation, in units of L, times 1000 (integral).
    pub barrier_millis: u64,
    /// Largest congestion of any step.
    pub max_congestion: u32,
}

impl Cost {
    /// Predicted seconds for messages of `msg_size` bytes.
    pub fn seconds(&self, h: &Hockney, msg_size: u64) -> f64 {
        let lat = self.messages as f64 + self.barrier_millis as f64 / 1000.0;
        lat * h.latency + self.weighted_blocks as f64 * msg_size as f64 / h.bandwidth
    }
}

/// An algorithm the model was asked for but cannot price on this fabric or job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The algorithm.
    pub algorithm: String,
    /// Why (not an LSFT, the job is not a block, …).
    pub reason: String,
}

/// The job as the model sees it: nodes and ranks per node.
pub struct Placement<'a> {
    /// The fabric with its family.
    pub plan: &'a Topology,
    /// LIDs of the fabric.
    pub lids: &'a Lids,
    /// The tables whose routes are measured.
    pub lfts: &'a LftSet,
    /// The nodes, in rank order.
    pub job: &'a Job,
    /// Ranks on every node (P_n ≥ 1).
    pub ranks_per_node: u32,
}

/// Most ranks a prediction takes (spread routes P(P−1) messages: 4·10⁹ here).
pub(crate) const MAX_RANKS: usize = 65_536;

/// Most ranks per node (cores of one host); keeps every link count within 32 bits.
pub const MAX_RANKS_PER_NODE: u32 = 256;

/// Names of ibfat's own schedules the model knows.
pub(crate) const IBFAT_ALGORITHMS: [&str; 4] = ["lsft", "lsft-partial", "kary-shift", "mols-shift"];

/// Every algorithm name [`costs`] accepts.
pub(crate) fn algorithm_names() -> Vec<String> {
    Algorithm::ALL
        .iter()
        .map(|a| a.name())
        .chain(IBFAT_ALGORITHMS.iter().map(|s| s.to_string()))
        .collect()
}

/// Check algorithm names (an unknown one is an input error listing the known ones).
pub fn check_names(names: &[String]) -> Result<()> {
    let known = algorithm_names();
    match names.iter().find(|n| !known.contains(n)) {
        None => Ok(()),
        Some(n) => Err(Error::input(
            "algorithm",
            format!("unknown algorithm `{n}`"),
            Some(format!("one of {}", known.join(", "))),
        )),
    }
}

/// Measure every algorithm (or those named in `only`) on the placement.
pub fn costs(p: &Placement, only: Option<&[String]>) -> Result<(Vec<Cost>, Vec<Skipped>)> {
    if let Some(o) = only {
        check_names(o)?;
    }
    let wanted = |name: &str| only.map_or(true, |o| o.iter().any(|n| n == name));
    if p.ranks_per_node == 0 || p.ranks_per_node > MAX_RANKS_PER_NODE {
        return Err(Error::input(
            "ranks_per_node",
            format!("{} is out of range; valid: 1..={MAX_RANKS_PER_NODE}", p.ranks_per_node),
            None,
        ));
    }
    let nodes = p.job.len();
    let ranks = nodes * p.ranks_per_node as usize;
    if ranks > MAX_RANKS {
        return Err(Error::input(
            "ranks_per_node",
            format!(
                "{nodes} nodes × {} ranks = {ranks} ranks; valid: at most {MAX_RANKS}",
                p.ranks_per_node
            ),
            Some("simple spread alone routes P² messages".into()),
        ));
    }
    let routes = CompiledRoutes::compile(&p.plan.fabric, p.lids, p.lfts, p.job.hosts(), 0)?;
    let meter = StepMeter::new(&routes);
    let pn = p.ranks_per_node;
    let mut out = Vec::new();
    let mut measured: HashMap<Base, Cost> = HashMap::new();
    for a in Algorithm::ALL {
        if !wanted(&a.name()) {
            continue;
        }
        // pair is the ring's order unless P is a power of two: measured once
        let base = match a.base {
            Base::Pair if !ranks.is_power_of_two() => Base::Ring,
            b => b,
        };
        let c = match measured.entry(base) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(measure_steps(&meter, Algorithm::new(base, a.barrier).steps(ranks), pn)?)
            }
        };
        let mut c = c.clone();
        c.algorithm = a.name();
        c.barrier_millis = (barrier_latencies(a.barrier, ranks) * 1000.0).round() as u64;
        out.push(c);
    }
    let mut skipped = Vec::new();
    for name in IBFAT_ALGORITHMS {
        if !wanted(name) {
            continue;
        }
        match ibfat_cost(p, &meter, name) {
            Ok(c) => out.push(c),
            Err(reason) => skipped.push(Skipped {
                algorithm: name.to_string(),
                reason,
            }),
        }
    }
    Ok((out, skipped))
}

/// Steps measured in parallel; sums are integers, so the order does not matter.
fn measure_steps(meter: &StepMeter, steps: Steps, pn: u32) -> Result<Cost> {
    let per = |s: &mut StepScratch, k: usize| -> Result<(u64, u64, u32)> {
        let load = meter.measure(s, &mut |f| {
            steps.for_each_flow(k, &mut |a, b| f(a / pn, b / pn, 1));
        })?;
        let c = load.congestion.max(u32::from(load.intra_node > 0));
        Ok((steps.messages(k), steps.blocks(k) * c as u64, c))
    };
    let sums = (0..steps.len())
        .into_par_iter()
        .map_init(|| meter.scratch(), |s, k| per(s, k))
        .try_reduce(|| (0, 0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1, a.2.max(b.2))))?;
    Ok(Cost {
        algorithm: String::new(),
        source: "table1",
        steps: steps.len(),
        messages: sums.0,
        weighted_blocks: sums.1,
        barrier_millis: 0,
        max_congestion: sums.2,
    })
}

/// One of ibfat's node-level schedules on the job's nodes, or why it does not apply.
fn ibfat_cost(p: &Placement, meter: &StepMeter, name: &str) -> std::result::Result<Cost, String> {
    let kind: PatternKind = name.parse().map_err(|e: Error| e.to_string())?;
    let fits = matches!(
        (&p.plan.layout, kind),
        (Layout::Lsft(_), PatternKind::Lsft | PatternKind::LsftPartial)
            | (Layout::Kary(_) | Layout::Pgft(_), PatternKind::KaryShift)
            | (Layout::Mols(_), PatternKind::MolsShift)
    );
    if !fits {
        return Err(format!(
            "{name} is not a schedule of the {}",
            p.plan.layout.family_name()
        ));
    }
    let mut req = Request::new(kind);
    req.job = Some(p.job.clone());
    let g = super::generate(p.plan, &req).map_err(|e| e.to_string())?.0;
    let node_of: HashMap<Endpoint, u32> = p.job.hosts().iter().enumerate().map(|(i, &e)| (e, i as u32)).collect();
    let map: Vec<u32> = g
        .job
        .hosts()
        .iter()
        .map(|e| node_of.get(e).copied().unwrap_or(IDLE))
        .collect();
    if g.job.len() != p.job.len() || map.contains(&IDLE) {
        return Err(format!(
            "{name} would run on other hosts than the job's (the job is not a placement it schedules)"
        ));
    }
    let pat = &g.pattern;
    let pn = p.ranks_per_node as u64;
    let w = (pn * pn) as u32;
    let per = |s: &mut (StepScratch, Vec<u32>), k: usize| -> Result<(u64, u64, u32)> {
        let (scratch, dest) = s;
        pat.phase(k, dest);
        let load = meter.measure(scratch, &mut |f| {
            for (r, &d) in dest.iter().enumerate() {
                if d != IDLE && d as usize != r {
                    f(map[r], map[d as usize], w);
                }
            }
        })?;
        if load.inter_node == 0 {
            return Ok((0, 0, 0));
        }
        Ok((pn, load.congestion as u64, load.congestion))
    };
    let sums = (0..pat.phases())
        .into_par_iter()
        .map_init(|| (meter.scratch(), vec![IDLE; pat.ranks()]), |s, k| per(s, k))
        .try_reduce(|| (0, 0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1, a.2.max(b.2))))
        .map_err(|e| e.to_string())?;
    let steps = pat.phases() + usize::from(pn > 1);
    Ok(Cost {
        algorithm: name.to_string(),
        source: "ibfat",
        steps,
        // the intra-node exchange: P_n − 1 messages per rank at full bandwidth
        messages: sums.0 + (pn - 1),
        weighted_blocks: sums.1 + (pn - 1),
        barrier_millis: 0,
        max_congestion: sums.2,
    })
}

/// One algorithm's prediction at one size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlgorithmTime {
    /// The algorithm.
    pub algorithm: String,
    /// Predicted time of one all-to-all, seconds.
    pub predicted_seconds: f64,
    /// Still a candidate after pruning (predicted below threshold × best).
    pub kept: bool,
}

/// The predictions at one message size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SizePrediction {
    /// Bytes per block (what every rank sends to every other).
    pub msg_size: u64,
    /// Every priced algorithm, in the order of [`costs`].
    pub algorithms: Vec<AlgorithmTime>,
    /// The fastest (the first of equals).
    pub best: String,
    /// The kept algorithms, fastest first (ties in the order of [`costs`]).
    pub shortlist: Vec<String>,
}

/// Price every cost at `msg_size` and prune: an algorithm predicted at `threshold` × the
/// best or slower is dropped (seed 001 drops those at 2× or more).
pub fn predict(costs: &[Cost], h: &Hockney, msg_size: u64, threshold: f64) -> SizePrediction {
    let times: Vec<f64> = costs.iter().map(|c| c.seconds(h, msg_size)).collect();
    let best_i = (0..times.len()).min_by(|&a, &b| times[a].total_cmp(&times[b]).then(a.cmp(&b)));
    let best_t = best_i.map_or(0.0, |i| times[i]);
    let algorithms: Vec<AlgorithmTime> = costs
        .iter()
        .zip(&times)
        .enumerate()
        .map(|(i, (c, &t))| AlgorithmTime {
            algorithm: c.algorithm.clone(),
            predicted_seconds: t,
            kept: Some(i) == best_i || t < threshold * best_t,
        })
        .collect();
    let mut order: Vec<usize> = (0..costs.len()).filter(|&i| algorithms[i].kept).collect();
    order.sort_by(|&a, &b| times[a].total_cmp(&times[b]).then(a.cmp(&b)));
    SizePrediction {
        msg_size,
        best: best_i.map(|i| costs[i].algorithm.clone()).unwrap_or_default(),
        shortlist: order.into_iter().map(|i| costs[i].algorithm.clone()).collect(),
        algorithms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::twolevel::model::TwolevelParams;
    use crate::routing::route;
    use crate::topology::{FamilySpec, Spec};

    fn small() -> (Topology, Lids, LftSet) {
        let t = TwolevelParams {
            leaves: 4,
            hosts_per_leaf: 8,
            spines: 2,
            links_per_pair: 1,
        };
        let plan = Spec::new(FamilySpec::Pgft(t.pgft().unwrap())).build().unwrap();
        let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), 0).unwrap();
        let lfts = route(&plan.fabric, &plan.layout, &lids).unwrap();
        (plan, lids, lfts)
    }

    #[test]
    fn ring_on_one_leaf_is_conflict_free_and_bruck_counts_its_combined_blocks() {
        let (plan, lids, lfts) = small();
        let job = Job::from_fabric_ranks(plan.layout.hosts(), (0..8).collect()).unwrap();
        let p = Placement {
            plan: &plan,
            lids: &lids,
            lfts: &lfts,
            job: &job,
            ranks_per_node: 1,
        };
        let (c, skipped) = costs(&p, None).unwrap();
        let get = |n: &str| c.iter().find(|x| x.algorithm == n).unwrap();
        assert_eq!((get("ring").messages, get("ring").weighted_blocks), (7, 7));
        assert_eq!((get("bruck").steps, get("bruck").weighted_blocks), (3, 12));
        // spread: every node's cable carries 7 flows at once
        assert_eq!((get("spread").messages, get("spread").weighted_blocks), (7, 7));
        assert_eq!(get("ring-mpi-barrier").barrier_millis, 21000);
        assert!(c.iter().any(|x| x.algorithm == "kary-shift"));
        assert!(skipped.iter().any(|s| s.algorithm == "lsft"));
        let h = Hockney::new(1e-6, 1e9).unwrap();
        let s = predict(&c, &h, 1024, 2.0);
        assert_eq!(s.best, s.shortlist[0]);
        assert!(s.algorithms.iter().filter(|a| a.kept).count() == s.shortlist.len());
    }

    #[test]
    fn two_ranks_per_node_share_the_cable_and_exchange_inside_the_node() {
        let (plan, lids, lfts) = small();
        let job = Job::from_fabric_ranks(plan.layout.hosts(), (0..4).collect()).unwrap();
        let p = Placement {
            plan: &plan,
            lids: &lids,
            lfts: &lfts,
            job: &job,
            ranks_per_node: 2,
        };
        let (c, _) = costs(&p, Some(&["spread".into(), "ring".into()])).unwrap();
        // spread over 8 ranks on 4 nodes: each cable carries 2 ranks × 6 remote ranks
        assert_eq!(c[0].weighted_blocks, 12);
        // ring step 1: r → r+1, half the flows inside a node, two per cable at most
        assert_eq!(c.len(), 2);
        let many = Placement {
            ranks_per_node: 257,
            ..p
        };
        assert!(costs(&many, None).unwrap_err().to_string().contains("1..=256"));
        let e = costs(&p, Some(&["bogus".into()])).unwrap_err().to_string();
        assert!(e.contains("unknown algorithm `bogus`"), "{e}");
        assert!(Hockney::new(-1.0, 1.0).is_err() && Hockney::new(1.0, 0.0).is_err());
        assert_eq!(parse_size("16K").unwrap(), 16384);
        assert_eq!(parse_size("1MiB").unwrap(), 1 << 20);
        assert!(parse_size("0").is_err() && parse_size("12Q").is_err() && parse_size("").is_err());
        let path = std::path::Path::new("p.yaml");
        let h = Hockney::from_profile("# measured\nlatency: 2e-6\nbandwidth: 3e9\n", path).unwrap();
        assert_eq!((h.latency, h.bandwidth), (2e-6, 3e9));
        let e = Hockney::from_profile("latency: x\n", path).unwrap_err().to_string();
        assert!(e.contains("p.yaml:1") && e.contains("not a number"), "{e}");
    }
}
