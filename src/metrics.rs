//! Cost and latency figures that decide between fabric families.
//!
//! Costs are counted from the constructions (not from a paper's formula): with switches
//! of degree d (2d ports, half down and half up), a 2-level fat-tree connects d² hosts
//! with 2d switches, a 3-level one d³ hosts with 3d² switches, and a Latin-square
//! fat-tree of order q = d−1 connects d(q²+q+1) hosts with 2(q²+q+1) switches (one-sided)
//! or 2d(q²+q+1) hosts with 3(q²+q+1) switches (two-sided). A full mesh of the same
//! switches splits the ports the same way — d hosts and d cables to the other switches —
//! so it has d+1 switches, d(d+1) hosts and d(d+1)/2 switch cables: barely more hosts than
//! a 2-level fat-tree (d² on 2d switches) with about half the switches, every pair one
//! switch hop apart, but one cable per switch pair instead of d paths.
//!
//! Hops count switches traversed: 1 on the same bottom switch, 3 through a shared middle
//! switch, 5 through a top switch. Averages are over all ordered host pairs including a
//! host to itself (0 hops), as in the proximity-wiring paper.

use crate::families::mols::model::{proximity, wiring_table, Wiring};
use crate::geometry::is_prime_power;
use serde::Serialize;

/// Hosts, switches and cables of one construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Host ports the construction connects.
    pub hosts: u64,
    /// Switches it needs, all of the same 2d-port model.
    pub switches: u64,
    /// Switch-to-switch cables.
    pub switch_cables: u64,
    /// Host-to-switch cables (= hosts).
    pub host_cables: u64,
}

impl Counts {
    /// Hosts per switch: the cost figure that favours the LSFT.
    pub fn hosts_per_switch(&self) -> f64 {
        self.hosts as f64 / self.switches as f64
    }
}

/// Cost of each family at one switch degree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostRow {
    /// Switch degree d: down ports (= up ports) per switch.
    pub degree: u64,
    /// Ports per switch, 2d.
    pub ports: u64,
    /// 2-level fat-tree: d² hosts on 2d switches.
    pub fat_tree_2_level: Counts,
    /// 3-level fat-tree: d³ hosts on 3d² switches.
    pub fat_tree_3_level: Counts,
    /// One-sided LSFT(d−1); `None` when d−1 is not a prime power (no projective plane known).
    pub lsft_one_sided: Option<Counts>,
    /// Two-sided LSFT(d−1); `None` under the same condition.
    pub lsft_two_sided: Option<Counts>,
    /// Full mesh: d+1 switches, d hosts and d cables to the other switches on each.
    pub full_mesh: Counts,
}

/// The full mesh the ports of a 2d-port switch allow with d hosts per switch and one
/// cable per switch pair (what [`CostRow::full_mesh`] counts).
pub(crate) fn full_mesh_counts(d: u64) -> Counts {
    Counts {
        hosts: d * (d + 1),
        switches: d + 1,
        switch_cables: d * (d + 1) / 2,
        host_cables: d * (d + 1),
    }
}

/// Costs for switch degrees `degrees`.
pub fn cost_table(degrees: impl IntoIterator<Item = u64>) -> Vec<CostRow> {
    degrees
        .into_iter()
        .map(|d| {
            let q = d - 1;
            let n = q * q + q + 1;
            let lsft = (q >= 2 && is_prime_power(q as u32)).then_some(());
            CostRow {
                degree: d,
                ports: 2 * d,
                fat_tree_2_level: Counts {
                    hosts: d * d,
                    switches: 2 * d,
                    switch_cables: d * d,
                    host_cables: d * d,
                },
                fat_tree_3_level: Counts {
                    hosts: d * d * d,
                    switches: 3 * d * d,
                    switch_cables: 2 * d * d * d,
                    host_cables: d * d * d,
                },
                lsft_one_sided: lsft.map(|_| Counts {
                    hosts: d * n,
                    switches: 2 * n,
                    switch_cables: d * n,
                    host_cables: d * n,
                }),
                lsft_two_sided: lsft.map(|_| Counts {
                    hosts: 2 * d * n,
                    switches: 3 * n,
                    switch_cables: 2 * d * n,
                    host_cables: 2 * d * n,
                }),
                full_mesh: full_mesh_counts(d),
            }
        })
        .collect()
}

/// Latency figures of one wiring of an n-ary 3-tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WiringFigures {
    /// `standard`, `basic` or `mols`.
    pub wiring: String,
    /// Mean number of bottom switches sharing a middle switch with a bottom (self included).
    pub proximity_switches: f64,
    /// Fewest proximity switches of any bottom.
    pub proximity_min: u32,
    /// Most proximity switches of any bottom.
    pub proximity_max: u32,
    /// proximity / n(n−1)+1.
    pub ratio_to_bound: f64,
    /// Mean number of other hosts reachable within 3 hops.
    pub hosts_within_3_hops: f64,
    /// Mean switch hops over all ordered host pairs, a host to itself (0 hops) included.
    pub average_hops: f64,
}

