//! Parallel-ports generalised fat-trees, PGFT(h; m₁…m_h; w₁…w_h; p₁…p_h): the fat-trees
//! sites run — 2 or 3 levels, parallel cables, oversubscribed leaves, partly populated.
//!
//! Level 0 is the hosts, levels 1..=h the switches. A level-l node has m_l children and
//! w_{l+1} parents, and is joined to each parent by p_{l+1} parallel cables. A level-l
//! switch is labelled (a_h … a_{l+1}; b_l … b_1): the a's name the subtree it serves (the
//! hosts whose top digits are a_h … a_{l+1}), the b's which of the Π w copies it is; host
//! d has digits a_h … a_1 in the mixed radix m (a₁ = d mod m₁). The parents of node
//! (a_h … a_l; b_{l−1} … b₁) are (a_h … a_{l+1}; b, b_{l−1} … b₁) for b < w_l, and it is
//! child a_l of each. Switch indices within a level: A·W_l + B, with A the a's in mixed
//! radix m_{l+1}… (a_{l+1} lowest) and B the b's in radix w₁… (b₁ lowest), W_l = Π_{j≤l} w_j.
//!
//! Hosts have one port (w₁ = p₁ = 1; several ports per host are the dual-rail issue's).
//! `hosts_per_leaf` M populates host slots 0..M−1 of every leaf; a host keeps the tree
//! position d of its slot, so routing indexes hosts by port position, not by count, and
//! empty slots do not unbalance the uplinks.
//!
//! Canonical ports: a level-l switch has down ports (child a, cable c) = a·p_l + c and up
//! ports u = b + w_{l+1}·c (parent b, cable c): consecutive u go to different parents
//! first. Physical ports (before a shuffle): down ports first, then up ports, on one
//! switch model with the most ports any level needs. The k-ary n-tree is
//! PGFT(n; k…k; 1, k…k; 1…1).

use crate::error::{Error, Result};
use crate::topology::fabric::{Endpoint, Fabric, NodeId, NodeKind, MAX_PORTS};
use crate::topology::{BuildOptions, GuidAlloc, Layout, PortShuffle};

/// Most switch levels a PGFT may have here (real fat-trees have 2 to 4).
pub(crate) const MAX_LEVELS: usize = 4;

/// Parameters of a PGFT (per level l = 1..=h, index l−1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PgftParams {
    /// h, the number of switch levels.
    pub levels: u32,
    /// m_l: children of a level-l switch (m₁ host slots per leaf).
    pub down: [u32; MAX_LEVELS],
    /// w_l: parents of a level-(l−1) node (w₁ = 1: one port per host).
    pub up: [u32; MAX_LEVELS],
    /// p_l: parallel cables between a level-(l−1) node and each parent (p₁ = 1).
    pub parallel: [u32; MAX_LEVELS],
    /// Hosts on the first M slots of every leaf (default m₁: all).
    pub hosts_per_leaf: Option<u32>,
    /// Of those, the last K of every leaf are non-compute hosts (storage, login; named
    /// `IO<d>`): routed at their slots, not in the rank order (see [`crate::topology::roles`]).
    pub io_per_leaf: u32,
}

impl PgftParams {
    /// From per-level lists (`--down 4,2 --up 1,2 --parallel 1,2`).
    pub fn from_lists(down: &[u32], up: &[u32], parallel: &[u32], hosts_per_leaf: Option<u32>) -> Result<PgftParams> {
        let h = down.len();
        if h == 0 || h > MAX_LEVELS {
            return Err(Error::input(
                "down",
                format!("{h} levels; valid: 1..={MAX_LEVELS} switch levels (one m per level)"),
                Some("--down 18,36 for a 2-level tree of 36-port switches".into()),
            ));
        }
        for (field, v) in [("up", up), ("parallel", parallel)] {
            if v.len() != h {
                return Err(Error::input(
                    field,
                    format!("{} values for {h} levels; valid: one per level, as --down has", v.len()),
                    None,
                ));
            }
        }
        let arr = |v: &[u32]| {
            let mut a = [0u32; MAX_LEVELS];
            a[..v.len()].copy_from_slice(v);
            a
        };
        let p = PgftParams {
            levels: h as u32,
            down: arr(down),
            up: arr(up),
            parallel: arr(parallel),
            hosts_per_leaf,
            io_per_leaf: 0,
        };
        p.validate()?;
        Ok(p)
    }

