//! Soak of the plugin in OpenSM daemon mode (issue 41 item 6): one stock OpenSM 3.3.23
//! (`-R ibfat,minhop`, QoS on so a degraded LSFT gets its data VLs) on ibsim's shuffled
//! LSFT(3) is re-swept `IBFAT_SOAK_SWEEPS` times (default 200). Before each sweep a seeded
//! random step cuts a leaf-to-spine cable that is intact (at most 3 cut at once; a leaf
//! keeps at least one of its 4 up links and a spine one of its 4 down links, so the fabric
//! stays connected and is a degraded LSFT the plugin routes) or restores one that is cut,
//! through ibsim's console. Every pass must be ibfat's, with no fallback anywhere in the
//! log, and must report exactly the cables cut; every 25 sweeps the tables the switches
//! hold are read back (`ibnetdiscover`, `dump_lfts`) and validated: no loop, nothing
//! misdelivered, every host LID reached from every switch a host hangs off. OpenSM's
//! memory (VmRSS, VmHWM), open files and threads are measured after a warm-up and after
//! the last sweep, on the intact fabric both times, and must stay flat.
//!
//! CI runs 10 sweeps; the full 200 (about 15 minutes) run on purpose:
//! `cargo test -p ibfat-osm --test opensm soak_on_opensm -- --ignored --nocapture`.

use crate::harness;

use crate::harness::{OpenSm, OsmConfig, Sim};
use ibfat::topology::{Fabric, NodeKind};
use ibfat::SplitMix64;
use std::collections::BTreeSet;
use std::time::Instant;

/// Cables cut at once, at most.
const MAX_CUT: usize = 3;
/// Sweeps before the start figures are taken: a cut, a second cut, both restored, and a
/// re-sweep of the intact fabric.
const WARM_UP: usize = 5;
/// Read the tables back and validate them every this many sweeps.
const VALIDATE_EVERY: usize = 25;
/// The RNG seed of the cut/restore steps (the run is repeatable).
const SEED: u64 = 41;

/// OpenSM with the ibfat plugin (validating its tables, minhop behind it so a refusal
/// would show as a fallback), QoS on (a degraded LSFT's routes need a second data VL),
/// sweeping only when told (and on traps), with a patient MAD timeout for a simulator
/// that shares 2 cores with the tests.
fn config() -> OsmConfig {
    OsmConfig {
        engine: "ibfat,minhop".into(),
        extra_args: ["-Q", "-s", "0"].map(String::from).to_vec(),
        conf: vec!["transaction_timeout 1000".into()],
        tag: Some("soak".into()),
        ..Default::default()
    }
    .with_ibfat_plugin("validate=1")
}

/// What a process holds: resident memory, its peak, open file descriptors and threads.
/// `Display`: the memory figures.
#[derive(Clone, Copy, Debug)]
struct Usage {
    rss_kib: u64,
    hwm_kib: u64,
    /// VmRSS split: heap and stacks, and pages of mapped files (OpenSM's and the plugin's
    /// code, paged in as new code paths run).
    anon_kib: u64,
    file_kib: u64,
    fds: usize,
    threads: u64,
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "VmRSS {} KiB (anon {}, file {}), VmHWM {} KiB",
            self.rss_kib, self.anon_kib, self.file_kib, self.hwm_kib
        )
    }
}

/// [`Usage`] of process `pid`, from `/proc/PID/status` and `/proc/PID/fd`.
fn usage(pid: u32) -> Usage {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("OpenSM's /proc status");
    // a field's number (`VmRSS:   8576 kB`, `Threads:  3`)
    let number = |field: &str| -> u64 {
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
    };
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("OpenSM's /proc fd folder")
        .count();
    Usage {
        rss_kib: number("VmRSS:"),
        hwm_kib: number("VmHWM:"),
        anon_kib: number("RssAnon:"),
        file_kib: number("RssFile:"),
        fds,
        threads: number("Threads:"),
    }
}

