//! `iblinkinfo` output as a topology source: the default block form (`Switch: 0x… desc:`
//! and `CA: desc:` headers, one line per port), the line form (`-l`: every line starts
//! with the port's GUID and its node's description) and one switch (`-S GUID`).
//!
//! The text names a peer by LID and port (and in `-l` by GUID), so the fabric is built
//! in two passes: the lines first, then every peer resolved against the nodes the text
//! lists. A peer without a block of its own (`-S`, `--switches-only`) becomes a node of
//! its own; its kind is read from how it is reached (see [`peer_kind`]). A port that is
//! `Down` is an empty port; "Could be" hints are kept for the slow-cable report.

use super::assemble::{check_port_budget, Assembly, FxMap, RawNode};
use super::grammar::{find_seq, lid16, lines, shorten, truncation_hint, Cur, IndexPort, IndexPorts};
use super::{CouldBe, DumpFormat, ParseOptions, Problem};
use crate::error::{Error, Result};
use crate::topology::{NodeKind, Speed, Width};
use std::borrow::Cow;
use std::path::Path;

/// Where a port line's cable leads.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Far<'a> {
    /// `[  ] "" ( )`: a port that is down (no cable, or a dark one).
    Down,
    /// `"Port not available"`: up, but the peer was not discovered.
    NotAvailable,
    /// `[0x<guid>] <lid> <port>[ext] "<desc>"`
    Port {
        guid: Option<u64>,
        lid: u32,
        port: u32,
        desc: &'a str,
    },
}

/// One port line as read.
#[derive(Clone, Debug, PartialEq)]
struct LinkLine<'a> {
    /// The port's GUID: CA lines of the block form, every line of `-l`.
    guid: Option<u64>,
    /// `-l`: the node's description (padded to 30 columns by the tool).
    desc: Option<&'a str>,
    lid: u32,
    port: u32,
    width: Option<Width>,
    speed: Option<Speed>,
    far: Far<'a>,
    could: CouldBeRate,
}

/// "Could be" hints: the width and speed both ends support when they are above the
/// active ones.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct CouldBeRate {
    width: Option<Width>,
    speed: Option<Speed>,
}

/// A speed as iblinkinfo prints it (`2.5` ... `212.5`, in Gbit/s per lane).
fn speed_of(gbps: &str, fdr10: bool) -> Option<Speed> {
    Some(match gbps {
        "2.5" => Speed::Sdr,
        "5.0" => Speed::Ddr,
        "10.0" if fdr10 => Speed::Fdr10,
        "10.0" => Speed::Qdr,
        "14.0625" => Speed::Fdr,
        "25.78125" => Speed::Edr,
        "53.125" => Speed::Hdr,
        "106.25" => Speed::Ndr,
        "212.5" => Speed::Xdr,
        _ => return None,
    })
}

/// The link field between `==` and `==>`: `( 4X 25.78125 Gbps Active/  LinkUp)` or
/// `(  Down/ Polling)`, maybe followed by ` (HOQ:… VL_Stall:…)`. (width, speed, up).
fn link_field(s: &str) -> Option<(Option<Width>, Option<Speed>, bool)> {
    let body = s.trim().strip_prefix('(')?;
    // the closing parenthesis at depth 0 (`(FDR10)` nests inside)
    let mut depth = 0u32;
    let mut end = None;
    for (i, b) in body.bytes().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' if depth == 0 => {
                end = Some(i);
                break;
            }
            b')' => depth -= 1,
            _ => {}
        }
    }
    let inner = &body[..end?];
    let mut toks = inner.split_ascii_whitespace().peekable();
    let mut width = None;
    let mut speed = None;
    let mut state = None;
    while let Some(t) = toks.next() {
        if let Some(st) = t.strip_suffix('/') {
            state = Some(st);
            break;
        }
        if let Some(w) = Width::from_token(t) {
            width = Some(w);
        } else if toks.peek() == Some(&"Gbps") {
            toks.next();
            let fdr10 = toks.peek() == Some(&"(FDR10)");
            if fdr10 {
                toks.next();
            }
            speed = speed_of(t, fdr10);
        } else if t.contains('/') {
            // `Active/LinkUp` without the blank the tool pads in
            state = t.split('/').next();
            break;
        }
    }
    let state = state?;
    Some((width, speed, state != "Down"))
}