/// Latency figures of the three wirings for one arity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HopRow {
    /// Arity n of the 3-tree (switches have 2n ports).
    pub arity: u32,
    /// Hosts of the tree, n³.
    pub hosts: u64,
    /// Most proximity switches a bottom can have, n(n−1)+1.
    pub bound: u32,
    /// The standard n-ary 3-tree, the baseline of the gains.
    pub standard: WiringFigures,
    /// Cyclic squares r + u·c mod n (any n).
    pub basic: WiringFigures,
    /// Complete MOLS, prime powers only.
    pub mols: Option<WiringFigures>,
    /// The best available wiring (`mols` for prime powers, else `basic`), compared with
    /// standard in the next two figures.
    pub best_wiring: String,
    /// Its hosts within 3 hops divided by standard's (a factor, > 1 is better).
    pub within_3_hops_gain: f64,
    /// Its average hops relative to standard's (relative change, negative = fewer hops).
    pub average_hops_change: f64,
}

/// Figures for one wiring, computed exactly from its Latin squares.
pub(crate) fn wiring_figures(n: u32, wiring: Wiring) -> WiringFigures {
    let prox = proximity(n, &wiring_table(n, wiring));
    let nf = n as f64;
    let hosts = nf * nf * nf;
    let bound = n * (n - 1) + 1;
    let (mut within3, mut hops) = (0.0, 0.0);
    for &p in &prox.per_bottom {
        let p = p as f64;
        // per source host on this bottom: n−1 at 1 hop, n(p−1) at 3, the rest at 5
        within3 += (nf - 1.0) + nf * (p - 1.0);
        hops += (nf - 1.0) + 3.0 * nf * (p - 1.0) + 5.0 * (hosts - nf * p);
    }
    let bottoms = prox.per_bottom.len() as f64;
    WiringFigures {
        wiring: wiring.to_string(),
        proximity_switches: prox.mean,
        proximity_min: prox.min,
        proximity_max: prox.max,
        ratio_to_bound: prox.mean / bound as f64,
        hosts_within_3_hops: within3 / bottoms,
        average_hops: hops / bottoms / hosts,
    }
}

/// Latency figures for arities in `arities`.
pub fn hop_table(arities: impl IntoIterator<Item = u32>) -> Vec<HopRow> {
    arities
        .into_iter()
        .map(|n| {
            let standard = wiring_figures(n, Wiring::Standard);
            let basic = wiring_figures(n, Wiring::Basic);
            let mols = is_prime_power(n).then(|| wiring_figures(n, Wiring::Mols));
            let best = mols.clone().unwrap_or_else(|| basic.clone());
            HopRow {
                arity: n,
                hosts: (n as u64).pow(3),
                bound: n * (n - 1) + 1,
                within_3_hops_gain: best.hosts_within_3_hops / standard.hosts_within_3_hops,
                average_hops_change: best.average_hops / standard.average_hops - 1.0,
                best_wiring: best.wiring.clone(),
                standard,
                basic,
                mols,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published figures of the proximity-wiring paper (docs/families.md §4.6, docs/seeds.md §3).
    #[test]
    fn pins_the_published_figures() {
        let rows = hop_table([4, 8, 12, 16, 19]);
        let std_hops: Vec<f64> = rows
            .iter()
            .map(|r| (r.standard.average_hops * 100.0).round() / 100.0)
            .collect();
        assert_eq!(std_hops[..4], [4.36, 4.72, 4.82, 4.87]);
        let r19 = &rows[4];
        assert_eq!((r19.within_3_hops_gain * 10.0).round() / 10.0, 18.1);
        assert_eq!((r19.average_hops_change * 1000.0).round() / 10.0, -36.7);
        // MOLS reach the bound n(n−1)+1 for prime powers
        for r in hop_table(2..=20) {
            if let Some(m) = &r.mols {
                assert_eq!((m.proximity_min, m.proximity_max), (r.bound, r.bound), "n={}", r.arity);
            }
            assert_eq!(r.standard.proximity_min, r.arity);
        }
        // the basic method reaches about 57% of the bound at n = 12
        let r12 = &rows[2];
        assert!(
            (r12.basic.ratio_to_bound - 0.57).abs() < 0.01,
            "{}",
            r12.basic.ratio_to_bound
        );
    }

    #[test]
    fn costs_follow_the_constructions() {
        let t = cost_table([3, 4, 7, 18]);
        assert_eq!(
            t[0].lsft_one_sided.unwrap(),
            Counts {
                hosts: 21,
                switches: 14,
                switch_cables: 21,
                host_cables: 21
            }
        );
        assert_eq!(t[2].lsft_one_sided, None, "q = 6 has no plane");
        let d18 = &t[3];
        assert_eq!(d18.lsft_one_sided.unwrap().hosts, 5526);
        assert_eq!(d18.lsft_two_sided.unwrap().hosts, 11052);
        assert_eq!(d18.fat_tree_2_level.hosts, 324);
        assert_eq!(d18.fat_tree_3_level.switches, 972);
    }
}
