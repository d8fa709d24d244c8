//! `ibfat-lfts.bin`: the forwarding tables `route` computed, as bytes a later command
//! loads in a fraction of a second instead of recomputing them or parsing the dump.
//!
//! Why: a sharded check (`check --shard i/N`) records the fingerprint of the tables it
//! checked, so every shard needs all of them. Routing LSFT(32)'s 78 M entries costs every
//! shard half a second, parsing its 3.2 GB dump twelve; reading 78 MB of table rows costs
//! a few hundredths. `route` writes this file next to the dump, in the same atomic group,
//! so the two always hold the same tables.
//!
//! Layout (all numbers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `IBFATLFT` |
//! | 8 | 4 | format version ([`VERSION`]) |
//! | 12 | 1 | LMC of the LIDs |
//! | 13 | 3 | zero |
//! | 16 | 8 | fabric fingerprint (`Fabric::fingerprint`) |
//! | 24 | 8 | LIDs fingerprint (`Lids::fingerprint`) |
//! | 32 | 8 | tables fingerprint (`LftSet::fingerprint`, what artefacts record) |
//! | 40 | 4 | R: LID records |
//! | 44 | 4 | S: switches |
//! | 48 | 4 | W: entries per table (largest LID + 1) |
//! | 52 | 4 | zero |
//! | 56 | 8 | content checksum ([`checksum`]: every byte but these 8, in parallel) |
//! | 64 | 12·R | per LID-owning port: port GUID (8), first LID (2), last LID (2) |
//! | … | 8·S | node GUID of each switch, in table order |
//! | … | S·W | the tables: switch by switch, entry by LID (255 = no route) |
//!
//! A reader trusts nothing in it: the header must match the fabric in hand, the LIDs are
//! validated as a guid2lid file is, the switch GUIDs must be the fabric's, and the content
//! checksum of what was read must equal the recorded one (a flipped byte anywhere is
//! refused). Errors name the file, the byte offset and what was expected. The fingerprints
//! are the ones every artefact records ([`crate::fingerprint`]), so they never change
//! meaning; the tables' is the writer's, vouched for by the checksum, which costs a
//! fraction of recomputing it (LSFT(32): reading and checking the tables takes 0.06 s,
//! 0.10 s with the fingerprint recomputed, then the largest fixed cost of a sharded
//! check). Version 1 files (no checksum field, the header 56 bytes) are
//! still read: their tables' fingerprint is recomputed. A file of another format version
//! is refused with the advice to route again.

use crate::fingerprint::{hex_of, value_of, ComputedFor};
use crate::routing::lft::Fingerprinter;
use crate::routing::lids::LidRange;
use crate::routing::{LftSet, Lids};
use crate::topology::{Fabric, NodeKind};
use crate::{Error, Result};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;

/// The file's name in a `route` output folder.
pub const FILE_NAME: &str = "ibfat-lfts.bin";

/// The first bytes of every such file.
pub(crate) const MAGIC: &[u8; 8] = b"IBFATLFT";

mod checksum;

/// The format version this release writes (it also reads version 1).
pub(crate) const VERSION: u32 = 2;

/// Header bytes before the checksum field (all of a version 1 header).
const HEADER_V1: usize = 56;
/// Header bytes of this version: the checksum field follows.
const HEADER: usize = 64;
const LID_RECORD: usize = 12;

/// What to tell a user whose file cannot be used.
const REGENERATE: &str = "route again to regenerate it: ibfat route TOPOLOGY --out DIR";

/// Tables read from a file, with what they were computed for (verified).
#[derive(Debug)]
pub struct LftFile {
    /// The LIDs the tables route.
    pub lids: Lids,
    /// The tables, in the fabric's switch order.
    pub lfts: LftSet,
    /// The fabric's fingerprint and the tables': the recorded one, the content checksum
    /// verified (version 1: recomputed and equal to the recorded).
    pub computed_for: ComputedFor,
}

