//! LFT dumps: OpenSM's `opensm-lfts.dump` (written and read), and the `dump_lfts` /
//! `ibroute` outputs of infiniband-diags (read).
//!
//! All three share the grammar OpenSM's `file` routing engine accepts: a line starting
//! with `Unicast lids` opens a switch and contains ` guid 0x<hex>`; an entry is
//! `0x<lid hex> <port decimal>` optionally followed by ` portguid 0x<hex>` (which lets
//! OpenSM remap LIDs). OpenSM gives every listed switch an empty table before reading its
//! entries and leaves unlisted switches empty, so a dump ibfat writes always lists every
//! switch and every routed LID, and is written atomically.

use crate::error::{Error, Result};
use crate::formats::text::{escape_controls, find_byte, flatten_controls};
use crate::routing::lids::Lids;
use crate::routing::{LftSet, NO_ROUTE};
use crate::topology::{Fabric, NodeKind};
use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

mod stream;
pub use stream::{read, read_from, read_listed, read_with_lids};

fn kind_word(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Switch => "Switch",
        NodeKind::Ca => "Channel Adapter",
        NodeKind::Router => "Router",
    }
}

/// How much of OpenSM's per-entry annotation a written dump carries. Both load into
/// OpenSM's `file` routing engine and ibfat's readers alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DumpStyle {
    /// OpenSM's own dump: `0x<lid> <port> # <type> portguid 0x<guid>: '<desc>'`.
    #[default]
    Full,
    /// `0x<lid> <port> # portguid 0x<guid>`: only what OpenSM's file engine reads from an
    /// entry (the LID, the port, and the port GUID it remaps LIDs by) and ibfat's readers
    /// check the guid2lid against, without the node type and description; about half the
    /// bytes of [`DumpStyle::Full`] (LSFT(32): 3.2 GB instead of 5.8 GB).
    Compact,
    /// [`DumpStyle::Full`] while that dump stays within [`AUTO_COMPACT_BYTES`], else
    /// [`DumpStyle::Compact`]: the node type and description repeated in every entry are
    /// read by neither OpenSM nor ibfat, and above a gigabyte they cost seconds of disk
    /// per routing (LSFT(32): 2.6 GB more to write). Resolve it with [`DumpStyle::resolve`].
    Auto,
}

/// Above this size of the full dump, [`DumpStyle::Auto`] writes the compact one.
pub(crate) const AUTO_COMPACT_BYTES: u64 = 1 << 30;

impl DumpStyle {
    /// The style a dump of these tables is written in: `Auto` becomes `Full` or `Compact`
    /// by the exact size the full dump would have ([`full_dump_bytes`]).
    pub fn resolve(self, fabric: &Fabric, lids: &Lids, lfts: &LftSet) -> DumpStyle {
        self.resolve_within(fabric, lids, lfts, AUTO_COMPACT_BYTES)
    }

    /// [`DumpStyle::resolve`] with another size limit (tests use small fabrics).
    pub(crate) fn resolve_within(self, fabric: &Fabric, lids: &Lids, lfts: &LftSet, limit: u64) -> DumpStyle {
        match self {
            DumpStyle::Auto if full_dump_bytes(fabric, lids, lfts) > limit => DumpStyle::Compact,
            DumpStyle::Auto => DumpStyle::Full,
            style => style,
        }
    }

    /// The name reports give the style (`"full"`, `"compact"`; `"auto"` unresolved).
    pub fn name(self) -> &'static str {
        match self {
            DumpStyle::Full => "full",
            DumpStyle::Compact => "compact",
            DumpStyle::Auto => "auto",
        }
    }
}

/// The exact size in bytes of these tables' dump in [`DumpStyle::Full`], without writing
/// it: every routed entry is its LID's text, and the section headers are counted as
/// written. Reads each table entry once.
pub(crate) fn full_dump_bytes(fabric: &Fabric, lids: &Lids, lfts: &LftSet) -> u64 {
    use rayon::prelude::*;
    let text = DumpText::new(fabric, lids, lfts, DumpStyle::Full);
    let entry: Vec<u64> = (0..lfts.stride)
        .map(|lid| (text.heads[lid].len() + 3 + text.tails[lid].len()) as u64)
        .collect();
    (0..lfts.switches.len())
        .into_par_iter()
        .map(|row| {
            let mut bytes = text.header(fabric, lids, lfts, row).len() as u64;
            let mut n = 0u64;
            for (lid, &port) in lfts.row(row).iter().enumerate().skip(1) {
                if port != NO_ROUTE {
                    bytes += entry[lid];
                    n += 1;
                }
            }
            bytes + format!("{n} lids dumped\n").len() as u64
        })
        .sum()
}

