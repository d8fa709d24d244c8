//! `ibfat check`: route every flow of every phase on the LFTs and count link conflicts.

use super::check_report::{number, per_rail, print_report};
use super::output::{print_json, print_json_version, print_raw_json, progress};
use super::topo;
use clap::{Args, Subcommand};
use ibfat::check::shard::{job_fingerprint, slice, ShardLinks};
use ibfat::check::{check_counted, merge, name_links, CheckReport, CheckShard, CompiledRoutes, LinkCount, RateWeights};
use ibfat::families::railopt::schedule::RailTraffic;
use ibfat::fingerprint::ComputedFor;
use ibfat::formats::{atomic, dot, picture};
use ibfat::load::Loaded;
use ibfat::schedule::job::Hosts;
use ibfat::schedule::{file, Job, Pattern, PatternKind, Request};
use ibfat::select::generate;
use ibfat::topology::Endpoint;
use ibfat::{Error, Result};
use std::path::{Path, PathBuf};
use tables::{file_tables, own_or_dumped_tables, read_inputs, Tables};

mod tables;

const CHECK_AFTER: &str = "\
Every flow of every phase is routed along the LFTs; flows are counted per directed
switch-to-switch link; a flow's congestion c is the largest count on its path and its
throughput 1/c. The throughput ratio is the mean of 1/c over all flows of all phases
(self-flows excluded, unrouted or looping flows count 0 and are listed). 1.0 = conflict-free.

LFTS: OpenSM's opensm-lfts.dump, `dump_lfts` or `ibroute` output, or the ibfat-lfts.bin
`ibfat route` writes next to its dump (the same tables as bytes with their LIDs and
fingerprints: loaded in a fraction of a second instead of parsed, and refused, exit 2 with
the byte offset and reason, when damaged, of another fabric or LIDs, or of another format
version); without --lfts ibfat's own tables for the topology are computed. LIDs: --lids
guid2lid, else the topology's own, else the ones the dump's `portguid` annotations name
(OpenSM's dumps carry them; ibfat-lfts.bin carries its own).

Cluster array jobs: `--shard i/N` checks the i-th of N slices of the phases (i from 0) and
writes a shard file (--out FILE, or --json to print it), schema ibfat.check-shard/3:
exact counters, every used link by port GUID and port number (as rows of numbers over
one table of names; shards of earlier releases are refused), and the fingerprints of
the fabric and tables it was checked on (`computed_for`) — not a report.
`ibfat check merge SHARD...` validates the set (same pattern, job, N, fabric and tables;
every index exactly once) and computes the report from it exactly as an unsharded check
would, worst links included. `--allow-partial` merges an incomplete set into a report
marked `partial: true` that never exits 0. Every shard needs all the tables (it records
their fingerprint): route once and give each shard `--lfts DIR/ibfat-lfts.bin`. A shard
then pays about 0.13 s once on LSFT(32) (reading and checksumming 78 MB of tables,
compiling the routes, writing the shard) where computing the tables (no --lfts) costs
about a second and parsing the dump 12 s. --timings prints the seconds of each stage on
standard error.

--json prints the report without the per-link loads; --links adds them (`link_loads`:
every link that carried a flow, by port GUID and number, largest and total load).

--rates weighs every flow by the rate of the link it crosses: a link of weight w carrying
n flows in a phase has the load n*w, w = reference rate / the link's rate (nominal rates:
a 4xDDR cable among 4xEDR peers weighs 100/20 = 5). The reference of a switch-to-switch
cable is the most common known rate among switch-to-switch cables (the peers `recognize`
compares it with), of a host cable the most common host-cable rate. The ratio, congestion
(rounded up; exact in `rates.max_congestion`), histogram, worst phases and links, and the
heat map are then the weighted ones, and --json reports schema ibfat.check/2 with `rates`.
A cable whose rate the input does not state weighs 1 (a warning counts them); when no
switch-to-switch rate is known (a plan, a dump with `4x???`) --rates is refused (exit 2).
Rates come from ibnetdiscover output or an ibsim net file; --rates cannot be sharded.