/// Whether `path` is a regular file that starts with [`MAGIC`] (devices, FIFOs and `-`
/// are never opened here: reading their first bytes would consume them).
pub fn is_lft_file(path: &Path) -> bool {
    if super::outpath::is_dash(path) || !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == MAGIC
}

/// Write the tables (see the module documentation); `route` streams this into its
/// atomic group next to the dump.
pub fn write(w: &mut dyn Write, fabric: &Fabric, lids: &Lids, lfts: &LftSet) -> std::io::Result<()> {
    let value = |hex: String| value_of(&hex).unwrap_or(0);
    let mut ranges = Vec::new();
    for (lid, &owner) in lids.owner.iter().enumerate().skip(1) {
        if owner == crate::topology::NO_PEER || lids.base[owner as usize] as usize != lid {
            continue;
        }
        let span = lids.span(fabric, owner) as usize;
        ranges.extend_from_slice(&fabric.ports[owner as usize].guid.to_le_bytes());
        ranges.extend_from_slice(&(lid as u16).to_le_bytes());
        ranges.extend_from_slice(&((lid + span - 1) as u16).to_le_bytes());
    }
    let mut head = Vec::with_capacity(HEADER_V1);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&[lids.lmc, 0, 0, 0]);
    head.extend_from_slice(&value(fabric.fingerprint()).to_le_bytes());
    head.extend_from_slice(&value(lids.fingerprint(fabric)).to_le_bytes());
    head.extend_from_slice(&value(lfts.fingerprint(fabric, lids)).to_le_bytes());
    for n in [ranges.len() / LID_RECORD, lfts.switches.len(), lfts.stride, 0] {
        head.extend_from_slice(&(n as u32).to_le_bytes());
    }
    // tables in ascending GUID order, the order of the fingerprint
    let rows = lfts.rows_by_guid(fabric);
    let guids: Vec<u8> = rows.iter().flat_map(|&(g, _)| g.to_le_bytes()).collect();
    let tables: Vec<&[u8]> = rows.iter().map(|&(_, r)| lfts.row(r)).collect();
    let meta = [head.as_slice(), &ranges, &guids].concat();
    head.extend_from_slice(&checksum::of_rows(&meta, &tables).to_le_bytes());
    w.write_all(&head)?;
    w.write_all(&ranges)?;
    w.write_all(&guids)?;
    for t in tables {
        w.write_all(t)?;
    }
    Ok(())
}

