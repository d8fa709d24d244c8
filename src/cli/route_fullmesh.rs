//! `ibfat route --lmc L` on a full mesh: the base LID direct, the other offsets two-hop
//! detours through a relay switch, on SL 1 with two data VLs (docs/routing.md), proven
//! deadlock-free per VL before anything is written. Writes the dump and guid2lid as for
//! every family, plus path-sl.txt and sl2vl.txt.

use super::output::print_json;
use ibfat::check::validate;
use ibfat::check::vls::{check_vls, VlReport};
use ibfat::formats::{atomic, guid2lid, lanes, lftdump};
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
pub fn run(r: Routed<'_>, no_validate: bool, out: &Path, json: bool) -> Result<i32> {
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
    let v = check_vls(
        fabric,
        lids,
        lfts,
        |s, l| lanes_of.sl(s, l),
        |w, s, i, o| lanes_of.vl(w, s, i, o),
    );
    if !v.ok() {
        eprintln!("ibfat: error: the full-mesh routes fail the per-VL check (this is a bug): {v:?}");
        return Ok(1);
    }
    let cf = lfts.computed_for(fabric, lids);
    let g2l = guid2lid::write(lids, fabric).into_bytes();
    let path_sl = lanes::write_path_sl(fabric, lids, &cf, |s, l| lanes_of.sl(s, l)).into_bytes();
    let sl2vl = lanes::write_sl2vl(fabric, &cf, |w, s, i, o| lanes_of.vl(w, s, i, o)).into_bytes();
    atomic::write_files_with(
        out,
        vec![
            (
                "opensm-lfts.dump",
                Box::new(|w: &mut dyn std::io::Write| lftdump::stream_opensm(w, fabric, lids, lfts)),
            ),
            ("guid2lid", Box::new(|w: &mut dyn std::io::Write| w.write_all(&g2l))),
            (
                "path-sl.txt",
                Box::new(|w: &mut dyn std::io::Write| w.write_all(&path_sl)),
            ),
            ("sl2vl.txt", Box::new(|w: &mut dyn std::io::Write| w.write_all(&sl2vl))),
        ],
    )?;
    let files = vec!["opensm-lfts.dump", "guid2lid", "path-sl.txt", "sl2vl.txt"];
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
    outln!("  wrote {}: {}", out.display(), files.join(", "));
    Ok(0)
}
