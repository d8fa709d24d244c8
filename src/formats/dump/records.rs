//! Lines to node and port records, for `ibnetdiscover` output (the default format, the
//! older formats of its man page, `-g` grouping, `-f` full info) and ibsim net files,
//! which share the record grammar: GUID lines, a node header, its port lines.
//!
//! The GUIDs of nodes come from, in order: the GUID line just before the header, the
//! node id (`S-<guid>`), or ibsim's rule that the next node of a kind takes the next GUID.

use super::assemble::{Assembly, RawNode};
use super::grammar::{
    for_line_starts, guid_from_id, guid_line, header_comment, leading_port, lines, node_header, port_line,
    record_lines, short_lines, shorten, trim_line, truncation_hint, Lines,
};
use super::netfast::{bare_guid_line_at, bare_port_at, plain_port_line};
use super::{DumpFormat, ParseOptions, Problem};
use crate::error::{Error, Result};
use crate::formats::text::{check_label, escape_controls, MAX_DESC, MAX_NAME};
use crate::routing::lids::MAX_LMC;
use crate::topology::NodeKind;
use std::borrow::Cow;
use std::path::Path;

/// Ports any dump may declare before it has listed a single port line (256 nodes of 254
/// ports: far more than the uncabled spares of a real fabric).
pub(super) const PORT_FLOOR: usize = 256 * 255;

/// Ports a dump may declare per port line it lists: a real fabric cables most ports of
/// its switches (spares are a few per switch), so eight declared ports per listed one
/// leaves room for the emptiest real switch while keeping memory proportional to the text.
pub(super) const PORTS_PER_LINE: usize = 8;

/// Lines outside records that carry nothing for the fabric (chassis grouping, ibsim
/// directives; the vendor lines `vendid=`/`devid=` are skipped before any grammar is tried).
const KNOWN: [&str; 10] = [
    "sysimgguid=",
    "Chassis ",
    "Non-Chassis Nodes",
    "Hostname:",
    "include",
    "do ",
    "width=",
    "speed=",
    "module=",
    "pdebug",
];

/// A port line that cannot be trusted (`message` says why): an error when parsing
/// strictly; when lenient a problem, and the port it names, if readable, is in doubt.
fn doubtful_port(
    raw: &mut Assembly<'_>,
    opts: ParseOptions,
    path: &Path,
    (line, node): (usize, usize),
    body: &str,
    message: String,
) -> Result<()> {
    if !opts.lenient {
        return Err(Error::at(path, line, message));
    }
    raw.problems.push(Problem { line, message });
    if let Some(num) = leading_port(body) {
        raw.doubt(node, num, line);
    }
    Ok(())
}

/// A node header keyword followed by a blank or the port count: the line means to be
/// a header (`Cannot open …` does not).
fn header_keyword(t: &str) -> bool {
    // the first byte first: the others are compared by `memcmp`
    let first = t.as_bytes().first().copied();
    ["Switch", "Hca", "Ca", "Rt"].iter().any(|k| {
        (k.as_bytes().first().copied() == first)
            .then(|| t.strip_prefix(k))
            .flatten()
            .and_then(|r| r.bytes().next())
            .is_some_and(|b| b == b' ' || b == b'\t' || b.is_ascii_digit())
    })
}

/// True when the comment lines at the head of the text name ibdiagnet (its header).
pub(super) fn mentions_ibdiag(text: &str) -> bool {
    lines(text)
        .map(str::trim)
        .take_while(|l| l.is_empty() || l.starts_with('#'))
        .any(|l| l.to_ascii_lowercase().contains("ibdiag"))
}

/// A line starting with `[` outside a node record. A port line there means a record's
/// header is missing (a trimmed dump): an error unless `--partial` (or lenient) keeps the
/// rest. Anything else (a pasted prompt `[root@host]# ...`) belongs to no record and is
/// skipped with a note.
fn outside_record(
    raw: &mut Assembly<'_>,
    opts: ParseOptions,
    path: &Path,
    lineno: usize,
    t: &str,
    is_port: bool,
) -> Result<()> {
    if !is_port {
        raw.notes.push(Problem {
            line: lineno,
            message: format!("skipped a line that belongs to no record: `{}`", shorten(t)),
        });
        return Ok(());
    }
    let msg = format!(
        "port line `{}` outside a node record: expected a `Switch`, `Ca`/`Hca` or `Rt` header before it",
        shorten(t)
    );
    if opts.partial {
        raw.notes.push(Problem {
            line: lineno,
            message: format!("{msg} (skipped: --partial)"),
        });
    } else if opts.lenient {
        raw.problems.push(Problem {
            line: lineno,
            message: msg,
        });
    } else {
        return Err(Error::at(
            path,
            lineno,
            format!("{msg}; the dump looks trimmed: --partial reads what is there"),
        ));
    }
    Ok(())
}

