//! The second pass of the iblinkinfo reader: the port lines as read, every peer found
//! among the nodes the text lists (or made a node of its own), and the cable ends fed
//! to the assembly.
//!
//! Memory: a reader must peak within twice the fabric it returns, and the text is only
//! understood once every line is read. So a line is kept as a 40-byte [`Rec`] until its
//! peer is known, then as a 16-byte [`End`] while the fabric is allocated (the nodes are
//! dropped once added, the ends once fed); the ports the text lists are a bitset, and
//! the few GUIDs and LIDs (CA ports, `-l` lines) are side vectors read in line order.

use super::super::assemble::{check_port_budget, Assembly, FxMap, RawNode};
use super::super::grammar::{lid16, RawPort, Remote};
use super::super::{CouldBe, Problem};
use super::{Far, LinkLine};
use crate::error::{Error, Result};
use crate::topology::{NodeKind, Speed, Width};
use std::borrow::Cow;
use std::collections::VecDeque;
use std::path::Path;

/// A width and a speed, each maybe unknown, in one byte (a code of [`WIDTHS`] plus 1 in
/// the low 3 bits, of [`SPEEDS`] plus 1 above; 0: unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Rate(u8);

/// The widths and speeds of [`Rate`], by code.
const WIDTHS: [Width; 5] = Width::ALL;
const SPEEDS: [Speed; 9] = Speed::ALL;

impl Rate {
    fn new(width: Option<Width>, speed: Option<Speed>) -> Rate {
        // exhaustive: a width or speed added to the topology must be given a code here
        let w = width.map_or(0, |w| match w {
            Width::X1 => 1,
            Width::X2 => 2,
            Width::X4 => 3,
            Width::X8 => 4,
            Width::X12 => 5,
        });
        let s = speed.map_or(0, |s| match s {
            Speed::Sdr => 1,
            Speed::Ddr => 2,
            Speed::Qdr => 3,
            Speed::Fdr10 => 4,
            Speed::Fdr => 5,
            Speed::Edr => 6,
            Speed::Hdr => 7,
            Speed::Ndr => 8,
            Speed::Xdr => 9,
        });
        Rate(w | s << 3)
    }

    fn width(self) -> Option<Width> {
        WIDTHS.get(usize::from(self.0 & 7).checked_sub(1)?).copied()
    }

    fn speed(self) -> Option<Speed> {
        SPEEDS.get(usize::from(self.0 >> 3).checked_sub(1)?).copied()
    }
}

/// A set of numbers below a bound, one bit each.
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Self {
        Bits(vec![0; n.div_ceil(64)])
    }

    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }
}

/// [`Rec::flags`]: where the cable leads (the low two bits; 0: the port is down) and
/// which GUIDs the line gave.
const NOT_AVAILABLE: u8 = 1;
const PORT: u8 = 2;
const FAR: u8 = 3;
const OWN_GUID: u8 = 4;
const FAR_GUID: u8 = 8;

/// One port line, kept until its peer is known (the GUIDs are in [`Lines`]).
pub(super) struct Rec<'a> {
    node: u32,
    line: u32,
    /// The port's LID (a switch's on every port).
    lid: u32,
    far_lid: u32,
    far_port: u32,
    /// Read only for a peer the text does not list (its node takes it).
    far_desc: &'a str,
    port: u8,
    rate: Rate,
    could: Rate,
    flags: u8,
}

impl Rec<'_> {
    fn far(&self) -> u8 {
        self.flags & FAR
    }
}

/// The port lines of a text, in order, with the GUIDs some of them give.
pub(super) struct Lines<'a> {
    recs: Vec<Rec<'a>>,
    own_guids: Vec<u64>,
    far_guids: Vec<u64>,
}

impl<'a> Lines<'a> {
    pub(super) fn with_capacity(n: usize) -> Self {
        Lines {
            recs: Vec::with_capacity(n),
            own_guids: Vec::new(),
            far_guids: Vec::new(),
        }
    }