Exit codes: 0 conflict-free and every flow routed, 1 conflicts, unrouted flows or a partial
merge, 2 bad input.

Examples:
  ibfat check lsft7/ --pattern shift
  ibfat check ibnetdiscover.txt --lfts opensm-lfts.dump --rates --heatmap rates.svg
  ibfat check ibnetdiscover.txt --lfts dump_lfts.txt --pattern schedule.json --json
  ibfat check lsft17/ --lfts lsft17/ibfat-lfts.bin --pattern shift --shard 3/16 --out shard3.json
  ibfat check merge shard*.json --json";

const CHECK_EXAMPLES: &str = "\
Examples:
  ibfat check lsft7/ --pattern shift
  ibfat check ibnetdiscover.txt --lfts opensm-lfts.dump --rates --heatmap rates.svg
  ibfat check lsft17/ --lfts lsft17/ibfat-lfts.bin --pattern shift --shard 3/16 --out shard3.json";

#[derive(Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = CHECK_EXAMPLES,
    after_long_help = CHECK_AFTER
)]
pub struct CheckArgs {
    /// A multi-rail fabric: work on rail K's plane
    ///
    /// The plane on HCA port K+1, its own subnet.
    #[arg(long, value_name = "K")]
    rail: Option<u32>,
    #[command(subcommand)]
    cmd: Option<CheckCmd>,
    /// Plan folder, fabric.yaml, topology.net or ibnetdiscover output (`-`: stdin)
    #[arg(value_name = "TOPOLOGY", required_unless_present = "topology_flag")]
    topology: Option<PathBuf>,
    /// Deprecated spelling of TOPOLOGY (one more release)
    #[arg(
        long = "topology",
        id = "topology_flag",
        value_name = "TOPOLOGY",
        hide = true,
        conflicts_with = "topology"
    )]
    topology_flag: Option<PathBuf>,
    /// LFT dump (default: ibfat's own routes for the topology)
    #[arg(long)]
    lfts: Option<PathBuf>,
    /// guid2lid file with the LIDs the tables were made for
    #[arg(short = 'l', long)]
    lids: Option<PathBuf>,
    /// A pattern (shift, lsft ...) or a schedule file (JSON)
    ///
    /// The patterns: shift, kary-shift, mols-shift, lsft, lsft-partial, ring,
    /// recursive-doubling, bruck, random, bisection, rail-alltoall and rail-ring (with
    /// every rail's figures).
    #[arg(short = 'p', long, default_value = "shift")]
    pattern: String,
    /// Ranks of the job: `ranks:0-63`, host names `dgx[001-031]` or a host file
    ///
    /// As `ibfat schedule --job`.
    #[arg(short = 'j', long, value_name = "HOSTS")]
    job: Option<String>,
    /// lsft-partial: block width K (with --per-leaf M)
    #[arg(
        long,
        value_name = "K",
        requires = "per_leaf",
        help_heading = "Pattern lsft-partial",
        hide_short_help = true
    )]
    block: Option<u32>,
    /// lsft-partial: hosts per leaf M
    #[arg(
        long,
        value_name = "M",
        requires = "block",
        help_heading = "Pattern lsft-partial",
        hide_short_help = true
    )]
    per_leaf: Option<u32>,
    /// lsft-partial: place a job of D hosts
    #[arg(
        long,
        value_name = "D",
        help_heading = "Pattern lsft-partial",
        hide_short_help = true
    )]
    job_size: Option<usize>,
    /// random: seed
    #[arg(long, default_value_t = 0, help_heading = "Pattern random", hide_short_help = true)]
    seed: u64,
    /// random: number of phases
    #[arg(long, help_heading = "Pattern random", hide_short_help = true)]
    phases: Option<usize>,
    /// Use LID base+K as destination (LMC paths)
    ///
    /// MOLS latency routes are K = 1.
    #[arg(long, value_name = "K", default_value_t = 0)]
    lid_offset: u16,
    /// Check only slice I of N of the phases (I from 0)
    ///
    /// The result is a shard file.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// Write the shard (with --shard) to FILE, atomically
    ///
    /// For `ibfat check merge`.
    #[arg(short = 'o', long, value_name = "FILE", requires = "shard")]
    out: Option<PathBuf>,
    /// Include every link's load (`link_loads`) in the --json report
    #[arg(long)]
    links: bool,
    /// Colour every link direction by its worst load: FILE.svg or FILE.dot
    ///
    /// FILE.svg is drawn by ibfat (matrices for large fabrics), FILE.dot is Graphviz
    /// source.
    #[arg(long, value_name = "FILE")]
    heatmap: Option<PathBuf>,
    /// Weigh each flow by link rate (reference rate / link rate)
    ///
    /// A slow cable then shows as the bottleneck it is; needs a fabric that states rates
    /// (ibnetdiscover, ibsim).
    #[arg(long)]
    rates: bool,
    /// Print the report as JSON
    #[arg(long)]
    pub(crate) json: bool,
    /// Check a schedule file even when it records other tables or fabric
    ///
    /// Other tables or another fabric than the ones in hand give a warning instead of
    /// exit 2.
    #[arg(long)]
    allow_stale: bool,
    /// Print the seconds of every stage on standard error
    ///
    /// The stages: read, pattern, tables, fingerprint and compile, phases, output; the
    /// report and shard are unchanged.
    #[arg(long)]
    timings: bool,
}

