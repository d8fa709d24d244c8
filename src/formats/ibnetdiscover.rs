//! Reader for fabric dumps: `ibnetdiscover` output (current default format, the older
//! formats of the man page, `-g` chassis grouping, `-f` full info, `-p` port reports)
//! and ibsim net files (which share the record grammar).
//!
//! The grammar is line based: a node header (`Switch 36 "S-..." # "desc" base port 0
//! lid 3 lmc 0`, `Ca 1 "H-..." # "desc"`, `Hca`, `Rt`) followed by port lines
//! (`[3] "S-..."[7] # "desc" lid 9 4xQDR`, `[1](portguid) "S-..."[3] # lid 4 lmc 0 ...`),
//! with `switchguid=`/`caguid=`/`rtguid=` lines before the header giving GUIDs. Each
//! line is parsed with nom; anything malformed is reported with its line number and what
//! was expected. Tabs, CRLF line ends, comments and unknown lines outside records are
//! accepted (unknown ones are listed in `notes`).
//!
//! Consistency problems that do not prevent building a fabric (a link listed by one end
//! only, ends that disagree, a port beyond a node's port count, duplicate GUIDs) are
//! collected in [`Discovered::problems`]: the cabling check reports them next to what it
//! could still compare, while routing and recognition refuse them ([`Discovered::strict`]).

use crate::error::{Error, Result};
use crate::topology::{Fabric, NodeId, NodeKind, Speed, Width, NO_PEER};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_while, take_while1, take_while_m_n};
use nom::character::complete::{char, digit1, hex_digit1, space0, space1};
use nom::combinator::{map_res, opt};
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};
use std::collections::HashMap;
use std::path::Path;

/// Which dialect a dump was in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DumpFormat {
    /// `ibnetdiscover` topology output (any version).
    Ibnetdiscover,
    /// `ibnetdiscover -p` ports report.
    Ports,
    /// ibsim net file.
    IbsimNet,
}

/// A consistency problem in a dump, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub message: String,
}

/// A parsed dump.
#[derive(Clone, Debug)]
pub struct Discovered {
    pub fabric: Fabric,
    pub format: DumpFormat,
    /// Line of each node's header (for messages), by node id.
    pub node_lines: Vec<usize>,
    /// Lines that were skipped (unknown outside records), with their numbers.
    pub notes: Vec<Problem>,
    /// Inconsistencies (one-sided or contradictory links, ports out of range, duplicates).
    pub problems: Vec<Problem>,
}

impl Discovered {
    /// The fabric, or an error naming the first problem (file and line).
    pub fn strict(self, path: &Path) -> Result<Discovered> {
        if let Some(p) = self.problems.first() {
            let more = if self.problems.len() > 1 {
                format!(" (and {} more problems)", self.problems.len() - 1)
            } else {
                String::new()
            };
            return Err(Error::at(path, p.line, format!("{}{more}", p.message)));
        }
        Ok(self)
    }
}

#[derive(Clone, Debug, Default)]
struct RawPort {
    num: u32,
    guid: Option<u64>,
    remote_id: String,
    remote_port: u32,
    remote_guid: Option<u64>,
    lid: Option<u16>,
    lmc: Option<u8>,
    width: Option<Width>,
    speed: Option<Speed>,
    line: usize,
}

#[derive(Clone, Debug)]
struct RawNode {
    kind: NodeKind,
    nports: u32,
    id: String,
    guid: u64,
    desc: String,
    lid: Option<u16>,
    lmc: Option<u8>,
    ports: Vec<RawPort>,
    line: usize,
}

type PResult<'a, T> = IResult<&'a str, T>;

fn ws(i: &str) -> PResult<'_, &str> {
    space0(i)
}

fn dec_u32(i: &str) -> PResult<'_, u32> {
    map_res(digit1, str::parse::<u32>).parse(i)
}

fn hex_u64(i: &str) -> PResult<'_, u64> {
    map_res(take_while_m_n(1, 16, |c: char| c.is_ascii_hexdigit()), |h| {
        u64::from_str_radix(h, 16)
    })
    .parse(i)
}

