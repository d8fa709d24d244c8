//! `ibfat route`: deterministic LFTs in OpenSM's formats, for any fabric ibfat
//! recognises (intact or degraded): one flow — load, recognise, pick LIDs, route through
//! the library's one pipeline (`routing::route_fabric`), prove (`check::prove`) while the
//! files are written, publish only proven tables, report (`ibfat.route/2`).

use super::route_report::{Report, Timings};
use super::topo;
use clap::Args;
use ibfat::check::{prove, Proof};
use ibfat::formats::lftdump::DumpStyle;
use ibfat::formats::{atomic, guid2lid, lanes, lftbin, lftdump};
use ibfat::load::{load, Loaded, Recognize};
use ibfat::routing::pipeline::check_lmc;
use ibfat::routing::{route_fabric, Ask, Lids, Routed, Shape};
use ibfat::topology::{Fabric, Layout};
use ibfat::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug)]
#[command(
    after_help = "\
Examples:
  ibfat route lsft7/ --out lsft7/
  ibfat route lsft13/ --objective spread --out spread/
  ibfat route mesh8/ --lmc 2 --out mesh8/
  ibfat faults lsft7/ --cut 5 --out cut/ && ibfat route cut/topology.net --out cut/",
    after_long_help = "\
Writes DIR/opensm-lfts.dump (`opensm -R file -U DIR/opensm-lfts.dump` programs exactly these
tables), DIR/guid2lid (seed it as $OSM_CACHE_DIR/guid2lid so OpenSM assigns the same LIDs)
and DIR/ibfat-lfts.bin (the same tables with the fingerprints of what they were computed
for; every --lfts loads it in a fraction of a second). Routes that need more than one VL
(degraded LSFTs, --objective spread, full meshes with LMC >= 1, a degraded tree's relay
detours) also get DIR/path-sl.txt and DIR/sl2vl.txt. All files are one atomic group,
published only when the tables are proven (loops, delivery, minimality where the family
promises it, deadlock freedom on one VL or per VL).

Which router serves which fabric is decided in one place (docs/routing.md): the family's
own routes when intact; detours through one other leaf for a degraded LSFT; up*/down*
around the faults for a degraded k-ary n-tree, PGFT or MOLS tree (pairs no such path
joins are named, exit 1; the tables serve every other pair).

Examples:
  ibfat route lsft7/ --out lsft7/
  ibfat route lsft13/ --objective spread --out spread/   shifts and random jobs, 2 data VLs
  ibfat route mesh8/ --lmc 2 --out mesh8/
  ibfat route dual/ --rail 1 --out dual/rail1/            rail 1 of `build ... --rails 2`
  ibfat route mols7/fabric.yaml --lmc 1 --out routes/
  ibfat faults lsft7/ --cut 5 --out cut/ && ibfat route cut/topology.net --out cut/"
)]
pub struct RouteArgs {
    /// Plan folder, fabric.yaml, topology.net or ibnetdiscover output
    topology: PathBuf,
    /// The family the fabric must be (auto: recognise it from the cabling alone)
    #[arg(short = 'f', long, default_value = "auto", value_parser = super::family_choice())]
    family: String,
    /// LIDs per host port 2^LMC: 0 or 1; full meshes 0..=7
    ///
    /// A MOLS tree routes its latency routes on base+1. A full mesh routes the base LID direct and the other 2^LMC-1 offsets through one
    /// relay switch each (docs/routing.md).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=7))]
    lmc: u8,
    /// Where the LIDs come from: plan, discovered, or a guid2lid file
    ///
    /// auto: the topology's own LIDs (discovered: a dump's) at this LMC, else planned.
    #[arg(short = 'l', long, default_value = "auto")]
    lids: String,
    /// Output folder
    #[arg(short = 'o', long, value_name = "DIR")]
    out: PathBuf,
    /// Skip the proof of the computed tables
    #[arg(long)]
    no_validate: bool,
    /// What each dump entry carries: full, compact, or auto
    ///
    /// full is OpenSM's own dump (`0x<lid> <port> # <type> portguid 0x<guid>: '<desc>'`);
    /// compact (`0x<lid> <port> # portguid 0x<guid>`) is all OpenSM's file engine and ibfat
    /// read, in about half the bytes; auto is full while that dump stays within 1 GiB.
    #[arg(long, value_enum, default_value = "auto", value_name = "STYLE")]
    dump_style: StyleArg,
    /// Do not wait for the disk before publishing the files
    ///
    /// They are still complete before they are renamed into place (no reader sees half a
    /// file), but a power loss right after may leave them empty. For multi-gigabyte dumps
    /// that are regenerated in seconds.
    #[arg(long)]
    no_sync: bool,
    /// Route rail K of a multi-rail fabric (the plane on HCA port K+1)
    ///
    /// Its own subnet, LIDs and tables: give each rail its own output folder.
    #[arg(long, value_name = "K")]
    rail: Option<u32>,
    /// What the routes optimise: family, or spread (LSFT: detours on 2 VLs)
    ///
    /// `family`: the family's own routes, on which its all-to-all schedules are
    /// conflict-free. `spread`: each host slot of a leaf reached over a different up link of
    /// every other leaf, for traffic not arranged for the plane (shifts, random jobs).
    #[arg(long, value_enum, default_value = "family", value_name = "OBJECTIVE")]
    objective: ObjectiveArg,
    /// Print the report as JSON
    #[arg(long)]
    pub(crate) json: bool,
    /// Add the time of every stage to the report
    #[arg(long)]
    timings: bool,
}