/// "Could be" hints: `(Could be 12X Could be 10.0 Gbps)`, `( )`, `(Could be FDR10 (…))`.
fn could_be(s: &str) -> CouldBeRate {
    let mut out = CouldBeRate::default();
    let mut rest = s;
    while let Some(at) = find_seq(rest, "Could be ") {
        rest = &rest[at + 9..];
        let mut toks = rest.split_ascii_whitespace();
        let Some(t) = toks.next() else { break };
        if let Some(w) = Width::from_token(t) {
            out.width = Some(w);
        } else if t == "FDR10" {
            out.speed = Some(Speed::Fdr10);
        } else if toks.next().is_some_and(|g| g.starts_with("Gbps")) {
            out.speed = speed_of(t, false).or(out.speed);
        }
    }
    out
}

/// `[ 5]` / `[  ]`: an external port number or blanks.
fn ext(c: &mut Cur<'_>) -> Option<()> {
    c.opt(|c| {
        c.eat(b'[').then_some(())?;
        c.spaces();
        c.dec_u32();
        c.spaces();
        c.eat(b']').then_some(())
    })
}

/// What follows `==>`.
fn far_end(s: &str) -> Option<(Far<'_>, CouldBeRate)> {
    let t = s.trim();
    if t.starts_with('[') {
        return Some((Far::Down, CouldBeRate::default()));
    }
    if t.starts_with("\"Port not available\"") {
        return Some((Far::NotAvailable, CouldBeRate::default()));
    }
    let mut c = Cur::new(t);
    let guid = c.opt(|c| {
        c.eat_str(b"0x").then_some(())?;
        let g = c.hex_u64()?;
        (c.spaces() > 0).then_some(g)
    });
    let lid = c.dec_u32()?;
    (c.spaces() > 0).then_some(())?;
    let port = c.dec_u32()?;
    ext(&mut c)?;
    c.spaces();
    let rest = &t[c.i..];
    let body = rest.strip_prefix('"')?;
    // the description ends at the last `" (` (the hints follow it), or the last quote
    let (desc, hints) = match body.rfind("\" (") {
        Some(e) => (&body[..e], &body[e + 2..]),
        None => (body.strip_suffix('"')?, ""),
    };
    Some((Far::Port { guid, lid, port, desc }, could_be(hints)))
}

/// A port line of either form; `None` when it does not follow the grammar.
fn link_line(line: &str) -> Option<LinkLine<'_>> {
    let mut c = Cur::new(line);
    c.spaces();
    let mut guid = None;
    let mut desc = None;
    if c.eat_str(b"0x") {
        guid = Some(c.hex_u64()?);
        (c.spaces() > 0).then_some(())?;
        if let Some((a, b)) = c.quoted() {
            desc = Some(line[a..b].trim_start());
            (c.spaces() > 0).then_some(())?;
        }
    }
    let lid = c.dec_u32()?;
    (c.spaces() > 0).then_some(())?;
    let port = c.dec_u32()?;
    ext(&mut c)?;
    c.spaces();
    c.eat_str(b"==").then_some(())?;
    let rest = &line[c.i..];
    let arrow = find_seq(rest, "==>")?;
    let (width, speed, up) = link_field(&rest[..arrow])?;
    let (far, could) = far_end(&rest[arrow + 3..])?;
    if !up && far != Far::Down {
        return None;
    }
    Some(LinkLine {
        guid,
        desc,
        lid,
        port,
        width: up.then_some(width).flatten(),
        speed: up.then_some(speed).flatten(),
        far,
        could,
    })
}

/// A block header: `Switch: 0x<guid> <desc>:`, `CA: <desc>:`, `Router: <desc>:`.
fn block_header(line: &str) -> Option<(NodeKind, Option<u64>, &str)> {
    const KINDS: [(&[u8], NodeKind); 3] = [
        (b"Switch:", NodeKind::Switch),
        (b"CA:", NodeKind::Ca),
        (b"Router:", NodeKind::Router),
    ];
    let mut c = Cur::new(line);
    let kind = c.one_of(&KINDS)?;
    c.spaces();
    let guid = if kind == NodeKind::Switch {
        c.eat_str(b"0x").then_some(())?;
        let g = c.hex_u64()?;
        (c.spaces() > 0).then_some(())?;
        Some(g)
    } else {
        None
    };
    let desc = line[c.i..].trim_end().strip_suffix(':')?;
    Some((kind, guid, desc))
}

/// True when `line` is an iblinkinfo block header or port line (format detection).
pub(super) fn is_iblinkinfo_line(line: &str) -> bool {
    block_header(line).is_some() || link_line(line).is_some()
}

