//! Rail-optimised clusters as they are found: servers of several single-port HCAs (one
//! per GPU), HCA *r* of every server of a scalable unit (SU) cabled to that unit's
//! rail-*r* leaf (the DGX SuperPOD cabling). The subnet manager sees 8 unrelated HCAs per
//! server; Slurm, MPI and NCCL see one server with 8 rails. This module recovers the
//! servers, the rails and the units from the discovered cabling and descriptions, so that
//! jobs, Slurm files and cabling checks can speak of servers, and [`check`] can tell a
//! cable plugged into another rail's leaf.
//!
//! How each part is found (docs/railopt.md has the details):
//! * **server**: the host name, the first word of the HCA's NodeDescription (`dgx017
//!   mlx5_3`; rdma-core's `rdma-ndd` writes it so; a `--node-name-map` sets it);
//! * **rail**: the device, the second word (`mlx5_3`), when the servers name their
//!   devices alike; otherwise the leaf's position in its unit;
//! * **unit**: leaves that serve mostly the same servers (a stray cable to another unit
//!   joins nothing); a server's unit is the one holding most of its HCAs;
//! * **a leaf's rail**: the rail most of its HCAs are on.

pub mod check;
pub mod plan;

use crate::guid::FxMap as HashMap;
use crate::topology::{Endpoint, Fabric, NodeId, NodeKind};
use std::borrow::Cow;

/// No rail, unit or leaf.
pub(crate) const NONE: u32 = u32::MAX;

/// One HCA port of a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hca {
    /// The host port.
    pub endpoint: Endpoint,
    /// Device name: the description's second word (`mlx5_3`), with `/port` for a
    /// multi-port HCA; empty when the description names none.
    pub device: String,
    /// Rail by device ([`NONE`] when the device is no rail's); by leaf when rails are
    /// found from leaves.
    pub rail: u32,
    /// The switch it is cabled to.
    pub leaf: NodeId,
    /// The port of that switch.
    pub leaf_port: u8,
}

/// A server: the HCAs that share a host name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    /// Host name (first word of the description).
    pub name: String,
    /// Its HCAs, by rail then device.
    pub hcas: Vec<Hca>,
    /// Its scalable unit (index in [`RailFabric::units`]), [`NONE`] when it has none.
    pub unit: u32,
}

/// A scalable unit: leaves serving the same servers, one per rail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The leaf serving each rail ([`NONE`] when none does; the first when several do).
    pub rail_leaf: Vec<u32>,
    /// Every leaf of the unit, by rail then GUID.
    pub leaves: Vec<NodeId>,
    /// Its servers (indices in [`RailFabric::servers`]), in name order.
    pub servers: Vec<u32>,
}

/// Where the rails were read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RailSource {
    /// The HCAs' device names (`mlx5_0` … `mlx5_7`): HCA and leaf can disagree, and the
    /// check says so.
    Devices,
    /// The descriptions name no common devices: an HCA's rail is its leaf's.
    Leaves,
}

/// A rail-optimised fabric's servers, rails and units.
#[derive(Clone, Debug)]
pub struct RailFabric {
    /// Servers of several HCAs, in host-name order (numbers compared as numbers).
    pub servers: Vec<Server>,
    /// The device name of each rail (`rail<k>` when rails are found from leaves).
    pub rails: Vec<String>,
    /// Where the rails come from.
    pub source: RailSource,
    /// Scalable units, in the order of their first server.
    pub units: Vec<Unit>,
    /// Per node: the rail a leaf serves ([`NONE`] for other nodes).
    pub leaf_rail: Vec<u32>,
    /// Per node: the unit a leaf belongs to ([`NONE`] for other nodes and stray leaves).
    pub leaf_unit: Vec<u32>,
    /// Host ports that are not part of a server (a management or storage host with one
    /// HCA), in fabric order.
    pub others: Vec<Endpoint>,
    /// Units whose servers name their devices otherwise (`mlx5_0` where the rest say
    /// `HCA-1`): per unit, each local name and the rail its leaf gave it
    /// ([`RailFabric::adopt_local_names`]).
    pub local_names: Vec<(u32, Vec<(String, u32)>)>,
}