/// Every leaf-to-spine cable of the plan as (leaf name, leaf port): both ibsim's
/// `Unlink` and `ReLink` are given the leaf end.
fn leaf_cables(plan: &Fabric) -> Vec<(String, u8)> {
    let mut v = Vec::new();
    for leaf in plan.switches().filter(|&s| plan.node(s).name.starts_with('L')) {
        for p in 1..=plan.node(leaf).nports {
            if plan
                .peer(leaf, p)
                .is_some_and(|(n, _)| plan.node(n).kind == NodeKind::Switch)
            {
                v.push((plan.node(leaf).name.clone(), p));
            }
        }
    }
    v
}

/// Send one `Unlink`/`ReLink` to ibsim; an error reply fails the test. ibsim answers an
/// error with a `# ...` line (`# port 3 at nodeid "L5" is not linked`, `# no previous
/// link stored`) or `command '...' unknown - skipped`; its `ibwarn:` lines (a trap it
/// cannot route while the cable is down) are no answer to the command.
fn play(sim: &Sim, cmd: &str) {
    let reply = sim.console(cmd);
    assert!(
        !reply
            .lines()
            .any(|l| l.trim_start().starts_with('#') || l.contains("unknown - skipped")),
        "ibsim refused `{cmd}`: {reply}"
    );
}

/// Play `cmds`, re-sweep, and require an ibfat pass (no fallback) that found `cut`
/// cables missing (`resweep_after` lets the trap-started sweeps end first).
fn sweep(sim: &Sim, osm: &mut OpenSm, cmds: &[String], cut: usize, what: &str) {
    for c in cmds {
        play(sim, c);
    }
    osm.resweep_after(sim, "", what);
    let log = osm.log();
    let line = log
        .lines()
        .rev()
        .find(|l| l.contains("ibfat: pass ") && l.contains(": recognised "))
        .unwrap_or_else(|| panic!("{what}: no pass line\n{}", harness::tail(&log, 30)));
    let saw = if cut == 0 {
        !line.contains("degraded")
    } else {
        line.contains(&format!("degraded: {cut} missing cables"))
    };
    assert!(saw, "{what}: {cut} cables cut, the pass says: {line}");
}

/// The tables the switches hold, read back with the real tools and validated by ibfat:
/// no loop, nothing misdelivered, every host LID reached from every switch a host hangs
/// off. Returns the number of host LIDs.
fn validate_read_back(sim: &Sim, what: &str) -> usize {
    let (fabric, lids, tables) = sim.programmed();
    let v = ibfat::check::validate(&fabric, &lids, &tables, None);
    assert!(
        v.loops == 0 && v.misdelivered == 0 && v.broken_host_routes == 0,
        "{what}: the tables read back fail validation: {v:?}"
    );
    let hosts = fabric
        .endpoints()
        .iter()
        .filter(|e| fabric.node(e.node).kind == NodeKind::Ca)
        .count();
    assert_eq!(hosts, 52, "{what}: every host of LSFT(3) is in the subnet");
    hosts
}

/// The plugin's time of every pass in an OpenSM log, in ms: `ibfat: pass N: recognised
/// ...; ... routed in X ms (read ...)`, from reading the subnet to the tables handed over.
fn pass_times(log: &str) -> Vec<f64> {
    log.lines()
        .filter(|l| l.contains("ibfat: pass ") && l.contains(": recognised "))
        .map(|l| {
            l.split(" routed in ")
                .nth(1)
                .and_then(|r| r.split(" ms").next())
                .and_then(|x| x.parse().ok())
                .unwrap_or_else(|| panic!("a pass line without its time: {l}"))
        })
        .collect()
}

/// Mean and max of `v` (0 when empty).
fn mean_max(v: &[f64]) -> (f64, f64) {
    let max = v.iter().copied().fold(0.0, f64::max);
    (v.iter().fold(0.0, |a, x| a + x) / v.len().max(1) as f64, max)
}

