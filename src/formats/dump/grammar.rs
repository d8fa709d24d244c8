//! The token grammar of the dumps, written once: numbers, GUIDs, `[port]`, `(guid)`,
//! `[ext N]`, quoted strings, words; and the line grammars built from them (port lines,
//! node headers, GUID lines, the comments after them). Every parser of the folder reads
//! its tokens through [`Cur`].
//!
//! The scanner works on bytes by hand: through a parser-combinator library on `&str`
//! (char-by-char UTF-8 decoding, a generic error path per optional part) a port line cost
//! ~1,000 instructions, which capped the parse of an ibsim net file at about 60 MB/s.
//! Every token read is ASCII, so the text after a scanned part starts on a char boundary.

pub(super) use super::linescan::{for_line_starts, record_lines, short_lines, Lines};
#[cfg(test)]
pub(super) use super::linescan::{line_at, line_starts};
use super::swar::hex16;
use super::PortLabel;
use crate::topology::rate::rate_from_token;
use crate::topology::{NodeKind, Speed, Width};

/// The value of each hex digit, 16 for every other byte.
const HEX: [u8; 256] = {
    let mut t = [16u8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// A byte cursor over one line. Optional parts rewind when they do not match.
pub(super) struct Cur<'a> {
    b: &'a [u8],
    /// Position of the next unread byte.
    pub(super) i: usize,
}

impl<'a> Cur<'a> {
    pub(super) fn new(s: &'a str) -> Cur<'a> {
        Cur { b: s.as_bytes(), i: 0 }
    }
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    /// True when the whole line has been read.
    pub(super) fn at_end(&self) -> bool {
        self.i == self.b.len()
    }
    pub(super) fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    pub(super) fn eat_str(&mut self, s: &[u8]) -> bool {
        if self.b[self.i..].starts_with(s) {
            self.i += s.len();
            true
        } else {
            false
        }
    }
    /// Blanks (spaces and tabs); how many were skipped.
    pub(super) fn spaces(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
        self.i - start
    }
    /// Decimal digits (at least one), `None` on overflow.
    pub(super) fn dec_u64(&mut self) -> Option<u64> {
        let start = self.i;
        let mut v: u64 = 0;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            v = v.checked_mul(10)?.checked_add((d - b'0') as u64)?;
            self.i += 1;
        }
        (self.i > start).then_some(v)
    }
    /// Decimal digits that fit a `u32`.
    pub(super) fn dec_u32(&mut self) -> Option<u32> {
        self.dec_u64().and_then(|v| u32::try_from(v).ok())
    }
    /// 1 to 16 hex digits (a 17th is an error: no GUID is that long, and the cursor
    /// then stops after the 16th). The digits are told by a table: a GUID line was a
    /// twentieth of an ibsim net file's parse when each digit went through a `match`.
    pub(super) fn hex_u64(&mut self) -> Option<u64> {
        // sixteen digits (every GUID of a net file), eight at a time; tried only where a
        // digit ends them (shorter numbers would fail at a cost)
        let digit = |at: usize| self.b.get(at).is_some_and(|&b| HEX[usize::from(b)] < 16);
        let sixteen = digit(self.i + 15) && !digit(self.i + 16);
        if let Some(v) = sixteen.then(|| self.b.get(self.i..).and_then(hex16)).flatten() {
            self.i += 16;
            return Some(v);
        }
        let start = self.i;
        let mut v: u64 = 0;
        while let Some(&b) = self.b.get(self.i) {
            let d = HEX[usize::from(b)];
            if d > 15 {
                break;
            }
            if self.i - start == 16 {
                return None;
            }
            v = (v << 4) | u64::from(d);
            self.i += 1;
        }
        (self.i > start).then_some(v)
    }
    /// `0x` hex or decimal.
    pub(super) fn number_u64(&mut self) -> Option<u64> {
        if self.eat_str(b"0x") || self.eat_str(b"0X") {
            self.hex_u64()
        } else {
            self.dec_u64()
        }
    }
    /// Run an optional part; rewind when it does not match.
    pub(super) fn opt<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let at = self.i;
        let v = f(self);
        if v.is_none() {
            self.i = at;
        }
        v
    }
    /// `[12]`
    pub(super) fn bracket_num(&mut self) -> Option<u32> {
        self.opt(|c| {
            let v = c.eat(b'[').then(|| c.dec_u32())??;
            c.eat(b']').then_some(v)
        })
    }
    /// `(2c90000000101)` or `(0x2c90000000101)`
    pub(super) fn paren_guid(&mut self) -> Option<u64> {
        self.opt(|c| {
            if !c.eat(b'(') {
                return None;
            }
            c.eat_str(b"0x");
            let v = c.hex_u64()?;
            c.eat(b')').then_some(v)
        })
    }
    /// `(1/32/1)`, `(1/32/1/2)`, `(65)` or `(B134D0F0/0/0/1)`: a label ibdiagnet writes
    /// ([`PortLabel`]).
    pub(super) fn cage_label(&mut self, line: &'a str) -> Option<PortLabel> {
        if self.b.get(self.i) != Some(&b'(') {
            return None;
        }
        self.opt(|c| {
            c.eat(b'(');
            let start = c.i;
            let len = c.b[start..].iter().position(|&b| b == b')')?;
            c.i = start + len + 1;
            PortLabel::parse(line.get(start..start + len)?)
        })
    }
    /// `[ext 5]`: the front-panel number of a chassis port (`-g`).
    pub(super) fn ext_port(&mut self) -> Option<u32> {
        self.opt(|c| {
            if !c.eat_str(b"[ext") || c.spaces() == 0 {
                return None;
            }
            let v = c.dec_u32()?;
            c.eat(b']').then_some(v)
        })
    }
    /// `"..."`: the byte range inside the quotes.
    pub(super) fn quoted(&mut self) -> Option<(usize, usize)> {
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
    /// A word: one or more chars up to the next whitespace char (Unicode whitespace
    /// included, so a word never swallows an exotic blank); its byte range. `line` is
    /// the text the cursor was made from.
    pub(super) fn word(&mut self, line: &str) -> Option<(usize, usize)> {
        let rest = line.get(self.i..)?;
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if len == 0 {
            return None;
        }
        let start = self.i;
        self.i += len;
        Some((start, self.i))
    }
    /// The first of `names` the text continues with, and its value.
    /// (The next byte is compared first: a slice comparison is a call to `memcmp`,
    /// which the names that cannot match need not pay.)
    pub(super) fn one_of<T: Copy>(&mut self, names: &[(&[u8], T)]) -> Option<T> {
        let next = self.peek();
        names
            .iter()
            .find(|(n, _)| n.first().copied() == next && self.eat_str(n))
            .map(|&(_, v)| v)
    }
}

/// A whole token that must be one number (`0x` hex or decimal), nothing after it.
pub(super) fn whole_number(tok: &str) -> Option<u64> {
    let mut c = Cur::new(tok);
    c.number_u64().filter(|_| c.at_end())
}

/// `[3]` at the start of a line that failed to parse, to mark the port as doubtful.
pub(super) fn leading_port(line: &str) -> Option<u32> {
    Cur::new(line).bracket_num()
}

/// Where a port line's cable leads: a node id to look up, or (ports report) a node index.
#[derive(Clone, Copy, Debug)]
pub(super) enum Remote<'a> {
    Id(&'a str),
    Index(usize),
}

/// One port line, as read (the assembly checks it against the rest of the dump).
#[derive(Clone, Debug)]
pub(super) struct RawPort<'a> {
    /// Index of the node record the line belongs to.
    pub node: u32,
    pub num: u32,
    pub guid: Option<u64>,
    pub remote: Remote<'a>,
    pub remote_port: u32,
    pub remote_guid: Option<u64>,
    pub lid: Option<u16>,
    pub lmc: Option<u8>,
    pub width: Option<Width>,
    pub speed: Option<Speed>,
    pub line: usize,
}