    /// Line `line` of node `node`, as read.
    pub(super) fn push(&mut self, l: &LinkLine<'a>, node: u32, line: usize) {
        let mut flags = 0;
        if let Some(g) = l.guid {
            flags |= OWN_GUID;
            self.own_guids.push(g);
        }
        let (far_lid, far_port, far_desc) = match l.far {
            Far::Down => (0, 0, ""),
            Far::NotAvailable => {
                flags |= NOT_AVAILABLE;
                (0, 0, "")
            }
            Far::Port { guid, lid, port, desc } => {
                flags |= PORT;
                if let Some(g) = guid {
                    flags |= FAR_GUID;
                    self.far_guids.push(g);
                }
                (lid, port, desc)
            }
        };
        self.recs.push(Rec {
            node,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            lid: l.lid,
            far_lid,
            far_port,
            far_desc,
            // 1..=254: the reader refuses other port lines
            port: l.port as u8,
            rate: Rate::new(l.width, l.speed),
            could: Rate::new(l.could.width, l.could.speed),
            flags,
        });
    }

    /// Every line with the GUID of its own port, when it gave one.
    fn with_own_guids(&self) -> impl Iterator<Item = (&Rec<'a>, Option<u64>)> + '_ {
        let mut guids = self.own_guids.iter();
        self.recs.iter().map(move |r| {
            (
                r,
                if r.flags & OWN_GUID != 0 {
                    guids.next().copied()
                } else {
                    None
                },
            )
        })
    }
}

/// A node as the text shows it, before peers are resolved.
pub(super) struct LNode<'a> {
    desc: &'a str,
    /// Meant only when `has_guid`.
    guid: u64,
    nports: u32,
    lid: u32,
    line: u32,
    /// The first port number the node lists, or is reached at when only seen as a peer.
    first: u32,
    kind: Option<NodeKind>,
    has_guid: bool,
    /// A port number was seen: `first` is meant.
    seen: bool,
    /// A port number other than the first, or one above 2, was seen.
    switchy: bool,
}

impl<'a> LNode<'a> {
    pub(super) fn new(kind: Option<NodeKind>, guid: Option<u64>, desc: &'a str, line: usize) -> Self {
        LNode {
            desc,
            guid: guid.unwrap_or(0),
            nports: 0,
            lid: 0,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            first: 0,
            kind,
            has_guid: guid.is_some(),
            seen: false,
            switchy: false,
        }
    }

    fn guid(&self) -> Option<u64> {
        self.has_guid.then_some(self.guid)
    }

    /// Port line `l` is one of this node's.
    pub(super) fn lists(&mut self, l: &LinkLine<'_>) {
        self.nports = self.nports.max(l.port);
        if self.kind != Some(NodeKind::Ca) && l.lid != 0 {
            self.lid = l.lid;
        }
        self.port_seen(l.port);
    }

    /// Port `p` of this node is listed, or reached from a listed node.
    fn port_seen(&mut self, p: u32) {
        if !self.seen {
            (self.first, self.seen) = (p, true);
        }
        self.switchy |= p != self.first || p > 2;
    }

    /// The kind of a node the text does not list: a switch when it is reached at two
    /// different ports or at a port above 2 (an HCA has one or two), a CA otherwise. A
    /// switch reached by one cable at port 1 or 2 of it reads as a host: only the block
    /// form (which lists every node) says for certain.
    pub(super) fn peer_kind(&self) -> NodeKind {
        if self.switchy {
            NodeKind::Switch
        } else {
            NodeKind::Ca
        }
    }
}

/// GUID given to a node whose GUID the text does not print (a peer known by its LID):
/// unique, and recognisable in reports as made up.
const NO_GUID_BASE: u64 = 0xfffe_0000_0000_0000;

