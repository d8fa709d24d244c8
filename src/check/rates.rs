//! Rate weights for `ibfat check --rates`: a flow on a slow cable counts for more.
//!
//! The checker counts flows per directed link as integers; a link of weight w carrying n
//! flows in a phase has the weighted load n·w, and a flow's congestion is the largest
//! weighted load on its route (at least 1: a flow is never faster than the rate it is
//! injected at). Only the step that takes those maxima multiplies, so the counting pass
//! stays the integer loop of an unweighted check.
//!
//! **Reference rate.** A cable is weighed against its peers, as a fabric engineer reads a
//! fabric: w = reference / rate, the reference being the most common known rate among the
//! cables of its kind ([`crate::topology::rate::peer_rate`]; ties go to the faster rate):
//! switch-to-switch cables against switch-to-switch cables, host cables against host
//! cables. The same definition names the slow cables in `recognize` and `cabling`, so the
//! cable reported there is the one weighed here. A 4xDDR cable among 4xEDR peers weighs
//! 100/20 = 5 (nominal rates, [`crate::topology::rate::nominal_units`]); a cable faster
//! than its peers weighs less than 1. A host cable carries at most one flow per phase
//! (phases are partial permutations), so it weighs on the flows of its host only.
//!
//! **Unknown rates.** A cable whose rate the input does not state (`4x???` in a dump, a
//! plan, which states what is designed, not what trained) weighs 1 and is counted in
//! [`RateWeights::unknown_cables`]: a rate is never guessed. When no switch-to-switch
//! cable's rate is known, there is nothing to weigh and [`RateWeights::new`] refuses.
//!
//! **Exactness.** Weights are rationals of nominal rates; they are scaled to integers
//! over one common denominator ([`RateWeights::unit`]), so weighted loads compare exactly
//! and a report does not depend on the order phases ran in.

use super::conflicts::CompiledRoutes;
use crate::topology::rate::{nominal_units, peer_rate, PeerRate};
use crate::topology::{Endpoint, Fabric, Speed, Width};
use crate::{Error, Result};

/// The rate weights of every directed switch-to-switch link (by channel) and of every
/// rank's host cable, scaled to integers.
#[derive(Clone, Debug)]
pub struct RateWeights {
    /// The rate of a switch-to-switch cable of weight 1: the most common known one.
    pub reference: PeerRate,
    /// The rate of a host cable of weight 1, when some host cable's rate is known.
    pub host_reference: Option<PeerRate>,
    /// Switch-to-switch cables whose rate is not known (weighed 1).
    pub unknown_cables: usize,
    /// Switch-to-switch cables in all.
    pub cables: usize,
    /// The scaled weight that stands for 1: every scaled weight is w · unit, an integer.
    pub unit: u64,
    /// Scaled weight of each channel (directed switch-to-switch link). At most
    /// 67,200 (the lcm of all rates in units) × 960 (12xXDR / 1xSDR): fits a u32, which
    /// keeps the table the per-flow step reads as small as the counters.
    pub(super) channel: Vec<u32>,
    /// Scaled weight of each rank's host cable; empty when every one is `unit` (the
    /// usual case: the per-flow step then skips host cables).
    pub(super) host: Vec<u64>,
    /// Rate of each channel's cable, when known.
    pub(super) channel_rate: Vec<Option<(Width, Speed)>>,
    /// By scaled flow congestion c (when the largest possible one is small enough):
    /// `unit / c` and the class c rounds up to, so the per-flow step divides nothing
    pub(super) table: Vec<(f64, u32)>,
}

