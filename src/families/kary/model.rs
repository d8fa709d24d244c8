//! The standard k-ary n-tree: n levels of k^(n−1) switches, k^n hosts.
//!
//! A level-l switch (levels 1..=n, leaves are level 1) is named by its subtree g (the
//! k^l hosts `g·k^l ..` below it) and its lane λ in 0..k^(l−1). Its up port j leads to
//! the level-(l+1) switch (g / k, λ + j·k^(l−1)), where it arrives on down port g mod k.
//! Hosts are in tree order: host d sits on leaf d / k, down port d mod k. This is the
//! numbering under which d-mod-k routing (up port ⌊d / k^(l−1)⌋ mod k at level l)
//! makes shift all-to-all conflict-free.
//!
//! Physical ports (before any shuffle): down ports 1..k, up ports k+1..2k; top switches
//! also have 2k ports, the upper half unused (one switch model throughout).

use crate::error::{Error, Result};
use crate::topology::fabric::{Endpoint, Fabric, NodeId, NodeKind};
use crate::topology::{BuildOptions, GuidAlloc, Layout, PortShuffle};

/// Parameters of a k-ary n-tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KaryParams {
    /// k: hosts per leaf and up links per switch; switches have 2k ports, so 2..=127.
    pub arity: u32,
    /// n: switch levels, leaves included (>= 2); the tree has k^n hosts, at most 2^20.
    pub levels: u32,
}

/// Largest tree ibfat builds (hosts); beyond this a plan is not useful on one machine.
const MAX_HOSTS: u64 = 1 << 20;

impl KaryParams {
    /// Check the parameters; errors name the field and the valid range.
    pub(crate) fn validate(&self) -> Result<()> {
        let (k, n) = (self.arity, self.levels);
        if !(2..=crate::topology::fabric::MAX_PORTS / 2).contains(&k) {
            return Err(Error::input(
                "arity",
                format!("{k} is out of range: a k-ary tree needs k >= 2 and 2k-port switches"),
                Some(format!("2..={}", crate::topology::fabric::MAX_PORTS / 2)),
            ));
        }
        if n < 2 {
            return Err(Error::input(
                "levels",
                format!("{n} is out of range: a tree has at least 2 levels"),
                Some(">= 2".into()),
            ));
        }
        let hosts = (k as u64).checked_pow(n).filter(|&h| h <= MAX_HOSTS);
        let Some(hosts) = hosts else {
            return Err(Error::input(
                "levels",
                format!("a {k}-ary {n}-tree would have more than {MAX_HOSTS} hosts"),
                Some("use fewer levels or a smaller arity".into()),
            ));
        };
        crate::topology::lidspace::check(
            "levels",
            crate::topology::lidspace::SizedFamily::Kary { k, levels: n },
            n as u64 * hosts / k as u64,
            hosts,
            0,
        )
    }
}

/// Structure of a k-ary n-tree in canonical (tree) order.
#[derive(Clone, Debug)]
pub struct KaryLayout {
    /// Arity k (down links and up links per switch).
    pub k: u32,
    /// Number of switch levels n; level 1 is the leaves, level n the top.
    pub levels: u32,
    /// `switches[(l−1)·k^(n−1) + g·k^(l−1) + λ]`.
    pub switches: Vec<NodeId>,
    /// Port of up link j: `up[switch_index·k + j]` (0 on the top level).
    pub up: Vec<u8>,
    /// Port of down link x: `down[switch_index·k + x]`.
    pub down: Vec<u8>,
    /// Host ports in rank order (tree order, skipping empty host slots).
    pub hosts: Vec<Endpoint>,
    /// Tree position d of each rank (leaf d / k, down link d mod k).
    pub host_pos: Vec<u32>,
    /// Non-compute hosts (storage, login: see [`crate::topology::roles`]) with their tree
    /// positions: routed like the hosts at their positions, not in the rank order.
    pub others: Vec<Endpoint>,
    /// Tree position of each of `others`.
    pub other_pos: Vec<u32>,
}