/// `0x` hex or decimal number.
fn number_u64(i: &str) -> PResult<'_, u64> {
    alt((
        preceded(alt((tag("0x"), tag("0X"))), hex_u64),
        map_res(digit1, str::parse::<u64>),
    ))
    .parse(i)
}

fn quoted(i: &str) -> PResult<'_, &str> {
    delimited(char('"'), take_till(|c| c == '"'), char('"')).parse(i)
}

fn bracket_num(i: &str) -> PResult<'_, u32> {
    delimited(char('['), dec_u32, char(']')).parse(i)
}

fn paren_guid(i: &str) -> PResult<'_, u64> {
    delimited(char('('), preceded(opt(tag("0x")), hex_u64), char(')')).parse(i)
}

fn ext_port(i: &str) -> PResult<'_, u32> {
    delimited(tag("[ext "), dec_u32, char(']')).parse(i)
}

fn split_width_speed(tok: &str) -> (Option<Width>, Option<Speed>) {
    match tok.find('x') {
        Some(x) => (tok[..=x].parse().ok(), tok[x + 1..].parse().ok()),
        None => (None, None),
    }
}

/// Parsed port line.
fn port_line(i: &str) -> PResult<'_, RawPort> {
    let (i, num) = bracket_num(i)?;
    let (i, guid) = opt(paren_guid).parse(i)?;
    let (i, _) = opt(ext_port).parse(i)?;
    let (i, _) = ws(i)?;
    let (i, remote_id) = quoted(i)?;
    let (i, remote_port) = opt(bracket_num).parse(i)?;
    let (i, _) = opt(ext_port).parse(i)?;
    let (i, _) = ws(i)?;
    let (i, remote_guid) = opt(paren_guid).parse(i)?;
    let mut p = RawPort {
        num,
        guid,
        remote_id: remote_id.to_string(),
        remote_port: remote_port.unwrap_or(1),
        remote_guid,
        ..Default::default()
    };
    let (i, _) = ws(i)?;
    // the rest: ibsim options (w=, s=) and/or an ibnetdiscover comment
    let rest = i;
    if let Some(c) = rest.find('#') {
        let (opts, comment) = (&rest[..c], &rest[c + 1..]);
        parse_ibsim_opts(opts, &mut p);
        parse_port_comment(comment, &mut p);
    } else {
        parse_ibsim_opts(rest, &mut p);
    }
    Ok(("", p))
}

fn parse_ibsim_opts(s: &str, p: &mut RawPort) {
    for tok in s.split_whitespace() {
        if let Some(v) = tok.strip_prefix("w=") {
            p.width = match number_u64(v).map(|x| x.1) {
                Ok(1) => Some(Width::X1),
                Ok(2) => Some(Width::X4),
                Ok(4) => Some(Width::X8),
                Ok(8) => Some(Width::X12),
                _ => p.width,
            };
        } else if let Some(v) = tok.strip_prefix("s=") {
            p.speed = match number_u64(v).map(|x| x.1) {
                Ok(1) => Some(Speed::Sdr),
                Ok(2) => Some(Speed::Ddr),
                Ok(4) => Some(Speed::Qdr),
                _ => p.speed,
            };
        }
    }
}

/// Comment of a port line: `"desc" lid 9 4xSDR` (switch) or `lid 4 lmc 0 "desc" lid 9 4xSDR`
/// (CA); older dumps may lack pieces, `-f` adds ` s=1 w=2 v=4`.
fn parse_port_comment(c: &str, p: &mut RawPort) {
    let c = c.trim();
    let (before, after) = match c.find('"') {
        Some(q) => {
            let end = c[q + 1..].rfind('"').map(|e| q + 1 + e).unwrap_or(c.len());
            (&c[..q], c.get(end + 1..).unwrap_or(""))
        }
        None => ("", c),
    };
    // local lid/lmc (CA lines) before the description
    let toks: Vec<&str> = before.split_whitespace().collect();
    for w in toks.windows(2) {
        match w[0] {
            "lid" => p.lid = w[1].parse().ok(),
            "lmc" => p.lmc = w[1].parse().ok(),
            _ => {}
        }
    }
    let toks: Vec<&str> = after.split_whitespace().collect();
    let mut k = 0;
    while k < toks.len() {
        match toks[k] {
            "lid" => k += 2,
            t if t.contains('x') && !t.contains('=') => {
                let (w, s) = split_width_speed(t);
                p.width = w.or(p.width);
                p.speed = s.or(p.speed);
                k += 1;
            }
            _ => k += 1,
        }
    }
}

