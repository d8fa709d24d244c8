//! `ibfat schedule --pattern bcast-multilane` from the command line: the file follows its
//! contract (docs/schedules.md §6) — hosts in job-rank order, every lane a partial
//! permutation, every part reaching every rank exactly once from the root — for whole
//! fabrics, jobs, roots, 1..4 lanes and chained sites; bad requests write nothing.

use crate::harness::{build_plan, ibfat};
use serde_json::Value;
use std::path::Path;

/// Check the contract on a file; the depth of every part.
fn prove(v: &Value) -> Vec<usize> {
    let n = v["hosts"].as_array().unwrap().len();
    let root = v["root"].as_u64().unwrap() as usize;
    let lanes = v["lanes"].as_array().unwrap();
    let mut parts: Vec<Vec<(usize, usize)>> = vec![Vec::new(); lanes.len()];
    for lane in lanes {
        let lane = lane.as_array().unwrap();
        assert_eq!(lane.len(), n);
        let mut got = vec![false; n];
        for (from, s) in lane.iter().enumerate() {
            if let Some(s) = s.as_array() {
                let (to, part) = (s[0].as_u64().unwrap() as usize, s[1].as_u64().unwrap() as usize);
                assert!(!got[to], "rank {to} receives twice on one lane");
                got[to] = true;
                parts[part].push((from, to));
            }
        }
    }
    let mut depths = Vec::new();
    for edges in &parts {
        // follow the sends of this part from the root
        let mut depth = vec![usize::MAX; n];
        depth[root] = 0;
        let mut frontier = vec![root];
        let mut reached = 1;
        while let Some(x) = frontier.pop() {
            for &(f, t) in edges.iter().filter(|e| e.0 == x) {
                assert_eq!(depth[t], usize::MAX, "rank {t} reached twice");
                depth[t] = depth[f] + 1;
                reached += 1;
                frontier.push(t);
            }
        }
        assert_eq!(reached, n, "every rank reached exactly once");
        assert_eq!(edges.len(), n - 1);
        depths.push(depth.into_iter().max().unwrap());
    }
    depths
}

fn run(plan: &Path, extra: &[&str], out: &Path) -> Value {
    let mut args = vec![
        "schedule",
        plan.to_str().unwrap(),
        "--pattern",
        "bcast-multilane",
        "--out",
    ];
    args.push(out.to_str().unwrap());
    args.extend(extra);
    let (c, o, e) = ibfat(&args);
    assert_eq!(c, 0, "{args:?}: {o}{e}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
    assert_eq!(v["format"], "ibfat-bcast");
    assert_eq!(v["version"], 1);
    v
}

#[test]
fn files_meet_the_contract() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    build_plan(&["build", "lsft", "--order", "3"], &plan); // 52 hosts
    let out = dir.path().join("b.json");
    for lanes in ["1", "2", "3", "4"] {
        for root in ["0", "17", "51"] {
            // rank order: depth ≤ 2⌈log₂ N⌉ + 2
            let v = run(
                &plan,
                &["--lanes", lanes, "--root", root, "--placement", "rank-order"],
                &out,
            );
            assert_eq!(v["lanes"].as_array().unwrap().len(), lanes.parse::<usize>().unwrap());
            let d = prove(&v);
            if lanes != "1" {
                assert!(d.iter().all(|&d| d <= 14), "depth {d:?}");
            }
            // nested (leaves entered and left through one rank): deeper, still the contract
            let v = run(
                &plan,
                &["--lanes", lanes, "--root", root, "--placement", "nested"],
                &out,
            );
            let d = prove(&v);
            if lanes != "1" {
                assert!(d.iter().all(|&d| d <= 20), "nested depth {d:?}");
            }
        }
    }
    // a job: hosts in job-rank order, root a job rank
    let v = run(&plan, &["--job", "ranks:40-51,3-9", "--root", "4"], &out);
    assert_eq!(v["hosts"].as_array().unwrap().len(), 19);
    let all = run(&plan, &[], &out);
    assert_eq!(v["hosts"][0], all["hosts"][40]);
    assert_eq!(v["hosts"][12], all["hosts"][3]);
    prove(&v);
    // sites: one flow per part into every leaf's hosts but the root's
    let v = run(&plan, &["--sites", "--root", "5"], &out);
    prove(&v);
    let site = |r: usize| r / 4; // LSFT(3): 4 hosts per leaf, rank order by leaf
    for (part, _) in v["lanes"].as_array().unwrap().iter().enumerate() {
        let mut into = [0; 13];
        for lane in v["lanes"].as_array().unwrap() {
            for (from, s) in lane.as_array().unwrap().iter().enumerate() {
                if let Some(s) = s.as_array() {
                    let to = s[0].as_u64().unwrap() as usize;
                    if s[1].as_u64().unwrap() as usize == part && site(to) != site(from) {
                        into[site(to)] += 1;
                    }
                }
            }
        }
        for (s, &c) in into.iter().enumerate() {
            assert_eq!(c, usize::from(s != site(5)), "part {part} into site {s}");
        }
    }
}

