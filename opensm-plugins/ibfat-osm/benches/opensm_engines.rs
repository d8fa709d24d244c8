//! OpenSM plugin benchmark (docs/routing.md §2.5): on an LSFT in ibsim (LSFT(13) by
//! default: 366 switches, 2,562 hosts), the time stock OpenSM spends in the ibfat engine
//! (this plugin) against its own engines, read from OpenSM's log: from
//! `building routing with '<engine>'` to `<engine> tables configured on all switches`
//! (OpenSM's hop matrices plus the engine's forwarding tables). Each engine routes
//! `IBFAT_BENCH_PASSES` passes (default 5: the first sweep and 4 SIGHUP re-sweeps) back to
//! back in one OpenSM; the median and the best pass are printed. A pass that another
//! engine routed (OpenSM falls back to minhop when an engine gives up) is reported as a
//! fallback and never timed as the engine's. The VLs dfsssp reports, OpenSM's peak RSS and,
//! on the tables the switches then hold (read back with `ibnetdiscover` and `dump_lfts`),
//! the shift and `lsft` all-to-all measured by ibfat's checker complete each row.
//!
//! Run: `cargo bench -p ibfat-osm --bench opensm_engines` (or scripts/bench-opensm.sh).
//! Environment: `IBFAT_BENCH_ORDER=q` (prime power, default 13), `IBFAT_BENCH_ENGINES`
//! (comma list, default ibfat,minhop,updn,ftree,dfsssp,nue,nue/8; `ibfat/spread` is the
//! plugin with `objective=spread`, QoS on; `ibfat/cold` the plugin with `reuse=0`, every
//! re-sweep computed anew as after a change), `IBFAT_BENCH_PASSES` (≥ 1),
//! `IBFAT_BENCH_CHECK=0` (skip reading back and checking the tables),
//! `IBFAT_BENCH_RANDOM=k` (k rounds of random permutations, each round's ratio printed),
//! `IBFAT_BENCH_TIMEOUT` (seconds per pass, default 1800),
//! `IBFAT_BENCH_CUTS` (comma list of fault levels, default `0`: the intact fabric; `26` cuts
//! that many switch-to-switch cables, `5%` that share of them, seeded by
//! `IBFAT_BENCH_SEED`, default 1): every level is a fresh ibsim of the degraded fabric with
//! every engine routing it (ibfat with QoS, which its detours' SLs need), then a summary
//! of the shift all-to-all per level and engine, plotted to `IBFAT_BENCH_SVG` when set
//! (issue 21: quality while degraded, side by side). On a degraded LSFT the `lsft` column
//! is the family's all-to-all over the hosts that are there, as generated (the schedule
//! the plugin then repairs for its own tables), the same schedule on every engine's tables.
//! `IBFAT_BENCH_SPEC=fabric.yaml` benchmarks that fabric instead of LSFT(q) (any family
//! ibfat builds: a k-ary tree or PGFT for the degraded-tree comparison; the `lsft` column
//! is then left out). Fabrics as found (issue 39): `IBFAT_BENCH_FABRIC=FILE` (an
//! ibnetdiscover output or ibsim net file, e.g. fixtures/public/janus-qdr-2014.ibnetdiscover)
//! or `IBFAT_BENCH_FOUND=NAME` (a generator of tests/harness/found.rs: `grown-lab`,
//! `storage-on-spine`, `directors`, `superpod1`, `superpod2`, `superpod4`, `big`; seeded by
//! `IBFAT_BENCH_SEED`). Every row also measures bisection and random permutations in
//! ibfat's rank order and counts the (switch, LID) entries left unrouted.

#[path = "support/env.rs"]
mod env;
#[path = "support/fabric.rs"]
mod fabric;
#[path = "../../../tests/harness/mod.rs"]
mod harness;

