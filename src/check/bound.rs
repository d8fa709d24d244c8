//! The leaf-cut bound of a pattern's throughput ratio: a figure no routing of the fabric
//! can beat, so that a measured ratio reads against what the cabling allows rather than
//! against 1.0 (an irregular tree with 24 hosts over 4 uplinks cannot give a shift better
//! than about 1/6 to its off-leaf flows, whatever the engine).
//!
//! Every flow that leaves the switch its source hangs off crosses one of that switch's
//! switch-to-switch cables; `k` such flows over `u` cables share them at best evenly, so
//! the sum of 1/c over them is at most min(k, u). The same holds for the flows entering
//! the destination's switch. A phase's sum of 1/c is therefore at most its flows between
//! hosts of one switch plus the smaller of the two sums over switches; the bound is the
//! sum over phases divided by the flows, the ratio's own denominator (docs/tree.md §3).

use crate::schedule::{Pattern, IDLE};
use crate::topology::{Endpoint, Fabric, NodeKind, NO_PEER};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The leaf-cut bound of some phases: integer parts, so that shards add up exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LeafCut {
    /// The bound on the phases' sum of 1/c over their flows.
    pub sum: u64,
    /// Their flows (idle ranks and self-flows excluded): the ratio's denominator.
    pub flows: u64,
    /// `sum / flows` (1.0 without flows): no routing's throughput ratio exceeds it.
    pub bound: f64,
}

impl LeafCut {
    fn new(sum: u64, flows: u64) -> LeafCut {
        let bound = if flows == 0 { 1.0 } else { sum as f64 / flows as f64 };
        LeafCut { sum, flows, bound }
    }

    /// The bound of two disjoint sets of phases together (`None` when the counts overflow).
    pub(crate) fn join(self, other: LeafCut) -> Option<LeafCut> {
        Some(LeafCut::new(
            self.sum.checked_add(other.sum)?,
            self.flows.checked_add(other.flows)?,
        ))
    }
}

/// The leaf-cut bound of `pattern` on `hosts` (rank order) in `fabric` (module
/// documentation): at least the throughput ratio of any tables. 1.0 without flows.
pub fn leaf_cut_bound<P: Pattern + ?Sized>(fabric: &Fabric, hosts: &[Endpoint], pattern: &P) -> f64 {
    leaf_cut(fabric, hosts, pattern, 0..pattern.phases()).bound
}

/// The leaf-cut bound of the phases `range` of `pattern` (a shard's part).
pub fn leaf_cut<P: Pattern + ?Sized>(
    fabric: &Fabric,
    hosts: &[Endpoint],
    pattern: &P,
    range: std::ops::Range<usize>,
) -> LeafCut {
    let ranks = pattern.ranks().min(hosts.len());
    let switch_of: Vec<u32> = hosts[..ranks]
        .iter()
        .map(|ep| fabric.peer(ep.node, ep.port).map_or(NO_PEER, |(s, _)| s))
        .collect();
    let cut: Vec<u32> = (0..fabric.len() as u32)
        .map(|n| {
            let node = fabric.node(n);
            if node.kind != NodeKind::Switch {
                return 0;
            }
            (1..=node.nports)
                .filter(|&p| {
                    fabric
                        .peer(n, p)
                        .is_some_and(|(m, _)| fabric.node(m).kind == NodeKind::Switch)
                })
                .count() as u32
        })
        .collect();
    let (sum, flows) = range
        .into_par_iter()
        .map_init(
            || Phase::new(pattern.ranks(), fabric.len()),
            |ph, p| ph.bound(pattern, p, &switch_of, &cut),
        )
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    LeafCut::new(sum, flows)
}

/// One phase's counters, reused from phase to phase.
struct Phase {
    dest: Vec<u32>,
    out: Vec<u32>,
    into: Vec<u32>,
    touched: Vec<u32>,
}

impl Phase {
    fn new(ranks: usize, nodes: usize) -> Phase {
        Phase {
            dest: vec![IDLE; ranks],
            out: vec![0; nodes],
            into: vec![0; nodes],
            touched: Vec::new(),
        }
    }

    /// (Bound on the phase's sum of 1/c, its flows): integers, so that the total does not
    /// depend on the order phases are added in.
    fn bound<P: Pattern + ?Sized>(&mut self, pattern: &P, p: usize, switch_of: &[u32], cut: &[u32]) -> (u64, u64) {
        pattern.phase(p, &mut self.dest);
        let (mut flows, mut local) = (0u64, 0u64);
        for (r, &d) in self.dest.iter().enumerate().take(switch_of.len()) {
            if d == IDLE || d as usize == r {
                continue;
            }
            flows += 1;
            let (a, b) = (switch_of[r], switch_of.get(d as usize).copied().unwrap_or(NO_PEER));
            if a == NO_PEER || b == NO_PEER {
                continue; // a host without a cable: no routing delivers it
            }
            if a == b {
                local += 1;
                continue;
            }
            for s in [a, b] {
                if self.out[s as usize] == 0 && self.into[s as usize] == 0 {
                    self.touched.push(s);
                }
            }
            self.out[a as usize] += 1;
            self.into[b as usize] += 1;
        }
        let (mut leaving, mut entering) = (0u64, 0u64);
        for &s in &self.touched {
            let s = s as usize;
            leaving += u64::from(self.out[s].min(cut[s]));
            entering += u64::from(self.into[s].min(cut[s]));
            self.out[s] = 0;
            self.into[s] = 0;
        }
        self.touched.clear();
        (local + leaving.min(entering), flows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::shift::Shift;
    use crate::topology::{Fabric, NodeKind};

    /// Two leaves of 4 hosts joined by one spine over one cable each: the 4 flows leaving
    /// a leaf share its one uplink, so a shift phase that crosses sums at most 1 per leaf.
    #[test]
    fn one_uplink_per_leaf_bounds_the_crossing_phases() {
        let mut f = Fabric::default();
        let spine = f.add_node(NodeKind::Switch, 8, 1, "S", "S").unwrap();
        let mut hosts = Vec::new();
        for l in 0..2u8 {
            let leaf = f
                .add_node(NodeKind::Switch, 8, 10 + u64::from(l), format!("L{l}"), "L")
                .unwrap();
            f.connect(leaf, 8, spine, u32::from(l) + 1).unwrap();
            for h in 0..4u8 {
                let g = 100 + u64::from(l * 4 + h);
                let n = f.add_node(NodeKind::Ca, 1, g, format!("h{g}"), "h").unwrap();
                f.connect(n, 1, leaf, u32::from(h) + 1).unwrap();
                hosts.push(Endpoint { node: n, port: 1 });
            }
        }
        // phase s (1..=7) sends rank r to r + s mod 8; ranks 0..=3 hang off leaf 0.
        // 2·|4 - s| flows stay on their leaf; the others cross, at least one per leaf and
        // direction, over a cut of 1 cable: 2 in all.
        let b = leaf_cut_bound(&f, &hosts, &Shift::new(8));
        let sum: u64 = (1..8u64).map(|s| 2 * s.abs_diff(4) + 2).sum();
        assert_eq!(sum, 38);
        assert_eq!(b, 38.0 / 56.0);
        // phases in two parts add up to the whole
        let (x, y) = (
            leaf_cut(&f, &hosts, &Shift::new(8), 0..3),
            leaf_cut(&f, &hosts, &Shift::new(8), 3..8),
        );
        assert_eq!(x.join(y), Some(leaf_cut(&f, &hosts, &Shift::new(8), 0..8)));
    }
}
