//! Reading an LFT dump line by line straight into flat tables. LSFT(32)'s
//! `opensm-lfts.dump` is 5.8 GB for 78 million entries (80 MB of tables): the file is
//! never held, and no per-entry record is kept — each entry is checked and stored in its
//! switch's row as it is read, so memory stays near the tables themselves.
//!
//! The result, and the error for a bad dump, are those of [`parse`](super::parse) followed
//! by [`lids_from_annotations`](super::lids_from_annotations) and
//! [`to_lftset`](super::to_lftset): a grammar error (or a bound of the input) is reported
//! first wherever it is, then an annotation that contradicts another, then the first
//! entry, in file order, that does not fit the fabric or its LIDs.

use super::{classify, quick_entry, Line, Sections};
use crate::error::{Error, Result};
use crate::formats::input::{self, LFT_DUMP};
use crate::routing::lids::{LidRange, Lids};
use crate::routing::{LftSet, NO_ROUTE};
use crate::topology::{Fabric, NodeId, NO_PEER};
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

/// Highest unicast LID: rows are this wide while reading, then cut to the LIDs used.
const LID_SPACE: usize = 0xC000;

/// The switch section being read.
#[derive(Clone, Copy)]
struct Open {
    /// Its row, `None` when the section is refused (unknown or repeated switch).
    row: Option<usize>,
    sw: NodeId,
}

struct Reader<'a> {
    path: &'a Path,
    fabric: &'a Fabric,
    given: Option<&'a Lids>,
    by_guid: HashMap<u64, NodeId>,
    lfts: LftSet,
    seen: Vec<bool>,
    open: Option<Open>,
    sections: Sections,
    any: bool,
    max_lid: u16,
    /// first annotation of each LID: port GUID and line (only when no LIDs are given)
    ann: Vec<Option<(u64, usize)>>,
    /// grammar error or truncation: reading stops, the bounds of the input are still checked
    fatal: Option<Error>,
    /// first contradiction among the annotations
    annotation: Option<Error>,
    /// first entry (by line) that does not fit the fabric or the LIDs
    misfit: Option<(usize, Error)>,
}

impl<'a> Reader<'a> {
    fn new(path: &'a Path, fabric: &'a Fabric, given: Option<&'a Lids>) -> Reader<'a> {
        let switches: Vec<NodeId> = fabric.switches().collect();
        let mut row_of = vec![u32::MAX; fabric.len()];
        for (r, &s) in switches.iter().enumerate() {
            row_of[s as usize] = r as u32;
        }
        let lfts = LftSet {
            ports: vec![NO_ROUTE; switches.len() * LID_SPACE],
            switches,
            row_of,
            stride: LID_SPACE,
        };
        Reader {
            path,
            fabric,
            given,
            by_guid: fabric.switches().map(|s| (fabric.node(s).guid, s)).collect(),
            lfts,
            seen: vec![false; fabric.len()],
            open: None,
            sections: Sections::default(),
            any: false,
            max_lid: 0,
            ann: if given.is_some() {
                Vec::new()
            } else {
                vec![None; LID_SPACE]
            },
            fatal: None,
            annotation: None,
            misfit: None,
        }
    }

    fn misfit(&mut self, line: usize, e: Error) {
        if self.misfit.as_ref().map_or(true, |(l, _)| line < *l) {
            self.misfit = Some((line, e));
        }
    }

    fn line(&mut self, bytes: &[u8], lineno: usize) {
        if self.fatal.is_some() {
            return;
        }
        if self.any {
            if let Some(line) = quick_entry(bytes) {
                // trailing blanks and a `\r` are what trimming would have removed
                if let Line::Entry { lid, port, pguid } = line {
                    self.entry(lid, port, pguid, lineno);
                }
                return;
            }
        }
        let text = match std::str::from_utf8(bytes) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(bytes),
        };
        if let Err(e) = self.take(&text, lineno) {
            self.fatal = Some(e);
        }
    }