/// Settle the nodes, find every peer, and feed the assembly: the nodes, then one end per
/// line and the far end's when its own node does not list that port. The "Could be"
/// hints of the lines, in line order.
pub(super) fn assemble<'a>(
    mut nodes: Vec<LNode<'a>>,
    mut lines: Lines<'a>,
    line_form: bool,
    raw: &mut Assembly<'a>,
    path: &Path,
) -> Result<Vec<CouldBe>> {
    if line_form {
        settle_line_form(&mut nodes, &mut lines.recs);
    } else {
        settle_block_form(&mut nodes, &lines);
    }
    let peers = resolve_peers(&mut nodes, &lines);
    let ends = ends(&nodes, &lines, &peers, &mut raw.notes);
    drop((lines, peers));
    if nodes.is_empty() {
        return Err(Error::at(path, 0, "no iblinkinfo port lines found"));
    }
    let declared: usize = nodes.iter().map(|n| n.nports.max(1) as usize + 1).sum();
    check_port_budget(declared, ends.ends.len(), path, 0)?;
    nodes.shrink_to_fit();
    raw.reserve(nodes.len(), declared);
    // the nodes leave as they join the fabric, whose strings take their room
    let mut nodes = VecDeque::from(nodes);
    let mut i = 0;
    while let Some(n) = nodes.pop_front() {
        raw.add_node(raw_node(i, &n), path)?;
        i += 1;
        if i % 1024 == 0 {
            nodes.shrink_to_fit();
        }
    }
    drop(nodes);
    ends.feed(raw);
    Ok(ends.could())
}

/// Block form: a CA block's node GUID is its first port's GUID minus the port number
/// (ibsim's rule and most HCAs'; the text prints port GUIDs only).
fn settle_block_form(nodes: &mut [LNode<'_>], lines: &Lines<'_>) {
    for (r, guid) in lines.with_own_guids() {
        let n = &mut nodes[r.node as usize];
        if let (false, Some(g)) = (n.has_guid, guid) {
            (n.guid, n.has_guid) = (g.wrapping_sub(u64::from(r.port)), true);
        }
    }
}

/// `-l`: a GUID listed with two port numbers, or one above 2, is a switch; the others
/// are CA ports, merged into one node per node GUID (port GUID minus port number).
fn settle_line_form(nodes: &mut Vec<LNode<'_>>, recs: &mut [Rec<'_>]) {
    let mut to: Vec<u32> = (0..nodes.len() as u32).collect();
    let mut ca_nodes: FxMap<u64, u32> = FxMap::default();
    for i in 0..nodes.len() {
        let n = &mut nodes[i];
        if n.kind.is_some() {
            // a block header among `-l` lines: its kind is stated
            continue;
        }
        let kind = n.peer_kind();
        n.kind = Some(kind);
        if kind == NodeKind::Ca {
            // a node of the line form has a GUID and a line, so a first port
            n.guid = n.guid.wrapping_sub(u64::from(n.first));
            n.lid = 0;
            let (node_guid, np) = (n.guid, n.nports);
            let first = *ca_nodes.entry(node_guid).or_insert(i as u32) as usize;
            if first != i {
                to[i] = first as u32;
                nodes[first].nports = nodes[first].nports.max(np);
            }
        }
    }
    // nodes merged away leave; the others are renumbered (a node merges into an earlier one)
    let keep: Vec<bool> = to.iter().enumerate().map(|(i, &t)| t as usize == i).collect();
    let mut k = 0;
    for i in 0..to.len() {
        if keep[i] {
            to[i] = k;
            k += 1;
        } else {
            to[i] = to[to[i] as usize];
        }
    }
    for r in recs.iter_mut() {
        r.node = to[r.node as usize];
    }
    let mut i = 0;
    nodes.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}

/// Each line's far node ([`NO_FAR`] for a port that is down or whose peer is not
/// available), the lines whose far end needs an end of its own, and the count of ends.
struct Peers {
    far_of: Vec<u32>,
    back: Bits,
    ends: usize,
}

const NO_FAR: u32 = u32::MAX;