/// An upper bound on the port lines of a text that is not far off (each has a `[port]`
/// and mostly a `[remote port]`): sizing the ports once keeps the peak memory near what
/// the dump needs, where growing by doubling would hold up to three times it.
fn port_lines_at_most(text: &str) -> usize {
    // byte sums over short blocks: the compiler turns them into vector compares
    let brackets: usize = text
        .as_bytes()
        .chunks(128)
        .map(|c| usize::from(c.iter().map(|&b| u8::from(b == b'[')).sum::<u8>()))
        .sum();
    brackets / 2 + 64
}

/// The port count of the line at the start of `b` when it starts as a node header does
/// (`Switch 36 "`, `Hca\t1 "`, blanks before it allowed), its id and comment unread (`b`
/// runs on to the end of the text): the sizing pass needs no more, and the record pass
/// reads the header in full (and says what is wrong with it). Reading every header twice
/// in full, its end found first, was a twentieth of a net file's parse.
fn declared_ports(b: &[u8]) -> Option<u32> {
    let blanks = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    let at = blanks(0);
    let keyword: &[u8] = match b.get(at)? {
        b'S' => b"Switch",
        b'H' => b"Hca",
        b'C' => b"Ca",
        b'R' => b"Rt",
        _ => return None,
    };
    let head = b.get(at..at + keyword.len())?;
    if !head.iter().zip(keyword).all(|(x, k)| x == k) {
        return None;
    }
    let digits = blanks(at + keyword.len());
    let (mut n, mut i) = (0u32, digits);
    while let Some(d) = b.get(i).map(|d| d.wrapping_sub(b'0')).filter(|&d| d <= 9) {
        // nine digits at most, a u32's (the record pass refuses a count over 254)
        if i - digits == 9 {
            return None;
        }
        n = n * 10 + u32::from(d);
        i += 1;
    }
    let quote = blanks(i);
    (i > digits && quote > i && b.get(quote) == Some(&b'"')).then_some(n)
}

/// The nodes and ports (port 0 included) the headers of a text declare, within what its
/// port lines allow: the fabric is sized once instead of grown by doubling, which holds
/// up to three times its ports while it copies them. (An estimate: a line that starts as
/// a header does but is none counts too, and the sizes only decide the room reserved.)
fn declared_size(text: &str) -> (usize, usize) {
    let (mut nodes, mut ports) = (0usize, 0usize);
    let mut header = |t: &[u8]| {
        if let Some(n) = declared_ports(t) {
            nodes += 1;
            ports += n.min(crate::topology::fabric::MAX_PORTS) as usize + 1;
        }
    };
    if short_lines(text) {
        // only a line that starts with a header's first letter or a blank may be one:
        // most lines (port lines) are passed without finding their end
        let maybe = |first: u8| matches!(first, b'S' | b'C' | b'H' | b'R' | b' ' | b'\t');
        let bytes = text.as_bytes();
        for_line_starts(text, maybe, |start| header(bytes.get(start..).unwrap_or(&[])));
    } else {
        record_lines(text).for_each(|line| header(line.as_bytes()));
    }
    (nodes, ports.min(PORT_FLOOR + PORTS_PER_LINE * port_lines_at_most(text)))
}

/// The port lines of the last node from where `lines` stands, while they end at their
/// far port (`[3]\t"H7"[1]`), read straight from the text: such a line costs neither a
/// search for its end nor a trim, nor the optional fields of the general record. Returns
/// the number of the last line read (`lineno` when none was).
fn bare_port_lines<'a>(text: &'a str, lines: &mut Lines<'a>, raw: &mut Assembly<'a>, mut lineno: usize) -> usize {
    let node = (raw.nodes() - 1) as u32;
    while let Some(p) = bare_port_at(text, lines.offset()) {
        lineno += 1;
        if !raw.add_bare_port(node, &p, lineno) {
            // out of the ordinary (a port out of range, listed twice): the general way
            // says why
            let mut record = p.record();
            (record.node, record.line) = (node, lineno);
            raw.add_port(&record, [None, None]);
        }
        lines.skip_to(p.next);
    }
    lineno
}

