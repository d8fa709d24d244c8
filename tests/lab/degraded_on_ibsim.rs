//! Degraded-fabric recognition on real components (issue 12, item 1): an LSFT(5) with
//! shuffled ports runs in ibsim; the ibsim commands `ibfat faults` writes cut 5 cables and
//! kill a spine in the running simulation; `ibnetdiscover` reads the fabric back, and
//! `ibfat recognize` names exactly the cables and the spine that were cut, by GUID.

use crate::harness;

use crate::harness::{ibfat, Sim};
use serde_json::Value;
use std::collections::BTreeSet;

#[test]
fn faults_cut_in_ibsim_are_recognised_from_ibnetdiscover() {
    let t = tempfile::tempdir().unwrap();
    let (plan, drill, o) =
        harness::lsft_with_faults(t.path(), 5, 11, "drill", &["--cut", "5", "--seed", "3", "--dead", "S7"]);
    let injected: Value = serde_json::from_str(&o).unwrap();
    let want: BTreeSet<(String, String)> = injected["cut"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let mut ends = [
                c[0]["guid"].as_str().unwrap().to_string(),
                c[1]["guid"].as_str().unwrap().to_string(),
            ];
            ends.sort();
            (ends[0].clone(), ends[1].clone())
        })
        .collect();
    assert_eq!(want.len(), 5);

    let sim = Sim::start(&plan.join("topology.net"));
    let commands = std::fs::read_to_string(drill.join("cut.ibsim")).unwrap();
    for cmd in commands.lines() {
        sim.console(cmd);
    }
    let disc = t.path().join("ibnetdiscover.txt");
    std::fs::write(&disc, sim.ibnetdiscover(&[])).unwrap();
    let (c, o, e) = ibfat(&["recognize", disc.to_str().unwrap(), "--json"]);
    assert_eq!(c, 1, "defects found: {o}{e}");
    let v: Value = serde_json::from_str(&o).unwrap();
    assert_eq!(
        (v["family"].as_str(), v["order"].as_u64()),
        (Some("lsft"), Some(5)),
        "{o}"
    );
    let faults = v["faults"].as_array().unwrap();
    let got: BTreeSet<(String, String)> = faults
        .iter()
        .filter(|f| f["kind"] == "missing-cable")
        .map(|f| {
            let mut ends = [
                f["leaf"]["guid"].as_str().unwrap().to_string(),
                f["spine"]["guid"].as_str().unwrap().to_string(),
            ];
            ends.sort();
            (ends[0].clone(), ends[1].clone())
        })
        .collect();
    assert_eq!(got, want, "{o}");
    assert_eq!(faults.iter().filter(|f| f["kind"] == "dead-spine").count(), 1, "{o}");
    assert_eq!(faults.len(), 6, "{o}");
}

/// `ibfat route` on a degraded LSFT: stock OpenSM's file engine, given the dump and
/// guid2lid, programs exactly those tables into the simulated degraded fabric (read back
/// with `dump_lfts`), and the tables the switches hold pass the per-VL deadlock check with
/// ibfat's SLs and SL-to-VL rule.
#[test]
fn degraded_routes_are_programmed_by_opensm_exactly() {
    use ibfat::check::vls::check_vls;
    use ibfat::formats::{dump, guid2lid, lftdump};
    use ibfat::recognize::{recognize, Recognition};
    use std::path::Path;
    let t = tempfile::tempdir().unwrap();
    let (_, cut, _) = harness::lsft_with_faults(t.path(), 5, 12, "cut", &["--cut", "8", "--seed", "5", "--dead", "S3"]);
    let cs = cut.to_str().unwrap();
    let net = cut.join("topology.net");
    let (c, o, e) = ibfat(&["route", net.to_str().unwrap(), "--out", cs]);
    assert_eq!(c, 0, "{o}{e}");

    let fabric = dump::read(&net).unwrap().fabric;
    let g2l = std::fs::read_to_string(cut.join("guid2lid")).unwrap();
    let lids = guid2lid::parse(&fabric, &g2l, Path::new("guid2lid")).unwrap();
    let ours = lftdump::read(&cut.join("opensm-lfts.dump"), &fabric, &lids).unwrap();
    let sim = Sim::start(&net);
    let run = sim.opensm(&harness::OsmConfig {
        engine: "file".into(),
        lfts_file: Some(cut.join("opensm-lfts.dump")),
        guid2lid: Some(g2l.clone()),
        ..Default::default()
    });
    assert!(run.success, "{}", harness::tail(&run.log, 30));
    assert_eq!(
        run.configured_by().as_deref(),
        Some("file"),
        "{}",
        harness::tail(&run.log, 30)
    );
    let programmed = sim.tables_for(&fabric, &lids);
    harness::assert_same_tables(&fabric, &ours, &programmed, "degraded");
    let Recognition::Unrecognized { degraded: Some(d), .. } = recognize(&fabric, None) else {
        panic!("not degraded")
    };
    let r = harness::route_degraded(&fabric, &d, &lids, &ibfat::routing::Ask::default(), "degraded");
    let lanes = r.lanes.as_deref().expect("a degraded LSFT's lanes");
    let v = check_vls(
        &fabric,
        &lids,
        &programmed,
        |s, l| lanes.sl(s, l),
        |w, s, i, o| lanes.vl(w, s, i, o),
    );
    // the VLs the routes declare (2, or 3 when one turns twice)
    assert!(v.ok() && v.vls == r.data_vls() && v.sl_paths > 0, "{v:?}");
}
