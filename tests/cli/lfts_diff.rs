//! `ibfat lfts diff` (issue 21 item 4): the entries that changed between two real dumps —
//! ibfat's tables of a healthy LSFT and its tables after one cable is cut — listed per
//! switch, checked against a comparison of the two tables made here, independently of the
//! command; identical dumps exit 0, different ones 1, bad input 2, an unreadable file 3.

use crate::harness::{build_plan, ibfat};
use ibfat::formats::dump::ParseOptions;
use ibfat::formats::lftdump;
use ibfat::load::{load, Recognize};
use ibfat::routing::{route, LftSet, NO_ROUTE};
use ibfat::topology::{Fabric, NodeKind};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// (switch GUID, LID) -> (old port, new port) for every entry that differs, `None` where
/// a table routes nothing; and the number of entries either table routes.
type Changes = BTreeMap<(u64, u16), (Option<u8>, Option<u8>)>;

fn compare(fabric: &Fabric, old: &LftSet, new: &LftSet) -> (Changes, usize) {
    let mut changes = Changes::new();
    let mut compared = 0;
    let at = |t: &LftSet, sw, lid: u16| t.get(sw, lid).filter(|&p| p != NO_ROUTE);
    let width = old.stride.max(new.stride) as u16;
    for &sw in &old.switches {
        for lid in 1..width {
            let (a, b) = (at(old, sw, lid), at(new, sw, lid));
            if a.is_some() || b.is_some() {
                compared += 1;
            }
            if a != b {
                changes.insert((fabric.node(sw).guid, lid), (a, b));
            }
        }
    }
    (changes, compared)
}

fn guid(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

fn port(v: &Value) -> Option<u8> {
    v.as_u64().map(|p| p as u8)
}

/// `lfts diff --json`: exit code and report.
fn diff_json(topology: &Path, old: &Path, new: &Path) -> (i32, Value) {
    let args = [
        "lfts",
        "diff",
        topology.to_str().unwrap(),
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--json",
    ];
    let (code, out, err) = ibfat(&args);
    assert!(code == 0 || code == 1, "{args:?}: {code} {err}");
    (
        code,
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}")),
    )
}

