//! The proximity 3-level fat-tree: an n-ary 3-tree whose middle stage is rewired with
//! Latin squares so that far more bottom switches share a middle switch (3 hops instead
//! of 5) while shift all-to-all stays conflict-free under d-mod-k.
//!
//! Bottom switch b = pod·n + colour (n² of them, n hosts each, host d = b·n + j).
//! Middle switches form n planes u of n rows r; middle (u, r) is cabled, for every
//! colour c, to the bottom of colour c in pod G_u(r, c), and to every top (u, t) of its
//! plane. G_0(r, c) = r is the standard tree; the wirings differ in G_u for u >= 1:
//! `standard` G_u = r, `basic` r + u·c mod n, `mols` r + u·c over GF(n) (complete MOLS,
//! prime powers only). Each middle meets every colour once and each bottom meets one
//! middle per plane — the two facts that keep shift all-to-all conflict-free.
//!
//! Physical ports (before any shuffle), 2n per switch: bottom hosts 1..n, plane u on
//! n+1+u; middle colour c on 1+c, top t on n+1+t; top row r on 1+r (upper half unused).

use crate::error::{Error, Result};
use crate::geometry::{is_prime_power, prime_power_hint, Field};
use crate::topology::fabric::{Endpoint, Fabric, NodeId, NodeKind};
use crate::topology::{BuildOptions, GuidAlloc, Layout, PortShuffle};
use std::fmt;
use std::str::FromStr;

/// How the middle stage is cabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wiring {
    /// The standard n-ary 3-tree (every plane cabled like plane 0).
    Standard,
    /// Cyclic squares r + u·c mod n (the papers' "basic method"; optimal for prime n).
    Basic,
    /// Complete MOLS over GF(n) (prime powers): n(n−1)+1 proximity switches, the bound.
    Mols,
    /// A discovered wiring that satisfies the colour properties but is none of the above.
    Custom,
}

/// What the user asked for: a wiring, or the best one available for the arity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WiringChoice {
    /// Force [`Wiring::Standard`].
    Standard,
    /// Force [`Wiring::Basic`] (any arity).
    Basic,
    /// Force [`Wiring::Mols`]; an error unless the arity is a prime power.
    Mols,
    /// `mols` for a prime-power arity, otherwise whichever of `basic` and `standard` has
    /// the higher mean proximity; the default.
    #[default]
    Auto,
}

impl fmt::Display for Wiring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wiring::Standard => "standard",
            Wiring::Basic => "basic",
            Wiring::Mols => "mols",
            Wiring::Custom => "custom",
        })
    }
}

impl fmt::Display for WiringChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WiringChoice::Standard => "standard",
            WiringChoice::Basic => "basic",
            WiringChoice::Mols => "mols",
            WiringChoice::Auto => "auto",
        })
    }
}

impl FromStr for WiringChoice {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Ok(match s {
            "standard" => WiringChoice::Standard,
            "basic" => WiringChoice::Basic,
            "mols" => WiringChoice::Mols,
            "auto" => WiringChoice::Auto,
            other => {
                return Err(Error::input(
                    "wiring",
                    format!("unknown wiring `{other}`"),
                    Some("one of standard, basic, mols, auto".into()),
                ))
            }
        })
    }
}

/// Parameters of a proximity 3-level fat-tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MolsParams {
    /// n: hosts per bottom switch, pods, planes and rows; switches have 2n ports, so 2..=127.
    pub arity: u32,
    /// How the middle stage is to be cabled; `auto` is resolved by [`MolsParams::resolve_wiring`].
    pub wiring: WiringChoice,
}