/// Read the records of an ibnetdiscover dump or ibsim net file into the fabric, and
/// say which it was.
pub(super) fn read_records<'a>(
    text: &'a str,
    path: &Path,
    opts: ParseOptions,
    truncated: bool,
) -> Result<(Assembly<'a>, DumpFormat)> {
    let (nodes, ports) = declared_size(text);
    let mut raw = Assembly::with_capacity(nodes, ports, opts.partial);
    // ibsim's rule for GUID lines that give only a base: the next node of a kind takes it
    let mut next_guid: [u64; 3] = [0x100000, 0x200000, 0x300000];
    let slot = |k: NodeKind| match k {
        NodeKind::Ca => 0,
        NodeKind::Switch => 1,
        NodeKind::Router => 2,
    };
    let mut explicit_guid: Option<(NodeKind, u64)> = None;
    let mut sysimg: Option<u64> = None;
    let mut in_record = false;
    // ibnetdiscover's comments carry LIDs (an ibsim net file has none); ibdiagnet labels
    // the ports of NDR/XDR switches
    let mut saw_ibnd_marks = false;
    let mut saw_labels = false;
    // ports declared by the headers so far (port 0 included)
    let mut declared = 0usize;
    let mut lines = record_lines(text);
    let mut lineno = 0;
    loop {
        // a net file's GUID line, read straight from the text
        if let Some((kind, g, next)) = bare_guid_line_at(text, lines.offset()) {
            lineno += 1;
            in_record = false;
            next_guid[slot(kind)] = g;
            explicit_guid = Some((kind, g));
            lines.skip_to(next);
            continue;
        }
        let Some(line) = lines.next() else {
            break;
        };
        lineno += 1;
        let t = trim_line(line);
        if t.is_empty() {
            in_record = false;
            continue;
        }
        if in_record && t.as_bytes()[0] == b'[' {
            // the common line, read in one pass (none of the general grammar's optional
            // groups); anything else, and an LMC out of range, is the general path's
            if let Some((mut p, bare)) = plain_port_line(t).filter(|p| !p.0.lmc.is_some_and(|l| l > MAX_LMC)) {
                p.line = lineno;
                p.node = (raw.nodes() - 1) as u32;
                saw_ibnd_marks |= p.lid.is_some();
                raw.add_port(&p, [None, None]);
                // the port lines that follow, while they end at their far port (as this one
                // did: in a dump whose port lines have comments none does)
                if bare {
                    lineno = bare_port_lines(text, &mut lines, &mut raw, lineno);
                }
                continue;
            }
        }
        if t.starts_with('[') || t.starts_with('@') {
            let body = t.trim_start_matches('@');
            if !in_record || leading_port(body).is_none() {
                // `[root@host ~]#` after the last record is a prompt, not a port line
                in_record = false;
                outside_record(&mut raw, opts, path, lineno, t, port_line(body).is_some())?;
                continue;
            }
            let node = raw.nodes() - 1;
            let parsed = port_line(body);
            if let Some(l) = parsed.as_ref().and_then(|p| p.0.lmc).filter(|&l| l > MAX_LMC) {
                let msg = format!("lmc: {l} is out of range: valid 0..={MAX_LMC}");
                doubtful_port(&mut raw, opts, path, (lineno, node), body, msg)?;
                continue;
            }
            match parsed {
                Some((mut p, labels)) => {
                    p.line = lineno;
                    p.node = node as u32;
                    saw_ibnd_marks |= p.lid.is_some();
                    saw_labels |= labels != [None, None];
                    raw.add_port(&p, labels);
                }
                None => {
                    let msg = format!(
                        "malformed port line `{}`: expected `[port] \"remote node\"[remote port]` and an optional `# ...` comment{}",
                        shorten(t),
                        truncation_hint(truncated, lineno, text)
                    );
                    doubtful_port(&mut raw, opts, path, (lineno, node), body, msg)?;
                }
            }
            continue;
        }
        in_record = false;
        // a GUID line (`switchguid=`, `caguid=` ...) starts with a lower-case letter that
        // no test below takes: it is tried first
        if matches!(t.as_bytes()[0], b's' | b'h' | b'c' | b'r') {
            if let Some((kind, rel, g)) = guid_line(t) {
                let g = if rel { next_guid[slot(kind)].wrapping_add(g) } else { g };
                next_guid[slot(kind)] = g;
                explicit_guid = Some((kind, g));
                continue;
            }
        }
        // comments and the vendor lines of every record: a third of a dump's lines
        if t.starts_with('#') || t.starts_with("vendid=") || t.starts_with("devid=") {
            continue;
        }
        let keyword = header_keyword(t);
        if !keyword && raw.nodes() == 0 && ["Switch", "Hca", "Ca", "Rt"].iter().any(|k| t.starts_with(k)) {
            // before the first record: a banner or message that starts like a header
            raw.notes.push(Problem {
                line: lineno,
                message: format!("skipped a line that belongs to no record: `{}`", shorten(t)),
            });
            continue;
        }
        if keyword {
            let parsed = node_header(t).ok_or_else(|| {
                format!(
                    "malformed node header `{}`: expected `Switch|Ca|Hca|Rt <ports> \"<node id>\" # \"<description>\"`{}",
                    shorten(t),
                    truncation_hint(truncated, lineno, text)
                )
            });
            let parsed = parsed.and_then(|(kind, nports, id, rest)| {
                if nports == 0 || nports > 254 {
                    return Err(format!("node \"{}\" has {nports} ports; a node has 1..=254", escape_controls(id)));
                }
                // memory follows what the dump describes: ports declared but never listed
                // cost as much as listed ones, so they are bounded by the port lines read
                let budget = PORT_FLOOR + PORTS_PER_LINE * raw.port_lines();
                if declared + nports as usize + 1 > budget {
                    return Err(format!(
                        "ports: node \"{}\" brings the ports declared to {}, but only {} port lines were read: \
                         valid: at most {PORT_FLOOR} + {PORTS_PER_LINE} per port line (a dump lists the cabled ports of its nodes)",
                        escape_controls(id),
                        declared + nports as usize + 1,
                        raw.port_lines()
                    ));
                }
                Ok((kind, nports, id, rest))
            });
            let parsed = parsed.and_then(|(kind, nports, id, rest)| {
                let (desc, lid, lmc) = header_comment(rest);
                saw_ibnd_marks |= lid.is_some();
                if let Some(l) = lmc.filter(|&l| l > MAX_LMC) {
                    return Err(format!("lmc: {l} is out of range: valid 0..={MAX_LMC}"));
                }
                check_label("node id", id, MAX_NAME, true)
                    .and_then(|()| {
                        desc.as_deref()
                            .map_or(Ok(()), |d| check_label("description", d, MAX_DESC, false))
                    })
                    .map_err(|e| e.to_string())?;
                Ok((kind, nports, id, (desc, lid, lmc)))
            });
            let (kind, nports, id, (desc, lid, lmc)) = match parsed {
                Ok(v) => v,
                // over the port budget the text is no fabric dump: even a lenient reader
                // stops, instead of listing a problem for every one of its lines
                Err(msg) if opts.lenient && !msg.starts_with("ports:") => {
                    raw.problems.push(Problem {
                        line: lineno,
                        message: msg,
                    });
                    explicit_guid = None;
                    sysimg = None;
                    continue;
                }
                Err(msg) => return Err(Error::at(path, lineno, msg)),
            };
            declared += nports as usize + 1;
            let guid = match explicit_guid.take() {
                Some((k, g)) if k == kind => g,
                _ => guid_from_id(id).unwrap_or(next_guid[slot(kind)]),
            };
            let step = if kind == NodeKind::Switch { 1 } else { nports as u64 + 1 };
            next_guid[slot(kind)] = guid.wrapping_add(step);
            let node = RawNode {
                kind,
                nports,
                id: Cow::Borrowed(id),
                guid,
                desc: desc.unwrap_or_else(|| id.to_string()),
                lid,
                lmc,
                line: lineno,
                sysimg: sysimg.take().unwrap_or(0),
            };
            // the id, the description and the port count were checked above
            raw.add_checked_node(node, path)?;
            in_record = true;
            // its port lines, where the first ends at its far port (an ibsim net file's);
            // any other is read as a line below
            lineno = bare_port_lines(text, &mut lines, &mut raw, lineno);
            continue;
        }
        if let Some(v) = t.strip_prefix("sysimgguid=") {
            // the system image of the record that follows (servers where descriptions
            // do not name hosts)
            sysimg = v
                .split(|c: char| c.is_whitespace() || c == '#')
                .next()
                .and_then(crate::guid::hex_or_decimal);
            continue;
        }
        if KNOWN.iter().any(|p| t.starts_with(p)) {
            continue;
        }
        raw.notes.push(Problem {
            line: lineno,
            message: format!("skipped a line that belongs to no record: `{}`", shorten(t)),
        });
    }
    if raw.nodes() == 0 {
        let first = raw
            .problems
            .first()
            .map(|p| format!(" (first problem, line {}: {})", p.line, p.message));
        return Err(Error::at(
            path,
            0,
            format!(
                "no nodes found: expected `Switch`/`Ca` records (ibnetdiscover) or an ibsim net file{}",
                first.unwrap_or_default()
            ),
        ));
    }
    let format = if saw_labels || mentions_ibdiag(text) {
        DumpFormat::Ibdiagnet
    } else if saw_ibnd_marks || text.contains("# Topology file") {
        DumpFormat::Ibnetdiscover
    } else {
        DumpFormat::IbsimNet
    };
    Ok((raw, format))
}

