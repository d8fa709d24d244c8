//! Records to a [`Fabric`], as they are read: a node joins the fabric at its header,
//! a port line writes its claim into the fabric's own port, and once the text is read
//! every cable is checked from both ends; what does not fit (one-sided or contradictory
//! links, ports out of range, duplicate GUIDs or ids) becomes a problem with the ports it
//! leaves in doubt.
//!
//! Memory and speed matter here (a 5,000-host dump is several megabytes; issue 38 asks
//! for at most twice the fabric): no port record is kept beside the fabric. A far end
//! not read yet is a slot named by its id, resolved at the end; node ids are borrowed
//! from the text and hashed once per port line.

use super::grammar::{Labels, RawPort, Remote};
pub(super) use super::keys::FxMap;
use super::keys::{ShortId, ShortIds};
use super::netfast::BarePort;
use super::{Discovered, DumpFormat, PortLabel, Problem};
use crate::error::{Error, Result};
use crate::topology::{Fabric, NodeId, NodeKind, PortIdx, Speed, Width, NO_PEER};
use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::path::Path;

/// One node record, as read.
#[derive(Clone, Debug)]
pub(super) struct RawNode<'a> {
    pub kind: NodeKind,
    pub nports: u32,
    pub id: Cow<'a, str>,
    pub guid: u64,
    pub desc: String,
    pub lid: Option<u16>,
    pub lmc: Option<u8>,
    pub line: usize,
    /// `sysimgguid=` of the record (0 when it had none).
    pub sysimg: u64,
}

impl<'a> RawNode<'a> {
    /// A node a text names by GUID only (ports report, iblinkinfo, subnet.lst): its id is
    /// made as ibnetdiscover makes them (`S-`/`H-`/`R-` and 16 hex digits); a switch's LID
    /// is kept when the text gave one.
    pub(super) fn by_guid(kind: NodeKind, nports: u32, guid: u64, desc: String, switch_lid: u32, line: usize) -> Self {
        let prefix = match kind {
            NodeKind::Switch => "S",
            NodeKind::Ca => "H",
            NodeKind::Router => "R",
        };
        RawNode {
            kind,
            nports: nports.max(1),
            id: Cow::Owned(format!("{prefix}-{guid:016x}")),
            guid,
            desc,
            lid: (kind == NodeKind::Switch && switch_lid != 0)
                .then(|| u16::try_from(switch_lid).ok())
                .flatten(),
            lmc: Some(0),
            sysimg: 0,
            line,
        }
    }
}

/// Per-port marks of the assembly.
const W_STATED: u8 = 1;
const S_STATED: u8 = 2;
/// The port's `peer` holds the slot of a far node not read yet.
const PENDING: u8 = 4;
/// The port's own line gave its GUID (a far end's claim does not override it).
const OWN_GUID: u8 = 8;
/// Both ends agree: the port is cabled.
const JOINED: u8 = 16;
const RATE_KNOWN: u8 = 32;
/// The port's own line gave its ibdiagnet label (a far end's label does not override it).
const OWN_LABEL: u8 = 64;

/// A slot whose node has no record (yet).
const NO_NODE: NodeId = NodeId::MAX;

/// The fabric being assembled from the records read so far, with what the lines claim
/// about its cables and everything found wrong on the way.
pub(super) struct Assembly<'a> {
    pub notes: Vec<Problem>,
    pub problems: Vec<Problem>,
    partial: bool,
    fabric: Fabric,
    /// Node ids named so far, by headers or far ends, to their slot.
    names: ShortIds,
    /// Node ids longer than [`ShortId::MAX`], to their slot.
    long_names: FxMap<&'a str, u32>,
    /// Per slot: the node whose record has that id ([`NO_NODE`] while none).
    slot_node: Vec<NodeId>,
    by_guid: FxMap<u64, NodeId>,
    node_lines: Vec<usize>,
    /// Per global port (and, while reading, the ports declared but not yet read, cut at
    /// the end): the line of the port's own line (0: not listed, or its claim
    /// was refused). Its claim is the port's `peer` in the fabric until the join.
    claim_line: Vec<u32>,
    /// Per global port: the far port a line claims while the far node is a slot.
    far_port: Vec<u8>,
    marks: Vec<u8>,
    /// Port GUIDs a line gives for its far end while that end is a slot, by claiming port.
    far_guids: Vec<(u32, u64)>,
    /// ibdiagnet labels a line gives for its far end while that end is a slot.
    far_labels: Vec<(u32, PortLabel)>,
    /// Per global port, its ibdiagnet label: empty until a line gives the first (only
    /// an NDR/XDR dump has them), so other dumps pay nothing.
    labels: Vec<Option<PortLabel>>,
    suspect: Vec<(NodeId, u8, usize)>,
    outside: Vec<(NodeId, u8, usize)>,
    port_lines: usize,
}

