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
//! accepted (unknown ones are listed in `notes`). Grouping output (`-g`) adds
//! `Chassis N (guid ...)`, `# Spine Nodes`-style section comments, `Non-Chassis Nodes`,
//! chassis comments after GUID lines and external port numbers (`[3][ext 5]`); `-f` adds
//! ` s=1 w=2 v=4 e=1` after the rate. All of them are understood (and the external port
//! numbers and raw rate fields ignored: the cabling is the port numbers of the chips).
//!
//! Consistency problems that do not prevent building a fabric (a link listed by one end
//! only, ends that disagree, a port beyond a node's port count, duplicate GUIDs) are
//! collected in [`Discovered::problems`]: the cabling check reports them next to what it
//! could still compare, while routing and recognition refuse them ([`Discovered::strict`]).
//! The ports involved are listed in [`Discovered::suspect`] so that a check can say
//! which cables it could not compare instead of calling them missing.
//!
//! Speed matters here (a 5,000-host dump is several megabytes): node ids are borrowed
//! from the text, link claims live in a flat table indexed by global port number, and
//! only node ids are hashed, once per port line.

use crate::error::{Error, Result};
use crate::topology::{Fabric, NodeId, NodeKind, PortIdx, Speed, Width};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_while1, take_while_m_n};
use nom::character::complete::{char, digit1, hex_digit1, space0, space1};
use nom::combinator::{map_res, opt};
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;

/// FxHash, the multiply-rotate hash rustc uses: node ids and GUIDs of a local dump are
/// not adversarial keys, and SipHash took a tenth of the parse time.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

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

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

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

impl DumpFormat {
    /// Short name for reports: `ibnetdiscover`, `ibnetdiscover -p`, `ibsim net file`.
    pub fn describe(self) -> &'static str {
        match self {
            DumpFormat::Ibnetdiscover => "ibnetdiscover output",
            DumpFormat::Ports => "ibnetdiscover -p ports report",
            DumpFormat::IbsimNet => "ibsim net file",
        }
    }
}

/// A consistency problem in a dump, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub message: String,
}

/// How forgiving the reader is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Record malformed lines as problems and go on, instead of failing on the first
    /// one. The cabling check uses this so that a damaged dump is still compared as far
    /// as it can be; recognition and routing use the strict default.
    pub lenient: bool,
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
    /// Inconsistencies (one-sided or contradictory links, ports out of range, duplicates,
    /// and in lenient mode malformed lines).
    pub problems: Vec<Problem>,
    /// Ports whose cabling the dump leaves in doubt (one-sided or contradictory claims,
    /// a malformed port line): with the line that made them doubtful.
    pub suspect: Vec<(NodeId, u8, usize)>,
    /// True when the text stops in the middle of a line (no final newline): a cut dump.
    pub truncated: bool,
    /// Per global port index: the dump gave this link's width and speed (a `4x???`
    /// speed or a bare ibsim line leaves them unknown, and a rate check must not guess).
    pub rate_known: Vec<bool>,
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

    /// True when ports of this node are among the suspect ones.
    pub fn is_suspect(&self, node: NodeId, port: u8) -> Option<usize> {
        self.suspect
            .iter()
            .find(|&&(n, p, _)| n == node && p == port)
            .map(|&(_, _, l)| l)
    }
}

/// Where a port line's cable leads: a node id to look up, or (ports report) a node index.
#[derive(Clone, Copy, Debug)]
enum Remote<'a> {
    Id(&'a str),
    Index(usize),
}

#[derive(Clone, Debug)]
struct RawPort<'a> {
    node: u32,
    num: u32,
    guid: Option<u64>,
    remote: Remote<'a>,
    remote_port: u32,
    remote_guid: Option<u64>,
    lid: Option<u16>,
    lmc: Option<u8>,
    width: Option<Width>,
    speed: Option<Speed>,
    line: usize,
}

#[derive(Clone, Debug)]
struct RawNode<'a> {
    kind: NodeKind,
    nports: u32,
    id: Cow<'a, str>,
    guid: u64,
    desc: String,
    lid: Option<u16>,
    lmc: Option<u8>,
    line: usize,
}