    /// The same PGFT with the last `k` hosts of every leaf non-compute (validated).
    pub fn with_io_per_leaf(self, k: u32) -> Result<PgftParams> {
        let p = PgftParams { io_per_leaf: k, ..self };
        p.validate()?;
        Ok(p)
    }

    /// m_l for l in 1..=h.
    pub(crate) fn m(&self, l: u32) -> u32 {
        self.down[l as usize - 1]
    }
    /// w_l for l in 1..=h, and 1 above the top (no parents).
    pub(crate) fn w(&self, l: u32) -> u32 {
        if l > self.levels {
            1
        } else {
            self.up[l as usize - 1]
        }
    }
    /// p_l for l in 1..=h, and 0 above the top.
    pub(crate) fn p(&self, l: u32) -> u32 {
        if l > self.levels {
            0
        } else {
            self.parallel[l as usize - 1]
        }
    }
    /// Up ports of a level-l switch: w_{l+1}·p_{l+1} (0 at the top).
    pub(crate) fn up_ports(&self, l: u32) -> u32 {
        if l >= self.levels {
            0
        } else {
            self.w(l + 1) * self.p(l + 1)
        }
    }
    /// Down ports of a level-l switch: m_l·p_l.
    pub(crate) fn down_ports(&self, l: u32) -> u32 {
        self.m(l) * self.p(l)
    }
    /// Host slots, Π m_l.
    pub(crate) fn slots(&self) -> u64 {
        (1..=self.levels).map(|l| self.m(l) as u64).product()
    }
    /// Switches at level l: Π_{j>l} m_j · Π_{j≤l} w_j.
    pub(crate) fn switches_at(&self, l: u32) -> u64 {
        let a: u64 = (l + 1..=self.levels).map(|j| self.m(j) as u64).product();
        let b: u64 = (1..=l).map(|j| self.w(j) as u64).product();
        a * b
    }
    /// Ports of the one switch model: the most any level needs.
    pub(crate) fn radix(&self) -> u32 {
        (1..=self.levels)
            .map(|l| self.down_ports(l) + self.up_ports(l))
            .max()
            .unwrap_or(0)
    }
    /// Where each switch's canonical ports start and the (zeroed) tables they index, for
    /// switches in layout order: (up_off, down_off, up, down) as in [`PgftLayout`].
    pub(crate) fn port_tables(&self) -> (Vec<u32>, Vec<u32>, Vec<u8>, Vec<u8>) {
        let (mut up_off, mut down_off) = (vec![0u32], vec![0u32]);
        for l in 1..=self.levels {
            for _ in 0..self.switches_at(l) {
                up_off.push(up_off.last().expect("non-empty") + self.up_ports(l));
                down_off.push(down_off.last().expect("non-empty") + self.down_ports(l));
            }
        }
        let (nu, nd) = (*up_off.last().expect("non-empty"), *down_off.last().expect("non-empty"));
        (up_off, down_off, vec![0; nu as usize], vec![0; nd as usize])
    }

    /// Down ports over up ports of level l (1.0 = full bisection; `None` at the top).
    pub(crate) fn oversubscription(&self, l: u32) -> Option<f64> {
        (l < self.levels).then(|| self.down_ports(l) as f64 / self.up_ports(l) as f64)
    }