#[cfg(test)]
mod tests {
    use super::super::test_dumps::FT2;
    use super::super::{parse, parse_lenient, DumpFormat};
    use crate::topology::{NodeKind, Speed, Width};
    use std::path::Path;

    #[test]
    fn reads_the_default_format() {
        let d = parse(FT2, Path::new("t")).unwrap().strict(Path::new("t")).unwrap();
        assert_eq!(d.format, DumpFormat::Ibnetdiscover);
        let f = &d.fabric;
        assert_eq!(f.len(), 3);
        assert_eq!(f.link_count(), 2);
        let leaf = 0;
        assert_eq!(f.node(leaf).desc, "leaf L4");
        assert_eq!(f.node(leaf).guid, 0x2c90000001003);
        assert_eq!(f.port(leaf, 0).lid, 12);
        let (peer, pp) = f.peer(leaf, 3).unwrap();
        assert_eq!((f.node(peer).desc.as_str(), pp), ("spine S1", 4));
        assert_eq!(f.port(leaf, 3).speed, Speed::Qdr);
        let h = 2;
        assert_eq!(f.node(h).kind, NodeKind::Ca);
        assert_eq!(f.port(h, 1).guid, 0x2c9000000010d);
        assert_eq!((f.port(h, 1).lid, f.port(h, 1).lmc), (7, 1));
    }