/// What the line-level parsers produce before the fabric is assembled.
struct Raw<'a> {
    nodes: Vec<RawNode<'a>>,
    ports: Vec<RawPort<'a>>,
    notes: Vec<Problem>,
    problems: Vec<Problem>,
    /// (node, port, line) made doubtful by a malformed line (lenient mode).
    suspect: Vec<(usize, u32, usize)>,
}

type PResult<'a, T> = IResult<&'a str, T>;

fn ws(i: &str) -> PResult<'_, &str> {
    space0(i)
}

fn dec_u32(i: &str) -> PResult<'_, u32> {
    map_res(digit1, str::parse::<u32>).parse(i)
}

fn hex_u64(i: &str) -> PResult<'_, u64> {
    let (rest, h) = take_while_m_n(1, 16, |c: char| c.is_ascii_hexdigit()).parse(i)?;
    let v = h.bytes().fold(0u64, |acc, b| {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            _ => b - b'A' + 10,
        };
        (acc << 4) | d as u64
    });
    Ok((rest, v))
}

/// `0x` hex or decimal number.
fn number_u64(i: &str) -> PResult<'_, u64> {
    match i.strip_prefix("0x").or_else(|| i.strip_prefix("0X")) {
        Some(h) => hex_u64(h),
        None => map_res(digit1, str::parse::<u64>).parse(i),
    }
}

fn quoted(i: &str) -> PResult<'_, &str> {
    delimited(char('"'), take_till(|c| c == '"'), char('"')).parse(i)
}

/// `4xQDR`, `12xEDR`, `4x???` (speed unknown), `??xSDR`.
fn split_width_speed(tok: &str) -> (Option<Width>, Option<Speed>) {
    match tok.find('x') {
        Some(x) => (
            tok.get(..=x).and_then(|w| w.parse().ok()),
            tok.get(x + 1..).and_then(|s| s.parse().ok()),
        ),
        None => (None, None),
    }
}

// The two most frequent lines, port lines and GUID lines, are scanned by hand on bytes:
// through nom on `&str` (char-by-char UTF-8 decoding, a generic error path per `opt`)
// a port line cost ~1,000 instructions, which capped the parse of an ibsim net file at
// about 60 MB/s. The grammar is the same as elsewhere; every token read is ASCII, so
// the text after the scanned part starts on a char boundary.

/// A byte cursor for the hand-scanned lines. Failed optional parts rewind.
struct Cur<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Cur<'a> {
    fn new(b: &'a [u8]) -> Cur<'a> {
        Cur { b, i: 0 }
    }
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn eat_str(&mut self, s: &[u8]) -> bool {
        if self.b[self.i..].starts_with(s) {
            self.i += s.len();
            true
        } else {
            false
        }
    }
    fn spaces(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
        self.i - start
    }
    fn dec_u64(&mut self) -> Option<u64> {
        let start = self.i;
        let mut v: u64 = 0;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            v = v.checked_mul(10)?.checked_add((d - b'0') as u64)?;
            self.i += 1;
        }
        (self.i > start).then_some(v)
    }
    fn dec_u32(&mut self) -> Option<u32> {
        self.dec_u64().and_then(|v| u32::try_from(v).ok())
    }
    fn hex_u64(&mut self) -> Option<u64> {
        let start = self.i;
        let mut v: u64 = 0;
        while let Some(b) = self.peek() {
            let d = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                b'A'..=b'F' => b - b'A' + 10,
                _ => break,
            };
            if self.i - start == 16 {
                return None;
            }
            v = (v << 4) | d as u64;
            self.i += 1;
        }
        (self.i > start).then_some(v)
    }
    /// `0x` hex or decimal.
    fn number_u64(&mut self) -> Option<u64> {
        if self.eat_str(b"0x") || self.eat_str(b"0X") {
            self.hex_u64()
        } else {
            self.dec_u64()
        }
    }
    /// Run an optional part; rewind when it does not match.
    fn opt<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let at = self.i;
        let v = f(self);
        if v.is_none() {
            self.i = at;
        }
        v
    }
    /// `[12]`
    fn bracket_num(&mut self) -> Option<u32> {
        self.opt(|c| {
            let v = c.eat(b'[').then(|| c.dec_u32())??;
            c.eat(b']').then_some(v)
        })
    }
    /// `(2c90000000101)` or `(0x2c90000000101)`
    fn paren_guid(&mut self) -> Option<u64> {
        self.opt(|c| {
            if !c.eat(b'(') {
                return None;
            }
            c.eat_str(b"0x");
            let v = c.hex_u64()?;
            c.eat(b')').then_some(v)
        })
    }
    /// `[ext 5]`: the front-panel number of a chassis port (`-g`).
    fn ext_port(&mut self) -> Option<u32> {
        self.opt(|c| {
            if !c.eat_str(b"[ext") || c.spaces() == 0 {
                return None;
            }
            let v = c.dec_u32()?;
            c.eat(b']').then_some(v)
        })
    }
    /// `"..."`: the byte range inside the quotes.
    fn quoted(&mut self) -> Option<(usize, usize)> {
        self.opt(|c| {
            if !c.eat(b'"') {
                return None;
            }
            let start = c.i;
            let len = c.b[start..].iter().position(|&b| b == b'"')?;
            c.i = start + len + 1;
            Some((start, start + len))
        })
    }
}

