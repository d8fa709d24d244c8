//! The command line is a contract: exit codes, messages naming the field and the valid
//! range, nothing written on bad input, JSON reports.

use crate::harness;

/// The help texts: examples everywhere, `-h` within a screen.
#[path = "help.rs"]
mod help;

use crate::harness::{build_plan, ibfat};
use serde_json::Value;
use std::fs;

fn assert_bad_input(args: &[&str], must_contain: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plan");
    let mut full = args.to_vec();
    full.extend(["--out", out.to_str().unwrap()]);
    let (code, stdout, stderr) = ibfat(&full);
    assert_eq!(code, 2, "{full:?}: stdout {stdout} stderr {stderr}");
    for m in must_contain {
        assert!(stderr.contains(m), "{full:?}: `{m}` not in: {stderr}");
    }
    assert_eq!(stderr.lines().count(), 1, "one clear message: {stderr}");
    assert!(!out.exists(), "nothing written on bad input");
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no temporary folder left behind"
    );
}

#[test]
fn bad_parameters_exit_2_with_field_and_range() {
    assert_bad_input(
        &["build", "lsft", "--order", "6"],
        &["order", "6 is not a prime power", "5, 7"],
    );
    assert_bad_input(&["build", "lsft", "--order", "10"], &["order", "9, 11"]);
    assert_bad_input(
        &["build", "lsft", "--order", "3", "--hosts-per-leaf", "5"],
        &["hosts_per_leaf", "1..=4"],
    );
    assert_bad_input(
        &["build", "lsft", "--order", "3", "--hosts-per-leaf", "0"],
        &["hosts_per_leaf", "1..=4"],
    );
    assert_bad_input(&["build", "kary", "--arity", "1", "--levels", "3"], &["arity", "2..="]);
    assert_bad_input(&["build", "kary", "--arity", "4", "--levels", "1"], &["levels", ">= 2"]);
    assert_bad_input(&["build", "mols", "--arity", "1"], &["arity", "2..="]);
    assert_bad_input(
        &["build", "mols", "--arity", "6", "--wiring", "mols"],
        &["wiring", "prime-power", "5, 7"],
    );
}

#[test]
fn bad_specs_exit_2_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("family: lsft\norder: 6\n", vec!["fabric.yaml:2", "order", "5, 7"]),
        (
            "family: lsft\norder: 3\nhosts_per_leaf: 7\n",
            vec!["fabric.yaml:3", "hosts_per_leaf"],
        ),
        ("family: kary\narity: 3\n", vec!["levels: missing"]),
        (
            "family: lsft\norder: 3\narity: 2\n",
            vec!["fabric.yaml:3", "arity: does not apply"],
        ),
        (
            "family: lsft\norder: 3\nexpect: {switches: 1, hosts: 2, cables: 3}\n",
            vec!["fabric.yaml:3", "expect"],
        ),
        ("family: [oops\n", vec!["fabric.yaml:"]),
    ];
    for (text, must) in cases {
        let spec = dir.path().join("fabric.yaml");
        fs::write(&spec, text).unwrap();
        let out = dir.path().join("out");
        let (code, _, stderr) = ibfat(&[
            "build",
            "--spec",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{text}: {stderr}");
        for m in must {
            assert!(stderr.contains(m), "{text}: `{m}` not in {stderr}");
        }
        assert!(!out.exists());
    }
}

#[test]
fn spec_rebuilds_the_identical_plan() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    let (c, _, e) = ibfat(&[
        "build",
        "mols",
        "--arity",
        "4",
        "--shuffle",
        "3",
        "--out",
        a.to_str().unwrap(),
        "--no-svg",
    ]);
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = ibfat(&[
        "build",
        "--spec",
        a.join("fabric.yaml").to_str().unwrap(),
        "--out",
        b.to_str().unwrap(),
        "--no-svg",
    ]);
    assert_eq!(c, 0, "{e}");
    for f in ["topology.net", "cables.csv", "fabric.yaml", "topology.dot"] {
        assert_eq!(fs::read(a.join(f)).unwrap(), fs::read(b.join(f)).unwrap(), "{f}");
    }
    // an existing plan folder is replaced; a folder with other files is refused
    let (c, _, _) = ibfat(&[
        "build",
        "lsft",
        "--order",
        "2",
        "--out",
        b.to_str().unwrap(),
        "--no-svg",
    ]);
    assert_eq!(c, 0);
    fs::write(b.join("notes.txt"), "mine").unwrap();
    let (c, _, e) = ibfat(&[
        "build",
        "lsft",
        "--order",
        "3",
        "--out",
        b.to_str().unwrap(),
        "--no-svg",
    ]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("notes.txt"));
    assert!(
        fs::read_to_string(b.join("fabric.yaml")).unwrap().contains("order: 2"),
        "untouched"
    );
}

