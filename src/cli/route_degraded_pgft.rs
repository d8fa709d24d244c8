//! `ibfat route` on a degraded tree — PGFT (k-ary n-tree, two-level fat-tree) or MOLS
//! 3-level tree: up*/down* around the holes on one VL ([`ibfat::routing::degraded_pgft`],
//! [`ibfat::routing::degraded_mols`], LMC 0 or 1 for MOLS), validated before the dump is
//! written (no loop, nothing misdelivered, the CDG of host-sourced routes acyclic, and no
//! broken host route but the unrouted pairs). Switch-LID routes that detour through a
//! relay leaf or a level-2 switch go on SL 1 or 2 and a second VL
//! ([`ibfat::routing::tree_lanes`]): the routes are
//! then proven per VL (`check_lanes`) instead of on one VL, and `path-sl.txt` and
//! `sl2vl.txt` are written with the dump. Exit 0; 1 when some connected pairs have no
//! up*/down* path (named; the tables are written, they serve every other pair) or when the
//! tables fail validation (nothing written: a bug).

use super::output::print_json;
use ibfat::check::lfts::validate as validate_lfts;
use ibfat::check::vls::check_lanes;
use ibfat::formats::lftbin;
use ibfat::formats::lftdump::DumpStyle;
use ibfat::load::Loaded;
use ibfat::recognize::Degraded;
use ibfat::routing::degraded_mols::route_mols;
use ibfat::routing::degraded_pgft::route_pgft;
use ibfat::routing::lanes::LaneRules;
use ibfat::routing::Lids;
use ibfat::topology::degraded::Holes;
use ibfat::{Error, Result};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

#[derive(Serialize)]
struct Report<'a> {
    family: &'a str,
    faults: usize,
    lmc: u8,
    switches: usize,
    lids: usize,
    entries: usize,
    /// `None` with `--no-validate`.
    valid: Option<bool>,
    /// Data VLs the routes use: one (up*/down*), two with switch-LID detours.
    vls: u8,
    /// Data VLs the routes need (as `vls`: the rule's count, which the per-VL proof used).
    data_vls: u8,
    /// (Leaf, switch LID) pairs routed through a relay leaf or level-2 switch on SL 1 or 2
    /// (VL 1 from the turn).
    switch_lid_detours: usize,
    /// (Leaf, host LID) pairs no up*/down* path connects, and the first of them named.
    unrouted: u64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unrouted_pairs: Vec<[String; 2]>,
    /// (Leaf, switch LID) pairs left unrouted: no surviving path to that switch.
    unrouted_switch_lids: u64,
    /// The pairs neither up*/down* nor a detour serves, on the escape lane.
    escape: super::route_degraded::EscapeReport,
    out: String,
    files: Vec<&'static str>,
    /// The style the dump was written in (`full` or `compact`, `--dump-style`).
    dump_style: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    timings: Option<super::route::Timings>,
}