#[test]
fn bad_requests_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    build_plan(&["build", "kary", "--arity", "2", "--levels", "3"], &plan);
    let out = dir.path().join("b.json");
    for extra in [
        vec!["--root", "8"],
        vec!["--job", "ranks:0-3", "--root", "4"],
        vec!["--lanes", "0"],
        vec!["--lanes", "9"],
        vec!["--message-size", "NaN"],
        vec!["--message-size", "inf"],
        vec!["--message-size", "0"],
        vec!["--latency", "-1"],
        vec!["--bandwidth", "0"],
        vec!["--segment", "nan"],
    ] {
        let mut args = vec![
            "schedule",
            plan.to_str().unwrap(),
            "--pattern",
            "bcast-multilane",
            "--out",
        ];
        args.push(out.to_str().unwrap());
        args.extend(extra.iter());
        let (c, _, e) = ibfat(&args);
        assert_eq!(c, 2, "{extra:?}: {e}");
        assert!(!out.exists(), "{extra:?}: nothing written");
    }
    // a message smaller than the lanes is priced (one byte per part), not a panic
    let (c, o, e) = ibfat(&[
        "schedule",
        plan.to_str().unwrap(),
        "--pattern",
        "bcast-multilane",
        "--lanes",
        "2",
        "--message-size",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{o}{e}");
    assert!(out.exists());
}

/// The report checks every lane's steady state on ibfat's tables; chaining the leaves
/// keeps all but one flow per part inside a leaf, which on LSFT(3) is conflict-free.
#[test]
fn the_steady_state_is_checked_on_ibfats_tables() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    build_plan(&["build", "lsft", "--order", "3"], &plan);
    let ratios = |extra: &[&str]| -> Vec<f64> {
        let v = report(&plan, extra);
        assert_eq!(v["schema"], "ibfat.schedule-bcast/1");
        let s = v["steady_state"].as_array().unwrap();
        assert_eq!(s.len(), 2);
        s.iter().map(|l| l["throughput_ratio"].as_f64().unwrap()).collect()
    };
    let trees = ratios(&[]);
    let sites = ratios(&["--sites"]);
    assert!(trees.iter().all(|&r| r > 0.0 && r <= 1.0), "{trees:?}");
    assert_eq!(sites, vec![1.0, 1.0], "leaf chaining on LSFT(3)");
}

fn report(plan: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "schedule",
        plan.to_str().unwrap(),
        "--pattern",
        "bcast-multilane",
        "--json",
    ];
    args.extend(extra);
    let (c, o, e) = ibfat(&args);
    assert_eq!(c, 0, "{args:?}: {o}{e}");
    serde_json::from_str(&o).unwrap()
}

fn algorithm<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["comparison"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["algorithm"] == name)
        .unwrap_or_else(|| panic!("{name} in {v}"))
}

/// Issue 14 item 3: the nested placement's steady state is conflict-free on LSFT, k-ary
/// and MOLS fabrics, whole and for a job, on one rail (lanes measured apart) and on two
/// rails (lane k on rail k); the report compares it, measured on the same tables, with
/// rank order, a binary tree, a binomial tree and a chain, and prices them (item 4).
#[test]
fn nested_placement_is_conflict_free_and_compared_on_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    for (name, build, job) in [
        ("lsft4", vec!["build", "lsft", "--order", "4"], None),
        (
            "kary4x3",
            vec!["build", "kary", "--arity", "4", "--levels", "3"],
            Some("ranks:2-20,40-60,63"),
        ),
        ("mols4", vec!["build", "mols", "--arity", "4"], None),
        (
            "lsft3x2",
            vec!["build", "lsft", "--order", "3", "--rails", "2"],
            Some("ranks:1-30,44"),
        ),
        (
            "kary3x3x2",
            vec!["build", "kary", "--arity", "3", "--levels", "3", "--rails", "2"],
            None,
        ),
    ] {
        let plan = dir.path().join(name);
        build_plan(&build, &plan);
        let mut extra = vec!["--placement", "nested", "--root", "3"];
        if let Some(j) = job {
            extra.extend(["--job", j]);
        }
        let v = report(&plan, &extra);
        let rails = v["rails"].as_u64().unwrap();
        assert_eq!(rails, if name.ends_with("x2") { 2 } else { 1 }, "{name}");
        assert_eq!(v["placement"], "nested");
        for l in v["steady_state"].as_array().unwrap() {
            assert_eq!(l["max_congestion"], 1, "{name}: {v}");
            assert_eq!(l["throughput_ratio"], 1.0, "{name}");
        }
        let nested = algorithm(&v, "multilane-nested");
        // on one rail both lanes share each host's port: two flows on its cable
        let want = if rails == 2 { 1 } else { 2 };
        assert_eq!(nested["congestion"][0], want, "{name}: {nested}");
        assert_eq!(nested["bandwidth_share"].as_f64().unwrap(), 2.0 / want as f64);
        for other in ["multilane-rank-order", "binary-tree", "binomial-tree", "chain"] {
            let o = algorithm(&v, other);
            assert!(
                o["plan_bandwidth_ratio"].as_f64().unwrap() >= 1.0,
                "{name} {other}: {o}"
            );
            assert!(o["predicted_seconds"].as_f64().unwrap() > 0.0);
        }
        // a pipelined chain moves one flow per link; a binary tree shares the parent's cable
        assert_eq!(algorithm(&v, "chain")["congestion"][0], 1, "{name}");
        assert!(algorithm(&v, "binary-tree")["congestion"][0].as_u64().unwrap() >= 2);
        if rails == 2 {
            // two rails: nested delivers twice the chain's bandwidth, and beats rank order
            assert_eq!(algorithm(&v, "chain")["plan_bandwidth_ratio"], 2.0, "{name}");
        }
    }
}

