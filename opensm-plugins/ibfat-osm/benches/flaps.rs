//! Pass times while cables fail and come back (issue 39 item 4): on one fabric in ibsim,
//! each engine of `IBFAT_BENCH_ENGINES` (default `ibfat,ibfat/cold,minhop`) in its own
//! stock OpenSM lives through the same events — `IBFAT_BENCH_CYCLES` cycles (default 10)
//! of one cable cut and restored, a switch-to-switch cable and a host cable in turn,
//! chosen by `IBFAT_BENCH_SEED` (default 1) — and every routing pass is timed from
//! OpenSM's log (`building routing with` to `tables configured on all switches`). After
//! each event the bench waits `IBFAT_BENCH_GAP` seconds (default 3; traps start a sweep
//! of their own), then sends a SIGHUP (an unchanged re-sweep). Passes are sorted by what
//! they saw: the first, a change (the first pass after an event), a re-sweep (the rest).
//!
//! Run: `cargo bench -p ibfat-osm --bench flaps`; the fabric is the 145-host lab fixture
//! unless `IBFAT_BENCH_FOUND=NAME` or `IBFAT_BENCH_FABRIC=FILE` names another (as in the
//! `opensm_engines` bench). `ibfat/cold` is the plugin with `reuse=0`: every pass computes.
//! `ibfat/restart` is the plugin with `state_file=`, started once to write the file and
//! stopped: its first pass is that of OpenSM restarting on the same subnet.
//! Each engine's passes are listed in order; `IBFAT_BENCH_VERBOSE=1` also prints the
//! plugin's pass lines and OpenSM's timing lines (where a slow pass spent its time).

#[path = "support/env.rs"]
mod env;
#[path = "support/fabric.rs"]
mod fabric;
#[path = "../../../tests/harness/mod.rs"]
mod harness;

use env::env_or;
use harness::osmlog::routing_passes;
use harness::{OsmConfig, Sim, Waited};
use ibfat::formats::dump::ParseOptions;
use ibfat::load::{load, Recognize};
use ibfat::topology::faults::{ibsim_commands, inject};
use ibfat::topology::{Fabric, NodeKind};
use std::time::Duration;

const END: &str = " tables configured on all switches";

/// One event: its name and the ibsim console commands that make and undo it.
struct Event {
    what: String,
    cut: String,
    restore: String,
}

/// `cycles` events, a switch cable and a host cable in turn, seeded; the host that holds
/// OpenSM's port (ibsim's first CA, the SM's) is never cut off.
fn events(fabric: &Fabric, cycles: usize, seed: u64) -> Vec<Event> {
    let hosts: Vec<_> = fabric.cas().skip(1).collect();
    (0..cycles as u64)
        .map(|k| {
            if k % 2 == 0 {
                let inj = inject(fabric, 1, seed + k, &[]).unwrap_or_else(|e| panic!("{e}"));
                let l = inj.cut[0];
                Event {
                    what: format!("cable {}[{}]", fabric.node(l.a).name, l.pa),
                    cut: ibsim_commands(fabric, &inj, false),
                    restore: ibsim_commands(fabric, &inj, true),
                }
            } else {
                let pick = (seed + k).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29) as usize % hosts.len();
                let name = &fabric.node(hosts[pick]).name;
                Event {
                    what: format!("host cable {name}[1]"),
                    cut: format!("Unlink \"{name}\"[1]\n"),
                    restore: format!("ReLink \"{name}\"[1]\n"),
                }
            }
        })
        .collect()
}

/// Pass times of one engine: the first pass, passes that saw a change, re-sweeps.
struct Times {
    entry: String,
    first: Option<f64>,
    change: Vec<f64>,
    resweep: Vec<f64>,
    fell_back: usize,
    ahead: usize,
}

/// Wait for the `n`-th pass end; false when it did not come.
fn pass_ends(osm: &mut harness::OpenSm, n: usize) -> bool {
    osm.wait_while_running(END, n, Duration::from_secs(60)) == Waited::Found
}

