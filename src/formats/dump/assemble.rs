//! Records to a [`Fabric`]: nodes added in dump order, every cable checked from both
//! ends, and what does not fit (one-sided or contradictory links, ports out of range,
//! duplicate GUIDs or ids) collected as problems with the ports they leave in doubt.
//!
//! Speed matters here (a 5,000-host dump is several megabytes): node ids are borrowed
//! from the text, link claims live in a flat table indexed by global port number, and
//! only node ids are hashed, once per port line.

use super::grammar::{Labels, RawPort, Remote};
use super::{Discovered, DumpFormat, PortLabel, Problem};
use crate::error::{Error, Result};
use crate::topology::{Fabric, NodeId, NodeKind, PortIdx, Speed, Width};
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;

/// FxHash, the multiply-rotate hash rustc uses: node ids and GUIDs of a local dump are
/// not adversarial keys, and SipHash took a tenth of the parse time.
#[derive(Default, Clone, Copy)]
pub(super) struct Fx(u64);

impl Fx {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let mut tail = [0u8; 8];
        let rest = chunks.remainder();
        tail[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(tail) ^ ((rest.len() as u64) << 59));
    }
    fn write_u8(&mut self, v: u8) {
        self.add(v as u64);
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash map keyed by node ids or GUIDs.
pub(super) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

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

/// What the line-level parsers produce before the fabric is assembled.
pub(super) struct Raw<'a> {
    pub nodes: Vec<RawNode<'a>>,
    pub ports: Vec<RawPort<'a>>,
    /// The labels of the port lines that have some, by index in `ports` (ascending).
    pub labels: Vec<(u32, Labels)>,
    pub notes: Vec<Problem>,
    pub problems: Vec<Problem>,
    /// (node, port, line) made doubtful by a malformed line (lenient mode).
    pub suspect: Vec<(usize, u32, usize)>,
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

impl Raw<'_> {
    /// No records yet.
    pub(super) fn new() -> Self {
        Raw {
            nodes: Vec::new(),
            ports: Vec::new(),
            labels: Vec::new(),
            notes: Vec::new(),
            problems: Vec::new(),
            suspect: Vec::new(),
        }
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

/// A claim one end makes about a cable: remote node and port, the line, the rate.
#[derive(Clone, Copy)]
struct Claim {
    node: NodeId,
    port: u32,
    line: usize,
    width: Option<Width>,
    speed: Option<Speed>,
}

/// Build the fabric from raw records and check both ends of every link.
pub(super) fn assemble(raw: Raw<'_>, format: DumpFormat, path: &Path, partial: bool) -> Result<Discovered> {
    let Raw {
        mut nodes,
        ports,
        labels,
        notes,
        problems,
        suspect: raw_suspect,
    } = raw;
    let descs: Vec<String> = nodes.iter_mut().map(|n| std::mem::take(&mut n.desc)).collect();
    let mut a = Assembly::new(&nodes, notes, problems, format, partial);
    a.add_nodes(descs, path)?;
    a.keep_suspect_ports(&raw_suspect);
    a.claim_ports(&ports, &labels);
    a.join_ends();
    Ok(a.finish())
}

/// What each end claims, indexed by global port number.
const UNCLAIMED: Claim = Claim {
    node: NodeId::MAX,
    port: 0,
    line: 0,
    width: None,
    speed: None,
};

/// The fabric being assembled from the node records `nodes`, with what the records say
/// about its ports so far and everything found wrong on the way.
struct Assembly<'r, 'a> {
    nodes: &'r [RawNode<'a>],
    format: DumpFormat,
    partial: bool,
    fabric: Fabric,
    by_id: FxMap<&'r str, NodeId>,
    node_lines: Vec<usize>,
    /// What each port's own line claims about its cable, by global port number.
    claims: Vec<Claim>,
    rate_known: Vec<bool>,
    notes: Vec<Problem>,
    problems: Vec<Problem>,
    suspect: Vec<(NodeId, u8, usize)>,
    outside: Vec<(NodeId, u8, usize)>,
    /// Labels by global port number (empty until a dump has one); the least where two
    /// lines disagree.
    labels: Vec<Option<PortLabel>>,
}

impl<'r, 'a> Assembly<'r, 'a> {
    /// An empty fabric sized for `nodes`, keeping the notes and problems the readers found.
    fn new(
        nodes: &'r [RawNode<'a>],
        notes: Vec<Problem>,
        problems: Vec<Problem>,
        format: DumpFormat,
        partial: bool,
    ) -> Self {
        Assembly {
            nodes,
            format,
            partial,
            fabric: Fabric {
                nodes: Vec::with_capacity(nodes.len()),
                ports: Vec::with_capacity(nodes.iter().map(|n| n.nports as usize + 1).sum()),
            },
            by_id: FxMap::with_capacity_and_hasher(nodes.len(), Default::default()),
            node_lines: Vec::with_capacity(nodes.len()),
            claims: Vec::new(),
            rate_known: Vec::new(),
            notes,
            problems,
            suspect: Vec::new(),
            outside: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// Every node in record order with its description, LID and LMC; a GUID or id seen
    /// twice is a problem (the node is still added, the first keeps the name).
    fn add_nodes(&mut self, descs: Vec<String>, path: &Path) -> Result<()> {
        let nodes = self.nodes;
        let mut by_guid: FxMap<u64, usize> = FxMap::with_capacity_and_hasher(nodes.len(), Default::default());
        for ((i, n), desc) in nodes.iter().enumerate().zip(descs) {
            if let Some(&j) = by_guid.get(&n.guid) {
                self.problems.push(Problem {
                    line: n.line,
                    message: format!(
                        "duplicate GUID 0x{:016x}: node \"{}\" and node \"{}\" (line {})",
                        n.guid, n.id, nodes[j].id, nodes[j].line
                    ),
                });
            } else {
                by_guid.insert(n.guid, i);
            }
            let id = self
                .fabric
                .add_node(n.kind, n.nports, n.guid, n.id.to_string(), desc)
                .map_err(|e| Error::at(path, n.line, e.to_string()))?;
            if n.sysimg != 0 {
                self.fabric.set_sysimg(id, n.sysimg);
            }
            if self.by_id.insert(n.id.as_ref(), id).is_some() {
                self.problems.push(Problem {
                    line: n.line,
                    message: format!("node id \"{}\" appears twice", n.id),
                });
            }
            self.node_lines.push(n.line);
            if let Some(lid) = n.lid {
                let p0 = self.fabric.port_index(id, 0) as usize;
                self.fabric.ports[p0].lid = lid;
                self.fabric.ports[p0].lmc = n.lmc.unwrap_or(0);
            }
        }
        Ok(())
    }

    /// The ports the readers found doubtful, where they exist.
    fn keep_suspect_ports(&mut self, raw_suspect: &[(usize, u32, usize)]) {
        let nodes = self.nodes;
        self.suspect = raw_suspect
            .iter()
            .filter(|&&(n, p, _)| p >= 1 && p <= nodes[n].nports)
            .map(|&(n, p, l)| (n as NodeId, p as u8, l))
            .collect();
    }

    /// Record what every port line claims about its cable, with the port's own GUID, LID
    /// and labels.
    fn claim_ports(&mut self, ports: &[RawPort<'_>], labels: &[(u32, Labels)]) {
        self.claims = vec![UNCLAIMED; self.fabric.ports.len()];
        let mut labels = labels.iter().peekable();
        for (i, p) in ports.iter().enumerate() {
            let l = labels.next_if(|l| l.0 as usize == i).map_or([None, None], |l| l.1);
            self.claim_port(p, l);
        }
    }

    /// One port line: a port out of range, a far end unknown or out of range, or a port
    /// listed twice is a problem (outside a `--partial` dump, a note); else its claim.
    fn claim_port(&mut self, p: &RawPort<'_>, [label, remote_label]: Labels) {
        let nodes = self.nodes;
        let me = p.node;
        let n = &nodes[me as usize];
        if p.num == 0 || p.num > n.nports {
            self.problems.push(Problem {
                line: p.line,
                message: format!(
                    "port {} is beyond node \"{}\" which has ports 1..={}",
                    p.num, n.id, n.nports
                ),
            });
            return;
        }
        let Some(other) = self.far_node(p) else {
            return;
        };
        let on = &nodes[other as usize];
        if p.remote_port == 0 || p.remote_port > on.nports {
            self.problems.push(Problem {
                line: p.line,
                message: format!(
                    "port {} of \"{}\" leads to port {} of \"{}\", which has ports 1..={}",
                    p.num, n.id, p.remote_port, on.id, on.nports
                ),
            });
            self.suspect.push((me, p.num as u8, p.line));
            return;
        }
        let idx = self.fabric.port_index(me, p.num as u8) as usize;
        if let Some(l) = label {
            self.label(idx, l);
        }
        if let Some(l) = remote_label {
            let ridx = self.fabric.port_index(other, p.remote_port as u8) as usize;
            self.label(ridx, l);
        }
        let fabric = &mut self.fabric;
        if let Some(g) = p.guid {
            fabric.ports[idx].guid = g;
        }
        if let Some(l) = p.lid {
            fabric.ports[idx].lid = l;
            fabric.ports[idx].lmc = p.lmc.unwrap_or(0);
        }
        if let Some(g) = p.remote_guid {
            if on.kind != NodeKind::Switch {
                let ridx = fabric.port_index(other, p.remote_port as u8) as usize;
                fabric.ports[ridx].guid = g;
            }
        }
        let prev = self.claims[idx];
        if prev.line != 0 {
            self.problems.push(Problem {
                line: p.line,
                message: format!(
                    "port {} of \"{}\" is listed twice (also line {})",
                    p.num, n.id, prev.line
                ),
            });
            self.suspect.push((me, p.num as u8, p.line));
            return;
        }
        self.claims[idx] = Claim {
            node: other,
            port: p.remote_port,
            line: p.line,
            width: p.width,
            speed: p.speed,
        };
    }

    /// Keep a port's label (the least, where lines disagree).
    fn label(&mut self, port: usize, l: PortLabel) {
        if self.labels.is_empty() {
            self.labels = vec![None; self.fabric.ports.len()];
        }
        let slot = &mut self.labels[port];
        *slot = Some(slot.map_or(l, |s| s.min(l)));
    }

    /// The node a port line's far end names; `None` (noted as outside a `--partial` dump,
    /// else a problem) when no record has that id.
    fn far_node(&mut self, p: &RawPort<'_>) -> Option<NodeId> {
        let (me, n) = (p.node, &self.nodes[p.node as usize]);
        match p.remote {
            Remote::Index(i) => Some(i as NodeId),
            Remote::Id(id) => match self.by_id.get(id) {
                Some(&o) => Some(o),
                None if self.partial => {
                    self.notes.push(Problem {
                        line: p.line,
                        message: format!(
                            "port {} of \"{}\" leads outside the dump (to \"{}\"): uncabled here (--partial)",
                            p.num, n.id, id
                        ),
                    });
                    self.outside.push((me, p.num as u8, p.line));
                    None
                }
                None => {
                    self.problems.push(Problem {
                        line: p.line,
                        message: format!(
                            "port {} of \"{}\" leads to unknown node \"{}\" (no record of it in the dump: \
                             the dump looks trimmed; --partial reads what is there)",
                            p.num, n.id, id
                        ),
                    });
                    self.suspect.push((me, p.num as u8, p.line));
                    None
                }
            },
        }
    }

    /// Cable every port whose claim the far end returns (or, in a `--partial` dump, whose
    /// far end lists nothing); every other claim is a problem and both ends suspect.
    fn join_ends(&mut self) {
        self.rate_known = vec![false; self.fabric.ports.len()];
        for ia in 0..self.claims.len() {
            let ca = self.claims[ia];
            if ca.line != 0 {
                self.join_end(ia, ca);
            }
        }
    }

    /// The claim `ca` of global port `ia` against the far end's own claim.
    fn join_end(&mut self, ia: usize, ca: Claim) {
        let nodes = self.nodes;
        let a = self.fabric.ports[ia].node;
        let pa = self.fabric.ports[ia].num;
        let ib = self.fabric.port_index(ca.node, ca.port as u8) as usize;
        let cb = self.claims[ib];
        if ia == ib {
            self.problems.push(Problem {
                line: ca.line,
                message: format!(
                    "port {pa} of \"{}\" is listed as cabled to itself",
                    nodes[a as usize].id
                ),
            });
            self.suspect.push((a, pa, ca.line));
            return;
        }
        if cb.line != 0 && cb.node == a && cb.port == pa as u32 {
            if ia < ib {
                // one end may carry width/speed only (ibsim options): take what is known,
                // the lower value when both ends say something
                let (w, s) = (merge(ca.width, cb.width), merge(ca.speed, cb.speed));
                // an ibsim net file without w=/s= means ibsim's default 4xSDR
                let known = self.format == DumpFormat::IbsimNet || (w.is_some() && s.is_some());
                self.cable(ia, ib, (w, s), known);
            }
            return;
        }
        let (na, nb) = (&nodes[a as usize].id, &nodes[ca.node as usize].id);
        let pb = ca.port;
        if cb.line != 0 {
            self.problems.push(Problem {
                line: ca.line,
                message: format!(
                    "ends disagree: \"{na}\"[{pa}] lists \"{nb}\"[{pb}], but \"{nb}\"[{pb}] lists \"{}\"[{}] (line {})",
                    nodes[cb.node as usize].id, cb.port, cb.line
                ),
            });
        } else if self.partial && self.fabric.ports[ib].peer == crate::topology::NO_PEER {
            // the far end's line is outside a trimmed dump: both ends are known
            let known = ca.width.is_some() && ca.speed.is_some();
            self.cable(ia, ib, (ca.width, ca.speed), known);
            self.notes.push(Problem {
                line: ca.line,
                message: format!(
                    "link listed by one end only: \"{na}\"[{pa}] -> \"{nb}\"[{pb}]: taken as cabled (--partial)"
                ),
            });
            return;
        } else {
            // ibnetdiscover lists both ends of every link it found; a missing end means
            // a truncated or hand-edited dump
            self.problems.push(Problem {
                line: ca.line,
                message: format!(
                    "link listed by one end only: \"{na}\"[{pa}] -> \"{nb}\"[{pb}] (the record of \"{nb}\" does not list port {pb}; \
                     a trimmed dump? --partial reads what is there)"
                ),
            });
        }
        self.suspect.push((a, pa, ca.line));
        self.suspect.push((ca.node, pb as u8, ca.line));
    }

    /// Join global ports `ia` and `ib` with the rate known of the cable, if any.
    fn cable(&mut self, ia: usize, ib: usize, (w, s): (Option<Width>, Option<Speed>), known: bool) {
        let ports = &mut self.fabric.ports;
        ports[ia].peer = ib as PortIdx;
        ports[ib].peer = ia as PortIdx;
        for k in [ia, ib] {
            if let Some(w) = w {
                ports[k].width = w;
            }
            if let Some(s) = s {
                ports[k].speed = s;
            }
            self.rate_known[k] = known;
        }
    }

    /// The discovered fabric, its suspect ports and port labels sorted and deduplicated.
    fn finish(self) -> Discovered {
        let mut suspect = self.suspect;
        suspect.sort_unstable();
        suspect.dedup_by_key(|s| (s.0, s.1));
        // labels by global port number: node by node, port by port (none without a label)
        let fabric = &self.fabric;
        let port_labels = if self.labels.is_empty() {
            Vec::new()
        } else {
            (0..fabric.len() as NodeId)
                .flat_map(|n| (1..=fabric.node(n).nports).map(move |p| (n, p)))
                .filter_map(|(n, p)| Some((n, p, self.labels[fabric.port_index(n, p) as usize]?)))
                .collect()
        };
        Discovered {
            fabric: self.fabric,
            format: self.format,
            node_lines: self.node_lines,
            notes: self.notes,
            problems: self.problems,
            suspect,
            truncated: false,
            rate_known: self.rate_known,
            outside: self.outside,
            could_be: Vec::new(),
            port_labels,
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