/// ibdiagnet's cage/port/split labels of a port line's own port and of the far one
/// (`1/32/1`): kept beside the ports, as only an NDR/XDR dump has them.
pub(super) type Labels = [Option<PortLabel>; 2];

/// A cable end read by a reader that names its far end by node index (ports report,
/// iblinkinfo, subnet.lst): 20 bytes, as these readers hold every line until their
/// nodes are known (a [`RawPort`] takes 96).
#[derive(Clone, Copy, Debug)]
pub(super) struct IndexPort {
    pub node: u32,
    pub far: u32,
    line: u32,
    /// The port's own LID (CA ports), 0 when the text gave none.
    pub lid: u16,
    /// Port numbers; 255 stands for any number no node has (the assembly refuses it).
    pub num: u8,
    pub far_port: u8,
    width: Option<Width>,
    speed: Option<Speed>,
    has_guid: bool,
}

impl IndexPort {
    /// End `(node, num)` of a cable to `(far, far_port)`, no LID yet.
    pub(super) fn new(
        (node, num): (usize, u32),
        (far, far_port): (usize, u32),
        (width, speed): (Option<Width>, Option<Speed>),
        line: usize,
    ) -> Self {
        IndexPort {
            node: node as u32,
            far: far as u32,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            lid: 0,
            num: u8::try_from(num).unwrap_or(u8::MAX),
            far_port: u8::try_from(far_port).unwrap_or(u8::MAX),
            width,
            speed,
            has_guid: false,
        }
    }
}