/// Per-LID pieces of the dump text: the text after the port depends only on the LID, so it
/// is rendered once and copied into every switch section.
struct DumpText {
    heads: Vec<String>,
    tails: Vec<String>,
    ports: Vec<String>,
}

impl DumpText {
    fn new(fabric: &Fabric, lids: &Lids, lfts: &LftSet, style: DumpStyle) -> DumpText {
        let heads = (0..lfts.stride).map(|lid| format!("0x{lid:04x} ")).collect();
        let tails = (0..lfts.stride)
            .map(
                |lid| match lids.owner.get(lid).and_then(|&o| fabric.ports.get(o as usize)) {
                    Some(p) if style == DumpStyle::Compact => format!(" # portguid 0x{:016x}\n", p.guid),
                    None if style == DumpStyle::Compact => "\n".to_string(),
                    Some(p) => {
                        let n = fabric.node(p.node);
                        format!(
                            " # {} portguid 0x{:016x}: '{}'\n",
                            kind_word(n.kind),
                            p.guid,
                            flatten_controls(&n.desc)
                        )
                    }
                    None => " # unknown node and type (LID might be unconfigured)\n".to_string(),
                },
            )
            .collect();
        let ports = (0..=255u32).map(|p| format!("{p:03}")).collect();
        DumpText { heads, tails, ports }
    }

    /// The line that opens a switch's section.
    fn header(&self, fabric: &Fabric, lids: &Lids, lfts: &LftSet, row: usize) -> String {
        let sw = lfts.switches[row];
        let node = fabric.node(sw);
        let swlid = lids.base[fabric.port_index(sw, 0) as usize];
        let max = lfts.stride - 1;
        format!(
            "Unicast lids [0-{max}] of switch Lid {swlid} guid 0x{:016x} ('{}'):\n",
            node.guid,
            flatten_controls(&node.desc)
        )
    }

    fn section(&self, fabric: &Fabric, lids: &Lids, lfts: &LftSet, row: usize, out: &mut String) {
        out.push_str(&self.header(fabric, lids, lfts, row));
        let mut n = 0;
        for (lid, &port) in lfts.row(row).iter().enumerate().skip(1) {
            if port == NO_ROUTE {
                continue;
            }
            n += 1;
            out.push_str(&self.heads[lid]);
            out.push_str(&self.ports[port as usize]);
            out.push_str(&self.tails[lid]);
        }
        let _ = writeln!(out, "{n} lids dumped");
    }
}

/// Render the LFTs in OpenSM's `opensm-lfts.dump` format (the `-U` file format):
/// `0x<lid> <port> # <type> portguid 0x<guid>: '<desc>'` per routed LID, every switch.
pub fn write_opensm(fabric: &Fabric, lids: &Lids, lfts: &LftSet) -> String {
    let text = DumpText::new(fabric, lids, lfts, DumpStyle::Full);
    let mut out = String::new();
    for row in 0..lfts.switches.len() {
        text.section(fabric, lids, lfts, row, &mut out);
    }
    out
}

/// Write the dump to `path` atomically, rendering switch sections in parallel and
/// streaming them in order (the file of a large fabric is hundreds of megabytes).
pub fn write_opensm_file(path: &Path, fabric: &Fabric, lids: &Lids, lfts: &LftSet) -> Result<()> {
    crate::formats::atomic::write_file_with(path, |w| stream_opensm(w, fabric, lids, lfts))
}

/// Stream the dump into `w`, rendering switch sections in parallel, in order (what
/// [`write_opensm_file`] writes; for callers that publish it with other files). Memory
/// stays at a few batches of sections whatever the fabric's size: one batch is written
/// while the next is rendered. The bytes are exactly [`write_opensm`]'s.
pub fn stream_opensm(w: &mut dyn std::io::Write, fabric: &Fabric, lids: &Lids, lfts: &LftSet) -> std::io::Result<()> {
    stream_opensm_as(w, fabric, lids, lfts, DumpStyle::Full)
}

