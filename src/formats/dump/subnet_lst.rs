//! `opensm-subnet.lst`, which OpenSM writes into its dump folder (and ibdiagnet's `.lst`
//! follows): one line per cabled port, both ends in braces, then the link:
//! `{ CA Ports:02 SystemGUID:… NodeGUID:… PortGUID:… VenID:… DevID:… Rev:… {desc} LID:0002
//! PN:01 } { SW-SM Ports:08 … {desc} LID:0001 PN:05 } PHY=4x LOG=ACT SPD=2.5`.
//! Port counts, LIDs and port numbers are hexadecimal; a switch's LID is its port 0's.
//! Every link appears once from each end, so the records check both ends as usual.

use super::assemble::{check_port_budget, Assembly, FxMap, RawNode};
use super::grammar::{lid16, line_count, lines, shorten, truncation_hint, Cur, IndexPort, IndexPorts};
use super::ParseOptions;
use crate::error::{Error, Result};
use crate::topology::{NodeKind, Speed, Width};
use std::path::Path;

/// One end, as the braces give it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct End<'a> {
    kind: NodeKind,
    nports: u32,
    node_guid: u64,
    port_guid: u64,
    desc: &'a str,
    lid: u32,
    port: u32,
}

/// `Key:<hex>` after blanks.
fn field(c: &mut Cur<'_>, key: &[u8]) -> Option<u64> {
    c.spaces();
    c.eat_str(key).then_some(())?;
    c.eat(b':').then_some(())?;
    c.hex_u64()
}

/// `{ SW-SM Ports:08 SystemGUID:… NodeGUID:… PortGUID:… VenID:… DevID:… Rev:… {desc} LID:0001 PN:05 }`
fn end<'a>(c: &mut Cur<'_>, line: &'a str) -> Option<End<'a>> {
    c.spaces();
    c.eat(b'{').then_some(())?;
    c.spaces();
    const KINDS: [(&[u8], NodeKind); 3] = [
        (b"SW", NodeKind::Switch),
        (b"CA", NodeKind::Ca),
        (b"Rt", NodeKind::Router),
    ];
    let kind = c.one_of(&KINDS)?;
    c.eat_str(b"-SM");
    let nports = u32::try_from(field(c, b"Ports")?).ok()?;
    field(c, b"SystemGUID")?;
    let node_guid = field(c, b"NodeGUID")?;
    let port_guid = field(c, b"PortGUID")?;
    field(c, b"VenID")?;
    field(c, b"DevID")?;
    field(c, b"Rev")?;
    c.spaces();
    c.eat(b'{').then_some(())?;
    // the description runs to the `} LID:` that follows it
    let start = c.i;
    let len = line.get(start..)?.find("} LID:")?;
    let desc = &line[start..start + len];
    c.i = start + len + 1;
    let lid = u32::try_from(field(c, b"LID")?).ok()?;
    let port = u32::try_from(field(c, b"PN")?).ok()?;
    c.spaces();
    c.eat(b'}').then_some(())?;
    Some(End {
        kind,
        nports,
        node_guid,
        port_guid,
        desc,
        lid,
        port,
    })
}

/// `PHY=4x LOG=ACT SPD=2.5` (older OpenSM: no `SPD=`): width and speed (`??` and unknown values stay unknown).
fn link(rest: &str) -> Option<(Option<Width>, Option<Speed>)> {
    let mut width = None;
    let mut speed = None;
    let mut seen = 0;
    for tok in rest.split_ascii_whitespace() {
        let (k, v) = tok.split_once('=')?;
        match k {
            "PHY" => width = Width::from_token(v),
            "LOG" => {}
            "SPD" => {
                speed = match v {
                    "2.5" => Some(Speed::Sdr),
                    "5" => Some(Speed::Ddr),
                    "10" => Some(Speed::Qdr),
                    "FDR10" => Some(Speed::Fdr10),
                    "14" => Some(Speed::Fdr),
                    "25" => Some(Speed::Edr),
                    "50" => Some(Speed::Hdr),
                    "100" => Some(Speed::Ndr),
                    _ => None,
                }
            }
            _ => return None,
        }
        seen += 1;
    }
    // OpenSM before 3.3 wrote no SPD=
    (seen >= 2).then_some((width, speed))
}

/// One line: both ends and the link.
fn lst_line(line: &str) -> Option<(End<'_>, End<'_>, Option<Width>, Option<Speed>)> {
    let mut c = Cur::new(line);
    let a = end(&mut c, line)?;
    let b = end(&mut c, line)?;
    let (w, s) = link(line.get(c.i..)?)?;
    Some((a, b, w, s))
}

/// True when `line` is a subnet.lst line (format detection).
pub(super) fn is_lst_line(line: &str) -> bool {
    lst_line(line).is_some()
}

/// A node as the ends name it.
struct LNode<'a> {
    kind: NodeKind,
    guid: u64,
    nports: u32,
    desc: &'a str,
    lid: u32,
    line: usize,
}