/// Find every peer among the listed nodes (by GUID when printed, else by LID), and make
/// a node of each peer the text does not list.
fn resolve_peers<'a>(nodes: &mut Vec<LNode<'a>>, lines: &Lines<'a>) -> Peers {
    let listed = nodes.len();
    // listed nodes and ports by LID and GUID
    let mut switch_by_lid: FxMap<u32, u32> = FxMap::default();
    let mut switch_by_guid: FxMap<u64, u32> = FxMap::default();
    let mut ca_port_by_lid: FxMap<u32, u32> = FxMap::default();
    let mut ca_port_by_guid: FxMap<u64, u32> = FxMap::default();
    for (i, n) in nodes.iter().enumerate() {
        if n.kind == Some(NodeKind::Switch) {
            if n.lid != 0 {
                switch_by_lid.insert(n.lid, i as u32);
            }
            if let Some(g) = n.guid() {
                switch_by_guid.insert(g, i as u32);
            }
        }
    }
    // the ports the nodes list: a bit each, from each node's base
    let mut base = Vec::with_capacity(listed + 1);
    let mut all = 0usize;
    for n in nodes.iter() {
        base.push(all);
        all += n.nports as usize + 1;
    }
    base.push(all);
    let mut own = Bits::new(all);
    for (r, guid) in lines.with_own_guids() {
        own.set(base[r.node as usize] + usize::from(r.port));
        if nodes[r.node as usize].kind != Some(NodeKind::Switch) {
            if r.lid != 0 {
                ca_port_by_lid.insert(r.lid, r.node);
            }
            if let Some(g) = guid {
                ca_port_by_guid.insert(g, r.node);
            }
        }
    }
    let lists = |node: u32, p: u32| {
        let node = node as usize;
        node < listed && (p as usize) < base[node + 1] - base[node] && own.get(base[node] + p as usize)
    };
    // peers not listed: keyed by GUID when printed, else by LID
    let mut unlisted: FxMap<(bool, u64), u32> = FxMap::default();
    let mut peers = Peers {
        far_of: Vec::with_capacity(lines.recs.len()),
        back: Bits::new(lines.recs.len()),
        ends: 0,
    };
    let mut far_guids = lines.far_guids.iter();
    for (i, r) in lines.recs.iter().enumerate() {
        if r.far() != PORT {
            peers.far_of.push(NO_FAR);
            continue;
        }
        let guid = if r.flags & FAR_GUID != 0 {
            far_guids.next().copied()
        } else {
            None
        };
        let known = match guid {
            Some(g) => switch_by_guid.get(&g).or_else(|| ca_port_by_guid.get(&g)),
            None => switch_by_lid.get(&r.far_lid).or_else(|| ca_port_by_lid.get(&r.far_lid)),
        };
        let far = match known {
            Some(&k) => k,
            None => {
                let key = guid.map_or((false, u64::from(r.far_lid)), |g| (true, g));
                let k = *unlisted.entry(key).or_insert_with(|| {
                    let mut peer = LNode::new(None, guid, r.far_desc, r.line as usize);
                    peer.lid = r.far_lid;
                    nodes.push(peer);
                    nodes.len() as u32 - 1
                });
                nodes[k as usize].port_seen(r.far_port);
                k
            }
        };
        let n = &mut nodes[far as usize];
        n.nports = n.nports.max(r.far_port);
        peers.far_of.push(far);
        peers.ends += 1;
        if !lists(far, r.far_port) {
            peers.back.set(i);
            peers.ends += 1;
        }
    }
    for n in nodes[listed..].iter_mut() {
        let kind = n.peer_kind();
        n.kind = Some(kind);
        if kind != NodeKind::Switch && n.has_guid {
            // a CA port's GUID: the node is one port of it
            n.guid = n.guid.wrapping_sub(u64::from(n.first));
            n.lid = 0;
        }
    }
    peers
}

