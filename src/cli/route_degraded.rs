//! `ibfat route` on a degraded fabric. An LSFT: detours through another leaf, the SLs and
//! SL-to-VL tables that keep them deadlock-free on two data VLs, three when a route turns
//! twice (docs/routing.md §2.4),
//! proven per VL before anything is written. A PGFT (k-ary n-tree, two-level): up*/down*
//! around the holes on one VL (docs/routing.md, degraded PGFTs), validated (loops, CDG)
//! before the dump is written; connected pairs no up*/down* path serves are named and the
//! exit code is 1 (the tables are written: they serve every other pair).

use super::output::print_json;
use ibfat::check::vls::{check_lanes, VlReport};
use ibfat::formats::lftdump::DumpStyle;
use ibfat::formats::{atomic, guid2lid, lanes, lftbin, lftdump};
use ibfat::load::Loaded;
use ibfat::recognize::Degraded;
use ibfat::routing::degraded::{route_lsft, route_lsft_spread, Lanes};
use ibfat::routing::Lids;
use ibfat::topology::degraded::{Holes, LsftHoles};
use ibfat::{Error, Result};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

#[derive(Serialize)]
struct Report<'a> {
    family: &'a str,
    /// What the routes optimise (`route --objective`): `family` routes first, or `spread`.
    objective: &'static str,
    faults: usize,
    switches: usize,
    lids: usize,
    entries: usize,
    /// Data VLs the routes use, and the per-VL proof.
    vls: &'a VlReport,
    /// (Leaf, switch LID) pairs left unrouted: no path that turns at most twice in an
    /// order the VL rule follows.
    unrouted_switch_lids: u64,
    /// Data VLs the routes need: 2, or 3 when some route turns twice (the bound).
    data_vls: u8,
    /// (Leaf, host LID) and (leaf, switch LID) pairs whose route turns twice.
    two_turn: u64,
    two_turn_switch_lids: u64,
    /// The pairs the rule cannot serve, on the escape lane.
    escape: EscapeReport,
    out: String,
    files: Vec<&'static str>,
    /// The style the dump was written in (`full` or `compact`, `--dump-style`).
    dump_style: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    timings: Option<super::route::Timings>,
}

/// The escape lane of a route's JSON (`routing::escape`): the pairs no path of the family's
/// rule serves, routed on SL 15 and a VL of their own.
#[derive(Serialize)]
pub(super) struct EscapeReport {
    /// (Leaf, host LID) pairs on the escape lane.
    host_pairs: u64,
    /// (Leaf, switch LID) pairs on the escape lane.
    switch_lid_pairs: u64,
    /// Its VL (the last data VL); none when it carries nothing.
    vl: Option<u8>,
}

impl EscapeReport {
    /// What `e` carries in routes needing `data_vls` data VLs.
    pub(super) fn new(e: &ibfat::routing::escape::Escape, data_vls: u8) -> EscapeReport {
        EscapeReport {
            host_pairs: e.host_pairs,
            switch_lid_pairs: e.switch_pairs,
            vl: e.used().then(|| data_vls - 1),
        }
    }

    /// The text line, when the lane carries something.
    pub(super) fn line(&self) -> Option<String> {
        self.vl.map(|vl| {
            format!(
                "  {} (leaf, host LID) and {} (leaf, switch LID) pairs no rule path serves: on the escape lane (SL 15, \
                 VL {vl})",
                self.host_pairs, self.switch_lid_pairs
            )
        })
    }
}

/// Route `d` (recognised in `loaded`) with LIDs given as for an intact fabric; `validate`:
/// prove the routes per VL before writing; `stages`: (read, recognise) seconds so far, to
/// report every stage's time.
#[allow(clippy::too_many_arguments)]
pub fn run(
    loaded: &Loaded,
    d: &Degraded,
    lids_arg: &str,
    lmc: u8,
    out: &Path,
    json: bool,
    validate: bool,
    stages: Option<(f64, f64)>,
    style: DumpStyle,
    spread: bool,
) -> Result<i32> {
    let t_lids = Instant::now();
    if spread && d.lsft().is_none() {
        return Err(spread_is_for_lsfts(&d.family.to_string()));
    }
    if let Holes::Mols(_) = &d.holes {
        // both LMC routes of the family (bandwidth, latency) are kept
        let lids = pick_lids_at(loaded, lids_arg, lmc)?;
        let stages = stages.map(|(read_s, rec_s)| (read_s + t_lids.elapsed().as_secs_f64(), rec_s));
        return super::route_degraded_pgft::run(loaded, d, &lids, out, json, validate, stages, style);
    }
    if lmc != 0 {
        return Err(Error::input(
            "lmc",
            format!("a degraded {} is routed with LMC 0", d.family),
            Some("drop --lmc".into()),
        ));
    }
    let lids = pick_lids(loaded, lids_arg)?;
    let lids_s = t_lids.elapsed().as_secs_f64();
    let holes = match &d.holes {
        Holes::Lsft(h) => h,
        _ => {
            let stages = stages.map(|(read_s, rec_s)| (read_s + lids_s, rec_s));
            return super::route_degraded_pgft::run(loaded, d, &lids, out, json, validate, stages, style);
        }
    };
    let job = LsftJob {
        description: &d.description,
        faults: d.faults.len(),
        holes,
        lids: &lids,
        spread,
        lids_s,
    };
    lsft(loaded, &job, out, json, validate, stages, style)
}