impl MolsParams {
    /// Check the parameters and resolve `auto`.
    pub(crate) fn resolve_wiring(&self) -> Result<Wiring> {
        let n = self.arity;
        if !(2..=crate::topology::fabric::MAX_PORTS / 2).contains(&n) {
            return Err(Error::input(
                "arity",
                format!("{n} is out of range: the 3-level tree needs n >= 2 and 2n-port switches"),
                Some(format!("2..={}", crate::topology::fabric::MAX_PORTS / 2)),
            ));
        }
        crate::topology::lidspace::check(
            "arity",
            crate::topology::lidspace::SizedFamily::Mols,
            3 * (n as u64).pow(2),
            (n as u64).pow(3),
            0,
        )?;
        Ok(match self.wiring {
            WiringChoice::Standard => Wiring::Standard,
            WiringChoice::Basic => Wiring::Basic,
            WiringChoice::Mols if is_prime_power(n) => Wiring::Mols,
            WiringChoice::Mols => {
                return Err(Error::input(
                    "wiring",
                    format!(
                        "mols wiring needs a prime-power arity; {n} has no complete set of orthogonal Latin squares"
                    ),
                    Some(format!(
                        "{}, or --wiring basic / auto for arity {n}",
                        prime_power_hint(n)
                    )),
                ))
            }
            WiringChoice::Auto if is_prime_power(n) => Wiring::Mols,
            WiringChoice::Auto => {
                let basic = proximity(n, &wiring_table(n, Wiring::Basic));
                let standard = proximity(n, &wiring_table(n, Wiring::Standard));
                if basic.mean >= standard.mean {
                    Wiring::Basic
                } else {
                    Wiring::Standard
                }
            }
        })
    }
}

/// G as a flat table: `g[(u·n + r)·n + c]` = pod of the colour-c bottom of middle (u, r).
pub(crate) fn wiring_table(n: u32, wiring: Wiring) -> Vec<u32> {
    let field = (wiring == Wiring::Mols).then(|| Field::new(n).expect("mols wiring needs a prime power"));
    let mut g = Vec::with_capacity((n * n * n) as usize);
    for u in 0..n {
        for r in 0..n {
            for c in 0..n {
                g.push(match (wiring, &field) {
                    (Wiring::Mols, Some(f)) => f.add(r, f.mul(u, c)),
                    (Wiring::Basic, _) => (r + u * c) % n,
                    _ => r,
                });
            }
        }
    }
    g
}

/// Proximity switches (bottoms sharing a middle, self included) per bottom switch.
#[derive(Clone, Debug, PartialEq)]
pub struct Proximity {
    /// Fewest proximity switches of any bottom (n for the standard tree).
    pub min: u32,
    /// Most proximity switches of any bottom (at most n(n−1)+1).
    pub max: u32,
    /// Mean over all n² bottoms: the figure `auto` compares wirings by.
    pub mean: f64,
    /// Per bottom switch b.
    pub per_bottom: Vec<u32>,
}

/// Count, for every bottom, the bottoms that share at least one middle switch with it.
pub(crate) fn proximity(n: u32, g: &[u32]) -> Proximity {
    let nb = (n * n) as usize;
    // middles of each bottom
    let mut mids: Vec<Vec<u32>> = vec![Vec::new(); nb];
    for m in 0..n * n {
        for c in 0..n {
            let b = g[(m * n + c) as usize] * n + c;
            mids[b as usize].push(m);
        }
    }
    let mut per_bottom = Vec::with_capacity(nb);
    let mut seen = vec![u32::MAX; nb];
    for (b, my_mids) in mids.iter().enumerate() {
        let mut count = 0;
        for &m in my_mids {
            for c in 0..n {
                let b2 = (g[(m * n + c) as usize] * n + c) as usize;
                if seen[b2] != b as u32 {
                    seen[b2] = b as u32;
                    count += 1;
                }
            }
        }
        per_bottom.push(count);
    }
    let min = *per_bottom.iter().min().unwrap_or(&0);
    let max = *per_bottom.iter().max().unwrap_or(&0);
    let mean = per_bottom.iter().map(|&x| x as f64).sum::<f64>() / nb.max(1) as f64;
    Proximity {
        min,
        max,
        mean,
        per_bottom,
    }
}