/// The cable ends of an index reader, with the port GUIDs of those that have one (CA
/// ports) kept apart, in the same order.
#[derive(Default)]
pub(super) struct IndexPorts {
    ends: Vec<IndexPort>,
    guids: Vec<u64>,
}

impl IndexPorts {
    pub(super) fn with_capacity(n: usize) -> Self {
        IndexPorts {
            ends: Vec::with_capacity(n),
            guids: Vec::new(),
        }
    }

    pub(super) fn push(&mut self, mut end: IndexPort, guid: Option<u64>) {
        if let Some(g) = guid {
            end.has_guid = true;
            self.guids.push(g);
        }
        self.ends.push(end);
    }

    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Every end as the record the assembly takes, in the order read.
    pub(super) fn records(&self) -> impl Iterator<Item = RawPort<'static>> + '_ {
        let mut guids = self.guids.iter();
        self.ends.iter().map(move |e| RawPort {
            node: e.node,
            num: u32::from(e.num),
            guid: if e.has_guid { guids.next().copied() } else { None },
            remote: Remote::Index(e.far as usize),
            remote_port: u32::from(e.far_port),
            remote_guid: None,
            lid: (e.lid != 0).then_some(e.lid),
            lmc: None,
            width: e.width,
            speed: e.speed,
            line: e.line as usize,
        })
    }
}

/// A LID read as a wider number: `None` for 0 (unassigned) and for values no LID has.
pub(super) fn lid16(lid: u32) -> Option<u16> {
    u16::try_from(lid).ok().filter(|&l| l != 0)
}

/// A port's GUID and ibdiagnet label after its `[num]`: `(label)(guid)` in either order,
/// or one of them. A lone group of one decimal number is a label only when it is the
/// port's own number (ibdiagnet's `[65](65)`); otherwise it is a GUID, as ibnetdiscover
/// writes them (`[1](2c9000010d0a1)`).
fn guid_and_label<'a>(c: &mut Cur<'a>, line: &'a str, num: u32) -> (Option<u64>, Option<PortLabel>) {
    let (mut guid, mut label) = (None, None);
    for _ in 0..2 {
        let at = c.i;
        if label.is_none() {
            if let Some(l) = c.cage_label(line) {
                let followed = c.b.get(c.i) == Some(&b'(');
                if !l.is_lone_number() || l.is_number(num) || followed {
                    label = Some(l);
                    continue;
                }
                c.i = at;
            }
        }
        match guid.is_none().then(|| c.paren_guid()).flatten() {
            Some(g) => guid = Some(g),
            None => break,
        }
    }
    (guid, label)
}