/// True when the port lines are of the `-l` form.
pub(super) fn is_line_form(line: &str) -> bool {
    link_line(line).is_some_and(|l| l.desc.is_some())
}

/// A node as the text shows it, before peers are resolved.
struct LNode<'a> {
    kind: Option<NodeKind>,
    guid: Option<u64>,
    desc: Cow<'a, str>,
    nports: u32,
    lid: u32,
    line: usize,
    /// Listed with lines of its own (not only seen as a peer).
    listed: bool,
    /// Remote port numbers it was reached at, when only seen as a peer.
    reached: Vec<u32>,
}

impl<'a> LNode<'a> {
    fn new(kind: Option<NodeKind>, guid: Option<u64>, desc: &'a str, line: usize, listed: bool) -> Self {
        LNode {
            kind,
            guid,
            desc: Cow::Borrowed(desc),
            nports: 0,
            lid: 0,
            line,
            listed,
            reached: Vec::new(),
        }
    }
}

/// One port line, attached to its node.
struct Entry<'a> {
    node: usize,
    l: LinkLine<'a>,
    line: usize,
}

/// The kind of a node the text does not list: a switch when it is reached at two
/// different ports or at a port above 2 (an HCA has one or two), a CA otherwise. A
/// switch reached by one cable at port 1 or 2 of it reads as a host: only the block
/// form (which lists every node) says for certain.
fn peer_kind(reached: &[u32]) -> NodeKind {
    let first = reached.first().copied().unwrap_or(1);
    if reached.iter().any(|&p| p != first || p > 2) {
        NodeKind::Switch
    } else {
        NodeKind::Ca
    }
}

/// GUID given to a node whose GUID the text does not print (a peer known by its LID):
/// unique, and recognisable in reports as made up.
const NO_GUID_BASE: u64 = 0xfffe_0000_0000_0000;

/// Read iblinkinfo output into node and port records, and say which form it was.
pub(super) fn read_iblinkinfo<'a>(
    text: &'a str,
    path: &Path,
    opts: ParseOptions,
    truncated: bool,
) -> Result<(Assembly<'a>, DumpFormat, Vec<CouldBe>)> {
    let mut raw = Assembly::with_capacity(0, 0, opts.partial);
    let mut nodes: Vec<LNode<'a>> = Vec::new();
    let mut entries: Vec<Entry<'a>> = Vec::new();
    // -l: node by the GUID its lines start with
    let mut by_line_guid: FxMap<u64, usize> = FxMap::default();
    let mut block: Option<usize> = None;
    let mut line_form = false;
    for (idx, line) in lines(text).enumerate() {
        let lineno = idx + 1;
        let t = line.trim_end();
        if t.trim().is_empty() {
            continue;
        }
        if let Some((kind, guid, desc)) = block_header(t) {
            nodes.push(LNode::new(Some(kind), guid, desc, lineno, true));
            block = Some(nodes.len() - 1);
            continue;
        }
        let Some(l) = link_line(t) else {
            if find_seq(t, "==(").is_some() || find_seq(t, ")==>").is_some() {
                let msg = format!(
                    "malformed iblinkinfo port line `{}`: expected `[0x<guid> [\"desc\"]] <lid> <port>[ ] ==( <width> <speed> Gbps <state>/ <phys>)==> <lid> <port>[ ] \"<desc>\" ( )`{}",
                    shorten(t.trim()),
                    truncation_hint(truncated, lineno, text)
                );
                raw.problem(opts.lenient, path, lineno, msg)?;
            } else {
                raw.skipped(lineno, t.trim());
            }
            continue;
        };
        if l.port == 0 || l.port > 254 {
            raw.problem(
                opts.lenient,
                path,
                lineno,
                format!("port {} out of range 1..=254", l.port),
            )?;
            continue;
        }
        let node = if let Some(desc) = l.desc {
            line_form = true;
            let g = l.guid.unwrap_or(0);
            *by_line_guid.entry(g).or_insert_with(|| {
                nodes.push(LNode::new(None, Some(g), desc, lineno, true));
                nodes.len() - 1
            })
        } else {
            match block {
                Some(b) => b,
                None => {
                    let msg = format!(
                        "iblinkinfo port line `{}` before any `Switch:`/`CA:` header",
                        shorten(t.trim())
                    );
                    if !opts.lenient && !opts.partial {
                        return Err(Error::at(
                            path,
                            lineno,
                            format!("{msg} (the file looks trimmed: --partial reads what is there)"),
                        ));
                    }
                    raw.notes.push(Problem {
                        line: lineno,
                        message: msg,
                    });
                    continue;
                }
            }
        };
        let n = &mut nodes[node];
        n.nports = n.nports.max(l.port);
        if n.kind != Some(NodeKind::Ca) && l.lid != 0 {
            n.lid = l.lid;
        }
        entries.push(Entry { node, l, line: lineno });
    }
    if line_form {
        settle_line_form(&mut nodes, &mut entries);
    } else {
        settle_block_form(&mut nodes, &entries);
    }
    let mut ports = IndexPorts::default();
    let could = resolve_peers(&mut nodes, &entries, (&mut raw, &mut ports));
    if nodes.is_empty() {
        return Err(Error::at(path, 0, "no iblinkinfo port lines found"));
    }
    let declared: usize = nodes.iter().map(|n| n.nports.max(1) as usize + 1).sum();
    check_port_budget(declared, ports.len(), path, 0)?;
    // the lines are in `ports` now: their memory is the fabric's before it is allocated
    drop(entries);
    raw.reserve(nodes.len(), declared);
    for (i, n) in nodes.iter().enumerate() {
        raw.add_node(raw_node(i, n), path)?;
    }
    for p in ports.records() {
        raw.add_port(&p, [None, None]);
    }
    let format = if line_form {
        DumpFormat::IblinkinfoLines
    } else {
        DumpFormat::Iblinkinfo
    };
    Ok((raw, format, could))
}

