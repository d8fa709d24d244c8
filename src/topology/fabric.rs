//! Port-level model of an InfiniBand fabric: nodes with numbered ports and cables.
//!
//! Everything is stored in flat vectors indexed by integers so that routing, checking
//! and recognition never hash on their hot paths: node `n`'s port `p` lives at
//! `ports[nodes[n].first_port + p]`, and a cable is the pair of global port indices
//! that point at each other through `Port::peer`.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// Index of a node in [`Fabric::nodes`].
pub type NodeId = u32;
/// Global index of a port in [`Fabric::ports`].
pub type PortIdx = u32;
/// `Port::peer` of an unconnected port.
pub const NO_PEER: PortIdx = u32::MAX;
/// Highest usable port number of a switch (255 is reserved in LFTs for "no route").
pub(crate) const MAX_PORTS: u32 = 254;

/// Kind of an InfiniBand node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// A switch: forwards by its LFT; one LID on management port 0, ports 1..=n cabled.
    Switch,
    /// A channel adapter (host HCA): the endpoints of traffic, one LID per cabled port.
    Ca,
    /// An IB router: addressed like a CA (LIDs per cabled port), never a traffic endpoint.
    Router,
}

/// Active link width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Width {
    /// 1 lane (1x).
    X1,
    /// 2 lanes (2x); not expressible in ibsim files.
    X2,
    /// 4 lanes (4x): the usual switch-to-switch and host width, and the default.
    #[default]
    X4,
    /// 8 lanes (8x).
    X8,
    /// 12 lanes (12x).
    X12,
}

/// Active link speed (per lane).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Speed {
    /// Single data rate, 2.5 Gb/s per lane; the default.
    #[default]
    Sdr,
    /// Double data rate, 5 Gb/s per lane.
    Ddr,
    /// Quad data rate, 10 Gb/s per lane; the fastest speed ibsim models.
    Qdr,
    /// FDR10, 10.3125 Gb/s per lane (64b/66b encoding at QDR signalling).
    Fdr10,
    /// Fourteen data rate, 14.0625 Gb/s per lane.
    Fdr,
    /// Enhanced data rate, 25.78125 Gb/s per lane.
    Edr,
    /// High data rate, 53.125 Gb/s per lane.
    Hdr,
    /// Next data rate, 106.25 Gb/s per lane.
    Ndr,
    /// eXtended data rate, 212.5 Gb/s per lane.
    Xdr,
}

impl Width {
    /// Number of lanes.
    pub(crate) fn lanes(self) -> u32 {
        match self {
            Width::X1 => 1,
            Width::X2 => 2,
            Width::X4 => 4,
            Width::X8 => 8,
            Width::X12 => 12,
        }
    }
    /// ibsim's enabled-width bit (`w=`); `None` for widths ibsim cannot model.
    pub(crate) fn ibsim_mask(self) -> Option<u32> {
        match self {
            Width::X1 => Some(1),
            Width::X4 => Some(2),
            Width::X8 => Some(4),
            Width::X12 => Some(8),
            Width::X2 => None,
        }
    }
}

impl Speed {
    /// ibsim's enabled-speed bit (`s=`); ibsim 0.10 models SDR, DDR and QDR only.
    pub(crate) fn ibsim_mask(self) -> Option<u32> {
        match self {
            Speed::Sdr => Some(1),
            Speed::Ddr => Some(2),
            Speed::Qdr => Some(4),
            _ => None,
        }
    }
    /// Approximate signalling rate per lane in Gb/s (for ordering and reports).
    pub(crate) fn gbps_per_lane(self) -> f64 {
        match self {
            Speed::Sdr => 2.5,
            Speed::Ddr => 5.0,
            Speed::Qdr => 10.0,
            Speed::Fdr10 => 10.3125,
            Speed::Fdr => 14.0625,
            Speed::Edr => 25.78125,
            Speed::Hdr => 53.125,
            Speed::Ndr => 106.25,
            Speed::Xdr => 212.5,
        }
    }
}