/// `[3]` in a line that failed to parse, to mark the port as doubtful.
fn leading_port(line: &str) -> Option<u32> {
    Cur::new(line.as_bytes()).bracket_num()
}

/// Parsed port line (the node index and line number are filled in by the caller);
/// `None` when the line does not follow the grammar
/// `[3](guid)[ext 1] "remote"[7][ext 2](guid) [w=.. s=..] [# comment]`.
fn port_line(line: &str) -> Option<RawPort<'_>> {
    let mut c = Cur::new(line.as_bytes());
    let num = c.bracket_num()?;
    let guid = c.paren_guid();
    c.ext_port();
    c.spaces();
    let (a, b) = c.quoted()?;
    let remote_port = c.bracket_num();
    c.ext_port();
    c.spaces();
    let remote_guid = c.paren_guid();
    c.spaces();
    let remote_id = line.get(a..b)?;
    let rest = line.get(c.i..)?;
    let mut p = RawPort {
        node: 0,
        num,
        guid,
        remote: Remote::Id(remote_id),
        remote_port: remote_port.unwrap_or(1),
        remote_guid,
        lid: None,
        lmc: None,
        width: None,
        speed: None,
        line: 0,
    };
    // the rest: ibsim options (w=, s=) and/or an ibnetdiscover comment
    match find_byte(rest.as_bytes(), b'#') {
        Some(c) => {
            if !parse_ibsim_opts(rest[..c].trim_end(), &mut p) {
                return None;
            }
            parse_port_comment(&rest[c + 1..], &mut p);
        }
        None => {
            if !parse_ibsim_opts(rest.trim_end(), &mut p) {
                return None;
            }
        }
    }
    Some(p)
}

/// ibsim link options `w=<mask> s=<mask> e=<mask>`; false when something else is there.
fn parse_ibsim_opts(s: &str, p: &mut RawPort<'_>) -> bool {
    if s.is_empty() {
        return true;
    }
    for tok in s.split_whitespace() {
        let (key, val) = match tok.split_once('=') {
            Some(kv) => kv,
            None => return false,
        };
        let v = number_u64(val).ok().filter(|(rest, _)| rest.is_empty()).map(|(_, v)| v);
        match key {
            "w" => {
                p.width = match v {
                    Some(1) => Some(Width::X1),
                    Some(2) => Some(Width::X4),
                    Some(4) => Some(Width::X8),
                    Some(8) => Some(Width::X12),
                    Some(16) => Some(Width::X2),
                    _ => return false,
                }
            }
            "s" => {
                p.speed = match v {
                    Some(1) => Some(Speed::Sdr),
                    Some(2) => Some(Speed::Ddr),
                    Some(4) => Some(Speed::Qdr),
                    _ => return false,
                }
            }
            // extended speeds and anything ibsim may add later: accepted, not modelled
            _ if v.is_some() => {}
            _ => return false,
        }
    }
    true
}