    #[test]
    fn crlf_tabs_and_comments() {
        let t = FT2.replace('\n', "\r\n");
        let d = parse(&t, Path::new("t")).unwrap();
        assert!(d.problems.is_empty(), "{:?}", d.problems);
        assert_eq!(d.fabric.link_count(), 2);
    }

    #[test]
    fn malformed_lines_name_the_line() {
        let t = FT2.replace("[3]\t\"S-0002c90000002000\"[4]", "[3]\tS-0002c90000002000[4]");
        let e = parse(&t, Path::new("d")).unwrap_err().to_string();
        assert!(e.starts_with("d:12: malformed port line"), "{e}");
        let e = parse("Switch x \"a\"\n", Path::new("d")).unwrap_err().to_string();
        assert!(e.starts_with("d:1: malformed node header"), "{e}");
        assert!(parse("", Path::new("d")).is_err());
        assert!(parse("hello\n", Path::new("d"))
            .unwrap_err()
            .to_string()
            .contains("no nodes"));
    }

    #[test]
    fn ibsim_net_round_trip() {
        use crate::families::lsft::model::{build, LsftParams};
        use crate::topology::BuildOptions;
        let (f, _) = build(
            &LsftParams::new(3, true),
            &BuildOptions {
                shuffle: Some(4),
                ..Default::default()
            },
        )
        .unwrap();
        let net = crate::formats::ibsim::write_net(&f, &["x".into()]);
        let d = parse(&net, Path::new("n")).unwrap().strict(Path::new("n")).unwrap();
        assert_eq!(d.format, DumpFormat::IbsimNet);
        assert_eq!(d.fabric, f);
    }

