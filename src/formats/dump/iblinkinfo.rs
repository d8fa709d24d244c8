//! `iblinkinfo` output as a topology source: the default block form (`Switch: 0x… desc:`
//! and `CA: desc:` headers, one line per port), the line form (`-l`: every line starts
//! with the port's GUID and its node's description) and one switch (`-S GUID`).
//!
//! The text names a peer by LID and port (and in `-l` by GUID), so the fabric is built
//! in two passes: the lines first, then every peer resolved against the nodes the text
//! lists. A peer without a block of its own (`-S`, `--switches-only`) becomes a node of
//! its own; its kind is read from how it is reached (see [`LNode::peer_kind`]). A port that is
//! `Down` is an empty port; "Could be" hints are kept for the slow-cable report.

use super::assemble::{Assembly, FxMap};
use super::grammar::{find_seq, lines, shorten, truncation_hint, Cur};
use super::{CouldBe, DumpFormat, ParseOptions, Problem};
use crate::error::{Error, Result};
use crate::topology::{NodeKind, Speed, Width};
use peers::{LNode, Lines};
use std::path::Path;

mod peers;

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

/// Read iblinkinfo output into node and port records, and say which form it was.
pub(super) fn read_iblinkinfo<'a>(
    text: &'a str,
    path: &Path,
    opts: ParseOptions,
    truncated: bool,
) -> Result<(Assembly<'a>, DumpFormat, Vec<CouldBe>)> {
    let mut raw = Assembly::with_capacity(0, 0, opts.partial);
    let mut nodes: Vec<LNode<'a>> = Vec::new();
    let mut read = Lines::with_capacity(port_lines_at_most(text));
    // -l: node by the GUID its lines start with
    let mut by_line_guid: FxMap<u64, u32> = FxMap::default();
    let mut block: Option<u32> = None;
    let mut line_form = false;
    for (idx, line) in lines(text).enumerate() {
        let lineno = idx + 1;
        let t = line.trim_end();
        if t.trim().is_empty() {
            continue;
        }
        if let Some((kind, guid, desc)) = block_header(t) {
            nodes.push(LNode::new(Some(kind), guid, desc, lineno));
            block = Some(nodes.len() as u32 - 1);
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
                nodes.push(LNode::new(None, Some(g), desc, lineno));
                nodes.len() as u32 - 1
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
        nodes[node as usize].lists(&l);
        read.push(&l, node, lineno);
    }
    drop(by_line_guid);
    let could = peers::assemble(nodes, read, line_form, &mut raw, path)?;
    let format = if line_form {
        DumpFormat::IblinkinfoLines
    } else {
        DumpFormat::Iblinkinfo
    };
    Ok((raw, format, could))
}

/// At most one port line per line that holds a `>` (each has `==>`): the lines are
/// sized once, where growing by doubling would hold up to twice them.
fn port_lines_at_most(text: &str) -> usize {
    // byte sums over short blocks: the compiler turns them into vector compares
    let (mut arrows, mut newlines) = (0usize, 0usize);
    for c in text.as_bytes().chunks(128) {
        arrows += usize::from(c.iter().map(|&b| u8::from(b == b'>')).sum::<u8>());
        newlines += usize::from(c.iter().map(|&b| u8::from(b == b'\n')).sum::<u8>());
    }
    arrows.min(newlines + 1)
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
