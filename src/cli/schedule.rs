//! `ibfat schedule`: write an all-to-all schedule (or a comparison pattern) for a fabric.

use super::output::print_json;
use super::schedule_bcast::Placement;
use clap::Args;
use ibfat::fingerprint::ComputedFor;
use ibfat::schedule::generate::BlockInfo;
use ibfat::schedule::job::Hosts;
use ibfat::schedule::{file, Counts, Format, Job, PatternKind, Request};
use ibfat::select::repair::{repair_degraded, repaired_pattern, RepairReport};
use ibfat::select::{generate, ChoiceReport};
use ibfat::{Error, Result};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

const SCHEDULE_AFTER: &str = "\
Patterns (phase = one round in which every rank sends to at most one rank):
  shift               phase i: rank r -> (r+i) mod N, in job-rank order; N phases
  kary-shift          shift in tree order on a k-ary n-tree (what d-mod-k routing expects)
  mols-shift          the same on a MOLS 3-level tree
  lsft                LSFT conflict-free all-to-all: N phases, every pair once (one- or two-sided)
  lsft-partial        conflict-free all-to-all of a q x K block with M hosts per leaf
                      (--block K --per-leaf M), or of D hosts placed by ibfat (--job-size D):
                      the smallest block holding D hosts, the lsft schedule restricted to D
                      hosts and shift are measured with the checker on ibfat's own tables and
                      the least phases / throughput ratio wins
  ring                N-1 phases of r -> r+1 (the ring algorithm's steps)
  recursive-doubling  phase i exchanges r <-> r XOR 2^i
  bruck               phase i sends r -> r + 2^i
  random              a random permutation per phase (--seed S, --phases P; default N phases)
  bisection           cross-half pairs, both directions at once; N/2 phases
  rail-alltoall       rail-optimised fabrics: an all-to-all per rail, all rails at once
                      (NCCL's PXN); a rail's members in the order the job names servers
  rail-ring           rail-optimised fabrics: a ring per rail, all rails at once
  bcast-multilane     broadcast of a message in L parts (--lanes L, default 2) from --root R
                      (a job rank, default 0) along L trees, every rank sending and receiving
                      at most one flow per lane (port); depth O(log N) for L >= 2 (L = 1 is
                      the pipelined chain). --placement nested enters and leaves every
                      subtree (leaf switch, pod) through one rank: no link carries two
                      flows of a lane on trees; rank-order is shallower; auto (default)
                      takes the one predicted faster at --message-size. --sites chains the
                      sites (hosts behind one leaf switch). On a multi-rail fabric lane k
                      runs on rail k (--lanes at most the rails). Its own file:
  {\"format\": \"ibfat-bcast\", \"version\": 1, \"hosts\": [...], \"root\": R,
   \"lanes\": [[null or [to_rank, part] for each rank], ...], \"depth\": [...]}
                      (docs/schedules.md §6); the report measures the plan, rank order, a
                      binary tree, a binomial tree and a chain on ibfat's tables and
                      prices them (--message-size, --latency, --bandwidth, --segment;
                      --plot draws time against message size)

Ranks are the hosts of the job: by default every host in the topology's rank order
(LSFT: side, point, slot; trees: tree order). --job picks a subset, in your order:
  --job ranks:0-63,128-191   fabric ranks (inclusive ranges)
  --job 'dgx[001-031],n7'    host or server names as a Slurm host list (no such file):
                             a server is all its HCAs in device order (server, rail)
  --job FILE                 one host per line: a port GUID (0x...), a fabric rank or
                             range (17, 17-31), a node name (H3_1) or description, a
                             server or host list; # comments
With lsft-partial, --job is the pool --job-size places the job in (default: its size).

Output (--out FILE, written atomically): JSON
  {\"hosts\": [\"0x<port GUID>\", ...], \"phases\": [[dest of rank 0, dest of rank 1, ...], ...]}
with null for an idle rank, or --format csv (rank,phase,peer rows; empty peer = idle).
The format follows the extension when --format is not given. A rank sending to itself is
its local copy. Conflict-freedom claims refer to the canonical routing of each family;
`ibfat check` measures any schedule on real routing tables.

A degraded LSFT (cut cables, dead switches; `ibfat recognize` lists them) gets its lsft
schedule repaired, a degraded k-ary/PGFT tree its kary-shift, a degraded MOLS tree its
mols-shift (base-LID routes), for the tables it holds: --lfts (OpenSM's dump, `dump_lfts`;
LIDs from --lids or the topology) or else ibfat's own degraded routes. Phases still conflict-free
on those tables are kept, the flows that now collide move to the first phase where they
fit (new phases at the end): conflict-free on those tables, every pair once; the file
records the tables it was computed for.

Examples:
  ibfat schedule lsft7/ --pattern lsft --out a2a.json
  ibfat schedule lsft7/ --pattern lsft-partial --block 4 --per-leaf 3 --out job.json
  ibfat schedule lsft7/ --pattern lsft-partial --job-size 100 --json
  ibfat schedule ft/fabric.yaml --pattern kary-shift --job hosts.txt --out s.csv
  ibfat schedule lsft7/ --pattern random --seed 7 --phases 10 --out rnd.json
  ibfat schedule lsft7/ --pattern bcast-multilane --root 5 --job ranks:0-39 --out bcast.json
  ibfat schedule dual/ --pattern bcast-multilane --placement nested --plot bcast.svg
  ibfat schedule ibnetdiscover.txt --pattern lsft --lfts dump_lfts.txt --out repaired.json";

const SCHEDULE_EXAMPLES: &str = "\
Examples:
  ibfat schedule lsft7/ --pattern lsft --out a2a.json
  ibfat schedule lsft7/ --pattern lsft-partial --job-size 100 --json
  ibfat schedule lsft7/ --pattern bcast-multilane --root 5 --job ranks:0-39 --out bcast.json";

#[derive(Args, Debug)]
#[command(after_help = SCHEDULE_EXAMPLES, after_long_help = SCHEDULE_AFTER)]
pub struct ScheduleArgs {
    /// A plan folder, fabric.yaml, topology.net or ibnetdiscover output
    #[arg(value_name = "TOPOLOGY")]
    topology: PathBuf,
    /// The family the fabric must be (auto: recognise it)
    #[arg(short = 'f', long, default_value = "auto", value_parser = super::family_choice())]
    family: String,
    /// Pattern to generate, e.g. lsft, shift, kary-shift, bcast-multilane
    ///
    /// All patterns are listed below; the options of the ones that take any are under
    /// their own headings.
    #[arg(short = 'p', long, value_name = "P", value_parser = parse_kind)]
    pattern: PatternArg,
    /// The job's hosts: ranks:LIST, host names dgx[001-031] or a host file; default all
    ///
    /// Both forms are described below.
    #[arg(short = 'j', long, value_name = "HOSTS")]
    job: Option<String>,
    /// lsft-partial: number K of grid columns of the block (1..=q)
    #[arg(
        long,
        value_name = "K",
        requires = "per_leaf",
        conflicts_with = "job_size",
        help_heading = "Pattern lsft-partial",
        hide_short_help = true
    )]
    block: Option<u32>,
    /// lsft-partial: hosts per leaf M (1..=K)
    #[arg(
        long,
        value_name = "M",
        requires = "block",
        help_heading = "Pattern lsft-partial",
        hide_short_help = true
    )]
    per_leaf: Option<u32>,
    /// lsft-partial: place a job of D hosts (from --job, or the whole fabric)
    #[arg(
        long,
        value_name = "D",
        help_heading = "Pattern lsft-partial",
        hide_short_help = true
    )]
    job_size: Option<usize>,
    /// Seed of the random pattern
    #[arg(
        long,
        value_name = "S",
        default_value_t = 0,
        help_heading = "Pattern random",
        hide_short_help = true
    )]
    seed: u64,
    /// Number of phases of the random pattern (default: the number of ranks)
    #[arg(long, value_name = "P", help_heading = "Pattern random", hide_short_help = true)]
    phases: Option<usize>,
    /// Write the schedule here (atomically)
    ///
    /// Without it only the report is printed.
    #[arg(short = 'o', long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// json (default, or by the --out extension) or csv
    #[arg(long, value_parser = parse_format)]
    format: Option<Format>,
    /// Print the report as JSON
    #[arg(long)]
    pub(crate) json: bool,
    /// Add the time it took to the JSON report (`seconds`)
    #[arg(long)]
    timings: bool,
    /// Degraded LSFT: repair the lsft schedule for these tables
    ///
    /// OpenSM's dump or `dump_lfts` output.
    #[arg(long, value_name = "LFTS")]
    lfts: Option<PathBuf>,
    /// LIDs of --lfts (guid2lid); default the topology's own
    #[arg(long, value_name = "GUID2LID", requires = "lfts")]
    lids: Option<PathBuf>,
    /// bcast-multilane: the job rank holding the message
    #[arg(
        long,
        value_name = "R",
        default_value_t = 0,
        help_heading = "Pattern bcast-multilane",
        hide_short_help = true
    )]
    root: u32,
    /// bcast-multilane: ports per host used, = parts of the message (1..=8)
    #[arg(
        long,
        value_name = "L",
        default_value_t = 2,
        help_heading = "Pattern bcast-multilane",
        hide_short_help = true
    )]
    lanes: u32,
    /// bcast-multilane: chain the sites (hosts behind one leaf switch), one flow per part
    /// across every site boundary (= --placement sites)
    #[arg(
        long,
        conflicts_with = "placement",
        help_heading = "Pattern bcast-multilane",
        hide_short_help = true
    )]
    sites: bool,
    /// bcast-multilane: which hosts take which tree positions (auto: nested or rank-order,
    /// whichever is predicted faster at --message-size on the tables)
    #[arg(long, value_enum, default_value_t = Placement::Auto, help_heading = "Pattern bcast-multilane", hide_short_help = true)]
    placement: Placement,
    /// bcast-multilane: segment size of the pipelines in bytes (default: the best for each
    /// algorithm)
    #[arg(long, value_name = "BYTES", value_parser = super::positive_number, help_heading = "Pattern bcast-multilane", hide_short_help = true)]
    segment: Option<f64>,
    /// bcast-multilane: draw predicted time against message size per algorithm (SVG)
    #[arg(
        long,
        value_name = "SVG",
        help_heading = "Pattern bcast-multilane",
        hide_short_help = true
    )]
    plot: Option<PathBuf>,
    /// A multi-rail fabric: schedule on rail K's plane
    ///
    /// bcast-multilane runs lane k on rail k when no rail is given.
    #[arg(long, value_name = "K")]
    rail: Option<u32>,
    /// bcast-multilane: message size in bytes for the predicted times
    #[arg(long, value_name = "BYTES", default_value_t = 1048576.0, value_parser = super::positive_number, help_heading = "Pattern bcast-multilane", hide_short_help = true)]
    message_size: f64,
    /// bcast-multilane: latency per hop in microseconds for the predicted times
    #[arg(long, value_name = "US", default_value_t = 1.0, value_parser = super::positive_number, help_heading = "Pattern bcast-multilane", hide_short_help = true)]
    latency: f64,
    /// bcast-multilane: bandwidth of one port in GB/s for the predicted times
    #[arg(long, value_name = "GBS", default_value_t = 12.5, value_parser = super::positive_number, help_heading = "Pattern bcast-multilane", hide_short_help = true)]
    bandwidth: f64,
}

