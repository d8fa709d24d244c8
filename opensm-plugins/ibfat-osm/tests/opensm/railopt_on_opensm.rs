//! Rail-optimised clusters inside a stock OpenSM 3.3.23 (issue 40 items 4 and 6):
//! SuperPOD-shaped fabrics of 1 and 4 scalable units (cables on random free ports, as
//! found) run in ibsim; OpenSM's ftree routes them, then the ibfat plugin routes them
//! itself (validating its tables). On the tables each engine programmed, in the same run,
//! ibfat is at least ftree on every pattern: the GPU collectives (`rail-alltoall`,
//! `rail-ring`, the shift in GPU order) and the fabric-wide ones (shift, bisection,
//! random permutations in ibfat's rank order, there over 8 seeds: not worse by more than
//! two standard errors of the paired difference);
//! `rail-alltoall`, `rail-ring` and the shift in GPU order are conflict-free on ibfat's.

use crate::found;
use crate::harness;

use crate::harness::{OsmConfig, Sim};
use ibfat::check::{check, CompiledRoutes};
use ibfat::families::railopt::schedule::{RailCollective, RailTraffic};
use ibfat::recognize::{recognize, Recognition};
use ibfat::schedule::compare::{Bisection, RandomPermutations};
use ibfat::schedule::job::Hosts;
use ibfat::schedule::shift::Shift;
use ibfat::schedule::{Job, Pattern};

const PATTERNS: [&str; 5] = ["rail-alltoall", "rail-ring", "shift (GPU order)", "shift", "bisection"];

/// Seeds of the random permutations (N phases each) both engines are measured on.
const SEEDS: u64 = 8;

/// (throughput ratio, max congestion) of every pattern of [`PATTERNS`] on the tables the
/// switches hold, and the ratio of N random permutations for each of [`SEEDS`] seeds.
fn figures(sim: &Sim, servers: &str) -> (Vec<(f64, u32)>, Vec<f64>) {
    let (fabric, lids, tables) = sim.programmed();
    let layout = match recognize(&fabric, None) {
        Recognition::Recognized { layout, .. } => layout,
        Recognition::Unrecognized { reason, .. } => panic!("unrecognised: {reason}"),
    };
    let whole = Job::whole(layout.hosts());
    let gpu = Job::from_hostlist(servers, &Hosts::new(&fabric, layout.hosts(), "sim")).unwrap();
    let mut out = Vec::new();
    for (job, patterns) in [
        (
            &whole,
            vec![
                Box::new(RailTraffic::new(&fabric, &whole, RailCollective::AllToAll).unwrap()) as Box<dyn Pattern>,
                Box::new(RailTraffic::new(&fabric, &whole, RailCollective::Ring).unwrap()),
            ],
        ),
        (&gpu, vec![Box::new(Shift::new(gpu.len())) as Box<dyn Pattern>]),
        (
            &whole,
            vec![
                Box::new(Shift::new(whole.len())) as Box<dyn Pattern>,
                Box::new(Bisection::new(whole.len())),
            ],
        ),
    ] {
        let routes = CompiledRoutes::compile(&fabric, &lids, &tables, job.hosts(), 0).unwrap();
        for p in patterns {
            let r = check(&fabric, job.hosts(), &routes, p.as_ref(), 0..p.phases(), &|| {}).unwrap();
            assert_eq!(r.unrouted_flows, 0, "{}", p.name());
            out.push((r.throughput_ratio, r.max_congestion));
        }
    }
    let routes = CompiledRoutes::compile(&fabric, &lids, &tables, whole.hosts(), 0).unwrap();
    let n = whole.len();
    let random = (1..=SEEDS)
        .map(|seed| {
            let p = RandomPermutations::new(n, n, seed);
            check(&fabric, whole.hosts(), &routes, &p, 0..n, &|| {})
                .unwrap()
                .throughput_ratio
        })
        .collect();
    (out, random)
}

fn engine(sim: &Sim, name: &str, servers: &str) -> (Vec<(f64, u32)>, Vec<f64>) {
    let mut cfg = OsmConfig {
        engine: name.into(),
        extra_args: vec!["-s".into(), "0".into()],
        ..Default::default()
    };
    if name == "ibfat" {
        cfg = cfg.with_ibfat_plugin("validate=1");
    }
    let run = sim.opensm(&cfg);
    assert!(
        run.success && run.configured_by().as_deref() == Some(name),
        "{name} did not route the fabric itself:\n{}",
        harness::tail(&run.log, 40)
    );
    figures(sim, servers)
}

fn compare(sus: usize, seed: u64) {
    harness::require_tools();
    let f = found::superpod(seed, sus);
    let sim = Sim::start_text(&ibfat::formats::ibsim::write_net(&f, &[]));
    let servers = format!("dgx[001-{:03}]", 31 * sus);
    let (ftree, ftree_random) = engine(&sim, "ftree", &servers);
    let (ours, our_random) = engine(&sim, "ibfat", &servers);
    for (k, what) in PATTERNS.iter().enumerate() {
        println!(
            "{sus} SU, {what}: ibfat {:.4} (max {}), ftree {:.4} (max {})",
            ours[k].0, ours[k].1, ftree[k].0, ftree[k].1
        );
        assert!(
            ours[k].0 >= ftree[k].0,
            "{sus} SU {what}: ibfat {:?} < ftree {:?}",
            ours[k],
            ftree[k]
        );
    }
    assert_eq!(ours[0], (1.0, 1), "rail-alltoall on ibfat's tables");
    assert_eq!(ours[1], (1.0, 1), "rail-ring on ibfat's tables");
    assert_eq!(ours[2], (1.0, 1), "the shift in GPU order on ibfat's tables");
    // random permutations: both engines spread them by destination, and one draw favours
    // either by a few parts in 10^3. Over the seeds, ibfat is not worse: the mean of the
    // paired differences is above minus two standard errors.
    let diff: Vec<f64> = our_random.iter().zip(&ftree_random).map(|(a, b)| a - b).collect();
    let mean = diff.iter().sum::<f64>() / diff.len() as f64;
    let var = diff.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (diff.len() - 1) as f64;
    let stderr = (var / diff.len() as f64).sqrt();
    let avg = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    println!(
        "{sus} SU, random ({SEEDS} seeds x N permutations): ibfat {:.4}, ftree {:.4}, paired difference {mean:+.4} +- {stderr:.4}",
        avg(&our_random),
        avg(&ftree_random)
    );
    assert!(
        mean >= -2.0 * stderr,
        "{sus} SU random: ibfat {our_random:?} against ftree {ftree_random:?}"
    );
}

#[test]
fn one_unit_ibfat_is_at_least_ftree_on_every_pattern() {
    compare(1, 21);
}

#[test]
fn four_units_ibfat_is_at_least_ftree_on_every_pattern() {
    compare(4, 22);
}