/// [`stream_opensm`] in either [`DumpStyle`] (`route --dump-style compact`, and `auto` above a gigabyte: a multi-gigabyte
/// dump is written, synced and read in about half the time).
pub fn stream_opensm_as(
    w: &mut dyn std::io::Write,
    fabric: &Fabric,
    lids: &Lids,
    lfts: &LftSet,
    style: DumpStyle,
) -> std::io::Result<()> {
    use rayon::prelude::*;
    let style = style.resolve(fabric, lids, lfts);
    let text = DumpText::new(fabric, lids, lfts, style);
    let batch = rayon::current_num_threads().max(1) * 2;
    let render = |rows: std::ops::Range<usize>| -> Vec<String> {
        rows.into_par_iter()
            .map(|row| {
                let mut s = String::with_capacity(lfts.stride * 64);
                text.section(fabric, lids, lfts, row, &mut s);
                s
            })
            .collect()
    };
    let n = lfts.switches.len();
    let mut ready = render(0..batch.min(n));
    let mut next = batch.min(n);
    while !ready.is_empty() {
        let upcoming = next..(next + batch).min(n);
        next = upcoming.end;
        let mut rendered = Vec::new();
        // the writer need not be `Send`: it stays on this thread while rayon renders
        let written = rayon::in_place_scope(|s| {
            s.spawn(|_| rendered = render(upcoming));
            ready.iter().try_for_each(|p| w.write_all(p.as_bytes()))
        });
        written?;
        ready = rendered;
    }
    Ok(())
}

/// One switch section of a dump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpSwitch {
    /// The switch's node GUID.
    pub guid: u64,
    /// Line of the section's header (for error messages).
    pub line: usize,
    /// (lid, port, port guid if given, line)
    pub entries: Vec<(u16, u8, Option<u64>, usize)>,
}

/// Up to 16 hex digits (at least one) at the start of `s`: the value and the digits'
/// length. Hand written, like [`entry`]: the reader runs them on every line of
/// multi-gigabyte dumps.
fn hex_prefix(s: &[u8]) -> Option<(u64, usize)> {
    let mut v = 0u64;
    let mut n = 0;
    for &c in s.iter().take(16) {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => break,
        };
        v = v << 4 | d as u64;
        n += 1;
    }
    (n > 0).then_some((v, n))
}

/// `0x0001 001` at the start of an entry line: LID (hex), blanks, port (decimal), and the
/// length of that prefix.
fn entry_prefix(i: &[u8]) -> Option<(usize, (u64, u64))> {
    let i0 = i.strip_prefix(b"0x")?;
    let (lid, n) = hex_prefix(i0)?;
    let blanks = i0[n..].iter().take_while(|&&c| c == b' ' || c == b'\t').count();
    if blanks == 0 {
        return None;
    }
    let at = 2 + n + blanks;
    let digits = i[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let port = i[at..at + digits]
        .iter()
        .try_fold(0u64, |v, &c| v.checked_mul(10)?.checked_add((c - b'0') as u64))?;
    Some((at + digits, (lid, port)))
}

fn entry(i: &str) -> Option<(&str, (u64, u64))> {
    entry_prefix(i.as_bytes()).map(|(n, v)| (&i[n..], v))
}

/// `find` of a key starting with an ASCII byte, on bytes, without building a substring
/// searcher per call. Matches of an ASCII key are the same in the bytes and in their
/// lossy UTF-8 text (replacement only touches non-ASCII bytes).
fn find_in(h: &[u8], key: &[u8]) -> Option<usize> {
    let first = *key.first()?;
    let mut at = 0;
    while let Some(i) = find_byte(&h[at..], first) {
        let p = at + i;
        if h[p..].starts_with(key) {
            return Some(p);
        }
        at = p + 1;
    }
    None
}

fn find(s: &str, key: &str) -> Option<usize> {
    find_in(s.as_bytes(), key.as_bytes())
}

fn after_in(h: &[u8], key: &[u8]) -> Option<u64> {
    let k = find_in(h, key)?;
    hex_prefix(&h[k + key.len()..]).map(|x| x.0)
}

fn after(s: &str, key: &str) -> Option<u64> {
    after_in(s.as_bytes(), key.as_bytes())
}

/// The common entry line (`0x...` at the very start, well formed, in range) classified
/// straight from its bytes, without converting the line to text: what [`classify`] would
/// say of it, or `None` to let [`classify`] decide (and word the error).
pub(crate) fn quick_entry(line: &[u8]) -> Option<Line> {
    let (n, (lid, port)) = entry_prefix(line)?;
    if lid == 0 || lid > 0xBFFF || port > 254 {
        return None;
    }
    let rest = &line[n..];
    if find_in(rest, b"illegal port").is_some() {
        return Some(Line::Ignored);
    }
    Some(Line::Entry {
        lid: lid as u16,
        port: port as u8,
        pguid: after_in(rest, b"portguid 0x"),
    })
}

/// One line of a dump, classified (the grammar [`parse`] and the streaming reader share).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// `Unicast lids ... guid 0x<guid> ...`: a switch section opens.
    Header(u64),
    /// `0x<lid> <port> ...`, with the `portguid 0x...` annotation when given.
    Entry {
        /// Destination LID.
        lid: u16,
        /// Output port.
        port: u8,
        /// The port GUID the annotation names.
        pguid: Option<u64>,
    },
    /// An entry `ibroute` marks `illegal port` (beyond the LMC range): ignored.
    Ignored,
    /// `<n> lids dumped` / `<n> valid lids dumped`: a switch section is complete.
    Footer,
    /// Headers, comments and tool noise (`dump_lfts` prints a deprecation notice).
    Other,
}