/// Where a port line's far end stands when the line is read.
enum Far {
    Node(NodeId),
    Slot(u32),
}

impl<'a> Assembly<'a> {
    /// No records yet; room for `nodes` nodes and `ports` ports (port 0 included), so
    /// that the fabric is not copied while it grows.
    pub(super) fn with_capacity(nodes: usize, ports: usize, partial: bool) -> Self {
        let mut fabric = Fabric::default();
        fabric.reserve(nodes, ports);
        Assembly {
            notes: Vec::new(),
            problems: Vec::new(),
            partial,
            fabric,
            names: ShortIds::with_capacity(nodes),
            long_names: FxMap::default(),
            slot_node: Vec::with_capacity(nodes),
            by_guid: FxMap::with_capacity_and_hasher(nodes, Default::default()),
            node_lines: Vec::with_capacity(nodes),
            // zeroed at once for the ports the text declares (cut to the fabric's at the
            // end): three `memset` calls per node were a twentieth of a net file's parse
            claim_line: vec![0; ports],
            far_port: vec![0; ports],
            marks: vec![0; ports],
            far_guids: Vec::new(),
            far_labels: Vec::new(),
            labels: Vec::new(),
            suspect: Vec::new(),
            outside: Vec::new(),
            port_lines: 0,
        }
    }

    /// Room for `nodes` more nodes and `ports` more ports (a reader that knows its nodes
    /// only at the end of the text).
    pub(super) fn reserve(&mut self, nodes: usize, ports: usize) {
        self.fabric.reserve(nodes, ports);
        self.node_lines.reserve(nodes);
        self.by_guid.reserve(nodes);
        self.claim_line.reserve(ports);
        self.far_port.reserve(ports);
        self.marks.reserve(ports);
    }

    /// Nodes added so far.
    pub(super) fn nodes(&self) -> usize {
        self.fabric.len()
    }

    /// Port lines given to [`Assembly::add_port`] so far.
    pub(super) fn port_lines(&self) -> usize {
        self.port_lines
    }

    /// A line that belongs to no record (a prompt, a banner, `ibwarn:`): skipped, noted.
    pub(super) fn skipped(&mut self, line: usize, text: &str) {
        self.notes.push(Problem {
            line,
            message: format!(
                "skipped a line that belongs to no record: `{}`",
                super::grammar::shorten(text)
            ),
        });
    }

    /// Something wrong on a line: an error when reading strictly, a problem when lenient.
    pub(super) fn problem(&mut self, lenient: bool, path: &Path, line: usize, message: String) -> Result<()> {
        if !lenient {
            return Err(Error::at(path, line, message));
        }
        self.problems.push(Problem { line, message });
        Ok(())
    }

    /// Port `num` of node `node` is in doubt (a malformed line named it), where it exists.
    pub(super) fn doubt(&mut self, node: usize, num: u32, line: usize) {
        let exists = node < self.fabric.len() && num >= 1 && num <= u32::from(self.fabric.node(node as NodeId).nports);
        if exists {
            self.suspect.push((node as NodeId, num as u8, line));
        }
    }

    /// A node record: it joins the fabric now. A GUID or id seen before is a problem (the
    /// node is still added; the first keeps the id for the far ends that name it).
    pub(super) fn add_node(&mut self, n: RawNode<'a>, path: &Path) -> Result<NodeId> {
        self.add_node_with(n, path, false)
    }

    /// [`Assembly::add_node`] for a reader that has checked the node's id and description
    /// with `check_label` and its port count (1..=254): they are not checked again.
    pub(super) fn add_checked_node(&mut self, n: RawNode<'a>, path: &Path) -> Result<NodeId> {
        self.add_node_with(n, path, true)
    }