/// The host name and device words of a host node's description (its name when empty).
///
/// A description that names no host (a vendor's default such as `MT4129 ConnectX7
/// Mellanox Technologies`, which HCAs keep when rdma-ndd does not run, a switch's SHARP
/// `Mellanox Technologies Aggregation Node`, or ibsim's node id) gives way to the system
/// image GUID where the node has one: HCAs of one system image are one server,
/// `sysimg-<hex>`, with no device word. Without one such a node is a host of its own,
/// named by its node name.
pub(crate) fn host_words(fabric: &Fabric, n: NodeId) -> (Cow<'_, str>, &str) {
    let node = fabric.node(n);
    let mut words = node.desc.split_whitespace();
    let host = words.next();
    let generic = match host {
        Some(h) => vendor_default(h) || node.desc == node.name,
        None => true,
    };
    match host {
        _ if generic && node.sysimg != 0 => (Cow::Owned(format!("sysimg-{:x}", node.sysimg)), ""),
        Some(host) if !generic => (Cow::Borrowed(host), words.next().unwrap_or("")),
        _ => (Cow::Borrowed(node.name.as_str()), ""),
    }
}

/// `MT4129`, `MT27800` (the part number Mellanox/NVIDIA firmware puts first in a default
/// NodeDescription), `Mellanox`, `NVIDIA`: a description written by firmware, not by the
/// host.
fn vendor_default(word: &str) -> bool {
    let part = word.len() > 2 && word.starts_with("MT") && word[2..].bytes().all(|b| b.is_ascii_digit());
    part || word == "Mellanox" || word == "NVIDIA"
}

/// Orders names as people number servers: `dgx2` before `dgx10`, digits compared as
/// numbers, the rest as text.
pub(crate) fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    // byte by byte, chunk by chunk (recognising a rail-optimised fabric sorts by it)
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        let (cx, cy) = (chunk(x, i), chunk(y, j));
        (i, j) = (i + cx.len(), j + cy.len());
        let (dx, dy) = (cx[0].is_ascii_digit(), cy[0].is_ascii_digit());
        let ord = if dx && dy {
            // numbers: fewer significant digits first, then digit by digit
            let (tx, ty) = (zeros_off(cx), zeros_off(cy));
            tx.len().cmp(&ty.len()).then_with(|| tx.cmp(ty))
        } else {
            // text before numbers, text against text as bytes
            dx.cmp(&dy).then_with(|| cx.cmp(cy))
        };
        if ord != Ordering::Equal {
            return ord;
        }
    }
    // the name with chunks left over is the later one; equal chunks: as plain text
    (i < x.len()).cmp(&(j < y.len())).then_with(|| a.cmp(b))
}

/// The run of digits or of non-digits starting at `at`.
fn chunk(s: &[u8], at: usize) -> &[u8] {
    let digit = s[at].is_ascii_digit();
    let len = s[at..]
        .iter()
        .position(|c| c.is_ascii_digit() != digit)
        .unwrap_or(s.len() - at);
    &s[at..at + len]
}

/// A run of digits without its leading zeros.
fn zeros_off(digits: &[u8]) -> &[u8] {
    let z = digits.iter().take_while(|&&c| c == b'0').count();
    &digits[z..]
}

impl RailFabric {
    /// The servers, rails and units of `fabric`, or `None` when it is not rail-optimised:
    /// fewer than two servers of several HCAs, or most such servers with all their HCAs on
    /// one switch.
    pub fn of(fabric: &Fabric) -> Option<RailFabric> {
        let (mut servers, single) = group_servers(fabric);
        let multi: Vec<usize> = (0..servers.len()).filter(|&i| servers[i].hcas.len() > 1).collect();
        let spread = multi
            .iter()
            .filter(|&&i| {
                let h = &servers[i].hcas;
                h.iter().any(|x| x.leaf != h[0].leaf)
            })
            .count();
        if multi.len() < 2 || spread * 2 <= multi.len() {
            return None;
        }
        let rails_n = common_hca_count(&servers);
        let mut others = single;
        // hosts of one HCA are not servers of a rail-optimised fabric (management, storage)
        servers.retain(|s| {
            if s.hcas.len() == 1 {
                others.push(s.hcas[0].endpoint);
            }
            s.hcas.len() > 1
        });
        others.sort();
        let (rails, source) = rails_by_device(&mut servers, rails_n);
        let mut rf = RailFabric {
            servers,
            rails,
            source,
            units: Vec::new(),
            leaf_rail: vec![NONE; fabric.len()],
            leaf_unit: vec![NONE; fabric.len()],
            others,
            local_names: Vec::new(),
        };
        rf.find_units(fabric);
        rf.find_leaf_rails(fabric);
        if rf.source == RailSource::Devices {
            rf.adopt_local_names(fabric);
        }
        Some(rf)
    }

