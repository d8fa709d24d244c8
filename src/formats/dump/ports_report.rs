//! The `ibnetdiscover -p` ports report: one line per port, with both ends of its cable
//! and the descriptions, but no node ids and no node GUIDs of CAs. Nodes are rebuilt
//! from the port GUIDs (switch: the node GUID; CA/router: port GUID minus port number,
//! which is what ibsim and most HCAs use).

use super::assemble::{check_port_budget, Assembly, FxMap, RawNode};
use super::grammar::{lid16, line_count, lines, shorten, truncation_hint, Cur, IndexPort, IndexPorts, Remote};
use super::{ParseOptions, Problem};
use crate::error::{Error, Result};
use crate::topology::{NodeKind, Speed, Width};
use std::path::Path;

/// One end of a ports-report line: `CA 8 1 0x0002c9000000010f` (kind, LID, port, port GUID).
type PortEnd = (NodeKind, u32, u32, u64);

/// One line of `ibnetdiscover -p`.
struct PortsLine<'a> {
    local: PortEnd,
    width: Option<Width>,
    speed: Option<Speed>,
    remote: Option<PortEnd>,
    desc: &'a str,
    remote_desc: &'a str,
}

/// `CA 8 1 0x0002c9000000010f`
fn port_end(c: &mut Cur<'_>) -> Option<PortEnd> {
    const KINDS: [(&[u8], NodeKind); 3] = [
        (b"CA", NodeKind::Ca),
        (b"SW", NodeKind::Switch),
        (b"RT", NodeKind::Router),
    ];
    let kind = c.one_of(&KINDS)?;
    (c.spaces() > 0).then_some(())?;
    let lid = c.dec_u32()?;
    (c.spaces() > 0).then_some(())?;
    let port = c.dec_u32()?;
    (c.spaces() > 0).then_some(())?;
    c.eat_str(b"0x").then_some(())?;
    let at = c.i;
    let g = match c.hex_u64() {
        Some(g) => g,
        // more than 16 digits: the end still counts as read (the cursor stops after the
        // 16th), so the line fails on the digit after it rather than reading the
        // remote end as part of a description
        None if c.i > at => 0,
        None => return None,
    };
    Some((kind, lid, port, g))
}

/// True when a line starts as a ports-report line does (`CA|SW|RT <lid>`): a line that
/// does not is no record of the report (a prompt, a banner) and is skipped.
fn looks_like_port_end(t: &str) -> bool {
    let mut c = Cur::new(t);
    c.one_of(&[(b"CA" as &[u8], ()), (b"SW", ()), (b"RT", ())]).is_some() && c.spaces() > 0 && c.dec_u32().is_some()
}

/// `CA     8  1 0x0002c9000000010f 4x SDR - SW    12  2 0x0002c90000001003 ( 'H8 HCA-1' - 'leaf L4' )`
fn ports_report_line(line: &str) -> Option<PortsLine<'_>> {
    let mut c = Cur::new(line);
    c.spaces();
    let local = port_end(&mut c)?;
    (c.spaces() > 0).then_some(())?;
    let (wa, wb) = c.word(line)?;
    (c.spaces() > 0).then_some(())?;
    let (sa, sb) = c.word(line)?;
    c.spaces();
    let remote = c.opt(|c| {
        (c.eat(b'-') && c.spaces() > 0).then_some(())?;
        port_end(c)
    });
    let descs = line[c.i..].trim();
    let (desc, remote_desc) = if remote.is_some() {
        let inner = descs.strip_prefix('(')?.strip_suffix(')')?.trim();
        match inner.find("' - '") {
            Some(k) => (
                inner[..k].strip_prefix('\'').unwrap_or(&inner[..k]),
                inner[k + 5..].strip_suffix('\'').unwrap_or(&inner[k + 5..]),
            ),
            None => (inner, ""),
        }
    } else {
        (descs.trim_matches('\''), "")
    };
    Some(PortsLine {
        local,
        width: Width::from_token(&line[wa..wb]),
        speed: Speed::from_token(&line[sa..sb]),
        remote,
        desc,
        remote_desc,
    })
}