#[test]
fn build_report_as_json() {
    let (c, out, _) = ibfat(&["build", "lsft", "--order", "7", "--json"]);
    assert_eq!(c, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["family"], "lsft");
    assert_eq!(v["switches"], 114);
    assert_eq!(v["hosts"], 456);
    assert_eq!(v["cables"], 912);
}

#[test]
fn metrics_json_pins_the_published_figures() {
    let (c, out, _) = ibfat(&["metrics", "all", "--json"]);
    assert_eq!(c, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let hops = v["hops"].as_array().unwrap();
    let row = |n: u64| hops.iter().find(|r| r["arity"] == n).unwrap().clone();
    for (n, want) in [(4, 4.36), (8, 4.72), (12, 4.82), (16, 4.87)] {
        let got = row(n)["standard"]["average_hops"].as_f64().unwrap();
        assert!((got - want).abs() < 0.005, "n={n}: {got}");
    }
    let r19 = row(19);
    assert!((r19["within_3_hops_gain"].as_f64().unwrap() - 18.1).abs() < 0.05);
    assert!((r19["average_hops_change"].as_f64().unwrap() + 0.367).abs() < 0.0005);
    let cost = v["cost"].as_array().unwrap();
    let d18 = cost.iter().find(|r| r["degree"] == 18).unwrap();
    assert_eq!(d18["lsft_one_sided"]["hosts"], 5526);
}

#[test]
fn demo_runs_on_the_embedded_default() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo");
    let (c, stdout, e) = ibfat(&["demo", "--out", out.to_str().unwrap()]);
    assert_eq!(c, 0, "{e}");
    assert!(stdout.contains("LSFT(7)") && stdout.contains("456 hosts"), "{stdout}");
    assert!(stdout.contains("throughput ratio 1.0000"), "{stdout}");
    for d in ["lsft7", "mols7-mols"] {
        for f in [
            "topology.net",
            "cables.csv",
            "fabric.yaml",
            "topology.dot",
            "opensm-lfts.dump",
            "guid2lid",
            "schedule.json",
        ] {
            assert!(out.join(d).join(f).exists(), "{d}/{f}");
        }
    }
    // the JSON report, and its claims re-checked from the written files by other commands
    let (c, stdout, e) = ibfat(&["demo", "--json", "--out", out.to_str().unwrap()]);
    assert_eq!(c, 0, "{e}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let deps = v["deployments"].as_array().unwrap();
    assert_eq!(deps.len(), 2);
    assert_eq!(deps[0]["schedule"], "lsft");
    assert_eq!(deps[1]["schedule"], "mols-shift");
    assert_eq!(deps[1]["lmc"], 1);
    for d in deps {
        assert_eq!(d["tables_valid"], true, "{d}");
        assert_eq!(d["deadlock_free"], true, "{d}");
        assert_eq!(d["schedule_ratio"], 1.0, "{d}");
    }
    assert!(
        deps[0]["shift_ratio"].as_f64().unwrap() < 0.5,
        "plain shift conflicts on an LSFT"
    );
    assert!(deps[1]["schedule_ratio_latency_routes"].as_f64().unwrap() < 1.0);
    for d in ["lsft7", "mols7-mols"] {
        let plan = out.join(d);
        let p = |f: &str| plan.join(f).to_str().unwrap().to_string();
        let (c, o, e) = ibfat(&[
            "lfts",
            "validate",
            "--topology",
            &p("topology.net"),
            "--lfts",
            &p("opensm-lfts.dump"),
        ]);
        assert_eq!(c, 0, "{d}: {o}{e}");
        let (c, o, e) = ibfat(&[
            "check",
            "--json",
            "--topology",
            &p("topology.net"),
            "--lfts",
            &p("opensm-lfts.dump"),
            "--pattern",
            &p("schedule.json"),
        ]);
        assert_eq!(c, 0, "{d}: {e}");
        let r: Value = serde_json::from_str(&o).unwrap();
        assert_eq!(r["throughput_ratio"], 1.0, "{d}");
        assert_eq!(r["unrouted_flows"], 0, "{d}");
    }
}

#[test]
fn usage_errors_exit_2_and_help_teaches() {
    let (c, _, _) = ibfat(&["build", "lsft"]);
    assert_eq!(c, 2, "missing --order is a usage error");
    let (c, out, _) = ibfat(&["--help"]);
    assert_eq!(c, 0);
    assert!(out.contains("Exit codes") && out.contains("Examples"));
}

#[test]
fn routing_bad_input_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    let p = plan.to_str().unwrap();
    build_plan(&["build", "lsft", "--order", "2"], &plan);
    assert_eq!(ibfat(&["route", p, "--out", p]).0, 0);
    let g2l = fs::read_to_string(plan.join("guid2lid")).unwrap();
    let dump = fs::read_to_string(plan.join("opensm-lfts.dump")).unwrap();

    // a guid2lid with a hole (one switch missing)
    let holed: String = g2l
        .split("\n\n")
        .filter(|e| !e.is_empty())
        .skip(1)
        .map(|e| format!("{e}\n\n"))
        .collect();
    let bad_g2l = dir.path().join("holed.guid2lid");
    fs::write(&bad_g2l, holed).unwrap();
    let out = dir.path().join("routes");
    let (c, _, e) = ibfat(&[
        "route",
        p,
        "--lids",
        bad_g2l.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("holed.guid2lid") && e.contains("has no LID"), "{e}");
    assert!(!out.exists());

    // an LFT dump with a port beyond the switch: file and line
    let bad = dump.replacen("0x0001 001", "0x0001 099", 1);
    let bad_dump = dir.path().join("bad.dump");
    fs::write(&bad_dump, bad).unwrap();
    let (c, _, e) = ibfat(&[
        "lfts",
        "validate",
        "--topology",
        p,
        "--lfts",
        bad_dump.to_str().unwrap(),
    ]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("bad.dump:2: port 99 is beyond switch"), "{e}");

    // an LFT set for another fabric
    let other = dir.path().join("other");
    let o = other.to_str().unwrap();
    build_plan(&["build", "lsft", "--order", "2", "--shuffle", "9"], &other);
    let (c, _, e) = ibfat(&[
        "lfts",
        "validate",
        "--topology",
        o,
        "--lids",
        plan.join("guid2lid").to_str().unwrap(),
        "--lfts",
        plan.join("opensm-lfts.dump").to_str().unwrap(),
    ]);
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("is not in the fabric") || e.contains("is not in the topology"),
        "{e}"
    );

    // a valid set validates (exit 0) and a broken one is a defect (exit 1)
    assert_eq!(
        ibfat(&[
            "lfts",
            "validate",
            "--topology",
            p,
            "--lfts",
            plan.join("opensm-lfts.dump").to_str().unwrap()
        ])
        .0,
        0
    );
    let holed_dump: String = dump
        .lines()
        .filter(|l| !l.starts_with("0x0005 "))
        .map(|l| format!("{l}\n"))
        .collect();
    let hd = dir.path().join("holed.dump");
    fs::write(&hd, holed_dump).unwrap();
    let (c, out, _) = ibfat(&[
        "lfts",
        "validate",
        "--topology",
        p,
        "--lfts",
        hd.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(c, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["black_holes"], 14, "LID 5 dropped by all 14 switches");
    assert_eq!(v["ok"], false);
}

#[test]
fn check_reports_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    let p = plan.to_str().unwrap();
    build_plan(&["build", "kary", "--arity", "3", "--levels", "3"], &plan);
    let (c, out, _) = ibfat(&["check", "--topology", p, "--pattern", "shift", "--json"]);
    assert_eq!(c, 0, "shift on a k-ary tree with d-mod-k is conflict-free");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for k in [
        "throughput_ratio",
        "max_congestion",
        "phases",
        "flows",
        "unrouted_flows",
    ] {
        assert!(v.get(k).is_some(), "{k}");
    }
    assert_eq!(v["throughput_ratio"], 1.0);
    // shards merge to the same figures
    let mut files = Vec::new();
    for i in 0..3 {
        let (c, out, e) = ibfat(&[
            "check",
            "--topology",
            p,
            "--pattern",
            "shift",
            "--shard",
            &format!("{i}/3"),
            "--json",
        ]);
        assert_eq!(c, 0, "{e}");
        let f = dir.path().join(format!("s{i}.json"));
        fs::write(&f, out).unwrap();
        files.push(f.to_str().unwrap().to_string());
    }
    let mut args = vec!["check", "merge", "--json"];
    args.extend(files.iter().map(|s| s.as_str()));
    let (c, out, e) = ibfat(&args);
    assert_eq!(c, 0, "{e}");
    let m: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(m["flows"], v["flows"]);
    assert_eq!(m["phases_checked"], 27);
    // LSFT shift has conflicts: exit 1, heat map written
    let l = dir.path().join("l");
    build_plan(&["build", "lsft", "--order", "2"], &l);
    let heat = dir.path().join("heat.dot");
    let (c, _, _) = ibfat(&[
        "check",
        "--topology",
        l.to_str().unwrap(),
        "--heatmap",
        heat.to_str().unwrap(),
    ]);
    assert_eq!(c, 1);
    assert!(fs::read_to_string(&heat).unwrap().contains("penwidth"));
    let (c, _, e) = ibfat(&["check", "--topology", l.to_str().unwrap(), "--shard", "3/3"]);
    assert_eq!(c, 2, "{e}");
}

#[test]
fn whoami_finds_local_ports_and_their_ranks() {
    let t = tempfile::tempdir().unwrap();
    // a plan and its lsft schedule; this host is rank 5's port
    let plan = t.path().join("plan");
    build_plan(&["build", "lsft", "--order", "2"], &plan);
    let sched = t.path().join("a2a.json");
    assert_eq!(
        ibfat(&[
            "schedule",
            plan.to_str().unwrap(),
            "--pattern",
            "lsft",
            "--out",
            sched.to_str().unwrap()
        ])
        .0,
        0
    );
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&sched).unwrap()).unwrap();
    let guid = u64::from_str_radix(v["hosts"][5].as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    let port = t.path().join("sys/mlx5_0/ports/1");
    fs::create_dir_all(port.join("gids")).unwrap();
    let g = |s: u32| format!("{:04x}", (guid >> s) & 0xffff);
    fs::write(
        port.join("gids/0"),
        format!("fe80:0000:0000:0000:{}:{}:{}:{}\n", g(48), g(32), g(16), g(0)),
    )
    .unwrap();
    fs::write(port.join("lid"), "0x6\n").unwrap();
    fs::write(port.join("state"), "4: ACTIVE\n").unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(harness::ibfat_bin())
            .args(args)
            .env("IBFAT_SYSFS_ROOT", t.path().join("sys"))
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (c, out) = run(&["whoami", "--schedule", sched.to_str().unwrap(), "--json"]);
    assert_eq!(c, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema"], "ibfat.whoami/1");
    let rows = &v["ports"];
    assert_eq!(rows[0]["rank"], 5);
    assert_eq!(rows[0]["lid"], 6);
    assert_eq!(
        rows[0]["sending_phases"], 21,
        "busy in all 21 phases (one is its local copy)"
    );
    // a port that is not in the schedule
    fs::write(port.join("gids/0"), "fe80:0000:0000:0000:0000:0000:0000:0001\n").unwrap();
    assert_eq!(run(&["whoami", "--schedule", sched.to_str().unwrap()]).0, 1);
    // no ports at all
    fs::remove_dir_all(t.path().join("sys")).unwrap();
    assert_eq!(run(&["whoami"]).0, 3);
}

/// One grammar: the topology is the first argument of check and lfts validate, cabling
/// takes PLAN DISCOVERED; the old flags still work for a release with a note on stderr,
/// and giving both spellings is a usage error.
#[test]
fn topology_is_an_argument_everywhere_and_old_flags_are_deprecated() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("k");
    let p = plan.to_str().unwrap();
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &plan);
    let (c, _, e) = ibfat(&["route", p, "--out", p]);
    assert_eq!(c, 0, "{e}");
    let net = plan.join("topology.net");
    let n = net.to_str().unwrap();
    let dump = plan.join("opensm-lfts.dump");
    let d = dump.to_str().unwrap();
    for (new, old, flag) in [
        (
            vec!["check", p, "--pattern", "shift", "--json"],
            vec!["check", "--topology", p, "--pattern", "shift", "--json"],
            "--topology",
        ),
        (
            vec!["lfts", "validate", p, "--lfts", d, "--json"],
            vec!["lfts", "validate", "--topology", p, "--lfts", d, "--json"],
            "--topology",
        ),
        (
            vec!["cabling", p, n, "--json"],
            vec!["cabling", "--plan", p, "--discovered", n, "--json"],
            "--plan",
        ),
    ] {
        let (c1, o1, e1) = ibfat(&new);
        assert_eq!(c1, 0, "{new:?}: {e1}");
        assert!(e1.is_empty(), "{new:?}: {e1}");
        let (c2, o2, e2) = ibfat(&old);
        assert_eq!((c2, &o2), (0, &o1), "{old:?}: the same report");
        assert!(e2.contains(&format!("{flag} is deprecated")), "{old:?}: {e2}");
    }
    // short forms of the common flags mean the same as the long ones
    let s1 = dir.path().join("s1.json");
    let s2 = dir.path().join("s2.json");
    let (c, _, e) = ibfat(&["schedule", p, "--pattern", "kary-shift", "--out", s1.to_str().unwrap()]);
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = ibfat(&[
        "schedule",
        p,
        "-p",
        "kary-shift",
        "-o",
        s2.to_str().unwrap(),
        "-f",
        "kary",
    ]);
    assert_eq!(c, 0, "{e}");
    assert_eq!(fs::read(&s1).unwrap(), fs::read(&s2).unwrap());
    let (c, _, e) = ibfat(&["check", p, "-p", "shift", "-l", plan.join("guid2lid").to_str().unwrap()]);
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = ibfat(&["check", p, "--topology", p, "--pattern", "shift"]);
    assert_eq!(c, 2, "both spellings: {e}");
    let (c, _, e) = ibfat(&["check", "--pattern", "shift"]);
    assert_eq!(c, 2, "no topology: {e}");
    assert!(e.contains("TOPOLOGY"), "{e}");
}