/// `--objective`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ObjectiveArg {
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

/// What recognition found, owned by the run (the shape borrows from it).
struct Recognized {
    loaded: Loaded,
    degraded: Option<ibfat::recognize::Degraded>,
}

impl Recognized {
    fn shape(&self) -> Result<Shape<'_>> {
        Ok(match &self.degraded {
            Some(d) => Shape::Degraded {
                holes: &d.holes,
                description: &d.description,
            },
            None => Shape::Intact(self.loaded.layout()?),
        })
    }

    fn layout(&self) -> Option<&Layout> {
        self.degraded.is_none().then(|| self.loaded.layout().ok()).flatten()
    }

    fn faults(&self) -> usize {
        self.degraded.as_ref().map_or(0, |d| d.faults.len())
    }
}

pub fn run(a: RouteArgs) -> Result<i32> {
    if a.no_sync {
        atomic::set_durable(false);
    }
    let ask = Ask {
        objective: match a.objective {
            ObjectiveArg::Family => ibfat::routing::Objective::Family,
            ObjectiveArg::Spread => ibfat::routing::Objective::Spread,
        },
        ..Ask::default()
    };
    let t_read = Instant::now();
    let mut loaded = load(&a.topology, topo::read_options(), Recognize::No)?;
    if let Some(k) = a.rail {
        loaded.select_rail(k)?;
    }
    let read_s = t_read.elapsed().as_secs_f64();
    let t_rec = Instant::now();
    let rec = recognize_loaded(loaded, &a.family)?;
    let shape = rec.shape()?;
    check_lmc(shape, ask.objective, a.lmc)?;
    let recognize_s = t_rec.elapsed().as_secs_f64();
    let t_lids = Instant::now();
    let lids = pick_lids(&rec.loaded, rec.layout(), &a.lids, a.lmc)?;
    let read_s = read_s + t_lids.elapsed().as_secs_f64();
    let t_route = Instant::now();
    let routed = route_fabric(rec.loaded.fabric(), shape, &lids, &ask)?;
    let route_s = t_route.elapsed().as_secs_f64();
    let style = match a.dump_style {
        StyleArg::Compact => DumpStyle::Compact,
        StyleArg::Full => DumpStyle::Full,
        StyleArg::Auto => DumpStyle::Auto,
    };
    let t_write = Instant::now();
    let fabric = rec.loaded.fabric();
    let prove_for = (!a.no_validate).then(|| rec.layout());
    let (files, style, proof) = match write_proven(&a.out, fabric, &lids, &routed, prove_for, style)? {
        Written::Published { files, style, proof } => (files, style, proof),
        Written::Refused(proof) => {
            eprintln!(
                "ibfat: error: the computed tables fail their proof (this is a bug): {}",
                proof.failure()
            );
            return Ok(1);
        }
    };
    let write_s = t_write.elapsed().as_secs_f64();
    let timings = a.timings.then(|| Timings {
        read_s,
        recognize_s,
        route_s,
        validate_s: proof.as_ref().map_or(0.0, |p| p.1),
        write_s,
    });
    let report = Report::new(
        &shape.describe(),
        rec.faults(),
        &routed,
        &lids,
        proof.as_ref().map(|p| &p.0),
        (&a.out, files, style),
        timings,
    );
    report.print(a.json, route_s)?;
    Ok(i32::from(routed.unrouted > 0))
}