/// Largest scaled congestion kept in [`RateWeights::table`] (12 MiB of table).
const TABLE_MAX: u64 = 1 << 20;

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl RateWeights {
    /// The weights for `routes` on `fabric`, whose rates are known at the global port
    /// indices where `known` is true (a shorter or empty slice: unknown). Refuses (input
    /// error) when no switch-to-switch cable has a known rate: weighing everything 1 would
    /// report an unweighted check as a weighted one.
    pub fn new(fabric: &Fabric, routes: &CompiledRoutes, hosts: &[Endpoint], known: &[bool]) -> Result<RateWeights> {
        let is_known = |i: usize| known.get(i).copied().unwrap_or(false);
        let reference = peer_rate(fabric, true, &is_known).ok_or_else(|| {
            Error::input(
                "--rates",
                "no switch-to-switch cable of this fabric has a known rate, so there is nothing to weigh",
                Some(
                    "rates come from ibnetdiscover output or an ibsim net file (`4xEDR`, `w=`/`s=`); a plan \
                     states the designed rate, not the trained one: check the discovered fabric"
                        .into(),
                ),
            )
        })?;
        let host_reference = peer_rate(fabric, false, &is_known);
        let units = |r: PeerRate| nominal_units(r.width, r.speed);
        let r_sw = units(reference);
        // the weight of a link of `r` units against `refu` is refu / r; the common
        // denominator makes every such fraction an integer
        let mut unit = 1u64;
        let mut add = |refu: u64, r: u64| {
            let d = r / gcd(refu, r);
            unit = unit / gcd(unit, d) * d;
        };
        let rate_at = |i: usize| {
            let p = &fabric.ports[i];
            is_known(i).then_some((p.width, p.speed))
        };
        let channel_rate: Vec<Option<(Width, Speed)>> =
            routes.channel_port.iter().map(|&i| rate_at(i as usize)).collect();
        for r in channel_rate.iter().flatten() {
            add(r_sw, nominal_units(r.0, r.1));
        }
        let host_port = |e: &Endpoint| fabric.port_index(e.node, e.port) as usize;
        if let Some(h) = host_reference {
            for e in hosts {
                if let Some(r) = rate_at(host_port(e)) {
                    add(units(h), nominal_units(r.0, r.1));
                }
            }
        }
        let scaled = |refu: u64, r: Option<(Width, Speed)>| match r {
            Some((w, s)) => unit * refu / nominal_units(w, s),
            None => unit,
        };
        let channel: Vec<u32> = channel_rate.iter().map(|&r| scaled(r_sw, r) as u32).collect();
        let mut host: Vec<u64> = hosts
            .iter()
            .map(|e| match host_reference {
                Some(h) => scaled(units(h), rate_at(host_port(e))),
                None => unit,
            })
            .collect();
        // each cable once: the channel leaving its lower port index
        let mut cables = 0;
        let mut unknown_cables = 0;
        for (ch, &i) in routes.channel_port.iter().enumerate() {
            if i < fabric.ports[i as usize].peer {
                cables += 1;
                if channel_rate[ch].is_none() {
                    unknown_cables += 1;
                }
            }
        }
        // a link carries at most one flow per rank in a phase
        let heaviest = channel
            .iter()
            .map(|&q| u64::from(q))
            .chain(host.iter().copied())
            .max()
            .unwrap_or(unit)
            .max(unit);
        if host.iter().all(|&q| q == unit) {
            host.clear();
        }
        let top = heaviest.saturating_mul(hosts.len().max(1) as u64);
        let table = if top <= TABLE_MAX {
            (0..=top)
                .map(|c| match c {
                    0 => (0.0, 0),
                    _ => (unit as f64 / c as f64, c.div_ceil(unit) as u32),
                })
                .collect()
        } else {
            Vec::new()
        };
        Ok(RateWeights {
            reference,
            host_reference,
            unknown_cables,
            cables,
            unit,
            channel,
            host,
            channel_rate,
            table,
        })
    }

    /// The weight of channel `ch` (1.0 for a cable of the reference rate or unknown rate).
    pub(crate) fn weight(&self, ch: usize) -> f64 {
        f64::from(self.channel[ch]) / self.unit as f64
    }
}