    /// Check the parameters; errors name the field and the valid range.
    pub(crate) fn validate(&self) -> Result<()> {
        let h = self.levels;
        if h == 0 || h as usize > MAX_LEVELS {
            return Err(Error::input(
                "levels",
                format!("{h} is out of range; valid: 1..={MAX_LEVELS}"),
                None,
            ));
        }
        for l in 1..=h {
            for (field, v) in [("down", self.m(l)), ("up", self.w(l)), ("parallel", self.p(l))] {
                if v == 0 || v > MAX_PORTS {
                    return Err(Error::input(
                        field,
                        format!("level {l}: {v} is out of range; valid: 1..={MAX_PORTS}"),
                        None,
                    ));
                }
            }
        }
        if self.w(1) != 1 || self.p(1) != 1 {
            return Err(Error::input(
                "up",
                format!(
                    "level 1: w1 = {}, p1 = {}: hosts here have one port to one leaf; valid: w1 = 1 and p1 = 1",
                    self.w(1),
                    self.p(1)
                ),
                Some("hosts with a port on each of two fabrics are dual-rail: build each rail as its own PGFT".into()),
            ));
        }
        let radix = self.radix();
        if radix > MAX_PORTS {
            return Err(Error::input(
                "down",
                format!("a switch would need {radix} ports; valid: at most {MAX_PORTS} (m_l·p_l + w_(l+1)·p_(l+1))"),
                None,
            ));
        }
        if let Some(hpl) = self.hosts_per_leaf {
            if hpl == 0 || hpl > self.m(1) {
                return Err(Error::input(
                    "hosts_per_leaf",
                    format!("{hpl} is out of range; valid: 1..={} (m1)", self.m(1)),
                    None,
                ));
            }
        }
        let populated = self.hosts_per_leaf.unwrap_or(self.m(1));
        if self.io_per_leaf > populated {
            return Err(Error::input(
                "io_per_leaf",
                format!(
                    "{} is out of range; valid: 0..={populated} (the hosts on a leaf)",
                    self.io_per_leaf
                ),
                None,
            ));
        }
        let switches: u64 = (1..=h).map(|l| self.switches_at(l)).sum();
        let hosts = self.slots() / self.m(1) as u64 * self.hosts_per_leaf.unwrap_or(self.m(1)) as u64;
        crate::topology::lidspace::check(
            "down",
            crate::topology::lidspace::SizedFamily::Pgft { params: *self },
            switches,
            hosts,
            0,
        )
    }

    /// `PGFT(2; 18,4; 1,2; 1,6)`.
    pub fn describe(&self) -> String {
        let list = |v: &[u32; MAX_LEVELS]| {
            v[..self.levels as usize]
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "PGFT({}; {}; {}; {})",
            self.levels,
            list(&self.down),
            list(&self.up),
            list(&self.parallel)
        )
    }
}

/// Structure of a PGFT in canonical order.
#[derive(Clone, Debug)]
pub struct PgftLayout {
    /// The parameters.
    pub params: PgftParams,
    /// Switches of level l (1..=h) at `switches[offset[l−1] + index]`.
    pub switches: Vec<NodeId>,
    /// Start of each level in `switches` (h + 1 entries).
    pub offset: Vec<u32>,
    /// Port of canonical up port u of switch s (global index in `switches`):
    /// `up[up_off[s] + u]`.
    pub up: Vec<u8>,
    /// Start of each switch's up ports in `up`.
    pub up_off: Vec<u32>,
    /// Port of canonical down port (child a, cable c) = a·p_l + c of switch s:
    /// `down[down_off[s] + a·p_l + c]` (0 = an empty host slot).
    pub down: Vec<u8>,
    /// Start of each switch's down ports in `down`.
    pub down_off: Vec<u32>,
    /// Host ports in rank order (tree order, skipping empty slots).
    pub hosts: Vec<Endpoint>,
    /// Tree position d of each rank.
    pub host_pos: Vec<u32>,
    /// Non-compute hosts (storage, login: see [`crate::topology::roles`]) with their tree
    /// positions: routed like the hosts at their positions, not in the rank order.
    pub others: Vec<Endpoint>,
    /// Tree position of each of `others`.
    pub other_pos: Vec<u32>,
    /// Named as the two-level fat-tree it is (`recognize --family twolevel`, see
    /// [`crate::families::twolevel::model`]): changes the family name and description, not the routing.
    pub twolevel: bool,
    /// Per host slot (or empty), the index within its leaf that the host's balance index
    /// takes ([`COUNTED`]: its count among the leaf's hosts). A rail-optimised leaf's
    /// servers leave their rail's index out, so that leaves of different rails idle
    /// different up ports (docs/tree.md §1.4).
    pub slot_balance: Vec<u32>,
}

/// A host whose balance index is its count among its leaf's hosts.
pub(crate) const COUNTED: u32 = u32::MAX;

impl PgftLayout {
    /// (level, index within the level) of switch s (global index).
    pub(crate) fn level_of(&self, s: u32) -> (u32, u32) {
        let l = self.offset.partition_point(|&o| o <= s) as u32;
        (l, s - self.offset[l as usize - 1])
    }

    /// (level l, subtree A, copy B) of switch s: it serves the hosts whose digits above
    /// level l are A, and is copy B of the Π_{j≤l} w_j switches that do.
    pub fn coords(&self, s: u32) -> (u32, u32, u32) {
        let (l, i) = self.level_of(s);
        let w: u32 = (1..=l).map(|j| self.params.w(j)).product();
        (l, i / w, i % w)
    }

