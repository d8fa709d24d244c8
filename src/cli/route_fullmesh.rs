//! `ibfat route --lmc L` on a full mesh: the base LID direct, the other offsets two-hop
//! detours through a relay switch, on SL 1 with two data VLs (docs/routing.md), proven
//! deadlock-free per VL before anything is written. Writes the dump and guid2lid as for
//! every family, plus path-sl.txt and sl2vl.txt.

use super::output::print_json;
use ibfat::check::validate;
use ibfat::check::vls::{check_lanes, VlReport};
use ibfat::formats::lftdump::DumpStyle;
use ibfat::routing::fullmesh::Lanes;
use ibfat::routing::{LftSet, Lids};
use ibfat::topology::{Fabric, FullmeshLayout, Layout};
use ibfat::Result;
use serde::Serialize;
use std::path::Path;

#[derive(Serialize)]
struct Report<'a> {
    family: String,
    switches: usize,
    lids: usize,
    lmc: u8,
    entries: usize,
    /// Seconds spent computing the tables.
    route_s: f64,
    /// Data VLs the routes use, and the per-VL proof.
    vls: &'a VlReport,
    out: String,
    files: Vec<&'static str>,
    /// The style the dump was written in (`full` or `compact`, `--dump-style`).
    dump_style: &'static str,
}

/// What `run` needs besides the tables.
pub struct Routed<'a> {
    /// The fabric.
    pub fabric: &'a Fabric,
    /// Its full-mesh layout.
    pub layout: &'a FullmeshLayout,
    /// The same layout as the family (for the validator's minimal-route promise).
    pub family: &'a Layout,
    /// The one-line description of the family.
    pub description: String,
    /// LIDs (LMC >= 1).
    pub lids: &'a Lids,
    /// The tables `ibfat::routing::route` computed.
    pub lfts: &'a LftSet,
    /// Seconds that took.
    pub route_s: f64,
}

/// Prove the routes per VL and write the four files.
pub fn run(r: Routed<'_>, no_validate: bool, out: &Path, json: bool, style: DumpStyle) -> Result<i32> {
    let (fabric, lids, lfts) = (r.fabric, r.lids, r.lfts);
    if !no_validate {
        // every route arrives, the base LIDs are minimal; deadlock freedom is per VL below
        let v = validate(fabric, lids, lfts, Some(r.family));
        if v.black_holes + v.loops + v.misdelivered + v.non_minimal > 0 || !v.complete {
            eprintln!(
                "ibfat: error: the computed tables fail validation (this is a bug): {:?}",
                v.defects.first()
            );
            return Ok(1);
        }
    }
    let lanes_of = Lanes::new(fabric, r.layout, lids);
    let v = check_lanes(fabric, lids, lfts, &lanes_of);
    if !v.ok() {
        eprintln!("ibfat: error: the full-mesh routes fail the per-VL check (this is a bug): {v:?}");
        return Ok(1);
    }
    let (files, style) = super::route_degraded::write_tables(out, fabric, lids, lfts, Some(&lanes_of), style)?;
    let report = Report {
        family: r.description,
        switches: lfts.switches.len(),
        lids: lids.owner.iter().skip(1).filter(|&&o| o != u32::MAX).count(),
        lmc: lids.lmc,
        entries: lfts.routed_entries(),
        route_s: r.route_s,
        vls: &v,
        out: out.display().to_string(),
        files: files.clone(),
        dump_style: style.name(),
    };
    if json {
        print_json("route-fullmesh", &report)?;
        return Ok(0);
    }
    let acyclic = v.per_vl_lines();
    outln!("{}", report.family);
    outln!(
        "  {} switches x {} LIDs (LMC {}): {} LFT entries in {:.3} s; {} of {} host-sourced paths detour (SL 1)",
        report.switches,
        report.lids,
        report.lmc,
        report.entries,
        r.route_s,
        v.sl_paths,
        v.paths
    );
    outln!("  deadlock-free on {} data VLs: {}", v.vls, acyclic.join("; "));
    outln!(
        "  wrote {}: {}{}",
        out.display(),
        files.join(", "),
        super::route::compact_note(style)
    );
    Ok(0)
}