    fn add_node_with(&mut self, n: RawNode<'a>, path: &Path, checked: bool) -> Result<NodeId> {
        let id = self.fabric.len() as NodeId;
        // one probe for the check and the insertion
        match self.by_guid.entry(n.guid) {
            Entry::Occupied(e) => {
                let j = *e.get();
                let message = format!(
                    "duplicate GUID 0x{:016x}: node \"{}\" and node \"{}\" (line {})",
                    n.guid,
                    n.id,
                    self.fabric.node(j).name,
                    self.node_lines[j as usize]
                );
                self.problems.push(Problem { line: n.line, message });
            }
            Entry::Vacant(e) => {
                e.insert(id);
            }
        }
        // ids made from GUIDs (every reader but the record one) are unique by their GUID
        let key = match n.id {
            Cow::Borrowed(s) => Some(s),
            Cow::Owned(_) => None,
        };
        let (line, lid, lmc, sysimg) = (n.line, n.lid, n.lmc, n.sysimg);
        match u8::try_from(n.nports) {
            Ok(nports) if checked => {
                self.fabric
                    .add_checked_node(n.kind, nports, n.guid, n.id.into_owned(), n.desc);
            }
            _ => {
                self.fabric
                    .add_node(n.kind, n.nports, n.guid, n.id.into_owned(), n.desc)
                    .map_err(|e| Error::at(path, line, e.to_string()))?;
            }
        }
        if let Some(s) = key {
            self.name_node(s, id, line);
        }
        if sysimg != 0 {
            self.fabric.set_sysimg(id, sysimg);
        }
        self.node_lines.push(line);
        if let Some(lid) = lid {
            let p0 = self.fabric.port_index(id, 0) as usize;
            self.fabric.ports[p0].lid = lid;
            self.fabric.ports[p0].lmc = lmc.unwrap_or(0);
        }
        let ports = self.fabric.ports.len();
        if self.marks.len() < ports {
            self.claim_line.resize(ports, 0);
            self.far_port.resize(ports, 0);
            self.marks.resize(ports, 0);
        }
        if !self.labels.is_empty() {
            self.labels.resize(ports, None);
        }
        Ok(id)
    }

    /// The slot id `s` names, made (with no node yet) the first time it is named.
    fn slot_of(&mut self, s: &'a str) -> usize {
        self.slot_by_key(s, ShortId::new(s))
    }

    /// [`Assembly::slot_of`] of an id whose key (when short) the caller made.
    #[inline]
    fn slot_by_key(&mut self, s: &'a str, key: Option<ShortId>) -> usize {
        let next = self.slot_node.len();
        let slot = match key {
            Some(k) => self.names.slot_or_insert(k, next as u32),
            None => *self.long_names.entry(s).or_insert(next as u32),
        } as usize;
        if slot == next {
            self.slot_node.push(NO_NODE);
        }
        slot
    }

    /// The slot of id `s` now names node `id`, unless a record named it before.
    fn name_node(&mut self, s: &'a str, id: NodeId, line: usize) {
        let slot = self.slot_of(s);
        if self.slot_node[slot] == NO_NODE {
            self.slot_node[slot] = id;
        } else {
            let message = format!("node id \"{s}\" appears twice");
            self.problems.push(Problem { line, message });
        }
    }

