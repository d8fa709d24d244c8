//! `ibfat recognize` and `ibfat cabling` on the captured fixtures: reports, exit codes
//! (0 recognised / matches, 1 unrecognised / mismatch, 2 bad input, 3 I/O) and help.

use crate::harness;

use crate::harness::ibfat;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
        .to_str()
        .unwrap()
        .to_string()
}

fn tmp_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn recognize_reports_and_exit_codes() {
    let (code, out, err) = ibfat(&["recognize", &fixture("lsft2/ibnetdiscover.txt")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("LSFT(2)") && out.contains("leaf -> point") && out.contains("spine -> line"),
        "{out}"
    );
    let (code, out, _) = ibfat(&["recognize", &fixture("kary2x3/ibnetdiscover-p.txt"), "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["family"].as_str(), v["arity"].as_u64(), v["levels"].as_u64()),
        (Some("kary"), Some(2), Some(3))
    );
    assert_eq!(v["equivalent"], "mols arity 2 wiring standard");
    assert_eq!(v["host_map"].as_array().unwrap().len(), 8);
    let (code, out, _) = ibfat(&["recognize", &fixture("mols3/ibnetdiscover-g.txt"), "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["family"].as_str(), v["wiring"].as_str()),
        (Some("mols"), Some("mols"))
    );
    // a plan folder's spec is recognised too
    let (code, _, err) = ibfat(&["recognize", &fixture("lsft3x2/fabric.yaml"), "--family", "lsft"]);
    assert_eq!(code, 0, "{err}");
    // not a family: exit 1 with the reason
    let (code, out, _) = ibfat(&["recognize", &fixture("router/ibnetdiscover.txt")]);
    assert_eq!(code, 1);
    assert!(out.contains("unrecognised: router \"router R1\""), "{out}");

    let dir = tempfile::tempdir().unwrap();
    let bad = tmp_file(dir.path(), "bad.txt", "Switch\t4 \"S-1\"\n[1]\t\"S-2\"[x]\n");
    let (code, _, err) = ibfat(&["recognize", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.txt:2: malformed port line"), "{err}");
    let (code, _, err) = ibfat(&["recognize", dir.path().join("absent.txt").to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    let (code, _, err) = ibfat(&["recognize", bad.to_str().unwrap(), "--family", "tree"]);
    assert_eq!(code, 2, "{err}");
    let (code, out, _) = ibfat(&["recognize", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Examples:") && out.contains("Exit codes"), "{out}");
}

#[test]
fn cabling_reports_and_exit_codes() {
    let plan = fixture("lsft2/fabric.yaml");
    for dump in [
        "ibnetdiscover.txt",
        "ibnetdiscover-p.txt",
        "ibnetdiscover-g.txt",
        "ibnetdiscover-f.txt",
    ] {
        let (code, out, err) = ibfat(&[
            "cabling",
            "--plan",
            &plan,
            "--discovered",
            &fixture(&format!("lsft2/{dump}")),
        ]);
        assert_eq!(code, 0, "{dump}: {out}{err}");
        assert!(out.contains("OK: the fabric matches the plan"), "{out}");
    }
    // a dump cut short: what it has is compared, the rest is listed, exit 1
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("lsft2/ibnetdiscover.txt")).unwrap();
    let cut = tmp_file(dir.path(), "cut.txt", &text[..text.len() / 2]);
    let (code, out, _) = ibfat(&[
        "cabling",
        "--plan",
        &plan,
        "--discovered",
        cut.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["faults"], 0, "{v:#}");
    assert!(!v["uncompared"].as_array().unwrap().is_empty());
    assert!(!v["problems"].as_array().unwrap().is_empty());
    assert!(v["matching_cables"].as_u64().unwrap() > 0);
    for key in ["missing", "extra", "miswired", "swapped", "degraded"] {
        assert!(v[key].is_array(), "{key}");
    }
    // bad plan: exit 2; a spec as the discovered fabric: exit 2
    let bad = tmp_file(dir.path(), "fabric.yaml", "family: lsft\norder: 6\n");
    let (code, _, err) = ibfat(&[
        "cabling",
        "--plan",
        bad.to_str().unwrap(),
        "--discovered",
        cut.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("fabric.yaml:2: order: 6 is not a prime power"), "{err}");
    let (code, _, err) = ibfat(&["cabling", "--plan", &plan, "--discovered", &plan]);
    assert_eq!(code, 2, "{err}");
    let (code, out, _) = ibfat(&["cabling", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Examples:") && out.contains("swapped"), "{out}");
}

/// An ibsim net file with every switch described as "SwitchIB Mellanox Technologies".
fn one_switch_description(net: &str) -> String {
    net.lines()
        .map(|l| match l.split_once("\t# \"") {
            Some((head, _)) if l.starts_with("Switch") => format!("{head}\t# \"SwitchIB Mellanox Technologies\"\n"),
            _ => format!("{l}\n"),
        })
        .collect()
}

/// Every switch with the same NodeDescription (as on real clusters): reports name each
/// switch by its description plus GUID (and LID when known), so links stay telling apart.
#[test]
fn switches_sharing_a_description_are_named_by_guid() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    harness::build_plan(&["build", "lsft", "--order", "2"], &plan);
    let net = std::fs::read_to_string(plan.join("topology.net")).unwrap();
    let same = one_switch_description(&net);
    let file = tmp_file(t.path(), "same.net", &same);
    let (code, out, err) = ibfat(&["check", file.to_str().unwrap(), "--pattern", "shift"]);
    assert!(code == 0 || code == 1, "{err}");
    let busiest = out.lines().find(|l| l.contains("busiest link")).expect(&out);
    assert!(
        busiest.contains("SwitchIB Mellanox Technologies [0x") && busiest.matches("[0x").count() == 2,
        "{busiest}"
    );
}

/// A 2-ary 3-tree at QDR whose cable S1_0 port 3 <-> S2_0 port 1 trained at DDR (both
/// ends): (plan folder, the net file with the slow cable).
fn tree_with_a_slow_cable(dir: &Path) -> (PathBuf, PathBuf) {
    let plan = dir.join("plan");
    harness::build_plan(
        &["build", "kary", "--arity", "2", "--levels", "3", "--link-speed", "QDR"],
        &plan,
    );
    let net = std::fs::read_to_string(plan.join("topology.net")).unwrap();
    let mut section = String::new();
    let slow: String = net
        .lines()
        .map(|l| {
            if l.starts_with("Switch") || l.starts_with("Hca") {
                section = l.split('"').nth(1).unwrap_or_default().to_string();
            }
            let hit = (section == "S1_0" && l.starts_with("[3]\t\"S2_0\"[1]"))
                || (section == "S2_0" && l.starts_with("[1]\t\"S1_0\"[3]"));
            if hit {
                format!("{}\n", l.replace("s=4", "s=2"))
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    assert_eq!(slow.matches("s=2").count(), 2, "both ends edited");
    (plan, tmp_file(dir, "slow.net", &slow))
}

/// A cable trained below its peers' rate is named by `recognize`, text and JSON, with
/// both ends, recognised fabric or not.
#[test]
fn recognize_names_a_cable_slower_than_its_peers() {
    let t = tempfile::tempdir().unwrap();
    let (_, file) = tree_with_a_slow_cable(t.path());
    let (code, out, err) = ibfat(&["recognize", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let line = out.lines().find(|l| l.contains("slow cable")).expect(&out);
    assert!(
        line.contains("4xDDR where its 15 switch-switch peers run 4xQDR")
            && line.contains("port 3")
            && line.contains("port 1")
            && line.contains("S1_0")
            && line.contains("S2_0"),
        "{line}"
    );
    let (_, json, _) = ibfat(&["recognize", file.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let c = &v["slow_cables"];
    assert_eq!(c.as_array().unwrap().len(), 1, "{v}");
    assert_eq!(c[0]["rate"], "4xDDR");
    assert_eq!(c[0]["peer_rate"], "4xQDR");
    assert_eq!(c[0]["peers"], 15);
    assert_eq!(c[0]["fraction"], 0.5);
}

/// `cabling` names the slow cable too: as its finding without a plan (exit 1), for
/// information next to the plan comparison.
#[test]
fn cabling_names_slow_cables_with_or_without_a_plan() {
    let t = tempfile::tempdir().unwrap();
    let (plan, file) = tree_with_a_slow_cable(t.path());
    let f = file.to_str().unwrap();
    let (code, out, err) = ibfat(&["cabling", f]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("SLOW (1)") && out.contains("reseat or replace"), "{out}");
    assert!(
        out.contains("4xDDR where its 15 switch-switch peers run 4xQDR"),
        "{out}"
    );
    let (_, json, _) = ibfat(&["cabling", f, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["plan"], serde_json::Value::Null);
    assert_eq!(v["faults"], 1);
    assert_eq!(v["slow_cables"][0]["rate"], "4xDDR");
    // the untouched plan net: nothing to report
    let (code, out, _) = ibfat(&["cabling", plan.join("topology.net").to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("OK: every cable runs at its peers' rate"), "{out}");
    // with the plan: listed for information next to the comparison
    let (_, out, _) = ibfat(&["cabling", plan.to_str().unwrap(), f]);
    assert!(out.contains("SLOW (vs. their peers, for information) (1)"), "{out}");
}

/// On a fabric whose switches all share one description, `cabling` names each end of a
/// finding by description plus GUID, so the fix says which switch to go to.
#[test]
fn cabling_names_switches_that_share_a_description_by_guid() {
    let t = tempfile::tempdir().unwrap();
    let (_, file) = tree_with_a_slow_cable(t.path());
    let net = std::fs::read_to_string(&file).unwrap();
    let same = one_switch_description(&net);
    let alike = tmp_file(t.path(), "alike.net", &same);
    let (code, out, err) = ibfat(&["cabling", alike.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    let slow = out.lines().skip_while(|l| !l.starts_with("SLOW")).nth(1).unwrap();
    assert_eq!(slow.matches("SwitchIB Mellanox Technologies [0x").count(), 2, "{slow}");
}