/// A cable end as the assembly takes it, without its LID and GUID (see [`Ends`]).
struct End {
    node: u32,
    far: u32,
    line: u32,
    /// Port numbers; 255 stands for any number no node has (the assembly refuses it).
    num: u8,
    far_port: u8,
    rate: Rate,
    /// The line's "Could be" hint (none on a far end's end).
    could: Rate,
}

/// The cable ends, in line order, with the LIDs and GUIDs of those that have one (CA
/// ports) kept apart in the same order.
struct Ends {
    ends: Vec<End>,
    has_lid: Bits,
    lids: Vec<u16>,
    has_guid: Bits,
    guids: Vec<u64>,
}

impl Ends {
    fn push(&mut self, end: End, lid: Option<u16>, guid: Option<u64>) {
        let i = self.ends.len();
        if let Some(l) = lid {
            self.has_lid.set(i);
            self.lids.push(l);
        }
        if let Some(g) = guid {
            self.has_guid.set(i);
            self.guids.push(g);
        }
        self.ends.push(end);
    }

    /// Every end to the assembly, in order.
    fn feed(&self, raw: &mut Assembly<'_>) {
        let (mut lids, mut guids) = (self.lids.iter(), self.guids.iter());
        for (i, e) in self.ends.iter().enumerate() {
            let lid = if self.has_lid.get(i) {
                lids.next().copied()
            } else {
                None
            };
            let guid = if self.has_guid.get(i) {
                guids.next().copied()
            } else {
                None
            };
            let port = RawPort {
                node: e.node,
                num: u32::from(e.num),
                guid,
                remote: Remote::Index(e.far as usize),
                remote_port: u32::from(e.far_port),
                remote_guid: None,
                lid,
                lmc: None,
                width: e.rate.width(),
                speed: e.rate.speed(),
                line: e.line as usize,
            };
            raw.add_port(&port, [None, None]);
        }
    }

    /// The "Could be" hints, in line order.
    fn could(&self) -> Vec<CouldBe> {
        let hinted = || self.ends.iter().filter(|e| e.could != Rate::default());
        let mut could = Vec::with_capacity(hinted().count());
        could.extend(hinted().map(|e| CouldBe {
            node: e.node,
            port: e.num,
            width: e.could.width(),
            speed: e.could.speed(),
        }));
        could
    }
}