/// `4xEDR`: a rate as the dumps print it.
pub(crate) fn rate_name(w: Width, s: Speed) -> String {
    format!("{w}{s}")
}

/// What a rate-weighted report was weighed against (`rates` in `ibfat.check/2`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct RatesSummary {
    /// Always true: the report's ratio, congestion, histogram and worst phases and links
    /// are rate-weighted (a reader that skips the schema version still sees it).
    pub weighted: bool,
    /// The switch-to-switch reference rate (`4xEDR`): one flow on such a cable counts 1.
    pub reference: String,
    /// Its nominal rate in Gb/s (4xEDR: 100).
    pub reference_gbps: f64,
    /// How many switch-to-switch cables run at the reference rate.
    pub reference_cables: usize,
    /// The host-cable reference rate, when some host cable's rate is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_reference: Option<String>,
    /// The exact largest weighted congestion of a flow (`max_congestion` is it rounded up).
    pub max_congestion: f64,
    /// Switch-to-switch cables in the fabric.
    pub cables: usize,
    /// Those of them whose rate is not known: weighed 1.
    pub unknown_cables: usize,
}

impl RatesSummary {
    /// The summary of a weighted check whose largest scaled flow congestion was `wmax`.
    pub(super) fn new(wt: &RateWeights, wmax: u64) -> RatesSummary {
        let r = wt.reference;
        RatesSummary {
            weighted: true,
            reference: rate_name(r.width, r.speed),
            reference_gbps: nominal_units(r.width, r.speed) as f64 / 2.0,
            reference_cables: r.cables,
            host_reference: wt.host_reference.map(|h| rate_name(h.width, h.speed)),
            max_congestion: wmax as f64 / wt.unit as f64,
            cables: wt.cables,
            unknown_cables: wt.unknown_cables,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check, check_counted, CompiledRoutes};
    use crate::families::kary::model::KaryParams;
    use crate::routing::{route, LftSet, Lids};
    use crate::schedule::Pattern;
    use crate::topology::{FamilySpec, NodeKind, PortIdx, Spec, Topology};

    /// rank r sends to (5r + p) mod n in phase p: a permutation with conflicts
    struct Affine(usize);
    impl Pattern for Affine {
        fn name(&self) -> String {
            "affine".into()
        }
        fn ranks(&self) -> usize {
            self.0
        }
        fn phases(&self) -> usize {
            self.0
        }
        fn phase(&self, p: usize, out: &mut [u32]) {
            for (r, d) in out.iter_mut().enumerate() {
                *d = ((5 * r + p) % self.0) as u32;
            }
        }
    }

    /// Gb/s of a cable, written out here rather than taken from `nominal_units`.
    fn gbps(w: Width, s: Speed) -> f64 {
        let lanes = match w {
            Width::X1 => 1.0,
            Width::X4 => 4.0,
            _ => unreachable!(),
        };
        let lane = match s {
            Speed::Sdr => 2.5,
            Speed::Ddr => 5.0,
            Speed::Qdr => 10.0,
            Speed::Fdr => 14.0,
            _ => unreachable!(),
        };
        lanes * lane
    }

    fn set_rate(f: &mut Fabric, i: usize, w: Width, s: Speed) {
        let j = f.ports[i].peer as usize;
        for k in [i, j] {
            f.ports[k].width = w;
            f.ports[k].speed = s;
        }
    }

    /// A 4-ary 2-tree at 4xQDR with a 4xSDR and a 4xFDR leaf-spine cable and one 4xDDR
    /// host cable, routed by ibfat; the global port indices of the three odd cables.
    fn fabric() -> (Topology, Lids, LftSet, [usize; 3]) {
        let mut t = Spec::new(FamilySpec::Kary(KaryParams { arity: 4, levels: 2 }))
            .build()
            .unwrap();
        let f = &mut t.fabric;
        let cabled: Vec<usize> = (0..f.ports.len())
            .filter(|&i| f.ports[i].peer != crate::topology::NO_PEER)
            .collect();
        for &i in &cabled {
            f.ports[i].width = Width::X4;
            f.ports[i].speed = Speed::Qdr;
        }
        let sw = |f: &Fabric, i: usize| {
            f.node(f.ports[i].node).kind == NodeKind::Switch
                && f.node(f.ports[f.ports[i].peer as usize].node).kind == NodeKind::Switch
        };
        let trunks: Vec<usize> = cabled.iter().copied().filter(|&i| sw(f, i)).collect();
        let (slow, fast) = (trunks[2], trunks[9]);
        set_rate(f, slow, Width::X4, Speed::Sdr);
        set_rate(f, fast, Width::X4, Speed::Fdr);
        let h = t.layout.hosts()[5];
        let host = f.port_index(h.node, h.port) as usize;
        set_rate(f, host, Width::X4, Speed::Ddr);
        let lids = Lids::plan(&t.fabric, t.layout.hosts(), 0).unwrap();
        let lfts = route(&t.fabric, &t.layout, &lids).unwrap();
        (t, lids, lfts, [slow, fast, host])
    }

    /// The weighted check done by hand: every flow walked along the LFTs port by port,
    /// loads counted per directed cable (host cables included) and weighed by Gb/s.
    /// Returns the ratio, the largest flow congestion and the most loaded switch port.
    fn by_hand(t: &Topology, lids: &Lids, lfts: &LftSet, pat: &dyn Pattern) -> (f64, f64, PortIdx) {
        let f = &t.fabric;
        let hosts = t.layout.hosts();
        let reference = gbps(Width::X4, Speed::Qdr);
        let w = |i: usize| reference / gbps(f.ports[i].width, f.ports[i].speed);
        let (mut sum, mut flows, mut worst, mut busiest) = (0.0, 0usize, 0.0f64, (0.0f64, 0));
        let mut dest = vec![0u32; hosts.len()];
        for p in 0..pat.phases() {
            pat.phase(p, &mut dest);
            let mut paths = Vec::new();
            let mut load = std::collections::HashMap::<usize, f64>::new();
            for (r, &d) in dest.iter().enumerate() {
                if d as usize == r {
                    continue;
                }
                let (src, dst) = (hosts[r], hosts[d as usize]);
                let lid = lids.lid(f, dst.node, dst.port);
                let mut path = vec![f.port_index(src.node, src.port) as usize];
                let (mut node, _) = f.peer(src.node, src.port).unwrap();
                while f.node(node).kind == NodeKind::Switch {
                    let out = lfts.get(node, lid).unwrap();
                    path.push(f.port_index(node, out) as usize);
                    node = f.peer(node, out).unwrap().0;
                }
                assert_eq!(node, dst.node);
                for &i in &path {
                    *load.entry(i).or_default() += 1.0;
                }
                paths.push(path);
            }
            for path in &paths {
                let c = path.iter().map(|&i| load[&i] * w(i)).fold(1.0, f64::max);
                sum += 1.0 / c;
                flows += 1;
                worst = worst.max(c);
            }
            for (&i, &n) in &load {
                let sw = f.node(f.ports[i].node).kind == NodeKind::Switch;
                if sw && (n * w(i) > busiest.0 || (n * w(i) == busiest.0 && (i as PortIdx) < busiest.1)) {
                    busiest = (n * w(i), i as PortIdx);
                }
            }
        }
        (sum / flows as f64, worst, busiest.1)
    }

    #[test]
    fn weighted_congestion_matches_a_walk_by_hand() {
        let (t, lids, lfts, [slow, fast, _]) = fabric();
        let f = &t.fabric;
        let hosts = t.layout.hosts();
        let routes = CompiledRoutes::compile(f, &lids, &lfts, hosts, 0).unwrap();
        let known = vec![true; f.ports.len()];
        let wt = RateWeights::new(f, &routes, hosts, &known).unwrap();
        assert_eq!((wt.reference.width, wt.reference.speed), (Width::X4, Speed::Qdr));
        assert_eq!(wt.cables, 16);
        assert_eq!(wt.unknown_cables, 0);
        let of = |i: usize| routes.channel_port.iter().position(|&p| p as usize == i).unwrap();
        assert_eq!(wt.weight(of(slow)), 4.0);
        assert!((wt.weight(of(fast)) - 40.0 / 56.0).abs() < 1e-12);
        for pat in [
            &Affine(hosts.len()) as &dyn Pattern,
            &crate::schedule::shift::Shift::new(hosts.len()),
        ] {
            let (r, _) = check_counted(f, hosts, &routes, pat, 0..pat.phases(), Some(&wt), &|| {}).unwrap();
            let (ratio, worst, busiest) = by_hand(&t, &lids, &lfts, pat);
            let name = pat.name();
            assert!(
                (r.throughput_ratio - ratio).abs() < 1e-12,
                "{name}: {} vs {ratio}",
                r.throughput_ratio
            );
            let x = r.rates.as_ref().unwrap();
            assert!(
                (x.max_congestion - worst).abs() < 1e-12,
                "{name}: {} vs {worst}",
                x.max_congestion
            );
            assert_eq!(r.max_congestion, worst.ceil() as u32, "{name}");
            assert_eq!(r.histogram.iter().sum::<u64>(), r.flows, "{name}");
            let top = &r.worst_links[0];
            let p = &f.ports[busiest as usize];
            assert_eq!(
                (top.from_guid.clone(), top.from_port),
                (format!("0x{:016x}", p.guid), p.num),
                "{name}"
            );
            // unweighted, the same check is the plain one
            let plain = check(f, hosts, &routes, pat, 0..pat.phases(), &|| {}).unwrap();
            assert!(plain.rates.is_none() && plain.worst_links.iter().all(|l| l.rate.is_none()));
            assert!(plain.throughput_ratio > r.throughput_ratio, "{name}");
        }
        // shift is conflict-free on these tables: only the rates slow it down, and the
        // 4xSDR cable is the busiest link at weight 4
        let shift = crate::schedule::shift::Shift::new(hosts.len());
        let (r, _) = check_counted(f, hosts, &routes, &shift, 0..shift.phases(), Some(&wt), &|| {}).unwrap();
        let top = &r.worst_links[0];
        let rate = top.rate.as_ref().unwrap();
        assert_eq!(
            (rate.rate.as_deref(), rate.weight, rate.weighted_max),
            (Some("4xSDR"), 4.0, 4.0)
        );
        assert_eq!(r.rates.as_ref().unwrap().host_reference.as_deref(), Some("4xQDR"));
    }

    #[test]
    fn unknown_rates_weigh_one_and_none_known_is_refused() {
        let (t, lids, lfts, [slow, ..]) = fabric();
        let f = &t.fabric;
        let hosts = t.layout.hosts();
        let routes = CompiledRoutes::compile(f, &lids, &lfts, hosts, 0).unwrap();
        let e = RateWeights::new(f, &routes, hosts, &[]).unwrap_err();
        assert!(
            e.is_input() && e.to_string().contains("no switch-to-switch cable"),
            "{e}"
        );
        // the slow cable's rate unknown: it weighs 1, and is counted
        let mut known = vec![true; f.ports.len()];
        known[slow] = false;
        known[f.ports[slow].peer as usize] = false;
        let wt = RateWeights::new(f, &routes, hosts, &known).unwrap();
        assert_eq!(wt.unknown_cables, 1);
        let of = |i: usize| routes.channel_port.iter().position(|&p| p as usize == i).unwrap();
        assert_eq!(wt.weight(of(slow)), 1.0);
        assert_eq!(wt.channel_rate[of(slow)], None);
    }
}