#[derive(Subcommand, Debug)]
enum CheckCmd {
    /// A full mesh's multipath throughput: the seed's patterns at direct shares D1 ... D10
    #[command(after_help = MULTIPATH_EXAMPLES, after_long_help = MULTIPATH_AFTER)]
    Multipath(super::check_multipath::MultipathArgs),
    /// Combine shard files (from `check --shard i/N --out FILE`) into one report
    #[command(after_help = MERGE_EXAMPLES, after_long_help = MERGE_AFTER)]
    Merge {
        /// Shard files
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// Merge an incomplete set: the report says `partial: true` and the exit code is 1
        #[arg(long)]
        allow_partial: bool,
        /// Print the merged report as JSON
        #[arg(long)]
        json: bool,
        /// Include every link's load (`link_loads`) in the JSON report
        #[arg(long)]
        links: bool,
    },
}

const MERGE_EXAMPLES: &str = "\
Examples:
  ibfat check lsft7/ --pattern lsft --shard 0/4 --out s0.json     (and 1/4, 2/4, 3/4)
  ibfat check merge s0.json s1.json s2.json s3.json --json
  sbatch --wait --array=0-7 scripts/slurm/check-array.sbatch lsft7/ out/ --pattern shift";

const MERGE_AFTER: &str = "\
The shards must come from the same pattern, job, shard count, fabric and tables, with
every index exactly once (else exit 2 naming the file); the report equals the unsharded
check's. --allow-partial merges a subset and marks the report partial (exit 1).

Examples:
  ibfat check lsft7/ --pattern lsft --shard 0/4 --out s0.json     (and 1/4, 2/4, 3/4)
  ibfat check merge s0.json s1.json s2.json s3.json --json
  sbatch --wait --array=0-7 scripts/slurm/check-array.sbatch lsft7/ out/ --pattern shift";

const MULTIPATH_EXAMPLES: &str = "\
Examples:
  ibfat check multipath mesh8/ --lmc 3
  ibfat check multipath mesh8/ --pattern n-to-one --direct-share 10 --json";

const MULTIPATH_AFTER: &str = "\
Every flow is split over its path plan (`ibfat plan-paths`: slot 0 direct, D of ten slots
direct, the rest detours through distinct relays) by the slots' shares; each share is walked
on the tables (ibfat's own at --lmc, or --lfts with --lids); the throughput is flows / load
of the busiest channel (host links included), in cables' worth of bandwidth. Patterns
between switches (docs/fullmesh.md §6): point-to-point (switch 0's hosts to switch 1's),
one-to-n (switch 0's hosts to every other switch), n-to-one (one host of every other switch
to switch 0), n-to-n (every switch to every other).

Examples:
  ibfat check multipath mesh8/ --lmc 3
  ibfat check multipath mesh8/ --pattern n-to-one --direct-share 10 --json";

fn parse_shard(s: &str) -> std::result::Result<(usize, usize), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("`{s}`: expected I/N, e.g. 3/16"))?;
    let i: usize = i.parse().map_err(|_| format!("`{i}` is not a number"))?;
    let n: usize = n.parse().map_err(|_| format!("`{n}` is not a number"))?;
    if n == 0 || i >= n {
        return Err(format!("{s}: expected 0 <= I < N"));
    }
    Ok((i, n))
}