/// `--pattern`: an all-to-all-style phase pattern, or the broadcast trees (their own file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PatternArg {
    Phases(PatternKind),
    BcastMultilane,
}

fn parse_kind(s: &str) -> std::result::Result<PatternArg, String> {
    if s == "bcast-multilane" {
        return Ok(PatternArg::BcastMultilane);
    }
    s.parse()
        .map(PatternArg::Phases)
        .map_err(|e: Error| format!("{e}, bcast-multilane"))
}
fn parse_format(s: &str) -> std::result::Result<Format, String> {
    s.parse().map_err(|e: Error| e.to_string())
}

/// What `ibfat schedule` reports.
#[derive(Serialize, Debug)]
struct ScheduleReport {
    topology: String,
    description: String,
    pattern: String,
    ranks: usize,
    phases: usize,
    whole_fabric: bool,
    /// Every ordered pair of ranks exactly once.
    complete: bool,
    conflict_free_by_construction: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    guarantee: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    counts: Option<Counts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    idle_fraction: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    block: Option<BlockInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    placement: Option<ChoiceReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<String>,
    notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds: Option<f64>,
    /// Degraded fabric: what repairing the schedule for its tables did.
    #[serde(skip_serializing_if = "Option::is_none")]
    repair: Option<RepairSummary>,
}