#[test]
fn one_cut_cable_changes_what_the_tables_compared_here_say() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("lsft3");
    build_plan(&["build", "lsft", "--order", "3"], &plan);
    let (c, _, e) = ibfat(&["route", plan.to_str().unwrap(), "--out", plan.to_str().unwrap()]);
    assert_eq!(c, 0, "{e}");
    let old_dump = plan.join("opensm-lfts.dump");

    // the same fabric with the first switch-to-switch cable of the first leaf cut, routed
    // again (switch LIDs follow the cabling: up*/down* over what is left)
    let loaded = load(&plan, ParseOptions::default(), Recognize::Yes(None)).unwrap();
    loaded.topology().unwrap();
    let lids = loaded.own_lids().unwrap().unwrap();
    let healthy = loaded.fabric().clone();
    let layout = loaded.layout().unwrap();
    let old = route(&healthy, layout, &lids).unwrap();
    assert_eq!(
        lftdump::read(&old_dump, &healthy, &lids).unwrap(),
        old,
        "the CLI routes as the library"
    );
    let mut cut = healthy.clone();
    let leaf = cut.switches().next().unwrap();
    let p = (1..=cut.node(leaf).nports)
        .find(|&p| {
            cut.peer(leaf, p)
                .is_some_and(|(n, _)| cut.node(n).kind == NodeKind::Switch)
        })
        .unwrap();
    cut.disconnect(leaf, p);
    let new = route(&cut, layout, &lids).unwrap();
    let new_dump = dir.path().join("after.dump");
    lftdump::write_opensm_file(&new_dump, &cut, &lids, &new).unwrap();

    let (want, compared) = compare(&healthy, &old, &new);
    assert!(!want.is_empty(), "cutting a cable changes some route");
    let (code, v) = diff_json(&plan, &old_dump, &new_dump);
    assert_eq!(code, 1, "different tables: exit 1");
    assert_eq!(v["schema"], "ibfat.lfts-diff/1");
    let mut got = Changes::new();
    let mut last = 0;
    for s in v["switches"].as_array().unwrap() {
        let g = guid(&s["guid"]);
        assert!(g > last, "switches in GUID order");
        last = g;
        let sw = healthy.switches().find(|&n| healthy.node(n).guid == g).unwrap();
        assert_eq!(s["lid"], lids.base[healthy.port_index(sw, 0) as usize]);
        assert!(!s["name"].as_str().unwrap().is_empty());
        for c in s["changes"].as_array().unwrap() {
            let lid = c["lid"].as_u64().unwrap() as u16;
            got.insert((g, lid), (port(&c["old"]), port(&c["new"])));
        }
    }
    assert_eq!(got, want, "the changed entries, switch by switch");
    let switches: std::collections::BTreeSet<u64> = want.keys().map(|k| k.0).collect();
    assert_eq!(v["switches_changed"], switches.len());
    assert_eq!(v["switches_compared"], healthy.switches().count());
    assert_eq!(v["entries_changed"], want.len());
    assert_eq!(v["entries_compared"], compared);
    let only = |f: fn(&(Option<u8>, Option<u8>)) -> bool| want.values().filter(|c| f(c)).count();
    assert_eq!(v["entries_only_old"], only(|c| c.1.is_none()));
    assert_eq!(v["entries_only_new"], only(|c| c.0.is_none()));
    let fraction = v["changed_fraction"].as_f64().unwrap();
    assert!((fraction - want.len() as f64 / compared as f64).abs() < 1e-12);
    assert!(v["switches_only_old"].as_array().unwrap().is_empty());

    // the text report: one line per changed entry, and the totals
    let (code, text, _) = ibfat(&[
        "lfts",
        "diff",
        plan.to_str().unwrap(),
        old_dump.to_str().unwrap(),
        new_dump.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert_eq!(text.lines().filter(|l| l.starts_with("  LID ")).count(), want.len());
    assert!(
        text.contains(&format!(
            "{} of {} switches changed; {} of {compared} entries changed",
            switches.len(),
            healthy.switches().count(),
            want.len()
        )),
        "{text}"
    );

    // identical dumps: exit 0, nothing listed
    let (code, v) = diff_json(&plan, &old_dump, &old_dump);
    assert_eq!(code, 0);
    assert_eq!(
        (v["entries_changed"].as_u64(), v["switches"].as_array().map(Vec::len)),
        (Some(0), Some(0))
    );
}

#[test]
fn a_switch_missing_from_a_dump_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("k");
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &plan);
    let p = plan.to_str().unwrap();
    assert_eq!(ibfat(&["route", p, "--out", p]).0, 0);
    let dump = plan.join("opensm-lfts.dump");
    let text = std::fs::read_to_string(&dump).unwrap();
    // drop the first switch section (header to its `lids dumped` footer)
    let end = text.find("lids dumped\n").unwrap() + "lids dumped\n".len();
    let first_guid = text[..end].split("guid ").nth(1).unwrap()[..18].to_string();
    let partial = dir.path().join("partial.dump");
    std::fs::write(&partial, &text[end..]).unwrap();
    let (code, v) = diff_json(&plan, &dump, &partial);
    assert_eq!(code, 1, "a switch missing from NEW is a difference");
    let only_old = v["switches_only_old"].as_array().unwrap();
    assert_eq!(only_old.len(), 1);
    assert_eq!(only_old[0]["guid"], first_guid);
    assert_eq!(v["entries_changed"], 0, "the other switches route alike");

    // a file that cannot be read: exit 3 (I/O, as every command); bad input: exit 2, the
    // file named
    let missing = dir.path().join("nope.dump");
    let (code, _, err) = ibfat(&["lfts", "diff", p, dump.to_str().unwrap(), missing.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("nope.dump"), "{err}");
    let other = dir.path().join("other");
    build_plan(&["build", "lsft", "--order", "2"], &other);
    assert_eq!(
        ibfat(&["route", other.to_str().unwrap(), "--out", other.to_str().unwrap()]).0,
        0
    );
    let foreign = other.join("opensm-lfts.dump");
    let (code, _, err) = ibfat(&["lfts", "diff", p, dump.to_str().unwrap(), foreign.to_str().unwrap()]);
    assert_eq!(code, 2, "a dump of another fabric: {err}");
    assert!(err.contains("not in the topology"), "{err}");
}