    /// `-g` on chassis hardware (not produced by ibsim, so written here after the grammar
    /// of ibnetdiscover's grouping output): chassis headers, section comments, chassis
    /// comments on GUID lines, external port numbers on both ends.
    #[test]
    fn grouping_output_with_chassis_and_external_ports() {
        let t = "#\n# Topology file: generated on today\n#\n# Initiated from node 0008f10403960558 port 0008f10403960559\n\n\
Chassis 1 (guid 0x8f104004115)\n\n# Spine Nodes\nvendid=0x8f1\ndevid=0x5a31\n\
sysimgguid=0x8f104004115\t\t# Chassis 1 (ISR9288)\n\
switchguid=0x8f10400411a08(8f10400411a08)\t# ISR9288 Spine 1 Chip 1\n\
Switch\t24 \"S-0008f10400411a08\"\t\t# \"Spine 1 Chip 1\" enhanced port 0 lid 7 lmc 0\n\
[3][ext 5]\t\"S-0008f10400411a09\"[7][ext 2]\t\t# \"Line 2 Chip 1\" lid 8 4xQDR\n\
\n# Line Nodes\nvendid=0x8f1\ndevid=0x5a30\n\
switchguid=0x8f10400411a09(8f10400411a09)\t# ISR9288 Line 2 Chip 1\n\
Switch\t24 \"S-0008f10400411a09\"\t\t# \"Line 2 Chip 1\" enhanced port 0 lid 8 lmc 0\n\
[7][ext 2]\t\"S-0008f10400411a08\"[3][ext 5]\t\t# \"Spine 1 Chip 1\" lid 7 4xQDR s=4 w=2 v=8\n\
[12][ext 9]\t\"H-0008f10403960558\"[1](8f10403960559) \t\t# \"node1 HCA-1\" lid 4 4xEDR s=4 w=2 v=4 e=2\n\
\n# Chassis Switches\n\n# Chassis CAs\n\nNon-Chassis Nodes\n\n\
vendid=0x2c9\ndevid=0x1003\ncaguid=0x8f10403960558\n\
Ca\t2 \"H-0008f10403960558\"\t\t# \"node1 HCA-1\" (scp)\n\
[1](8f10403960559) \t\"S-0008f10400411a09\"[12][ext 9]\t\t# lid 4 lmc 0 \"Line 2 Chip 1\" lid 8 4xEDR\n";
        let d = parse(t, Path::new("g")).unwrap().strict(Path::new("g")).unwrap();
        assert!(d.notes.is_empty(), "{:?}", d.notes);
        let f = &d.fabric;
        assert_eq!((f.len(), f.link_count()), (3, 2));
        let spine = f.name_index()["S-0008f10400411a08"];
        assert_eq!(f.node(spine).desc, "Spine 1 Chip 1");
        assert_eq!(f.port(spine, 0).lid, 7);
        let (line, lp) = f.peer(spine, 3).unwrap();
        assert_eq!((f.node(line).guid, lp), (0x8f10400411a09, 7));
        assert_eq!(
            (f.port(spine, 3).width, f.port(spine, 3).speed),
            (Width::X4, Speed::Qdr)
        );
        let ca = f.name_index()["H-0008f10403960558"];
        assert_eq!(
            f.node(ca).desc,
            "node1 HCA-1",
            "the Xsigo ` (scp)` mark is not part of it"
        );
        assert_eq!(f.port(ca, 1).speed, Speed::Edr);
        assert_eq!(f.port(ca, 1).lid, 4);
    }