/// Recognise the loaded fabric (`--family`), apply host roles; an unrecognised fabric is
/// refused with recognition's reason.
fn recognize_loaded(mut loaded: Loaded, family: &str) -> Result<Recognized> {
    let hint = ibfat::families::Family::parse_opt(family)?;
    loaded.recognize(hint);
    let degraded = match loaded.model.layout() {
        Some(_) => None,
        None => loaded.degraded.clone(),
    };
    if degraded.is_none() {
        loaded.topology()?;
    }
    let loaded = topo::with_roles(loaded)?;
    Ok(Recognized { loaded, degraded })
}

/// The LIDs to route with: `plan`, `discovered`, `auto` (the topology's own at this LMC,
/// else planned) or a guid2lid file. Planned LIDs of an intact family must fit the subnet
/// (the error says which size of the family would).
fn pick_lids(loaded: &Loaded, layout: Option<&Layout>, arg: &str, lmc: u8) -> Result<Lids> {
    let fabric = loaded.fabric();
    let plan = || -> Result<Lids> {
        let Some(layout) = layout else {
            return Lids::plan(fabric, &[], lmc);
        };
        ibfat::topology::lidspace::check_layout(
            layout,
            fabric.switches().count() as u64,
            (layout.hosts().len() + layout.others().len()) as u64,
            lmc,
        )?;
        Lids::plan(fabric, layout.hosts(), lmc)
    };
    match arg {
        "plan" => plan(),
        "discovered" => loaded
            .own_lids()?
            .ok_or_else(|| Error::input("lids", "the topology carries no LIDs", Some("use --lids plan".into()))),
        "auto" => match loaded.own_lids()? {
            Some(l) if l.lmc == lmc => Ok(l),
            _ => plan(),
        },
        file => topo::read_guid2lid(fabric, Path::new(file)),
    }
}

/// What [`write_proven`] did.
enum Written {
    /// The files are in place: their names, the dump's style, and the proof with its
    /// seconds (none with `--no-validate`).
    Published {
        files: Vec<&'static str>,
        style: DumpStyle,
        proof: Option<(Proof, f64)>,
    },
    /// The proof failed: nothing was written.
    Refused(Proof),
}

/// Write the tables (and, for routes with lanes, `path-sl.txt` and `sl2vl.txt`) as one
/// atomic group in `out`, proving them on another thread meanwhile (`prove`: the intact
/// layout whose promises they keep, or none for a degraded fabric; `None`: no proof). A
/// large fabric's dump is gigabytes bounded by the disk, so the proof costs no wall time;
/// the files are published only when it holds.
fn write_proven(
    out: &Path,
    fabric: &Fabric,
    lids: &Lids,
    routed: &Routed,
    prove_for: Option<Option<&Layout>>,
    style: DumpStyle,
) -> Result<Written> {
    let lfts = &routed.lfts;
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
    if let Some(rules) = routed.lanes.as_deref() {
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
    let names: Vec<&'static str> = files.iter().map(|(name, _)| *name).collect();
    let mut proof = None;
    let published = std::thread::scope(|s| {
        let proving = prove_for.map(|layout| {
            s.spawn(move || {
                let t = Instant::now();
                let p = prove(fabric, lids, routed, layout);
                (p, t.elapsed().as_secs_f64())
            })
        });
        atomic::write_files_gated(out, files, || {
            let Some(p) = proving else { return Ok(true) };
            let (p, secs) = p.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            let sound = p.sound;
            proof = Some((p, secs));
            Ok(sound)
        })
    })?;
    match proof {
        Some((p, _)) if !published => return Ok(Written::Refused(p)),
        _ => {}
    }
    Ok(Written::Published {
        files: names,
        style,
        proof,
    })
}
