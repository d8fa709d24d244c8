//! Multi-rail plans from the command line: every family builds `--rails 2`, the plan files
//! say so (net file with 2-port HCAs, `cables.csv` rail column, `fabric.yaml rails: 2`),
//! the spec rebuilds the same fabric, `recognize` names each rail, `route --rail k`
//! routes each plane on its own, and bad rails are clear errors with nothing written.

use crate::harness::ibfat;
use ibfat::formats::dump;
use ibfat::topology::rails;

const FAMILIES: &[&[&str]] = &[
    &["build", "lsft", "--order", "2"],
    &["build", "kary", "--arity", "2", "--levels", "3"],
    &["build", "mols", "--arity", "3"],
    &["build", "pgft", "--down", "4,4", "--up", "1,2", "--parallel", "1,2"],
    &["build", "fullmesh", "--switches", "4", "--hosts-per-switch", "2"],
    &[
        "build",
        "twolevel",
        "--leaves",
        "4",
        "--hosts-per-leaf",
        "3",
        "--spines",
        "2",
    ],
];

#[test]
fn every_family_builds_two_rails_that_recognise_and_route_one_by_one() {
    for build in FAMILIES {
        let dir = tempfile::tempdir().unwrap();
        let plan = dir.path().join("plan");
        let plan_s = plan.to_str().unwrap();
        let mut args = build.to_vec();
        args.extend(["--rails", "2", "--out", plan_s]);
        let (c, o, e) = ibfat(&args);
        assert_eq!(c, 0, "{build:?}: {o}{e}");
        let single = dir.path().join("single");
        let mut args1 = build.to_vec();
        args1.extend(["--out", single.to_str().unwrap(), "--no-svg"]);
        assert_eq!(ibfat(&args1).0, 0);
        let one = dump::read(&single.join("topology.net")).unwrap().fabric;
        let all = dump::read(&plan.join("topology.net")).unwrap().fabric;
        assert_eq!(all.switches().count(), 2 * one.switches().count(), "{build:?}");
        assert_eq!(all.link_count(), 2 * one.link_count(), "{build:?}");
        assert!(
            all.cas().all(|h| all.node(h).nports == 2),
            "{build:?}: one HCA, two ports"
        );
        assert_eq!(rails::rails_of(&all).unwrap().len(), 2);

        let yaml = std::fs::read_to_string(plan.join("fabric.yaml")).unwrap();
        assert!(yaml.lines().any(|l| l == "rails: 2"), "{yaml}");
        let csv = std::fs::read_to_string(plan.join("cables.csv")).unwrap();
        let mut lines = csv.lines();
        assert!(lines.next().unwrap().ends_with(",rail"));
        let per_rail = |k: &str| csv.lines().skip(1).filter(|l| l.ends_with(&format!(",{k}"))).count();
        assert_eq!(per_rail("0"), one.link_count(), "{build:?}");
        assert_eq!(per_rail("1"), one.link_count(), "{build:?}");
        assert!(plan.join("topology.svg").is_file() && plan.join("topology.dot").is_file());

        // the spec rebuilds the identical dual-rail fabric
        let again = dir.path().join("again");
        let (c, o, e) = ibfat(&[
            "build",
            "--spec",
            plan.join("fabric.yaml").to_str().unwrap(),
            "--out",
            again.to_str().unwrap(),
            "--no-svg",
        ]);
        assert_eq!(c, 0, "{o}{e}");
        assert_eq!(
            std::fs::read_to_string(again.join("topology.net")).unwrap(),
            std::fs::read_to_string(plan.join("topology.net")).unwrap()
        );

        // recognition: both rails, each its family
        let (c, o, e) = ibfat(&["recognize", plan.join("topology.net").to_str().unwrap(), "--json"]);
        assert_eq!(c, 0, "{build:?}: {o}{e}");
        let v: serde_json::Value = serde_json::from_str(&o).unwrap();
        let fam = if build[1] == "twolevel" { "pgft" } else { build[1] };
        for k in 0..2 {
            assert_eq!(v["rails"][k]["rail"], k, "{o}");
            assert_eq!(v["rails"][k]["family"], fam, "{build:?}: {o}");
        }

        // routing: a fabric of two subnets needs --rail; each rail routes on its own
        let (c, _, e) = ibfat(&["route", plan_s, "--out", dir.path().join("r").to_str().unwrap()]);
        assert_eq!(c, 2, "{e}");
        assert!(e.contains("--rail"), "{e}");
        assert!(!dir.path().join("r").exists(), "nothing written");
        for k in ["0", "1"] {
            let out = dir.path().join(format!("rail{k}"));
            let (c, o, e) = ibfat(&["route", plan_s, "--rail", k, "--out", out.to_str().unwrap()]);
            assert_eq!(c, 0, "{build:?} rail {k}: {o}{e}");
            let g2l = std::fs::read_to_string(out.join("guid2lid")).unwrap();
            // the LIDs go to the HCA port of this rail: node GUID + k + 1
            let port = k.parse::<u64>().unwrap() + 1;
            let h = all.cas().next().unwrap();
            assert!(g2l.contains(&format!("0x{:016x}", all.node(h).guid + port)), "{g2l}");
        }
    }
}

