//! Broadcast plans on the real tables: a plan's steady state checked lane by lane, and
//! broadcast algorithms side by side with their predicted times (issue 14 items 3 and 4;
//! docs/schedules.md §6.3, §6.4). Here rather than in `schedule::bcast` because it
//! measures plans with the checker, a layer above the schedules.
//!
//! Every algorithm is reduced to what runs at once and how deep it is:
//! * **multi-lane trees** (a [`Bcast`], any placement): in the pipeline's steady state
//!   every flow runs at once; on a multi-rail fabric lane k is on rail k, so each lane is
//!   measured on its own rail's tables and the worst counts, on one rail all lanes share
//!   the host cables and are measured together. The message travels in L parts.
//! * **binary tree** (pipelined, one port): rank i of the order (root first, then job rank
//!   order from the root on) feeds 2i+1 and 2i+2; all edges at once, so an interior rank's
//!   cable carries two flows.
//! * **pipelined chain**: i feeds i+1; all edges at once.
//! * **binomial tree** (not pipelined: the whole message per round): round k, ranks
//!   i < 2^k feed i + 2^k; each round measured on its own.
//!
//! "Measured" is [`StepMeter`]: the most flows on one directed link, host cables
//! included, on the routes the tables hold. A pipelined algorithm of depth D moving parts
//! of M/p bytes in segments of s bytes (S = ⌈M/(p·s)⌉ per part) takes (D + S − 1)·(l +
//! s·c/b): per hop latency l, port bandwidth b, and every segment step slowed to b/c by
//! the busiest link; the binomial tree takes Σ_k (l + M·c_k/b). As M grows the pipelined
//! broadcast delivers p·b/c (the `bandwidth_share` p/c), the binomial tree b/Σc_k.

use crate::check::steps::{StepMeter, StepScratch};
use crate::error::{Error, Result};
use crate::schedule::bcast::{Bcast, SteadyState};

/// How a pipelined algorithm cuts its parts into segments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Segmenting {
    /// The segment size that minimises the predicted time: the part cut in the best
    /// number of equal segments (at least one byte each).
    Auto,
    /// Segments of this many bytes (the last one of a part may be shorter).
    Bytes(f64),
}

/// One algorithm as measured on the tables.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Compared {
    /// `multilane` (the placement chosen), `multilane-rank-order`, `binary-tree`,
    /// `binomial-tree`, `chain`.
    pub algorithm: String,
    /// Hops from the root to the deepest rank (binomial: rounds).
    pub depth: u32,
    /// Parts the message travels in (L for multi-lane trees, else 1).
    pub parts: u32,
    /// Pipelined in segments (all but the binomial tree).
    pub pipelined: bool,
    /// Most flows on one link: of the steady state (one figure), or of every round
    /// (binomial tree).
    pub congestion: Vec<u32>,
    /// Broadcast bandwidth for large messages over one port's: p/c, or 1/Σc_k.
    pub bandwidth_share: f64,
}

impl Compared {
    /// Predicted seconds for `bytes` with per-hop latency `l` (s) and port bandwidth `b`
    /// (bytes/s), and the segment size used (0 for the binomial tree).
    pub fn time(&self, bytes: f64, l: f64, b: f64, seg: Segmenting) -> (f64, f64) {
        // NaN is caught here too: the callers refuse such inputs, the model never
        // panics on them
        if self.depth == 0 || bytes.is_nan() || bytes <= 0.0 {
            return (0.0, 0.0);
        }
        if !self.pipelined {
            let t = self.congestion.iter().map(|&c| l + bytes * f64::from(c) / b).sum();
            return (t, 0.0);
        }
        let c = f64::from(self.congestion.iter().copied().max().unwrap_or(1).max(1));
        // a message smaller than the lanes still sends one byte per part
        let part = (bytes / f64::from(self.parts.max(1))).max(1.0);
        let d = f64::from(self.depth);
        let at = |s: f64| {
            let s = s.clamp(1.0, part);
            let segments = (part / s).ceil();
            ((d + segments - 1.0) * (l + s * c / b), s)
        };
        match seg {
            Segmenting::Bytes(s) => at(s),
            Segmenting::Auto => {
                // (D + S − 1)(l + part·c/(S·b)) is convex in the number of segments S;
                // its best integer S is next to the continuous optimum
                let most = part.floor().max(1.0);
                let best = if l > 0.0 {
                    ((d - 1.0).max(0.0) * part * c / (b * l)).sqrt()
                } else {
                    most
                };
                [1.0, best.floor(), best.ceil()]
                    .into_iter()
                    .map(|n| n.clamp(1.0, most))
                    .map(|n| at(part / n))
                    .fold((f64::INFINITY, part), |acc, x| if x.0 < acc.0 { x } else { acc })
            }
        }
    }
}

