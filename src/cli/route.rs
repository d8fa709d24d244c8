//! `ibfat route`: deterministic LFTs in OpenSM's formats.

use super::output::print_json;
use super::topo;
use clap::Args;
use ibfat::check::validate;
use ibfat::formats::lftdump::DumpStyle;
use ibfat::formats::{atomic, guid2lid, lftbin, lftdump};
use ibfat::load::{load, Recognise};
use ibfat::routing::{route, Lids};
use ibfat::topology::degraded::LsftHoles;
use ibfat::topology::Layout;
use ibfat::{Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug)]
#[command(after_help = "\
Writes DIR/opensm-lfts.dump (OpenSM's dump format: `opensm -R file -U DIR/opensm-lfts.dump`
programs exactly these tables) and DIR/guid2lid (seed it as $OSM_CACHE_DIR/guid2lid so OpenSM
assigns the same LIDs), and DIR/ibfat-lfts.bin: the same tables as bytes, with the
fingerprints of the fabric, the LIDs and the tables, which `ibfat check --lfts` (and every
other --lfts) loads in a fraction of a second instead of parsing the dump; sharded checks
want it. All three are written as one atomic group: OpenSM's file engine drops every LID a
switch section omits, so a partial file would black-hole hosts.

Routing: LSFT unique minimal paths (two-sided: spread over the q+1 spines a point's two
copies share); k-ary n-tree d-mod-k; MOLS 3-tree base LID = bandwidth route (d-mod-k),
base+1 = latency route (through a shared middle switch) with --lmc 1. Every switch routes
every LID, switch LIDs included (up*/down*). The tables are validated while the dump is
written; the files are published only if they pass. --dump-style compact drops the node
type and description from every entry (`0x0001 005 # portguid 0x...`): OpenSM's file engine
and ibfat read it alike, in about half the bytes (LSFT(32): 3.2 GB instead of 5.8 GB). The
default, auto, is OpenSM's own format up to 1 GiB of dump and compact above.

A degraded one-sided LSFT (cut cables, dead switches; `ibfat recognize` lists them) is
routed too: intact pairs keep their route, broken pairs detour through one other leaf
(or, where none serves, through a relay whose route is a detour), switch LIDs follow the
intact up*/down* rule over the surviving cables (one cut changes only the routes that
crossed it), on SLs 1-14 with two data VLs where a route must turn (three where one
turns twice),
proven deadlock-free per VL; DIR also gets path-sl.txt (the SL of
every (SLID, DLID) pair that is not 0) and sl2vl.txt (the SL-to-VL tables). A degraded
k-ary n-tree, PGFT or MOLS 3-tree is routed up*/down* around the faults on one VL (a MOLS
tree with --lmc 0 or 1: both routes kept where they survive); pairs no such path joins are
named (exit 1).

--objective spread (an LSFT, intact or degraded) trades the family's conflict-free lsft
all-to-all for traffic it does not arrange: every host slot of a leaf is entered over its own
spine and every other leaf reaches it over a different one of its up links, through one
relay leaf (one turn, SL 1-2, two data VLs, proven per VL; DIR gets path-sl.txt and
sl2vl.txt). Shift all-to-all on LSFT(13): 0.305 of the link rate instead of 0.137.

A full mesh (`ibfat build fullmesh`) with --lmc L (1..=7) routes the base LID of every host
direct and the other 2^L-1 offsets through one relay switch each (two hops; relay
(t+1+(o-1) mod (N-1)) mod N for destination switch t, offset o), on SL 1 with two data VLs,
proven per VL; DIR also gets path-sl.txt and sl2vl.txt. With LMC 0 it is routed direct.

A multi-rail fabric (`ibfat build ... --rails 2`, or a dump holding both planes) is one
subnet per rail: --rail K routes the plane on HCA port K+1 with its own LIDs, written
like any other; give each rail its own output folder. A dump of one rail needs no --rail.

Examples:
  ibfat route lsft7/ --out lsft7/
  ibfat route lsft13/ --objective spread --out spread/   shifts and random jobs, 2 data VLs
  ibfat route mesh8/ --lmc 2 --out mesh8/
  ibfat route dual/ --rail 1 --out dual/rail1/            rail 1 of `build ... --rails 2`
  ibfat route mols7/fabric.yaml --lmc 1 --out routes/
  ibfat faults lsft7/ --cut 5 --out cut/ && ibfat route cut/topology.net --out cut/")]