/// Parsed port line (the node index and line number are filled in by the caller);
/// `None` when the line does not follow the grammar
/// `[3](guid)[ext 1] "remote"[7][ext 2](guid) [w=.. s=..] [# comment]`.
pub(super) fn port_line(line: &str) -> Option<(RawPort<'_>, Labels)> {
    let mut c = Cur::new(line);
    let num = c.bracket_num()?;
    let (guid, label) = guid_and_label(&mut c, line, num);
    c.ext_port();
    c.spaces();
    let (a, b) = c.quoted()?;
    let remote_port = c.bracket_num();
    c.ext_port();
    let rp = remote_port.unwrap_or(1);
    let (mut remote_guid, mut remote_label) = guid_and_label(&mut c, line, rp);
    let at = c.i;
    if c.spaces() > 0 && (remote_guid.is_none() || remote_label.is_none()) {
        // ibnetdiscover may set the far GUID apart from the port: `"H-…"[1] (guid)`
        let (g, l) = guid_and_label(&mut c, line, rp);
        if g.is_none() && l.is_none() {
            c.i = at;
        }
        remote_guid = remote_guid.or(g);
        remote_label = remote_label.or(l);
    }
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
    port_tail(rest, &mut p).then_some((p, [label, remote_label]))
}

/// What follows a port line's far port: ibsim options (w=, s=) and/or an ibnetdiscover
/// comment, read into `p`; false when something else is there.
pub(super) fn port_tail(rest: &str, p: &mut RawPort<'_>) -> bool {
    match find_byte(rest.as_bytes(), b'#') {
        Some(c) => {
            if !ibsim_link_options(rest[..c].trim_end(), p) {
                return false;
            }
            port_comment(&rest[c + 1..], p);
        }
        None => {
            if !ibsim_link_options(rest.trim_end(), p) {
                return false;
            }
        }
    }
    true
}

/// ibsim link options `w=<mask> s=<mask> e=<mask>` (PortInfo codes); false when
/// something else is there.
fn ibsim_link_options(s: &str, p: &mut RawPort<'_>) -> bool {
    if s.is_empty() {
        return true;
    }
    for tok in s.split_ascii_whitespace() {
        let (key, val) = match tok.split_once('=') {
            Some(kv) => kv,
            None => return false,
        };
        let v = whole_number(val);
        let code = v.and_then(|v| u8::try_from(v).ok());
        match key {
            "w" => match code.and_then(Width::from_code) {
                Some(w) => p.width = Some(w),
                None => return false,
            },
            // ibsim 0.10 models SDR, DDR and QDR only (no extended speeds here)
            "s" => match code.and_then(|c| Speed::from_codes(c, 0, 0)) {
                Some(s) => p.speed = Some(s),
                None => return false,
            },
            // extended speeds and anything ibsim may add later: accepted, not modelled
            _ if v.is_some() => {}
            _ => return false,
        }
    }
    true
}

/// `lid N` and `lmc N` among the words of a comment (later ones win; a value that is
/// not a number leaves the field unknown).
fn lid_lmc<'a>(words: impl Iterator<Item = &'a str>, lid: &mut Option<u16>, lmc: &mut Option<u8>) {
    let mut words = words;
    while let Some(t) = words.next() {
        match t {
            "lid" => *lid = words.next().and_then(|v| v.parse().ok()),
            "lmc" => *lmc = words.next().and_then(|v| v.parse().ok()),
            _ => {}
        }
    }
}

/// Comment of a port line: `"desc" lid 9 4xSDR` (switch) or `lid 4 lmc 0 "desc" lid 9 4xSDR`
/// (CA); older dumps may lack pieces, `-f` adds ` s=1 w=2 v=4`, Xsigo ports ` slot 3`.
fn port_comment(c: &str, p: &mut RawPort<'_>) {
    let c = trim_line(c);
    // byte searches: a `char` pattern builds a searcher per call, which cost more than
    // the search on these short comments
    let (before, after) = match find_byte(c.as_bytes(), b'"') {
        Some(q) => {
            let end = memchr::memrchr(b'"', &c.as_bytes()[q + 1..]).map_or(c.len(), |e| q + 1 + e);
            (&c[..q], c.get(end + 1..).unwrap_or(""))
        }
        None => ("", c),
    };
    // local lid/lmc (CA lines) before the description
    lid_lmc(before.split_ascii_whitespace(), &mut p.lid, &mut p.lmc);
    let mut toks = after.split_ascii_whitespace();
    while let Some(t) = toks.next() {
        if t == "lid" {
            toks.next();
        } else if t.as_bytes().contains(&b'x') && !t.as_bytes().contains(&b'=') {
            let (w, s) = rate_from_token(t);
            p.width = w.or(p.width);
            p.speed = s.or(p.speed);
        }
    }
}