/// The pattern of the command line and the hosts it runs on (rank order): a schedule
/// file (its own host list), or a named pattern over the job (default: every host).
fn resolve_pattern(a: &CheckArgs, loaded: &Loaded) -> Result<Resolved> {
    let all: Vec<Endpoint> = match loaded.model.layout() {
        Some(l) => l.hosts().to_vec(),
        None => loaded.fabric().endpoints(),
    };
    let hosts_view = Hosts::new(loaded.fabric(), &all, loaded.name());
    let path = Path::new(&a.pattern);
    if path.is_file() {
        let (sched, job) = file::read_json(path, Some(&hosts_view))?;
        let job = job.ok_or_else(|| Error::at(path, 0, "the schedule's hosts could not be matched to the topology"))?;
        let computed_for = sched.computed_for.clone();
        return Ok((Box::new(sched), job.hosts().to_vec(), computed_for, None));
    }
    let kind: PatternKind = a.pattern.parse()?;
    let job = a.job.as_deref().map(|j| Job::from_arg(j, &hosts_view)).transpose()?;
    if let Some(collective) = kind.rail_collective() {
        // no family needed: the rails come from the fabric
        let job = job.unwrap_or_else(|| Job::whole(&all));
        let t = RailTraffic::new(loaded.fabric(), &job, collective)?;
        return Ok((Box::new(t.clone()), job.hosts().to_vec(), None, Some(t)));
    }
    if kind == PatternKind::Shift && a.block.is_none() && a.job_size.is_none() {
        // plain shift needs no family
        let ranks = job.as_ref().map(|j| j.hosts().to_vec()).unwrap_or(all);
        return Ok((
            Box::new(ibfat::schedule::shift::Shift::new(ranks.len())),
            ranks,
            None,
            None,
        ));
    }
    let topo = loaded.topology()?;
    let req = Request {
        kind,
        job,
        block: a.block.zip(a.per_leaf),
        job_size: a.job_size,
        seed: a.seed,
        phases: a.phases,
    };
    let (g, _) = generate(topo, &req)?;
    Ok((g.pattern, g.job.hosts().to_vec(), None, None))
}

/// The pattern, its ranks' ports, what a schedule file says it was computed for, and a
/// rail pattern's rails (for per-rail figures).
type Resolved = (
    Box<dyn Pattern>,
    Vec<Endpoint>,
    Option<ComputedFor>,
    Option<RailTraffic>,
);

/// Refuse (or, with `--allow-stale`, warn about) a schedule file computed for another
/// fabric or other tables than the ones in hand: its conflict-freedom was a property of
/// those, and checking it here would report on a schedule MPI should no longer use.
fn refuse_stale(a: &CheckArgs, recorded: &ComputedFor, have: &ComputedFor) -> Result<()> {
    let Some(why) = recorded.mismatch(have) else {
        return Ok(());
    };
    let path = Path::new(&a.pattern);
    if a.allow_stale {
        super::output::note("warning", format_args!("{}: stale schedule: {why}", path.display()));
        return Ok(());
    }
    Err(Error::at(path, 0, format!("stale schedule: {why}")).with_hint(
        "regenerate it for these tables (the OpenSM plugin's schedule_out, or `ibfat schedule`), \
         or pass --allow-stale to check it anyway",
    ))
}

