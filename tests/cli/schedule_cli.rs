//! Schedules through the CLI (docs/schedules.md): `ibfat schedule` on plan folders, fabric.yaml and
//! topology.net, its files read back against the topology, and its bad-input errors.

use crate::harness::{build_plan, ibfat};
use ibfat::schedule::file::read_json;
use ibfat::schedule::job::Hosts;
use ibfat::schedule::verify;
use ibfat::topology::{Spec, Topology};
use std::path::Path;

fn build(dir: &Path, args: &[&str]) -> Topology {
    let mut full = vec!["build"];
    full.extend(args);
    build_plan(&full, dir);
    let yaml = dir.join("fabric.yaml");
    Spec::from_yaml(&std::fs::read_to_string(&yaml).unwrap(), &yaml)
        .unwrap()
        .build()
        .unwrap()
}

fn run(args: &[&str]) -> serde_json::Value {
    let mut full = vec!["schedule"];
    full.extend(args);
    full.push("--json");
    let (code, out, err) = ibfat(&full);
    assert_eq!(code, 0, "{full:?}: {out}{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{full:?}: {e}: {out}"))
}

#[test]
fn lsft_schedules_round_trip_through_files() {
    let t = tempfile::tempdir().unwrap();
    let plan_dir = t.path().join("lsft3");
    let plan = build(&plan_dir, &["lsft", "--order", "3", "--two-sided", "--shuffle", "5"]);
    let p = plan_dir.to_str().unwrap();
    let out = t.path().join("a2a.json");
    let r = run(&[p, "--pattern", "lsft", "--out", out.to_str().unwrap()]);
    assert_eq!(r["ranks"], 104);
    assert_eq!(r["phases"], 104);
    assert_eq!(r["complete"], true);
    assert_eq!(r["conflict_free_by_construction"], true);
    assert_eq!(r["counts"]["flows"], 104 * 104);
    let (sched, job) = read_json(&out, Some(&Hosts::of(&plan))).unwrap();
    assert!(job.unwrap().is_whole(plan.layout.hosts()));
    assert_eq!(verify(&sched).unwrap().flows, 104 * 104);

    // the placement chooser, from the topology.net of the plan, written as CSV
    let net = plan_dir.join("topology.net");
    let csv = t.path().join("job.csv");
    let r = run(&[
        net.to_str().unwrap(),
        "--pattern",
        "lsft-partial",
        "--job-size",
        "18",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(r["format"], "csv");
    assert_eq!(r["placement"]["exact"], true, "18 = 3·3·2");
    assert_eq!(r["phases"], 18);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().next(), Some("rank,phase,peer"));
    assert_eq!(text.lines().count(), 1 + 18 * 18);

    // a job file in the user's order, and a comparison pattern over it
    let jobfile = t.path().join("hosts.txt");
    std::fs::write(&jobfile, "# three hosts\nH4_0a\n0-1\n").unwrap();
    let out = t.path().join("ring.json");
    let r = run(&[
        p,
        "--pattern",
        "ring",
        "--job",
        jobfile.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!((r["ranks"].as_u64(), r["phases"].as_u64()), (Some(3), Some(2)));
    let (_, job) = read_json(&out, Some(&Hosts::of(&plan))).unwrap();
    assert_eq!(job.unwrap().fabric_ranks(), &[16, 0, 1]);
}

#[test]
fn tree_shifts_and_bad_input() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("ft");
    build(&dir, &["kary", "--arity", "2", "--levels", "3"]);
    let yaml = dir.join("fabric.yaml");
    let r = run(&[yaml.to_str().unwrap(), "--pattern", "kary-shift", "--job", "ranks:4-7"]);
    assert_eq!(r["conflict_free_by_construction"], true, "one pod");
    let d = dir.to_str().unwrap();
    let fails = |args: &[&str], want: &str| {
        let mut full = vec!["schedule"];
        full.extend(args);
        let (code, out, err) = ibfat(&full);
        assert_eq!(code, 2, "{full:?}: {out}{err}");
        assert!(err.contains(want), "{full:?}: {err}");
    };
    fails(&[d, "--pattern", "lsft"], "Latin-square");
    fails(&[d, "--pattern", "mols-shift"], "use kary-shift");
    fails(&[d, "--pattern", "nope"], "unknown pattern `nope`");
    fails(
        &[d, "--pattern", "shift", "--job", "ranks:0-8"],
        "rank 8 does not exist",
    );
    let jobfile = t.path().join("bad.txt");
    std::fs::write(&jobfile, "H1\nS1_0\n").unwrap();
    fails(
        &[d, "--pattern", "shift", "--job", jobfile.to_str().unwrap()],
        "bad.txt:2: `S1_0` names S1_0, a switch",
    );
    fails(&[d, "--pattern", "shift", "--block", "2"], "--per-leaf");
    fails(
        &[t.path().to_str().unwrap(), "--pattern", "shift"],
        "neither fabric.yaml nor topology.net",
    );
    // a topology.net on its own is recognised (the same tree, the same ranks)
    let lone = t.path().join("lone");
    std::fs::create_dir(&lone).unwrap();
    let net = std::fs::read_to_string(dir.join("topology.net")).unwrap();
    std::fs::write(lone.join("topology.net"), &net).unwrap();
    let r = run(&[lone.join("topology.net").to_str().unwrap(), "--pattern", "kary-shift"]);
    assert_eq!(r["ranks"], 8);
    assert_eq!(r["conflict_free_by_construction"], true);
    // a net file with a host's record cut out: its switch lists a cable to nobody
    let cut: String = net
        .lines()
        .filter(|l| !l.contains("\"H0\"") || l.starts_with('['))
        .map(|l| format!("{l}\n"))
        .collect();
    let edited = t.path().join("edited.net");
    std::fs::write(&edited, cut).unwrap();
    fails(&[edited.to_str().unwrap(), "--pattern", "shift"], "edited.net:");
    // a fabric that is not of the family asked for
    fails(
        &[
            lone.join("topology.net").to_str().unwrap(),
            "--pattern",
            "shift",
            "--family",
            "lsft",
        ],
        "not a recognisable fabric",
    );
    // nothing is written on failure
    let out = t.path().join("never.json");
    fails(
        &[d, "--pattern", "lsft", "--out", out.to_str().unwrap()],
        "Latin-square",
    );
    assert!(!out.exists());
}

/// A schedule file records what it was computed for; `ibfat check` refuses one computed
/// for other tables (exit 2, naming the file), and `--allow-stale` checks it with a warning.
#[test]
fn check_refuses_a_schedule_computed_for_other_tables() {
    let t = tempfile::tempdir().unwrap();
    let plan_dir = t.path().join("lsft2");
    let plan = build(&plan_dir, &["lsft", "--order", "2"]);
    let p = plan_dir.to_str().unwrap();
    let out = t.path().join("a2a.json");
    run(&[p, "--pattern", "lsft", "--out", out.to_str().unwrap()]);
    let (sched, _) = read_json(&out, Some(&Hosts::of(&plan))).unwrap();
    let on = sched.computed_for.unwrap();
    assert_eq!(on.fabric, plan.fabric.fingerprint());
    assert_eq!(on.lfts, None, "computed from the topology, valid on any tables");
    let check = |file: &Path, extra: &[&str]| {
        let mut args = vec!["check", "--topology", p, "--pattern", file.to_str().unwrap()];
        args.extend_from_slice(extra);
        ibfat(&args)
    };
    let (c, o, e) = check(&out, &[]);
    assert_eq!(c, 0, "{o}{e}");
    // the same schedule, claiming tables that are not these
    let text = std::fs::read_to_string(&out).unwrap();
    let stale = t.path().join("stale.json");
    std::fs::write(
        &stale,
        text.replacen("\"lfts\":null", "\"lfts\":\"0x00000000deadbeef\"", 1),
    )
    .unwrap();
    let (c, _, e) = check(&stale, &[]);
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("stale.json") && e.contains("stale schedule") && e.contains("0x00000000deadbeef"),
        "{e}"
    );
    let (c, o, e) = check(&stale, &["--allow-stale"]);
    assert_eq!(c, 0, "{o}{e}");
    assert!(e.contains("warning") && e.contains("stale schedule"), "{e}");
}

/// A degraded tree (cut cables, a dead top switch) gets its `kary-shift` (a MOLS tree its
/// `mols-shift`, on the base-LID routes of LMC 1 tables too) repaired for the tables: on ibfat's degraded routes, written by `ibfat route` and read back by `ibfat
/// check`, every phase has at most one flow per link and every ordered pair is sent once;
/// the report gives the lower bound the phases are measured against. Asking a degraded
/// tree for the LSFT schedule is an input error naming the pattern it gets.
#[test]
fn a_degraded_trees_shift_is_repaired_for_its_tables() {
    let dir = tempfile::tempdir().unwrap();
    for (name, build, dead, pattern, lmc) in [
        (
            "kary",
            vec!["kary", "--arity", "4", "--levels", "3"],
            "S3_2",
            "kary-shift",
            "0",
        ),
        (
            "pgft",
            vec!["pgft", "--down", "4,4,2", "--up", "1,2,4", "--parallel", "1,2,2"],
            "S2_1",
            "kary-shift",
            "0",
        ),
        (
            "mols",
            vec!["mols", "--arity", "4", "--wiring", "mols", "--shuffle", "2"],
            "T1_3",
            "mols-shift",
            "1",
        ),
    ] {
        let plan = dir.path().join(name);
        let mut b = vec!["build"];
        b.extend(build.iter().copied());
        build_plan(&b, &plan);
        let deg = dir.path().join(format!("{name}-deg"));
        let (c, o, e) = ibfat(&[
            "faults",
            plan.to_str().unwrap(),
            "--cut",
            "6",
            "--seed",
            "3",
            "--dead",
            dead,
            "--out",
            deg.to_str().unwrap(),
        ]);
        assert_eq!(c, 0, "{o}{e}");
        let net = deg.join("topology.net");
        let net_s = net.to_str().unwrap();
        let sched = dir.path().join(format!("{name}.json"));
        let tables = dir.path().join(format!("{name}-r"));
        let (c, o, e) = ibfat(&["route", net_s, "--lmc", lmc, "--out", tables.to_str().unwrap()]);
        assert_eq!(c, 0, "{o}{e}");
        let (dump, g2l) = (tables.join("opensm-lfts.dump"), tables.join("guid2lid"));
        let mut args = vec![net_s, "--pattern", pattern, "--out", sched.to_str().unwrap()];
        if lmc != "0" {
            // repaired for the LMC 1 tables (their LIDs differ from the LMC 0 routes')
            args.extend(["--lfts", dump.to_str().unwrap(), "--lids", g2l.to_str().unwrap()]);
        }
        let v = run(&args);
        assert_eq!(v["pattern"], format!("{pattern} (repaired)"), "{v}");
        let hosts = v["ranks"].as_u64().unwrap();
        let rep = &v["repair"];
        assert_eq!(rep["unrouted_flows"], 0, "{v}");
        assert_eq!(rep["flows"].as_u64().unwrap(), hosts * (hosts - 1));
        let lower = rep["lower_bound_phases"].as_u64().unwrap();
        let phases = v["phases"].as_u64().unwrap();
        // the busiest link of the degraded routes sets the bound; packing stays near it
        assert!(
            lower >= hosts - 1 && phases >= lower && phases as f64 <= 1.2 * lower as f64,
            "{v}"
        );
        let (c, o, e) = ibfat(&[
            "check",
            net_s,
            "--pattern",
            sched.to_str().unwrap(),
            "--lfts",
            tables.join("opensm-lfts.dump").to_str().unwrap(),
            "--lids",
            tables.join("guid2lid").to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(c, 0, "{name}: conflict-free on the tables: {o}{e}");
        let chk: serde_json::Value = serde_json::from_str(&o).unwrap();
        assert_eq!(chk["max_congestion"], 1, "{name}");
        assert_eq!(chk["unrouted_flows"], 0);
        assert_eq!(
            chk["flows"].as_u64().unwrap(),
            hosts * (hosts - 1),
            "every ordered pair once"
        );
        let (c, _, e) = ibfat(&["schedule", net_s, "--pattern", "lsft"]);
        assert_eq!(c, 2, "{e}");
        assert!(e.contains(pattern), "{e}");
    }
}