#[test]
fn bad_rails_are_input_errors_with_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    for bad in ["0", "5"] {
        let out = dir.path().join(format!("bad{bad}"));
        let (c, _, e) = ibfat(&[
            "build",
            "lsft",
            "--order",
            "2",
            "--rails",
            bad,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(c, 2, "--rails {bad}: {e}");
        assert!(e.contains("rails"), "{e}");
        assert!(!out.exists());
    }
    let plan = dir.path().join("plan");
    let (c, _, _) = ibfat(&[
        "build",
        "lsft",
        "--order",
        "2",
        "--rails",
        "2",
        "--out",
        plan.to_str().unwrap(),
    ]);
    assert_eq!(c, 0);
    let out = dir.path().join("r2");
    let (c, _, e) = ibfat(&[
        "route",
        plan.to_str().unwrap(),
        "--rail",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("no rail 2"), "{e}");
    assert!(!out.exists());
    // a spec edited to an impossible rail count
    let yaml = std::fs::read_to_string(plan.join("fabric.yaml"))
        .unwrap()
        .replace("rails: 2", "rails: 9");
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, yaml).unwrap();
    let (c, _, e) = ibfat(&["build", "--spec", bad.to_str().unwrap(), "--json"]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("bad.yaml") && e.contains("rails: 9"), "{e}");
    // a host missing its rail 1 cable
    let net = std::fs::read_to_string(plan.join("topology.net")).unwrap();
    let broken = net
        .replacen("Hca\t2 \"H0_0\"", "Hca\t1 \"H0_0\"", 1)
        .replacen("[2]\t\"L0-r1\"[1]\n", "", 1);
    let broken = broken.replacen("[1]\t\"H0_0\"[2]\n", "", 1);
    let f = dir.path().join("broken.net");
    std::fs::write(&f, broken).unwrap();
    for args in [vec!["recognize"], vec!["route", "--rail", "0", "--out", "x"]] {
        let mut args = args.clone();
        args.insert(1, f.to_str().unwrap());
        let (c, o, e) = ibfat(&args);
        assert_eq!(c, 2, "{args:?}: {o}{e}");
        assert!(e.contains("H0_0 has no cable on rail 1"), "{e}");
    }
}

/// `--rail K` on the commands that read one subnet: `lfts validate` and `check` of rail k's
/// own tables, `predict` and `plan-paths` on rail k's plane; a rail the fabric does not
/// have is an input error.
#[test]
fn validate_check_predict_and_plan_paths_take_a_rail() {
    for build in [FAMILIES[0], FAMILIES[1]] {
        let dir = tempfile::tempdir().unwrap();
        let plan = dir.path().join("plan");
        let plan_s = plan.to_str().unwrap();
        let mut args = build.to_vec();
        args.extend(["--rails", "2", "--no-svg", "--out", plan_s]);
        assert_eq!(ibfat(&args).0, 0);
        for k in ["0", "1"] {
            let out = dir.path().join(format!("rail{k}"));
            let (c, o, e) = ibfat(&["route", plan_s, "--rail", k, "--out", out.to_str().unwrap()]);
            assert_eq!(c, 0, "{o}{e}");
            let dump = out.join("opensm-lfts.dump");
            let g2l = out.join("guid2lid");
            let tables = ["--lfts", dump.to_str().unwrap(), "--lids", g2l.to_str().unwrap()];
            let mut v = vec!["lfts", "validate", plan_s, "--rail", k, "--json"];
            v.extend(tables);
            let (c, o, e) = ibfat(&v);
            assert_eq!(c, 0, "{build:?} rail {k}: {o}{e}");
            let j: serde_json::Value = serde_json::from_str(&o).unwrap();
            assert_eq!(j["ok"], true, "{o}");
            let mut ch = vec!["check", plan_s, "--rail", k, "--pattern", "shift", "--json"];
            ch.extend(tables);
            let (c, o, e) = ibfat(&ch);
            // exit 1 = link conflicts found: the shift is not conflict-free on every family
            assert!(c == 0 || c == 1, "{build:?} rail {k}: {o}{e}");
            let j: serde_json::Value = serde_json::from_str(&o).unwrap();
            assert_eq!(j["unrouted_flows"], 0, "{o}");
            // one rail's hosts: LSFT(2) 21, the 2-ary 3-tree 8
            assert_eq!(j["ranks"], if build[1] == "lsft" { 21 } else { 8 }, "{o}");
            let (c, o, e) = ibfat(&[
                "predict",
                plan_s,
                "--rail",
                k,
                "--job",
                "ranks:0-3",
                "--msg-size",
                "4K",
                "--json",
            ]);
            assert_eq!(c, 0, "{build:?} rail {k}: {o}{e}");
        }
        let (c, _, e) = ibfat(&[
            "predict",
            plan_s,
            "--rail",
            "2",
            "--job",
            "ranks:0-3",
            "--msg-size",
            "4K",
        ]);
        assert_eq!(c, 2, "{e}");
        assert!(e.contains("rail"), "{e}");
    }
    // plan-paths (full meshes): each rail's plane
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("mesh");
    let mut args = FAMILIES[4].to_vec();
    args.extend(["--rails", "2", "--no-svg", "--out", plan.to_str().unwrap()]);
    assert_eq!(ibfat(&args).0, 0);
    for k in ["0", "1"] {
        let out = dir.path().join(format!("paths{k}.json"));
        let (c, o, e) = ibfat(&[
            "plan-paths",
            plan.to_str().unwrap(),
            "--rail",
            k,
            "--direct-share",
            "5",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(c, 0, "rail {k}: {o}{e}");
        assert!(out.is_file());
    }
}