/// Global flags: `--json` before or after the subcommand means the same; `-q` silences
/// notes (errors still print); `-v` says what was read and how long it took.
#[test]
fn global_json_quiet_and_verbose() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("k");
    let p = plan.to_str().unwrap();
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &plan);
    for (before, after) in [
        (
            vec!["--json", "check", p, "--pattern", "shift"],
            vec!["check", p, "--pattern", "shift", "--json"],
        ),
        (vec!["--json", "recognize", p], vec!["recognize", p, "--json"]),
        (vec!["--json", "metrics", "cost"], vec!["metrics", "cost", "--json"]),
        (
            vec!["--json", "build", "lsft", "--order", "2"],
            vec!["build", "lsft", "--order", "2", "--json"],
        ),
    ] {
        let (c1, o1, e1) = ibfat(&before);
        let (c2, o2, _) = ibfat(&after);
        assert_eq!((c1, &o1), (c2, &o2), "{before:?}: {e1}");
        assert!(serde_json::from_str::<Value>(&o1).is_ok(), "{before:?}: {o1}");
    }
    let (c, _, e) = ibfat(&["--json", "man"]);
    assert_eq!(c, 2, "man pages have no JSON form: {e}");
    let (c, _, e) = ibfat(&["-q", "check", "--topology", p, "--pattern", "shift"]);
    assert_eq!(c, 0, "{e}");
    assert!(e.is_empty(), "-q silences the deprecation note: {e}");
    let (c, _, e) = ibfat(&["-q", "check", "nope", "--pattern", "shift"]);
    assert_eq!(c, 3, "{e}");
    assert!(e.contains("ibfat: error:"), "errors print under -q: {e}");
    let (c, _, e) = ibfat(&["check", p, "--pattern", "shift", "-v"]);
    assert_eq!(c, 0, "{e}");
    assert!(
        e.contains("ibfat: read ") && e.contains("2-ary 2-tree") && e.contains("done in"),
        "{e}"
    );
    let (c, _, e) = ibfat(&["-q", "-v", "metrics", "cost"]);
    assert_eq!(c, 2, "-q and -v conflict: {e}");
}