    /// Number of rails.
    pub(crate) fn rails_n(&self) -> usize {
        self.rails.len()
    }

    #[cfg(test)]
    /// The server named `name`.
    pub(crate) fn server(&self, name: &str) -> Option<&Server> {
        self.servers
            .binary_search_by(|s| natural_cmp(&s.name, name))
            .ok()
            .map(|i| &self.servers[i])
    }

    /// Units are leaves joined by the servers they share: two leaves are in one unit when
    /// more than half the servers of the busier one are on both (a stray cable joins
    /// nothing).
    fn find_units(&mut self, fabric: &Fabric) {
        let mut servers_on = vec![0u32; fabric.len()];
        let mut shared: HashMap<(NodeId, NodeId), u32> = HashMap::default();
        for s in &self.servers {
            let mut leaves: Vec<NodeId> = s.hcas.iter().map(|h| h.leaf).collect();
            leaves.sort_unstable();
            leaves.dedup();
            for (i, &a) in leaves.iter().enumerate() {
                servers_on[a as usize] += 1;
                for &b in &leaves[i + 1..] {
                    *shared.entry((a, b)).or_default() += 1;
                }
            }
        }
        let mut root: Vec<NodeId> = (0..fabric.len() as NodeId).collect();
        fn find(root: &mut [NodeId], mut x: NodeId) -> NodeId {
            while root[x as usize] != x {
                root[x as usize] = root[root[x as usize] as usize];
                x = root[x as usize];
            }
            x
        }
        let mut pairs: Vec<_> = shared.into_iter().collect();
        pairs.sort_unstable();
        for ((a, b), w) in pairs {
            if w * 2 > servers_on[a as usize].max(servers_on[b as usize]) {
                let (ra, rb) = (find(&mut root, a), find(&mut root, b));
                root[ra.max(rb) as usize] = ra.min(rb);
            }
        }
        // a server's unit: the group holding most of its HCAs (ties: the first leaf's)
        let mut group_of_server = Vec::with_capacity(self.servers.len());
        for s in &self.servers {
            let mut count: Vec<(NodeId, u32)> = Vec::new();
            for h in &s.hcas {
                let g = find(&mut root, h.leaf);
                match count.iter_mut().find(|c| c.0 == g) {
                    Some(c) => c.1 += 1,
                    None => count.push((g, 1)),
                }
            }
            let best = count.iter().map(|c| c.1).max().unwrap_or(0);
            group_of_server.push(count.iter().find(|c| c.1 == best).map_or(NONE, |c| c.0));
        }
        // units in the order of their first server; a group no server calls its own is stray
        let mut unit_of_group: HashMap<NodeId, u32> = HashMap::default();
        for (i, &g) in group_of_server.iter().enumerate() {
            let next = self.units.len() as u32;
            let u = *unit_of_group.entry(g).or_insert(next);
            if u == next {
                self.units.push(Unit {
                    rail_leaf: vec![NONE; self.rails.len()],
                    leaves: Vec::new(),
                    servers: Vec::new(),
                });
            }
            self.units[u as usize].servers.push(i as u32);
            self.servers[i].unit = u;
        }
        for leaf in 0..fabric.len() as NodeId {
            if servers_on[leaf as usize] > 0 {
                if let Some(&u) = unit_of_group.get(&find(&mut root, leaf)) {
                    self.leaf_unit[leaf as usize] = u;
                    self.units[u as usize].leaves.push(leaf);
                }
            }
        }
    }