/// `auto` picks the placement the cost model predicts faster: the shallow rank order for
/// tiny messages, the conflict-free nested one for large ones (dual-rail LSFT(3)); the
/// plot is written; bad requests write nothing.
#[test]
fn auto_placement_follows_the_message_size_and_bad_requests_fail() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    build_plan(&["build", "lsft", "--order", "3", "--rails", "2"], &plan);
    let small = report(&plan, &["--message-size", "64"]);
    assert_eq!(small["placement"], "rank-order");
    let svg = dir.path().join("t.svg");
    let large = report(&plan, &["--message-size", "16777216", "--plot", svg.to_str().unwrap()]);
    assert_eq!(large["placement"], "nested");
    let t = |v: &Value, n: &str| algorithm(v, n)["predicted_seconds"].as_f64().unwrap();
    assert!(t(&small, "multilane-rank-order") <= t(&small, "multilane-nested"));
    assert!(t(&large, "multilane-nested") < t(&large, "multilane-rank-order"));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("multilane-nested") && text.contains("binomial-tree"));
    // a fixed segment is used as given
    let v = report(&plan, &["--segment", "4096"]);
    assert_eq!(algorithm(&v, "chain")["segment_bytes"], 4096.0);
    let out = dir.path().join("b.json");
    let plot = dir.path().join("p.svg");
    for extra in [vec!["--lanes", "3"], vec!["--segment", "0"], vec!["--rail", "2"]] {
        let mut args = vec![
            "schedule",
            plan.to_str().unwrap(),
            "--pattern",
            "bcast-multilane",
            "--out",
            out.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
        ];
        args.extend(extra.iter());
        let (c, _, e) = ibfat(&args);
        assert_eq!(c, 2, "{extra:?}: {e}");
        assert!(!out.exists() && !plot.exists(), "{extra:?}: nothing written");
    }
    // a dump in which one host lost its rail-1 cable: both ends of that cable removed
    let net = std::fs::read_to_string(plan.join("topology.net")).unwrap();
    let lines: Vec<&str> = net.lines().collect();
    let hca = lines.iter().position(|l| l.starts_with("Hca")).unwrap();
    let host = lines[hca].split('"').nth(1).unwrap().to_string();
    let cable = lines[hca..].iter().position(|l| l.starts_with("[2]")).unwrap() + hca;
    let (sw, sw_port) = {
        let l = lines[cable];
        let name = l.split('"').nth(1).unwrap().to_string();
        let port = l.rsplit('[').next().unwrap().trim_end_matches(']').to_string();
        (name, port)
    };
    let mut in_sw = false;
    let kept: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|&(i, l)| {
            if l.starts_with("Switch") || l.starts_with("Hca") {
                in_sw = l.contains(&format!("\"{sw}\""));
            }
            let far_end = in_sw && l.starts_with(&format!("[{sw_port}]")) && l.contains(&format!("\"{host}\""));
            i != cable && !far_end
        })
        .map(|(_, l)| *l)
        .collect();
    let broken = dir.path().join("broken.net");
    std::fs::write(&broken, kept.join("\n") + "\n").unwrap();
    let (c, _, e) = ibfat(&[
        "schedule",
        broken.to_str().unwrap(),
        "--pattern",
        "bcast-multilane",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains(&host) && e.contains("rail 1"), "{e}");
    assert!(!out.exists());
}