/// The header's numbers.
struct Header {
    /// Its length: [`HEADER_V1`] or [`HEADER`].
    len: usize,
    /// The content checksum (version 2).
    checksum: Option<u64>,
    lmc: u8,
    fabric: u64,
    lids: u64,
    tables: u64,
    records: usize,
    switches: usize,
    stride: usize,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// An error at byte `offset` of `path`.
fn at(path: &Path, offset: usize, message: impl std::fmt::Display) -> Error {
    Error::at(path, 0, format!("byte offset {offset}: {message}"))
}

fn header(path: &Path, b: &[u8; HEADER_V1]) -> Result<Header> {
    if &b[..8] != MAGIC {
        return Err(
            at(path, 0, "not an ibfat table file: expected the magic `IBFATLFT`").with_hint(
                "give OpenSM's opensm-lfts.dump, dump_lfts output, or the ibfat-lfts.bin `ibfat route` writes",
            ),
        );
    }
    let version = u32_at(b, 8);
    if version != VERSION && version != 1 {
        return Err(at(
            path,
            8,
            format!("format version {version}; this ibfat reads versions 1 and {VERSION} (a file of another release)"),
        )
        .with_hint(REGENERATE));
    }
    let h = Header {
        len: if version == 1 { HEADER_V1 } else { HEADER },
        checksum: None,
        lmc: b[12],
        fabric: u64_at(b, 16),
        lids: u64_at(b, 24),
        tables: u64_at(b, 32),
        records: u32_at(b, 40) as usize,
        switches: u32_at(b, 44) as usize,
        stride: u32_at(b, 48) as usize,
    };
    if h.lmc > crate::routing::lids::MAX_LMC {
        return Err(at(path, 12, format!("LMC {}; expected 0..=7", h.lmc)).with_hint(REGENERATE));
    }
    // the zero fields are part of the format: a writer that puts anything there is another
    if let Some(i) = (13..16).chain(52..56).find(|&i| b[i] != 0) {
        return Err(at(path, i, format!("reserved byte {:#04x}; expected 0", b[i])).with_hint(REGENERATE));
    }
    let max_stride = crate::routing::lids::MAX_UNICAST_LID as usize + 1;
    if h.stride == 0 || h.stride > max_stride {
        return Err(at(
            path,
            48,
            format!("{} entries per table; expected 1..={max_stride}", h.stride),
        )
        .with_hint(REGENERATE));
    }
    if h.records > max_stride {
        return Err(at(
            path,
            40,
            format!("{} LID records; expected at most {max_stride}", h.records),
        )
        .with_hint(REGENERATE));
    }
    Ok(h)
}

/// Read `count` bytes at `offset`, or say the file ends before them.
fn section(r: &mut impl Read, path: &Path, offset: usize, count: usize, what: &str, total: u64) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; count];
    r.read_exact(&mut buf).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => at(
            path,
            offset,
            format!(
                "truncated: the file has {total} bytes, but its {what} need bytes {offset}..{}",
                offset + count
            ),
        )
        .with_hint(REGENERATE),
        _ => Error::io(format!("cannot read {}", path.display()), e),
    })?;
    Ok(buf)
}

/// Read and verify a table file for `fabric`, checking `given` LIDs (`--lids`) against
/// the file's own when given.
pub fn read(path: &Path, fabric: &Fabric, given: Option<&Lids>) -> Result<LftFile> {
    open(path)?.resolve(fabric, given)
}

/// A table file read and checked as far as that needs no fabric: header, size, and (version
/// 2) every byte against the content checksum (a mismatch is reported by
/// [`Opened::resolve`], after the checks that name a wrong LID or switch). Split from [`Opened::resolve`] so that a
/// command can read the file on one core while it builds the fabric on the other (a
/// sharded check pays both in every process).
pub struct Opened {
    path: std::path::PathBuf,
    h: Header,
    /// LID records and switch GUIDs
    meta: Vec<u8>,
    total: u64,
    body: Body,
}

/// The tables of an [`Opened`] file.
enum Body {
    /// Read and vouched for by the content checksum (version 2).
    Checked(Vec<u8>),
    /// Read, but not what the checksum recorded: refused (after the checks against the
    /// fabric, whose errors say more).
    Corrupt(Error),
    /// Still to read, at the file's position, and to fingerprint against the fabric
    /// (version 1).
    Unread(std::fs::File),
}