    /// The switches of level l (1..=h).
    pub fn level(&self, l: u32) -> &[NodeId] {
        &self.switches[self.offset[l as usize - 1] as usize..self.offset[l as usize] as usize]
    }
}

/// Build a PGFT as a port-level fabric.
pub(crate) fn build(params: &PgftParams, opts: &BuildOptions) -> Result<(Fabric, Layout)> {
    build_named(params, opts, &PgftNames)
}

/// Names and descriptions of a PGFT's nodes: other families built as a PGFT (the
/// rail-optimised plans) name servers and switches in their own terms.
pub(crate) trait Naming {
    /// Name and description of the host at tree position `d` (`io`: non-compute).
    fn host(&self, d: u32, io: bool) -> (String, String);
    /// Name and description of switch `i` of level `l`.
    fn switch(&self, l: u32, i: u32) -> (String, String);
}

/// The PGFT's own names: `H<d>`, `IO<d>`, `S<l>_<i>`.
struct PgftNames;

impl Naming for PgftNames {
    fn host(&self, d: u32, io: bool) -> (String, String) {
        let name = format!("{}{d}", if io { "IO" } else { "H" });
        let desc = format!("{name} HCA-1");
        (name, desc)
    }
    fn switch(&self, l: u32, i: u32) -> (String, String) {
        let name = format!("S{l}_{i}");
        let desc = format!("{name} pgft level {l}");
        (name, desc)
    }
}

