//! Reader for fabric dumps: what the tools that walk a live fabric print, turned into a
//! [`Fabric`] to recognise, route or compare with a plan. Three formats are read, because
//! those are what an operator has at hand:
//!
//! * `ibnetdiscover` output (the default format and the older formats of its man page,
//!   `-g` chassis grouping, `-f` full info): what a real fabric gives;
//! * the `ibnetdiscover -p` ports report, a one-line-per-port summary some sites keep;
//! * ibsim net files, which share the record grammar and describe the simulated fabrics
//!   ibfat plans and tests against.
//!
//! The grammar is line based: a node header (`Switch 36 "S-..." # "desc" base port 0
//! lid 3 lmc 0`, `Ca 1 "H-..." # "desc"`, `Hca`, `Rt`) followed by port lines
//! (`[3] "S-..."[7] # "desc" lid 9 4xQDR`, `[1](portguid) "S-..."[3] # lid 4 lmc 0 ...`),
//! with `switchguid=`/`caguid=`/`rtguid=` lines before the header giving GUIDs; anything
//! malformed is reported with its line number and what was expected. Tabs, CRLF line
//! ends, comments and unknown lines outside records are accepted (unknown ones are
//! listed in `notes`). Grouping output (`-g`) adds `Chassis N (guid ...)`, `# Spine
//! Nodes`-style section comments, `Non-Chassis Nodes`, chassis comments after GUID lines
//! and external port numbers (`[3][ext 5]`); `-f` adds ` s=1 w=2 v=4 e=1` after the
//! rate. All of them are understood (and the external port numbers and raw rate fields
//! ignored: the cabling is the port numbers of the chips).
//!
//! Consistency problems that do not prevent building a fabric (a link listed by one end
//! only, ends that disagree, a port beyond a node's port count, duplicate GUIDs) are
//! collected in [`Discovered::problems`]: the cabling check reports them next to what it
//! could still compare, while routing and recognition refuse them ([`Discovered::strict`]).
//! The ports involved are listed in [`Discovered::suspect`] so that a check can say
//! which cables it could not compare instead of calling them missing.
//!
//! The stages: `grammar` (tokens and line grammars, written once), `records` (lines to
//! node and port records), `ports_report` (the `-p` format), `assemble` (records to the
//! fabric and its problems).

mod assemble;
mod detect;
mod grammar;
mod iblinkinfo;
mod keys;
mod linescan;
mod netfast;
mod ports_report;
mod records;
mod subnet_lst;
mod swar;
#[cfg(test)]
mod test_dumps;

use crate::error::{Error, Result};
use crate::topology::{Fabric, NodeId};
use grammar::line_count;
use std::path::Path;

/// Which dialect a dump was in (reports say what was read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DumpFormat {
    /// `ibnetdiscover` topology output (any version, `-g`, `-f`, `-s`).
    Ibnetdiscover,
    /// `ibnetdiscover -p` ports report.
    Ports,
    /// The ibnetdiscover-format file ibdiagnet writes (`ibdiagnet2.ibnetdiscover`).
    Ibdiagnet,
    /// ibsim net file.
    IbsimNet,
    /// `iblinkinfo` (block form; `-S` for one switch).
    Iblinkinfo,
    /// `iblinkinfo -l` (one line per port).
    IblinkinfoLines,
    /// OpenSM's `opensm-subnet.lst`.
    SubnetLst,
    /// ibdiagnet's `ibdiagnet2.lst`: subnet.lst's lines, each cable listed once.
    IbdiagnetLst,
}

impl DumpFormat {
    /// Every format, in the order `--input-format` lists them.
    pub(crate) const ALL: [DumpFormat; 8] = [
        DumpFormat::Ibnetdiscover,
        DumpFormat::Ports,
        DumpFormat::Ibdiagnet,
        DumpFormat::IbsimNet,
        DumpFormat::Iblinkinfo,
        DumpFormat::IblinkinfoLines,
        DumpFormat::SubnetLst,
        DumpFormat::IbdiagnetLst,
    ];