/// Every `--json` report starts with its versioned schema name (docs/json.md), and
/// reports carry no timing unless asked (`--timings`), so two runs diff cleanly.
#[test]
fn json_reports_are_versioned_and_stable() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("k");
    let p = plan.to_str().unwrap();
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &plan);
    let r = dir.path().join("r");
    let rs = r.to_str().unwrap();
    let (c, _, e) = ibfat(&["route", p, "--out", p]);
    assert_eq!(c, 0, "{e}");
    let dump = plan.join("opensm-lfts.dump");
    let d = dump.to_str().unwrap();
    let net = plan.join("topology.net");
    let n = net.to_str().unwrap();
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("build/1", vec!["build", "lsft", "--order", "2"]),
        ("route/2", vec!["route", p, "--out", rs]),
        ("schedule/1", vec!["schedule", p, "--pattern", "kary-shift"]),
        ("check/1", vec!["check", p, "--pattern", "shift"]),
        ("lfts-validate/1", vec!["lfts", "validate", p, "--lfts", d]),
        ("lfts-diff/1", vec!["lfts", "diff", p, d, d]),
        ("recognize/1", vec!["recognize", n]),
        ("cabling/1", vec!["cabling", p, n]),
        ("metrics/1", vec!["metrics", "cost"]),
    ];
    for (name, args) in cases {
        let mut args = args.clone();
        args.push("--json");
        let (c, o1, e) = ibfat(&args);
        assert_eq!(c, 0, "{args:?}: {e}");
        let want = format!("{{\n  \"schema\": \"ibfat.{name}\",");
        assert!(o1.starts_with(&want), "{args:?}: {}", &o1[..o1.len().min(80)]);
        let (_, o2, _) = ibfat(&args);
        assert_eq!(o1, o2, "{args:?}: two runs differ");
    }
    // timings only when asked
    let (_, o, _) = ibfat(&["route", p, "--out", rs, "--json", "--timings"]);
    let v: Value = serde_json::from_str(&o).unwrap();
    assert!(v["timings"]["route_s"].as_f64().is_some(), "{v}");
    // the stages of issue 21, named as the OpenSM plugin's stage line names them, from a
    // net file (parsed, then recognised) and from a plan (built)
    for topology in [n, p] {
        let (c, o, e) = ibfat(&["route", topology, "--out", rs, "--json", "--timings"]);
        assert_eq!(c, 0, "{e}");
        let v: Value = serde_json::from_str(&o).unwrap();
        for stage in ["read_s", "recognize_s", "route_s", "validate_s", "write_s"] {
            let secs = v["timings"][stage].as_f64();
            assert!(secs.is_some_and(|s| s >= 0.0), "{topology}: {stage}: {v}");
        }
    }
    let (_, o, _) = ibfat(&["schedule", p, "--pattern", "kary-shift", "--json", "--timings"]);
    let v: Value = serde_json::from_str(&o).unwrap();
    assert!(v["seconds"].as_f64().is_some(), "{v}");
}