/// Comment of a port line: `"desc" lid 9 4xSDR` (switch) or `lid 4 lmc 0 "desc" lid 9 4xSDR`
/// (CA); older dumps may lack pieces, `-f` adds ` s=1 w=2 v=4`, Xsigo ports ` slot 3`.
fn parse_port_comment(c: &str, p: &mut RawPort<'_>) {
    let c = c.trim();
    let (before, after) = match c.find('"') {
        Some(q) => {
            let end = c[q + 1..].rfind('"').map(|e| q + 1 + e).unwrap_or(c.len());
            (&c[..q], c.get(end + 1..).unwrap_or(""))
        }
        None => ("", c),
    };
    // local lid/lmc (CA lines) before the description
    let mut toks = before.split_whitespace();
    while let Some(t) = toks.next() {
        match t {
            "lid" => p.lid = toks.next().and_then(|v| v.parse().ok()),
            "lmc" => p.lmc = toks.next().and_then(|v| v.parse().ok()),
            _ => {}
        }
    }
    let mut toks = after.split_whitespace();
    while let Some(t) = toks.next() {
        if t == "lid" {
            toks.next();
        } else if t.contains('x') && !t.contains('=') {
            let (w, s) = split_width_speed(t);
            p.width = w.or(p.width);
            p.speed = s.or(p.speed);
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
    if !(i.is_empty() || i.starts_with('#')) {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        )));
    }
    Ok(("", (kind, nports, id, i)))
}

/// `switchguid=0x2c90000001003(2c90000001003)`, `caguid=0x...`, `rtguid=`, ibsim `+` form.
/// Whatever follows the GUID (the port GUID, a `-g` chassis comment) is ignored.
fn guid_line(line: &str) -> Option<(NodeKind, bool, u64)> {
    let mut c = Cur::new(line.as_bytes());
    let kind = if c.eat_str(b"switchguid") {
        NodeKind::Switch
    } else if c.eat_str(b"hcaguids") || c.eat_str(b"caguid") {
        NodeKind::Ca
    } else if c.eat_str(b"rtguid") {
        NodeKind::Router
    } else {
        return None;
    };
    c.spaces();
    let rel = if c.eat(b'=') {
        false
    } else if c.eat(b'+') {
        true
    } else {
        return None;
    };
    c.spaces();
    Some((kind, rel, c.number_u64()?))
}

/// One end of a ports-report line: `CA 8 1 0x0002c9000000010f`.
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

/// `CA     8  1 0x0002c9000000010f 4x SDR - SW    12  2 0x0002c90000001003 ( 'H8 HCA-1' - 'leaf L4' )`
fn ports_report_line(i: &str) -> PResult<'_, PortsLine<'_>> {
    fn ty(i: &str) -> PResult<'_, NodeKind> {
        alt((
            tag("CA").map(|_| NodeKind::Ca),
            tag("SW").map(|_| NodeKind::Switch),
            tag("RT").map(|_| NodeKind::Router),
        ))
        .parse(i)
    }
    fn end(i: &str) -> PResult<'_, PortEnd> {
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
    let (i, local) = end(i)?;
    let (i, _) = space1(i)?;
    let (i, w) = take_while1(|c: char| !c.is_whitespace()).parse(i)?;
    let (i, _) = space1(i)?;
    let (i, s) = take_while1(|c: char| !c.is_whitespace()).parse(i)?;
    let (i, _) = ws(i)?;
    let (i, remote) = opt(preceded((char('-'), space1), end)).parse(i)?;
    let descs = i.trim();
    let (desc, remote_desc) = if remote.is_some() {
        let inner = descs.strip_prefix('(').and_then(|d| d.strip_suffix(')')).map(str::trim);
        let Some(inner) = inner else {
            return Err(nom::Err::Error(nom::error::Error::new(
                i,
                nom::error::ErrorKind::Verify,
            )));
        };
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
    Ok((
        "",
        PortsLine {
            local,
            width: w.parse().ok(),
            speed: s.parse().ok(),
            remote,
            desc,
            remote_desc,
        },
    ))
}

fn is_ports_report(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| ports_report_line(l).is_ok())
        .unwrap_or(false)
}

/// Parse a dump of any supported format, failing on the first malformed line.
/// `path` is used in messages only.
pub fn parse(text: &str, path: &Path) -> Result<Discovered> {
    parse_with(text, path, ParseOptions::default())
}

/// Parse a dump, recording malformed lines as problems instead of failing (see
/// [`ParseOptions::lenient`]). Fails only when no node can be read at all.
pub fn parse_lenient(text: &str, path: &Path) -> Result<Discovered> {
    parse_with(text, path, ParseOptions { lenient: true })
}