    /// Labels on both ends of a line, as the issue quotes them (the real file of
    /// fixtures/public, read in tests/library/fixtures.rs, labels the near end only): the
    /// bracketed number is the port the LFTs use, the label is kept.
    #[test]
    fn ndr_cage_labels() {
        let t = "#\n# This file was generated by ibdiagnet\n#\n\n\
switchguid=0xfc6a1c0300a8a3c0(fc6a1c0300a8a3c0)\n\
Switch\t65 \"S-fc6a1c0300a8a3c0\"\t\t# \"MF0;leaf1:MQM9700/U1\" enhanced port 0 lid 1 lmc 0\n\
[1](1/1/1)\t\"S-fc6a1c0300a8a400\"[63](1/32/1)\t\t# \"MF0;spine1:MQM9700/U1\" lid 2 4xNDR\n\
[63](1/32/1)\t\"H-946dae0300630bf0\"[1](946dae0300630bf0)\t\t# \"node1 mlx5_0\" lid 3 4xNDR\n\n\
switchguid=0xfc6a1c0300a8a400(fc6a1c0300a8a400)\n\
Switch\t65 \"S-fc6a1c0300a8a400\"\t\t# \"MF0;spine1:MQM9700/U1\" enhanced port 0 lid 2 lmc 0\n\
[63](1/32/1)\t\"S-fc6a1c0300a8a3c0\"[1](1/1/1)\t\t# \"MF0;leaf1:MQM9700/U1\" lid 1 4xNDR\n\n\
caguid=0x946dae0300630bf0\n\
Ca\t1 \"H-946dae0300630bf0\"\t\t# \"node1 mlx5_0\"\n\
[1](946dae0300630bf0)\t\"S-fc6a1c0300a8a3c0\"[63](1/32/1)\t\t# lid 3 lmc 0 \"MF0;leaf1:MQM9700/U1\" lid 1 4xNDR\n";
        let d = parse(t, Path::new("n")).unwrap().strict(Path::new("n")).unwrap();
        assert_eq!(d.format, DumpFormat::Ibdiagnet);
        let f = &d.fabric;
        assert_eq!(f.link_count(), 2);
        let (leaf, spine) = (0, 1);
        assert_eq!(f.peer(leaf, 1), Some((spine, 63)));
        assert_eq!(f.peer(leaf, 63), Some((2, 1)));
        assert_eq!(f.port(leaf, 63).speed, Speed::Ndr);
        assert_eq!(
            d.port_labels
                .iter()
                .map(|(n, p, l)| (*n, *p, l.to_string()))
                .collect::<Vec<_>>(),
            vec![
                (leaf, 1, "1/1/1".to_string()),
                (leaf, 63, "1/32/1".to_string()),
                (spine, 63, "1/32/1".to_string())
            ]
        );
        // where the far end's line labels a port otherwise, the port's own line wins,
        // whichever record comes first
        let other = t.replace("\"S-fc6a1c0300a8a3c0\"[1](1/1/1)", "\"S-fc6a1c0300a8a3c0\"[1](1/0/2)");
        let (head, rest) = other.split_at(other.find("switchguid=").unwrap());
        let (leaf_rec, rest) = rest.split_at(rest[1..].find("switchguid=").unwrap() + 1);
        let spine_first = format!("{head}{rest}{leaf_rec}");
        for text in [other.as_str(), spine_first.as_str()] {
            let d = parse(text, Path::new("n")).unwrap().strict(Path::new("n")).unwrap();
            let leaf = d
                .fabric
                .nodes
                .iter()
                .position(|n| n.guid == 0xfc6a1c0300a8a3c0)
                .unwrap() as u32;
            let l = d.port_labels.iter().find(|(n, p, _)| (*n, *p) == (leaf, 1)).unwrap();
            assert_eq!(l.2.to_string(), "1/1/1", "{text}");
        }
        let cage = |s: &str| super::super::PortLabel::parse(s).unwrap().cage();
        assert_eq!(
            (cage("1/32/1"), cage("1/32/1/2"), cage("32/1")),
            ("32/1".into(), "32/1/2".into(), "32/1".into())
        );
        use super::super::PortLabel;
        assert_eq!(PortLabel::parse("1/32/1").unwrap().to_string(), "1/32/1");
        // ibdiagnet 2.10's other forms: a port by number, an HCA port by its PCI address
        let one = PortLabel::parse("65").unwrap();
        assert!(one.is_lone_number() && one.is_number(65) && one.cage() == "65");
        let pci = PortLabel::parse("B134D0F0/0/0/1").unwrap();
        assert!(!pci.is_lone_number());
        assert_eq!(
            (pci.to_string(), pci.cage()),
            ("B134D0F0/0/0/1".into(), "B134D0F0/0/0/1".into())
        );
        for bad in [
            "",
            "1/2/3/4/5",
            "1//2",
            "B1D2",
            "B1D2F",
            "x",
            "1/x",
            "-1",
            "70000",
            "65536",
            "1/",
            "/1",
            "1/+2",
            "99999999999",
        ] {
            assert!(PortLabel::parse(bad).is_none(), "{bad}");
        }
        // leading zeros and the largest number are numbers; four parts are a label
        assert!(PortLabel::parse("000065").unwrap().is_number(65));
        assert_eq!(PortLabel::parse("65535/0/1/2").unwrap().to_string(), "65535/0/1/2");
    }