impl fmt::Display for Width {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x", self.lanes())
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Speed::Sdr => "SDR",
            Speed::Ddr => "DDR",
            Speed::Qdr => "QDR",
            Speed::Fdr10 => "FDR10",
            Speed::Fdr => "FDR",
            Speed::Edr => "EDR",
            Speed::Hdr => "HDR",
            Speed::Ndr => "NDR",
            Speed::Xdr => "XDR",
        };
        f.write_str(s)
    }
}

impl FromStr for Width {
    type Err = Error;
    /// A width token (see [`Width::from_token`]), surrounding blanks allowed.
    fn from_str(s: &str) -> Result<Width> {
        Width::from_token(s.trim()).ok_or_else(|| {
            Error::input(
                "width",
                format!("unknown link width `{}`", s.trim().to_ascii_lowercase()),
                Some("one of 1x, 2x, 4x, 8x, 12x".into()),
            )
        })
    }
}

impl FromStr for Speed {
    type Err = Error;
    /// A speed token (see [`Speed::from_token`]), surrounding blanks allowed.
    fn from_str(s: &str) -> Result<Speed> {
        Speed::from_token(s.trim()).ok_or_else(|| {
            Error::input(
                "speed",
                format!("unknown link speed `{}`", s.trim().to_ascii_uppercase()),
                Some("one of SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR".into()),
            )
        })
    }
}

macro_rules! serde_via_str {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                s.parse()
                    .map_err(|e: Error| serde::de::Error::custom(e.to_string()))
            }
        }
    };
}
serde_via_str!(Width);
serde_via_str!(Speed);

/// A node: switch, channel adapter (host) or router.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Switch, CA or router: decides which ports carry LIDs and which ports are endpoints.
    pub kind: NodeKind,
    /// Number of external ports (ports 1..=nports; switches also have port 0).
    pub nports: u8,
    /// Index of this node's port 0 in [`Fabric::ports`].
    pub first_port: PortIdx,
    /// Node GUID (for switches also the GUID of every port).
    pub guid: u64,
    /// Short unique name (the ibsim node id): `L3`, `S12`, `H3_1` ...
    pub name: String,
    /// NodeDescription as the SMA reports it (at most 64 bytes in IB).
    pub desc: String,
    /// System image GUID, shared by the devices of one system where the vendor sets it
    /// so (0: not known). Groups HCAs into servers when descriptions do not name hosts.
    pub sysimg: u64,
}

/// A port and, when cabled, its peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Port {
    /// The node this port belongs to.
    pub node: NodeId,
    /// Port number on its node: 0 is the switch management port, 1..=`nports` are external.
    pub num: u8,
    /// Port GUID: node GUID for switch ports, node GUID + port number for CAs (ibsim's rule).
    pub guid: u64,
    /// Global index of the port at the other end of the cable, or [`NO_PEER`].
    pub peer: PortIdx,
    /// Active width of the cable at this port (both ends agree; default 4x when unknown).
    pub width: Width,
    /// Active per-lane speed of the cable at this port (both ends agree; default SDR).
    pub speed: Speed,
    /// Base LID when known (discovered fabrics); 0 = unknown.
    pub lid: u16,
    /// LMC when known: the port answers to 2^lmc consecutive LIDs from `lid`; 0 otherwise.
    pub lmc: u8,
}

/// A host port: the unit that sends and receives in a schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Endpoint {
    /// The CA node.
    pub node: NodeId,
    /// Its cabled port, 1-based.
    pub port: u8,
}

/// One cable, by its two ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Node at the first end (the one with the lower global port index in [`Fabric::links`]).
    pub a: NodeId,
    /// Port number (1-based) at the first end.
    pub pa: u8,
    /// Node at the second end.
    pub b: NodeId,
    /// Port number (1-based) at the second end.
    pub pb: u8,
}

/// The whole fabric.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fabric {
    /// All nodes; a [`NodeId`] indexes this vector.
    pub nodes: Vec<Node>,
    /// All ports of all nodes, port 0 included, grouped by node in node order; a
    /// [`PortIdx`] indexes this vector and node `n`'s port `p` is at `nodes[n].first_port + p`.
    pub ports: Vec<Port>,
}