/// Parse a dump with explicit options.
pub fn parse_with(text: &str, path: &Path, opts: ParseOptions) -> Result<Discovered> {
    if text.trim().is_empty() {
        return Err(Error::at(
            path,
            0,
            "empty file: expected ibnetdiscover output or an ibsim net file",
        ));
    }
    let truncated = !text.ends_with('\n');
    let (raw, format) = if is_ports_report(text) {
        (read_ports_report(text, path, opts, truncated)?, DumpFormat::Ports)
    } else {
        read_records(text, path, opts, truncated)?
    };
    let mut d = assemble(raw, format, path)?;
    d.truncated = truncated;
    if truncated {
        d.notes.push(Problem {
            line: line_count(text),
            message: "the file ends in the middle of a line: the dump may be truncated".into(),
        });
    }
    Ok(d)
}

/// Read and parse a dump file (strict).
pub fn read(path: &Path) -> Result<Discovered> {
    read_with(path, ParseOptions::default())
}

/// Read and parse a dump file with explicit options. Bytes that are not UTF-8 are
/// replaced (descriptions are free text), so that one bad byte costs one field.
pub fn read_with(path: &Path, opts: ParseOptions) -> Result<Discovered> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    let text = String::from_utf8_lossy(&bytes);
    parse_with(&text, path, opts)
}

/// Position of the first `needle` byte, eight bytes at a time (a dump is mostly short
/// lines; the per-byte loop of `str::lines` was a tenth of the parse).
fn find_byte(hay: &[u8], needle: u8) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let pat = LO.wrapping_mul(needle as u64);
    let mut chunks = hay.chunks_exact(8);
    let mut base = 0;
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]) ^ pat;
        // the lowest byte that is zero in w sets the lowest flagged high bit
        let z = w.wrapping_sub(LO) & !w & HI;
        if z != 0 {
            return Some(base + (z.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    chunks.remainder().iter().position(|&b| b == needle).map(|p| base + p)
}

/// Lines without their `\n` / `\r\n` ends.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, next) = match find_byte(rest.as_bytes(), b'\n') {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, ""),
        };
        rest = next;
        Some(line.strip_suffix('\r').unwrap_or(line))
    })
}

/// Number of lines (the number of the last one).
fn line_count(text: &str) -> usize {
    let newlines = text.as_bytes().iter().filter(|&&b| b == b'\n').count();
    newlines + usize::from(!text.ends_with('\n'))
}

fn truncation_hint(truncated: bool, lineno: usize, text: &str) -> &'static str {
    if truncated && lineno == line_count(text) {
        " (this is the last line and the file ends in the middle of it: truncated dump?)"
    } else {
        ""
    }
}