    /// What reports say was read: `ibnetdiscover output`, `iblinkinfo -l output` ...
    pub fn describe(self) -> &'static str {
        match self {
            DumpFormat::Ibnetdiscover => "ibnetdiscover output",
            DumpFormat::Ports => "ibnetdiscover -p ports report",
            DumpFormat::Ibdiagnet => "ibdiagnet ibnetdiscover file",
            DumpFormat::IbsimNet => "ibsim net file",
            DumpFormat::Iblinkinfo => "iblinkinfo output",
            DumpFormat::IblinkinfoLines => "iblinkinfo -l output",
            DumpFormat::SubnetLst => "opensm-subnet.lst",
            DumpFormat::IbdiagnetLst => "ibdiagnet .lst file",
        }
    }

    /// The `--input-format` name: `ibnetdiscover`, `ports`, `ibdiagnet`, `ibsim`, `iblinkinfo`,
    /// `iblinkinfo-l`, `subnet-lst`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            DumpFormat::Ibnetdiscover => "ibnetdiscover",
            DumpFormat::Ports => "ports",
            DumpFormat::Ibdiagnet => "ibdiagnet",
            DumpFormat::IbsimNet => "ibsim",
            DumpFormat::Iblinkinfo => "iblinkinfo",
            DumpFormat::IblinkinfoLines => "iblinkinfo-l",
            DumpFormat::SubnetLst => "subnet-lst",
            DumpFormat::IbdiagnetLst => "ibdiagnet-lst",
        }
    }

    /// The format a `--input-format` name gives (`auto` is `None`).
    pub fn parse_name(s: &str) -> std::result::Result<Option<DumpFormat>, String> {
        if s == "auto" {
            return Ok(None);
        }
        DumpFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .map(Some)
            .ok_or_else(|| {
                let names: Vec<&str> = DumpFormat::ALL.iter().map(|f| f.name()).collect();
                format!("unknown format `{s}`: valid: auto, {}", names.join(", "))
            })
    }
}

/// A port whose peer could run faster than the cable does (iblinkinfo's "Could be"):
/// the width and speed both ends support, where above the active ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CouldBe {
    /// The node the line belongs to.
    pub node: NodeId,
    /// Its port.
    pub port: u8,
    /// The width both ends support, when wider than the active one.
    pub width: Option<crate::topology::Width>,
    /// The speed both ends support, when faster than the active one.
    pub speed: Option<crate::topology::Speed>,
}

/// An ibdiagnet port label, kept as its numbers (a dump labels every port). ibdiagnet
/// 2.10 writes, by its own header: `asic/cage/port[/split]` on Quantum-2 (NDR) switches
/// (`1/32/1` for port 63), `port[/split]` on Quantum (HDR) ones and on a switch's SHARP
/// port (`65`), and on an HCA port its PCI address and port (`B134D0F0/0/0/1`: bus 134,
/// device 0, function 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PortLabel {
    /// An HCA's PCI bus, device and function (`B…D…F…`), before the numbers.
    pci: Option<(u16, u16, u16)>,
    parts: [u16; 4],
    len: u8,
}

impl PortLabel {
    /// `1/32/1` -> the label; `None` unless 1 to 4 decimal numbers below 65,536 joined by
    /// `/`, the first of which may be a PCI address `B<bus>D<device>F<function>`.
    pub(crate) fn parse(s: &str) -> Option<PortLabel> {
        let mut l = PortLabel {
            pci: None,
            parts: [0; 4],
            len: 0,
        };
        let mut rest = s;
        if let Some(b) = s.strip_prefix('B') {
            let (addr, tail) = b.split_once('/').unwrap_or((b, ""));
            let (bus, df) = addr.split_once('D')?;
            let (dev, func) = df.split_once('F')?;
            l.pci = Some((decimal(bus)?, decimal(dev)?, decimal(func)?));
            if tail.is_empty() {
                return Some(l);
            }
            rest = tail;
        }
        // split by bytes: a `char` pattern builds a searcher per label, a sixth of the
        // parse of an NDR dump, whose every switch port is labelled
        for part in rest.as_bytes().split(|&b| b == b'/') {
            let slot = l.parts.get_mut(usize::from(l.len))?;
            *slot = decimal_digits(part)?;
            l.len += 1;
        }
        Some(l)
    }

    /// What reports print: a switch port's cage part, `1/32/1` -> `32/1`, `1/32/1/2` ->
    /// `32/1/2` (the first number names the ASIC, always 1 on a one-ASIC switch); shorter
    /// labels and PCI labels as they are.
    pub fn cage(&self) -> String {
        let from = if self.len >= 3 && self.pci.is_none() { 1 } else { 0 };
        self.with_parts(from)
    }

    /// Whether the label is the bare number `n` (`[65](65)`: the port's own number).
    pub(crate) fn is_number(&self, n: u32) -> bool {
        self.is_lone_number() && u32::from(self.parts[0]) == n
    }

    /// Whether the label is one number and nothing else (it could be read as a GUID).
    pub(crate) fn is_lone_number(&self) -> bool {
        self.pci.is_none() && self.len == 1
    }