    /// One port line: its own port's GUID, LID and labels go into the fabric, its claim
    /// about the cable into the port. A port out of range on either end, or listed
    /// twice, is a problem.
    pub(super) fn add_port(&mut self, p: &RawPort<'a>, [label, remote_label]: Labels) {
        self.port_lines += 1;
        let me = p.node;
        let nports = self.fabric.node(me).nports;
        if p.num == 0 || p.num > u32::from(nports) {
            let message = format!(
                "port {} is beyond node \"{}\" which has ports 1..={nports}",
                p.num,
                self.fabric.node(me).name
            );
            self.problems.push(Problem { line: p.line, message });
            return;
        }
        let idx = self.fabric.port_index(me, p.num as u8) as usize;
        self.own_port(idx, p, label);
        let far = match p.remote {
            Remote::Index(i) => Far::Node(i as NodeId),
            Remote::Id(id) => self.far_slot(id),
        };
        let far_nports = match far {
            Far::Node(other) => u32::from(self.fabric.node(other).nports),
            Far::Slot(_) => crate::topology::fabric::MAX_PORTS,
        };
        if p.remote_port == 0 || p.remote_port > far_nports {
            let (far_name, has) = match (&far, p.remote) {
                (Far::Node(o), _) => (self.fabric.node(*o).name.as_str(), "which has ports"),
                (_, Remote::Id(id)) => (id, "and a node has ports"),
                (_, Remote::Index(_)) => ("?", "and a node has ports"),
            };
            let message = format!(
                "port {} of \"{}\" leads to port {} of \"{far_name}\", {has} 1..={far_nports}",
                p.num,
                self.fabric.node(me).name,
                p.remote_port
            );
            self.problems.push(Problem { line: p.line, message });
            self.suspect.push((me, p.num as u8, p.line));
            return;
        }
        if let Far::Node(other) = far {
            let ridx = self.fabric.port_index(other, p.remote_port as u8) as usize;
            self.far_port_data(ridx, p.remote_guid, remote_label);
        }
        if self.claim_line[idx] != 0 {
            let message = format!(
                "port {} of \"{}\" is listed twice (also line {})",
                p.num,
                self.fabric.node(me).name,
                self.claim_line[idx]
            );
            self.problems.push(Problem { line: p.line, message });
            self.suspect.push((me, p.num as u8, p.line));
            return;
        }
        self.claim(idx, p, far, remote_label);
    }

    /// A port line with nothing but its port, far id and far port (an ibsim net file's):
    /// what [`Assembly::add_port`] does with it, without the fields it lacks. False, with
    /// nothing done, when it is out of the ordinary (a port out of range on either end, or
    /// listed twice): the general way then says why.
    #[inline]
    pub(super) fn add_bare_port(&mut self, node: u32, p: &BarePort<'a>, line: usize) -> bool {
        let me = &self.fabric.nodes[node as usize];
        if p.num == 0 || p.num > u32::from(me.nports) {
            return false;
        }
        let idx = (me.first_port + p.num) as usize;
        if self.claim_line[idx] != 0 {
            return false;
        }
        let slot = self.slot_by_key(p.far, p.key);
        let peer = match self.slot_node[slot] {
            NO_NODE if p.far_port != 0 && p.far_port <= crate::topology::fabric::MAX_PORTS => {
                self.marks[idx] |= PENDING;
                self.far_port[idx] = p.far_port as u8;
                slot as u32
            }
            NO_NODE => return false,
            other => {
                let far = &self.fabric.nodes[other as usize];
                if p.far_port == 0 || p.far_port > u32::from(far.nports) {
                    return false;
                }
                far.first_port + p.far_port
            }
        };
        self.port_lines += 1;
        self.claim_line[idx] = u32::try_from(line).unwrap_or(u32::MAX);
        self.fabric.ports[idx].peer = peer;
        true
    }

    /// What a port line says of its own port: label, GUID, LID and LMC.
    fn own_port(&mut self, idx: usize, p: &RawPort<'a>, label: Option<PortLabel>) {
        if let Some(l) = label {
            self.label(idx, l, true);
        }
        let port = &mut self.fabric.ports[idx];
        if let Some(g) = p.guid {
            port.guid = g;
            self.marks[idx] |= OWN_GUID;
        }
        if let Some(l) = p.lid {
            port.lid = l;
            port.lmc = p.lmc.unwrap_or(0);
        }
    }

    /// The node a far end's id names, or its slot while no record has that id.
    fn far_slot(&mut self, id: &'a str) -> Far {
        let slot = self.slot_of(id);
        match self.slot_node[slot] {
            NO_NODE => Far::Slot(slot as u32),
            node => Far::Node(node),
        }
    }

    /// What a line says of the port at its far end: its label, and for a CA port its
    /// GUID unless the port's own line gave one.
    fn far_port_data(&mut self, ridx: usize, guid: Option<u64>, label: Option<PortLabel>) {
        let node = self.fabric.ports[ridx].node;
        if let Some(l) = label {
            self.label(ridx, l, false);
        }
        // a far GUID is given for CA ports only, and the port's own line wins
        let Some(g) = guid.filter(|_| self.marks[ridx] & OWN_GUID == 0) else {
            return;
        };
        if self.fabric.node(node).kind != NodeKind::Switch {
            self.fabric.ports[ridx].guid = g;
        }
    }