/// Read a table file's header, size and (version 2) content checksum; see [`read`].
pub fn open(path: &Path) -> Result<Opened> {
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    let total = file
        .metadata()
        .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?
        .len();
    let short = |e: std::io::Error, len: usize| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => at(
            path,
            0,
            format!("truncated: {total} bytes, shorter than the {len}-byte header"),
        )
        .with_hint(REGENERATE),
        _ => Error::io(format!("cannot read {}", path.display()), e),
    };
    let mut head = [0u8; HEADER_V1];
    file.read_exact(&mut head).map_err(|e| short(e, HEADER_V1))?;
    let mut h = header(path, &head)?;
    if h.len == HEADER {
        let mut sum = [0u8; 8];
        file.read_exact(&mut sum).map_err(|e| short(e, HEADER))?;
        h.checksum = Some(u64::from_le_bytes(sum));
    }
    // every section's size follows from the header: the file must be exactly that long
    let lids_at = h.len;
    let guids_at = lids_at + h.records * LID_RECORD;
    let rows_at = guids_at + h.switches * 8;
    let end = (h.switches as u64)
        .checked_mul(h.stride as u64)
        .and_then(|n| n.checked_add(rows_at as u64));
    match end {
        Some(end) if end == total => {}
        Some(end) if end > total => {
            return Err(at(
                path,
                total as usize,
                format!("truncated: the file has {total} bytes; its header announces {end}"),
            )
            .with_hint(REGENERATE))
        }
        _ => {
            return Err(at(
                path,
                end.map_or(rows_at, |e| e as usize),
                format!(
                    "{total} bytes, but the header announces {}: data after the tables",
                    end.map_or("more than 2^64".into(), |e| e.to_string())
                ),
            )
            .with_hint(REGENERATE))
        }
    }
    let meta = section(
        &mut file,
        path,
        lids_at,
        rows_at - lids_at,
        "LID records and switch GUIDs",
        total,
    )?;
    let body = match h.checksum {
        Some(recorded) => {
            let mut rows = vec![0u8; h.switches * h.stride];
            read_piece(&mut file, path, rows_at, &mut rows, total)?;
            let computed = checksum::of_file(&[&head[..], &meta].concat(), &rows, h.stride);
            if computed != recorded {
                // said after the checks against the fabric, which name what is wrong
                Body::Corrupt(at(
                    path,
                    HEADER_V1,
                    format!(
                        "the content does not match its recorded checksum ({} recorded, {} computed): the file is corrupted",
                        hex_of(recorded),
                        hex_of(computed)
                    ),
                )
                .with_hint(REGENERATE))
            } else {
                Body::Checked(rows)
            }
        }
        None => Body::Unread(file),
    };
    Ok(Opened {
        path: path.to_path_buf(),
        h,
        meta,
        total,
        body,
    })
}

impl Opened {
    /// The tables for `fabric`: the header must name it, the LIDs and switch GUIDs must be
    /// its own (and equal `given`, `--lids`, when given), and the tables must be those
    /// the header's fingerprint names.
    pub fn resolve(self, fabric: &Fabric, given: Option<&Lids>) -> Result<LftFile> {
        let Opened {
            path,
            h,
            meta,
            total,
            body,
        } = self;
        let path = path.as_path();
        let have_fabric = fabric.fingerprint();
        if hex_of(h.fabric) != have_fabric {
            return Err(at(
                path,
                16,
                format!(
                    "the tables were routed for the fabric {} but this fabric is {have_fabric} (other node GUIDs)",
                    hex_of(h.fabric)
                ),
            )
            .with_hint(
                "give the topology the tables were routed for, or route this one: ibfat route TOPOLOGY --out DIR",
            ));
        }
        let guids_at = h.len + h.records * LID_RECORD;
        let rows_at = guids_at + h.switches * 8;
        let lids = read_lids(path, fabric, &h, &meta[..guids_at - h.len])?;
        if let Some(given) = given {
            if given != &lids {
                return Err(Error::at(
                    path,
                    0,
                    format!(
                        "the tables were routed for other LIDs (fingerprint {}) than the ones given ({})",
                        lids.fingerprint(fabric),
                        given.fingerprint(fabric)
                    ),
                )
                .with_hint("give the guid2lid written with these tables, or none: the file carries its LIDs"));
            }
        }
        let order = row_order(path, fabric, &h, &meta[guids_at - h.len..], guids_at)?;
        let (rows, tables) = match body {
            Body::Checked(rows) => (rows, hex_of(h.tables)),
            Body::Corrupt(e) => return Err(e),
            Body::Unread(mut file) => hashed_rows(&mut file, path, fabric, &lids, &h, &order, rows_at, total)?,
        };
        if tables != hex_of(h.tables) {
            return Err(at(
                path,
                32,
                format!(
                    "the tables do not match their recorded fingerprint ({} recorded, {tables} computed): the file is corrupted",
                    hex_of(h.tables)
                ),
            )
            .with_hint(REGENERATE));
        }
        let lfts = place_rows(fabric, &h, &order, rows);
        Ok(LftFile {
            lids,
            lfts,
            computed_for: ComputedFor {
                fabric: have_fabric,
                lfts: Some(tables),
            },
        })
    }
}

