//! A serialisable account of a recognition: the family, its parameters, and which node
//! is which (the leaf → point and spine → line maps of an LSFT in canonical coordinates,
//! the tree positions of switches and hosts). `ibfat recognize --json` prints it.

use super::{Degraded, Recognition};
use crate::families::Family;
use crate::formats::dump::PortLabel;
use crate::topology::{Endpoint, Fabric, Layout, NodeId};
use serde::Serialize;

/// One node in a map.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct NodeRef {
    /// Node GUID, `0x` and 16 hex digits.
    pub guid: String,
    /// Node id in the dump (`S-0002c9...`, or the ibsim name).
    pub name: String,
    /// NodeDescription as discovered (the quoted text of an ibnetdiscover line); may be empty.
    pub description: String,
}

/// An LSFT leaf and its point.
#[derive(Clone, Debug, Serialize)]
pub struct LeafMap {
    /// The leaf switch; its GUID, name and description appear inline in the JSON object.
    #[serde(flatten)]
    pub node: NodeRef,
    /// 0 or 1 (two-sided: the lower GUID of a point's pair is side 0).
    pub side: u32,
    /// Canonical coordinates, e.g. `P(1,2)`.
    pub point: String,
    /// Index of the point in the plane's point order, 0..q²+q+1 (the same on both sides).
    pub point_index: u32,
    /// Host ports cabled to this leaf (q+1 when every slot is used).
    pub hosts: usize,
}

/// An LSFT spine and its line.
#[derive(Clone, Debug, Serialize)]
pub struct SpineMap {
    /// The spine switch; its GUID, name and description appear inline in the JSON object.
    #[serde(flatten)]
    pub node: NodeRef,
    /// Canonical coordinates, e.g. `L(0,3)`.
    pub line: String,
    /// Index of the line in the plane's line order, 0..q²+q+1.
    pub line_index: u32,
}

/// A tree switch and its position.
#[derive(Clone, Debug, Serialize)]
pub struct SwitchMap {
    /// The switch; its GUID, name and description appear inline in the JSON object.
    #[serde(flatten)]
    pub node: NodeRef,
    /// `leaf`/`spine`; tree levels `level1`..; `bottom`/`middle`/`top`.
    pub role: String,
    /// Index in the layout's canonical order (leaf index, switch index, bottom index ...).
    pub index: u32,
    /// Human-readable position: `level 2 subtree 1 lane 3`, `pod 2 colour 0`, `plane 1 row 4`.
    pub position: String,
}

/// A host port in rank order.
#[derive(Clone, Debug, Serialize)]
pub struct HostMap {
    /// Fabric rank: the host's position in rank order, as schedule files number hosts.
    pub rank: u32,
    /// The host node; its GUID, name and description appear inline in the JSON object.
    #[serde(flatten)]
    pub node: NodeRef,
    /// Port number on the host (1-based).
    pub port: u8,
    /// Port GUID.
    pub port_guid: String,
    /// The switch it is cabled to.
    pub switch: String,
    /// LSFT: slot on the leaf; trees: tree position d.
    pub slot: u32,
}

/// Why one family did not fit.
#[derive(Clone, Debug, Serialize)]
pub struct AttemptReport {
    /// `lsft`, `kary` or `mols`.
    pub family: String,
    /// Why that family does not fit this fabric.
    pub reason: String,
}