/// `--node-name-map` (the infiniband-diags format) names nodes in every report: here
/// four switches with the same NodeDescription, as real fabrics have, told apart.
#[test]
fn node_name_maps_name_nodes_in_reports() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("k");
    let p = plan.to_str().unwrap();
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &plan);
    // every switch described alike, as vendors ship them
    let net = fs::read_to_string(plan.join("topology.net")).unwrap();
    let same: String = net
        .lines()
        .map(|l| match (l.starts_with("Switch"), l.find("# \"")) {
            (true, Some(i)) => format!("{}# \"SwitchIB Mellanox Technologies\"\n", &l[..i]),
            _ => format!("{l}\n"),
        })
        .collect();
    let alike = dir.path().join("alike.net");
    fs::write(&alike, same).unwrap();
    let a = alike.to_str().unwrap();
    let (_, out, _) = ibfat(&["check", a, "--pattern", "shift"]);
    // without a map: the shared description with each switch's GUID
    assert!(
        out.contains("SwitchIB Mellanox Technologies [0x0002c90010000000]:"),
        "{out}"
    );
    let map = dir.path().join("node-name-map");
    fs::write(
        &map,
        "# site names\n0x0002c90010000000 \"rack1-leaf-a\"\n0x0002c90010000001 \"rack1-leaf-b\"\n\
         0x0002c90010000002 \"row2-spine-a\"\n0x0002c90010000003 row2-spine-b\n",
    )
    .unwrap();
    let m = map.to_str().unwrap();
    let (c, out, e) = ibfat(&["check", a, "--pattern", "shift", "--node-name-map", m]);
    assert_eq!(c, 0, "{e}");
    assert!(!out.contains("SwitchIB") && out.contains("row2-spine-"), "{out}");
    let (c, out, _) = ibfat(&["--node-name-map", m, "recognize", a, "--json"]);
    assert_eq!(c, 0);
    assert!(out.contains("rack1-leaf-a") && out.contains("row2-spine-b"), "{out}");
    let (c, out, _) = ibfat(&["cabling", p, a, "--node-name-map", m]);
    assert_eq!(c, 0, "{out}");
    // a bad map: exit 2 with file and line, before anything runs
    fs::write(&map, "0x0002c90010000000 \"a\"\n0x0002c90010000000 \"b\"\n").unwrap();
    let (c, _, e) = ibfat(&["check", a, "--pattern", "shift", "--node-name-map", m]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("node-name-map:2:") && e.contains("named again"), "{e}");
}