/// Structure of a proximity 3-level tree in canonical order.
#[derive(Clone, Debug)]
pub struct MolsLayout {
    /// Arity n: n² bottoms, n² middles, n² tops, n³ host slots.
    pub n: u32,
    /// The wiring the middle stage has (`Custom` when recognised but not a named one).
    pub wiring: Wiring,
    /// `g[(u·n + r)·n + c]` = pod of the colour-c bottom of middle (u, r).
    pub g: Vec<u32>,
    /// Bottom (leaf) switches: `bottoms[pod·n + colour]`.
    pub bottoms: Vec<NodeId>,
    /// Middle switches of plane u, row r: `middles[u·n + r]`.
    pub middles: Vec<NodeId>,
    /// Top switches of plane u: `tops[u·n + t]`.
    pub tops: Vec<NodeId>,
    /// Bottom port of host slot j: `b_host[b·n + j]` (0 = empty).
    pub b_host: Vec<u8>,
    /// Bottom port to its plane-u middle: `b_up[b·n + u]`.
    pub b_up: Vec<u8>,
    /// Row r of the plane-u middle of bottom b: `b_row[b·n + u]`.
    pub b_row: Vec<u32>,
    /// Middle port to its colour-c bottom: `m_down[m·n + c]`.
    pub m_down: Vec<u8>,
    /// Middle port to top t of its plane: `m_up[m·n + t]`.
    pub m_up: Vec<u8>,
    /// Top port to middle row r of its plane: `t_down[t·n + r]`.
    pub t_down: Vec<u8>,
    /// Host ports in rank order (tree order d = b·n + j, skipping empty slots).
    pub hosts: Vec<Endpoint>,
    /// Tree position d of each rank.
    pub host_pos: Vec<u32>,
    /// Non-compute hosts (storage, login: see [`crate::topology::roles`]) with their tree
    /// positions: routed like the hosts at their positions, not in the rank order.
    pub others: Vec<Endpoint>,
    /// Tree position of each of `others`.
    pub other_pos: Vec<u32>,
}

impl MolsLayout {
    /// Resolve ports and the wiring table from the cables, given which node is which
    /// bottom (pod·n + colour), middle (u·n + r) and top (u·n + t), and host positions.
    pub(crate) fn resolve(
        fabric: &Fabric,
        n: u32,
        wiring: Wiring,
        bottoms: Vec<NodeId>,
        middles: Vec<NodeId>,
        tops: Vec<NodeId>,
        mut hosts: Vec<(u32, Endpoint)>,
    ) -> Result<MolsLayout> {
        const NONE: u32 = u32::MAX;
        let nn = (n * n) as usize;
        let nu = n as usize;
        // role: 0 bottom, 1 middle, 2 top; index within the role
        let mut role = vec![(NONE, NONE); fabric.len()];
        for (i, &x) in bottoms.iter().enumerate() {
            role[x as usize] = (0, i as u32);
        }
        for (i, &x) in middles.iter().enumerate() {
            role[x as usize] = (1, i as u32);
        }
        for (i, &x) in tops.iter().enumerate() {
            role[x as usize] = (2, i as u32);
        }
        hosts.sort_by_key(|h| h.0);
        let mut host_of = vec![NONE; fabric.len()];
        for &(d, ep) in &hosts {
            host_of[ep.node as usize] = d;
        }
        let bad = |msg: String| Error::input("topology", msg, None);
        let mut lay = MolsLayout {
            n,
            wiring,
            g: vec![NONE; nn * nu],
            b_host: vec![0; nn * nu],
            b_up: vec![0; nn * nu],
            b_row: vec![NONE; nn * nu],
            m_down: vec![0; nn * nu],
            m_up: vec![0; nn * nu],
            t_down: vec![0; nn * nu],
            host_pos: hosts.iter().map(|h| h.0).collect(),
            hosts: hosts.iter().map(|h| h.1).collect(),
            others: Vec::new(),
            other_pos: Vec::new(),
            bottoms,
            middles,
            tops,
        };
        let set = |cell: &mut u8, p: u8, what: &str| -> Result<()> {
            if *cell != 0 {
                return Err(Error::input("topology", format!("two cables for {what}"), None));
            }
            *cell = p;
            Ok(())
        };
        for (mi, &m) in lay.middles.iter().enumerate() {
            let (u, r) = (mi as u32 / n, mi as u32 % n);
            let name = &fabric.node(m).name;
            for p in 1..=fabric.node(m).nports {
                let Some((peer, pp)) = fabric.peer(m, p) else {
                    continue;
                };
                match role[peer as usize] {
                    (0, b) => {
                        let (pod, c) = (b / n, b % n);
                        let cell = &mut lay.g[mi * nu + c as usize];
                        if *cell != NONE {
                            return Err(bad(format!("middle {name} has two bottoms of colour {c}")));
                        }
                        *cell = pod;
                        set(&mut lay.m_down[mi * nu + c as usize], p, &format!("{name} colour {c}"))?;
                        if lay.b_row[(b * n + u) as usize] != NONE {
                            return Err(bad(format!(
                                "bottom {} has two middles in plane {u}",
                                fabric.node(peer).name
                            )));
                        }
                        lay.b_row[(b * n + u) as usize] = r;
                        lay.b_up[(b * n + u) as usize] = pp;
                    }
                    (2, t) if t / n == u => {
                        set(&mut lay.m_up[mi * nu + (t % n) as usize], p, &format!("{name} top {t}"))?;
                        set(&mut lay.t_down[(t * n + r) as usize], pp, &format!("top {t} row {r}"))?;
                    }
                    _ => {
                        return Err(bad(format!(
                            "middle {name} (plane {u}) port {p} leads to {}, which the tree does not have",
                            fabric.node(peer).name
                        )))
                    }
                }
            }
            for c in 0..nu {
                if lay.m_down[mi * nu + c] == 0 {
                    return Err(bad(format!("middle {name} has no bottom of colour {c}")));
                }
                if lay.m_up[mi * nu + c] == 0 {
                    return Err(bad(format!("middle {name} has no cable to top {c} of its plane")));
                }
            }
        }
        for (b, &bot) in lay.bottoms.iter().enumerate() {
            for u in 0..nu {
                if lay.b_up[b * nu + u] == 0 {
                    return Err(bad(format!(
                        "bottom {} has no middle in plane {u}",
                        fabric.node(bot).name
                    )));
                }
            }
            for p in 1..=fabric.node(bot).nports {
                let Some((peer, _)) = fabric.peer(bot, p) else {
                    continue;
                };
                let d = host_of[peer as usize];
                if d != NONE {
                    if d / n != b as u32 {
                        return Err(bad(format!(
                            "host {} is on the wrong bottom {}",
                            fabric.node(peer).name,
                            fabric.node(bot).name
                        )));
                    }
                    set(&mut lay.b_host[b * nu + (d % n) as usize], p, "a host slot")?;
                } else if role[peer as usize].0 != 1 {
                    return Err(bad(format!(
                        "bottom {} port {p} leads to {}, outside the tree",
                        fabric.node(bot).name,
                        fabric.node(peer).name
                    )));
                }
            }
        }
        Ok(lay)
    }