use env::env_or;
use harness::osmlog::{last_value, routing_passes, unfinished_pass, RoutingPass};
use harness::{OsmConfig, Sim, Waited};
use ibfat::check::{check, leaf_cut_bound, validate, CompiledRoutes};
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::lsft::schedule::LsftAllToAll;
use ibfat::families::Family;
use ibfat::recognize::{recognize, Recognition};
use ibfat::schedule::compare::{Bisection, RandomPermutations};
use ibfat::schedule::shift::Shift;
use ibfat::schedule::{Job, Pattern};
use ibfat::topology::faults::inject;
use ibfat::topology::{FamilySpec, Layout, NodeKind, Spec};
use std::time::{Duration, Instant};

const DEFAULT_ENGINES: &str = "ibfat,minhop,updn,ftree,dfsssp,nue,nue/8";
const END: &str = " tables configured on all switches";

/// An entry of the engine list, `<engine>[/<VLs>]`: the `-R` engine and the OpenSM
/// options it needs to route as `man opensm` documents it. dfsssp spreads paths over
/// SLs/VLs and always runs with QoS (`-R dfsssp -Q`); Nue keeps to one VL by default
/// (deadlock-free without QoS) and `nue/N` lets it use up to N VLs (`-Q
/// --nue_max_num_vls N`, QoS on so the SL2VL tables are valid).
fn engine_setup(entry: &str) -> (String, Vec<String>) {
    let (engine, vls) = match entry.split_once('/') {
        Some((e, v)) => (e, Some(v)),
        None => (entry, None),
    };
    let mut args: Vec<String> = Vec::new();
    match (engine, vls) {
        ("dfsssp", None) => args.push("-Q".into()),
        // the spreading objective's detours need their SLs and SL-to-VL tables
        ("ibfat", Some("spread")) => args.push("-Q".into()),
        // every pass computes (the plugin's `reuse=0`): the time of a pass after a change
        ("ibfat", Some("cold")) => {}
        ("nue", None) => {}
        ("nue", Some(v)) => {
            let n: u8 = v
                .parse()
                .unwrap_or_else(|_| panic!("IBFAT_BENCH_ENGINES: {entry}: the VL count {v} is not a number"));
            args.extend(["-Q".into(), "--nue_max_num_vls".into(), n.to_string()]);
        }
        (_, Some(_)) => panic!(
            "IBFAT_BENCH_ENGINES: {entry}: only nue takes a VL count (nue/8), only ibfat an objective (ibfat/spread) or cold passes (ibfat/cold)"
        ),
        _ => {}
    }
    (engine.to_string(), args)
}

/// What the programmed tables give: (throughput ratio, max congestion) of shift and of
/// the `lsft` all-to-all, and what the validator finds.
struct Quality {
    shift: (f64, u32),
    bisection: (f64, u32),
    random: (f64, u32),
    /// The leaf-cut bounds of those three ratios (no engine can exceed them).
    bound: (f64, f64, f64),
    /// Defective (switch, LID) entries (no route, loop, misdelivery): host LIDs, switch LIDs.
    unrouted: (u64, u64),
    lsft: Option<(f64, u32)>,
    /// Degraded LSFT: the family's all-to-all repaired for these tables (what the plugin
    /// writes for its own) against the intact fabric's schedule — time as the schedule
    /// stands (each phase as long as its busiest link) and after repair (conflict-free
    /// phases) — and the flows repair had to drop (pairs the tables do not route).
    lsft_repaired: Option<(f64, f64, u64)>,
    /// Every host reaches every host LID.
    host_routes: bool,
    /// Switch LIDs routed too, no defective entry anywhere.
    every_lid: bool,
    /// Host routes longer than the shortest path.
    non_minimal: u64,
    /// The channel dependency graph of host traffic on one VL has no cycle.
    host_cdg_acyclic: bool,
    seconds: f64,
}

/// One engine's row.
struct Row {
    /// The list entry (`nue/8`).
    entry: String,
    /// The `-R` engine.
    engine: String,
    passes: Vec<RoutingPass>,
    /// Passes asked for that never ended, and why.
    missing: usize,
    ended: Option<String>,
    vls: String,
    /// The ibfat plugin's own share of each pass (its log: `routed in X ms`); the rest
    /// of the pass is OpenSM's hop matrices and LFT bookkeeping.
    plugin_ms: Vec<f64>,
    rss_mib: Option<u64>,
    quality: Option<Quality>,
}