/// ibsim's port GUIDs: a switch's ports share its node GUID; a CA or router port p has
/// node GUID + p (wrapping: a dump may carry any GUID).
fn port_guid(kind: NodeKind, node_guid: u64, p: u8) -> u64 {
    match kind {
        NodeKind::Switch => node_guid,
        _ => node_guid.wrapping_add(p as u64),
    }
}

impl Fabric {
    /// Fingerprint of the fabric's identity (see [`crate::fingerprint`]): the sorted
    /// GUIDs of its nodes. A file computed for one fabric names it with this, so that a
    /// reader holding another fabric (or the same one with a switch replaced) can tell.
    pub fn fingerprint(&self) -> String {
        let mut guids: Vec<u64> = self.nodes.iter().map(|n| n.guid).collect();
        guids.sort_unstable();
        let mut h = crate::fingerprint::Fnv1a::new();
        guids.iter().for_each(|&g| {
            h.u64(g);
        });
        h.hex()
    }

    /// Give node `n` a new GUID, and its ports the GUIDs that follow from it (ibsim's rule,
    /// as [`Fabric::add_node`]).
    pub fn set_node_guid(&mut self, n: NodeId, guid: u64) {
        let node = &mut self.nodes[n as usize];
        node.guid = guid;
        let (kind, first) = (node.kind, node.first_port as usize);
        for p in 0..=node.nports {
            self.ports[first + p as usize].guid = port_guid(kind, guid, p);
        }
    }

    /// An empty fabric.
    pub fn new() -> Fabric {
        Fabric::default()
    }

    /// Make room for `nodes` more nodes and `ports` more port records (a node of n
    /// external ports takes n + 1: port 0 too), so that a reader that knows its sizes
    /// builds the fabric without regrowing it.
    pub fn reserve(&mut self, nodes: usize, ports: usize) {
        self.nodes.reserve(nodes);
        self.ports.reserve(ports);
    }

    /// Add a node with `nports` external ports; port GUIDs follow ibsim's rule.
    pub fn add_node(
        &mut self,
        kind: NodeKind,
        nports: u32,
        guid: u64,
        name: impl Into<String>,
        desc: impl Into<String>,
    ) -> Result<NodeId> {
        let name = name.into();
        let desc = desc.into();
        // names and descriptions are written into files other programs parse line by line
        super::label::check_label("name", &name, super::label::MAX_NAME, true)?;
        super::label::check_label("desc", &desc, super::label::MAX_DESC, false)?;
        if nports == 0 || nports > MAX_PORTS {
            return Err(Error::input(
                "ports",
                format!("node {name} has {nports} ports; a node has 1..={MAX_PORTS}"),
                None,
            ));
        }
        Ok(self.push_node(kind, nports as u8, guid, name, desc))
    }

    /// [`Fabric::add_node`] for a reader that has already checked the name and the
    /// description with [`check_label`](super::label::check_label) (which names them
    /// as its format does) and the port count: a dump's reader checked them a line
    /// before, and checking twice was a tenth of an ibsim net file's parse.
    pub(crate) fn add_checked_node(
        &mut self,
        kind: NodeKind,
        nports: u8,
        guid: u64,
        name: String,
        desc: String,
    ) -> NodeId {
        debug_assert!(nports >= 1 && u32::from(nports) <= MAX_PORTS);
        self.push_node(kind, nports, guid, name, desc)
    }

    /// The node and its ports (port 0 included), unchecked.
    #[inline]
    fn push_node(&mut self, kind: NodeKind, nports: u8, guid: u64, name: String, desc: String) -> NodeId {
        let id = self.nodes.len() as NodeId;
        let first_port = self.ports.len() as PortIdx;
        // one extension of known length (a push per port checked the capacity each
        // time), the GUIDs as port_guid gives them: the node's, or the node's plus p
        let step = port_guid(kind, 1, 1).wrapping_sub(1);
        self.ports.extend((0..=nports).map(|p| Port {
            node: id,
            num: p,
            guid: guid.wrapping_add(step * u64::from(p)),
            peer: NO_PEER,
            width: Width::default(),
            speed: Speed::default(),
            lid: 0,
            lmc: 0,
        }));
        self.nodes.push(Node {
            kind,
            nports,
            first_port,
            guid,
            name,
            desc,
            sysimg: 0,
        });
        id
    }