/// Tables per piece handed from the reading thread to the hashing one.
const ROWS_PER_PIECE: usize = 32;

/// The tables' bytes and their fingerprint. The fingerprint is one sequential pass over
/// every entry (LSFT(32): 78 M, about 0.1 s), as long as reading them: when the tables
/// come in ascending GUID order (as [`write()`] puts them) another thread hashes each piece
/// as soon as it is read, so the two overlap; in any other order they are hashed after.
#[allow(clippy::too_many_arguments)]
fn hashed_rows(
    file: &mut std::fs::File,
    path: &Path,
    fabric: &Fabric,
    lids: &Lids,
    h: &Header,
    order: &[(u64, usize)],
    rows_at: usize,
    total: u64,
) -> Result<(Vec<u8>, String)> {
    let mut rows = vec![0u8; h.switches * h.stride];
    let sorted = order.windows(2).all(|w| w[0].0 < w[1].0);
    if !sorted || h.stride == 0 {
        let mut at_byte = rows_at;
        for piece in rows.chunks_mut(ROWS_PER_PIECE * h.stride.max(1)) {
            read_piece(file, path, at_byte, piece, total)?;
            at_byte += piece.len();
        }
        let mut by_guid: Vec<(u64, usize)> = order.iter().enumerate().map(|(i, &(g, _))| (g, i)).collect();
        by_guid.sort_unstable();
        let mut fp = Fingerprinter::new(fabric, lids);
        for (g, i) in by_guid {
            fp.row(g, &rows[i * h.stride..(i + 1) * h.stride]);
        }
        return Ok((rows, fp.finish()));
    }
    let stride = h.stride;
    let tables = std::thread::scope(|s| -> Result<String> {
        let (tx, rx) = std::sync::mpsc::sync_channel::<&[u8]>(1024);
        let hasher = s.spawn(move || {
            let mut fp = Fingerprinter::new(fabric, lids);
            let mut guids = order.iter().map(|&(g, _)| g);
            for piece in rx {
                for row in piece.chunks(stride) {
                    fp.row(guids.next().unwrap_or(0), row);
                }
            }
            fp.finish()
        });
        let mut at_byte = rows_at;
        for piece in rows.chunks_mut(ROWS_PER_PIECE * stride) {
            read_piece(file, path, at_byte, piece, total)?;
            at_byte += piece.len();
            // read: from now on shared with the hashing thread
            let piece: &[u8] = piece;
            if tx.send(piece).is_err() {
                break;
            }
        }
        drop(tx);
        Ok(hasher.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    })?;
    Ok((rows, tables))
}

fn read_piece(file: &mut std::fs::File, path: &Path, offset: usize, piece: &mut [u8], total: u64) -> Result<()> {
    file.read_exact(piece).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => at(
            path,
            offset,
            format!(
                "truncated: the file has {total} bytes, but its tables need bytes {offset}..{}",
                offset + piece.len()
            ),
        )
        .with_hint(REGENERATE),
        _ => Error::io(format!("cannot read {}", path.display()), e),
    })
}