/// The repair of a degraded fabric's schedule, for the report.
#[derive(Serialize, Debug)]
struct RepairSummary {
    #[serde(flatten)]
    report: RepairReport,
    /// Throughput of the repaired all-to-all against the intact fabric's (phases ratio).
    throughput_vs_intact: f64,
    /// The same for the family's schedule left as it was on these tables.
    unrepaired_vs_intact: f64,
    /// Where the tables came from.
    tables: String,
}

pub fn run(a: ScheduleArgs) -> Result<i32> {
    super::output::data_output(a.out.as_deref());
    let start = Instant::now();
    let hint = ibfat::families::Family::parse_opt(&a.family)?;
    let read = || ibfat::load::load(&a.topology, super::topo::read_options(), ibfat::load::Recognize::No);
    let mut loaded = read()?;
    // the other rails' planes, for a broadcast whose lane k runs on rail k
    let mut other_rails: Vec<ibfat::topology::Topology> = Vec::new();
    match (a.rail, loaded.multi_rail()) {
        (Some(k), _) => loaded.select_rail(k)?,
        (None, Some(rails)) if a.pattern == PatternArg::BcastMultilane => {
            for &k in &rails[1..] {
                let mut l = read()?;
                l.select_rail(k)?;
                l.recognize(hint);
                other_rails.push(l.topology()?.clone());
            }
            loaded.select_rail(rails[0])?;
        }
        _ => {}
    }
    loaded.recognize(hint);
    if let Some(d) = &loaded.degraded {
        return repaired(&a, &loaded, d, start);
    }
    if a.lfts.is_some() {
        return Err(Error::input(
            "lfts",
            "--lfts repairs the schedule of a degraded LSFT; this fabric is intact",
            Some("measure a schedule on tables with `ibfat check --lfts`".into()),
        ));
    }
    loaded.topology()?;
    let loaded = super::topo::with_roles(loaded)?;
    let plan = loaded.topology()?;
    let job = a
        .job
        .as_deref()
        .map(|j| Job::from_arg(j, &Hosts::of(plan)))
        .transpose()?;
    let kind = match a.pattern {
        PatternArg::Phases(k) => k,
        PatternArg::BcastMultilane => {
            let job = job.unwrap_or_else(|| Job::whole(plan.layout.hosts()));
            let b = super::schedule_bcast::BcastArgs {
                root: a.root,
                lanes: a.lanes,
                placement: if a.sites { Placement::Sites } else { a.placement },
                segment: a.segment,
                plot: a.plot.clone(),
                message: a.message_size,
                latency_us: a.latency,
                bandwidth_gbs: a.bandwidth,
                out: a.out.clone(),
                json: a.json,
            };
            let mut planes = vec![plan.clone()];
            planes.extend(other_rails);
            return super::schedule_bcast::run(&planes, &job, &b);
        }
    };
    let req = Request {
        kind,
        job,
        block: a.block.zip(a.per_leaf),
        job_size: a.job_size,
        seed: a.seed,
        phases: a.phases,
    };
    let (g, choice) = generate(plan, &req)?;
    let format = a
        .format
        .unwrap_or_else(|| a.out.as_deref().map(Format::for_path).unwrap_or_default());
    let counts = match &a.out {
        Some(path) => Some(file::write(
            path,
            format,
            g.pattern.as_ref(),
            &g.job.port_guids(&plan.fabric),
            // computed from the topology: valid on any tables of this fabric
            &ComputedFor {
                fabric: plan.fabric.fingerprint(),
                lfts: None,
            },
        )?),
        None => None,
    };
    let report = ScheduleReport {
        topology: plan.name.clone(),
        description: plan.layout.describe(),
        pattern: g.pattern.name(),
        ranks: g.pattern.ranks(),
        phases: g.pattern.phases(),
        whole_fabric: g.job.is_whole(plan.layout.hosts()),
        complete: g.complete,
        conflict_free_by_construction: g.conflict_free.is_some(),
        guarantee: g.conflict_free.clone(),
        idle_fraction: counts.map(|c| c.idle_fraction()),
        counts,
        block: g.block.clone(),
        placement: choice,
        out: a.out.clone(),
        format: a.out.as_ref().map(|_| format.to_string()),
        notes: g.notes.clone(),
        seconds: a.timings.then(|| start.elapsed().as_secs_f64()),
        repair: None,
    };
    if a.json {
        print_json("schedule", &report)?;
    } else {
        print_report(&report);
    }
    Ok(0)
}

