//! Sharded checks over the command line: `check --shard i/N --out FILE` in separate
//! processes and `check merge` give the unsharded report in every field, worst links
//! included; files that are not shards of one check are refused with exit 2.

use crate::harness::{build_plan, ibfat};
use serde_json::Value;

#[test]
fn three_shards_merge_into_the_unsharded_report() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("k4");
    let p = plan.to_str().unwrap();
    build_plan(&["build", "kary", "--arity", "4", "--levels", "3"], &plan);
    let (c, o, e) = ibfat(&["route", p, "--out", p]);
    assert_eq!(c, 0, "{o}{e}");
    let dump = plan.join("opensm-lfts.dump");
    let g2l = plan.join("guid2lid");
    let base = [
        "check",
        "--topology",
        p,
        "--lfts",
        dump.to_str().unwrap(),
        "--lids",
        g2l.to_str().unwrap(),
        "--pattern",
        "random",
        "--seed",
        "11",
    ];
    let run = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        ibfat(&args)
    };

    // the user report: no per-link array unless asked for
    let (c, out, e) = run(&["--json"]);
    assert_eq!(c, 1, "random permutations conflict on a tree: {e}");
    let plain: Value = serde_json::from_str(&out).unwrap();
    assert!(plain.get("link_loads").is_none(), "link_loads only with --links");
    let (_, out, _) = run(&["--json", "--links"]);
    let whole: Value = serde_json::from_str(&out).unwrap();
    assert!(!whole["link_loads"].as_array().unwrap().is_empty());

    let mut files = Vec::new();
    for i in 0..3 {
        let f = dir.path().join(format!("shard{i}.json"));
        let (c, _, e) = run(&["--shard", &format!("{i}/3"), "--out", f.to_str().unwrap()]);
        assert!(c == 0 || c == 1, "{e}");
        let shard: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        assert_eq!(shard["schema"], "ibfat.check-shard/3");
        assert_eq!((shard["shard"].as_u64(), shard["shards"].as_u64()), (Some(i), Some(3)));
        let on = &shard["computed_for"];
        assert!(on["fabric"].as_str().unwrap().starts_with("0x"), "{on}");
        assert!(on["lfts"].as_str().unwrap().starts_with("0x"), "{on}");
        files.push(f.to_str().unwrap().to_string());
    }
    let merge = |extra: &[&str], shards: &[&str]| {
        let mut args = vec!["check", "merge"];
        args.extend_from_slice(extra);
        args.extend_from_slice(shards);
        ibfat(&args)
    };
    let all: Vec<&str> = files.iter().map(|s| s.as_str()).collect();
    let (c, out, e) = merge(&["--json", "--links"], &[all[2], all[0], all[1]]);
    assert_eq!(c, 1, "{e}");
    let merged: Value = serde_json::from_str(&out).unwrap();
    for field in [
        "throughput_ratio",
        "max_congestion",
        "histogram",
        "worst_phases",
        "worst_links",
        "flows",
        "unrouted_flows",
        "phases_checked",
    ] {
        assert_eq!(merged[field], whole[field], "{field}");
    }
    assert_eq!(merged, whole, "every field");
    let (_, out, _) = merge(&["--json"], &all);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), plain);

    // refused: a shard given twice, a report that is not a shard, a shard of another seed
    let (c, _, e) = merge(&[], &[all[0], all[0]]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("shard0.json") && e.contains("also given"), "{e}");
    let report = dir.path().join("report.json");
    std::fs::write(&report, serde_json::to_string(&whole).unwrap()).unwrap();
    let (c, _, e) = merge(&[], &[all[0], report.to_str().unwrap()]);
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("report.json") && e.contains("schema") && e.contains("ibfat.check-shard/3"),
        "{e}"
    );
    let other = dir.path().join("other.json");
    let mut args = base.to_vec();
    let last = args.len() - 1;
    args[last] = "12";
    args.extend(["--shard", "1/3", "--out", other.to_str().unwrap()]);
    let (c, _, e) = ibfat(&args);
    assert!(c == 0 || c == 1, "{e}");
    let (c, _, e) = merge(&[], &[all[0], other.to_str().unwrap()]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("other.json") && e.contains("seed=12"), "{e}");

    // a missing shard: refused, named; with --allow-partial a partial report, never exit 0
    let (c, _, e) = merge(&[], &[all[0], all[2]]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("2 of 3 shards") && e.contains("missing shard 1"), "{e}");
    let (c, out, e) = merge(&["--json", "--allow-partial"], &[all[0], all[2]]);
    assert_eq!(c, 1, "a partial merge is not a pass: {e}");
    let part: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(part["partial"], true);
    assert!(part["phases_checked"].as_u64() < part["phases"].as_u64(), "{part}");
    assert_eq!(merged["partial"], false);
    let (c, out, _) = merge(&["--allow-partial"], &[all[0], all[2]]);
    assert_eq!(c, 1);
    assert!(out.contains("PARTIAL"), "{out}");

    // shard 1 checked on other tables (one switch entry changed, as after a reroute)
    let text = std::fs::read_to_string(&dump).unwrap();
    let changed = text.replacen("\n0x0001 001 #", "\n0x0001 002 #", 1);
    assert_ne!(changed, text, "the dump has LID 1 on port 1 of its first switch");
    let rerouted = dir.path().join("rerouted.dump");
    std::fs::write(&rerouted, changed).unwrap();
    let other = dir.path().join("rerouted-shard.json");
    let mut args = base.to_vec();
    args[4] = rerouted.to_str().unwrap();
    args.extend(["--shard", "1/3", "--out", other.to_str().unwrap()]);
    let (c, _, e) = ibfat(&args);
    assert!(c == 0 || c == 1, "{e}");
    let (c, _, e) = merge(&[], &[all[0], other.to_str().unwrap(), all[2]]);
    assert_eq!(c, 2, "{e}");
    assert!(
        e.contains("rerouted-shard.json") && e.contains("forwarding tables") && e.contains("shard0.json"),
        "{e}"
    );
}