/// The LID records, validated as a guid2lid file's ranges are, and against the header's
/// LMC and LIDs fingerprint.
fn read_lids(path: &Path, fabric: &Fabric, h: &Header, records: &[u8]) -> Result<Lids> {
    let ranges: Vec<LidRange> = records
        .chunks_exact(LID_RECORD)
        .enumerate()
        .map(|(i, r)| LidRange {
            guid: u64_at(r, 0),
            lo: u16::from_le_bytes([r[8], r[9]]) as u64,
            hi: u16::from_le_bytes([r[10], r[11]]) as u64,
            line: i + 1,
        })
        .collect();
    // `from_ranges` locates problems by line: here that is the record, at its offset
    let lids = Lids::from_ranges(fabric, &ranges, path).map_err(|e| match e {
        Error::Input(mut e) => {
            if let Some(loc) = &mut e.location {
                if loc.line > 0 {
                    let record = loc.line - 1;
                    e.message = format!(
                        "byte offset {}: LID record {record}: {}",
                        h.len + record * LID_RECORD,
                        e.message
                    );
                    loc.line = 0;
                }
            }
            Error::Input(e).with_hint(REGENERATE)
        }
        other => other,
    })?;
    if lids.lmc != h.lmc || hex_of(h.lids) != lids.fingerprint(fabric) {
        return Err(at(
            path,
            24,
            format!(
                "the LID records (LMC {}, fingerprint {}) do not match the header (LMC {}, {}): the file is corrupted",
                lids.lmc,
                lids.fingerprint(fabric),
                h.lmc,
                hex_of(h.lids)
            ),
        )
        .with_hint(REGENERATE));
    }
    if lids.max_lid() as usize >= h.stride {
        return Err(at(
            path,
            48,
            format!(
                "{} entries per table, but LID {} is in use: expected at least {}",
                h.stride,
                lids.max_lid(),
                lids.max_lid() as usize + 1
            ),
        )
        .with_hint(REGENERATE));
    }
    Ok(lids)
}

/// Each table's switch GUID and the row it takes in the fabric's tables: every switch
/// of the fabric exactly once.
fn row_order(path: &Path, fabric: &Fabric, h: &Header, guids: &[u8], guids_at: usize) -> Result<Vec<(u64, usize)>> {
    let switches: Vec<_> = fabric.switches().collect();
    if switches.len() != h.switches {
        return Err(at(
            path,
            44,
            format!(
                "{} switch tables; this fabric has {} switches",
                h.switches,
                switches.len()
            ),
        )
        .with_hint(REGENERATE));
    }
    let row_of_guid: HashMap<u64, usize> = switches
        .iter()
        .enumerate()
        .map(|(r, &s)| (fabric.node(s).guid, r))
        .collect();
    let mut order = Vec::with_capacity(h.switches);
    let mut seen = vec![false; h.switches];
    for (i, g) in guids.chunks_exact(8).enumerate() {
        let guid = u64_at(g, 0);
        let offset = guids_at + 8 * i;
        let Some(&r) = row_of_guid.get(&guid) else {
            let what = match fabric.nodes.iter().find(|n| n.guid == guid) {
                Some(n) if n.kind != NodeKind::Switch => "is not a switch",
                _ => "is not in the fabric",
            };
            return Err(at(path, offset, format!("table {i}: node GUID 0x{guid:016x} {what}")).with_hint(REGENERATE));
        };
        if std::mem::replace(&mut seen[r], true) {
            return Err(at(
                path,
                offset,
                format!("table {i}: switch 0x{guid:016x} has a table already"),
            )
            .with_hint(REGENERATE));
        }
        order.push((guid, r));
    }
    Ok(order)
}