    /// Label port `idx`: its own line's label wins, else the first far end's.
    fn label(&mut self, idx: usize, l: PortLabel, own: bool) {
        if self.labels.is_empty() {
            self.labels.reserve_exact(self.marks.capacity());
            self.labels.resize(self.fabric.ports.len(), None);
        }
        if own && self.marks[idx] & OWN_LABEL == 0 {
            self.labels[idx] = Some(l);
            self.marks[idx] |= OWN_LABEL;
        } else if !own && self.labels[idx].is_none() {
            self.labels[idx] = Some(l);
        }
    }

    /// Write a line's claim into its port: the far port (or the far slot and port
    /// number), the rate it states, and what waits for the far end's record.
    fn claim(&mut self, idx: usize, p: &RawPort<'a>, far: Far, remote_label: Option<PortLabel>) {
        self.claim_line[idx] = u32::try_from(p.line).unwrap_or(u32::MAX);
        match far {
            Far::Node(other) => {
                self.fabric.ports[idx].peer = self.fabric.nodes[other as usize].first_port + p.remote_port;
            }
            Far::Slot(s) => {
                self.fabric.ports[idx].peer = s;
                self.marks[idx] |= PENDING;
                self.far_port[idx] = p.remote_port as u8;
                if let Some(g) = p.remote_guid {
                    self.far_guids.push((idx as u32, g));
                }
                if let Some(l) = remote_label {
                    self.far_labels.push((idx as u32, l));
                }
            }
        }
        let port = &mut self.fabric.ports[idx];
        if let Some(w) = p.width {
            port.width = w;
            self.marks[idx] |= W_STATED;
        }
        if let Some(s) = p.speed {
            port.speed = s;
            self.marks[idx] |= S_STATED;
        }
    }

    /// Build the fabric: far ends resolved, every cable checked from both ends.
    pub(super) fn finish(mut self, format: DumpFormat) -> Discovered {
        // the ports declared but not read (the sizes were an estimate)
        let ports = self.fabric.ports.len();
        self.claim_line.truncate(ports);
        self.far_port.truncate(ports);
        self.marks.truncate(ports);
        self.resolve_far_ends();
        self.join_ends(format);
        let port_labels = self.labelled_ports();
        let mut suspect = self.suspect;
        suspect.sort_unstable();
        suspect.dedup_by_key(|s| (s.0, s.1));
        let rate_known = self.marks.iter().map(|&m| m & RATE_KNOWN != 0).collect();
        Discovered {
            fabric: self.fabric,
            format,
            node_lines: self.node_lines,
            notes: self.notes,
            problems: self.problems,
            suspect,
            truncated: false,
            rate_known,
            outside: self.outside,
            could_be: Vec::new(),
            port_labels,
        }
    }

    /// The labelled ports, node by node, port by port.
    fn labelled_ports(&mut self) -> Vec<(NodeId, u8, PortLabel)> {
        let labels = std::mem::take(&mut self.labels);
        let mut out = Vec::with_capacity(labels.iter().filter(|l| l.is_some()).count());
        for (port, l) in self.fabric.ports.iter().zip(labels) {
            if let Some(l) = l {
                out.push((port.node, port.num, l));
            }
        }
        out
    }

    /// Every claim whose far end was a slot: to the port of the node that took the id;
    /// a far id no record has, or a port beyond that node, is refused (a problem, or a
    /// port leading outside a `--partial` dump).
    fn resolve_far_ends(&mut self) {
        let mut names: Vec<Cow<'a, str>> = Vec::new();
        for idx in 0..self.marks.len() {
            if self.marks[idx] & PENDING == 0 {
                continue;
            }
            self.marks[idx] &= !PENDING;
            let slot = self.fabric.ports[idx].peer as usize;
            let node = self.slot_node[slot];
            let rp = u32::from(self.far_port[idx]);
            if node == NO_NODE {
                if names.is_empty() {
                    names = vec![Cow::Borrowed(""); self.slot_node.len()];
                    for (id, s) in self.names.iter() {
                        names[*s as usize] = Cow::Owned(id.text());
                    }
                    for (&id, &s) in &self.long_names {
                        names[s as usize] = Cow::Borrowed(id);
                    }
                }
                let name = names[slot].clone();
                self.unknown_far_end(idx, &name);
            } else if rp > u32::from(self.fabric.node(node).nports) {
                self.far_port_out_of_range(idx, node, rp);
            } else {
                self.fabric.ports[idx].peer = self.fabric.nodes[node as usize].first_port + rp;
            }
        }
        for (idx, g) in std::mem::take(&mut self.far_guids) {
            if self.claim_line[idx as usize] != 0 {
                let ridx = self.fabric.ports[idx as usize].peer as usize;
                self.far_port_data(ridx, Some(g), None);
            }
        }
        for (idx, l) in std::mem::take(&mut self.far_labels) {
            if self.claim_line[idx as usize] != 0 {
                let ridx = self.fabric.ports[idx as usize].peer as usize;
                self.far_port_data(ridx, None, Some(l));
            }
        }
    }

