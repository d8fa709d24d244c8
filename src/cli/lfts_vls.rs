//! `ibfat lfts validate --sl FILE --sl2vl FILE`: deadlock freedom per VL, with the SLs and
//! SL-to-VL tables the routes were made with (`ibfat route` on a degraded fabric).

use ibfat::check::vls::{check_vls, VlReport};
use ibfat::formats::input::{self, read_text};
use ibfat::formats::lanes::{read_path_sl, read_sl2vl};
use ibfat::routing::{LftSet, Lids};
use ibfat::topology::{Fabric, NodeKind, NO_PEER};
use ibfat::{Error, Result};
use std::collections::HashMap;
use std::path::Path;

/// The SL hosts on a switch use towards a DLID, as a path-sl file gives them.
pub type LeafSls = HashMap<(u32, u16), u8>;

/// Read both files, refuse them for other tables, and walk every path per VL; the verdict
/// and the SLs per (switch with hosts, DLID).
pub fn check(
    fabric: &Fabric,
    lids: &Lids,
    tables: &LftSet,
    sl_path: &Path,
    vl_path: &Path,
) -> Result<(VlReport, LeafSls)> {
    let have = tables.computed_for(fabric, lids);
    let sl = read_path_sl(&read_text(sl_path, input::GUID2LID)?, sl_path, lids)?;
    let vl = read_sl2vl(&read_text(vl_path, input::GUID2LID)?, vl_path, fabric)?;
    for (path, cf) in [(sl_path, &sl.computed_for), (vl_path, &vl.computed_for)] {
        let cf = cf.as_ref().ok_or_else(|| {
            Error::at(
                path,
                0,
                "no `# computed-for` line: the tables this file belongs to are unknown",
            )
            .with_hint("use the file ibfat route wrote next to the dump")
        })?;
        if let Some(why) = cf.mismatch(&have) {
            return Err(Error::at(path, 0, format!("written for other tables: {why}"))
                .with_hint("route again, or give the dump this file was written with"));
        }
    }
    // the SL of a leaf's hosts towards each DLID (hosts of one leaf must agree: the walk
    // starts at the leaf)
    let mut by_leaf: HashMap<(u32, u16), u8> = HashMap::new();
    // file order, so that the first disagreement named is the first in the file
    let mut listed: Vec<(usize, u16, u16, u8)> = sl.sl.iter().map(|(&(a, b), &(s, ln))| (ln, a, b, s)).collect();
    listed.sort_unstable();
    for (ln, slid, dlid, s) in listed {
        // the reader took only LIDs of this fabric
        let Some(&owner) = lids.owner.get(slid as usize).filter(|&&o| o != NO_PEER) else {
            continue;
        };
        let p = &fabric.ports[owner as usize];
        if fabric.node(p.node).kind == NodeKind::Switch {
            continue;
        }
        let Some((leaf, _)) = fabric.peer(p.node, p.num) else {
            continue;
        };
        if let Some(old) = by_leaf.insert((leaf, dlid), s) {
            if old != s {
                return Err(Error::at(
                    sl_path,
                    ln,
                    format!(
                        "hosts on switch {} use SLs {old} and {s} towards 0x{dlid:04x}",
                        fabric.node(leaf).desc
                    ),
                )
                .with_hint("the per-VL check walks from each switch with hosts: one SL per (switch, DLID)"));
            }
        }
    }
    let guid: Vec<u64> = fabric.nodes.iter().map(|n| n.guid).collect();
    let v = check_vls(
        fabric,
        lids,
        tables,
        |leaf, dlid| by_leaf.get(&(leaf, dlid as u16)).copied().unwrap_or(0),
        |sw, s, i, o| vl.vl.get(&(guid[sw as usize], i, o)).map_or(0, |t| t[s as usize & 15]),
    );
    Ok((v, by_leaf))
}

/// The text lines of the per-VL verdict.
pub fn print(v: &VlReport) {
    outln!(
        "deadlock per VL: {} ({} data VLs; {} paths, {} on SLs other than 0, {} broken, {} with a VL going down)",
        if v.ok() { "free" } else { "POSSIBLE" },
        v.vls,
        v.paths,
        v.sl_paths,
        v.broken,
        v.vl_decreases
    );
    for line in v.per_vl_lines() {
        outln!("  {line}");
    }
}