/// The ends of the lines: one per line with a peer, and the far end's when its own node
/// does not list that port (CA ends carry their LID and GUID). A port up whose peer was
/// not discovered is noted.
fn ends(nodes: &[LNode<'_>], lines: &Lines<'_>, peers: &Peers, notes: &mut Vec<Problem>) -> Ends {
    let mut out = Ends {
        ends: Vec::with_capacity(peers.ends),
        has_lid: Bits::new(peers.ends),
        lids: Vec::new(),
        has_guid: Bits::new(peers.ends),
        guids: Vec::new(),
    };
    let is_ca = |n: u32| nodes[n as usize].kind != Some(NodeKind::Switch);
    for (i, ((r, guid), &far)) in lines.with_own_guids().zip(&peers.far_of).enumerate() {
        match r.far() {
            PORT => {
                let me = r.node;
                let end = End {
                    node: me,
                    far,
                    line: r.line,
                    num: r.port,
                    far_port: u8::try_from(r.far_port).unwrap_or(u8::MAX),
                    rate: r.rate,
                    could: r.could,
                };
                let ca = is_ca(me);
                out.push(end, lid16(r.lid).filter(|_| ca), guid.filter(|_| ca));
                if peers.back.get(i) {
                    // the far node does not list this port: its end is this line's
                    let back = End {
                        node: far,
                        far: me,
                        line: r.line,
                        num: u8::try_from(r.far_port).unwrap_or(u8::MAX),
                        far_port: r.port,
                        rate: r.rate,
                        could: Rate::default(),
                    };
                    out.push(back, lid16(r.far_lid).filter(|_| is_ca(far)), None);
                }
            }
            NOT_AVAILABLE => notes.push(Problem {
                line: r.line as usize,
                message: format!(
                    "port {} of \"{}\" is up but its peer was not discovered (\"Port not available\"): counted as empty",
                    r.port, nodes[r.node as usize].desc
                ),
            }),
            _ => {}
        }
    }
    out.lids.shrink_to_fit();
    out.guids.shrink_to_fit();
    out
}

fn raw_node<'a>(i: usize, n: &LNode<'a>) -> RawNode<'a> {
    let kind = n.kind.unwrap_or(NodeKind::Ca);
    let guid = n.guid().unwrap_or(NO_GUID_BASE | i as u64);
    let mut node = RawNode::by_guid(kind, n.nports, guid, n.desc.trim().to_string(), n.lid, n.line as usize);
    if !n.has_guid {
        node.id = Cow::Owned(format!("{}-lid{}", &node.id[..1], n.lid));
    }
    node
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_fit_a_byte_each_way() {
        assert_eq!(Rate::default(), Rate::new(None, None));
        for w in WIDTHS.iter().copied().map(Some).chain([None]) {
            for s in SPEEDS.iter().copied().map(Some).chain([None]) {
                let r = Rate::new(w, s);
                assert_eq!((r.width(), r.speed()), (w, s));
            }
        }
        // the ends are held while the fabric is allocated
        assert_eq!(std::mem::size_of::<End>(), 16);
        assert!(std::mem::size_of::<Rec<'_>>() <= 40);
    }

    /// A line of `id`'s block, lid `lid`, port `p`, to `far_lid` port `fp` named `desc`.
    fn line(lid: u32, p: u32, far_lid: u32, fp: u32, desc: &str) -> String {
        format!(
            "  {lid:>6} {p:>4}[  ] ==( 4X 25.78125 Gbps Active/  LinkUp)==>  {far_lid:>6} {fp:>4}[  ] \"{desc}\" ( )\n"
        )
    }

    #[test]
    fn a_port_its_own_node_does_not_list_takes_the_far_line() {
        // S-b lists port 1 only; S-a's port 1 leads to its port 3
        let t = format!(
            "Switch: 0x0000000000200001 S-a:\n{}{}Switch: 0x0000000000200002 S-b:\n{}",
            line(3, 1, 4, 3, "S-b"),
            line(3, 2, 4, 1, "S-b"),
            line(4, 1, 3, 2, "S-a")
        );
        let d = crate::formats::dump::parse(&t, Path::new("t")).unwrap();
        assert!(d.problems.is_empty(), "{:?}", d.problems);
        let f = &d.fabric;
        assert_eq!((f.len(), f.link_count()), (2, 2));
        assert_eq!(f.node(1).nports, 3, "the far line gives S-b its port 3");
        assert_eq!(f.peer(1, 3), Some((0, 1)));
        assert_eq!(d.could_be.len(), 0);
    }

    #[test]
    fn a_peer_without_a_block_is_named_by_its_first_line() {
        // `-S`: one switch; the peer at LID 9 is reached at ports 5 and 6, so a switch
        let t = format!(
            "Switch: 0x0000000000200001 S-a:\n{}{}{}",
            line(3, 1, 9, 5, "first"),
            line(3, 2, 9, 6, "second"),
            line(3, 3, 7, 1, "host")
        );
        let d = crate::formats::dump::parse(&t, Path::new("t")).unwrap();
        assert!(d.problems.is_empty(), "{:?}", d.problems);
        let f = &d.fabric;
        assert_eq!(f.len(), 3);
        assert_eq!((f.node(1).kind, f.node(1).desc.as_str()), (NodeKind::Switch, "first"));
        assert_eq!((f.node(1).nports, f.node(1).name.as_str()), (6, "S-lid9"));
        assert_eq!((f.node(2).kind, f.node(2).name.as_str()), (NodeKind::Ca, "H-lid7"));
        assert_eq!(d.node_lines, [1, 2, 4]);
        assert_eq!(f.peer(1, 6), Some((0, 2)));
    }
}
