//! The Latin-square fat-tree LSFT(q): one leaf per point and one spine per line of
//! PG(2,q), leaf p cabled to spine ℓ iff p lies on ℓ.
//!
//! Physical ports (before any shuffle): every switch has 2(q+1) ports. Leaf: hosts
//! j = 0..m−1 on ports 1..m, the k-th line through its point on port q+2+k. Spine: the
//! k-th point of its line on port 1+k for side 0 and on port q+2+k for side 1 (the
//! second copy of all leaves and hosts in a two-sided LSFT).

use crate::error::{Error, Result};
use crate::geometry::{prime_power_hint, Plane};
use crate::topology::fabric::{Endpoint, Fabric, NodeId, NodeKind};
use crate::topology::{BuildOptions, GuidAlloc, Layout, PortShuffle};

/// Parameters of a Latin-square fat-tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LsftParams {
    /// Order q of the projective plane (a prime power).
    pub order: u32,
    /// Build the second copy of leaves and hosts on the spines' other q+1 ports.
    pub two_sided: bool,
    /// Hosts per leaf, 1..=q+1 (default q+1).
    pub hosts_per_leaf: Option<u32>,
}

impl LsftParams {
    /// Order q, one- or two-sided, every leaf with its full q+1 hosts.
    pub fn new(order: u32, two_sided: bool) -> LsftParams {
        LsftParams {
            order,
            two_sided,
            hosts_per_leaf: None,
        }
    }

    /// Check the parameters; errors name the field and the valid range.
    pub(crate) fn validate(&self) -> Result<()> {
        let q = self.order;
        if !crate::geometry::is_prime_power(q) {
            return Err(Error::input(
                "order",
                format!(
                    "{q} is not a prime power; a Latin-square fat-tree needs a projective plane of prime-power order"
                ),
                Some(prime_power_hint(q)),
            ));
        }
        // 2(q+1) ports must fit in a switch (counted wide: q may be any u32)
        let ports = 2 * (u64::from(q) + 1);
        if ports > u64::from(crate::topology::fabric::MAX_PORTS) {
            return Err(Error::input(
                "order",
                format!(
                    "order {q} needs {ports}-port switches; at most {} ports exist",
                    crate::topology::fabric::MAX_PORTS
                ),
                Some("orders up to 125".into()),
            ));
        }
        if let Some(m) = self.hosts_per_leaf {
            if m == 0 || m > q + 1 {
                return Err(Error::input(
                    "hosts_per_leaf",
                    format!(
                        "{m} is out of range for order {q}: a leaf has q+1 = {} host ports",
                        q + 1
                    ),
                    Some(format!("1..={}", q + 1)),
                ));
            }
        }
        let n = (q * q + q + 1) as u64;
        let sides = if self.two_sided { 2 } else { 1 };
        let m = self.hosts_per_leaf.unwrap_or(q + 1) as u64;
        crate::topology::lidspace::check(
            "order",
            crate::topology::lidspace::SizedFamily::Lsft {
                hosts_per_leaf: self.hosts_per_leaf.filter(|&h| h != q + 1),
            },
            n * (sides + 1),
            n * sides * m,
            0,
        )
    }

    fn sides(&self) -> u32 {
        if self.two_sided {
            2
        } else {
            1
        }
    }
}

/// Structure of an LSFT: which node is which point/line and which port leads where,
/// in canonical order (lines through a point and points on a line ascending).
#[derive(Clone, Debug)]
pub struct LsftLayout {
    /// The projective plane PG(2,q) whose points are the leaves and lines the spines.
    pub plane: Plane,
    /// Order q of the plane: q+1 lines per point, q+1 points per line.
    pub q: u32,
    /// 1 or 2.
    pub sides: u32,
    /// Largest number of hosts on a leaf (q+1 unless built with fewer).
    pub hosts_per_leaf: u32,
    /// Leaf of (side, point): `leaves[side*npts + point]`.
    pub leaves: Vec<NodeId>,
    /// Spine of each line.
    pub spines: Vec<NodeId>,
    /// Leaf port of the k-th line through the point: `leaf_up[leaf*d + k]`.
    pub leaf_up: Vec<u8>,
    /// Spine port of the k-th point of its line on a side: `spine_down[line*sides*d + side*d + k]`.
    pub spine_down: Vec<u8>,
    /// Leaf port of host slot j (0 = empty slot): `leaf_host[leaf*d + j]`.
    pub leaf_host: Vec<u8>,
    /// Rank of the host in slot (leaf, j), or `u32::MAX`: `slot_rank[leaf*d + j]`.
    pub slot_rank: Vec<u32>,
    /// Host ports in rank order: side, point, slot.
    pub hosts: Vec<Endpoint>,
}