/// Everything `ibfat recognize` reports.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct RecognitionReport {
    /// `lsft`, `kary`, `mols`, `pgft`, `twolevel`, `fullmesh`, `tree` or `unrecognised`.
    pub family: String,
    /// One-line description of the recognised family and parameters
    /// (`Latin-square fat-tree LSFT(3) one-sided, 4 hosts per leaf`); absent when unrecognised.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// LSFT: order q of the projective plane.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<u32>,
    /// LSFT: 1 or 2 (two-sided: a second copy of leaves and hosts on the spines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sides: Option<u32>,
    /// LSFT: the most hosts on any leaf (q+1 unless built with fewer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hosts_per_leaf: Option<u32>,
    /// k-ary tree: k; MOLS tree: n.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arity: Option<u32>,
    /// k-ary tree, PGFT, tree as found: number of switch levels n.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub levels: Option<u32>,
    /// MOLS tree: `standard`, `basic`, `mols` or `custom`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wiring: Option<String>,
    /// PGFT: m₁…m_h, children per switch by level (m₁ = host slots per leaf).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub down: Option<Vec<u32>>,
    /// PGFT: w₁…w_h, parents per node by level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up: Option<Vec<u32>>,
    /// PGFT: p₁…p_h, parallel cables to each parent by level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parallel: Option<Vec<u32>>,
    /// PGFT: down ports over up ports of levels 1…h−1 (1.0 = full bisection).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oversubscription: Option<Vec<f64>>,
    /// Full mesh: host slots per switch H.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hosts_per_switch: Option<u32>,
    /// Full mesh: parallel cables between every pair of switches W.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cables_per_pair: Option<u32>,
    /// Two-level fat-tree: leaf switches L (`hosts_per_leaf` is H).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf_switches: Option<u32>,
    /// Two-level fat-tree: spine switches S.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spine_switches: Option<u32>,
    /// Two-level fat-tree: parallel cables P between each leaf and each spine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub links_per_pair: Option<u32>,
    /// Mean proximity switches (MOLS trees).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proximity_switches: Option<f64>,
    /// Another family and parameters describing the same fabric.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equivalent: Option<String>,
    /// Switches in the fabric.
    pub switches: usize,
    /// Host ports: the layout's ranks when recognised, every cabled CA port otherwise.
    pub hosts: usize,
    /// Cables in the fabric, host links included.
    pub cables: usize,
    /// Unrecognised: the reason of the family that came closest (or why the cabling fits
    /// no family at all, e.g. no switches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Unrecognised: that family, when some recogniser got past the counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closest_family: Option<String>,
    /// Unrecognised: every family tried, with its reason.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<AttemptReport>,
    /// LSFT: leaf → point.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub leaves: Vec<LeafMap>,
    /// LSFT: spine → line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spines: Vec<SpineMap>,
    /// Trees: every switch with its position.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub switch_map: Vec<SwitchMap>,
    /// Host ports in rank order (the order of schedules).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub host_map: Vec<HostMap>,
    /// A degraded fabric: what is missing from the family (`family` and `order` are the
    /// intact family's), in canonical coordinates.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<FaultReport>,
    /// Non-compute hosts (host roles): routed at their tree slot, no rank, in slot order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub non_compute: Vec<HostMap>,
    /// Cables running below the rate most cables of their kind run at
    /// ([`crate::topology::rate::slow_cables`]), recognised or not.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub slow_cables: Vec<SlowCableReport>,
    /// Cables trained below what both ends support, from the dump's hints (iblinkinfo's
    /// "Could be"); filled by whoever has the dump ([`below_supported_reports`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub below_supported: Vec<BelowSupportedReport>,
    /// Tree as found: each level's counts and parallel-cable groups.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tree_levels: Vec<super::report_tree::LevelReport>,
    /// Tree as found: every irregularity, switch by switch.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub irregularities: Vec<super::report_tree::IrregularityReport>,
    /// A rail-optimised fabric: servers, rails and scalable units, recognised or not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rail_optimised: Option<super::report_rails::RailsReport>,
}

/// One end of a cable in a report.
#[derive(Clone, Debug, Serialize)]
pub struct CableEnd {
    /// The node (its label names it when descriptions are shared).
    pub node: NodeRef,
    /// How reports name the node ([`crate::topology::label::Labels`]).
    pub label: String,
    /// Port number.
    pub port: u8,
    /// The port's cage/port(/split) on an NDR/XDR switch when the dump labels it
    /// (ibdiagnet: `[63](1/32/1)` is `32/1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cage: Option<String>,
}

impl CableEnd {
    /// `leaf L4 (0x…) port 63`: how text reports name the end.
    pub fn describe(&self) -> String {
        format!("{} ({}) {}", self.label, self.node.guid, self.port_text())
    }