/// True when `line` is a ports-report line (format detection).
pub(super) fn is_ports_report_line(line: &str) -> bool {
    ports_report_line(line).is_some()
}

/// Read the lines of a ports report into node and port records.
pub(super) fn read_ports_report<'a>(
    text: &'a str,
    path: &Path,
    opts: ParseOptions,
    truncated: bool,
) -> Result<Assembly<'a>> {
    // node key: switch by GUID; CA/router by its node GUID, which the report does not
    // print: ibsim and most HCAs use port GUID = node GUID + port number
    struct PNode<'a> {
        kind: NodeKind,
        guid: u64,
        desc: &'a str,
        nports: u32,
        lid: u16,
        line: usize,
    }
    let mut nodes: Vec<PNode<'a>> = Vec::new();
    let mut index: FxMap<(bool, u64), usize> = FxMap::default();
    let mut raw = Assembly::with_capacity(0, 0, opts.partial);
    let mut ports = IndexPorts::with_capacity(line_count(text));
    let mut node_of = |(kind, lid, port, g): PortEnd, desc: &'a str, line: usize, nodes: &mut Vec<PNode<'a>>| {
        let (key, guid) = if kind == NodeKind::Switch {
            ((true, g), g)
        } else {
            let ng = g.wrapping_sub(port as u64);
            ((false, ng), ng)
        };
        let i = *index.entry(key).or_insert_with(|| {
            nodes.push(PNode {
                kind,
                guid,
                desc,
                nports: 0,
                lid: 0,
                line,
            });
            nodes.len() - 1
        });
        let n = &mut nodes[i];
        n.nports = n.nports.max(port);
        if kind == NodeKind::Switch && lid != 0 {
            n.lid = lid as u16;
        }
        if n.desc.is_empty() {
            n.desc = desc;
        }
        i
    };
    for (idx, line) in lines(text).enumerate() {
        let lineno = idx + 1;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if !looks_like_port_end(t) {
            raw.skipped(lineno, t);
            continue;
        }
        let parsed = ports_report_line(t).ok_or_else(|| {
            format!(
                "malformed ports-report line `{}`: expected `CA|SW|RT <lid> <port> 0x<guid> <width> <speed> [- CA|SW|RT <lid> <port> 0x<guid> ( 'desc' - 'desc' )]`{}",
                shorten(t),
                truncation_hint(truncated, lineno, text)
            )
        });
        let parsed = parsed.and_then(|l| {
            let bad = [Some(l.local), l.remote]
                .into_iter()
                .flatten()
                .find(|e| e.2 == 0 || e.2 > 254);
            match bad {
                Some(e) => Err(format!("port {} out of range 1..=254", e.2)),
                None => Ok(l),
            }
        });
        let l = match parsed {
            Ok(l) => l,
            Err(msg) if opts.lenient => {
                raw.problems.push(Problem {
                    line: lineno,
                    message: msg,
                });
                continue;
            }
            Err(msg) => return Err(Error::at(path, lineno, msg)),
        };
        let a = node_of(l.local, l.desc, lineno, &mut nodes);
        // an unconnected port is a spare: the fabric shows it empty, as every other
        // reader does (notes are for the lines that were skipped)
        if let Some(r) = l.remote {
            let b = node_of(r, l.remote_desc, lineno, &mut nodes);
            let mut port = IndexPort::new((a, l.local.2), (b, r.2), (l.width, l.speed), lineno);
            port.lid = lid16(l.local.1).filter(|_| l.local.0 != NodeKind::Switch).unwrap_or(0);
            ports.push(port, None);
        }
    }
    if nodes.is_empty() {
        return Err(Error::at(path, 0, "no ports found in the ports report"));
    }
    // memory follows what the report describes, checked node by node
    let mut declared = 0usize;
    for n in &nodes {
        declared += n.nports.max(1) as usize + 1;
        check_port_budget(declared, ports.len(), path, n.line)?;
    }
    drop(index);
    raw.reserve(nodes.len(), declared);
    for n in &nodes {
        let node = RawNode::by_guid(n.kind, n.nports, n.guid, n.desc.to_string(), u32::from(n.lid), n.line);
        raw.add_node(node, path)?;
    }
    // a CA port's GUID: the node's and the port number (see above)
    let port_guid = |node: u32, num: u32| {
        let n = &nodes[node as usize];
        (n.kind != NodeKind::Switch).then(|| n.guid.wrapping_add(u64::from(num)))
    };
    for mut p in ports.records() {
        p.guid = port_guid(p.node, p.num);
        if let Remote::Index(far) = p.remote {
            p.remote_guid = port_guid(far as u32, p.remote_port);
        }
        raw.add_port(&p, [None, None]);
    }
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use super::super::{parse, parse_lenient, DumpFormat};
    use super::*;

    const REPORT: &str =
        "CA     8  1 0x0002c9000000010f 4x SDR - SW    12  2 0x0002c90000001003 ( 'H8 HCA-1' - 'leaf L4' )\n\
                 SW    12  2 0x0002c90000001003 4x SDR - CA     8  1 0x0002c9000000010f ( 'leaf L4' - 'H8 HCA-1' )\n\
                 SW    12  3 0x0002c90000001003 4x SDR                                    'leaf L4'\n";

    #[test]
    fn ports_report() {
        let d = parse(REPORT, Path::new("p")).unwrap().strict(Path::new("p")).unwrap();
        assert_eq!(d.format, DumpFormat::Ports);
        assert_eq!(d.fabric.link_count(), 1);
        let ca = d.fabric.cas().next().unwrap();
        assert_eq!(d.fabric.port(ca, 1).guid, 0x0002c9000000010f);
        assert_eq!(d.fabric.port(ca, 1).lid, 8);
        // the line of the unconnected port is read (port 3 exists), not noted
        let sw = d.fabric.switches().next().unwrap();
        assert_eq!((d.fabric.node(sw).nports, d.fabric.peer(sw, 3)), (3, None));
        assert!(d.notes.is_empty(), "{:?}", d.notes);
    }

    #[test]
    fn line_grammar() {
        let l = ports_report_line("SW 12 2 0x2c9 4x EDR - CA 8 1 0x2ca ( 'a b' - 'c' )").unwrap();
        assert_eq!(
            (l.local, l.remote),
            ((NodeKind::Switch, 12, 2, 0x2c9), Some((NodeKind::Ca, 8, 1, 0x2ca)))
        );
        assert_eq!(
            (l.width, l.speed, l.desc, l.remote_desc),
            (Some(Width::X4), Some(Speed::Edr), "a b", "c")
        );
        // a dangling `-` is not a remote end: the rest is the description
        let l = ports_report_line("SW 12 3 0x2c9 4x ??? - 'x'").unwrap();
        assert_eq!((l.remote, l.speed, l.desc), (None, None, "- 'x"));
        assert!(ports_report_line("SW 12 2 0x2c9 4x EDR - CA 8 1 0x2ca 'a' - 'c'").is_none());
        assert!(ports_report_line("SW 12 2 2c9 4x EDR").is_none());
        assert!(ports_report_line("SW 12 2 0x2c9 4x EDR - CA 8 1 0x12345678901234567 ( 'a' - 'c' )").is_none());
        assert!(ports_report_line("SW 12 2 0x2c9 4x\u{a0}EDR 'd'").is_none());
    }

    #[test]
    fn bad_port_numbers_and_empty_reports() {
        let t = REPORT.replace("SW    12  3", "SW    12  300");
        let e = parse(&t, Path::new("p")).unwrap_err().to_string();
        assert!(e.starts_with("p:3: port 300 out of range 1..=254"), "{e}");
        let d = parse_lenient(&t, Path::new("p")).unwrap();
        assert_eq!(d.problems.len(), 1);
    }
}