    /// Record node `n`'s system image GUID (dumps carry it as `sysimgguid=`).
    pub fn set_sysimg(&mut self, n: NodeId, sysimg: u64) {
        self.nodes[n as usize].sysimg = sysimg;
    }

    /// Global index of port `p` of node `n` (panics when out of range: use [`Fabric::try_port_index`]).
    #[inline]
    pub fn port_index(&self, n: NodeId, p: u8) -> PortIdx {
        let node = &self.nodes[n as usize];
        debug_assert!(p <= node.nports);
        node.first_port + p as PortIdx
    }

    /// Global index of port `p` of node `n`, checked.
    pub fn try_port_index(&self, n: NodeId, p: u32) -> Result<PortIdx> {
        let node = self
            .nodes
            .get(n as usize)
            .ok_or_else(|| Error::input("node", format!("no node with index {n}"), None))?;
        if p > node.nports as u32 {
            return Err(Error::input(
                "port",
                format!("port {p} is beyond {} which has ports 1..={}", node.name, node.nports),
                None,
            ));
        }
        Ok(node.first_port + p)
    }

    /// The port record.
    #[inline]
    pub fn port(&self, n: NodeId, p: u8) -> &Port {
        &self.ports[self.port_index(n, p) as usize]
    }

    /// Cable two ports together.
    pub fn connect(&mut self, a: NodeId, pa: u32, b: NodeId, pb: u32) -> Result<()> {
        self.connect_with(a, pa, b, pb, Width::default(), Speed::default())
    }

    /// Cable two ports together with a given width and speed.
    pub fn connect_with(&mut self, a: NodeId, pa: u32, b: NodeId, pb: u32, width: Width, speed: Speed) -> Result<()> {
        let ia = self.try_port_index(a, pa)?;
        let ib = self.try_port_index(b, pb)?;
        if pa == 0 || pb == 0 {
            return Err(Error::input(
                "port",
                "port 0 is the switch management port and takes no cable",
                None,
            ));
        }
        if ia == ib {
            return Err(Error::input(
                "port",
                format!("{} port {pa} cannot be cabled to itself", self.nodes[a as usize].name),
                None,
            ));
        }
        for (i, n, p) in [(ia, a, pa), (ib, b, pb)] {
            let peer = self.ports[i as usize].peer;
            if peer != NO_PEER {
                let other = &self.ports[peer as usize];
                return Err(Error::input(
                    "port",
                    format!(
                        "{} port {p} is already cabled to {} port {}",
                        self.nodes[n as usize].name, self.nodes[other.node as usize].name, other.num
                    ),
                    None,
                ));
            }
        }
        for (i, j) in [(ia, ib), (ib, ia)] {
            let port = &mut self.ports[i as usize];
            port.peer = j;
            port.width = width;
            port.speed = speed;
        }
        Ok(())
    }

    /// Remove the cable at a port (no-op when unconnected).
    pub fn disconnect(&mut self, n: NodeId, p: u8) {
        let i = self.port_index(n, p);
        let j = self.ports[i as usize].peer;
        if j != NO_PEER {
            self.ports[i as usize].peer = NO_PEER;
            self.ports[j as usize].peer = NO_PEER;
        }
    }

    /// The (node, port) at the other end of the cable at `n`:`p`.
    #[inline]
    pub fn peer(&self, n: NodeId, p: u8) -> Option<(NodeId, u8)> {
        let peer = self.ports[self.port_index(n, p) as usize].peer;
        (peer != NO_PEER).then(|| {
            let q = &self.ports[peer as usize];
            (q.node, q.num)
        })
    }