    /// The claim of port `idx` names `id`, which no record has: noted as leading outside
    /// a `--partial` dump, else a problem.
    fn unknown_far_end(&mut self, idx: usize, id: &str) {
        let (me, num) = (self.fabric.ports[idx].node, self.fabric.ports[idx].num);
        let line = self.claim_line[idx] as usize;
        self.refuse_claim(idx);
        let name = &self.fabric.node(me).name;
        if self.partial {
            self.notes.push(Problem {
                line,
                message: format!(
                    "port {num} of \"{name}\" leads outside the dump (to \"{id}\"): uncabled here (--partial)"
                ),
            });
            self.outside.push((me, num, line));
        } else {
            self.problems.push(Problem {
                line,
                message: format!(
                    "port {num} of \"{name}\" leads to unknown node \"{id}\" (no record of it in the dump: \
                     the dump looks trimmed; --partial reads what is there)"
                ),
            });
            self.suspect.push((me, num, line));
        }
    }

    /// The claim of port `idx` names port `rp` of `node`, which has fewer ports.
    fn far_port_out_of_range(&mut self, idx: usize, node: NodeId, rp: u32) {
        let (me, num) = (self.fabric.ports[idx].node, self.fabric.ports[idx].num);
        let line = self.claim_line[idx] as usize;
        self.refuse_claim(idx);
        let (n, on) = (self.fabric.node(me), self.fabric.node(node));
        let message = format!(
            "port {num} of \"{}\" leads to port {rp} of \"{}\", which has ports 1..={}",
            n.name, on.name, on.nports
        );
        self.problems.push(Problem { line, message });
        self.suspect.push((me, num, line));
    }

    /// Port `idx` claims nothing after all.
    fn refuse_claim(&mut self, idx: usize) {
        self.claim_line[idx] = 0;
        self.fabric.ports[idx].peer = NO_PEER;
        self.marks[idx] &= !(W_STATED | S_STATED);
    }

    /// Cable every port whose claim the far end returns (or, in a `--partial` dump, whose
    /// far end lists nothing); every other claim is a problem and both ends suspect.
    /// Ports left uncabled lose what their lines claimed.
    fn join_ends(&mut self, format: DumpFormat) {
        for ia in 0..self.claim_line.len() {
            if self.claim_line[ia] != 0 {
                self.join_end(ia, format);
            }
        }
        let default = (Width::default(), Speed::default());
        for (port, &m) in self.fabric.ports.iter_mut().zip(&self.marks) {
            if m & JOINED == 0 {
                port.peer = NO_PEER;
                (port.width, port.speed) = default;
            }
        }
    }