/// Classify one line; `in_section` says whether a switch header came before it.
pub(crate) fn classify(raw: &str, lineno: usize, path: &Path, in_section: bool) -> Result<Line> {
    let line = raw.trim_end_matches('\r').trim();
    if line.starts_with("Unicast lids") {
        let guid = after(line, " guid 0x").ok_or_else(|| {
            Error::at(
                path,
                lineno,
                "switch header without ` guid 0x<hex>`: expected `Unicast lids [...] of switch ... guid 0x<guid> ...`",
            )
        })?;
        return Ok(Line::Header(guid));
    }
    if line.starts_with("0x") {
        if !in_section {
            return Err(Error::at(
                path,
                lineno,
                "LFT entry before any `Unicast lids ... guid 0x...` switch header",
            ));
        }
        let (rest, (lid, port)) = entry(line).ok_or_else(|| {
            Error::at(
                path,
                lineno,
                format!(
                    "malformed LFT entry `{}`: expected `0x<lid hex> <port decimal>`",
                    escape_controls(line)
                ),
            )
        })?;
        if lid == 0 || lid > 0xBFFF {
            return Err(Error::at(
                path,
                lineno,
                format!("LID 0x{lid:x} is outside the unicast range 0x1..=0xbfff"),
            ));
        }
        if port > 254 {
            return Err(Error::at(path, lineno, format!("port {port} is out of range 0..=254")));
        }
        if find(rest, "illegal port").is_some() {
            return Ok(Line::Ignored); // ibroute marks entries beyond the LMC range this way
        }
        return Ok(Line::Entry {
            lid: lid as u16,
            port: port as u8,
            pguid: after(rest, "portguid 0x"),
        });
    }
    if line.ends_with("lids dumped") && line.starts_with(|c: char| c.is_ascii_digit()) {
        return Ok(Line::Footer);
    }
    Ok(Line::Other)
}

/// Truncation: every real dump closes each switch section with `<n> lids dumped`, so once
/// one section has that line, a section without it was cut off (a dump copied while
/// being written, a full disk). OpenSM would drop every LID the cut section misses.
#[derive(Default)]
pub(crate) struct Sections {
    /// Header line of the open section and whether it was closed by its footer.
    open: Option<(usize, bool)>,
    /// A footer was seen: every section must have one.
    footers: bool,
    /// Header line of the first section that ended without a footer.
    unfinished: Option<usize>,
}