impl KaryLayout {
    /// Switches per level, k^(n−1).
    pub(crate) fn per_level(&self) -> u32 {
        self.k.pow(self.levels - 1)
    }
    /// Index in `switches` of level l, subtree g, lane λ.
    #[inline]
    pub fn index(&self, l: u32, g: u32, lane: u32) -> u32 {
        (l - 1) * self.per_level() + g * self.k.pow(l - 1) + lane
    }
    /// (level, subtree, lane) of an index in `switches`.
    pub fn coords(&self, i: u32) -> (u32, u32, u32) {
        let per = self.per_level();
        let l = i / per + 1;
        let w = self.k.pow(l - 1);
        (l, (i % per) / w, (i % per) % w)
    }

    /// Resolve ports from the cables given which node is which tree position.
    /// `hosts` are (tree position, port) pairs in any order.
    pub(crate) fn resolve(
        fabric: &Fabric,
        k: u32,
        levels: u32,
        switches: Vec<NodeId>,
        mut hosts: Vec<(u32, Endpoint)>,
    ) -> Result<KaryLayout> {
        hosts.sort_by_key(|h| h.0);
        const NONE: u32 = u32::MAX;
        let mut pos = vec![NONE; fabric.len()];
        for (i, &n) in switches.iter().enumerate() {
            pos[n as usize] = i as u32;
        }
        let mut host_of = vec![NONE; fabric.len()];
        for &(d, ep) in &hosts {
            host_of[ep.node as usize] = d;
        }
        let mut lay = KaryLayout {
            k,
            levels,
            up: vec![0; switches.len() * k as usize],
            down: vec![0; switches.len() * k as usize],
            switches,
            host_pos: hosts.iter().map(|h| h.0).collect(),
            hosts: hosts.iter().map(|h| h.1).collect(),
            others: Vec::new(),
            other_pos: Vec::new(),
        };
        let bad = |msg: String| Error::input("topology", msg, None);
        for (i, &sw) in lay.switches.iter().enumerate() {
            let (l, g, lane) = lay.coords(i as u32);
            let node = fabric.node(sw);
            for p in 1..=node.nports {
                let Some((peer, _)) = fabric.peer(sw, p) else {
                    continue;
                };
                let (slot, table) = if pos[peer as usize] != NONE {
                    let (pl, pg, plane) = lay.coords(pos[peer as usize]);
                    let w = k.pow(l - 1);
                    if pl == l + 1 && pg == g / k && plane % w == lane {
                        (plane / w, &mut lay.up)
                    } else if pl + 1 == l && pg / k == g && lane % k.pow(pl - 1) == plane {
                        (pg % k, &mut lay.down)
                    } else {
                        return Err(bad(format!(
                            "{} (level {l}) is cabled to {} (level {pl}), which the tree does not have",
                            node.name,
                            fabric.node(peer).name
                        )));
                    }
                } else if host_of[peer as usize] != NONE && l == 1 {
                    let d = host_of[peer as usize];
                    if d / k != g {
                        return Err(bad(format!(
                            "host {} is on the wrong leaf {}",
                            fabric.node(peer).name,
                            node.name
                        )));
                    }
                    (d % k, &mut lay.down)
                } else {
                    return Err(bad(format!(
                        "{} port {p} leads to {}, outside the tree",
                        node.name,
                        fabric.node(peer).name
                    )));
                };
                let cell = &mut table[i * k as usize + slot as usize];
                if *cell != 0 {
                    return Err(bad(format!("{} has two cables for the same tree link", node.name)));
                }
                *cell = p;
            }
            for j in 0..k as usize {
                if l > 1 && lay.down[i * k as usize + j] == 0 {
                    return Err(bad(format!("{} has no cable on down link {j}", node.name)));
                }
                if l < levels && lay.up[i * k as usize + j] == 0 {
                    return Err(bad(format!("{} has no cable on up link {j}", node.name)));
                }
            }
        }
        Ok(lay)
    }
}