    /// Which parenthesised group is a GUID and which a label: a lone number is a label
    /// only when it is the port's own number (or a GUID group follows it).
    #[test]
    fn port_guid_or_label() {
        use super::super::grammar::port_line;
        let read = |l: &str| {
            let (p, labels) = port_line(l).unwrap();
            (p.guid, labels[0].map(|l| l.to_string()), p.remote_guid)
        };
        assert_eq!(
            read("[1](2c9000010d0a1) \"S-1\"[3]"),
            (Some(0x2c9000010d0a1), None, None)
        );
        assert_eq!(read("[1](1234) \"S-1\"[3]"), (Some(0x1234), None, None));
        assert_eq!(
            read("[65](65) \"H-9\"[1](fc6a1c03008a5c08)"),
            (None, Some("65".into()), Some(0xfc6a1c03008a5c08))
        );
        assert_eq!(
            read("[1](1)(b0cf0e0300e5b948) \"S-2\"[65] # lid 25"),
            (Some(0xb0cf0e0300e5b948), Some("1".into()), None)
        );
        assert_eq!(
            read("[1](B134D0F0/0/0/1)(5c25730300c09c60) \"S-2\"[9] # lid 92"),
            (Some(0x5c25730300c09c60), Some("B134D0F0/0/0/1".into()), None)
        );
        assert_eq!(read("[3] \"H-1\"[1] (2c9)"), (None, None, Some(0x2c9)));
    }

    #[test]
    fn unknown_rates_and_truncated_last_lines() {
        // `4x???` at both ends: speed unknown, so the rate of that link is not claimed known
        let t = FT2.replace("4xQDR", "4x???");
        let d = parse(&t, Path::new("t")).unwrap();
        let f = &d.fabric;
        let i = f.port_index(0, 3) as usize;
        assert!(!d.rate_known[i]);
        assert!(d.rate_known[f.port_index(0, 1) as usize]);
        // a dump cut in the middle of a port line: strict names the line and says why
        let cut = &FT2[..FT2.rfind("\"S-0002c90000001003\"[1]").unwrap() + 8];
        let e = parse(cut, Path::new("cut")).unwrap_err().to_string();
        assert!(
            e.starts_with("cut:22: malformed port line") && e.contains("truncated"),
            "{e}"
        );
        // leniently, the line becomes a problem, its port a suspect, the rest is read
        let d = parse_lenient(cut, Path::new("cut")).unwrap();
        assert!(d.truncated);
        assert_eq!(
            d.problems.len(),
            2,
            "the bad line and the host link now one-sided: {:?}",
            d.problems
        );
        assert!(d.is_suspect(2, 1).is_some());
        assert_eq!(d.fabric.link_count(), 1);
    }

    #[test]
    fn ibsim_options_and_garbage_after_a_port() {
        let t = "Switch 4 \"A\"\n[1] \"B\"[2] w=1 s=4\n\nSwitch 4 \"B\"\n[2] \"A\"[1]\tw=1\ts=4\n";
        let d = parse(t, Path::new("n")).unwrap().strict(Path::new("n")).unwrap();
        assert_eq!(d.format, DumpFormat::IbsimNet);
        assert_eq!(
            (d.fabric.port(0, 1).width, d.fabric.port(0, 1).speed),
            (Width::X1, Speed::Qdr)
        );
        let e = parse(&t.replace("w=1 s=4", "w=1 hello"), Path::new("n"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("n:2: malformed port line"), "{e}");
        let e = parse("Switch 300 \"A\"\n", Path::new("n")).unwrap_err().to_string();
        assert!(e.contains("n:1: node \"A\" has 300 ports"), "{e}");
        let e = parse("[1] \"A\"[1]\n", Path::new("n")).unwrap_err().to_string();
        assert!(
            e.starts_with("n:1: port line `[1] \"A\"[1]` outside a node record"),
            "{e}"
        );
    }
}