/// The rate weights of `--rates` (None without it): refused when it cannot be honoured,
/// a warning when some cables weigh 1 only because their rate is unknown.
fn rate_weights(
    a: &CheckArgs,
    loaded: &Loaded,
    routes: &CompiledRoutes,
    hosts: &[Endpoint],
) -> Result<Option<RateWeights>> {
    if !a.rates {
        return Ok(None);
    }
    if a.shard.is_some() {
        return Err(Error::input(
            "--rates",
            "cannot be combined with --shard: shards carry exact unweighted counts that `check merge` adds up",
            Some("run the weighted check unsharded, or shard without --rates".into()),
        ));
    }
    // a plan states designed rates, not trained ones: only a dump's stated rates count
    let known: &[bool] = match &loaded.discovered {
        Some(d) if d.rate_known.len() == loaded.fabric().ports.len() => &d.rate_known,
        _ => &[],
    };
    let wt = RateWeights::new(loaded.fabric(), routes, hosts, known).map_err(|e| e.in_file(&loaded.path, 0))?;
    if wt.unknown_cables > 0 {
        super::output::note(
            "warning",
            format_args!(
                "{}: --rates: {} of {} switch-to-switch cables have no known rate and weigh 1",
                loaded.path.display(),
                wt.unknown_cables,
                wt.cables
            ),
        );
    }
    Ok(Some(wt))
}

/// What identifies the pattern besides its name, phases and job: the options that make
/// it and its routes (recorded in shards so that only shards of one check merge).
fn pattern_options(a: &CheckArgs) -> String {
    let mut v = vec![format!("pattern={}", a.pattern)];
    if a.pattern == "random" {
        v.push(format!("seed={}", a.seed));
    }
    if let Some(p) = a.phases {
        v.push(format!("phases={p}"));
    }
    if let (Some(k), Some(m)) = (a.block, a.per_leaf) {
        v.push(format!("block={k}x{m}"));
    }
    if let Some(d) = a.job_size {
        v.push(format!("job-size={d}"));
    }
    v.push(format!("lid-offset={}", a.lid_offset));
    v.join(" ")
}

impl CheckArgs {
    /// `--json` given before the subcommand.
    pub fn set_json(&mut self) {
        self.json = true;
        match &mut self.cmd {
            Some(CheckCmd::Merge { json, .. }) => *json = true,
            Some(CheckCmd::Multipath(m)) => m.json = true,
            None => {}
        }
    }
}

pub fn run(a: CheckArgs) -> Result<i32> {
    if let Some(CheckCmd::Multipath(m)) = a.cmd {
        return super::check_multipath::run(m);
    }
    super::output::data_output(a.out.as_deref());
    super::output::data_output(a.heatmap.as_deref());
    if let Some(CheckCmd::Merge {
        shards,
        json,
        links,
        allow_partial,
    }) = a.cmd
    {
        return run_merge(&shards, allow_partial, json, links);
    }
    check(a)
}

/// `ibfat check merge`: the report of a set of shards, which `merge` validates before it
/// adds them up, so a wrong set never yields a plausible-looking report.
fn run_merge(shards: &[PathBuf], allow_partial: bool, json: bool, links: bool) -> Result<i32> {
    let read = shards
        .iter()
        .map(|p| Ok((p.clone(), CheckShard::read(p)?)))
        .collect::<Result<Vec<_>>>()?;
    let mut r = merge(&read, allow_partial)?;
    if !links {
        r.link_loads.clear();
    }
    if json {
        print_json("check", &r)?;
    } else {
        print_report(&r);
        if r.partial {
            outln!(
                "  PARTIAL: the shards cover {} of {} phases; the others are not checked",
                r.phases_checked,
                r.phases
            );
        }
    }
    Ok(exit_code(&r))
}