    /// `port 63`, or `port 63 (cage 32/1)` when the dump labels the port.
    pub(crate) fn port_text(&self) -> String {
        match &self.cage {
            Some(c) => format!("port {} (cage {c})", self.port),
            None => format!("port {}", self.port),
        }
    }
}

/// Name the labelled ports of `ends` by their cage (labels by node and port, as
/// [`crate::formats::dump::Discovered::port_labels`] has them).
pub fn label_ports(fabric: &Fabric, ends: &mut [CableEnd], labels: &[(NodeId, u8, PortLabel)]) {
    if labels.is_empty() {
        return;
    }
    // by the name reports give the end (its GUID text) and port: built once, not per end
    let by_end: std::collections::HashMap<(String, u8), &PortLabel> = labels
        .iter()
        .map(|(n, p, l)| ((guid_str(fabric.node(*n).guid), *p), l))
        .collect();
    for e in ends {
        if let Some(l) = by_end.get(&(e.node.guid.clone(), e.port)) {
            e.cage = Some(l.cage());
        }
    }
}

/// A cable that trained below what both of its ends support (iblinkinfo's "Could be"
/// hints): a bad cable, a dirty connector or a port forced down.
#[derive(Clone, Debug, Serialize)]
pub struct BelowSupportedReport {
    /// Its active rate (`4xSDR`).
    pub rate: String,
    /// The rate both ends support (`12xQDR`).
    pub supported: String,
    /// Its two ends.
    pub ends: [CableEnd; 2],
}

impl BelowSupportedReport {
    /// `4xSDR where both ends support 12xQDR: a (0x…) port 1 <-> b (0x…) port 2`.
    pub fn describe(&self) -> String {
        let [a, b] = &self.ends;
        format!(
            "{} where both ends support {}: {} <-> {}",
            self.rate,
            self.supported,
            a.describe(),
            b.describe()
        )
    }
}

/// Every cable with a "Could be" hint at either end, once, in port order.
pub fn below_supported_reports(fabric: &Fabric, hints: &[crate::formats::dump::CouldBe]) -> Vec<BelowSupportedReport> {
    let labels = crate::topology::label::Labels::new(fabric);
    let mut seen = std::collections::BTreeMap::new();
    for h in hints {
        let Some((m, pm)) = fabric.peer(h.node, h.port) else {
            continue;
        };
        let key = fabric.port_index(h.node, h.port).min(fabric.port_index(m, pm));
        let e = seen.entry(key).or_insert((h.node, h.port, m, pm, None, None));
        e.4 = e.4.or(h.width);
        e.5 = e.5.or(h.speed);
    }
    seen.into_values()
        .map(|(a, pa, b, pb, w, s)| {
            let p = fabric.port(a, pa);
            let end = |n: NodeId, port: u8| CableEnd {
                node: node_ref(fabric, n),
                label: labels.get(n).to_string(),
                port,
                cage: None,
            };
            BelowSupportedReport {
                rate: format!("{}{}", p.width, p.speed),
                supported: format!("{}{}", w.unwrap_or(p.width), s.unwrap_or(p.speed)),
                ends: [end(a, pa), end(b, pb)],
            }
        })
        .collect()
}

/// A cable slower than its peers.
#[derive(Clone, Debug, Serialize)]
pub struct SlowCableReport {
    /// `switch-switch` or `host-switch`: the cables it is compared with.
    pub kind: String,
    /// Its active rate (`4xDDR`).
    pub rate: String,
    /// The rate its peers run at (`4xEDR`).
    pub peer_rate: String,
    /// How many cables of its kind run at `peer_rate`.
    pub peers: usize,
    /// Its rate over `peer_rate` (0.19 for 4xDDR among 4xEDR).
    pub fraction: f64,
    /// Its two ends.
    pub ends: [CableEnd; 2],
}