    fn take(&mut self, text: &str, lineno: usize) -> Result<()> {
        let line = classify(text, lineno, self.path, self.any)?;
        self.sections.track(&line, lineno, self.path)?;
        match line {
            Line::Header(guid) => {
                self.any = true;
                self.open = Some(self.header(guid, lineno));
            }
            Line::Entry { lid, port, pguid } => self.entry(lid, port, pguid, lineno),
            Line::Ignored | Line::Footer | Line::Other => {}
        }
        Ok(())
    }

    fn header(&mut self, guid: u64, lineno: usize) -> Open {
        let Some(&sw) = self.by_guid.get(&guid) else {
            self.misfit(
                lineno,
                Error::at(
                    self.path,
                    lineno,
                    format!("switch GUID 0x{guid:016x} is not in the topology: an LFT set for another fabric?"),
                ),
            );
            return Open { row: None, sw: 0 };
        };
        if std::mem::replace(&mut self.seen[sw as usize], true) {
            let desc = &self.fabric.node(sw).desc;
            let e = Error::at(
                self.path,
                lineno,
                format!("switch 0x{guid:016x} ('{desc}') has two sections"),
            );
            self.misfit(lineno, e);
            return Open { row: None, sw };
        }
        Open {
            row: Some(self.lfts.row_of[sw as usize] as usize),
            sw,
        }
    }

    fn entry(&mut self, lid: u16, port: u8, pguid: Option<u64>, lineno: usize) {
        self.max_lid = self.max_lid.max(lid);
        if self.given.is_none() && self.annotation.is_none() {
            self.annotate(lid, pguid, lineno);
        }
        let Some(Open { row: Some(row), sw }) = self.open else {
            return;
        };
        let fabric = self.fabric;
        let nports = fabric.node(sw).nports;
        if port > nports {
            let desc = &fabric.node(sw).desc;
            let e = Error::at(
                self.path,
                lineno,
                format!("port {port} is beyond switch '{desc}' which has ports 1..={nports}"),
            );
            self.misfit(lineno, e);
            return;
        }
        if let (Some(g), Some(lids)) = (pguid, self.given) {
            let owner = lids.owner.get(lid as usize).copied().unwrap_or(NO_PEER);
            if owner == NO_PEER || fabric.ports[owner as usize].guid != g {
                self.misfit(lineno, foreign_lid(self.path, lineno, lid, g));
                return;
            }
        }
        self.lfts.ports[row * LID_SPACE + lid as usize] = port;
    }

    fn annotate(&mut self, lid: u16, pguid: Option<u64>, lineno: usize) {
        let Some(guid) = pguid else {
            self.annotation = Some(
                Error::at(
                    self.path,
                    lineno,
                    "entry without a `portguid 0x...` annotation: the dump does not say which port owns the LID",
                )
                .with_hint("pass the guid2lid the tables were made for (--lids)"),
            );
            return;
        };
        match self.ann[lid as usize] {
            None => self.ann[lid as usize] = Some((guid, lineno)),
            Some((g, first)) if g != guid => {
                self.annotation = Some(Error::at(
                    self.path,
                    lineno,
                    format!(
                        "LID 0x{lid:04x} is annotated with port GUID 0x{guid:016x} here but 0x{g:016x} at line {first}"
                    ),
                ));
            }
            Some(_) => {}
        }
    }