/// The rows as the fabric's tables (in its switch order). Rows already in that order (a
/// file written for the same topology) are taken as they are.
fn place_rows(fabric: &Fabric, h: &Header, order: &[(u64, usize)], rows: Vec<u8>) -> LftSet {
    let mut lfts = LftSet {
        switches: fabric.switches().collect(),
        row_of: vec![u32::MAX; fabric.len()],
        stride: h.stride,
        ports: Vec::new(),
    };
    for (r, &s) in lfts.switches.iter().enumerate() {
        lfts.row_of[s as usize] = r as u32;
    }
    if order.iter().enumerate().all(|(i, &(_, r))| i == r) {
        lfts.ports = rows;
        return lfts;
    }
    let mut ports = vec![0u8; rows.len()];
    for (i, &(_, r)) in order.iter().enumerate() {
        ports[r * h.stride..(r + 1) * h.stride].copy_from_slice(&rows[i * h.stride..(i + 1) * h.stride]);
    }
    lfts.ports = ports;
    lfts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kary::model::KaryParams;
    use crate::topology::{FamilySpec, Spec};

    #[test]
    fn tables_in_any_order_read_back_verified() {
        let plan = Spec::new(FamilySpec::Kary(KaryParams { arity: 4, levels: 3 }))
            .build()
            .unwrap();
        let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), 1).unwrap();
        let lfts = crate::routing::route(&plan.fabric, &plan.layout, &lids).unwrap();
        let mut bytes = Vec::new();
        write(&mut bytes, &plan.fabric, &lids, &lfts).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, &bytes).unwrap();
        assert!(is_lft_file(&path));
        let back = read(&path, &plan.fabric, Some(&lids)).unwrap();
        assert_eq!((&back.lids, &back.lfts), (&lids, &lfts));
        assert_eq!(back.computed_for, lfts.computed_for(&plan.fabric, &lids));
        // the same tables written in reverse GUID order (switch GUIDs and tables alike,
        // the checksum of the new content): the same tables and fingerprint
        let n = lfts.len();
        let records = u32::from_le_bytes(bytes[40..44].try_into().unwrap()) as usize;
        let reverse = |bytes: &[u8], head: usize| {
            let guids_at = head + records * LID_RECORD;
            let rows_at = guids_at + 8 * n;
            let mut reversed = bytes[..guids_at].to_vec();
            for i in (0..n).rev() {
                reversed.extend_from_slice(&bytes[guids_at + 8 * i..guids_at + 8 * i + 8]);
            }
            for i in (0..n).rev() {
                reversed.extend_from_slice(&bytes[rows_at + i * lfts.stride..rows_at + (i + 1) * lfts.stride]);
            }
            (reversed, rows_at)
        };
        let (mut reversed, rows_at) = reverse(&bytes, HEADER);
        let meta = [&reversed[..HEADER_V1], &reversed[HEADER..rows_at]].concat();
        let sum = checksum::of_file(&meta, &reversed[rows_at..], lfts.stride);
        reversed[HEADER_V1..HEADER].copy_from_slice(&sum.to_le_bytes());
        std::fs::write(&path, &reversed).unwrap();
        let back = read(&path, &plan.fabric, None).unwrap();
        assert_eq!((&back.lids, &back.lfts), (&lids, &lfts));
        assert_eq!(back.computed_for, lfts.computed_for(&plan.fabric, &lids));
        // version 1 (no checksum field): the fingerprint recomputed, in file order or not
        let mut v1 = [&bytes[..HEADER_V1], &bytes[HEADER..]].concat();
        v1[8..12].copy_from_slice(&1u32.to_le_bytes());
        for file in [v1.clone(), reverse(&v1, HEADER_V1).0] {
            std::fs::write(&path, &file).unwrap();
            let back = read(&path, &plan.fabric, Some(&lids)).unwrap();
            assert_eq!((&back.lids, &back.lfts), (&lids, &lfts));
            assert_eq!(back.computed_for, lfts.computed_for(&plan.fabric, &lids));
        }
        // damage: version 1 is caught by the fingerprint, version 2 by the checksum
        for (file, field) in [(v1, 32), (bytes, HEADER_V1)] {
            let mut damaged = file;
            let last = damaged.len() - 3;
            damaged[last] ^= 2;
            std::fs::write(&path, &damaged).unwrap();
            let e = read(&path, &plan.fabric, None).unwrap_err().to_string();
            assert!(
                e.contains(&format!("byte offset {field}")) && e.contains("corrupted"),
                "{e}"
            );
        }
        // a text file is not one
        std::fs::write(&path, "Unicast lids [0x0-0x3] of switch Lid 1 guid 0x1 (x):\n").unwrap();
        assert!(!is_lft_file(&path));
        assert!(!is_lft_file(Path::new("-")));
    }
}