/// One check, or one shard of it, in the stages `--timings` reports: read, pattern,
/// tables, phases, output; the heat map is written last so it never costs the report.
fn check(a: CheckArgs) -> Result<i32> {
    let mut stages = Stages::new(a.timings);
    let topology = topo::positional(a.topology.clone(), a.topology_flag.clone(), "--topology", "TOPOLOGY")?;
    let (loaded, given, opened) = read_inputs(&a, &topology)?;
    stages.mark("read");
    let (pattern, hosts, recorded, rails) = resolve_pattern(&a, &loaded)?;
    stages.mark("pattern");
    // fingerprinting reads every table entry once (one sequential pass): only when a
    // schedule file is compared with the tables or a shard records them
    let need_fingerprint = a.shard.is_some() || recorded.is_some();
    let (tables, routes) = match opened {
        Some(opened) => file_tables(opened, &loaded, given.as_ref(), &hosts, a.lid_offset, &mut stages)?,
        None => own_or_dumped_tables(&a, &topology, &loaded, &hosts, need_fingerprint, &mut stages)?,
    };
    if let (Some(recorded), Some(have)) = (&recorded, &tables.fingerprint) {
        refuse_stale(&a, recorded, have)?;
    }
    let routes = routes?;
    let weights = rate_weights(&a, &loaded, &routes, &hosts)?;
    let n = pattern.phases();
    let range = match a.shard {
        Some((i, k)) => slice(i, k, n),
        None => 0..n,
    };
    let (mut report, links) = check_phases(&loaded, &hosts, &routes, pattern.as_ref(), range, weights.as_ref())?;
    stages.mark("phases");
    // drawn now (it needs every link's load) but written after the report is out, so a
    // picture that cannot be written never costs the report
    let heatmap = a
        .heatmap
        .as_deref()
        .map(|path| (path, heatmap(path, &loaded, &report, &links)));
    if let Some(index) = a.shard {
        print_shard(&a, &loaded, &hosts, tables, &report, &links, index)?;
    } else {
        if let Some(t) = &rails {
            report.per_rail = per_rail(loaded.fabric(), &hosts, &routes, t, weights.as_ref())?;
        }
        if a.links {
            report.link_loads = name_links(loaded.fabric(), &links);
        }
        print_check(&a, &report)?;
    }
    stages.mark("output");
    stages.print();
    Ok(write_heatmap(heatmap, &report))
}

/// The phases of `range` counted link by link (with a progress bar, as it is the long
/// stage); the leaf cut bound only for unweighted counts, where it means flows.
fn check_phases(
    loaded: &Loaded,
    hosts: &[Endpoint],
    routes: &CompiledRoutes,
    pattern: &dyn Pattern,
    range: std::ops::Range<usize>,
    weights: Option<&RateWeights>,
) -> Result<(CheckReport, Vec<LinkCount>)> {
    let bar = progress(range.len() as u64, "phases");
    let tick = || bar.inc(1);
    let (mut report, links) = check_counted(loaded.fabric(), hosts, routes, pattern, range.clone(), weights, &tick)?;
    if weights.is_none() {
        report.leaf_cut = Some(ibfat::check::leaf_cut(loaded.fabric(), hosts, pattern, range));
    }
    bar.finish_and_clear();
    Ok((report, links))
}

/// A shard's output: the file for `check merge`, and on stdout the shard itself with
/// --json (for `> FILE`), else the slice's figures.
fn print_shard(
    a: &CheckArgs,
    loaded: &Loaded,
    hosts: &[Endpoint],
    tables: Tables,
    report: &CheckReport,
    links: &[LinkCount],
    index: (usize, usize),
) -> Result<()> {
    let shard = CheckShard::with_links(
        report,
        ShardLinks::from_counts(loaded.fabric(), links)?,
        index,
        pattern_options(a),
        job_fingerprint(loaded.fabric(), hosts),
        tables
            .fingerprint
            .unwrap_or_else(|| tables.lfts.computed_for(loaded.fabric(), &tables.lids)),
    );
    if let Some(path) = &a.out {
        shard.write(path)?;
    }
    if a.json {
        print_raw_json(&shard)?;
    } else {
        print_report(report);
        if let Some(path) = &a.out {
            outln!("  wrote shard {}/{} to {}", index.0, index.1, path.display());
        }
    }
    Ok(())
}

/// The report of an unsharded check; weighted figures change the meaning of existing
/// fields, so --rates reports another JSON version.
fn print_check(a: &CheckArgs, report: &CheckReport) -> Result<()> {
    if a.json {
        match report.rates {
            Some(_) => print_json_version("check", 2, report)?,
            None => print_json("check", report)?,
        }
    } else {
        print_report(report);
    }
    Ok(())
}

