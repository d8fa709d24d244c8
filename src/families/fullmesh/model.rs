//! Full mesh of switches: N switches, every pair joined by W parallel cables, H hosts on
//! every switch. No spines: every switch is a leaf, and any two leaves are one hop apart.
//! Small clusters (and one dragonfly group) are built this way; with LMC the same wiring
//! gives every pair N−2 extra two-hop paths through a relay switch ([`crate::routing`]).
//!
//! Canonical numbering: switch i in 0..N; host d sits on switch d / H at slot d mod H.
//! Physical ports before any shuffle: slots 1..=H for hosts, then W ports per other
//! switch j in ascending j (`H + 1 + rank(j)·W + c`, rank(j) = j for j < i, j − 1 above).
//! Every switch has H + W(N−1) ports.

use crate::error::{Error, Result};
use crate::topology::fabric::{Endpoint, Fabric, NodeId, NodeKind, MAX_PORTS};
use crate::topology::{BuildOptions, GuidAlloc, Layout, PortShuffle};

/// Parameters of a full mesh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FullmeshParams {
    /// N: switches, at least 3 (two switches are a single cable, not a mesh).
    pub switches: u32,
    /// H: hosts per switch, at least 1.
    pub hosts_per_switch: u32,
    /// W: parallel cables between every pair of switches, at least 1.
    pub cables_per_pair: u32,
}

impl FullmeshParams {
    /// Ports every switch needs: H + W(N−1).
    pub(crate) fn ports(&self) -> u64 {
        self.hosts_per_switch as u64 + self.cables_per_pair as u64 * (self.switches as u64).saturating_sub(1)
    }

    /// Check the parameters; errors name the field and the valid range.
    pub(crate) fn validate(&self) -> Result<()> {
        let (n, h, w) = (self.switches, self.hosts_per_switch, self.cables_per_pair);
        if n < 3 {
            return Err(Error::input(
                "switches",
                format!("{n} is out of range: a full mesh has at least 3 switches"),
                Some(">= 3 (two switches joined by cables are a single hop, not a mesh)".into()),
            ));
        }
        if h == 0 {
            return Err(Error::input(
                "hosts_per_switch",
                "0 is out of range: every switch of a full mesh carries hosts",
                Some(">= 1".into()),
            ));
        }
        if w == 0 {
            return Err(Error::input(
                "cables_per_pair",
                "0 is out of range: every pair of switches is cabled",
                Some(">= 1".into()),
            ));
        }
        if self.ports() > MAX_PORTS as u64 {
            return Err(Error::input(
                "switches",
                format!(
                    "{n} switches with {h} hosts and {w} cables per pair need {} ports per switch, more than {MAX_PORTS}",
                    self.ports()
                ),
                Some(format!(
                    "at {h} hosts and {w} cables per pair at most {} switches",
                    (MAX_PORTS.saturating_sub(h)) / w + 1
                )),
            ));
        }
        crate::topology::lidspace::check(
            "switches",
            crate::topology::lidspace::SizedFamily::Fullmesh { hosts_per_switch: h },
            n as u64,
            n as u64 * h as u64,
            0,
        )
    }
}

/// Structure of a full mesh in canonical order.
#[derive(Clone, Debug)]
pub struct FullmeshLayout {
    /// N: switches.
    pub n: u32,
    /// H: host slots per switch.
    pub h: u32,
    /// W: cables per pair of switches.
    pub w: u32,
    /// Switch i's node.
    pub switches: Vec<NodeId>,
    /// Port of cable c from switch i to switch j: `to[(i·N + j)·W + c]` (0 when i = j);
    /// cables of one pair are numbered in ascending local port.
    pub to: Vec<u8>,
    /// Port of host slot x on switch i: `down[i·H + x]` (0 for an empty slot).
    pub down: Vec<u8>,
    /// Host ports in rank order (switch-major, skipping empty slots).
    pub hosts: Vec<Endpoint>,
    /// Position d = i·H + x of each rank.
    pub host_pos: Vec<u32>,
    /// Non-compute hosts ([`crate::topology::roles`]), routed at their positions.
    pub others: Vec<Endpoint>,
    /// Position of each of `others`.
    pub other_pos: Vec<u32>,
    /// Pairs of switches (i < j) with fewer than W cables, and how many are missing: a
    /// degraded mesh (recognised with its faults; `to` holds 0 for a missing cable).
    pub cut: Vec<(u32, u32, u32)>,
}