    /// Node record.
    #[inline]
    pub fn node(&self, n: NodeId) -> &Node {
        &self.nodes[n as usize]
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the fabric has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Ids of all switches, in node order.
    pub fn switches(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.ids_of(NodeKind::Switch)
    }

    /// Ids of the switches with a host (CA or router) cabled to them, in node order: where
    /// host traffic enters the fabric.
    pub fn switches_with_hosts(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.switches().filter(|&s| {
            (1..=self.node(s).nports).any(|p| {
                self.peer(s, p)
                    .is_some_and(|(n, _)| self.node(n).kind != NodeKind::Switch)
            })
        })
    }

    /// Ids of all channel adapters, in node order.
    pub fn cas(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.ids_of(NodeKind::Ca)
    }

    fn ids_of(&self, kind: NodeKind) -> impl Iterator<Item = NodeId> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(move |(_, n)| n.kind == kind)
            .map(|(i, _)| i as NodeId)
    }

    /// Every cable once, ordered by the global index of its lower end.
    pub fn links(&self) -> impl Iterator<Item = Link> + '_ {
        self.ports
            .iter()
            .enumerate()
            .filter(|(i, p)| p.peer != NO_PEER && (*i as PortIdx) < p.peer)
            .map(|(_, p)| {
                let q = &self.ports[p.peer as usize];
                Link {
                    a: p.node,
                    pa: p.num,
                    b: q.node,
                    pb: q.num,
                }
            })
    }

    /// Number of cables.
    pub fn link_count(&self) -> usize {
        self.links().count()
    }

    /// Cabled ports of CAs: the hosts that take part in traffic, in node/port order.
    pub fn endpoints(&self) -> Vec<Endpoint> {
        let mut v = Vec::new();
        for id in self.cas() {
            let node = &self.nodes[id as usize];
            for p in 1..=node.nports {
                if self.ports[(node.first_port + p as u32) as usize].peer != NO_PEER {
                    v.push(Endpoint { node: id, port: p });
                }
            }
        }
        v
    }

    /// Map from node GUID to node id (built on demand; not for hot loops).
    pub fn guid_index(&self) -> HashMap<u64, NodeId> {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.guid, i as NodeId))
            .collect()
    }

    /// Map from port GUID to (node, port) for CA ports and switch port 0.
    pub fn port_guid_index(&self) -> HashMap<u64, (NodeId, u8)> {
        let mut m = HashMap::with_capacity(self.ports.len());
        for p in &self.ports {
            let node = &self.nodes[p.node as usize];
            if node.kind == NodeKind::Switch && p.num != 0 {
                continue;
            }
            if node.kind != NodeKind::Switch && p.num == 0 {
                continue;
            }
            m.insert(p.guid, (p.node, p.num));
        }
        m
    }

    #[cfg(test)]
    /// Map from node name to node id (built on demand).
    pub(crate) fn name_index(&self) -> HashMap<&str, NodeId> {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.as_str(), i as NodeId))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cables_are_symmetric_and_checked() {
        let mut f = Fabric::new();
        let s = f.add_node(NodeKind::Switch, 4, 0x10, "S", "switch").unwrap();
        let h = f.add_node(NodeKind::Ca, 2, 0x20, "H", "host").unwrap();
        f.connect(s, 3, h, 1).unwrap();
        assert_eq!(f.peer(s, 3), Some((h, 1)));
        assert_eq!(f.peer(h, 1), Some((s, 3)));
        assert_eq!(f.port(h, 2).guid, 0x22);
        assert_eq!(f.port(s, 4).guid, 0x10);
        assert!(f
            .connect(s, 3, h, 2)
            .unwrap_err()
            .to_string()
            .contains("already cabled"));
        assert!(f.connect(s, 5, h, 2).unwrap_err().to_string().contains("beyond S"));
        assert!(f.connect(s, 0, h, 2).is_err());
        assert_eq!(f.link_count(), 1);
        assert_eq!(f.endpoints(), vec![Endpoint { node: h, port: 1 }]);
        f.disconnect(h, 1);
        assert_eq!(f.peer(s, 3), None);
    }

    #[test]
    fn width_and_speed_round_trip() {
        for w in ["1x", "2x", "4x", "8x", "12x"] {
            assert_eq!(w.parse::<Width>().unwrap().to_string(), w);
        }
        for s in ["SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR"] {
            assert_eq!(s.parse::<Speed>().unwrap().to_string(), s);
        }
        assert!(Speed::Edr > Speed::Qdr && Width::X1 < Width::X4);
        assert!("5x".parse::<Width>().is_err());
    }
}