/// The record of end `a` of a cable to `b` (node indices beside them).
fn end_record(
    ports: &mut IndexPorts,
    (me, a): (usize, &End<'_>),
    (far, b): (usize, &End<'_>),
    rate: (Option<Width>, Option<Speed>),
    line: usize,
) {
    let is_ca = a.kind != NodeKind::Switch;
    let mut port = IndexPort::new((me, a.port), (far, b.port), rate, line);
    port.lid = lid16(a.lid).filter(|_| is_ca).unwrap_or(0);
    ports.push(port, is_ca.then_some(a.port_guid));
}

/// Read the lines of a subnet.lst into node and port records. OpenSM lists every cable
/// from both ends; ibdiagnet's `.lst` (`once`) lists it once, and the far end's record is
/// made here.
pub(super) fn read_subnet_lst<'a>(
    text: &'a str,
    path: &Path,
    opts: ParseOptions,
    truncated: bool,
    once: bool,
) -> Result<Assembly<'a>> {
    let mut raw = Assembly::with_capacity(0, 0, opts.partial);
    let mut ports = IndexPorts::with_capacity(line_count(text) * (1 + usize::from(once)));
    let mut nodes: Vec<LNode<'a>> = Vec::new();
    let mut index: FxMap<u64, usize> = FxMap::default();
    for (idx, line) in lines(text).enumerate() {
        let lineno = idx + 1;
        let t = line.trim();
        // ibdiagnet's header and closing lines are comments of its format
        if t.is_empty() || (once && t.starts_with('#')) {
            continue;
        }
        let Some((a, b, width, speed)) = lst_line(t) else {
            if t.starts_with('{') {
                let msg = format!(
                    "malformed subnet.lst line `{}`: expected `{{ SW|CA|Rt Ports:NN SystemGUID:… NodeGUID:… PortGUID:… VenID:… DevID:… Rev:… {{desc}} LID:NNNN PN:NN }}` twice, then `PHY=… LOG=… SPD=…`{}",
                    shorten(t),
                    truncation_hint(truncated, lineno, text)
                );
                raw.problem(opts.lenient, path, lineno, msg)?;
            } else {
                raw.skipped(lineno, t);
            }
            continue;
        };
        if let Some(e) = [a, b].iter().find(|e| e.port == 0 || e.port > 254 || e.nports > 254) {
            let msg = format!("port {} of a node of {} ports: valid ports 1..=254", e.port, e.nports);
            raw.problem(opts.lenient, path, lineno, msg)?;
            continue;
        }
        let mut node_of = |e: &End<'a>| {
            let i = *index.entry(e.node_guid).or_insert_with(|| {
                nodes.push(LNode {
                    kind: e.kind,
                    guid: e.node_guid,
                    nports: 0,
                    desc: e.desc,
                    lid: 0,
                    line: lineno,
                });
                nodes.len() - 1
            });
            let n = &mut nodes[i];
            n.nports = n.nports.max(e.nports).max(e.port);
            if e.kind == NodeKind::Switch {
                n.lid = e.lid;
            }
            i
        };
        let me = node_of(&a);
        let far = node_of(&b);
        end_record(&mut ports, (me, &a), (far, &b), (width, speed), lineno);
        if once {
            end_record(&mut ports, (far, &b), (me, &a), (width, speed), lineno);
        }
    }
    if nodes.is_empty() {
        return Err(Error::at(path, 0, "no subnet.lst lines found"));
    }
    let declared: usize = nodes.iter().map(|n| n.nports as usize + 1).sum();
    check_port_budget(declared, ports.len(), path, 0)?;
    drop(index);
    raw.reserve(nodes.len(), declared);
    for n in &nodes {
        let node = RawNode::by_guid(n.kind, n.nports, n.guid, n.desc.to_string(), n.lid, n.line);
        raw.add_node(node, path)?;
    }
    for p in ports.records() {
        raw.add_port(&p, [None, None]);
    }
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "{ CA Ports:02 SystemGUID:0000000000100000 NodeGUID:0000000000100000 PortGUID:0000000000100001 VenID:000000 DevID:0000 Rev:000000A1 {H-h1} LID:0002 PN:01 } { SW-SM Ports:24 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:00000000 DevID:0000 Rev:000000A1 {S-leaf1 {x}} LID:00A1 PN:1F } PHY=4x LOG=ACT SPD=2.5";

    #[test]
    fn both_ends_in_hex() {
        let (a, b, w, s) = lst_line(LINE).unwrap();
        assert_eq!(
            (a.kind, a.nports, a.port_guid, a.desc, a.lid, a.port),
            (NodeKind::Ca, 2, 0x100001, "H-h1", 2, 1)
        );
        assert_eq!(
            (b.kind, b.nports, b.desc, b.lid, b.port),
            (NodeKind::Switch, 0x24, "S-leaf1 {x}", 0xa1, 0x1f)
        );
        assert_eq!((w, s), (Some(Width::X4), Some(Speed::Sdr)));
        assert!(lst_line(&LINE.replace("SPD=2.5", "SPD=2.5 X=1")).is_none());
        assert!(lst_line(&LINE.replace(" PN:01 }", " PN:01")).is_none());
        let (.., s) = lst_line(&LINE.replace("SPD=2.5", "SPD=??")).unwrap();
        assert_eq!(s, None);
    }
}