/// Node header: `Switch 24 "S-..." # "desc" base port 0 lid 6 lmc 0`, `Ca 2 "H-..." # "desc"`.
fn node_header(i: &str) -> PResult<'_, (NodeKind, u32, &str, &str)> {
    let (i, kind) = alt((
        tag("Switch").map(|_| NodeKind::Switch),
        tag("Hca").map(|_| NodeKind::Ca),
        tag("Ca").map(|_| NodeKind::Ca),
        tag("Rt").map(|_| NodeKind::Router),
    ))
    .parse(i)?;
    let (i, _) = space1(i)?;
    let (i, nports) = dec_u32(i)?;
    let (i, _) = space1(i)?;
    let (i, id) = quoted(i)?;
    let (i, _) = ws(i)?;
    Ok(("", (kind, nports, id, i)))
}

/// `switchguid=0x2c90000001003(2c90000001003)`, `caguid=0x...`, `rtguid=`, ibsim `+` form.
fn guid_line(i: &str) -> PResult<'_, (NodeKind, bool, u64)> {
    let (i, kind) = alt((
        tag("switchguid").map(|_| NodeKind::Switch),
        tag("hcaguids").map(|_| NodeKind::Ca),
        tag("caguid").map(|_| NodeKind::Ca),
        tag("rtguid").map(|_| NodeKind::Router),
    ))
    .parse(i)?;
    let (i, _) = ws(i)?;
    let (i, rel) = alt((char('=').map(|_| false), char('+').map(|_| true))).parse(i)?;
    let (i, _) = ws(i)?;
    let (i, g) = number_u64(i)?;
    Ok((i, (kind, rel, g)))
}

/// `CA     8  1 0x0002c9000000010f 4x SDR - SW    12  2 0x0002c90000001003 ( 'H8 HCA-1' - 'leaf L4' )`
#[allow(clippy::type_complexity)]
fn ports_report_line(
    i: &str,
) -> PResult<
    '_,
    (
        NodeKind,
        u32,
        u32,
        u64,
        Option<Width>,
        Option<Speed>,
        Option<(NodeKind, u32, u32, u64)>,
        String,
        String,
    ),
> {
    fn ty(i: &str) -> PResult<'_, NodeKind> {
        alt((
            tag("CA").map(|_| NodeKind::Ca),
            tag("SW").map(|_| NodeKind::Switch),
            tag("RT").map(|_| NodeKind::Router),
        ))
        .parse(i)
    }
    fn end(i: &str) -> PResult<'_, (NodeKind, u32, u32, u64)> {
        let (i, t) = ty(i)?;
        let (i, _) = space1(i)?;
        let (i, lid) = dec_u32(i)?;
        let (i, _) = space1(i)?;
        let (i, port) = dec_u32(i)?;
        let (i, _) = space1(i)?;
        let (i, _) = tag("0x")(i)?;
        let (i, g) = hex_u64(i)?;
        Ok((i, (t, lid, port, g)))
    }
    let (i, _) = ws(i)?;
    let (i, (t, lid, port, g)) = end(i)?;
    let (i, _) = space1(i)?;
    let (i, w) = take_while1(|c: char| !c.is_whitespace()).parse(i)?;
    let (i, _) = space1(i)?;
    let (i, s) = take_while1(|c: char| !c.is_whitespace()).parse(i)?;
    let (i, _) = ws(i)?;
    let (i, remote) = opt(preceded((char('-'), space1), end)).parse(i)?;
    let (i, _) = ws(i)?;
    let (i, descs) = take_while(|_| true).parse(i)?;
    let descs = descs.trim();
    let (d1, d2) = if remote.is_some() {
        let inner = descs.trim_start_matches('(').trim_end_matches(')').trim();
        match inner.find("' - '") {
            Some(k) => (
                inner[..k].trim_start_matches('\'').to_string(),
                inner[k + 5..].trim_end_matches('\'').to_string(),
            ),
            None => (inner.to_string(), String::new()),
        }
    } else {
        (descs.trim_matches('\'').to_string(), String::new())
    };
    Ok((i, (t, lid, port, g, w.parse().ok(), s.parse().ok(), remote, d1, d2)))
}