impl Sections {
    /// Track one classified line (at `lineno`); an error for a section found truncated.
    pub(crate) fn track(&mut self, line: &Line, lineno: usize, path: &Path) -> Result<()> {
        match line {
            Line::Header(_) => {
                self.close();
                self.open = Some((lineno, false));
            }
            Line::Footer => {
                if let Some(open) = self.open.as_mut() {
                    open.1 = true;
                }
                self.footers = true;
            }
            _ => {}
        }
        self.verdict(path)
    }

    fn close(&mut self) {
        if let Some((line, false)) = self.open.take() {
            self.unfinished.get_or_insert(line);
        }
    }

    fn verdict(&self, path: &Path) -> Result<()> {
        match self.unfinished {
            Some(line) if self.footers => Err(Error::at(
                path,
                line,
                "switch section without its `<n> lids dumped` line: the dump is truncated or spliced",
            )
            .with_hint("take the dump again (OpenSM drops every LID a switch section omits)")),
            _ => Ok(()),
        }
    }

    /// At the end of the input: whether the last section was complete.
    pub(crate) fn finish(&mut self, path: &Path) -> Result<()> {
        self.close();
        self.verdict(path)
    }
}

/// Parse any of the three dump formats.
pub fn parse(text: &str, path: &Path) -> Result<Vec<DumpSwitch>> {
    let mut out: Vec<DumpSwitch> = Vec::new();
    let mut sections = Sections::default();
    for (k, raw) in text.lines().enumerate() {
        let lineno = k + 1;
        let line = classify(raw, lineno, path, !out.is_empty())?;
        sections.track(&line, lineno, path)?;
        match line {
            Line::Header(guid) => out.push(DumpSwitch {
                guid,
                line: lineno,
                entries: Vec::new(),
            }),
            Line::Entry { lid, port, pguid } => {
                if let Some(sw) = out.last_mut() {
                    sw.entries.push((lid, port, pguid, lineno));
                }
            }
            Line::Ignored | Line::Footer | Line::Other => {}
        }
    }
    if out.is_empty() {
        return Err(Error::at(
            path,
            0,
            "no `Unicast lids ... guid 0x...` switch sections: not an LFT dump",
        ));
    }
    sections.finish(path)?;
    Ok(out)
}

/// Turn parsed sections into LFTs for `fabric` with `lids`. A switch GUID the fabric does
/// not have, a port beyond a switch, or a LID whose port GUID disagrees with the fabric's
/// LIDs is an error (an LFT set for another fabric or another LID assignment).
pub fn to_lftset(sections: &[DumpSwitch], fabric: &Fabric, lids: &Lids, path: &Path) -> Result<LftSet> {
    let by_guid: HashMap<u64, u32> = fabric.switches().map(|s| (fabric.node(s).guid, s)).collect();
    let max_in_dump = sections
        .iter()
        .flat_map(|s| s.entries.iter().map(|e| e.0))
        .max()
        .unwrap_or(0);
    let mut lfts = LftSet::new(fabric, lids.max_lid().max(max_in_dump));
    let mut seen = vec![false; fabric.len()];
    for s in sections {
        let Some(&sw) = by_guid.get(&s.guid) else {
            return Err(Error::at(
                path,
                s.line,
                format!(
                    "switch GUID 0x{:016x} is not in the topology: an LFT set for another fabric?",
                    s.guid
                ),
            ));
        };
        if std::mem::replace(&mut seen[sw as usize], true) {
            return Err(Error::at(
                path,
                s.line,
                format!("switch 0x{:016x} ('{}') has two sections", s.guid, fabric.node(sw).desc),
            ));
        }
        let nports = fabric.node(sw).nports;
        for &(lid, port, pguid, line) in &s.entries {
            if port > nports {
                return Err(Error::at(
                    path,
                    line,
                    format!(
                        "port {port} is beyond switch '{}' which has ports 1..={nports}",
                        fabric.node(sw).desc
                    ),
                ));
            }
            if let Some(g) = pguid {
                let owner = lids
                    .owner
                    .get(lid as usize)
                    .copied()
                    .unwrap_or(crate::topology::NO_PEER);
                let ok = owner != crate::topology::NO_PEER && fabric.ports[owner as usize].guid == g;
                if !ok {
                    return Err(Error::at(
                        path,
                        line,
                        format!("LID 0x{lid:04x} belongs to port GUID 0x{g:016x} in the dump but not in the topology's LIDs"),
                    )
                    .with_hint("pass the guid2lid the tables were made for (--lids), or a dump taken after the same sweep"));
                }
            }
            lfts.set(sw, lid, port);
        }
    }
    Ok(lfts)
}