impl FullmeshLayout {
    /// Port of cable c from switch i to switch j.
    #[inline]
    pub fn cable(&self, i: u32, j: u32, c: u32) -> u8 {
        self.to[((i * self.n + j) * self.w + c) as usize]
    }

    /// Port of a surviving cable from switch i to switch j, preferring cable c (then the
    /// next ones of the pair); 0 when every cable of the pair is gone.
    pub(crate) fn live_cable(&self, i: u32, j: u32, c: u32) -> u8 {
        (0..self.w)
            .map(|k| self.cable(i, j, (c + k) % self.w))
            .find(|&p| p != 0)
            .unwrap_or(0)
    }

    /// True when switches i and j have at least one cable.
    pub(crate) fn linked(&self, i: u32, j: u32) -> bool {
        i != j && self.live_cable(i, j, 0) != 0
    }

    /// Resolve ports from the cables given the switch order and the host positions; every
    /// cable of the mesh must be there.
    pub(crate) fn resolve(
        fabric: &Fabric,
        w: u32,
        h: u32,
        switches: Vec<NodeId>,
        hosts: Vec<(u32, Endpoint)>,
    ) -> Result<FullmeshLayout> {
        Self::resolve_with(fabric, w, h, switches, hosts, false)
    }

    /// As [`FullmeshLayout::resolve`], with `missing` cables allowed (listed in `cut`).
    pub(crate) fn resolve_with(
        fabric: &Fabric,
        w: u32,
        h: u32,
        switches: Vec<NodeId>,
        mut hosts: Vec<(u32, Endpoint)>,
        missing: bool,
    ) -> Result<FullmeshLayout> {
        hosts.sort_by_key(|x| x.0);
        let n = switches.len() as u32;
        const NONE: u32 = u32::MAX;
        let mut idx = vec![NONE; fabric.len()];
        for (i, &s) in switches.iter().enumerate() {
            idx[s as usize] = i as u32;
        }
        let mut host_at = vec![NONE; fabric.len()];
        for &(d, ep) in &hosts {
            host_at[ep.node as usize] = d;
        }
        let bad = |msg: String| Error::input("topology", msg, None);
        let mut lay = FullmeshLayout {
            n,
            h,
            w,
            to: vec![0; (n * n * w) as usize],
            down: vec![0; (n * h) as usize],
            host_pos: hosts.iter().map(|x| x.0).collect(),
            hosts: hosts.iter().map(|x| x.1).collect(),
            others: Vec::new(),
            other_pos: Vec::new(),
            switches,
            cut: Vec::new(),
        };
        for i in 0..n {
            let sw = lay.switches[i as usize];
            let node = fabric.node(sw);
            let mut used = vec![0u32; n as usize];
            for p in 1..=node.nports {
                let Some((peer, _)) = fabric.peer(sw, p) else { continue };
                let j = idx[peer as usize];
                if j != NONE {
                    if j == i || used[j as usize] == w {
                        return Err(bad(format!(
                            "{} has more than {w} cables to {}",
                            node.name,
                            fabric.node(peer).name
                        )));
                    }
                    lay.to[((i * n + j) * w + used[j as usize]) as usize] = p;
                    used[j as usize] += 1;
                } else if host_at[peer as usize] != NONE && host_at[peer as usize] / h == i {
                    lay.down[host_at[peer as usize] as usize] = p;
                } else {
                    return Err(bad(format!(
                        "{} port {p} leads to {}, outside the full mesh",
                        node.name,
                        fabric.node(peer).name
                    )));
                }
            }
            if missing {
                for j in (i + 1..n).filter(|&j| used[j as usize] != w) {
                    lay.cut.push((i, j, w - used[j as usize]));
                }
            } else if let Some(j) = (0..n).find(|&j| j != i && used[j as usize] != w) {
                return Err(bad(format!(
                    "{} has {} cables to {}, the mesh needs {w}",
                    node.name,
                    used[j as usize],
                    fabric.node(lay.switches[j as usize]).name
                )));
            }
        }
        Ok(lay)
    }
}