pub struct RouteArgs {
    /// Plan folder, fabric.yaml, topology.net or ibnetdiscover output
    topology: PathBuf,
    /// The family the fabric must be: auto (recognise), lsft, kary, mols, pgft, twolevel, fullmesh
    #[arg(short = 'f', long, default_value = "auto")]
    family: String,
    /// LIDs per host port 2^LMC: 0 (one LID) or 1 (two LIDs; MOLS latency routes on
    /// base+1); full meshes 0..=7 (detours through relay switches on the other offsets)
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=7))]
    lmc: u8,
    /// Where the LIDs come from: `plan` (deterministic), `discovered` (the dump's), or a guid2lid file
    #[arg(short = 'l', long, default_value = "auto")]
    lids: String,
    /// Output folder
    #[arg(short = 'o', long, value_name = "DIR")]
    out: PathBuf,
    /// Skip the validation of the computed tables
    #[arg(long)]
    no_validate: bool,
    /// What each dump entry carries: full (OpenSM's own dump: `0x<lid> <port> # <type>
    /// portguid 0x<guid>: '<desc>'`), compact (`0x<lid> <port> # portguid 0x<guid>`: all
    /// OpenSM's file engine and ibfat read, in about half the bytes), or auto: full while
    /// that dump stays within 1 GiB, compact above (LSFT(29) and larger)
    #[arg(long, value_enum, default_value = "auto", value_name = "STYLE")]
    dump_style: StyleArg,
    /// Same as --dump-style compact
    #[arg(long, hide = true, conflicts_with = "dump_style")]
    compact_dump: bool,
    /// Do not wait for the disk before publishing the files: they are still complete
    /// before they are renamed into place (no reader sees half a file), but a power loss
    /// right after may leave them empty. For multi-gigabyte dumps that are regenerated in
    /// seconds (LSFT(32): the sync alone takes longer than routing)
    #[arg(long)]
    no_sync: bool,
    /// Route rail K of a multi-rail fabric (the plane on HCA port K+1): its own subnet,
    /// LIDs and tables (one output folder per rail)
    #[arg(long, value_name = "K")]
    rail: Option<u32>,
    /// What the routes optimise: `family` (the family's own routes, on which its
    /// all-to-all schedules are conflict-free) or `spread` (LSFT only: each host slot of a
    /// leaf reached over a different up link of every other leaf, one-turn detours on two
    /// data VLs, for traffic not arranged for the plane: shifts, permutations, random jobs)
    #[arg(long, value_enum, default_value = "family", value_name = "OBJECTIVE")]
    objective: Objective,
    /// Print the report as JSON
    #[arg(long)]
    pub(crate) json: bool,
    /// Add the time of every stage to the report (`timings`: read_s, recognize_s, route_s,
    /// validate_s, write_s, seconds)
    #[arg(long)]
    timings: bool,
}

/// What the text report adds after the dump's name: nothing for OpenSM's own format.
pub(super) fn compact_note(style: DumpStyle) -> &'static str {
    match style {
        DumpStyle::Compact => " (compact entries: LID, port, port GUID)",
        _ => "",
    }
}

/// `--objective`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Objective {
    Family,
    Spread,
}

/// `--dump-style`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum StyleArg {
    Auto,
    Full,
    Compact,
}

/// Seconds per stage (`--timings`), named as the OpenSM plugin's stage line names them.
/// Kept out of the report otherwise, so that two runs on the same input give
/// byte-identical reports (docs/json.md).
#[derive(Serialize)]
pub(super) struct Timings {
    /// Parsing the topology (building a spec) and reading or planning the LIDs.
    pub(super) read_s: f64,
    /// Recognising the family and its coordinates, and applying host roles.
    pub(super) recognize_s: f64,
    /// Computing every LFT entry.
    pub(super) route_s: f64,
    /// Validating the tables (0 with --no-validate). `route` validates while it writes
    /// the files, so this time is part of `write_s`, not added to it.
    pub(super) validate_s: f64,
    /// Writing opensm-lfts.dump and guid2lid (and waiting for the validation).
    pub(super) write_s: f64,
    /// `read_s + recognize_s`, the one figure earlier releases gave (kept for readers of
    /// `ibfat.route/1`).
    pub(super) load_s: f64,
}

