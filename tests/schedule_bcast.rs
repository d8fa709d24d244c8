//! `ibfat schedule --pattern bcast-multilane` from the command line: the file follows its
//! contract (docs/schedules.md §6) — hosts in job-rank order, every lane a partial
//! permutation, every part reaching every rank exactly once from the root — for whole
//! fabrics, jobs, roots, 1..4 lanes and chained sites; bad requests write nothing.

mod harness;

use harness::{build_plan, ibfat};
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
            let v = run(&plan, &["--lanes", lanes, "--root", root], &out);
            assert_eq!(v["lanes"].as_array().unwrap().len(), lanes.parse::<usize>().unwrap());
            let d = prove(&v);
            if lanes != "1" {
                assert!(d.iter().all(|&d| d <= 14), "depth {d:?}");
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
}

/// The report checks every lane's steady state on ibfat's tables; chaining the leaves
/// keeps all but one flow per part inside a leaf, which on LSFT(3) is conflict-free.
#[test]
fn the_steady_state_is_checked_on_ibfats_tables() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    build_plan(&["build", "lsft", "--order", "3"], &plan);
    let ratios = |extra: &[&str]| -> Vec<f64> {
        let mut args = vec![
            "schedule",
            plan.to_str().unwrap(),
            "--pattern",
            "bcast-multilane",
            "--json",
        ];
        args.extend(extra);
        let (c, o, e) = ibfat(&args);
        assert_eq!(c, 0, "{o}{e}");
        let v: Value = serde_json::from_str(&o).unwrap();
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