/// The LIDs a dump was made for, from its `portguid 0x...` annotations (OpenSM's
/// `opensm-lfts.dump`, `dump_lfts` and `ibroute` name the port behind every LID they
/// route). Lets a dump be checked without the `guid2lid` it was made with; an error when
/// the dump is not annotated or does not name a LID for every switch and host.
pub fn lids_from_annotations(sections: &[DumpSwitch], fabric: &Fabric, path: &Path) -> Result<Lids> {
    // flat by LID: the port GUID that owns it and the line that said so
    let max = sections
        .iter()
        .flat_map(|s| s.entries.iter().map(|e| e.0))
        .max()
        .unwrap_or(0);
    let mut owner: Vec<Option<(u64, usize)>> = vec![None; max as usize + 1];
    for s in sections {
        for &(lid, _, pguid, line) in &s.entries {
            let Some(guid) = pguid else {
                return Err(Error::at(
                    path,
                    line,
                    "entry without a `portguid 0x...` annotation: the dump does not say which port owns the LID",
                )
                .with_hint("pass the guid2lid the tables were made for (--lids)"));
            };
            match owner[lid as usize] {
                None => owner[lid as usize] = Some((guid, line)),
                Some((g, first)) if g != guid => {
                    return Err(Error::at(
                        path,
                        line,
                        format!(
                        "LID 0x{lid:04x} is annotated with port GUID 0x{guid:016x} here but 0x{g:016x} at line {first}"
                    ),
                    ))
                }
                Some(_) => {}
            }
        }
    }
    stream::lids_of(&owner, fabric, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kary::model::KaryParams;
    use crate::families::lsft::model::LsftParams;
    use crate::topology::{BuildOptions, FamilySpec, Spec};

    #[test]
    fn reads_all_three_dialects() {
        let opensm = "Unicast lids [0-14] of switch Lid 9 guid 0x0002c90000001000 ('leaf L1'):\n\
                      0x0001 001 # Channel Adapter portguid 0x0002c90000000101: 'H1 HCA-1'\n0x0009 000 # Switch portguid 0x0002c90000001000: 'leaf L1'\n14 lids dumped\n";
        let ibroute = "Unicast lids [0x0-0xe] of switch Lid 9 guid 0x0002c90000001000 (leaf L1):\n  Lid  Out   Destination\n       Port     Info \n\
                       0x0001 001 : (Channel Adapter portguid 0x0002c90000000101: 'H1 HCA-1')\n0x0009 000 : (Switch portguid 0x0002c90000001000: 'leaf L1')\n2 valid lids dumped \n";
        let dump_lfts = format!(
            "*** WARNING ***: this command has been replaced by dump_fts\n\n\n{}",
            ibroute.replace("Lid 9 guid", "DR path slid 0; dlid 0; 0,1 guid")
        );
        for t in [opensm, ibroute, &dump_lfts] {
            let s = parse(t, Path::new("d")).unwrap();
            assert_eq!(s.len(), 1);
            assert_eq!(s[0].guid, 0x0002c90000001000);
            assert_eq!(
                s[0].entries.iter().map(|e| (e.0, e.1, e.2)).collect::<Vec<_>>(),
                vec![(1, 1, Some(0x0002c90000000101)), (9, 0, Some(0x0002c90000001000))]
            );
        }
        let minimal = "Unicast lids of switch guid 0x0002c90000001000 x\n0x0001 1\n0x0008 3\n";
        assert_eq!(parse(minimal, Path::new("d")).unwrap()[0].entries.len(), 2);
    }

    #[test]
    fn entry_grammar_edges() {
        assert_eq!(entry("0x00aF\t 012 # x"), Some((" # x", (0xaf, 12))));
        assert_eq!(entry("0x1 7"), Some(("", (1, 7))));
        for bad in [
            "0x 1",
            "0x1",
            "0x1 ",
            "0xg 1",
            "0x00000000000000001 1",
            "0x1 x",
            "0x1 99999999999999999999999",
        ] {
            assert_eq!(entry(bad), None, "{bad}");
        }
        assert_eq!(hex_prefix(b"ffffffffffffffff1"), Some((u64::MAX, 16)));
        assert_eq!(entry("0x1 000000000000000000000000007 x"), Some((" x", (1, 7))));
        assert_eq!(after("a portguid 0x12: b", "portguid 0x"), Some(0x12));
        assert_eq!(find("pportguid", "portguid"), Some(1));
        assert_eq!(find("port", "portguid"), None);
    }

    #[test]
    fn streamed_dump_is_byte_identical() {
        let yaml = "family: lsft\norder: 5\ntwo_sided: true\n";
        let plan = crate::topology::Spec::from_yaml(yaml, Path::new("s"))
            .unwrap()
            .build()
            .unwrap();
        let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), 0).unwrap();
        let lfts = crate::routing::route(&plan.fabric, &plan.layout, &lids).unwrap();
        let whole = write_opensm(&plan.fabric, &lids, &lfts);
        let mut streamed = Vec::new();
        stream_opensm(&mut streamed, &plan.fabric, &lids, &lfts).unwrap();
        assert_eq!(streamed, whole.into_bytes());
    }

    #[test]
    fn errors_carry_lines() {
        let e = parse(
            "Unicast lids [0-1] of switch Lid 1 guid 0x1 ('x'):\n0x0001 one\n",
            Path::new("d"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("d:2: malformed LFT entry"), "{e}");
        let e = parse("0x0001 001\n", Path::new("d")).unwrap_err().to_string();
        assert!(e.starts_with("d:1: LFT entry before"), "{e}");
        let e = parse("hello\n", Path::new("d")).unwrap_err().to_string();
        assert!(e.contains("not an LFT dump"), "{e}");
        let e = parse(
            "Unicast lids [0-1] of switch Lid 1 guid 0x1 ('x'):\n0x0001 300\n",
            Path::new("d"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("d:2: port 300"), "{e}");
    }

    /// `route --dump-style auto` decides by the exact size the full dump would have: the size
    /// is computed without writing (the dump of LSFT(32) is 5.8 GB), so it must equal the
    /// written text byte for byte, and the limit switches to the compact style just above it.
    #[test]
    fn auto_dump_style_decides_by_the_exact_full_size() {
        for (f, lmc) in [
            (
                FamilySpec::Lsft(LsftParams {
                    order: 3,
                    two_sided: false,
                    hosts_per_leaf: None,
                }),
                0,
            ),
            (
                FamilySpec::Lsft(LsftParams {
                    order: 4,
                    two_sided: true,
                    hosts_per_leaf: None,
                }),
                1,
            ),
            (FamilySpec::Kary(KaryParams { arity: 4, levels: 3 }), 0),
        ] {
            let p = Spec {
                family: f,
                options: BuildOptions {
                    shuffle: Some(7),
                    ..Default::default()
                },
            }
            .build()
            .unwrap();
            let lids = Lids::plan(&p.fabric, p.layout.hosts(), lmc).unwrap();
            let lfts = crate::routing::route(&p.fabric, &p.layout, &lids).unwrap();
            let full = write_opensm(&p.fabric, &lids, &lfts);
            let bytes = full_dump_bytes(&p.fabric, &lids, &lfts);
            assert_eq!(bytes, full.len() as u64, "{f:?}");
            let at = |limit| DumpStyle::Auto.resolve_within(&p.fabric, &lids, &lfts, limit);
            assert_eq!(
                at(bytes),
                DumpStyle::Full,
                "{f:?}: a dump of exactly the limit stays full"
            );
            assert_eq!(at(bytes - 1), DumpStyle::Compact, "{f:?}");
            assert_eq!(DumpStyle::Auto.resolve(&p.fabric, &lids, &lfts), DumpStyle::Full);
            for s in [DumpStyle::Full, DumpStyle::Compact] {
                assert_eq!(s.resolve_within(&p.fabric, &lids, &lfts, 0), s, "explicit styles stay");
            }
            // what auto writes above the limit is the compact dump
            let mut compact = Vec::new();
            stream_opensm_as(&mut compact, &p.fabric, &lids, &lfts, DumpStyle::Compact).unwrap();
            assert!(
                compact.len() * 10 < full.len() * 7,
                "{f:?}: compact is well under the full size"
            );
        }
    }
}
