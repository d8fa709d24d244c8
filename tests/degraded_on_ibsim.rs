//! Degraded-fabric recognition on real components (issue 12, item 1): an LSFT(5) with
//! shuffled ports runs in ibsim; the ibsim commands `ibfat faults` writes cut 5 cables and
//! kill a spine in the running simulation; `ibnetdiscover` reads the fabric back, and
//! `ibfat recognize` names exactly the cables and the spine that were cut, by GUID.

mod harness;

use harness::{ibfat, Sim};
use serde_json::Value;
use std::collections::BTreeSet;

#[test]
fn faults_cut_in_ibsim_are_recognised_from_ibnetdiscover() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    let p = plan.to_str().unwrap();
    let (c, _, e) = ibfat(&[
        "build",
        "lsft",
        "--order",
        "5",
        "--shuffle",
        "11",
        "--no-svg",
        "--out",
        p,
    ]);
    assert_eq!(c, 0, "{e}");
    let drill = t.path().join("drill");
    let (c, o, e) = ibfat(&[
        "faults",
        p,
        "--cut",
        "5",
        "--seed",
        "3",
        "--dead",
        "S7",
        "--out",
        drill.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(c, 0, "{e}");
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