/// A degraded LSFT: its lsft schedule repaired for its tables (the help text).
fn repaired(
    a: &ScheduleArgs,
    loaded: &ibfat::load::Loaded,
    d: &ibfat::recognize::Degraded,
    start: Instant,
) -> Result<i32> {
    let want = repaired_pattern(d);
    let name = want.name();
    if a.pattern != PatternArg::Phases(want) || a.job.is_some() || a.job_size.is_some() || a.block.is_some() {
        return Err(Error::input(
            "pattern",
            format!(
                "{}: a degraded fabric gets the whole-fabric {name} schedule, repaired for its tables",
                d.description
            ),
            Some(format!("use --pattern {name} without --job / --block / --job-size")),
        ));
    }
    if !super::topo::roles_are_empty() {
        return Err(Error::input(
            "roles",
            format!(
                "{}: host roles do not apply to a repaired schedule (its rank order is the family's {name})",
                d.description
            ),
            None,
        ));
    }
    let fabric = loaded.fabric();
    let (lids, lfts, tables) = match &a.lfts {
        Some(p) => {
            let (lids, lfts) = super::topo::read_lfts(loaded, a.lids.as_deref(), p)?;
            (lids, lfts, p.display().to_string())
        }
        None => {
            let lids = match loaded.own_lids()? {
                Some(l) if l.lmc == 0 => l,
                _ => ibfat::routing::Lids::plan(fabric, &[], 0)?,
            };
            let shape = ibfat::routing::Shape::Degraded {
                holes: &d.holes,
                description: &d.description,
            };
            let lfts = ibfat::routing::route_fabric(fabric, shape, &lids, &Default::default())?.lfts;
            (lids, lfts, "ibfat's degraded routes".to_string())
        }
    };
    let (sched, rep, _) = repair_degraded(fabric, d, &lids, &lfts)?;
    let format = a
        .format
        .unwrap_or_else(|| a.out.as_deref().map(Format::for_path).unwrap_or_default());
    let counts = match &a.out {
        Some(path) => Some(file::write(
            path,
            format,
            &sched,
            &sched.hosts,
            sched.computed_for.as_ref().expect("repair records its tables"),
        )?),
        None => None,
    };
    let report = ScheduleReport {
        topology: loaded.name(),
        description: d.description.clone(),
        pattern: format!("{name} (repaired)"),
        ranks: sched.hosts.len(),
        phases: sched.phases.len(),
        whole_fabric: true,
        complete: rep.unrouted_flows == 0,
        conflict_free_by_construction: false,
        guarantee: None,
        idle_fraction: counts.map(|c| c.idle_fraction()),
        counts,
        block: None,
        placement: None,
        out: a.out.clone(),
        format: a.out.as_ref().map(|_| format.to_string()),
        notes: vec![format!(
            "conflict-free on {tables} (repaired; check it with `ibfat check --lfts`)"
        )],
        seconds: a.timings.then(|| start.elapsed().as_secs_f64()),
        repair: Some(RepairSummary {
            throughput_vs_intact: rep.throughput_vs_intact(),
            unrepaired_vs_intact: rep.unrepaired_vs_intact(),
            report: rep,
            tables,
        }),
    };
    if a.json {
        print_json("schedule", &report)?;
    } else {
        print_report(&report);
    }
    Ok(0)
}