/// `--objective spread` on a family it does not apply to.
pub(super) fn spread_is_for_lsfts(family: &str) -> Error {
    Error::input(
        "objective",
        format!("the spread objective is for Latin-square fat-trees, not a {family}"),
        Some("trees already spread by destination (d-mod-k); drop --objective".into()),
    )
}

/// An LSFT to route with lanes: intact (the spreading objective) or degraded.
pub(super) struct LsftJob<'a> {
    /// One line naming the fabric (and its faults).
    pub description: &'a str,
    /// How many faults recognition found.
    pub faults: usize,
    pub holes: &'a LsftHoles,
    pub lids: &'a Lids,
    /// Route for spreading (`--objective spread`) rather than family routes first.
    pub spread: bool,
    /// Seconds spent picking the LIDs (part of `read_s`).
    pub lids_s: f64,
}

/// Route an LSFT's job with SLs and SL-to-VL tables, prove it per VL, write it.
pub(super) fn lsft(
    loaded: &Loaded,
    job: &LsftJob<'_>,
    out: &Path,
    json: bool,
    validate: bool,
    stages: Option<(f64, f64)>,
    style: DumpStyle,
) -> Result<i32> {
    let fabric = loaded.fabric();
    let (holes, lids, lids_s) = (job.holes, job.lids, job.lids_s);
    let t_route = Instant::now();
    let r = if job.spread {
        route_lsft_spread(fabric, holes, lids)?
    } else {
        route_lsft(fabric, holes, lids)?
    };
    let route_s = t_route.elapsed().as_secs_f64();
    if r.unrouted > 0 {
        return Err(Error::input(
            "topology",
            format!(
                "{}: {} (leaf, LID) pairs have no surviving path the lanes can serve",
                job.description, r.unrouted
            ),
            Some("too many faults around some leaves; `ibfat recognize` lists them".into()),
        ));
    }
    let lanes_of = Lanes::new(fabric, holes, &r);
    let t_valid = Instant::now();
    let v = if validate {
        check_lanes(fabric, lids, &r.lfts, &lanes_of)
    } else {
        VlReport::default()
    };
    let validate_s = t_valid.elapsed().as_secs_f64();
    let t_write = Instant::now();
    if !v.ok() {
        eprintln!("ibfat: error: the degraded routes fail the per-VL check (this is a bug): {v:?}");
        return Ok(1);
    }
    let lfts = &r.lfts;
    let (files, style) = write_tables(out, fabric, lids, lfts, Some(&lanes_of), style)?;
    let report = Report {
        family: job.description,
        objective: if job.spread { "spread" } else { "family" },
        faults: job.faults,
        switches: lfts.switches.len(),
        lids: lids.owner.iter().skip(1).filter(|&&o| o != u32::MAX).count(),
        entries: lfts.routed_entries(),
        vls: &v,
        unrouted_switch_lids: r.unrouted_switch_lids,
        data_vls: r.data_vls,
        two_turn: r.two_turn,
        two_turn_switch_lids: r.two_turn_switch_lids,
        escape: EscapeReport::new(&r.escape, r.data_vls),
        out: out.display().to_string(),
        files: files.clone(),
        dump_style: style.name(),
        timings: stages.map(|(read_s, recognize_s)| super::route::Timings {
            read_s: read_s + lids_s,
            recognize_s,
            route_s,
            validate_s,
            write_s: t_write.elapsed().as_secs_f64(),
            load_s: read_s + recognize_s,
        }),
    };
    if json {
        print_json("route-degraded", &report)?;
        return Ok(0);
    }
    let acyclic = v.per_vl_lines();
    outln!("{}", job.description);
    outln!(
        "  {} switches x {} LIDs: {} entries; {} of {} host-sourced paths on a detour (SL 1-{}), {} turning twice",
        report.switches,
        report.lids,
        report.entries,
        v.sl_paths,
        v.paths,
        lanes_of.rule_sls(),
        r.two_turn + r.two_turn_switch_lids
    );
    if validate {
        outln!("  deadlock-free on {} data VLs: {}", v.vls, acyclic.join("; "));
    } else {
        outln!("  not validated (--no-validate); `ibfat lfts validate --sl --sl2vl` proves it");
    }
    if let Some(line) = report.escape.line() {
        outln!("{line}");
    }
    if r.unrouted_switch_lids > 0 {
        outln!(
            "  {} (leaf, switch LID) pairs unrouted: no surviving path, or one that would close a cycle on the \
             escape lane",
            r.unrouted_switch_lids
        );
    }
    outln!(
        "  wrote {}: {}{}",
        out.display(),
        files.join(", "),
        super::route::compact_note(style)
    );
    Ok(0)
}