/// The full soak (figures in the closing note of issue 41): run on purpose, not in CI.
#[test]
#[ignore = "soak: about 15 minutes; run with --ignored"]
fn two_hundred_resweeps_with_random_cuts_and_restores_keep_opensm_flat() {
    let sweeps: usize = std::env::var("IBFAT_SOAK_SWEEPS")
        .map(|s| s.parse().expect("IBFAT_SOAK_SWEEPS: a count"))
        .unwrap_or(200);
    soak(sweeps);
}

/// The same soak, short enough for every CI run: 10 re-sweeps with cuts and restores,
/// every pass ibfat's, tables validated, OpenSM's files and threads unchanged.
#[test]
fn ten_resweeps_with_random_cuts_and_restores_keep_opensm_flat() {
    soak(10);
}

/// Warm up, then `sweeps` re-sweeps after seeded random cuts and restores; measure and
/// assert as the module documentation says.
fn soak(sweeps: usize) {
    harness::require_tools();
    let t0 = Instant::now();
    let t = tempfile::tempdir().unwrap();
    let plan_dir = t.path().join("plan");
    harness::build_plan(&["build", "lsft", "--order", "3", "--shuffle", "41"], &plan_dir);
    let net = plan_dir.join("topology.net");
    let plan = ibfat::formats::dump::read(&net).unwrap().fabric;
    let cables = leaf_cables(&plan);
    assert_eq!(cables.len(), 52, "LSFT(3): 13 leaves with 4 up links each");

    let sim = Sim::start(&net);
    let mut osm = sim.opensm_daemon(&config());
    osm.routed_by_ibfat(1, "first pass");
    let pid = osm.pid();

    // warm-up: one-time allocations (OpenSM's tables, the plugin's lanes for a degraded
    // pass, glibc's per-thread arenas) are made by a first degraded and a first intact pass
    let mut rng = SplitMix64::new(SEED);
    let (a, b) = (
        cables[rng.below(26) as usize].clone(),
        cables[26 + rng.below(26) as usize].clone(),
    );
    let unlink = |c: &(String, u8)| format!("Unlink \"{}\"[{}]", c.0, c.1);
    let relink = |c: &(String, u8)| format!("ReLink \"{}\"[{}]", c.0, c.1);
    let warm = [
        (vec![unlink(&a)], 1),
        (vec![unlink(&b)], 2),
        (vec![relink(&a)], 1),
        (vec![relink(&b)], 0),
        (vec![], 0),
    ];
    assert_eq!(warm.len(), WARM_UP);
    for (i, (cmds, cut)) in warm.iter().enumerate() {
        sweep(&sim, &mut osm, cmds, *cut, &format!("warm-up sweep {}", i + 1));
    }
    validate_read_back(&sim, "after the warm-up");
    let start = usage(pid);
    let passes_before = pass_times(&osm.log()).len();
    eprintln!(
        "soak start (after {WARM_UP} warm-up sweeps, fabric intact): {start}, {} open fds, {} threads",
        start.fds, start.threads
    );

    let mut cut: BTreeSet<usize> = BTreeSet::new();
    let (mut cuts, mut restores, mut validations) = (0usize, 0usize, 0usize);
    let loop_start = Instant::now();
    for i in 1..=sweeps {
        let restore = cut.len() == MAX_CUT || (!cut.is_empty() && rng.below(2) == 0);
        let (cmd, step) = if restore {
            let k = *cut.iter().nth(rng.below(cut.len() as u64) as usize).unwrap();
            cut.remove(&k);
            restores += 1;
            (relink(&cables[k]), format!("restore {}[{}]", cables[k].0, cables[k].1))
        } else {
            let intact: Vec<usize> = (0..cables.len()).filter(|k| !cut.contains(k)).collect();
            let k = intact[rng.below(intact.len() as u64) as usize];
            cut.insert(k);
            cuts += 1;
            (unlink(&cables[k]), format!("cut {}[{}]", cables[k].0, cables[k].1))
        };
        let what = format!("sweep {i}/{sweeps} ({step}, {} cut)", cut.len());
        sweep(&sim, &mut osm, &[cmd], cut.len(), &what);
        if i % VALIDATE_EVERY == 0 {
            validate_read_back(&sim, &what);
            validations += 1;
            let u = usage(pid);
            eprintln!(
                "{what}: validated; {u}, {} fds, {:.0} s",
                u.fds,
                loop_start.elapsed().as_secs_f64()
            );
        }
        assert!(osm.alive(), "{what}: OpenSM exited");
    }

    // restore what is still cut, one re-sweep, then the end figures on the intact fabric
    let left: Vec<String> = cut.iter().map(|&k| relink(&cables[k])).collect();
    restores += left.len();
    sweep(&sim, &mut osm, &left, 0, "final restore");
    validate_read_back(&sim, "final restore");
    validations += 1;
    let end = usage(pid);
    let log = osm.log();
    assert!(!log.contains("falling back"), "a pass fell back");
    let configured = log.matches("tables configured on all switches").count();
    let by_ibfat = log.matches("ibfat tables configured on all switches").count();
    let passes = pass_times(&log);
    let soak = &passes[passes_before..];
    let (mean, max) = mean_max(soak);
    let grew = end.rss_kib as f64 - start.rss_kib as f64;
    eprintln!(
        "soak end: {sweeps} sweeps + 1 final restore ({cuts} cuts, {restores} restores, {validations} \
         read-back validations); {} ibfat passes in all, {} since the start figures (trap-started \
         passes included); {} of {configured} table configurations by ibfat\n\
         OpenSM VmRSS {} -> {} KiB ({grew:+} KiB, {:+.1} KiB per sweep; anon {:+} KiB, file {:+} KiB), \
         VmHWM {} -> {} KiB ({:+} KiB), open fds {} -> {}, threads {} -> {}\n\
         ibfat pass time (plugin's 'routed in', read to tables handed over) over the {} soak passes: \
         mean {mean:.3} ms, max {max:.3} ms\n\
         wall time {:.0} s (soak loop {:.0} s, {:.2} s per sweep)",
        passes.len(),
        soak.len(),
        by_ibfat,
        start.rss_kib,
        end.rss_kib,
        grew / (sweeps + 1) as f64,
        end.anon_kib as i64 - start.anon_kib as i64,
        end.file_kib as i64 - start.file_kib as i64,
        start.hwm_kib,
        end.hwm_kib,
        end.hwm_kib as i64 - start.hwm_kib as i64,
        start.fds,
        end.fds,
        start.threads,
        end.threads,
        soak.len(),
        t0.elapsed().as_secs_f64(),
        loop_start.elapsed().as_secs_f64(),
        loop_start.elapsed().as_secs_f64() / (sweeps + 1) as f64,
    );

    assert_eq!(by_ibfat, configured, "every pass was ibfat's");
    assert!(soak.len() > sweeps, "at least one ibfat pass per sweep");
    assert_eq!(end.fds, start.fds, "OpenSM's open files grew");
    assert_eq!(end.threads, start.threads, "OpenSM's threads grew");
    // memory flat: glibc gives each thread that allocates (OpenSM's, and the rayon workers
    // of the plugin's validation) an arena of its own, which keeps freed chunks for reuse
    // and trims them back to the kernel only now and then, so resident memory moves by a
    // few MiB with the mix of passes (which thread routed the last pass, a degraded
    // fabric's lanes) even when nothing leaks; 8 MiB over 200 sweeps still fails a leak of
    // 41 KiB or more per sweep, and the growth per sweep is printed above
    let slack = (8 * 1024).max(start.rss_kib / 10);
    assert!(
        end.rss_kib <= start.rss_kib + slack,
        "OpenSM's resident memory grew from {} to {} KiB over {sweeps} sweeps (slack {slack} KiB)",
        start.rss_kib,
        end.rss_kib
    );
    osm.stop();
}