fn run(sim: &Sim, entry: &str, events: &[Event], gap: Duration) -> Times {
    let mut cfg = OsmConfig {
        engine: entry.split('/').next().unwrap_or(entry).into(),
        // -D 0x07 logs each engine's start (`building routing with`), which times the pass
        extra_args: ["-D", "0x07", "-s", "0"].map(String::from).to_vec(),
        tag: Some(format!("flaps-{}", entry.replace('/', "-"))),
        ..Default::default()
    };
    let keep = tempfile::tempdir().expect("a temporary folder");
    let state = keep.path().join("ibfat.state");
    if entry.starts_with("ibfat") {
        cfg = cfg.with_ibfat_plugin(&match entry {
            "ibfat/cold" => "reuse=0".to_string(),
            "ibfat/restart" => format!("state_file={}", state.display()),
            _ => String::new(),
        });
    }
    if entry == "ibfat/restart" {
        // a first start writes the state file; the one measured is the next
        let mut first = sim.opensm_spawn(&cfg);
        assert!(pass_ends(&mut first, 1), "{entry}: no first pass");
        let kept = harness::wait_until(Duration::from_secs(60), || state.is_file());
        assert!(kept, "{entry}: no state file");
        first.stop();
    }
    let mut osm = sim.opensm_spawn(&cfg);
    assert!(pass_ends(&mut osm, 1), "{entry}: no first pass");
    std::thread::sleep(gap);
    // the pass count before each event: the passes after it up to the next are its
    let mut marks = Vec::new();
    for ev in events {
        for commands in [&ev.cut, &ev.restore] {
            let before = osm.log().matches(END).count();
            marks.push(before);
            for cmd in commands.lines() {
                sim.console(cmd);
            }
            std::thread::sleep(gap);
            let seen = osm.log().matches(END).count();
            osm.sighup();
            assert!(pass_ends(&mut osm, seen + 1), "{entry}: {}: no pass", ev.what);
            std::thread::sleep(gap);
        }
    }
    let log = osm.log();
    osm.stop();
    if std::env::var_os("IBFAT_BENCH_VERBOSE").is_some() {
        // what each pass of the plugin did, and the OpenSM lines that time it
        for l in log.lines().filter(|l| {
            l.contains("ibfat: pass ")
                || l.contains("computed ahead: ")
                || l.contains("ibfat: computing ahead ")
                || l.contains("warmed up")
                || l.contains("building routing")
                || l.contains(END)
        }) {
            eprintln!("{entry}: {}", l.chars().take(260).collect::<String>());
        }
    }
    let passes = routing_passes(&log);
    let engine = cfg.engine.as_str();
    let mut t = Times {
        entry: entry.into(),
        first: passes.first().map(|p| p.total_ms),
        change: Vec::new(),
        resweep: Vec::new(),
        fell_back: passes.iter().filter(|p| p.fell_back_from(engine)).count(),
        // passes after the first whose tables were computed ahead, after a pass or at load
        ahead: log
            .lines()
            .filter(|l| !l.contains("ibfat: pass 1: "))
            .filter(|l| l.contains("its tables were computed ahead") || l.contains("computed when the plugin loaded"))
            .count(),
    };
    let mut shown = Vec::new();
    for (i, p) in passes.iter().enumerate().skip(1) {
        let first_after_event = marks.contains(&i);
        shown.push(format!("{}{:.2}", if first_after_event { "*" } else { "" }, p.total_ms));
        if first_after_event {
            t.change.push(p.total_ms);
        } else {
            t.resweep.push(p.total_ms);
        }
    }
    println!(
        "{entry}: passes after the first (ms; * the first after an event): {}",
        shown.join(" ")
    );
    t
}

/// (median, max) of some milliseconds.
fn spread(v: &[f64]) -> String {
    if v.is_empty() {
        return "-".into();
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    format!("{:.2} / {:.2} ({})", s[s.len() / 2], s[s.len() - 1], s.len())
}

fn main() {
    let seed: u64 = env_or("IBFAT_BENCH_SEED", 1);
    let cycles: usize = env_or("IBFAT_BENCH_CYCLES", 10);
    let gap = Duration::from_secs_f64(env_or("IBFAT_BENCH_GAP", 3.0));
    let engines: String = env_or("IBFAT_BENCH_ENGINES", "ibfat,ibfat/cold,minhop".to_string());
    let (fabric, name) = fabric::found_fabric(seed).unwrap_or_else(|| {
        let lab = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/public/loginoff-sx6036-fdr10-2014.ibnetdiscover"
        );
        let loaded =
            load(std::path::Path::new(lab), ParseOptions::default(), Recognize::No).unwrap_or_else(|e| panic!("{e}"));
        (loaded.fabric().clone(), "145-host lab".into())
    });
    let evs = events(&fabric, cycles, seed);
    let switches = fabric.nodes.iter().filter(|n| n.kind == NodeKind::Switch).count();
    println!(
        "{name}: {switches} switches, {} hosts; {cycles} cut/restore cycles: {}",
        fabric.cas().count(),
        evs.iter().map(|e| e.what.as_str()).collect::<Vec<_>>().join(", ")
    );
    let sim = Sim::start_text(&ibfat::formats::ibsim::write_net(&fabric, &[]));
    let rows: Vec<Times> = engines
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(|e| run(&sim, e, &evs, gap))
        .collect();
    println!("| engine | first pass ms | passes after a change: median / max ms (count) | re-sweeps: median / max ms (count) | every pass: median / max ms | passes another engine routed | changes served by tables computed ahead |");
    println!("|---|---|---|---|---|---|---|");
    for r in &rows {
        let all: Vec<f64> = r.first.iter().chain(&r.change).chain(&r.resweep).copied().collect();
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.entry,
            r.first.map_or("-".into(), |f| format!("{f:.2}")),
            spread(&r.change),
            spread(&r.resweep),
            spread(&all),
            r.fell_back,
            if r.entry == "ibfat" || r.entry == "ibfat/restart" {
                r.ahead.to_string()
            } else {
                "-".into()
            }
        );
    }
}