    fn with_parts(&self, from: usize) -> String {
        let nums = self.parts[from..usize::from(self.len)].iter().map(u16::to_string);
        let pci = self.pci.map(|(b, d, f)| format!("B{b}D{d}F{f}"));
        pci.into_iter().chain(nums).collect::<Vec<_>>().join("/")
    }
}

/// A decimal number below 65,536 (no sign, no blanks, not empty).
fn decimal(s: &str) -> Option<u16> {
    decimal_digits(s.as_bytes())
}

/// [`decimal`] of bytes, in one pass.
fn decimal_digits(s: &[u8]) -> Option<u16> {
    if s.is_empty() {
        return None;
    }
    s.iter().try_fold(0u16, |v, &b| {
        let d = b.checked_sub(b'0').filter(|&d| d <= 9)?;
        v.checked_mul(10)?.checked_add(u16::from(d))
    })
}

impl std::fmt::Display for PortLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.with_parts(0))
    }
}

/// A consistency problem in a dump, with its line: what a check reports instead of
/// failing on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line of the dump (0: the file as a whole).
    pub line: usize,
    /// What is wrong, naming the nodes and ports involved.
    pub message: String,
}

/// How forgiving the reader is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Record malformed lines as problems and go on, instead of failing on the first
    /// one. The cabling check uses this so that a damaged dump is still compared as far
    /// as it can be; recognition and routing use the strict default.
    pub lenient: bool,
    /// Read the text as this format instead of detecting it (`--input-format`).
    pub format: Option<DumpFormat>,
    /// Keep a dump whose cables lead outside it (a trimmed dump, `--max-hops`): those
    /// ports are listed in [`Discovered::outside`] and stay uncabled (`--partial`).
    pub partial: bool,
}

/// A parsed dump: the fabric and everything a check needs to judge how far to trust it.
#[derive(Clone, Debug)]
pub struct Discovered {
    /// The fabric the dump describes (links only where both ends agree).
    pub fabric: Fabric,
    /// Which format the text was in.
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
    /// Ports whose cable leads to a node the dump has no record of (read with
    /// [`ParseOptions::partial`]): (node, port, line).
    pub outside: Vec<(NodeId, u8, usize)>,
    /// Ports the tool says could run faster (iblinkinfo's "Could be" hints).
    pub could_be: Vec<CouldBe>,
    /// ibdiagnet's cage/port/split labels of the ports of NDR/XDR switches (`1/32/1` for
    /// port 63), by (node, port number as the LFTs use it), in dump order.
    pub port_labels: Vec<(NodeId, u8, PortLabel)>,
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

    #[cfg(test)]
    /// True when ports of this node are among the suspect ones.
    pub(crate) fn is_suspect(&self, node: NodeId, port: u8) -> Option<usize> {
        self.suspect
            .iter()
            .find(|&&(n, p, _)| n == node && p == port)
            .map(|&(_, _, l)| l)
    }
}

/// Parse a dump of any supported format, failing on the first malformed line.
/// `path` is used in messages only.
pub fn parse(text: &str, path: &Path) -> Result<Discovered> {
    parse_with(text, path, ParseOptions::default())
}

/// Parse a dump, recording malformed lines as problems instead of failing (see
/// [`ParseOptions::lenient`]). Fails only when no node can be read at all.
pub fn parse_lenient(text: &str, path: &Path) -> Result<Discovered> {
    parse_with(
        text,
        path,
        ParseOptions {
            lenient: true,
            ..Default::default()
        },
    )
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
    let format = match opts.format {
        Some(f) => f,
        None => detect::detect(text).map_err(|m| Error::at(path, m.0, m.1))?,
    };
    let mut could_be = Vec::new();
    let (raw, format) = match format {
        DumpFormat::Ports => (
            ports_report::read_ports_report(text, path, opts, truncated)?,
            DumpFormat::Ports,
        ),
        DumpFormat::Iblinkinfo | DumpFormat::IblinkinfoLines => {
            let (raw, f, could) = iblinkinfo::read_iblinkinfo(text, path, opts, truncated)?;
            could_be = could;
            (raw, f)
        }
        DumpFormat::SubnetLst | DumpFormat::IbdiagnetLst => (
            subnet_lst::read_subnet_lst(text, path, opts, truncated, format == DumpFormat::IbdiagnetLst)?,
            format,
        ),
        f => {
            let (raw, found) = records::read_records(text, path, opts, truncated)?;
            // a stated format wins; detection only tells ibsim from ibnetdiscover
            (raw, if opts.format.is_some() { f } else { found })
        }
    };
    let mut d = raw.finish(format);
    d.could_be = could_be;
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
    let text = crate::formats::input::read_text(path, crate::formats::input::DUMP)?;
    parse_with(&text, path, opts)
}