    /// The LIDs, the tables and which rows had a section, or the error the dump deserves
    /// (module documentation).
    fn finish(mut self) -> Result<(Lids, LftSet, Vec<bool>)> {
        if let Some(e) = self.fatal.take() {
            return Err(e);
        }
        if !self.any {
            return Err(Error::at(
                self.path,
                0,
                "no `Unicast lids ... guid 0x...` switch sections: not an LFT dump",
            ));
        }
        self.sections.finish(self.path)?;
        let lids = match self.given {
            Some(l) => l.clone(),
            None => {
                if let Some(e) = self.annotation.take() {
                    return Err(e);
                }
                let lids = lids_of(&self.ann, self.fabric, self.path)?;
                // an annotation the LIDs made from them do not confirm (cannot happen for
                // LIDs read back from the same annotations, kept as in `to_lftset`)
                let ann = std::mem::take(&mut self.ann);
                for (lid, a) in ann.iter().enumerate() {
                    let Some((g, line)) = *a else { continue };
                    let owner = lids.owner.get(lid).copied().unwrap_or(NO_PEER);
                    if owner == NO_PEER || self.fabric.ports[owner as usize].guid != g {
                        let e = foreign_lid(self.path, line, lid as u16, g);
                        self.misfit(line, e);
                    }
                }
                lids
            }
        };
        if let Some((_, e)) = self.misfit.take() {
            return Err(e);
        }
        let stride = lids.max_lid().max(self.max_lid) as usize + 1;
        let mut lfts = self.lfts;
        for r in 0..lfts.switches.len() {
            lfts.ports
                .copy_within(r * LID_SPACE..r * LID_SPACE + stride, r * stride);
        }
        lfts.ports.truncate(lfts.switches.len() * stride);
        lfts.ports.shrink_to_fit();
        lfts.stride = stride;
        let listed = lfts.switches.iter().map(|&s| self.seen[s as usize]).collect();
        Ok((lids, lfts, listed))
    }
}

fn foreign_lid(path: &Path, line: usize, lid: u16, g: u64) -> Error {
    Error::at(
        path,
        line,
        format!("LID 0x{lid:04x} belongs to port GUID 0x{g:016x} in the dump but not in the topology's LIDs"),
    )
    .with_hint("pass the guid2lid the tables were made for (--lids), or a dump taken after the same sweep")
}

/// LIDs from the first annotation of each LID (`ann[lid]` = port GUID and line), as
/// [`lids_from_annotations`](super::lids_from_annotations) and the streaming reader make
/// them: consecutive LIDs of one port form its range (two for an LMC 1 CA port).
pub(super) fn lids_of(ann: &[Option<(u64, usize)>], fabric: &Fabric, path: &Path) -> Result<Lids> {
    let mut ranges: Vec<LidRange> = Vec::new();
    for (lid, o) in ann.iter().enumerate() {
        let Some((guid, line)) = *o else { continue };
        let lid = lid as u64;
        match ranges.last_mut() {
            Some(r) if r.guid == guid && r.hi + 1 == lid => r.hi = lid,
            _ => ranges.push(LidRange {
                guid,
                lo: lid,
                hi: lid,
                line,
            }),
        }
    }
    Lids::from_ranges(fabric, &ranges, path)
}

/// Read an LFT dump file (or `-`) for a fabric with its LIDs.
pub fn read(path: &Path, fabric: &Fabric, lids: &Lids) -> Result<LftSet> {
    read_with_lids(path, fabric, Some(lids)).map(|(_, t)| t)
}

/// Read an LFT dump with the LIDs given, or else the LIDs its annotations name, streaming
/// it (see the module documentation).
pub fn read_with_lids(path: &Path, fabric: &Fabric, lids: Option<&Lids>) -> Result<(Lids, LftSet)> {
    read_listed(path, fabric, lids).map(|(l, t, _)| (l, t))
}

/// [`read_with_lids`], also saying which switches (by row of the tables) the dump has a
/// section for: a switch without one and a switch whose section routes nothing read as
/// the same table, and comparing two dumps (`lfts diff`) must tell them apart.
pub fn read_listed(path: &Path, fabric: &Fabric, lids: Option<&Lids>) -> Result<(Lids, LftSet, Vec<bool>)> {
    let mut reader = Reader::new(path, fabric, lids);
    input::read_lines(path, LFT_DUMP, |line, n| reader.line(line, n))?;
    reader.finish()
}

/// [`read_with_lids`] from any reader; `path` names it in messages.
pub fn read_from(r: impl Read, path: &Path, fabric: &Fabric, lids: Option<&Lids>) -> Result<(Lids, LftSet)> {
    let mut reader = Reader::new(path, fabric, lids);
    input::lines_from(r, path, LFT_DUMP, |line, n| reader.line(line, n))?;
    reader.finish().map(|(l, t, _)| (l, t))
}