fn measure(sim: &Sim, hint: Option<Family>) -> Quality {
    let start = Instant::now();
    let (fabric, lids, tables) = sim.programmed();
    // intact: the family's hosts and the lsft all-to-all; degraded: shift over every host,
    // and on an LSFT the family's all-to-all over the hosts that are there (the schedule
    // ibfat repairs, taken as it is: the same for every engine)
    let mut degraded_lsft = None;
    let mut repaired = None;
    let layout = match recognize(&fabric, hint) {
        Recognition::Recognized { layout, .. } => Some(layout),
        Recognition::Unrecognized { degraded: Some(d), .. } => {
            degraded_lsft = d.lsft().map(|h| h.schedule_layout());
            repaired = d.lsft().map(|h| {
                let r = ibfat::select::repair::repair_lsft(&fabric, h, &lids, &tables)
                    .unwrap()
                    .1;
                (r.unrepaired_vs_intact(), r.throughput_vs_intact(), r.unrouted_flows)
            });
            None
        }
        Recognition::Unrecognized { reason, .. } => {
            panic!("the programmed fabric is not the benchmarked family: {reason}")
        }
    };
    let job = Job::whole(
        &layout
            .as_ref()
            .map_or_else(|| fabric.endpoints(), |l| l.hosts().to_vec()),
    );
    let routes = CompiledRoutes::compile(&fabric, &lids, &tables, job.hosts(), 0).unwrap();
    let run = |p: &dyn Pattern| {
        let r = check(&fabric, job.hosts(), &routes, p, 0..p.phases(), &|| {}).unwrap();
        (r.throughput_ratio, r.max_congestion)
    };
    let (shift_p, bisection_p) = (Shift::new(job.len()), Bisection::new(job.len()));
    // IBFAT_BENCH_RANDOM=k: k rounds of N random permutations (the first round is the
    // default sample); each round's ratio is printed, so a gap between engines can be told
    // from the sample's spread
    let rounds: usize = env_or("IBFAT_BENCH_RANDOM", 1).max(1);
    let random_p = RandomPermutations::new(job.len(), rounds * job.len(), 1);
    let (shift, bisection, random) = (run(&shift_p), run(&bisection_p), run(&random_p));
    if rounds > 1 {
        let n = job.len();
        let per: Vec<f64> = (0..rounds)
            .map(|k| {
                check(&fabric, job.hosts(), &routes, &random_p, k * n..(k + 1) * n, &|| {})
                    .unwrap()
                    .throughput_ratio
            })
            .collect();
        let mean = per.iter().sum::<f64>() / rounds as f64;
        let sd = (per.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (rounds - 1) as f64).sqrt();
        let shown: Vec<String> = per.iter().map(|r| format!("{r:.4}")).collect();
        eprintln!(
            "random, {rounds} rounds of {n} permutations: {} (mean {mean:.4}, sd {sd:.4}, standard error {:.4})",
            shown.join(" "),
            sd / (rounds as f64).sqrt()
        );
    }
    let bound = (
        leaf_cut_bound(&fabric, job.hosts(), &shift_p),
        leaf_cut_bound(&fabric, job.hosts(), &bisection_p),
        leaf_cut_bound(&fabric, job.hosts(), &random_p),
    );
    let lsft = match (&layout, &degraded_lsft) {
        (Some(Layout::Lsft(l)), _) => Some(run(&LsftAllToAll::new(l, &job))),
        (None, Some(l)) => {
            let there = Job::whole(&l.hosts);
            let routes = CompiledRoutes::compile(&fabric, &lids, &tables, there.hosts(), 0).unwrap();
            let p = LsftAllToAll::new(l, &there);
            let r = check(&fabric, there.hosts(), &routes, &p, 0..p.phases(), &|| {}).unwrap();
            Some((r.throughput_ratio, r.max_congestion))
        }
        _ => None,
    };
    let v = validate(&fabric, &lids, &tables, layout.as_ref());

    Quality {
        shift,
        bisection,
        random,
        bound,
        unrouted: (v.defective_host_lid_entries, v.defective_switch_lid_entries),
        lsft,
        lsft_repaired: repaired,
        host_routes: v.broken_host_routes == 0,
        every_lid: v.complete,
        non_minimal: v.non_minimal,
        host_cdg_acyclic: v.deadlock_free,
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn run_engine(
    sim: &Sim,
    entry: &str,
    passes: usize,
    limit: Duration,
    measure_tables: bool,
    degraded: bool,
    hint: Option<Family>,
) -> Row {
    let (engine, mut args) = engine_setup(entry);
    if degraded && entry == "ibfat" {
        // detours need their SLs and SL-to-VL tables: OpenSM programs those with QoS on
        args.push("-Q".into());
    }
    let engine = engine.as_str();
    let mut extra = vec!["-D".into(), "0x07".into(), "-s".into(), "0".into()];
    extra.extend(args);
    let mut cfg = OsmConfig {
        engine: engine.into(),
        extra_args: extra,
        timeout: Some(limit),
        tag: Some(format!("bench-{}", entry.replace('/', "-"))),
        ..Default::default()
    };
    if engine == "ibfat" {
        cfg = cfg.with_ibfat_plugin(match entry {
            "ibfat/spread" => "objective=spread",
            "ibfat/cold" => "reuse=0",
            _ => "",
        });
    }
    let mut osm = sim.opensm_spawn(&cfg);
    let (mut missing, mut ended) = (0, None);
    for k in 1..=passes {
        if k > 1 {
            osm.sighup();
        }
        match osm.wait_while_running(END, k, limit) {
            Waited::Found => continue,
            Waited::TimedOut => {
                let tried = unfinished_pass(&osm.log());
                ended = Some(match tried.split_first() {
                    Some((first, rest)) if !rest.is_empty() && first == engine => format!(
                        "{engine} gave up and {} did not end within {} s",
                        rest.join(", "),
                        limit.as_secs()
                    ),
                    _ => format!("no pass end within {} s", limit.as_secs()),
                })
            }
            Waited::Exited(st) => ended = Some(format!("OpenSM exited ({st})")),
        }
        missing = passes + 1 - k;
        break;
    }
    if missing == 0 {
        // the end line is logged once the tables are computed and their blocks queued;
        // the switches hold them when the sweep ends ("SUBNET UP" after that line).
        // Stopping OpenSM before then leaves blocks unsent (measured: an 8-ary 3-tree
        // read back with no LFT entry at all after a 69 ms minhop pass)
        let deadline = Instant::now() + limit.min(Duration::from_secs(300));
        while Instant::now() < deadline && osm.alive() {
            let log = osm.log();
            if log.rfind(END).is_some_and(|i| log[i..].contains("SUBNET UP")) {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let log = osm.log();
    let rss_mib = osm.peak_rss_kib().map(|k| k / 1024);
    osm.stop();
    let passes = routing_passes(&log);
    let routed_any = passes.iter().any(|p| !p.fell_back_from(engine));
    // what a fallback's pass shows about VLs is not the engine's
    let vls = match (
        last_value(&log, "Virtual Lanes available: "),
        last_value(&log, "Virtual Lanes needed: "),
    ) {
        (Some(a), Some(n)) => format!("{n} of {a}"),
        // the plugin: `ibfat: lanes: 2 data VLs used of 8 available` (degraded passes)
        _ if engine == "ibfat" && log.contains("ibfat: lanes: ") => {
            let line = &log[log.rfind("ibfat: lanes: ").unwrap() + "ibfat: lanes: ".len()..];
            let line = line.lines().next().unwrap_or("");
            line.split(';').next().unwrap_or("").replace(" data VLs used", "")
        }
        _ if log.contains("WRN NUE47") => "≤ fabric max (asked more)".into(),
        _ if engine == "nue" => match entry.split_once('/') {
            Some((_, n)) if n != "1" => format!("≤ {n}"),
            _ => "1".into(),
        },
        _ => "-".into(),
    };
    let vls = if routed_any { vls } else { "-".into() };
    let plugin_ms = log
        .lines()
        .filter(|l| l.contains("recognised"))
        .filter_map(|l| l.split(" routed in ").nth(1)?.split(" ms").next()?.parse().ok())
        .collect();
    // where the plugin's time goes: its stage line of each pass
    for l in log.lines().filter(|l| l.contains(" stages: read_s=")) {
        eprintln!("{entry}: {}", l.split("ibfat: ").nth(1).unwrap_or(l));
    }
    // the tables the switches hold are the last pass's: measured only when it was the engine's
    let own_last = passes.last().is_some_and(|p| !p.fell_back_from(engine));
    let quality = (measure_tables && own_last).then(|| measure(sim, hint));
    if !routed_any {
        eprintln!(
            "{entry}: never routed itself; its log:\n{}",
            log.lines()
                .filter(|l| l.contains("ERR") || l.contains("WRN") || l.contains(END))
                .take(30)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    Row {
        entry: entry.into(),
        engine: engine.into(),
        passes,
        missing,
        ended,
        vls,
        plugin_ms,
        rss_mib,
        quality,
    }
}

/// A fault level of `IBFAT_BENCH_CUTS`: a cable count or a percentage of the
/// switch-to-switch cables.
fn cut_count(level: &str, cables: usize) -> usize {
    match level.strip_suffix('%') {
        Some(p) => {
            let p: f64 = p
                .parse()
                .unwrap_or_else(|_| panic!("IBFAT_BENCH_CUTS: {level}: not a percentage"));
            (cables as f64 * p / 100.0).round() as usize
        }
        None => level
            .parse()
            .unwrap_or_else(|_| panic!("IBFAT_BENCH_CUTS: {level}: not a count or a percentage")),
    }
}

fn main() {
    let q: u32 = env_or("IBFAT_BENCH_ORDER", 13);
    let engines: String = env_or("IBFAT_BENCH_ENGINES", DEFAULT_ENGINES.to_string());
    let passes: usize = env_or("IBFAT_BENCH_PASSES", 5).max(1);
    let measure_tables = env_or::<String>("IBFAT_BENCH_CHECK", "1".into()) != "0";
    let limit = Duration::from_secs(env_or("IBFAT_BENCH_TIMEOUT", 1800));
    let levels: String = env_or("IBFAT_BENCH_CUTS", "0".to_string());
    let seed: u64 = env_or("IBFAT_BENCH_SEED", 1);
    let (base, name, hint) = match (fabric::found_fabric(seed), std::env::var("IBFAT_BENCH_SPEC")) {
        (Some((fabric, name)), _) => (fabric, name, None),
        (None, Ok(path)) => {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let spec = Spec::from_yaml(&text, std::path::Path::new(&path)).unwrap_or_else(|e| panic!("{e}"));
            let plan = spec.build().unwrap_or_else(|e| panic!("{path}: {e}"));
            let name = plan.layout.describe();
            (plan.fabric, name, None)
        }
        (None, Err(_)) => {
            let plan = Spec::new(FamilySpec::Lsft(LsftParams::new(q, false)))
                .build()
                .unwrap_or_else(|e| panic!("LSFT({q}): {e}"));
            (plan.fabric, format!("LSFT({q})"), Some(Family::Lsft))
        }
    };
    let cables = base
        .links()
        .filter(|l| base.node(l.a).kind == NodeKind::Switch && base.node(l.b).kind == NodeKind::Switch)
        .count();
    let mut summary: Vec<(String, usize, Vec<Row>)> = Vec::new();
    for level in levels.split(',').map(str::trim).filter(|l| !l.is_empty()) {
        let cut = cut_count(level, cables);
        let fabric = if cut == 0 {
            base.clone()
        } else {
            inject(&base, cut, seed, &[])
                .unwrap_or_else(|e| panic!("{level}: {e}"))
                .fabric
        };
        let net = ibfat::formats::ibsim::write_net(&fabric, &[]);
        let (switches, hosts) = (fabric.switches().count(), fabric.endpoints().len());
        println!(
            "{name}, {cut} of {cables} switch cables cut (seed {seed}): {switches} switches, {hosts} hosts, {} LIDs",
            switches + hosts
        );
        let t = Instant::now();
        let sim = Sim::start_text(&net);
        println!("ibsim ready in {:.1} s", t.elapsed().as_secs_f64());
        let mut rows = Vec::new();
        for entry in engines.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let row = run_engine(&sim, entry, passes, limit, measure_tables, cut > 0, hint);
            print_passes(&row);
            rows.push(row);
        }
        print_table(&format!("{name}, {cut} cables cut"), &rows);
        summary.push((level.to_string(), cut, rows));
    }
    if summary.len() > 1 {
        print_summary(&name, cables, &summary);
    }
}

/// Shift all-to-all per fault level and engine (throughput ratio, max congestion), and the
/// plot of the ratios when `IBFAT_BENCH_SVG` names a file.
fn print_summary(name: &str, cables: usize, summary: &[(String, usize, Vec<Row>)]) {
    println!();
    println!("{name}, shift all-to-all on the programmed tables: throughput ratio (max congestion); fallback passes are not the engine's");
    let entries: Vec<&str> = summary[0].2.iter().map(|r| r.entry.as_str()).collect();
    println!("| cables cut | {} |", entries.join(" | "));
    println!("|---|{}", "---|".repeat(entries.len()));
    let mut series: Vec<ibfat::formats::chart::Series> = entries
        .iter()
        .map(|e| ibfat::formats::chart::Series {
            name: e.to_string(),
            points: Vec::new(),
        })
        .collect();
    for (level, cut, rows) in summary {
        let cells: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(i, r)| match &r.quality {
                Some(qu) => {
                    if *cut > 0 {
                        series[i].points.push((*cut as f64 * 100.0 / cables as f64, qu.shift.0));
                    }
                    format!("{:.4} ({})", qu.shift.0, qu.shift.1)
                }
                None => "- (fell back or not read)".into(),
            })
            .collect();
        println!("| {cut} ({level}) | {} |", cells.join(" | "));
    }
    if let Ok(path) = std::env::var("IBFAT_BENCH_SVG") {
        let svg = ibfat::formats::chart::loglog_svg(
            &format!("{name} with cut cables: shift all-to-all on each engine's tables"),
            "switch-to-switch cables cut (%)",
            "throughput ratio",
            &series,
        );
        std::fs::write(&path, svg).unwrap_or_else(|e| panic!("{path}: {e}"));
        println!("plot written to {path}");
    }
}

/// Milliseconds as printed: two decimals under 10 ms (a small fabric's pass is a few
/// tenths of a millisecond), one above.
fn ms(x: f64) -> String {
    if x < 10.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.1}")
    }
}

/// One line per engine as soon as it is done: every pass with the engine that routed it.
fn print_passes(row: &Row) {
    let shown: Vec<String> = row
        .passes
        .iter()
        .map(|p| match (&p.configured_by, p.fell_back_from(&row.engine)) {
            (_, false) => ms(p.engine_ms.unwrap_or(p.total_ms)),
            (Some(by), true) => format!("{by}:{}", ms(p.engine_ms.unwrap_or(p.total_ms))),
            (None, true) => "failed".into(),
        })
        .collect();
    let checked = row.quality.as_ref().map_or(String::new(), |q| {
        format!(", tables read back and checked in {:.1} s", q.seconds)
    });
    println!(
        "{}: passes (ms) {}{}{checked}",
        row.entry,
        shown.join(" "),
        if row.missing > 0 {
            format!(
                ", {} passes missing: {}",
                row.missing,
                row.ended.as_deref().unwrap_or("?")
            )
        } else {
            String::new()
        }
    );
}

/// The Markdown table of docs/routing.md §2.5.
fn print_table(what: &str, rows: &[Row]) {
    println!();
    println!("{what}");
    println!(
        "| engine | routed by | passes | median ms | best ms | VLs | OpenSM peak RSS | shift ratio (max cong.) | bisection | random | of the leaf-cut bound (shift / bisection / random) | lsft ratio (max cong.) | unrouted host / switch LID entries | host routes | every LID | non-minimal | 1-VL CDG acyclic |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let yes = |b: bool| if b { "yes" } else { "no" };
    let mut ibfat_median = None;
    let mut medians = Vec::new();
    for r in rows {
        let mut own: Vec<f64> = r
            .passes
            .iter()
            .filter(|p| !p.fell_back_from(&r.engine))
            .filter_map(|p| p.engine_ms)
            .collect();
        own.sort_by(f64::total_cmp);
        let fallbacks: Vec<String> = r
            .passes
            .iter()
            .filter(|p| p.fell_back_from(&r.engine))
            .map(|p| p.configured_by.clone().unwrap_or_else(|| "nothing".into()))
            .collect();
        let by = match (own.len(), fallbacks.first()) {
            (0, None) => format!("nothing: {}", r.ended.as_deref().unwrap_or("no pass")),
            (_, None) => r.engine.clone(),
            (0, Some(f)) => format!("{f} (fallback)"),
            (n, Some(f)) => format!("{} in {n}, {f} (fallback) in {}", r.engine, fallbacks.len()),
        };
        let (median, best) = match own.len() {
            0 => ("-".to_string(), "-".to_string()),
            n => {
                medians.push((r.entry.clone(), own[n / 2]));
                if r.entry == "ibfat" {
                    ibfat_median = Some(own[n / 2]);
                }
                (ms(own[n / 2]), ms(own[0]))
            }
        };
        let q = r.quality.as_ref();
        let pair = |x: Option<(f64, u32)>| x.map_or("-".into(), |(ratio, c)| format!("{ratio:.4} ({c})"));
        println!(
            "| {} | {by} | {}{} | {median} | {best} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.entry,
            r.passes.len(),
            if r.missing > 0 {
                format!(" of {}", r.passes.len() + r.missing)
            } else {
                String::new()
            },
            r.vls,
            r.rss_mib.map_or("-".into(), |m| format!("{m} MiB")),
            pair(q.map(|q| q.shift)),
            pair(q.map(|q| q.bisection)),
            pair(q.map(|q| q.random)),
            q.map_or("-".into(), |q| format!(
                "{:.1}% / {:.1}% / {:.1}%",
                100.0 * q.shift.0 / q.bound.0,
                100.0 * q.bisection.0 / q.bound.1,
                100.0 * q.random.0 / q.bound.2
            )),
            match q.and_then(|q| q.lsft_repaired) {
                Some((a, r, 0)) => format!("{}; time {a:.4} → repaired {r:.4}", pair(q.and_then(|q| q.lsft))),
                Some((a, r, u)) => format!(
                    "{}; time {a:.4} → repaired {r:.4} ({u} flows unrouted)",
                    pair(q.and_then(|q| q.lsft))
                ),
                None => pair(q.and_then(|q| q.lsft)),
            },
            q.map_or("-".into(), |q| format!("{} / {}", q.unrouted.0, q.unrouted.1)),
            q.map_or("-", |q| yes(q.host_routes)),
            q.map_or("-", |q| yes(q.every_lid)),
            q.map_or("-".into(), |q| q.non_minimal.to_string()),
            q.map_or("-", |q| yes(q.host_cdg_acyclic)),
        );
    }
    if let Some(q) = rows.iter().find_map(|r| r.quality.as_ref()) {
        println!(
            "leaf-cut bound (no routing exceeds it): shift {:.4}, bisection {:.4}, random {:.4}",
            q.bound.0, q.bound.1, q.bound.2
        );
    }
    for r in rows.iter().filter(|r| !r.plugin_ms.is_empty()) {
        let mut own = r.plugin_ms.clone();
        own.sort_by(f64::total_cmp);
        println!(
            "{}: the plugin's own routing (its log) median {} ms, best {} ms; the rest of each pass is OpenSM's",
            r.entry,
            ms(own[own.len() / 2]),
            ms(own[0])
        );
    }
    if let Some(i) = ibfat_median {
        for (e, m) in medians.iter().filter(|(e, _)| e != "ibfat") {
            println!("ibfat / {e} = {:.2}", i / m);
        }
    }
}