/// Route the degraded tree `d` with `lids`, validate unless told not to, write the dump
/// and guid2lid; `stages`: (read, recognise) seconds so far.
#[allow(clippy::too_many_arguments)]
pub fn run(
    loaded: &Loaded,
    d: &Degraded,
    lids: &Lids,
    out: &Path,
    json: bool,
    validate: bool,
    stages: Option<(f64, f64)>,
    style: DumpStyle,
) -> Result<i32> {
    let fabric = loaded.fabric();
    let t_route = Instant::now();
    let r = match &d.holes {
        Holes::Pgft(h) => route_pgft(fabric, h, lids)?,
        Holes::Mols(h) => route_mols(fabric, h, lids)?,
        Holes::Lsft(_) => return Err(Error::input("topology", "a degraded LSFT is not a tree", None)),
    };
    let route_s = t_route.elapsed().as_secs_f64();
    let t_valid = Instant::now();
    let lanes = (r.data_vls() > 1).then(|| r.lanes(fabric));
    let valid = if validate {
        let v = validate_lfts(fabric, lids, &r.lfts, None);
        // with detours the one-VL CDG is cyclic by design: the proof is per VL
        let per_vl = lanes.as_ref().map(|l| check_lanes(fabric, lids, &r.lfts, l));
        let deadlock_free = per_vl.as_ref().map_or(v.deadlock_free, |p| p.ok());
        let sound = v.loops == 0 && v.misdelivered == 0 && deadlock_free && v.broken_host_routes == r.unrouted;
        if !sound {
            eprintln!(
                "ibfat: error: the degraded routes fail validation (this is a bug): {} loops, {} misdelivered, \
                 {} broken host routes for {} unrouted pairs, CDG {}; first defect {:?}",
                v.loops,
                v.misdelivered,
                v.broken_host_routes,
                r.unrouted,
                match &per_vl {
                    None if v.deadlock_free => "acyclic".to_string(),
                    None => "CYCLIC".to_string(),
                    Some(p) => p.per_vl_lines().join("; "),
                },
                v.defects.first()
            );
            return Ok(1);
        }
        Some(true)
    } else {
        None
    };
    let validate_s = t_valid.elapsed().as_secs_f64();
    let t_write = Instant::now();
    let lfts = &r.lfts;
    let rules = lanes.as_ref().map(|l| l as &dyn ibfat::routing::lanes::LaneRules);
    let (files, style) = super::route_degraded::write_tables(out, fabric, lids, lfts, rules, style)?;
    let report = Report {
        family: &d.description,
        faults: d.faults.len(),
        lmc: lids.lmc,
        switches: lfts.switches.len(),
        lids: lids.owner.iter().skip(1).filter(|&&o| o != u32::MAX).count(),
        entries: lfts.routed_entries(),
        valid,
        vls: r.data_vls(),
        data_vls: r.data_vls(),
        switch_lid_detours: r.detours.len(),
        unrouted: r.unrouted,
        unrouted_pairs: r.unrouted_named.iter().map(|(a, b)| [a.clone(), b.clone()]).collect(),
        unrouted_switch_lids: r.unrouted_switch_lids,
        escape: super::route_degraded::EscapeReport::new(&r.escape, r.data_vls()),
        out: out.display().to_string(),
        files,
        dump_style: style.name(),
        timings: stages.map(|(read_s, recognize_s)| super::route::Timings {
            read_s,
            recognize_s,
            route_s,
            validate_s,
            write_s: t_write.elapsed().as_secs_f64(),
            load_s: read_s + recognize_s,
        }),
    };
    let code = i32::from(r.unrouted > 0);
    if json {
        print_json("route-degraded", &report)?;
        return Ok(code);
    }
    outln!("{}", d.description);
    outln!(
        "  {} switches x {} LIDs: {} entries in {route_s:.3} s, {}{}",
        report.switches,
        report.lids,
        report.entries,
        match &lanes {
            None => "up*/down* on one VL".to_string(),
            Some(l) => format!(
                "up*/down* on VL 0, {} (leaf, switch LID) detours through a relay on SL 1-2 ({} data VLs)",
                r.detours.len(),
                l.data_vls()
            ),
        },
        if valid == Some(true) && lanes.is_some() {
            ", validated (loop-free, every VL's CDG acyclic)"
        } else if valid == Some(true) {
            ", validated (loop-free, CDG acyclic)"
        } else {
            " (not validated: --no-validate)"
        }
    );
    if r.unrouted > 0 {
        outln!(
            "  {} (leaf, host LID) pairs have no up*/down* path, e.g. {}",
            r.unrouted,
            r.unrouted_named
                .iter()
                .take(3)
                .map(|(a, b)| format!("{a} -> {b}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if let Some(line) = report.escape.line() {
        outln!("{line}");
    }
    if r.unrouted_switch_lids > 0 {
        outln!(
            "  {} (leaf, switch LID) pairs unrouted: no surviving path to that switch, or one that would close a \
             cycle on the escape lane",
            r.unrouted_switch_lids
        );
    }
    outln!(
        "  wrote {}: {}{}",
        out.display(),
        report
            .files
            .iter()
            .filter(|f| **f != lftbin::FILE_NAME)
            .copied()
            .collect::<Vec<_>>()
            .join(", "),
        super::route::compact_note(style)
    );
    Ok(code)
}