/// Write, as one atomic group in `out`, the tables (`opensm-lfts.dump`, `guid2lid`,
/// `ibfat-lfts.bin`) and, for routes with `rules`, the files that give them SLs and VLs
/// (`path-sl.txt`, `sl2vl.txt`, naming the tables they belong to); the file names written
/// and the style the dump took ([`DumpStyle::resolve`]).
pub(super) fn write_tables(
    out: &Path,
    fabric: &ibfat::topology::Fabric,
    lids: &Lids,
    lfts: &ibfat::routing::LftSet,
    rules: Option<&dyn ibfat::routing::lanes::LaneRules>,
    style: DumpStyle,
) -> Result<(Vec<&'static str>, DumpStyle)> {
    let style = style.resolve(fabric, lids, lfts);
    let g2l = guid2lid::write(lids, fabric).into_bytes();
    let mut files: Vec<(&'static str, atomic::Fill<'_>)> = vec![
        (
            "opensm-lfts.dump",
            Box::new(|w: &mut dyn std::io::Write| lftdump::stream_opensm_as(w, fabric, lids, lfts, style)),
        ),
        (
            "guid2lid",
            Box::new(move |w: &mut dyn std::io::Write| w.write_all(&g2l)),
        ),
    ];
    if let Some(rules) = rules {
        let cf = lfts.computed_for(fabric, lids);
        let path_sl = lanes::write_path_sl(fabric, lids, &cf, |s, l| rules.sl(s, l)).into_bytes();
        let sl2vl = lanes::write_sl2vl(fabric, &cf, |w, s, i, o| rules.vl(w, s, i, o)).into_bytes();
        files.push((
            "path-sl.txt",
            Box::new(move |w: &mut dyn std::io::Write| w.write_all(&path_sl)),
        ));
        files.push((
            "sl2vl.txt",
            Box::new(move |w: &mut dyn std::io::Write| w.write_all(&sl2vl)),
        ));
    }
    files.push((
        lftbin::FILE_NAME,
        Box::new(|w: &mut dyn std::io::Write| lftbin::write(w, fabric, lids, lfts)),
    ));
    let names = files.iter().map(|(name, _)| *name).collect();
    atomic::write_files_with(out, files)?;
    Ok((names, style))
}

/// The LIDs to route with: `plan`, `discovered`, `auto` (the topology's own at LMC 0, else
/// planned) or a guid2lid file.
pub(super) fn pick_lids(loaded: &Loaded, lids_arg: &str) -> Result<Lids> {
    pick_lids_at(loaded, lids_arg, 0)
}

/// [`pick_lids`] at LMC `lmc` (a degraded MOLS tree keeps its LMC 1 latency routes).
fn pick_lids_at(loaded: &Loaded, lids_arg: &str, lmc: u8) -> Result<Lids> {
    let fabric = loaded.fabric();
    if lmc > 1 {
        return Err(Error::input(
            "lmc",
            format!("LMC {lmc} is for full meshes; a degraded tree is routed with LMC 0 or 1"),
            Some("--lmc 0 or --lmc 1".into()),
        ));
    }
    Ok(match lids_arg {
        "plan" => Lids::plan(fabric, &[], lmc)?,
        "discovered" => loaded
            .own_lids()?
            .ok_or_else(|| Error::input("lids", "the topology carries no LIDs", Some("use --lids plan".into())))?,
        "auto" => match loaded.own_lids()? {
            Some(l) if l.lmc == lmc => l,
            _ => Lids::plan(fabric, &[], lmc)?,
        },
        file => super::topo::read_guid2lid(fabric, Path::new(file))?,
    })
}