fn is_ports_report(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| ports_report_line(l).is_ok())
        .unwrap_or(false)
}

/// Parse a dump of any supported format. `path` is used in messages only.
pub fn parse(text: &str, path: &Path) -> Result<Discovered> {
    if text.trim().is_empty() {
        return Err(Error::at(
            path,
            0,
            "empty file: expected ibnetdiscover output or an ibsim net file",
        ));
    }
    if is_ports_report(text) {
        return parse_ports_report(text, path);
    }
    parse_records(text, path)
}

/// Read and parse a dump file.
pub fn read(path: &Path) -> Result<Discovered> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    let text = String::from_utf8_lossy(&bytes);
    parse(&text, path)
}

fn parse_records(text: &str, path: &Path) -> Result<Discovered> {
    let mut nodes: Vec<RawNode> = Vec::new();
    let mut notes = Vec::new();
    let mut next_guid: HashMap<NodeKind, u64> = HashMap::from([
        (NodeKind::Ca, 0x100000),
        (NodeKind::Switch, 0x200000),
        (NodeKind::Router, 0x300000),
    ]);
    let mut explicit_guid: Option<(NodeKind, u64)> = None;
    let mut in_record = false;
    let mut saw_ibnd_names = false;
    for (idx, raw) in text.lines().enumerate() {
        let lineno = idx + 1;
        let line = raw.trim_end_matches('\r');
        let t = line.trim();
        if t.is_empty() {
            in_record = false;
            continue;
        }
        if in_record && (t.starts_with('[') || t.starts_with('@')) {
            let node = nodes.last_mut().expect("in a record");
            let body = t.trim_start_matches('@');
            match port_line(body) {
                Ok((_, mut p)) => {
                    p.line = lineno;
                    saw_ibnd_names |= p.remote_id.starts_with("S-") || p.remote_id.starts_with("H-");
                    node.ports.push(p);
                }
                Err(_) => {
                    return Err(Error::at(
                        path,
                        lineno,
                        format!("malformed port line `{}`: expected `[port] \"remote node\"[remote port]` and an optional `# ...` comment", shorten(t)),
                    ))
                }
            }
            continue;
        }
        in_record = false;
        if t.starts_with('#') {
            continue;
        }
        if t.starts_with("Switch") || t.starts_with("Hca") || t.starts_with("Ca") || t.starts_with("Rt") {
            let (_, (kind, nports, id, rest)) = node_header(t).map_err(|_| {
                Error::at(path, lineno, format!("malformed node header `{}`: expected `Switch|Ca|Hca|Rt <ports> \"<node id>\" # \"<description>\"`", shorten(t)))
            })?;
            if nports == 0 || nports > 254 {
                return Err(Error::at(
                    path,
                    lineno,
                    format!("node \"{id}\" has {nports} ports; a node has 1..=254"),
                ));
            }
            let (desc, lid, lmc) = header_comment(rest);
            let guid = match explicit_guid.take() {
                Some((k, g)) if k == kind => g,
                _ => guid_from_id(id).unwrap_or_else(|| *next_guid.get(&kind).unwrap_or(&0)),
            };
            let step = if kind == NodeKind::Switch { 1 } else { nports as u64 + 1 };
            next_guid.insert(kind, guid + step);
            nodes.push(RawNode {
                kind,
                nports,
                id: id.to_string(),
                guid,
                desc: desc.unwrap_or_else(|| id.to_string()),
                lid,
                lmc,
                ports: Vec::new(),
                line: lineno,
            });
            in_record = true;
            continue;
        }
        if let Ok((_, (kind, rel, g))) = guid_line(t) {
            let g = if rel {
                next_guid.get(&kind).copied().unwrap_or(0) + g
            } else {
                g
            };
            next_guid.insert(kind, g);
            explicit_guid = Some((kind, g));
            continue;
        }
        let known_prefixes = [
            "vendid=",
            "devid=",
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
        if known_prefixes.iter().any(|p| t.starts_with(p)) {
            continue;
        }
        notes.push(Problem {
            line: lineno,
            message: format!("skipped unknown line `{}`", shorten(t)),
        });
    }
    if nodes.is_empty() {
        return Err(Error::at(
            path,
            0,
            "no nodes found: expected `Switch`/`Ca` records (ibnetdiscover) or an ibsim net file",
        ));
    }
    let format = if saw_ibnd_names || text.contains("# Topology file") {
        DumpFormat::Ibnetdiscover
    } else {
        DumpFormat::IbsimNet
    };
    assemble(nodes, format, notes)
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 80 {
        format!("{}...", s.chars().take(77).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Node id `S-0002c90000001003` / `H-...` / `R-...` carries the GUID.
fn guid_from_id(id: &str) -> Option<u64> {
    let hex = id
        .strip_prefix("S-")
        .or_else(|| id.strip_prefix("H-"))
        .or_else(|| id.strip_prefix("R-"))?;
    let (rest, g) = hex_digit1::<&str, nom::error::Error<&str>>(hex).ok()?;
    if !rest.is_empty() || g.len() > 16 {
        return None;
    }
    u64::from_str_radix(g, 16).ok()
}

/// Header comment: `# "desc" base port 0 lid 6 lmc 0` -> (desc, lid, lmc).
fn header_comment(rest: &str) -> (Option<String>, Option<u16>, Option<u8>) {
    let Some(c) = rest.find('#') else {
        return (None, None, None);
    };
    let c = rest[c + 1..].trim();
    let (desc, tail) = if let Some(stripped) = c.strip_prefix('"') {
        // the description ends at the last quote before the port-0 info
        let end = ["\" base port", "\" enhanced port", "\" lid "]
            .iter()
            .filter_map(|m| stripped.rfind(m))
            .min()
            .or_else(|| stripped.rfind('"'))
            .unwrap_or(stripped.len());
        (Some(stripped[..end].to_string()), stripped.get(end + 1..).unwrap_or(""))
    } else {
        (Some(c.to_string()).filter(|s| !s.is_empty()), "")
    };
    let toks: Vec<&str> = tail.split_whitespace().collect();
    let (mut lid, mut lmc) = (None, None);
    for w in toks.windows(2) {
        match w[0] {
            "lid" => lid = w[1].parse().ok(),
            "lmc" => lmc = w[1].parse().ok(),
            _ => {}
        }
    }
    (desc, lid, lmc)
}

/// Build the fabric from raw records and check both ends of every link.
fn assemble(raw: Vec<RawNode>, format: DumpFormat, notes: Vec<Problem>) -> Result<Discovered> {
    let mut fabric = Fabric::new();
    let mut problems = Vec::new();
    let mut by_id: HashMap<&str, NodeId> = HashMap::with_capacity(raw.len());
    let mut by_guid: HashMap<u64, usize> = HashMap::with_capacity(raw.len());
    let mut node_lines = Vec::with_capacity(raw.len());
    for (i, n) in raw.iter().enumerate() {
        if let Some(&j) = by_guid.get(&n.guid) {
            problems.push(Problem {
                line: n.line,
                message: format!(
                    "duplicate GUID 0x{:016x}: node \"{}\" and node \"{}\" (line {})",
                    n.guid, n.id, raw[j].id, raw[j].line
                ),
            });
        } else {
            by_guid.insert(n.guid, i);
        }
        let id = fabric
            .add_node(n.kind, n.nports, n.guid, n.id.clone(), n.desc.clone())
            .map_err(|e| Error::at("", n.line, e.to_string()))?;
        if by_id.insert(n.id.as_str(), id).is_some() {
            problems.push(Problem {
                line: n.line,
                message: format!("node id \"{}\" appears twice", n.id),
            });
        }
        node_lines.push(n.line);
        if let Some(lid) = n.lid {
            let p0 = fabric.port_index(id, 0) as usize;
            fabric.ports[p0].lid = lid;
            fabric.ports[p0].lmc = n.lmc.unwrap_or(0);
        }
    }
    // (node, port) -> what that end claims: (remote node, remote port, line)
    let mut claims: HashMap<(NodeId, u32), (NodeId, u32, usize)> = HashMap::new();
    for (i, n) in raw.iter().enumerate() {
        let me = i as NodeId;
        for p in &n.ports {
            if p.num == 0 || p.num > n.nports {
                problems.push(Problem {
                    line: p.line,
                    message: format!(
                        "port {} is beyond node \"{}\" which has ports 1..={}",
                        p.num, n.id, n.nports
                    ),
                });
                continue;
            }
            let Some(&other) = by_id.get(p.remote_id.as_str()) else {
                problems.push(Problem {
                    line: p.line,
                    message: format!(
                        "port {} of \"{}\" leads to unknown node \"{}\"",
                        p.num, n.id, p.remote_id
                    ),
                });
                continue;
            };
            let on = &raw[other as usize];
            if p.remote_port == 0 || p.remote_port > on.nports {
                problems.push(Problem {
                    line: p.line,
                    message: format!(
                        "port {} of \"{}\" leads to port {} of \"{}\", which has ports 1..={}",
                        p.num, n.id, p.remote_port, on.id, on.nports
                    ),
                });
                continue;
            }
            let idx = fabric.port_index(me, p.num as u8) as usize;
            if let Some(g) = p.guid {
                fabric.ports[idx].guid = g;
            }
            if let Some(w) = p.width {
                fabric.ports[idx].width = w;
            }
            if let Some(s) = p.speed {
                fabric.ports[idx].speed = s;
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
            if let Some(prev) = claims.insert((me, p.num), (other, p.remote_port, p.line)) {
                problems.push(Problem {
                    line: p.line,
                    message: format!("port {} of \"{}\" is listed twice (also line {})", p.num, n.id, prev.2),
                });
            }
        }
    }
    let mut keys: Vec<(NodeId, u32)> = claims.keys().copied().collect();
    keys.sort_unstable();
    for (a, pa) in keys {
        let (b, pb, line) = claims[&(a, pa)];
        match claims.get(&(b, pb)) {
            Some(&(a2, pa2, _)) if a2 == a && pa2 == pa => {
                if (a, pa) < (b, pb) {
                    let (ia, ib) = (fabric.port_index(a, pa as u8) as usize, fabric.port_index(b, pb as u8) as usize);
                    if fabric.ports[ia].peer == NO_PEER && fabric.ports[ib].peer == NO_PEER {
                        fabric.ports[ia].peer = ib as u32;
                        fabric.ports[ib].peer = ia as u32;
                        // one end may carry width/speed only (ibsim options)
                        let (wa, wb) = (fabric.ports[ia].width, fabric.ports[ib].width);
                        let w = wa.min(wb);
                        let s = fabric.ports[ia].speed.min(fabric.ports[ib].speed);
                        for k in [ia, ib] {
                            fabric.ports[k].width = w;
                            fabric.ports[k].speed = s;
                        }
                    }
                }
            }
            Some(&(a2, pa2, line2)) => problems.push(Problem {
                line,
                message: format!(
                    "ends disagree: \"{}\"[{pa}] lists \"{}\"[{pb}], but \"{}\"[{pb}] lists \"{}\"[{pa2}] (line {line2})",
                    raw[a as usize].id, raw[b as usize].id, raw[b as usize].id, raw[a2 as usize].id
                ),
            }),
            None => {
                // ibnetdiscover lists both ends of every link it found; a missing end means
                // a truncated or hand-edited dump
                problems.push(Problem {
                    line,
                    message: format!(
                        "link listed by one end only: \"{}\"[{pa}] -> \"{}\"[{pb}] (the record of \"{}\" does not list port {pb})",
                        raw[a as usize].id, raw[b as usize].id, raw[b as usize].id
                    ),
                })
            }
        }
    }
    Ok(Discovered {
        fabric,
        format,
        node_lines,
        notes,
        problems,
    })
}

fn parse_ports_report(text: &str, path: &Path) -> Result<Discovered> {
    // node key: switch by GUID; CA/router port by (node GUID guess = port GUID - port)
    struct PNode {
        kind: NodeKind,
        guid: u64,
        desc: String,
        nports: u32,
        lid: u16,
        line: usize,
    }
    let mut nodes: Vec<PNode> = Vec::new();
    let mut index: HashMap<(bool, u64), usize> = HashMap::new();
    let mut links: Vec<(usize, u32, usize, u32, Option<Width>, Option<Speed>, usize, u16, u16)> = Vec::new();
    let mut notes = Vec::new();
    let mut node_of =
        |kind: NodeKind, port: u32, g: u64, desc: &str, lid: u32, line: usize, nodes: &mut Vec<PNode>| -> usize {
            let (key, guid) = if kind == NodeKind::Switch {
                ((true, g), g)
            } else {
                ((false, g - port as u64), g - port as u64)
            };
            let i = *index.entry(key).or_insert_with(|| {
                nodes.push(PNode {
                    kind,
                    guid,
                    desc: desc.to_string(),
                    nports: 0,
                    lid: 0,
                    line,
                });
                nodes.len() - 1
            });
            let n = &mut nodes[i];
            n.nports = n.nports.max(port);
            if kind == NodeKind::Switch {
                n.lid = lid as u16;
            }
            if n.desc.is_empty() {
                n.desc = desc.to_string();
            }
            i
        };
    for (idx, raw) in text.lines().enumerate() {
        let lineno = idx + 1;
        let t = raw.trim_end_matches('\r').trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let Ok((_, (kind, lid, port, g, w, s, remote, d1, d2))) = ports_report_line(t) else {
            return Err(Error::at(
                path,
                lineno,
                format!("malformed ports-report line `{}`: expected `CA|SW|RT <lid> <port> 0x<guid> <width> <speed> [- CA|SW|RT <lid> <port> 0x<guid> ( 'desc' - 'desc' )]`", shorten(t)),
            ));
        };
        if port == 0 || port > 254 {
            return Err(Error::at(path, lineno, format!("port {port} out of range 1..=254")));
        }
        let a = node_of(kind, port, g, &d1, lid, lineno, &mut nodes);
        if let Some((rk, rlid, rport, rg)) = remote {
            if rport == 0 || rport > 254 {
                return Err(Error::at(
                    path,
                    lineno,
                    format!("remote port {rport} out of range 1..=254"),
                ));
            }
            let b = node_of(rk, rport, rg, &d2, rlid, lineno, &mut nodes);
            let lid_a = if kind == NodeKind::Switch { 0 } else { lid as u16 };
            let lid_b = if rk == NodeKind::Switch { 0 } else { rlid as u16 };
            links.push((a, port, b, rport, w, s, lineno, lid_a, lid_b));
        } else {
            notes.push(Problem {
                line: lineno,
                message: format!("port {port} of '{d1}' is not connected"),
            });
        }
    }
    let raw: Vec<RawNode> = nodes
        .iter()
        .map(|n| {
            let prefix = match n.kind {
                NodeKind::Switch => "S",
                NodeKind::Ca => "H",
                NodeKind::Router => "R",
            };
            RawNode {
                kind: n.kind,
                nports: n.nports.max(1),
                id: format!("{prefix}-{:016x}", n.guid),
                guid: n.guid,
                desc: n.desc.clone(),
                lid: (n.kind == NodeKind::Switch).then_some(n.lid),
                lmc: Some(0),
                ports: Vec::new(),
                line: n.line,
            }
        })
        .collect();
    let mut raw = raw;
    for &(a, pa, b, pb, w, s, line, lid_a, _) in &links {
        let rid = raw[b].id.clone();
        let rg = (raw[b].kind != NodeKind::Switch).then(|| raw[b].guid + pb as u64);
        let g = (raw[a].kind != NodeKind::Switch).then(|| raw[a].guid + pa as u64);
        raw[a].ports.push(RawPort {
            num: pa,
            guid: g,
            remote_id: rid,
            remote_port: pb,
            remote_guid: rg,
            lid: (lid_a != 0).then_some(lid_a),
            lmc: None,
            width: w,
            speed: s,
            line,
        });
    }
    let mut d = assemble(raw, DumpFormat::Ports, notes)?;
    d.format = DumpFormat::Ports;
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FT2: &str = "#\n# Topology file: generated on Sun Nov 22 04:08:17 2026\n#\n\
# Initiated from node 0002c90000000100 port 0002c90000000101\n\n\
vendid=0x0\ndevid=0x0\nsysimgguid=0x2c90000001003\nswitchguid=0x2c90000001003(2c90000001003)\n\
Switch\t4 \"S-0002c90000001003\"\t\t# \"leaf L4\" base port 0 lid 12 lmc 0\n\
[1]\t\"H-0002c9000000010c\"[1](2c9000000010d) \t\t# \"H7 HCA-1\" lid 7 4xSDR\n\
[3]\t\"S-0002c90000002000\"[4]\t\t# \"spine S1\" lid 13 4xQDR\n\n\
switchguid=0x2c90000002000(2c90000002000)\n\
Switch\t4 \"S-0002c90000002000\"\t\t# \"spine S1\" base port 0 lid 13 lmc 0\n\
[4]\t\"S-0002c90000001003\"[3]\t\t# \"leaf L4\" lid 12 4xQDR\n\n\
vendid=0x2c9\ndevid=0x5a44\ncaguid=0x2c9000000010c\n\
Ca\t1 \"H-0002c9000000010c\"\t\t# \"H7 HCA-1\"\n\
[1](2c9000000010d) \t\"S-0002c90000001003\"[1]\t\t# lid 7 lmc 1 \"leaf L4\" lid 12 4xSDR\n";

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
    fn ports_report() {
        let t = "CA     8  1 0x0002c9000000010f 4x SDR - SW    12  2 0x0002c90000001003 ( 'H8 HCA-1' - 'leaf L4' )\n\
                 SW    12  2 0x0002c90000001003 4x SDR - CA     8  1 0x0002c9000000010f ( 'leaf L4' - 'H8 HCA-1' )\n\
                 SW    12  3 0x0002c90000001003 4x SDR                                    'leaf L4'\n";
        let d = parse(t, Path::new("p")).unwrap().strict(Path::new("p")).unwrap();
        assert_eq!(d.format, DumpFormat::Ports);
        assert_eq!(d.fabric.link_count(), 1);
        let ca = d.fabric.cas().next().unwrap();
        assert_eq!(d.fabric.port(ca, 1).guid, 0x0002c9000000010f);
        assert_eq!(d.fabric.port(ca, 1).lid, 8);
        assert_eq!(d.notes.len(), 1);
    }

    #[test]
    fn ibsim_net_round_trip() {
        use crate::topology::lsft::{build, LsftParams};
        use crate::topology::BuildOptions;
        let (f, _) = build(
            &LsftParams {
                order: 3,
                two_sided: true,
                hosts_per_leaf: None,
            },
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
}
