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
use crate::topology::{Fabric, NodeId, NO_PEER};
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

/// `path-sl.txt` as read back: the file's tables fingerprint and the SL of each listed
/// (SLID, DLID) pair.
#[derive(Clone, Debug, Default)]
pub struct PathSl {
    /// What the file says it was computed for.
    pub computed_for: Option<ComputedFor>,
    /// (SLID, DLID) → (SL, line of the file), for the listed pairs (every other pair: SL 0).
    pub sl: std::collections::HashMap<(u16, u16), (u8, usize)>,
}

/// `sl2vl.txt` as read back.
#[derive(Clone, Debug, Default)]
pub struct Sl2Vl {
    /// What the file says it was computed for.
    pub computed_for: Option<ComputedFor>,
    /// (switch GUID, input port, output port) → VL of SL 0..15 (unlisted: all VL 0).
    pub vl: std::collections::HashMap<(u64, u8, u8), [u8; 16]>,
}

fn computed_for_line(line: &str) -> Option<ComputedFor> {
    let rest = line.strip_prefix("# computed-for fabric ")?;
    let (fabric, lfts) = rest.split_once(" lfts ")?;
    Some(ComputedFor {
        fabric: fabric.trim().to_string(),
        lfts: (lfts.trim() != "-").then(|| lfts.trim().to_string()),
    })
}

/// The `# computed-for` line and the (1-based line number, text) of every data line.
fn data_lines(text: &str) -> (Option<ComputedFor>, Vec<(usize, &str)>) {
    let cf = text.lines().filter(|l| l.starts_with('#')).find_map(computed_for_line);
    let lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
        .collect();
    (cf, lines)
}

/// A LID of `path-sl.txt`: hex, unicast, and one the fabric's ports hold (a file for
/// another fabric or LID assignment must not be walked as if it were this one's).
fn fabric_lid(tok: &str, what: &str, lids: &Lids, path: &std::path::Path, ln: usize) -> crate::Result<u16> {
    let lid = crate::guid::hex_u16(tok).ok_or_else(|| {
        crate::Error::at(path, ln, format!("{what} `{tok}` is not a LID")).with_hint("LIDs are written 0x0001 … 0xbfff")
    })?;
    if !(1..=0xbfff).contains(&lid) {
        return Err(crate::Error::at(
            path,
            ln,
            format!("{what} {tok} is not a unicast LID (valid 0x0001..=0xbfff)"),
        ));
    }
    if !matches!(lids.owner.get(lid as usize), Some(&o) if o != NO_PEER) {
        let top = lids.max_lid();
        return Err(crate::Error::at(
            path,
            ln,
            format!("{what} {tok} is no LID of this fabric (its LIDs are within 0x0001..=0x{top:04x})"),
        )
        .with_hint(
            "the file belongs to another fabric or LID assignment: use the one ibfat route wrote with these tables",
        ));
    }
    Ok(lid)
}

/// Read `path-sl.txt` (format in the module documentation) for the fabric with `lids`:
/// every LID must be one of its unicast LIDs; errors name file and line.
pub fn read_path_sl(text: &str, path: &std::path::Path, lids: &Lids) -> crate::Result<PathSl> {
    let (computed_for, lines) = data_lines(text);
    let mut out = PathSl {
        computed_for,
        ..Default::default()
    };
    for (ln, line) in lines {
        let t: Vec<&str> = line.split_whitespace().collect();
        let [a, b, s] = t[..] else {
            return Err(crate::Error::at(path, ln, "expected `SLID DLID SL`")
                .with_hint("e.g. `0x0001 0x020a 1`, as ibfat route writes path-sl.txt"));
        };
        let sl: u8 = s
            .parse()
            .ok()
            .filter(|&x: &u8| x < 16)
            .ok_or_else(|| crate::Error::at(path, ln, format!("SL `{s}` is not 0..15")))?;
        let key = (
            fabric_lid(a, "SLID", lids, path, ln)?,
            fabric_lid(b, "DLID", lids, path, ln)?,
        );
        if out.sl.insert(key, (sl, ln)).is_some() {
            return Err(crate::Error::at(path, ln, format!("the pair {a} {b} is listed twice")));
        }
    }
    Ok(out)
}