/// Block form: a CA block's node GUID is its first port's GUID minus the port number
/// (ibsim's rule and most HCAs'; the text prints port GUIDs only).
fn settle_block_form(nodes: &mut [LNode<'_>], entries: &[Entry<'_>]) {
    for e in entries {
        let n = &mut nodes[e.node];
        if n.guid.is_none() {
            n.guid = e.l.guid.map(|g| g.wrapping_sub(u64::from(e.l.port)));
        }
    }
}

/// `-l`: a GUID listed with two port numbers, or one above 2, is a switch; the others
/// are CA ports, merged into one node per node GUID (port GUID minus port number).
fn settle_line_form<'a>(nodes: &mut Vec<LNode<'a>>, entries: &mut [Entry<'a>]) {
    let mut ports: Vec<Vec<u32>> = vec![Vec::new(); nodes.len()];
    for e in entries.iter() {
        ports[e.node].push(e.l.port);
    }
    let mut remap: Vec<usize> = (0..nodes.len()).collect();
    let mut ca_nodes: FxMap<u64, usize> = FxMap::default();
    for i in 0..nodes.len() {
        if nodes[i].kind.is_some() {
            // a block header among `-l` lines: its kind is stated
            continue;
        }
        let kind = peer_kind(&ports[i]);
        nodes[i].kind = Some(kind);
        if kind == NodeKind::Ca {
            let first = ports[i].first().copied().unwrap_or(0);
            let node_guid = nodes[i].guid.unwrap_or(0).wrapping_sub(u64::from(first));
            nodes[i].guid = Some(node_guid);
            nodes[i].lid = 0;
            let first = *ca_nodes.entry(node_guid).or_insert(i);
            if first != i {
                remap[i] = first;
                let np = nodes[i].nports;
                nodes[first].nports = nodes[first].nports.max(np);
                nodes[i].listed = false;
            }
        }
    }
    for e in entries.iter_mut() {
        e.node = remap[e.node];
    }
    // nodes merged away stay as empty slots; drop them and renumber
    let keep: Vec<bool> = (0..nodes.len()).map(|i| remap[i] == i).collect();
    let mut new_index = vec![0usize; nodes.len()];
    let mut k = 0;
    for i in 0..nodes.len() {
        new_index[i] = k;
        k += usize::from(keep[i]);
    }
    let mut i = 0;
    nodes.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    for e in entries.iter_mut() {
        e.node = new_index[e.node];
    }
}