/// The exit code once the heat map is written: a picture that cannot be written is an
/// error after the fact (the report stands), never a lost report.
fn write_heatmap(heatmap: Option<(&Path, Result<Vec<u8>>)>, report: &CheckReport) -> i32 {
    let code = exit_code(report);
    match heatmap {
        Some((path, picture)) => match picture.and_then(|bytes| atomic::write_file(path, &bytes)) {
            Ok(()) => code,
            Err(e) => {
                eprintln!("ibfat: error: heat map not written (the report above stands): {e}");
                code.max(super::exit_code(&e))
            }
        },
        None => code,
    }
}

/// `check --timings`: the seconds each stage took, on standard error once the check is
/// done, so that the fixed cost of a shard (everything but `phases`) can be measured
/// stage by stage without changing the report or the shard file.
struct Stages {
    on: bool,
    at: std::time::Instant,
    start: std::time::Instant,
    done: Vec<(&'static str, f64)>,
}

impl Stages {
    fn new(on: bool) -> Stages {
        let now = std::time::Instant::now();
        Stages {
            on,
            at: now,
            start: now,
            done: Vec::new(),
        }
    }

    /// The stage `name` ends now.
    fn mark(&mut self, name: &'static str) {
        let now = std::time::Instant::now();
        self.done.push((name, (now - self.at).as_secs_f64()));
        self.at = now;
    }

    fn print(&self) {
        if self.on {
            let each: Vec<String> = self.done.iter().map(|(n, s)| format!("{n} {s:.3}")).collect();
            eprintln!(
                "ibfat: timings (s): {}, total {:.3}",
                each.join(", "),
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}

fn exit_code(r: &CheckReport) -> i32 {
    if r.unrouted_flows == 0 && r.max_congestion <= 1 && !r.partial {
        0
    } else {
        1
    }
}

/// The heat map as FILE.svg (drawn by ibfat: layered, or matrices for large fabrics) or
/// FILE.dot (Graphviz source; needs the fabric's family).
fn heatmap(path: &Path, loaded: &Loaded, r: &CheckReport, links: &[LinkCount]) -> Result<Vec<u8>> {
    // green = never shared (1 flow), red = the worst link of the pattern; weighted loads
    // with --rates
    let worst = links.iter().map(|l| l.load()).fold(1.0, f64::max).max(2.0);
    let fabric = loaded.fabric();
    let mut load = vec![None; fabric.ports.len()];
    for l in links {
        let (m, t) = (l.max_flows, l.total_flows);
        let rate = l.rate.as_ref().map_or(String::new(), |x| {
            format!(
                "; {}, weight {}, weighted load {}",
                x.rate.as_deref().unwrap_or("rate unknown"),
                number(x.weight),
                number(x.weighted_max)
            )
        });
        load[l.port as usize] = Some((
            ((l.load() - 1.0) / (worst - 1.0)).max(0.0),
            format!("max {m} flows in a phase, {t} in all{rate}"),
        ));
    }
    let heat = |n: u32, p: u8| load[fabric.port_index(n, p) as usize].clone();
    let layout = loaded.model.layout();
    let weighted = r
        .rates
        .as_ref()
        .map_or(String::new(), |x| format!(", rate-weighted against {}", x.reference));
    let title = format!(
        "{} — {}: worst load per link direction (throughput ratio {:.4}{weighted})",
        layout.map_or_else(|| "unrecognised fabric".to_string(), |l| l.describe()),
        r.pattern,
        r.throughput_ratio
    );
    if path.extension().is_some_and(|e| e == "dot") {
        let Some(layout) = layout else {
            return Err(Error::input(
                "heatmap",
                "a .dot heat map needs the fabric's family",
                Some("write FILE.svg, which ibfat draws for any fabric".into()),
            ));
        };
        return Ok(dot::write_dot(fabric, layout, &title, Some(&heat)).into_bytes());
    }
    let scale = match &r.rates {
        None => picture::Scale {
            low: "1 flow".into(),
            high: format!("{worst} flows in a phase (worst)"),
        },
        Some(x) => picture::Scale {
            low: format!("1 flow on {}", x.reference),
            high: format!("weighted load {} (worst)", number(worst)),
        },
    };
    Ok(picture::render(fabric, layout, &title, Some((&heat, &scale))).into_bytes())
}
