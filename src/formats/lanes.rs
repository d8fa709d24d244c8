//! The files that give routes with virtual lanes their SLs and VLs, written next to the
//! LFT dump by `ibfat route` on a fabric that needs them (a degraded LSFT):
//!
//! * `path-sl.txt` — the SL of every (SLID, DLID) pair whose SL is not 0 (what a subnet
//!   manager answers in PathRecords; every other pair uses SL 0): `SLID DLID SL` per line,
//!   LIDs in hex (`0x0012`), sorted;
//! * `sl2vl.txt` — the SL-to-VL table of every (switch, input port, output port) whose
//!   table is not all VL 0: `0xGUID IN OUT V0 V1 … V15` per line (input port 0: from the
//!   switch itself), sorted by switch GUID and ports.
//!
//! Both start with `#` comment lines naming the format and, as `# computed-for fabric
//! FINGERPRINT lfts FINGERPRINT`, the tables they belong to: a reader holding other
//! tables must refuse them.

use crate::fingerprint::ComputedFor;
use crate::routing::Lids;
use crate::topology::{Fabric, NodeId};
use std::fmt::Write;

fn header(what: &str, rest: &str, cf: &ComputedFor) -> String {
    format!(
        "# ibfat {what}\n# {rest}\n# computed-for fabric {} lfts {}\n",
        cf.fabric,
        cf.lfts.as_deref().unwrap_or("-")
    )
}

/// `path-sl.txt`: `sl(source switch, dlid)` for every host port's LIDs as sources.
pub fn write_path_sl(fabric: &Fabric, lids: &Lids, cf: &ComputedFor, sl: impl Fn(NodeId, usize) -> u8) -> String {
    let mut out = header(
        "path SLs (path-sl/1)",
        "SLID DLID SL for every pair whose SL is not 0; every other pair uses SL 0",
        cf,
    );
    let mut lines: Vec<(u16, u16, u8)> = Vec::new();
    for ep in fabric.endpoints() {
        let Some((leaf, _)) = fabric.peer(ep.node, ep.port) else {
            continue;
        };
        let base = lids.base[fabric.port_index(ep.node, ep.port) as usize];
        if base == 0 {
            continue;
        }
        for (dlid, &owner) in lids.owner.iter().enumerate().skip(1) {
            if owner == crate::topology::NO_PEER {
                continue;
            }
            let s = sl(leaf, dlid);
            if s != 0 {
                for off in 0..(1u16 << lids.lmc) {
                    lines.push((base + off, dlid as u16, s));
                }
            }
        }
    }
    lines.sort_unstable();
    for (a, b, s) in lines {
        let _ = writeln!(out, "0x{a:04x} 0x{b:04x} {s}");
    }
    out
}

/// `sl2vl.txt`: `vl(switch, sl, in, out)` for every cabled (in, out) pair of every switch.
pub fn write_sl2vl(fabric: &Fabric, cf: &ComputedFor, vl: impl Fn(NodeId, u8, u8, u8) -> u8) -> String {
    let mut out = header(
        "SL-to-VL tables (sl2vl/1)",
        "GUID IN OUT and the VL of SL 0..15 per (switch, input, output) port pair not all VL 0",
        cf,
    );
    let mut switches: Vec<NodeId> = fabric.switches().collect();
    switches.sort_unstable_by_key(|&s| fabric.node(s).guid);
    for s in switches {
        let n = fabric.node(s).nports;
        let cabled: Vec<u8> = (1..=n).filter(|&p| fabric.peer(s, p).is_some()).collect();
        for &i in std::iter::once(&0u8).chain(&cabled) {
            for &o in &cabled {
                if o == i {
                    continue;
                }
                let v: Vec<u8> = (0..16u8).map(|sl| vl(s, sl, i, o)).collect();
                if v.iter().any(|&x| x != 0) {
                    let list: Vec<String> = v.iter().map(u8::to_string).collect();
                    let _ = writeln!(out, "0x{:016x} {i} {o} {}", fabric.node(s).guid, list.join(" "));
                }
            }
        }
    }
    out
}