    /// A leaf serves the rail most of its HCAs are on; with rails from leaves, a unit's
    /// leaves are its rails in GUID order and every HCA takes its leaf's rail.
    fn find_leaf_rails(&mut self, fabric: &Fabric) {
        let r = self.rails.len();
        let mut count = vec![0u32; r];
        let mut on_leaf: HashMap<NodeId, Vec<u32>> = HashMap::default();
        for s in &self.servers {
            for h in &s.hcas {
                on_leaf.entry(h.leaf).or_default().push(h.rail);
            }
        }
        for unit in &mut self.units {
            unit.leaves.sort_by_key(|&l| fabric.node(l).guid);
            for (k, &leaf) in unit.leaves.iter().enumerate() {
                let rail = match self.source {
                    RailSource::Leaves => {
                        if k < r {
                            k as u32
                        } else {
                            NONE
                        }
                    }
                    RailSource::Devices => {
                        count.iter_mut().for_each(|c| *c = 0);
                        for &x in on_leaf.get(&leaf).map_or(&[][..], Vec::as_slice) {
                            if (x as usize) < r {
                                count[x as usize] += 1;
                            }
                        }
                        let best = *count.iter().max().unwrap_or(&0);
                        if best == 0 {
                            NONE
                        } else {
                            count.iter().position(|&c| c == best).map_or(NONE, |p| p as u32)
                        }
                    }
                };
                self.leaf_rail[leaf as usize] = rail;
                if rail != NONE && unit.rail_leaf[rail as usize] == NONE {
                    unit.rail_leaf[rail as usize] = leaf;
                }
            }
            unit.leaves
                .sort_by_key(|&l| (self.leaf_rail[l as usize], fabric.node(l).guid));
        }
        if self.source == RailSource::Leaves {
            for s in &mut self.servers {
                for h in &mut s.hcas {
                    h.rail = self.leaf_rail[h.leaf as usize];
                }
                s.hcas.sort_by_key(|h| h.rail);
            }
        }
    }
}

impl RailFabric {
    /// A unit whose servers name their devices otherwise than the rest of the fabric (a
    /// site that set descriptions per delivery: one unit `mlx5_0 mlx5_1 …`, the others
    /// `HCA-1 HCA-2 …`) has leaves that serve no rail, each carrying one local name.
    /// When there are as many such leaves as the unit lacks rails, the local names take
    /// the missing rails in name order, unit by unit; an HCA then has the rail of its
    /// name, wherever it is cabled, so a swap among them is still seen. The check reports
    /// one warning per such unit instead of every HCA as unknown.
    fn adopt_local_names(&mut self, fabric: &Fabric) {
        for u in 0..self.units.len() {
            let missing: Vec<u32> = (0..self.rails.len() as u32)
                .filter(|&r| self.units[u].rail_leaf[r as usize] == NONE)
                .collect();
            let mut local: Vec<(String, NodeId)> = Vec::new();
            for &leaf in &self.units[u].leaves {
                if self.leaf_rail[leaf as usize] != NONE {
                    continue;
                }
                let mut names: Vec<&str> = Vec::new();
                for &si in &self.units[u].servers {
                    let s = &self.servers[si as usize];
                    names.extend(
                        s.hcas
                            .iter()
                            .filter(|h| h.leaf == leaf && h.rail == NONE)
                            .map(|h| h.device.as_str()),
                    );
                }
                names.sort_unstable();
                let top = names
                    .chunk_by(|a, b| a == b)
                    .max_by_key(|run| run.len())
                    .filter(|run| run.len() * 3 >= names.len() * 2 && !run[0].is_empty());
                if let Some(run) = top {
                    local.push((run[0].to_string(), leaf));
                }
            }
            local.sort_by(|a, b| natural_cmp(&a.0, &b.0));
            local.dedup_by(|a, b| a.0 == b.0);
            if local.is_empty() || local.len() != missing.len() {
                continue;
            }
            let map: Vec<(String, u32)> = local.iter().zip(&missing).map(|((d, _), &r)| (d.clone(), r)).collect();
            for ((_, leaf), &r) in local.iter().zip(&missing) {
                self.leaf_rail[*leaf as usize] = r;
                self.units[u].rail_leaf[r as usize] = *leaf;
            }
            for &si in &self.units[u].servers {
                let s = &mut self.servers[si as usize];
                for h in s.hcas.iter_mut().filter(|h| h.rail == NONE) {
                    if let Some((_, r)) = map.iter().find(|(d, _)| *d == h.device) {
                        h.rail = *r;
                    }
                }
                s.hcas.sort_by_key(|h| h.rail);
            }
            let leaf_rail = &self.leaf_rail;
            self.units[u]
                .leaves
                .sort_by_key(|&l| (leaf_rail[l as usize], fabric.node(l).guid));
            self.local_names.push((u as u32, map));
        }
    }
}