    /// The claim of global port `ia` against the far end's own claim.
    fn join_end(&mut self, ia: usize, format: DumpFormat) {
        let ports = &self.fabric.ports;
        let (a, pa) = (ports[ia].node, ports[ia].num);
        let ib = ports[ia].peer as usize;
        let (b, pb) = (ports[ib].node, ports[ib].num);
        let line = self.claim_line[ia] as usize;
        let name = |n: NodeId| self.fabric.node(n).name.as_str();
        let far_listed = self.claim_line[ib] != 0;
        let message = if ia == ib {
            format!("port {pa} of \"{}\" is listed as cabled to itself", name(a))
        } else if far_listed && ports[ib].peer as usize == ia {
            if ia < ib {
                // one end may carry width/speed only (ibsim options): take what is known,
                // the lower value when both ends say something
                let (w, s) = (
                    merge(self.width(ia), self.width(ib)),
                    merge(self.speed(ia), self.speed(ib)),
                );
                // an ibsim net file without w=/s= means ibsim's default 4xSDR
                let known = format == DumpFormat::IbsimNet || (w.is_some() && s.is_some());
                self.cable(ia, ib, (w, s), known);
            }
            return;
        } else if far_listed {
            let ic = ports[ib].peer as usize;
            let (c, pc) = (ports[ic].node, ports[ic].num);
            format!(
                "ends disagree: \"{}\"[{pa}] lists \"{}\"[{pb}], but \"{}\"[{pb}] lists \"{}\"[{pc}] (line {})",
                name(a),
                name(b),
                name(b),
                name(c),
                self.claim_line[ib]
            )
        } else if self.partial && ports[ib].peer == NO_PEER {
            // the far end's line is outside a trimmed dump: both ends are known
            let (w, s) = (self.width(ia), self.speed(ia));
            let message = format!(
                "link listed by one end only: \"{}\"[{pa}] -> \"{}\"[{pb}]: taken as cabled (--partial)",
                name(a),
                name(b)
            );
            self.cable(ia, ib, (w, s), w.is_some() && s.is_some());
            self.notes.push(Problem { line, message });
            return;
        } else {
            // ibnetdiscover lists both ends of every link it found; a missing end means
            // a truncated or hand-edited dump
            format!(
                "link listed by one end only: \"{}\"[{pa}] -> \"{}\"[{pb}] (the record of \"{}\" does not list port {pb}; \
                 a trimmed dump? --partial reads what is there)",
                name(a),
                name(b),
                name(b)
            )
        };
        self.problems.push(Problem { line, message });
        self.suspect.push((a, pa, line));
        if ia != ib {
            self.suspect.push((b, pb, line));
        }
    }

    /// The width port `i`'s own line states.
    fn width(&self, i: usize) -> Option<Width> {
        (self.marks[i] & W_STATED != 0).then_some(self.fabric.ports[i].width)
    }

    /// The speed port `i`'s own line states.
    fn speed(&self, i: usize) -> Option<Speed> {
        (self.marks[i] & S_STATED != 0).then_some(self.fabric.ports[i].speed)
    }

    /// Join global ports `ia` and `ib` with the rate known of the cable, if any.
    fn cable(&mut self, ia: usize, ib: usize, (w, s): (Option<Width>, Option<Speed>), known: bool) {
        let ports = &mut self.fabric.ports;
        ports[ia].peer = ib as PortIdx;
        ports[ib].peer = ia as PortIdx;
        for k in [ia, ib] {
            ports[k].width = w.unwrap_or_default();
            ports[k].speed = s.unwrap_or_default();
            self.marks[k] |= JOINED | if known { RATE_KNOWN } else { 0 };
        }
    }
}

fn merge<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Memory follows what a text lists: the nodes may declare at most a floor plus
/// [`super::records::PORTS_PER_LINE`] ports per port line read (a line naming port 254 of
/// a new node must not allocate 255 ports for one line of text).
pub(super) fn check_port_budget(declared: usize, port_lines: usize, path: &Path, line: usize) -> Result<()> {
    let floor = super::records::PORT_FLOOR;
    let per = super::records::PORTS_PER_LINE;
    if declared > floor + per * port_lines {
        return Err(Error::at(
            path,
            line,
            format!(
                "ports: the nodes declare {declared} ports for {port_lines} port lines; valid: at most {floor} + {per} per port line"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::super::test_dumps::FT2;
    use std::path::Path;

    #[test]
    fn one_sided_and_out_of_range_links_are_reported() {
        let t = FT2.replace("[4]\t\"S-0002c90000001003\"[3]\t\t# \"leaf L4\" lid 12 4xQDR\n", "");
        let d = parse(&t, Path::new("t")).unwrap();
        assert_eq!(d.problems.len(), 1);
        assert!(d.problems[0].message.contains("one end only"), "{:?}", d.problems);
        let e = d.strict(Path::new("dump.txt")).unwrap_err().to_string();
        assert!(e.starts_with("dump.txt:12: link listed by one end only"), "{e}");
        let t = FT2.replace("[3]\t\"S-0002c90000002000\"[4]", "[9]\t\"S-0002c90000002000\"[4]");
        let d = parse(&t, Path::new("t")).unwrap();
        assert!(
            d.problems.iter().any(|p| p.message.contains("port 9 is beyond")),
            "{:?}",
            d.problems
        );
    }
}