fn print_report(r: &ScheduleReport) {
    outln!(
        "{} on {} ({}): {} ranks{}, {} phases",
        r.pattern,
        r.description,
        r.topology,
        r.ranks,
        if r.whole_fabric { " (every host)" } else { "" },
        r.phases
    );
    if r.complete {
        outln!("  complete: every ordered pair of ranks exactly once");
    }
    match &r.guarantee {
        Some(g) => outln!("  conflict-free {g}"),
        None => outln!("  no conflict-freedom guarantee (measure it with `ibfat check`)"),
    }
    if let Some(b) = &r.block {
        outln!(
            "  block: side {}, columns {:?}, {} hosts per leaf: {} of {} positions used",
            b.side,
            b.columns,
            b.per_leaf,
            b.placed,
            b.positions
        );
    }
    if let Some(p) = &r.placement {
        outln!(
            "  placement of {} hosts (pool {}){}:",
            p.job_size,
            p.pool,
            if p.exact { ", exact block" } else { "" }
        );
        for (i, c) in p.candidates.iter().enumerate() {
            outln!(
                "  {} {:<13} {:>7} phases {:>5.1}% idle  ratio {:<17} {}{}",
                if i == p.chosen { "*" } else { " " },
                c.pattern,
                c.phases,
                100.0 * c.idle_fraction,
                match (c.ratio, c.measured) {
                    (Some(x), true) => format!("{x:.3} (checked)"),
                    (Some(x), false) => format!("{x:.3} (by design)"),
                    (None, _) => "?".into(),
                },
                c.description,
                c.note.as_ref().map(|n| format!(" ({n})")).unwrap_or_default()
            );
        }
    }
    if let (Some(out), Some(c)) = (&r.out, &r.counts) {
        outln!(
            "  wrote {} ({}): {} flows ({} local copies), {:.1}% of rank-phase slots idle",
            out.display(),
            r.format.as_deref().unwrap_or("json"),
            c.flows,
            c.self_flows,
            100.0 * c.idle_fraction()
        );
    }
    if let Some(x) = &r.repair {
        outln!(
            "  repaired: {} of {} phases kept as they were, {} flows moved, {} phases added ({} unrouted pairs)",
            x.report.kept_phases,
            x.report.original_phases,
            x.report.moved_flows,
            x.report.added_phases,
            x.report.unrouted_flows
        );
        outln!(
            "  all-to-all throughput vs the intact fabric: {:.3} repaired, {:.3} unrepaired",
            x.throughput_vs_intact,
            x.unrepaired_vs_intact
        );
    }
    for n in &r.notes {
        outln!("  note: {n}");
    }
}