/// Host ports grouped by host name, servers in name order; host ports cabled to no switch
/// are returned apart.
fn group_servers(fabric: &Fabric) -> (Vec<Server>, Vec<Endpoint>) {
    let mut by_name: HashMap<Cow<'_, str>, usize> = HashMap::default();
    let mut servers: Vec<Server> = Vec::new();
    let mut loose = Vec::new();
    for n in fabric.cas() {
        let node = fabric.node(n);
        let cabled: Vec<u8> = (1..=node.nports).filter(|&p| fabric.peer(n, p).is_some()).collect();
        let (host, device) = host_words(fabric, n);
        for &p in &cabled {
            let endpoint = Endpoint { node: n, port: p };
            let Some((leaf, leaf_port)) = fabric
                .peer(n, p)
                .filter(|&(s, _)| fabric.node(s).kind == NodeKind::Switch)
            else {
                loose.push(endpoint);
                continue;
            };
            let device = if cabled.len() > 1 {
                format!("{device}/{p}")
            } else {
                device.to_string()
            };
            let i = *by_name.entry(host.clone()).or_insert_with(|| {
                servers.push(Server {
                    name: host.to_string(),
                    hcas: Vec::new(),
                    unit: NONE,
                });
                servers.len() - 1
            });
            servers[i].hcas.push(Hca {
                endpoint,
                device,
                rail: NONE,
                leaf,
                leaf_port,
            });
        }
    }
    servers.sort_by(|a, b| natural_cmp(&a.name, &b.name));
    (servers, loose)
}

/// The HCA count most servers have (the larger on a tie): the number of rails.
fn common_hca_count(servers: &[Server]) -> usize {
    let mut count: HashMap<usize, usize> = HashMap::default();
    for s in servers.iter().filter(|s| s.hcas.len() > 1) {
        *count.entry(s.hcas.len()).or_default() += 1;
    }
    count.into_iter().max_by_key(|&(n, c)| (c, n)).map_or(0, |(n, _)| n)
}

/// Rails from device names when exactly `rails_n` names are each used by at least half
/// the servers (HCAs take the rail of their name, or none); otherwise rails come from the
/// leaves later ([`RailSource::Leaves`]).
fn rails_by_device(servers: &mut [Server], rails_n: usize) -> (Vec<String>, RailSource) {
    let mut users: HashMap<&str, usize> = HashMap::default();
    for s in servers.iter() {
        let mut seen: Vec<&str> = s.hcas.iter().map(|h| h.device.as_str()).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.into_iter().for_each(|d| *users.entry(d).or_default() += 1);
    }
    let mut common: Vec<String> = users
        .into_iter()
        .filter(|&(d, u)| !d.is_empty() && u * 2 >= servers.len())
        .map(|(d, _)| d.to_string())
        .collect();
    common.sort_by(|a, b| natural_cmp(a, b));
    if common.len() != rails_n {
        return ((0..rails_n).map(|k| format!("rail{k}")).collect(), RailSource::Leaves);
    }
    for s in servers.iter_mut() {
        for h in &mut s.hcas {
            // natural order is equal only on equal names: a scan of the few rails finds
            // it without ordering them again for every HCA
            h.rail = common.iter().position(|d| *d == h.device).map_or(NONE, |i| i as u32);
        }
        s.hcas
            .sort_by(|a, b| a.rail.cmp(&b.rail).then_with(|| natural_cmp(&a.device, &b.device)));
    }
    (common, RailSource::Devices)
}

#[cfg(test)]
mod tests;