/// [`build`] with the node names of `names`.
pub(crate) fn build_named(params: &PgftParams, opts: &BuildOptions, names: &dyn Naming) -> Result<(Fabric, Layout)> {
    params.validate()?;
    let p = params;
    let h = p.levels;
    let radix = p.radix();
    let mut fabric = Fabric::new();
    let mut guids = GuidAlloc::new(opts)?;
    let mut shuffle = PortShuffle::new(opts);
    let m1 = p.m(1);
    let per_leaf = p.hosts_per_leaf.unwrap_or(m1);
    let mut hosts = Vec::new();
    let mut host_pos = Vec::new();
    let (mut others, mut other_pos) = (Vec::new(), Vec::new());
    let mut ca = 0u32;
    for d in 0..p.slots() as u32 {
        if d % m1 >= per_leaf {
            continue;
        }
        let io = d % m1 >= per_leaf - p.io_per_leaf;
        let (name, desc) = names.host(d, io);
        let id = fabric.add_node(NodeKind::Ca, 1, guids.ca(ca, 1), name, desc)?;
        ca += 1;
        let (list, pos) = if io {
            (&mut others, &mut other_pos)
        } else {
            (&mut hosts, &mut host_pos)
        };
        list.push(Endpoint { node: id, port: 1 });
        pos.push(d);
    }
    let mut switches = Vec::new();
    let mut offset = vec![0u32];
    for l in 1..=h {
        for i in 0..p.switches_at(l) as u32 {
            let (name, desc) = names.switch(l, i);
            let idx = switches.len() as u32;
            switches.push(fabric.add_node(NodeKind::Switch, radix, guids.switch(idx), name, desc)?);
        }
        offset.push(switches.len() as u32);
    }
    let ports: Vec<Vec<u8>> = switches.iter().map(|_| shuffle.ports(radix)).collect();
    let (up_off, down_off, mut up, mut down) = p.port_tables();
    // physical port of canonical down port k / up port u of global switch s at level l
    let down_port = |s: usize, k: u32| ports[s][1 + k as usize];
    let up_port = |s: usize, l: u32, u: u32| ports[s][1 + (p.down_ports(l) + u) as usize];
    // hosts: slot d mod m1 of leaf d / m1 (level-1 index A = d / m1, B = 0)
    for (ep, &d) in hosts.iter().zip(&host_pos).chain(others.iter().zip(&other_pos)) {
        let s = (d / m1) as usize;
        let port = down_port(s, d % m1);
        fabric.connect_with(switches[s], port as u32, ep.node, 1, opts.width, opts.speed)?;
        down[(down_off[s] + d % m1) as usize] = port;
    }
    // level l−1 → l for l = 2..=h
    for l in 2..=h {
        let wl_below: u32 = (1..l).map(|j| p.w(j)).product(); // W_{l−1}
        for i in 0..p.switches_at(l - 1) as u32 {
            let s = (offset[l as usize - 2] + i) as usize;
            let (a, b) = (i / wl_below, i % wl_below);
            let (child, a_up) = (a % p.m(l), a / p.m(l));
            for bl in 0..p.w(l) {
                let parent = a_up * (wl_below * p.w(l)) + b + bl * wl_below;
                let t = (offset[l as usize - 1] + parent) as usize;
                for c in 0..p.p(l) {
                    let u = bl + p.w(l) * c;
                    let k = child * p.p(l) + c;
                    let (pu, pd) = (up_port(s, l - 1, u), down_port(t, k));
                    fabric.connect_with(switches[s], pu as u32, switches[t], pd as u32, opts.width, opts.speed)?;
                    up[(up_off[s] + u) as usize] = pu;
                    down[(down_off[t] + k) as usize] = pd;
                }
            }
        }
    }
    Ok((
        fabric,
        Layout::Pgft(PgftLayout {
            params: *params,
            switches,
            offset,
            up,
            up_off,
            down,
            down_off,
            hosts,
            host_pos,
            others,
            other_pos,
            twolevel: false,
            slot_balance: Vec::new(),
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pgft(down: &[u32], up: &[u32], par: &[u32]) -> PgftParams {
        PgftParams::from_lists(down, up, par, None).unwrap()
    }

    #[test]
    fn counts_follow_the_definition() {
        // the production cluster of the issue: 4 leaves of 24 hosts, 2 spines, 6 cables each
        let p = pgft(&[24, 4], &[1, 2], &[1, 6]);
        assert_eq!((p.switches_at(1), p.switches_at(2), p.slots()), (4, 2, 96));
        assert_eq!(p.radix(), 36);
        assert_eq!(p.oversubscription(1), Some(2.0));
        let (f, l) = build(&p, &BuildOptions::default()).unwrap();
        assert_eq!(f.switches().count(), 6);
        assert_eq!(f.cas().count(), 96);
        assert_eq!(f.link_count(), 96 + 4 * 2 * 6);
        let Layout::Pgft(l) = l else { panic!() };
        assert_eq!(l.level_of(5), (2, 1));
        // every canonical up port of a leaf leads to the spine and cable it names
        for s in 0..4u32 {
            for u in 0..12u32 {
                let port = l.up[(l.up_off[s as usize] + u) as usize];
                let (peer, pp) = f.peer(l.switches[s as usize], port).unwrap();
                let b = u % 2;
                assert_eq!(peer, l.switches[4 + b as usize], "leaf {s} up {u}");
                let c = u / 2;
                let k = s * 6 + c;
                assert_eq!(l.down[(l.down_off[4 + b as usize] + k) as usize], pp);
            }
        }
    }

    #[test]
    fn the_kary_tree_is_a_pgft_with_the_same_shape() {
        let p = pgft(&[3, 3, 3], &[1, 3, 3], &[1, 1, 1]);
        let (f, _) = build(&p, &BuildOptions::default()).unwrap();
        let (k, _) = crate::families::kary::model::build(
            &crate::families::kary::model::KaryParams { arity: 3, levels: 3 },
            &BuildOptions::default(),
        )
        .unwrap();
        assert_eq!(f.switches().count(), k.switches().count());
        assert_eq!(f.link_count(), k.link_count());
    }

    #[test]
    fn bad_parameters_name_the_field() {
        let e = PgftParams::from_lists(&[4, 2], &[1, 2], &[1], None)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("parallel: 1 values for 2 levels"), "{e}");
        let e = PgftParams::from_lists(&[4, 2], &[2, 2], &[1, 1], None)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("up: level 1: w1 = 2"), "{e}");
        let e = PgftParams::from_lists(&[200, 2], &[1, 100], &[1, 1], None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("would need 300 ports"), "{e}");
        let e = PgftParams::from_lists(&[4, 2], &[1, 2], &[1, 1], Some(5))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("hosts_per_leaf: 5 is out of range"), "{e}");
        let e = PgftParams::from_lists(&[64, 64, 64], &[1, 64, 64], &[1, 1, 1], None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unicast LIDs"), "{e}");
        assert!(PgftParams::from_lists(&[], &[], &[], None).is_err());
        assert!(PgftParams::from_lists(&[4, 0], &[1, 2], &[1, 1], None).is_err());
    }
}