/// Read `sl2vl.txt` (format in the module documentation) for `fabric`: every GUID must be
/// one of its switches and the ports that switch's; errors name file and line.
pub fn read_sl2vl(text: &str, path: &std::path::Path, fabric: &Fabric) -> crate::Result<Sl2Vl> {
    let switches: std::collections::HashMap<u64, NodeId> =
        fabric.switches().map(|s| (fabric.node(s).guid, s)).collect();
    let (computed_for, lines) = data_lines(text);
    let mut out = Sl2Vl {
        computed_for,
        ..Default::default()
    };
    for (ln, line) in lines {
        let t: Vec<&str> = line.split_whitespace().collect();
        let bad = || {
            crate::Error::at(path, ln, "expected `0xGUID IN OUT` and 16 VLs")
                .with_hint("as ibfat route writes sl2vl.txt; VLs are 0..14")
        };
        if t.len() != 19 {
            return Err(bad());
        }
        let guid = crate::topology::spec::parse_guid(t[0]).ok_or_else(bad)?;
        let (pi, po): (u8, u8) = (t[1].parse().map_err(|_| bad())?, t[2].parse().map_err(|_| bad())?);
        let sw = *switches.get(&guid).ok_or_else(|| {
            crate::Error::at(path, ln, format!("{} is no switch of this fabric", t[0]))
                .with_hint("the file belongs to another fabric: use the one ibfat route wrote with these tables")
        })?;
        let nports = fabric.node(sw).nports;
        if pi > nports || !(1..=nports).contains(&po) || pi == po {
            return Err(crate::Error::at(
                path,
                ln,
                format!(
                    "{} {pi} {po}: switch {} has ports 1..={nports}; IN is 0 (the switch itself) or one of them, OUT another",
                    t[0],
                    fabric.node(sw).desc
                ),
            ));
        }
        let mut v = [0u8; 16];
        for (k, tok) in t[3..].iter().enumerate() {
            v[k] = tok.parse().ok().filter(|&x: &u8| x < 15).ok_or_else(bad)?;
        }
        if out.vl.insert((guid, pi, po), v).is_some() {
            return Err(crate::Error::at(
                path,
                ln,
                format!("{} {pi} {po} is listed twice", t[0]),
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::lsft::model::LsftParams;
    use crate::topology::{FamilySpec, Spec};
    use std::path::Path;

    /// An LSFT(2) with its LIDs: the fabric the files below are read for.
    fn lsft2() -> (Fabric, Lids) {
        let t = Spec::new(FamilySpec::Lsft(LsftParams::new(2, false))).build().unwrap();
        let lids = Lids::plan(&t.fabric, t.layout.hosts(), 0).unwrap();
        (t.fabric, lids)
    }

    fn err(r: crate::Result<impl std::fmt::Debug>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn files_read_back_and_bad_lines_are_named() {
        let (f, lids) = lsft2();
        let cf = ComputedFor {
            fabric: "0xab".into(),
            lfts: Some("0xcd".into()),
        };
        let text = format!("{}0x0001 0x0002 1\n", header("path SLs (path-sl/1)", "x", &cf));
        let r = read_path_sl(&text, Path::new("p"), &lids).unwrap();
        assert_eq!(r.computed_for, Some(cf.clone()));
        assert_eq!(r.sl.get(&(1, 2)), Some(&(1, 1 + 3)));
        let e = err(read_path_sl("0x0001 0x0002\n", Path::new("p"), &lids));
        assert!(e.contains("p:1") && e.contains("SLID DLID SL"), "{e}");
        let e = err(read_path_sl(
            "0x0001 0x0002 1\n0x0001 0x0002 2\n",
            Path::new("p"),
            &lids,
        ));
        assert!(e.contains("p:2") && e.contains("twice"), "{e}");
        let s0 = f.switches().next().unwrap();
        let (g, p1, p2) = (f.node(s0).guid, 1, 2);
        let line = format!("0x{g:016x} {p1} {p2} 0 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
        let s = read_sl2vl(&line, Path::new("v"), &f).unwrap();
        assert_eq!(s.vl[&(g, 1, 2)][1], 1);
        let e = err(read_sl2vl("0x1 1 2 0\n", Path::new("v"), &f));
        assert!(e.contains("v:1"), "{e}");
    }

    /// LIDs outside the fabric's unicast LIDs, GUIDs of no switch and ports a switch does
    /// not have are refused with the line, not walked as routes of another fabric.
    #[test]
    fn lids_guids_and_ports_of_another_fabric_are_refused_by_line() {
        let (f, lids) = lsft2();
        let top = lids.max_lid();
        for (bad, why) in [
            ("0x0000", "not a unicast LID"),
            ("0xffff", "not a unicast LID"),
            ("0xc001", "not a unicast LID"),
            (&*format!("0x{:04x}", top + 1), "no LID of this fabric"),
        ] {
            for text in [format!("\n0x0001 {bad} 1\n"), format!("\n{bad} 0x0001 1\n")] {
                let e = err(read_path_sl(&text, Path::new("p"), &lids));
                assert!(e.contains("p:2") && e.contains(why), "{bad}: {e}");
            }
        }
        let s0 = f.switches().next().unwrap();
        let (g, n) = (f.node(s0).guid, f.node(s0).nports);
        let vls = "0 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0";
        for (head, why) in [
            (format!("0x{:016x} 1 2", g ^ 0xdead), "no switch of this fabric"),
            (format!("0x{g:016x} 1 {}", n + 1), "has ports 1..="),
            (format!("0x{g:016x} {} 1", n + 1), "has ports 1..="),
            (format!("0x{g:016x} 1 0"), "has ports 1..="),
            (format!("0x{g:016x} 2 2"), "has ports 1..="),
        ] {
            let e = err(read_sl2vl(&format!("# c\n{head} {vls}\n"), Path::new("v"), &f));
            assert!(e.contains("v:2") && e.contains(why), "{head}: {e}");
        }
    }
}