impl LsftLayout {
    /// Number of points (= lines).
    pub fn npts(&self) -> u32 {
        self.plane.size()
    }
    /// q + 1.
    pub fn degree(&self) -> u32 {
        self.q + 1
    }

    /// Resolve ports from the fabric's cables, given which node is which point/line and
    /// which host sits in which slot. Fails with a precise message when a cable the
    /// geometry requires is missing or a switch has a cable the geometry forbids.
    pub(crate) fn resolve(
        fabric: &Fabric,
        plane: Plane,
        sides: u32,
        leaves: Vec<NodeId>,
        spines: Vec<NodeId>,
        host_slots: &[(u32, u32, Endpoint)], // (leaf index, slot j, host port)
    ) -> Result<LsftLayout> {
        let q = plane.order();
        let d = (q + 1) as usize;
        let npts = plane.size() as usize;
        assert_eq!(leaves.len(), sides as usize * npts);
        assert_eq!(spines.len(), npts);
        const NONE: u32 = u32::MAX;
        // role lookup: node -> leaf index or spine index
        let mut leaf_of = vec![NONE; fabric.len()];
        let mut spine_of = vec![NONE; fabric.len()];
        for (i, &n) in leaves.iter().enumerate() {
            leaf_of[n as usize] = i as u32;
        }
        for (i, &n) in spines.iter().enumerate() {
            spine_of[n as usize] = i as u32;
        }
        let sd = sides as usize * d;
        let mut leaf_up = vec![0u8; leaves.len() * d];
        let mut spine_down = vec![0u8; npts * sd];
        for (li, &leaf) in leaves.iter().enumerate() {
            let point = (li % npts) as u32;
            let side = (li / npts) as u32;
            let node = fabric.node(leaf);
            for p in 1..=node.nports {
                let Some((peer, pp)) = fabric.peer(leaf, p) else {
                    continue;
                };
                let line = spine_of[peer as usize];
                if line == NONE {
                    continue; // hosts, checked below
                }
                let Some(k) = plane.position_at_point(point, line) else {
                    return Err(Error::input(
                        "topology",
                        format!(
                            "leaf {} ({}) is cabled to spine {} ({}) but the point is not on that line",
                            node.name,
                            plane.point(point),
                            fabric.node(peer).name,
                            plane.line(line)
                        ),
                        None,
                    ));
                };
                let slot = &mut leaf_up[li * d + k as usize];
                if *slot != 0 {
                    return Err(Error::input(
                        "topology",
                        format!("leaf {} has two cables to spine {}", node.name, fabric.node(peer).name),
                        None,
                    ));
                }
                *slot = p;
                let kk = plane.position_on_line(line, point).expect("incidence is symmetric");
                spine_down[line as usize * sd + side as usize * d + kk as usize] = pp;
            }
            for k in 0..d {
                if leaf_up[li * d + k] == 0 {
                    let line = plane.lines_through(point)[k];
                    return Err(Error::input(
                        "topology",
                        format!(
                            "leaf {} ({}) has no cable to spine {} ({})",
                            node.name,
                            plane.point(point),
                            fabric.node(spines[line as usize]).name,
                            plane.line(line)
                        ),
                        None,
                    ));
                }
            }
        }
        let mut leaf_host = vec![0u8; leaves.len() * d];
        let mut slot_rank = vec![NONE; leaves.len() * d];
        let mut sorted: Vec<(u32, u32, Endpoint)> = host_slots.to_vec();
        sorted.sort_by_key(|&(l, j, _)| (l, j));
        let mut hosts = Vec::with_capacity(sorted.len());
        let mut hosts_per_leaf = 0;
        for &(l, j, ep) in &sorted {
            let Some((sw, swport)) = fabric.peer(ep.node, ep.port) else {
                return Err(Error::input(
                    "topology",
                    format!("host {} is not cabled", fabric.node(ep.node).name),
                    None,
                ));
            };
            if leaf_of[sw as usize] != l || j as usize >= d {
                return Err(Error::input(
                    "topology",
                    format!("host {} is not on the leaf of its slot", fabric.node(ep.node).name),
                    None,
                ));
            }
            let i = l as usize * d + j as usize;
            if leaf_host[i] != 0 {
                return Err(Error::input(
                    "topology",
                    format!("two hosts in slot {j} of leaf {l}"),
                    None,
                ));
            }
            leaf_host[i] = swport;
            slot_rank[i] = hosts.len() as u32;
            hosts.push(ep);
            hosts_per_leaf = hosts_per_leaf.max(j + 1);
        }
        Ok(LsftLayout {
            plane,
            q,
            sides,
            hosts_per_leaf,
            leaves,
            spines,
            leaf_up,
            spine_down,
            leaf_host,
            slot_rank,
            hosts,
        })
    }
}