/// Build a k-ary n-tree as a port-level fabric.
pub fn build(params: &KaryParams, opts: &BuildOptions) -> Result<(Fabric, Layout)> {
    params.validate()?;
    let (k, n) = (params.arity, params.levels);
    let hosts = k.pow(n);
    let per = k.pow(n - 1);
    let mut fabric = Fabric::new();
    let mut guids = GuidAlloc::new(opts)?;
    let mut shuffle = PortShuffle::new(opts);
    let mut host_eps = Vec::with_capacity(hosts as usize);
    for d in 0..hosts {
        let name = format!("H{d}");
        let desc = format!("{name} HCA-1");
        let id = fabric.add_node(NodeKind::Ca, 1, guids.ca(d, 1), name, desc)?;
        host_eps.push(Endpoint { node: id, port: 1 });
    }
    let mut switches = Vec::with_capacity((n * per) as usize);
    for l in 1..=n {
        for i in 0..per {
            let (g, lane) = (i / k.pow(l - 1), i % k.pow(l - 1));
            let name = format!("S{l}_{i}");
            let desc = format!("{name} {k}-ary-{n}-tree level {l} subtree {g} lane {lane}");
            let idx = switches.len() as u32;
            switches.push(fabric.add_node(NodeKind::Switch, 2 * k, guids.switch(idx), name, desc)?);
        }
    }
    let ports: Vec<Vec<u8>> = switches.iter().map(|_| shuffle.ports(2 * k)).collect();
    for (d, ep) in host_eps.iter().enumerate() {
        let leaf = d / k as usize;
        fabric.connect_with(
            switches[leaf],
            ports[leaf][1 + d % k as usize] as u32,
            ep.node,
            1,
            opts.width,
            opts.speed,
        )?;
    }
    for l in 1..n {
        for i in 0..per {
            let (g, lane) = (i / k.pow(l - 1), i % k.pow(l - 1));
            let me = ((l - 1) * per + i) as usize;
            for j in 0..k {
                let up_i = g / k * k.pow(l) + lane + j * k.pow(l - 1);
                let them = (l * per + up_i) as usize;
                let up_port = ports[me][(k + 1 + j) as usize] as u32;
                let down_port = ports[them][(1 + g % k) as usize] as u32;
                fabric.connect_with(switches[me], up_port, switches[them], down_port, opts.width, opts.speed)?;
            }
        }
    }
    let hosts = host_eps.into_iter().enumerate().map(|(d, ep)| (d as u32, ep)).collect();
    let layout = KaryLayout::resolve(&fabric, k, n, switches, hosts)?;
    Ok((fabric, Layout::Kary(layout)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_tables() {
        for (k, n) in [(2, 2), (2, 4), (3, 3), (4, 3), (5, 2)] {
            let (f, lay) = build(&KaryParams { arity: k, levels: n }, &BuildOptions::default()).unwrap();
            let Layout::Kary(l) = lay else { panic!() };
            assert_eq!(f.cas().count() as u32, k.pow(n));
            assert_eq!(f.switches().count() as u32, n * k.pow(n - 1));
            // host cables + (n-1) levels of k^n up links
            assert_eq!(f.link_count() as u32, k.pow(n) * n);
            // every up link of level l leads to a level l+1 switch that names it back
            for i in 0..l.switches.len() as u32 {
                let (lv, _, _) = l.coords(i);
                assert_eq!(l.index(lv, l.coords(i).1, l.coords(i).2), i);
                if lv < n {
                    for j in 0..k {
                        let (peer, pp) = f.peer(l.switches[i as usize], l.up[(i * k + j) as usize]).unwrap();
                        let pi = l.switches.iter().position(|&s| s == peer).unwrap() as u32;
                        assert_eq!(l.coords(pi).0, lv + 1);
                        assert!(l.down[(pi * k) as usize..((pi + 1) * k) as usize].contains(&pp));
                    }
                }
            }
        }
    }

    #[test]
    fn shuffled_tree_resolves() {
        let p = KaryParams { arity: 3, levels: 3 };
        let (f, lay) = build(
            &p,
            &BuildOptions {
                shuffle: Some(1),
                ..Default::default()
            },
        )
        .unwrap();
        let Layout::Kary(l) = lay else { panic!() };
        for d in 0..27u32 {
            let leaf = l.switches[(d / 3) as usize];
            let (peer, _) = f.peer(leaf, l.down[((d / 3) * 3 + d % 3) as usize]).unwrap();
            assert_eq!(peer, l.hosts[d as usize].node);
        }
    }

    #[test]
    fn bad_parameters() {
        let e = KaryParams { arity: 1, levels: 3 }.validate().unwrap_err().to_string();
        assert!(e.starts_with("arity: 1 is out of range"), "{e}");
        let e = KaryParams { arity: 4, levels: 1 }.validate().unwrap_err().to_string();
        assert!(e.starts_with("levels: 1 is out of range"), "{e}");
        assert!(KaryParams { arity: 16, levels: 6 }.validate().is_err());
    }
}