/// `route --dump-style`: auto writes OpenSM's own dump for every fabric under a gigabyte of
/// dump (the compact style above is proven in tests/library/routing.rs by the exact size), full
/// and compact force one (the hidden `--compact-dump` of ibfat.route/1 is gone), and the
/// JSON report names the style written. Both styles program the same tables.
#[test]
fn route_dump_styles() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    let p = plan.to_str().unwrap();
    build_plan(&["build", "lsft", "--order", "3", "--shuffle", "5"], &plan);
    let mut dumps = Vec::new();
    for (name, extra, style) in [
        ("auto", vec![], "full"),
        ("full", vec!["--dump-style", "full"], "full"),
        ("compact", vec!["--dump-style", "compact"], "compact"),
    ] {
        let out = dir.path().join(name);
        let mut args = vec!["route", p, "--out", out.to_str().unwrap(), "--json"];
        args.extend(extra);
        let (c, o, e) = ibfat(&args);
        assert_eq!(c, 0, "{name}: {e}");
        let v: Value = serde_json::from_str(&o).unwrap();
        assert_eq!(v["dump_style"], style, "{name}: {o}");
        dumps.push(fs::read_to_string(out.join("opensm-lfts.dump")).unwrap());
    }
    assert_eq!(dumps[0], dumps[1], "auto is the full dump here");
    assert!(dumps[0].contains("Channel Adapter portguid") && !dumps[2].contains("Channel Adapter"));
    assert!(dumps[2].len() * 10 < dumps[0].len() * 8);
    // the same tables either way: `lfts diff` of the two dumps finds nothing
    let (c, o, e) = ibfat(&[
        "lfts",
        "diff",
        p,
        dir.path().join("full/opensm-lfts.dump").to_str().unwrap(),
        dir.path().join("compact/opensm-lfts.dump").to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(c, 0, "{o}{e}");
    let v: Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["entries_changed"], 0, "{o}");
    assert!(v["entries_compared"].as_u64().unwrap() > 0, "{o}");
    // one grammar: a style that does not exist, and both spellings at once
    let (c, _, e) = ibfat(&["route", p, "--out", p, "--dump-style", "tiny"]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("tiny") && e.contains("compact"), "{e}");
    let (c, _, e) = ibfat(&["route", p, "--out", p, "--compact-dump"]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("--compact-dump"), "{e}");
}