/// Find every peer among the listed nodes (by GUID when printed, else by LID), make a
/// node of each peer the text does not list, and write the port records: one per line,
/// and the far end's when its own node does not list that port.
fn resolve_peers<'a>(
    nodes: &mut Vec<LNode<'a>>,
    entries: &[Entry<'a>],
    (raw, ports): (&mut Assembly<'a>, &mut IndexPorts),
) -> Vec<CouldBe> {
    let listed = nodes.len();
    // listed nodes and ports by LID and GUID
    let mut switch_by_lid: FxMap<u32, usize> = FxMap::default();
    let mut switch_by_guid: FxMap<u64, usize> = FxMap::default();
    let mut ca_port_by_lid: FxMap<u32, usize> = FxMap::default();
    let mut ca_port_by_guid: FxMap<u64, usize> = FxMap::default();
    for (i, n) in nodes.iter().enumerate() {
        if n.kind == Some(NodeKind::Switch) {
            if n.lid != 0 {
                switch_by_lid.insert(n.lid, i);
            }
            if let Some(g) = n.guid {
                switch_by_guid.insert(g, i);
            }
        }
    }
    let mut own: FxMap<(usize, u32), ()> = FxMap::default();
    for e in entries {
        own.insert((e.node, e.l.port), ());
        if nodes[e.node].kind != Some(NodeKind::Switch) {
            if e.l.lid != 0 {
                ca_port_by_lid.insert(e.l.lid, e.node);
            }
            if let Some(g) = e.l.guid {
                ca_port_by_guid.insert(g, e.node);
            }
        }
    }
    // peers not listed: keyed by GUID when printed, else by LID
    let mut unlisted: FxMap<(bool, u64), usize> = FxMap::default();
    let mut far_of: Vec<Option<usize>> = Vec::with_capacity(entries.len());
    for e in entries {
        let Far::Port { guid, lid, port, desc } = e.l.far else {
            far_of.push(None);
            continue;
        };
        let known = match guid {
            Some(g) => switch_by_guid.get(&g).or_else(|| ca_port_by_guid.get(&g)),
            None => switch_by_lid.get(&lid).or_else(|| ca_port_by_lid.get(&lid)),
        };
        let far = match known {
            Some(&k) => k,
            None => {
                let key = guid.map_or((false, u64::from(lid)), |g| (true, g));
                let k = *unlisted.entry(key).or_insert_with(|| {
                    let mut peer = LNode::new(None, guid, desc, e.line, false);
                    peer.lid = lid;
                    nodes.push(peer);
                    nodes.len() - 1
                });
                nodes[k].reached.push(port);
                k
            }
        };
        nodes[far].nports = nodes[far].nports.max(port);
        far_of.push(Some(far));
    }
    for n in nodes[listed..].iter_mut() {
        let kind = peer_kind(&n.reached);
        n.kind = Some(kind);
        match (kind, n.guid) {
            (NodeKind::Switch, _) => {}
            (_, Some(g)) => {
                // a CA port's GUID: the node is one port of it
                n.guid = Some(g.wrapping_sub(u64::from(n.reached.first().copied().unwrap_or(0))));
                n.lid = 0;
            }
            (_, None) => {}
        }
    }
    let mut could = Vec::new();
    for (e, far) in entries.iter().zip(&far_of) {
        match (e.l.far, far) {
            (Far::Port { port, lid, .. }, Some(far)) => {
                let me = e.node;
                let far_is_ca = nodes[*far].kind != Some(NodeKind::Switch);
                let (end, guid) = port_record(e, me, *far, port, nodes);
                ports.push(end, guid);
                if !own.contains_key(&(*far, port)) {
                    // the far node does not list this port: its end is this line's
                    let mut back = IndexPort::new((*far, port), (me, e.l.port), (e.l.width, e.l.speed), e.line);
                    back.lid = lid16(lid).filter(|_| far_is_ca).unwrap_or(0);
                    ports.push(back, None);
                }
                if e.l.could != CouldBeRate::default() {
                    could.push(CouldBe {
                        node: me as u32,
                        port: e.l.port as u8,
                        width: e.l.could.width,
                        speed: e.l.could.speed,
                    });
                }
            }
            (Far::NotAvailable, _) => raw.notes.push(Problem {
                line: e.line,
                message: format!(
                    "port {} of \"{}\" is up but its peer was not discovered (\"Port not available\"): counted as empty",
                    e.l.port, nodes[e.node].desc
                ),
            }),
            _ => {}
        }
    }
    could
}

/// The record of one port line (CA ports carry their GUID and LID).
fn port_record(e: &Entry<'_>, me: usize, far: usize, far_port: u32, nodes: &[LNode<'_>]) -> (IndexPort, Option<u64>) {
    let is_ca = nodes[me].kind != Some(NodeKind::Switch);
    let mut port = IndexPort::new((me, e.l.port), (far, far_port), (e.l.width, e.l.speed), e.line);
    if is_ca {
        port.lid = lid16(e.l.lid).unwrap_or(0);
    }
    (port, e.l.guid.filter(|_| is_ca))
}