/// The slow cables of `fabric`, named for a report.
pub fn slow_cable_reports(fabric: &Fabric) -> Vec<SlowCableReport> {
    let slow = crate::topology::rate::slow_cables(fabric);
    if slow.is_empty() {
        return Vec::new();
    }
    let labels = crate::topology::label::Labels::new(fabric);
    let end = |(n, port): (NodeId, u8)| CableEnd {
        node: node_ref(fabric, n),
        label: labels.get(n).to_string(),
        port,
        cage: None,
    };
    slow.iter()
        .map(|c| SlowCableReport {
            kind: if c.switch_to_switch {
                "switch-switch"
            } else {
                "host-switch"
            }
            .into(),
            rate: format!("{}{}", c.width, c.speed),
            peer_rate: format!("{}{}", c.peer_width, c.peer_speed),
            peers: c.peers,
            fraction: (c.fraction() * 1e4).round() / 1e4,
            ends: [end(c.a), end(c.b)],
        })
        .collect()
}

/// `0x` and 16 hex digits.
pub(crate) fn guid_str(g: u64) -> String {
    format!("0x{g:016x}")
}

pub(crate) fn node_ref(f: &Fabric, n: NodeId) -> NodeRef {
    let node = f.node(n);
    NodeRef {
        guid: guid_str(node.guid),
        name: node.name.clone(),
        description: node.desc.clone(),
    }
}

pub(crate) fn host_map(f: &Fabric, hosts: &[Endpoint], slot: impl Fn(usize) -> u32) -> Vec<HostMap> {
    hosts
        .iter()
        .enumerate()
        .map(|(rank, ep)| HostMap {
            rank: rank as u32,
            node: node_ref(f, ep.node),
            port: ep.port,
            port_guid: guid_str(f.port(ep.node, ep.port).guid),
            switch: f
                .peer(ep.node, ep.port)
                .map(|(s, _)| f.node(s).name.clone())
                .unwrap_or_default(),
            slot: slot(rank),
        })
        .collect()
}

/// One fault of a degraded fabric ([`crate::recognize::Fault`]).
#[derive(Clone, Debug, Serialize)]
pub struct FaultReport {
    /// `missing-cable`, `dead-spine`, `dead-leaf` or `dead-switch` (trees).
    pub kind: &'static str,
    /// The canonical point (leaf) concerned, `P(x,y)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point: Option<String>,
    /// The canonical line (spine) concerned, `L(c,r)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    /// The leaf switch, when it is in the fabric.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf: Option<NodeRef>,
    /// The spine switch, when it is in the fabric.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spine: Option<NodeRef>,
    /// Full mesh: the two switches of a pair short of cables.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<NodeRef>,
    /// Full mesh: how many of the pair's cables are missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<u32>,
    /// Trees: the canonical positions `T<level>(A,B)` concerned (lower switch first; a
    /// missing cable's two switches are in `switches` in the same order).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<String>,
}

fn fault_report(f: &Fabric, fault: &crate::recognize::Fault) -> FaultReport {
    use crate::recognize::Fault;
    match fault {
        Fault::MissingCable {
            leaf,
            point,
            spine,
            line,
        } => FaultReport {
            kind: "missing-cable",
            point: Some(point.clone()),
            line: Some(line.clone()),
            leaf: Some(node_ref(f, *leaf)),
            spine: Some(node_ref(f, *spine)),
            switches: Vec::new(),
            missing: None,
            positions: Vec::new(),
        },
        Fault::DeadSpine { line } => FaultReport {
            kind: "dead-spine",
            point: None,
            line: Some(line.clone()),
            leaf: None,
            spine: None,
            switches: Vec::new(),
            missing: None,
            positions: Vec::new(),
        },
        Fault::DeadLeaf { point } => FaultReport {
            kind: "dead-leaf",
            point: Some(point.clone()),
            line: None,
            leaf: None,
            spine: None,
            switches: Vec::new(),
            missing: None,
            positions: Vec::new(),
        },
        Fault::MissingTreeCable {
            lower,
            lower_pos,
            upper,
            upper_pos,
        } => FaultReport {
            kind: "missing-cable",
            point: None,
            line: None,
            leaf: None,
            spine: None,
            switches: vec![node_ref(f, *lower), node_ref(f, *upper)],
            missing: Some(1),
            positions: vec![lower_pos.clone(), upper_pos.clone()],
        },
        Fault::DeadSwitch { position } => FaultReport {
            kind: "dead-switch",
            point: None,
            line: None,
            leaf: None,
            spine: None,
            switches: Vec::new(),
            missing: None,
            positions: vec![position.clone()],
        },
    }
}