/// Measures the algorithms on the routes between a job's hosts: `meters[k]` are the
/// routes of rail k (one entry on a single-rail fabric; the job's ranks are the routes'
/// nodes on every rail).
pub struct Comparer<'a> {
    meters: Vec<StepMeter<'a>>,
}

impl<'a> Comparer<'a> {
    /// A comparer over one meter per rail (at least one).
    pub fn new(meters: Vec<StepMeter<'a>>) -> Comparer<'a> {
        assert!(!meters.is_empty(), "one meter per rail, at least one");
        Comparer { meters }
    }

    fn load(&mut self, rail: usize, flows: &[(u32, u32)]) -> Result<u32> {
        let m = &self.meters[rail % self.meters.len()];
        let mut scratch: StepScratch = m.scratch();
        Ok(
            m.measure(&mut scratch, &mut |f| flows.iter().for_each(|&(a, b)| f(a, b, 1)))?
                .congestion,
        )
    }

    /// A multi-lane plan's steady state (module text), named `name`.
    pub fn multilane(&mut self, name: &str, b: &Bcast) -> Result<Compared> {
        let lane =
            |k: u32| -> Vec<(u32, u32)> { b.flows.iter().filter(|f| f.lane == k).map(|f| (f.from, f.to)).collect() };
        let c = if self.meters.len() > 1 {
            let mut worst = 0;
            for k in 0..b.lanes {
                worst = worst.max(self.load(k as usize, &lane(k))?);
            }
            worst
        } else {
            let all: Vec<(u32, u32)> = b.flows.iter().map(|f| (f.from, f.to)).collect();
            self.load(0, &all)?
        };
        Ok(Compared {
            algorithm: name.into(),
            depth: b.depths().into_iter().max().unwrap_or(0),
            parts: b.lanes,
            pipelined: true,
            congestion: vec![c],
            bandwidth_share: f64::from(b.lanes) / f64::from(c.max(1)),
        })
    }

    /// The pipelined binary tree, chain and the binomial tree over `ranks` from `root`.
    pub fn classic(&mut self, ranks: u32, root: u32) -> Result<Vec<Compared>> {
        let at = |i: u32| (root + i) % ranks;
        let binary: Vec<(u32, u32)> = (1..ranks).map(|i| (at((i - 1) / 2), at(i))).collect();
        let chain: Vec<(u32, u32)> = (1..ranks).map(|i| (at(i - 1), at(i))).collect();
        let pipelined = |name: &str, depth: u32, c: u32| Compared {
            algorithm: name.into(),
            depth,
            parts: 1,
            pipelined: true,
            congestion: vec![c],
            bandwidth_share: 1.0 / f64::from(c.max(1)),
        };
        let mut rounds = Vec::new();
        let mut k = 1u32;
        while k < ranks {
            let flows: Vec<(u32, u32)> = (0..k.min(ranks - k)).map(|i| (at(i), at(i + k))).collect();
            rounds.push(self.load(0, &flows)?);
            k = k.saturating_mul(2);
        }
        let binary_depth = if ranks > 1 { 31 - ranks.leading_zeros() } else { 0 };
        Ok(vec![
            pipelined("binary-tree", binary_depth, self.load(0, &binary)?),
            Compared {
                algorithm: "binomial-tree".into(),
                depth: rounds.len() as u32,
                parts: 1,
                pipelined: false,
                bandwidth_share: 1.0 / (rounds.iter().map(|&c| f64::from(c.max(1))).sum::<f64>()).max(1.0),
                congestion: rounds,
            },
            pipelined("chain", ranks.saturating_sub(1), self.load(0, &chain)?),
        ])
    }
}

/// Check lanes `lanes` of the steady state on the tables `lfts` of `fabric`: one report
/// per lane, the lane's flows all at once ([`SteadyState`] phase k). `hosts[r]` is rank
/// r's port on the plane these tables route (on a multi-rail fabric, rail k's port for
/// lane k: the caller passes rail k's fabric and tables). The schedule report's
/// `steady_state` is this on ibfat's own tables; a test of the real components calls it on
/// the tables read back from the switches, so both answer with the same checker.
pub fn check_steady_state(
    fabric: &crate::topology::Fabric,
    hosts: &[crate::topology::Endpoint],
    lids: &crate::routing::Lids,
    lfts: &crate::routing::LftSet,
    b: &Bcast,
    lanes: std::ops::Range<u32>,
) -> Result<Vec<crate::check::CheckReport>> {
    use crate::check::{check, CompiledRoutes};
    if hosts.len() != b.ranks as usize {
        return Err(Error::input(
            "hosts",
            format!("{} hosts for a plan of {} ranks", hosts.len(), b.ranks),
            None,
        ));
    }
    let routes = CompiledRoutes::compile(fabric, lids, lfts, hosts, 0)?;
    let pattern = SteadyState(b);
    lanes
        .map(|k| check(fabric, hosts, &routes, &pattern, k as usize..k as usize + 1, &|| {}))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CompiledRoutes;
    use crate::families::kary::model::KaryParams;
    use crate::families::lsft::model::LsftParams;
    use crate::families::mols::model::{MolsParams, WiringChoice};
    use crate::routing::{route, Lids};
    use crate::schedule::bcast::subtree_levels;
    use crate::topology::{FamilySpec, Spec};

    /// On LSFT, k-ary trees and a standard-wired MOLS (a tree) the nested plan's steady
    /// state has one flow per link on every lane, on ibfat's own tables.
    #[test]
    fn the_steady_state_is_conflict_free_on_tree_fabrics() {
        let fabrics = [
            ("lsft 3", FamilySpec::Lsft(LsftParams::new(3, false))),
            ("lsft 4", FamilySpec::Lsft(LsftParams::new(4, false))),
            ("kary 4x3", FamilySpec::Kary(KaryParams { arity: 4, levels: 3 })),
            ("kary 3x3", FamilySpec::Kary(KaryParams { arity: 3, levels: 3 })),
            ("kary 2x4", FamilySpec::Kary(KaryParams { arity: 2, levels: 4 })),
            (
                "mols 4 standard",
                FamilySpec::Mols(MolsParams {
                    arity: 4,
                    wiring: WiringChoice::Standard,
                }),
            ),
            (
                "mols 4",
                FamilySpec::Mols(MolsParams {
                    arity: 4,
                    wiring: WiringChoice::Mols,
                }),
            ),
            (
                "mols 5",
                FamilySpec::Mols(MolsParams {
                    arity: 5,
                    wiring: WiringChoice::Mols,
                }),
            ),
        ];
        for (name, f) in fabrics {
            let t = Spec::new(f).build().unwrap();
            let hosts = t.layout.hosts();
            let levels = subtree_levels(&t.fabric, hosts);
            let lids = Lids::plan(&t.fabric, hosts, 0).unwrap();
            let lfts = route(&t.fabric, &t.layout, &lids).unwrap();
            let routes = CompiledRoutes::compile(&t.fabric, &lids, &lfts, hosts, 0).unwrap();
            let meter = StepMeter::new(&routes);
            for root in [0, hosts.len() as u32 - 1] {
                let b = Bcast::build_nested(hosts.len() as u32, root, 2, &levels).unwrap();
                for k in 0..2 {
                    let mut s = meter.scratch();
                    let c = meter
                        .measure(&mut s, &mut |emit| {
                            b.flows
                                .iter()
                                .filter(|f| f.lane == k)
                                .for_each(|f| emit(f.from, f.to, 1))
                        })
                        .unwrap()
                        .congestion;
                    assert_eq!(c, 1, "{name} root {root} lane {k}: levels {}", levels.len());
                }
            }
        }
    }

    fn alg(depth: u32, parts: u32, pipelined: bool, congestion: Vec<u32>) -> Compared {
        Compared {
            algorithm: "t".into(),
            depth,
            parts,
            pipelined,
            bandwidth_share: 0.0,
            congestion,
        }
    }

    #[test]
    fn the_pipeline_formula() {
        // depth 3, one part, 4 segments of 1000 bytes at 1000 B/s, latency 1 s, no congestion
        let a = alg(3, 1, true, vec![1]);
        let (t, s) = a.time(4000.0, 1.0, 1000.0, Segmenting::Bytes(1000.0));
        assert_eq!((t, s), ((3.0 + 4.0 - 1.0) * 2.0, 1000.0));
        // two lanes halve the part, congestion 2 doubles the segment time
        let a = alg(3, 2, true, vec![2]);
        let (t, _) = a.time(4000.0, 1.0, 1000.0, Segmenting::Bytes(1000.0));
        assert_eq!(t, (3.0 + 2.0 - 1.0) * 3.0);
        // auto is never worse than any fixed size tried
        for s in [64.0, 500.0, 1000.0, 2000.0] {
            assert!(
                a.time(4000.0, 1.0, 1000.0, Segmenting::Auto).0 <= a.time(4000.0, 1.0, 1000.0, Segmenting::Bytes(s)).0
            );
        }
        // binomial: the sum of its rounds
        let b = alg(2, 1, false, vec![1, 3]);
        assert_eq!(b.time(1000.0, 1.0, 1000.0, Segmenting::Auto).0, 2.0 + 1.0 + 3.0);
    }
}