/// A node header as read: kind, port count, node id and the rest (`# comment` or empty).
pub(super) type Header<'a> = (NodeKind, u32, &'a str, &'a str);

/// Node header: `Switch 24 "S-..." # "desc" base port 0 lid 6 lmc 0`, `Ca 2 "H-..." # "desc"`.
pub(super) fn node_header(line: &str) -> Option<Header<'_>> {
    const KINDS: [(&[u8], NodeKind); 4] = [
        (b"Switch", NodeKind::Switch),
        (b"Hca", NodeKind::Ca),
        (b"Ca", NodeKind::Ca),
        (b"Rt", NodeKind::Router),
    ];
    let mut c = Cur::new(line);
    let kind = c.one_of(&KINDS)?;
    // a terminal log that lost the tab (`Switch41 "S-…"`) still counts
    c.spaces();
    let nports = c.dec_u32()?;
    if c.spaces() == 0 {
        return None;
    }
    let (a, b) = c.quoted()?;
    c.spaces();
    let rest = &line[c.i..];
    (rest.is_empty() || rest.starts_with('#')).then_some((kind, nports, &line[a..b], rest))
}

/// Header comment: `# "desc" base port 0 lid 6 lmc 0` -> (desc, lid, lmc).
pub(super) fn header_comment(rest: &str) -> (Option<String>, Option<u16>, Option<u8>) {
    // a header's rest starts with its `#` (`node_header`): no search set up for it
    let at = if rest.starts_with('#') {
        Some(0)
    } else {
        find_byte(rest.as_bytes(), b'#')
    };
    let Some(c) = at else {
        return (None, None, None);
    };
    let c = trim_line(&rest[c + 1..]);
    let (desc, tail) = if let Some(stripped) = c.strip_prefix('"') {
        // the description ends at the last quote: what follows (`base port 0 lid 6 lmc 0`,
        // ` (scp)`) has none; searched from the end, where it mostly is (`# "H0_0 HCA-1"`)
        let end = stripped.bytes().rposition(|b| b == b'"').unwrap_or(stripped.len());
        (Some(stripped[..end].to_string()), stripped.get(end + 1..).unwrap_or(""))
    } else {
        (Some(c.to_string()).filter(|s| !s.is_empty()), "")
    };
    let (mut lid, mut lmc) = (None, None);
    if !tail.is_empty() {
        lid_lmc(tail.split_ascii_whitespace(), &mut lid, &mut lmc);
    }
    (desc, lid, lmc)
}