/// Build the report of a recognition of `fabric`.
pub fn report(fabric: &Fabric, rec: &Recognition) -> RecognitionReport {
    let mut r = blank_report(fabric);
    let (layout, equivalent) = match rec {
        Recognition::Unrecognized {
            reason,
            closest,
            attempts,
            degraded,
        } => {
            if let Some(d) = degraded {
                degraded_params(&mut r, fabric, d);
            }
            r.reason = Some(reason.clone());
            r.closest_family = closest.map(|f| f.to_string());
            r.attempts = attempts
                .iter()
                .map(|a| AttemptReport {
                    family: a.family.to_string(),
                    reason: a.reason.clone(),
                })
                .collect();
            return r;
        }
        Recognition::Recognized { layout, equivalent } => (layout, equivalent),
    };
    r.family = layout.family().to_string();
    r.description = Some(layout.describe());
    r.equivalent = equivalent.clone();
    r.hosts = layout.hosts().len();
    section(layout).fill_report(&mut r, fabric);
    r
}

/// A family's own part of the report (its parameters, which node is which); each family
/// implements it in its folder (`report*`).
pub(crate) trait ReportSection {
    /// Fill the family's fields of `r`.
    fn fill_report(&self, r: &mut RecognitionReport, fabric: &Fabric);
}

macro_rules! make_section {
    ($(layout $variant:ident: $folder:ident,)*) => {
        /// The report section of this layout's family.
        fn section(layout: &Layout) -> &dyn ReportSection {
            match layout {
                $(Layout::$variant(l) => l,)*
            }
        }
    };
}
crate::families::for_each_layout!(make_section);

/// The report of an unrecognised fabric before anything is known: its counts and slow
/// cables.
fn blank_report(fabric: &Fabric) -> RecognitionReport {
    RecognitionReport {
        family: "unrecognised".into(),
        description: None,
        order: None,
        sides: None,
        hosts_per_leaf: None,
        arity: None,
        levels: None,
        wiring: None,
        down: None,
        up: None,
        parallel: None,
        oversubscription: None,
        hosts_per_switch: None,
        cables_per_pair: None,
        leaf_switches: None,
        spine_switches: None,
        links_per_pair: None,
        proximity_switches: None,
        equivalent: None,
        switches: fabric.switches().count(),
        hosts: fabric.endpoints().len(),
        cables: fabric.link_count(),
        reason: None,
        closest_family: None,
        attempts: Vec::new(),
        leaves: Vec::new(),
        spines: Vec::new(),
        switch_map: Vec::new(),
        host_map: Vec::new(),
        non_compute: Vec::new(),
        faults: Vec::new(),
        slow_cables: slow_cable_reports(fabric),
        below_supported: Vec::new(),
        tree_levels: Vec::new(),
        irregularities: Vec::new(),
        rail_optimised: super::report_rails::RailsReport::of(fabric),
    }
}

/// A family with faults: its parameters, as far as the holes tell them, and the faults.
fn degraded_params(r: &mut RecognitionReport, fabric: &Fabric, d: &Degraded) {
    r.family = d.family.to_string();
    r.description = Some(d.description.clone());
    let p = d.holes.ops().parameters();
    let some = |x: u32| Some(x).filter(|&x| x != 0);
    r.order = some(p.order);
    r.sides = some(p.sides);
    r.levels = some(p.levels);
    r.arity = some(p.arity).or((d.family == Family::Kary).then_some(d.order));
    r.wiring = p.wiring.map(|w| w.to_string());
    r.faults = d.faults.iter().map(|f| fault_report(fabric, f)).collect();
}

/// Non-compute hosts in the shape of `host_map`; their `rank` is their index in this list.
pub(crate) fn non_compute(f: &Fabric, others: &[Endpoint], pos: &[u32]) -> Vec<HostMap> {
    host_map(f, others, |i| pos[i])
}