/// Build a full mesh as a port-level fabric.
pub(crate) fn build(params: &FullmeshParams, opts: &BuildOptions) -> Result<(Fabric, Layout)> {
    params.validate()?;
    let (n, h, w) = (params.switches, params.hosts_per_switch, params.cables_per_pair);
    let nports = params.ports() as u32;
    let mut fabric = Fabric::new();
    let mut guids = GuidAlloc::new(opts)?;
    let mut shuffle = PortShuffle::new(opts);
    let mut host_eps = Vec::with_capacity((n * h) as usize);
    for d in 0..n * h {
        let name = format!("H{d}");
        let desc = format!("{name} HCA-1");
        let id = fabric.add_node(NodeKind::Ca, 1, guids.ca(d, 1), name, desc)?;
        host_eps.push(Endpoint { node: id, port: 1 });
    }
    let mut switches = Vec::with_capacity(n as usize);
    for i in 0..n {
        let name = format!("S{i}");
        let desc = format!("{name} full-mesh switch {i} of {n}");
        switches.push(fabric.add_node(NodeKind::Switch, nports, guids.switch(i), name, desc)?);
    }
    let ports: Vec<Vec<u8>> = switches.iter().map(|_| shuffle.ports(nports)).collect();
    for (d, ep) in host_eps.iter().enumerate() {
        let i = d / h as usize;
        let port = ports[i][1 + d % h as usize] as u32;
        fabric.connect_with(switches[i], port, ep.node, 1, opts.width, opts.speed)?;
    }
    let logical = |i: u32, j: u32, c: u32| h + 1 + (if j < i { j } else { j - 1 }) * w + c;
    for i in 0..n {
        for j in i + 1..n {
            for c in 0..w {
                let pi = ports[i as usize][logical(i, j, c) as usize] as u32;
                let pj = ports[j as usize][logical(j, i, c) as usize] as u32;
                fabric.connect_with(
                    switches[i as usize],
                    pi,
                    switches[j as usize],
                    pj,
                    opts.width,
                    opts.speed,
                )?;
            }
        }
    }
    let hosts = host_eps.into_iter().enumerate().map(|(d, ep)| (d as u32, ep)).collect();
    let layout = FullmeshLayout::resolve(&fabric, w, h, switches, hosts)?;
    Ok((fabric, Layout::Fullmesh(layout)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(n: u32, h: u32, w: u32) -> FullmeshParams {
        FullmeshParams {
            switches: n,
            hosts_per_switch: h,
            cables_per_pair: w,
        }
    }

    #[test]
    fn counts_and_tables() {
        for (n, h, w) in [(3, 1, 1), (4, 2, 2), (8, 4, 1), (5, 3, 3)] {
            for shuffle in [None, Some(7)] {
                let opts = BuildOptions {
                    shuffle,
                    ..Default::default()
                };
                let (f, lay) = build(&p(n, h, w), &opts).unwrap();
                let Layout::Fullmesh(l) = lay else { panic!() };
                assert_eq!(f.cas().count() as u32, n * h);
                assert_eq!(f.switches().count() as u32, n);
                assert_eq!(f.link_count() as u32, n * h + w * n * (n - 1) / 2);
                for i in 0..n {
                    for j in (0..n).filter(|&j| j != i) {
                        for c in 0..w {
                            let (peer, _) = f.peer(l.switches[i as usize], l.cable(i, j, c)).unwrap();
                            assert_eq!(peer, l.switches[j as usize]);
                        }
                    }
                }
                for (r, ep) in l.hosts.iter().enumerate() {
                    let d = l.host_pos[r];
                    let (sw, port) = f.peer(ep.node, ep.port).unwrap();
                    assert_eq!((sw, port), (l.switches[(d / h) as usize], l.down[d as usize]));
                }
            }
        }
    }

    #[test]
    fn bad_parameters() {
        let e = p(2, 4, 1).validate().unwrap_err().to_string();
        assert!(e.starts_with("switches: 2 is out of range"), "{e}");
        let e = p(4, 0, 1).validate().unwrap_err().to_string();
        assert!(e.starts_with("hosts_per_switch: 0 is out of range"), "{e}");
        let e = p(4, 2, 0).validate().unwrap_err().to_string();
        assert!(e.starts_with("cables_per_pair: 0 is out of range"), "{e}");
        let e = p(200, 60, 1).validate().unwrap_err().to_string();
        assert!(e.contains("259 ports per switch"), "{e}");
        assert!(p(195, 60, 1).validate().is_ok());
    }
}