#[derive(Serialize)]
struct Report {
    family: String,
    switches: usize,
    lids: usize,
    lmc: u8,
    entries: usize,
    valid: Option<bool>,
    out: PathBuf,
    files: Vec<&'static str>,
    /// The style the dump was written in (`full` or `compact`, `--dump-style`).
    dump_style: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    timings: Option<Timings>,
}

pub fn run(a: RouteArgs) -> Result<i32> {
    let hint = ibfat::recognize::FamilyHint::parse_opt(&a.family)?;
    if a.no_sync {
        ibfat::formats::atomic::set_durable(false);
    }
    let style = match (a.compact_dump, a.dump_style) {
        (true, _) | (_, StyleArg::Compact) => DumpStyle::Compact,
        (_, StyleArg::Full) => DumpStyle::Full,
        (_, StyleArg::Auto) => DumpStyle::Auto,
    };
    let t_read = Instant::now();
    let mut loaded = load(&a.topology, super::topo::read_options(), Recognise::No)?;
    if let Some(k) = a.rail {
        loaded.select_rail(k)?;
    }
    let mut read_s = t_read.elapsed().as_secs_f64();
    let t_rec = Instant::now();
    loaded.recognise(hint);
    if loaded.model.layout().is_none() {
        if let Some(d) = loaded.degraded.clone() {
            let loaded = super::topo::with_roles(loaded)?;
            let stages = a.timings.then(|| (read_s, t_rec.elapsed().as_secs_f64()));
            return super::route_degraded::run(
                &loaded,
                &d,
                &a.lids,
                a.lmc,
                &a.out,
                a.json,
                !a.no_validate,
                stages,
                style,
                a.objective == Objective::Spread,
            );
        }
    }
    loaded.topology()?;
    let loaded = super::topo::with_roles(loaded)?;
    let recognize_s = t_rec.elapsed().as_secs_f64();
    let t_lids = Instant::now();
    let found_lids = &loaded.own_lids()?;
    let layout = loaded.layout()?;
    if a.objective == Objective::Spread && !matches!(layout, Layout::Lsft(_)) {
        return Err(super::route_degraded::spread_is_for_lsfts(layout.family_name()));
    }
    if a.lmc > 1 && !matches!(layout, Layout::Fullmesh(_)) {
        return Err(Error::input(
            "lmc",
            format!(
                "LMC {} is for full meshes; a {} is routed with LMC 0 or 1",
                a.lmc,
                layout.family_name()
            ),
            Some("--lmc 0 or --lmc 1".into()),
        ));
    }
    // planned LIDs at this LMC must fit the subnet: say which size of the family would
    let plan = || -> Result<Lids> {
        let switches = loaded.fabric().switches().count() as u64;
        ibfat::topology::lidspace::check_layout(
            layout,
            switches,
            (layout.hosts().len() + layout.others().len()) as u64,
            a.lmc,
        )?;
        Lids::plan(loaded.fabric(), layout.hosts(), a.lmc)
    };
    let lids = match a.lids.as_str() {
        "plan" => plan()?,
        "discovered" => found_lids
            .clone()
            .ok_or_else(|| Error::input("lids", "the topology carries no LIDs", Some("use --lids plan".into())))?,
        "auto" => match &found_lids {
            Some(l) if l.lmc == a.lmc => l.clone(),
            _ => plan()?,
        },
        file => topo::read_guid2lid(loaded.fabric(), Path::new(file))?,
    };
    read_s += t_lids.elapsed().as_secs_f64();
    if let (Objective::Spread, Layout::Lsft(l)) = (a.objective, layout) {
        if lids.lmc != 0 {
            return Err(Error::input(
                "lmc",
                "an LSFT is spread with LMC 0",
                Some("drop --lmc".into()),
            ));
        }
        let holes = LsftHoles::new(
            loaded.fabric(),
            l.plane.clone(),
            l.sides,
            l.leaves.clone(),
            l.spines.clone(),
        );
        let description = layout.describe();
        let job = super::route_degraded::LsftJob {
            description: &description,
            faults: 0,
            holes: &holes,
            lids: &lids,
            spread: true,
            lids_s: 0.0,
        };
        let stages = a.timings.then_some((read_s, recognize_s));
        return super::route_degraded::lsft(&loaded, &job, &a.out, a.json, !a.no_validate, stages, style);
    }
    let t0 = Instant::now();
    let lfts = route(loaded.fabric(), layout, &lids)?;
    let secs = t0.elapsed().as_secs_f64();
    // a full mesh's detours (LMC offsets, or around missing cables) need two VLs
    if let Some(l) = match layout {
        Layout::Fullmesh(l) if lids.lmc >= 1 || !l.cut.is_empty() => Some(l),
        _ => None,
    } {
        let routed = super::route_fullmesh::Routed {
            fabric: loaded.fabric(),
            layout: l,
            family: layout,
            description: layout.describe(),
            lids: &lids,
            lfts: &lfts,
            route_s: secs,
        };
        return super::route_fullmesh::run(routed, a.no_validate, &a.out, a.json, style);
    }
    // the tables are validated while the dump is written (on another thread): the dump
    // of a large fabric is gigabytes (LSFT(32): 5.8 GB) and its writing is bounded by the
    // disk; the files are published only when the tables pass. The text is streamed into
    // the temporary file, never held in memory; both files stay one atomic group
    let t_write = Instant::now();
    let fabric = loaded.fabric();
    let style = style.resolve(fabric, &lids, &lfts);
    let g2l = guid2lid::write(&lids, fabric).into_bytes();
    let files: Vec<(&str, atomic::Fill<'_>)> = vec![
        (
            "opensm-lfts.dump",
            Box::new(|w: &mut dyn std::io::Write| lftdump::stream_opensm_as(w, fabric, &lids, &lfts, style)),
        ),
        ("guid2lid", Box::new(|w: &mut dyn std::io::Write| w.write_all(&g2l))),
        (
            lftbin::FILE_NAME,
            Box::new(|w: &mut dyn std::io::Write| lftbin::write(w, fabric, &lids, &lfts)),
        ),
    ];
    let mut checked = None;
    let published = std::thread::scope(|s| {
        let validation = (!a.no_validate).then(|| {
            s.spawn(|| {
                let t = Instant::now();
                let r = validate(fabric, &lids, &lfts, Some(layout));
                (r, t.elapsed().as_secs_f64())
            })
        });
        atomic::write_files_gated(&a.out, files, || {
            let Some(v) = validation else { return Ok(true) };
            let (r, secs) = v.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            let ok = r.ok;
            checked = Some((r, secs));
            Ok(ok)
        })
    })?;
    let write_s = t_write.elapsed().as_secs_f64();
    let validate_s = checked.as_ref().map_or(0.0, |c| c.1);
    if !published {
        let first = checked.as_ref().and_then(|c| c.0.defects.first());
        eprintln!("ibfat: error: the computed tables fail validation (this is a bug): {first:?}");
        return Ok(1);
    }
    let valid = checked.map(|_| true);
    let report = Report {
        family: layout.describe(),
        switches: lfts.switches.len(),
        lids: lids.owner.iter().skip(1).filter(|&&o| o != u32::MAX).count(),
        lmc: lids.lmc,
        entries: lfts.routed_entries(),
        valid,
        out: a.out.clone(),
        files: vec!["opensm-lfts.dump", "guid2lid", lftbin::FILE_NAME],
        dump_style: style.name(),
        timings: a.timings.then_some(Timings {
            read_s,
            recognize_s,
            route_s: secs,
            validate_s,
            write_s,
            load_s: read_s + recognize_s,
        }),
    };
    if a.json {
        print_json("route", &report)?;
    } else {
        outln!("{}", report.family);
        outln!(
            "  {} switches x {} LIDs (LMC {}): {} LFT entries in {:.3} s{}",
            report.switches,
            report.lids,
            report.lmc,
            report.entries,
            secs,
            if valid == Some(true) { ", validated" } else { "" }
        );
        outln!(
            "  wrote {}/opensm-lfts.dump{}, {}/guid2lid and {}/{}",
            a.out.display(),
            compact_note(style),
            a.out.display(),
            a.out.display(),
            lftbin::FILE_NAME
        );
    }
    Ok(0)
}
