//! OpenSM's `guid2lid` cache file: `0x<port guid> 0x<min lid> 0x<max lid>` per port.
//!
//! ibfat writes it next to the LFTs so that OpenSM, seeded with it as
//! `$OSM_CACHE_DIR/guid2lid`, assigns exactly the LIDs the tables were computed for; and
//! reads it back (`--lids`) to check or route against the LIDs a subnet really uses.
//! The LID model itself ([`Lids`]) lives in `routing::lids`.

use crate::error::{Error, Result};
use crate::routing::lids::{LidRange, Lids};
use crate::topology::{Fabric, PortIdx};
use std::fmt::Write;
use std::path::Path;

/// The `guid2lid` text of `lids`: one line per port that has LIDs, and a blank line
/// after every entry (without the blank lines OpenSM silently ignores the file).
pub fn write(lids: &Lids, fabric: &Fabric) -> String {
    let mut out = String::new();
    for (i, &lid) in lids.base.iter().enumerate() {
        if lid == 0 {
            continue;
        }
        let span = lids.span(fabric, i as PortIdx) as u16;
        let _ = write!(
            out,
            "0x{:016x} 0x{:04x} 0x{:04x}\n\n",
            fabric.ports[i].guid,
            lid,
            lid + span - 1
        );
    }
    out
}

/// Read a `guid2lid` text for this fabric (`path` for messages). Every port GUID must
/// belong to the fabric; every CA port and switch must get a LID. Blank lines and `#`
/// comments are skipped; numbers are `0x` hex or decimal.
pub fn parse(fabric: &Fabric, text: &str, path: &Path) -> Result<Lids> {
    let mut ranges = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let num = crate::guid::hex_or_decimal;
        let (Some(g), Some(lo), Some(hi)) = (
            f.first().and_then(|s| num(s)),
            f.get(1).and_then(|s| num(s)),
            f.get(2).and_then(|s| num(s)),
        ) else {
            return Err(Error::at(
                path,
                k + 1,
                format!(
                    "expected `0x<port guid> 0x<min lid> 0x<max lid>`, found `{}`",
                    crate::formats::text::escape_controls(line)
                ),
            ));
        };
        ranges.push(LidRange {
            guid: g,
            lo,
            hi,
            line: k + 1,
        });
    }
    Lids::from_ranges(fabric, &ranges, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::lsft::model::{build, LsftParams};
    use crate::topology::BuildOptions;

    #[test]
    fn planned_lids_are_aligned_and_round_trip_through_guid2lid() {
        let (f, l) = build(&LsftParams::new(2, false), &BuildOptions::default()).unwrap();
        for lmc in [0u8, 1] {
            let lids = Lids::plan(&f, l.hosts(), lmc).unwrap();
            let first = l.hosts()[0];
            assert_eq!(lids.lid(&f, first.node, first.port), 1 << lmc);
            assert_eq!(lids.max_lid() as u32, 21 * (1 << lmc) + 14 + (lmc as u32));
            let text = write(&lids, &f);
            assert!(text.contains("\n\n"), "blank line after every entry");
            let back = parse(&f, &text, Path::new("guid2lid")).unwrap();
            assert_eq!(back, lids);
        }
    }

    #[test]
    fn bad_guid2lid_is_located() {
        let (f, l) = build(&LsftParams::new(2, false), &BuildOptions::default()).unwrap();
        let lids = Lids::plan(&f, l.hosts(), 0).unwrap();
        let text = write(&lids, &f).replacen(
            "0x0002c90020000001 0x0001 0x0001",
            "0x0002c90020000001 0x0002 0x0002",
            1,
        );
        let e = parse(&f, &text, Path::new("g")).unwrap_err().to_string();
        assert!(e.starts_with("g:") && e.contains("LID 2 is used by both"), "{e}");
        let e = parse(&f, "0x1234 0x1 0x1\n", Path::new("g")).unwrap_err().to_string();
        assert_eq!(e, "g:1: port GUID 0x0000000000001234 is not in the fabric");
        let partial: String = write(&lids, &f).lines().take(4).map(|l| format!("{l}\n")).collect();
        let e = parse(&f, &partial, Path::new("g")).unwrap_err().to_string();
        assert!(e.contains("has no LID"), "{e}");
    }
}