fn read_records<'a>(text: &'a str, path: &Path, opts: ParseOptions, truncated: bool) -> Result<(Raw<'a>, DumpFormat)> {
    let mut raw = Raw {
        nodes: Vec::with_capacity(text.len() / 400),
        ports: Vec::with_capacity(text.len() / 40),
        notes: Vec::new(),
        problems: Vec::new(),
        suspect: Vec::new(),
    };
    // ibsim's rule for GUID lines that give only a base: the next node of a kind takes it
    let mut next_guid: [u64; 3] = [0x100000, 0x200000, 0x300000];
    let slot = |k: NodeKind| match k {
        NodeKind::Ca => 0,
        NodeKind::Switch => 1,
        NodeKind::Router => 2,
    };
    let mut explicit_guid: Option<(NodeKind, u64)> = None;
    let mut in_record = false;
    let mut saw_ibnd_names = false;
    for (idx, line) in lines(text).enumerate() {
        let lineno = idx + 1;
        let t = line.trim();
        if t.is_empty() {
            in_record = false;
            continue;
        }
        if t.starts_with('[') || t.starts_with('@') {
            let body = t.trim_start_matches('@');
            if !in_record {
                let msg = format!(
                    "port line `{}` outside a node record: expected a `Switch`, `Ca`/`Hca` or `Rt` header before it",
                    shorten(t)
                );
                if opts.lenient {
                    raw.problems.push(Problem {
                        line: lineno,
                        message: msg,
                    });
                    continue;
                }
                return Err(Error::at(path, lineno, msg));
            }
            let node = raw.nodes.len() - 1;
            match port_line(body) {
                Some(mut p) => {
                    p.line = lineno;
                    p.node = node as u32;
                    if let Remote::Id(id) = p.remote {
                        saw_ibnd_names |= id.starts_with("S-") || id.starts_with("H-") || id.starts_with("R-");
                    }
                    raw.ports.push(p);
                }
                None => {
                    let msg = format!(
                        "malformed port line `{}`: expected `[port] \"remote node\"[remote port]` and an optional `# ...` comment{}",
                        shorten(t),
                        truncation_hint(truncated, lineno, text)
                    );
                    if !opts.lenient {
                        return Err(Error::at(path, lineno, msg));
                    }
                    raw.problems.push(Problem {
                        line: lineno,
                        message: msg,
                    });
                    // the port number, if readable, is now in doubt
                    if let Some(num) = leading_port(body) {
                        raw.suspect.push((node, num, lineno));
                    }
                }
            }
            continue;
        }
        in_record = false;
        if t.starts_with('#') {
            continue;
        }
        if t.starts_with("Switch") || t.starts_with("Hca") || t.starts_with("Ca") || t.starts_with("Rt") {
            let parsed = node_header(t).map_err(|_| {
                format!(
                    "malformed node header `{}`: expected `Switch|Ca|Hca|Rt <ports> \"<node id>\" # \"<description>\"`{}",
                    shorten(t),
                    truncation_hint(truncated, lineno, text)
                )
            });
            let parsed = parsed.and_then(|(_, (kind, nports, id, rest))| {
                if nports == 0 || nports > 254 {
                    Err(format!("node \"{id}\" has {nports} ports; a node has 1..=254"))
                } else {
                    Ok((kind, nports, id, rest))
                }
            });
            let (kind, nports, id, rest) = match parsed {
                Ok(v) => v,
                Err(msg) if opts.lenient => {
                    raw.problems.push(Problem {
                        line: lineno,
                        message: msg,
                    });
                    explicit_guid = None;
                    continue;
                }
                Err(msg) => return Err(Error::at(path, lineno, msg)),
            };
            let (desc, lid, lmc) = header_comment(rest);
            let guid = match explicit_guid.take() {
                Some((k, g)) if k == kind => g,
                _ => guid_from_id(id).unwrap_or(next_guid[slot(kind)]),
            };
            let step = if kind == NodeKind::Switch { 1 } else { nports as u64 + 1 };
            next_guid[slot(kind)] = guid.wrapping_add(step);
            raw.nodes.push(RawNode {
                kind,
                nports,
                id: Cow::Borrowed(id),
                guid,
                desc: desc.unwrap_or_else(|| id.to_string()),
                lid,
                lmc,
                line: lineno,
            });
            in_record = true;
            continue;
        }
        if let Some((kind, rel, g)) = guid_line(t) {
            let g = if rel { next_guid[slot(kind)].wrapping_add(g) } else { g };
            next_guid[slot(kind)] = g;
            explicit_guid = Some((kind, g));
            continue;
        }
        const KNOWN: [&str; 12] = [
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
        if KNOWN.iter().any(|p| t.starts_with(p)) {
            continue;
        }
        raw.notes.push(Problem {
            line: lineno,
            message: format!("skipped unknown line `{}`", shorten(t)),
        });
    }
    if raw.nodes.is_empty() {
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
    let format = if saw_ibnd_names || text.contains("# Topology file") {
        DumpFormat::Ibnetdiscover
    } else {
        DumpFormat::IbsimNet
    };
    Ok((raw, format))
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
        // the description ends at the last quote: what follows (`base port 0 lid 6 lmc 0`,
        // ` (scp)`) has none
        let end = stripped.rfind('"').unwrap_or(stripped.len());
        (Some(stripped[..end].to_string()), stripped.get(end + 1..).unwrap_or(""))
    } else {
        (Some(c.to_string()).filter(|s| !s.is_empty()), "")
    };
    let (mut lid, mut lmc) = (None, None);
    let mut toks = tail.split_whitespace();
    while let Some(t) = toks.next() {
        match t {
            "lid" => lid = toks.next().and_then(|v| v.parse().ok()),
            "lmc" => lmc = toks.next().and_then(|v| v.parse().ok()),
            _ => {}
        }
    }
    (desc, lid, lmc)
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
fn assemble(raw: Raw<'_>, format: DumpFormat, path: &Path) -> Result<Discovered> {
    let Raw {
        mut nodes,
        ports,
        notes,
        mut problems,
        suspect: raw_suspect,
    } = raw;
    let mut fabric = Fabric {
        nodes: Vec::with_capacity(nodes.len()),
        ports: Vec::with_capacity(nodes.iter().map(|n| n.nports as usize + 1).sum()),
    };
    let descs: Vec<String> = nodes.iter_mut().map(|n| std::mem::take(&mut n.desc)).collect();
    let mut by_id: FxMap<&str, NodeId> = FxMap::with_capacity_and_hasher(nodes.len(), Default::default());
    let mut by_guid: FxMap<u64, usize> = FxMap::with_capacity_and_hasher(nodes.len(), Default::default());
    let mut node_lines = Vec::with_capacity(nodes.len());
    for ((i, n), desc) in nodes.iter().enumerate().zip(descs) {
        if let Some(&j) = by_guid.get(&n.guid) {
            problems.push(Problem {
                line: n.line,
                message: format!(
                    "duplicate GUID 0x{:016x}: node \"{}\" and node \"{}\" (line {})",
                    n.guid, n.id, nodes[j].id, nodes[j].line
                ),
            });
        } else {
            by_guid.insert(n.guid, i);
        }
        let id = fabric
            .add_node(n.kind, n.nports, n.guid, n.id.to_string(), desc)
            .map_err(|e| Error::at(path, n.line, e.to_string()))?;
        if by_id.insert(n.id.as_ref(), id).is_some() {
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
    let mut suspect: Vec<(NodeId, u8, usize)> = raw_suspect
        .iter()
        .filter(|&&(n, p, _)| p >= 1 && p <= nodes[n].nports)
        .map(|&(n, p, l)| (n as NodeId, p as u8, l))
        .collect();
    // what each end claims, indexed by global port number
    const UNCLAIMED: Claim = Claim {
        node: NodeId::MAX,
        port: 0,
        line: 0,
        width: None,
        speed: None,
    };
    let mut claims: Vec<Claim> = vec![UNCLAIMED; fabric.ports.len()];
    for p in &ports {
        let me = p.node;
        let n = &nodes[me as usize];
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
        let other = match p.remote {
            Remote::Index(i) => i as NodeId,
            Remote::Id(id) => match by_id.get(id) {
                Some(&o) => o,
                None => {
                    problems.push(Problem {
                        line: p.line,
                        message: format!(
                            "port {} of \"{}\" leads to unknown node \"{}\" (no record of it in the dump)",
                            p.num, n.id, id
                        ),
                    });
                    suspect.push((me, p.num as u8, p.line));
                    continue;
                }
            },
        };
        let on = &nodes[other as usize];
        if p.remote_port == 0 || p.remote_port > on.nports {
            problems.push(Problem {
                line: p.line,
                message: format!(
                    "port {} of \"{}\" leads to port {} of \"{}\", which has ports 1..={}",
                    p.num, n.id, p.remote_port, on.id, on.nports
                ),
            });
            suspect.push((me, p.num as u8, p.line));
            continue;
        }
        let idx = fabric.port_index(me, p.num as u8) as usize;
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
        let prev = claims[idx];
        if prev.line != 0 {
            problems.push(Problem {
                line: p.line,
                message: format!(
                    "port {} of \"{}\" is listed twice (also line {})",
                    p.num, n.id, prev.line
                ),
            });
            suspect.push((me, p.num as u8, p.line));
            continue;
        }
        claims[idx] = Claim {
            node: other,
            port: p.remote_port,
            line: p.line,
            width: p.width,
            speed: p.speed,
        };
    }
    let mut rate_known = vec![false; fabric.ports.len()];
    for ia in 0..claims.len() {
        let ca = claims[ia];
        if ca.line == 0 {
            continue;
        }
        let a = fabric.ports[ia].node;
        let pa = fabric.ports[ia].num;
        let ib = fabric.port_index(ca.node, ca.port as u8) as usize;
        let cb = claims[ib];
        if ia == ib {
            problems.push(Problem {
                line: ca.line,
                message: format!(
                    "port {pa} of \"{}\" is listed as cabled to itself",
                    nodes[a as usize].id
                ),
            });
            suspect.push((a, pa, ca.line));
            continue;
        }
        if cb.line != 0 && cb.node == a && cb.port == pa as u32 {
            if ia < ib {
                let (pia, pib) = (ia as PortIdx, ib as PortIdx);
                fabric.ports[ia].peer = pib;
                fabric.ports[ib].peer = pia;
                // one end may carry width/speed only (ibsim options): take what is known,
                // the lower value when both ends say something
                let w = merge(ca.width, cb.width);
                let s = merge(ca.speed, cb.speed);
                for k in [ia, ib] {
                    if let Some(w) = w {
                        fabric.ports[k].width = w;
                    }
                    if let Some(s) = s {
                        fabric.ports[k].speed = s;
                    }
                    // an ibsim net file without w=/s= means ibsim's default 4xSDR
                    rate_known[k] = format == DumpFormat::IbsimNet || (w.is_some() && s.is_some());
                }
            }
            continue;
        }
        let (na, nb) = (&nodes[a as usize].id, &nodes[ca.node as usize].id);
        let pb = ca.port;
        if cb.line != 0 {
            problems.push(Problem {
                line: ca.line,
                message: format!(
                    "ends disagree: \"{na}\"[{pa}] lists \"{nb}\"[{pb}], but \"{nb}\"[{pb}] lists \"{}\"[{}] (line {})",
                    nodes[cb.node as usize].id, cb.port, cb.line
                ),
            });
        } else {
            // ibnetdiscover lists both ends of every link it found; a missing end means
            // a truncated or hand-edited dump
            problems.push(Problem {
                line: ca.line,
                message: format!(
                    "link listed by one end only: \"{na}\"[{pa}] -> \"{nb}\"[{pb}] (the record of \"{nb}\" does not list port {pb})"
                ),
            });
        }
        suspect.push((a, pa, ca.line));
        suspect.push((ca.node, pb as u8, ca.line));
    }
    suspect.sort_unstable();
    suspect.dedup_by_key(|s| (s.0, s.1));
    Ok(Discovered {
        fabric,
        format,
        node_lines,
        notes,
        problems,
        suspect,
        truncated: false,
        rate_known,
    })
}

fn merge<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

fn read_ports_report<'a>(text: &'a str, path: &Path, opts: ParseOptions, truncated: bool) -> Result<Raw<'a>> {
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
    let mut raw = Raw {
        nodes: Vec::new(),
        ports: Vec::new(),
        notes: Vec::new(),
        problems: Vec::new(),
        suspect: Vec::new(),
    };
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
        let parsed = match ports_report_line(t) {
            Ok((_, l)) => Ok(l),
            Err(_) => Err(format!(
                "malformed ports-report line `{}`: expected `CA|SW|RT <lid> <port> 0x<guid> <width> <speed> [- CA|SW|RT <lid> <port> 0x<guid> ( 'desc' - 'desc' )]`{}",
                shorten(t),
                truncation_hint(truncated, lineno, text)
            )),
        };
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
        if let Some(r) = l.remote {
            let b = node_of(r, l.remote_desc, lineno, &mut nodes);
            let lid_a = if l.local.0 == NodeKind::Switch {
                0
            } else {
                l.local.1 as u16
            };
            raw.ports.push(RawPort {
                node: a as u32,
                num: l.local.2,
                guid: None,
                remote: Remote::Index(b),
                remote_port: r.2,
                remote_guid: None,
                lid: (lid_a != 0).then_some(lid_a),
                lmc: None,
                width: l.width,
                speed: l.speed,
                line: lineno,
            });
        } else {
            raw.notes.push(Problem {
                line: lineno,
                message: format!("port {} of '{}' is not connected", l.local.2, l.desc),
            });
        }
    }
    if nodes.is_empty() {
        return Err(Error::at(path, 0, "no ports found in the ports report"));
    }
    for p in &mut raw.ports {
        let n = &nodes[p.node as usize];
        if n.kind != NodeKind::Switch {
            p.guid = Some(n.guid.wrapping_add(p.num as u64));
        }
        if let Remote::Index(b) = p.remote {
            let r = &nodes[b];
            if r.kind != NodeKind::Switch {
                p.remote_guid = Some(r.guid.wrapping_add(p.remote_port as u64));
            }
        }
    }
    raw.nodes = nodes
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
                id: Cow::Owned(format!("{prefix}-{:016x}", n.guid)),
                guid: n.guid,
                desc: n.desc.to_string(),
                lid: (n.kind == NodeKind::Switch).then_some(n.lid),
                lmc: Some(0),
                line: n.line,
            }
        })
        .collect();
    Ok(raw)
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