fn raw_node<'a>(i: usize, n: &LNode<'a>) -> RawNode<'a> {
    let kind = n.kind.unwrap_or(NodeKind::Ca);
    let guid = n.guid.unwrap_or(NO_GUID_BASE | i as u64);
    let mut node = RawNode::by_guid(kind, n.nports, guid, n.desc.trim().to_string(), n.lid, n.line);
    if n.guid.is_none() {
        node.id = Cow::Owned(format!("{}-lid{}", &node.id[..1], n.lid));
    }
    node
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_lines_of_both_forms() {
        let l = link_line("           4    7[  ] ==( 4X           2.5 Gbps Active/  LinkUp)==>       3    3[  ] \"S-spine\" (Could be 12X Could be 10.0 Gbps)").unwrap();
        assert_eq!(
            (l.lid, l.port, l.width, l.speed),
            (4, 7, Some(Width::X4), Some(Speed::Sdr))
        );
        assert_eq!(
            l.far,
            Far::Port {
                guid: None,
                lid: 3,
                port: 3,
                desc: "S-spine"
            }
        );
        assert_eq!((l.could.width, l.could.speed), (Some(Width::X12), Some(Speed::Qdr)));
        let l = link_line("0x0000000000200002 \"                       S-leaf2\"      4    2[  ] ==( 4X     25.78125 Gbps Active/  LinkUp)==>  0x0000000000100006      6    1[  ] \"H-h3\" ( )").unwrap();
        assert_eq!(
            (l.guid, l.desc, l.speed),
            (Some(0x200002), Some("S-leaf2"), Some(Speed::Edr))
        );
        assert!(matches!(
            l.far,
            Far::Port {
                guid: Some(0x100006),
                lid: 6,
                port: 1,
                ..
            }
        ));
        let l =
            link_line("           4    1[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )").unwrap();
        assert_eq!((l.far, l.width), (Far::Down, None));
        let l = link_line("      0x0000000000100006      6    1[  ] ==( 4X 10.0 Gbps (FDR10) Active/  LinkUp)==>       4    2[ 5] \"a \"quoted\" name\" (Could be FDR10 (Found link at QDR but expected speed is FDR10))").unwrap();
        assert_eq!((l.guid, l.speed), (Some(0x100006), Some(Speed::Fdr10)));
        assert!(matches!(
            l.far,
            Far::Port {
                desc: "a \"quoted\" name",
                ..
            }
        ));
        assert_eq!(l.could.speed, Some(Speed::Fdr10));
        let l = link_line("   9   12[  ] ==( 4X 53.125 Gbps Active/  LinkUp)==>    \"Port not available\"").unwrap();
        assert_eq!(l.far, Far::NotAvailable);
        assert!(link_line("   9   12[  ] ==( 4X 53.125 Gbps Active/  LinkUp)=> 3 3[ ] \"x\" ( )").is_none());
        assert!(
            link_line("   9   12[  ] ==(  Down/ Polling)==>  3 3[ ] \"x\" ( )").is_none(),
            "down with a peer"
        );
    }

    /// Found by fuzzing: a block header among `-l` lines (a node with a stated kind and no
    /// line of its own) made the line-form pass index an empty port list.
    #[test]
    fn block_headers_mixed_into_line_form() {
        let t = "Switch: 0x0000000000200002 S-leaf2:\n\
0x0000000000200001 \"S-spine\"      3    1[  ] ==( 4X 2.5 Gbps Active/  LinkUp)==>  0x0000000000200002      4    7[  ] \"S-leaf2\" ( )\n";
        let d = super::super::parse_lenient(t, Path::new("m")).unwrap();
        assert_eq!(d.format, DumpFormat::IblinkinfoLines);
        // the header's node keeps its stated kind; the cable is read from its one line
        let leaf = d.fabric.nodes.iter().position(|n| n.guid == 0x200002).unwrap() as u32;
        assert_eq!(d.fabric.node(leaf).kind, NodeKind::Switch);
        assert_eq!(d.fabric.link_count(), 1);
    }

    #[test]
    fn headers() {
        assert_eq!(
            block_header("Switch: 0x0000000000200002 MF0;sw:MQM9700/U1:"),
            Some((NodeKind::Switch, Some(0x200002), "MF0;sw:MQM9700/U1"))
        );
        assert_eq!(
            block_header("CA: node01 HCA-1:"),
            Some((NodeKind::Ca, None, "node01 HCA-1"))
        );
        assert_eq!(block_header("Switch: S-leaf:"), None);
    }
}