/// `switchguid=0x2c90000001003(2c90000001003)`, `caguid=0x...`, `rtguid=`, ibsim `+` form:
/// (kind, relative to the previous GUID, value). Whatever follows the GUID (the port
/// GUID, a `-g` chassis comment) is ignored.
pub(super) fn guid_line(line: &str) -> Option<(NodeKind, bool, u64)> {
    const KINDS: [(&[u8], NodeKind); 4] = [
        (b"switchguid", NodeKind::Switch),
        (b"hcaguids", NodeKind::Ca),
        (b"caguid", NodeKind::Ca),
        (b"rtguid", NodeKind::Router),
    ];
    // ibsim's own form (a net file's every record): no keyword search
    for (head, kind) in [(&b"caguid=0x"[..], NodeKind::Ca), (b"switchguid=0x", NodeKind::Switch)] {
        if let Some(v) = line.as_bytes().strip_prefix(head).and_then(hex16) {
            return Some((kind, false, v));
        }
    }
    let mut c = Cur::new(line);
    let kind = c.one_of(&KINDS)?;
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

/// Node id `S-0002c90000001003` / `H-...` / `R-...` carries the GUID.
pub(super) fn guid_from_id(id: &str) -> Option<u64> {
    let hex = id
        .strip_prefix("S-")
        .or_else(|| id.strip_prefix("H-"))
        .or_else(|| id.strip_prefix("R-"))?;
    let mut c = Cur::new(hex);
    c.hex_u64().filter(|_| c.at_end())
}

/// Position of the first `needle` byte (SIMD through `memchr`: a dump is mostly short
/// lines, and finding their ends was a tenth of the parse).
pub(super) fn find_byte(hay: &[u8], needle: u8) -> Option<usize> {
    memchr::memchr(needle, hay)
}

/// The first occurrence of `pat` (not empty) in `hay`: its first byte found by [`find_byte`],
/// the rest compared. `str::find` builds a two-way searcher per call, which cost more
/// than the search on short port lines.
pub(super) fn find_seq(hay: &str, pat: &str) -> Option<usize> {
    let (h, p) = (hay.as_bytes(), pat.as_bytes());
    let mut from = 0;
    while let Some(i) = find_byte(&h[from..], p[0]) {
        let at = from + i;
        if h[at..].starts_with(p) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Lines without their `\n` / `\r\n` ends. One SIMD scan serves the whole text (a
/// search started per line pays its set-up on every short line); the record reader,
/// whose lines may be much shorter, has [`record_lines`].
pub(super) fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut ends = memchr::memchr_iter(b'\n', text.as_bytes());
    let mut start = 0;
    std::iter::from_fn(move || {
        let line = match ends.next() {
            Some(end) => &text[start..end],
            None if start < text.len() => &text[start..],
            None => return None,
        };
        start += line.len() + 1;
        Some(line.strip_suffix('\r').unwrap_or(line))
    })
}

/// `line.trim()`, by bytes for ASCII ends (Unicode whitespace, and the vertical tab that
/// `trim_ascii` keeps, are left to `trim` when a line ends in one): the generic trim
/// decodes chars at both ends of every line.
pub(super) fn trim_line(line: &str) -> &str {
    let t = line.trim_ascii();
    let exotic = |b: Option<&u8>| b.is_some_and(|&b| !b.is_ascii() || b == 0x0b);
    if exotic(t.as_bytes().first()) || exotic(t.as_bytes().last()) {
        t.trim()
    } else {
        t
    }
}

/// Number of lines (the number of the last one).
pub(super) fn line_count(text: &str) -> usize {
    let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    newlines + usize::from(!text.ends_with('\n'))
}

/// Said after a malformed last line of a text that has no final newline.
pub(super) fn truncation_hint(truncated: bool, lineno: usize, text: &str) -> &'static str {
    if truncated && lineno == line_count(text) {
        " (this is the last line and the file ends in the middle of it: truncated dump?)"
    } else {
        ""
    }
}

/// A line cut to 80 chars for a message.
/// A line quoted in a message: at most 80 characters, control characters escaped (a
/// dump line may hold an ANSI escape sequence meant for the operator's terminal).
pub(super) fn shorten(s: &str) -> String {
    let s = crate::formats::text::escape_controls(s);
    if s.chars().count() > 80 {
        format!("{}...", s.chars().take(77).collect::<String>())
    } else {
        s.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_line_is_trim() {
        let ends = [
            "", " ", "\t", "\r", "\x0b", "\x0c", "\u{a0}", "\u{85}", "\u{2003}", "x", "é", " \x0b ",
        ];
        for a in ends {
            for b in ends {
                let s = format!("{a}[1] \"S-1\"[2]{b}");
                assert_eq!(trim_line(&s), s.trim(), "{s:?}");
                let s = format!("{a}{b}");
                assert_eq!(trim_line(&s), s.trim(), "{s:?}");
            }
        }
    }

    #[test]
    fn numbers_and_guids() {
        assert_eq!(whole_number("0x1f"), Some(31));
        assert_eq!(whole_number("0X1F"), Some(31));
        assert_eq!(whole_number("42"), Some(42));
        assert_eq!(whole_number("42a"), None);
        assert_eq!(whole_number("0x"), None);
        assert_eq!(whole_number("0x10000000000000000"), None, "17 hex digits");
        assert_eq!(whole_number("18446744073709551616"), None, "overflow");
        assert_eq!(guid_from_id("S-0002c90000001003"), Some(0x2c90000001003));
        assert_eq!(guid_from_id("H-0002c90000001003x"), None);
        assert_eq!(guid_from_id("X-0002c90000001003"), None);
        assert_eq!(guid_from_id("S-"), None);
    }

    #[test]
    fn bracketed_tokens_rewind_when_they_do_not_match() {
        let mut c = Cur::new("[12](0x2c9)[ext 5] \"a b\"[x");
        assert_eq!(c.bracket_num(), Some(12));
        assert_eq!(c.paren_guid(), Some(0x2c9));
        assert_eq!(c.ext_port(), Some(5));
        assert_eq!(c.spaces(), 1);
        assert_eq!(c.quoted(), Some((20, 23)));
        let at = c.i;
        assert_eq!(c.bracket_num(), None);
        assert_eq!(c.i, at);
        assert_eq!(leading_port("[7] garbage"), Some(7));
        assert_eq!(leading_port("[99999999999]"), None);
    }

    #[test]
    fn words_stop_at_any_whitespace() {
        let line = "4x\u{a0}SDR rest";
        let mut c = Cur::new(line);
        assert_eq!(c.word(line), Some((0, 2)));
        assert_eq!(c.word(line), None, "at a blank");
    }

    #[test]
    fn headers_and_guid_lines() {
        let h = "Switch\t24 \"S-1\"\t# \"d\" lid 3";
        assert_eq!(node_header(h), Some((NodeKind::Switch, 24, "S-1", "# \"d\" lid 3")));
        assert_eq!(node_header("Hca 2 \"H-1\""), Some((NodeKind::Ca, 2, "H-1", "")));
        assert_eq!(node_header("Switch 24 \"S-1\" junk"), None);
        assert_eq!(
            node_header("Switch24 \"S-1\"# \"d\""),
            Some((NodeKind::Switch, 24, "S-1", "# \"d\"")),
            "tabs lost in a terminal log"
        );
        assert_eq!(node_header("Switchx24 \"S-1\""), None);
        assert_eq!(node_header("Switch 99999999999 \"S-1\""), None);
        assert_eq!(
            header_comment("# \"leaf L4\" base port 0 lid 12 lmc 1"),
            (Some("leaf L4".into()), Some(12), Some(1))
        );
        assert_eq!(
            guid_line("switchguid=0x2c90000001003(2c90000001003)"),
            Some((NodeKind::Switch, false, 0x2c90000001003))
        );
        assert_eq!(guid_line("caguid + 4"), Some((NodeKind::Ca, true, 4)));
        assert_eq!(guid_line("rtguid: 4"), None);
    }

    #[test]
    fn substring_search() {
        for (hay, pat) in [
            ("a ==( b )==> c", "==>"),
            ("==>", "==>"),
            ("= == =", "=="),
            ("abc", "x"),
            ("", "a"),
            ("aab", "ab"),
        ] {
            assert_eq!(find_seq(hay, pat), hay.find(pat), "{hay} / {pat}");
        }
    }

    #[test]
    fn port_lines() {
        let (p, labels) = port_line("[3](2c9)[ext 1] \"S-1\"[7][ext 2](0x5) # lid 4 lmc 1 \"d\" lid 9 4xEDR").unwrap();
        assert_eq!(labels, [None, None]);
        assert_eq!(
            (p.num, p.guid, p.remote_port, p.remote_guid),
            (3, Some(0x2c9), 7, Some(5))
        );
        assert!(matches!(p.remote, Remote::Id("S-1")));
        assert_eq!(
            (p.lid, p.lmc, p.width, p.speed),
            (Some(4), Some(1), Some(Width::X4), Some(Speed::Edr))
        );
        let (p, _) = port_line("[1] \"B\" w=16 s=2 e=1").unwrap();
        assert_eq!(
            (p.remote_port, p.width, p.speed),
            (1, Some(Width::X2), Some(Speed::Ddr))
        );
        assert!(port_line("[1] \"B\"[2] w=3").is_none(), "not a width code");
        assert!(port_line("[1] \"B\"[2] s=8").is_none(), "ibsim has no such speed");
        assert!(port_line("[1] \"B\"[2] e=x").is_none());
        assert!(port_line("[1] B[2]").is_none());
    }
}