/// Node names: `L<p>`, `S<l>`, `H<p>_<j>`; two-sided fabrics add `a`/`b` for the side.
fn side_suffix(sides: u32, side: u32) -> &'static str {
    match (sides, side) {
        (1, _) => "",
        (_, 0) => "a",
        _ => "b",
    }
}

/// Build LSFT(q) as a port-level fabric.
pub fn build(params: &LsftParams, opts: &BuildOptions) -> Result<(Fabric, Layout)> {
    params.validate()?;
    let q = params.order;
    let plane = Plane::new(q)?;
    let d = q + 1;
    let m = params.hosts_per_leaf.unwrap_or(d);
    let sides = params.sides();
    let npts = plane.size();
    let mut fabric = Fabric::new();
    let mut guids = GuidAlloc::new(opts)?;
    let mut shuffle = PortShuffle::new(opts);
    let nports = 2 * d;

    // hosts first: ibsim attaches OpenSM and the diagnostics to the first node of the file
    let mut host_nodes = Vec::with_capacity((sides * npts * m) as usize);
    for side in 0..sides {
        for p in 0..npts {
            for j in 0..m {
                let i = host_nodes.len() as u32;
                let name = format!("H{p}_{j}{}", side_suffix(sides, side));
                let desc = format!("{name} HCA-1");
                host_nodes.push(fabric.add_node(NodeKind::Ca, 1, guids.ca(i, 1), name, desc)?);
            }
        }
    }
    let mut leaves = Vec::with_capacity((sides * npts) as usize);
    for side in 0..sides {
        for p in 0..npts {
            let name = format!("L{p}{}", side_suffix(sides, side));
            let desc = format!("{name} lsft{q} leaf {}", plane.point(p));
            let i = leaves.len() as u32;
            leaves.push(fabric.add_node(NodeKind::Switch, nports, guids.switch(i), name, desc)?);
        }
    }
    let mut spines = Vec::with_capacity(npts as usize);
    for l in 0..npts {
        let name = format!("S{l}");
        let desc = format!("{name} lsft{q} spine {}", plane.line(l));
        spines.push(fabric.add_node(NodeKind::Switch, nports, guids.switch(sides * npts + l), name, desc)?);
    }
    let leaf_ports: Vec<Vec<u8>> = leaves.iter().map(|_| shuffle.ports(nports)).collect();
    let spine_ports: Vec<Vec<u8>> = spines.iter().map(|_| shuffle.ports(nports)).collect();
    let mut host_slots = Vec::with_capacity(host_nodes.len());
    for side in 0..sides {
        for p in 0..npts {
            let li = (side * npts + p) as usize;
            for j in 0..m {
                let h = host_nodes[(li as u32 * m + j) as usize];
                fabric.connect_with(
                    leaves[li],
                    leaf_ports[li][1 + j as usize] as u32,
                    h,
                    1,
                    opts.width,
                    opts.speed,
                )?;
                host_slots.push((li as u32, j, Endpoint { node: h, port: 1 }));
            }
            for (k, &l) in plane.lines_through(p).iter().enumerate() {
                let kk = plane.position_on_line(l, p).unwrap();
                let up = leaf_ports[li][(d + 1) as usize + k] as u32;
                let down = spine_ports[l as usize][(side * d + 1 + kk) as usize] as u32;
                fabric.connect_with(leaves[li], up, spines[l as usize], down, opts.width, opts.speed)?;
            }
        }
    }
    let layout = LsftLayout::resolve(&fabric, plane, sides, leaves, spines, &host_slots)?;
    Ok((fabric, Layout::Lsft(layout)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(q: u32, two: bool, m: Option<u32>) -> (usize, usize, usize) {
        let (f, _) = build(
            &LsftParams {
                order: q,
                two_sided: two,
                hosts_per_leaf: m,
            },
            &BuildOptions::default(),
        )
        .unwrap();
        (f.switches().count(), f.cas().count(), f.link_count())
    }

    #[test]
    fn counts_follow_the_construction() {
        // (q+1)(q²+q+1) hosts, q²+q+1 leaves and spines, (q+1)(q²+q+1) leaf-spine cables
        assert_eq!(counts(2, false, None), (14, 21, 21 + 21));
        assert_eq!(counts(3, false, None), (26, 52, 52 + 52));
        assert_eq!(counts(7, false, None), (114, 456, 456 + 456));
        assert_eq!(counts(2, true, None), (21, 42, 42 + 42));
        assert_eq!(counts(3, false, Some(2)), (26, 26, 26 + 52));
    }

    #[test]
    fn every_leaf_pair_shares_exactly_one_spine() {
        let (f, layout) = build(&LsftParams::new(4, false), &BuildOptions::default()).unwrap();
        let Layout::Lsft(l) = layout else { panic!() };
        let spine_sets: Vec<Vec<NodeId>> = l
            .leaves
            .iter()
            .map(|&leaf| {
                let mut v: Vec<NodeId> = (1..=f.node(leaf).nports)
                    .filter_map(|p| f.peer(leaf, p))
                    .map(|(n, _)| n)
                    .filter(|n| f.node(*n).kind == NodeKind::Switch)
                    .collect();
                v.sort();
                v
            })
            .collect();
        for a in 0..spine_sets.len() {
            for b in a + 1..spine_sets.len() {
                let common = spine_sets[a].iter().filter(|s| spine_sets[b].contains(s)).count();
                assert_eq!(common, 1);
            }
        }
    }

    #[test]
    fn shuffled_build_resolves_the_same_structure() {
        let p = LsftParams::new(3, true);
        let opts = BuildOptions {
            shuffle: Some(9),
            ..Default::default()
        };
        let (f, layout) = build(&p, &opts).unwrap();
        let Layout::Lsft(l) = layout else { panic!() };
        assert_eq!(l.hosts.len(), 2 * 4 * 13);
        // ports really are shuffled, and the resolved tables point at the right spines
        assert!(l.leaf_up.iter().any(|&p| p <= 4));
        for (li, &leaf) in l.leaves.iter().enumerate() {
            let point = li as u32 % 13;
            for (k, &line) in l.plane.lines_through(point).iter().enumerate() {
                let (peer, _) = f.peer(leaf, l.leaf_up[li * 4 + k]).unwrap();
                assert_eq!(peer, l.spines[line as usize]);
            }
        }
        let (f2, _) = build(&p, &opts).unwrap();
        assert_eq!(f, f2, "same seed, same fabric");
    }

    #[test]
    fn bad_parameters_name_the_field() {
        let e = LsftParams::new(6, false).validate().unwrap_err().to_string();
        assert!(
            e.starts_with("order: 6 is not a prime power") && e.contains("5, 7"),
            "{e}"
        );
        let e = LsftParams {
            order: 3,
            two_sided: false,
            hosts_per_leaf: Some(5),
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("hosts_per_leaf:") && e.contains("1..=4"), "{e}");
    }
}