    /// Bottom switches that share a middle switch with b (including b).
    pub fn proximity(&self) -> Proximity {
        proximity(self.n, &self.g)
    }
}

/// Build the proximity 3-level fat-tree as a port-level fabric.
pub fn build(params: &MolsParams, opts: &BuildOptions) -> Result<(Fabric, Layout)> {
    let wiring = params.resolve_wiring()?;
    let n = params.arity;
    let g = wiring_table(n, wiring);
    let mut fabric = Fabric::new();
    let mut guids = GuidAlloc::new(opts)?;
    let mut shuffle = PortShuffle::new(opts);
    let mut hosts = Vec::with_capacity((n * n * n) as usize);
    for d in 0..n * n * n {
        let name = format!("H{d}");
        let desc = format!("{name} HCA-1");
        let id = fabric.add_node(NodeKind::Ca, 1, guids.ca(d, 1), name, desc)?;
        hosts.push((d, Endpoint { node: id, port: 1 }));
    }
    let mut sw = |fabric: &mut Fabric, name: String, desc: String, i: u32| {
        fabric.add_node(NodeKind::Switch, 2 * n, guids.switch(i), name, desc)
    };
    let mut bottoms = Vec::new();
    for b in 0..n * n {
        let desc = format!("B{b} {n}-ary {wiring} bottom pod {} colour {}", b / n, b % n);
        bottoms.push(sw(&mut fabric, format!("B{b}"), desc, b)?);
    }
    let mut middles = Vec::new();
    for m in 0..n * n {
        let desc = format!(
            "M{}_{} {n}-ary {wiring} middle plane {} row {}",
            m / n,
            m % n,
            m / n,
            m % n
        );
        middles.push(sw(&mut fabric, format!("M{}_{}", m / n, m % n), desc, n * n + m)?);
    }
    let mut tops = Vec::new();
    for t in 0..n * n {
        let desc = format!(
            "T{}_{} {n}-ary {wiring} top plane {} index {}",
            t / n,
            t % n,
            t / n,
            t % n
        );
        tops.push(sw(&mut fabric, format!("T{}_{}", t / n, t % n), desc, 2 * n * n + t)?);
    }
    let bp: Vec<Vec<u8>> = (0..n * n).map(|_| shuffle.ports(2 * n)).collect();
    let mp: Vec<Vec<u8>> = (0..n * n).map(|_| shuffle.ports(2 * n)).collect();
    let tp: Vec<Vec<u8>> = (0..n * n).map(|_| shuffle.ports(2 * n)).collect();
    let (w, s) = (opts.width, opts.speed);
    for &(d, ep) in &hosts {
        let b = (d / n) as usize;
        fabric.connect_with(bottoms[b], bp[b][1 + (d % n) as usize] as u32, ep.node, 1, w, s)?;
    }
    for u in 0..n {
        for r in 0..n {
            let m = (u * n + r) as usize;
            for c in 0..n {
                let b = (g[m * n as usize + c as usize] * n + c) as usize;
                fabric.connect_with(
                    middles[m],
                    mp[m][1 + c as usize] as u32,
                    bottoms[b],
                    bp[b][(n + 1 + u) as usize] as u32,
                    w,
                    s,
                )?;
            }
            for t in 0..n {
                let ti = (u * n + t) as usize;
                fabric.connect_with(
                    middles[m],
                    mp[m][(n + 1 + t) as usize] as u32,
                    tops[ti],
                    tp[ti][1 + r as usize] as u32,
                    w,
                    s,
                )?;
            }
        }
    }
    let layout = MolsLayout::resolve(&fabric, n, wiring, bottoms, middles, tops, hosts)?;
    Ok((fabric, Layout::Mols(layout)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mols_wiring_reaches_the_bound_for_prime_powers() {
        for n in [2u32, 3, 4, 5, 7, 8, 9] {
            let p = proximity(n, &wiring_table(n, Wiring::Mols));
            assert_eq!((p.min, p.max), (n * (n - 1) + 1, n * (n - 1) + 1), "n={n}");
            let s = proximity(n, &wiring_table(n, Wiring::Standard));
            assert_eq!((s.min, s.max), (n, n));
        }
        // basic = mols for primes, worse for proper prime powers
        assert_eq!(wiring_table(7, Wiring::Basic), wiring_table(7, Wiring::Mols));
        assert!(proximity(4, &wiring_table(4, Wiring::Basic)).mean < 13.0);
    }

    #[test]
    fn resolved_layout_matches_wiring_and_colour_rules() {
        for (n, w) in [
            (3, WiringChoice::Auto),
            (4, WiringChoice::Mols),
            (6, WiringChoice::Basic),
        ] {
            let (f, lay) = build(
                &MolsParams { arity: n, wiring: w },
                &BuildOptions {
                    shuffle: Some(3),
                    ..Default::default()
                },
            )
            .unwrap();
            let Layout::Mols(l) = lay else { panic!() };
            assert_eq!(f.switches().count() as u32, 3 * n * n);
            assert_eq!(f.cas().count() as u32, n * n * n);
            assert_eq!(l.g, wiring_table(n, l.wiring));
            // every bottom has one middle per plane, and that middle names it back
            for b in 0..n * n {
                for u in 0..n {
                    let r = l.b_row[(b * n + u) as usize];
                    let m = u * n + r;
                    assert_eq!(l.g[(m * n + b % n) as usize], b / n);
                }
            }
        }
    }

    #[test]
    fn bad_arity_and_wiring() {
        let e = MolsParams {
            arity: 1,
            wiring: WiringChoice::Auto,
        }
        .resolve_wiring()
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("arity: 1 is out of range"), "{e}");
        let e = MolsParams {
            arity: 6,
            wiring: WiringChoice::Mols,
        }
        .resolve_wiring()
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("wiring: mols wiring needs a prime-power arity") && e.contains("5, 7"),
            "{e}"
        );
        assert_eq!(
            MolsParams {
                arity: 6,
                wiring: WiringChoice::Auto
            }
            .resolve_wiring()
            .unwrap(),
            Wiring::Basic
        );
    }
}
