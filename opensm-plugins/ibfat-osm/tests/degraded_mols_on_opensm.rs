//! A degraded MOLS proximity 3-level tree inside a stock OpenSM 3.3.23 (issue 12): a running
//! ibsim MOLS(5) with LMC 1 loses cables and a top switch through the commands `ibfat
//! faults` writes; OpenSM keeps routing with the ibfat engine — no fallback, one VL, both
//! LMC routes — and the LFTs the switches then hold (`dump_lfts`) are the library's
//! degraded routes and validate (loop-free, CDG acyclic). Restoring the cables brings the
//! intact tables back exactly.

#[path = "../../../tests/harness/mod.rs"]
mod harness;

use harness::{OsmConfig, Sim};
use ibfat::check::validate;
use ibfat::recognize::{recognize, FamilyHint, Recognition};
use ibfat::routing::degraded_mols::route_mols;
use ibfat::topology::degraded::Holes;

/// OpenSM with LMC 1, re-sweeping only when told, with a patient MAD timeout for a
/// simulator that shares 2 cores with the tests; ibfat first, minhop behind it.
fn cfg() -> OsmConfig {
    OsmConfig {
        extra_args: vec!["-s".into(), "0".into()],
        conf: vec!["transaction_timeout 1000".into()],
        ..OsmConfig {
            engine: "ibfat,minhop".into(),
            lmc: 1,
            ..Default::default()
        }
        .with_ibfat_plugin("validate=1")
    }
}

#[test]
fn degraded_mols_tree_is_routed_by_the_plugin() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    harness::build_plan(
        &["build", "mols", "--arity", "5", "--wiring", "mols", "--shuffle", "5"],
        &plan,
    );
    let cut = t.path().join("cut");
    let (code, out, err) = harness::ibfat(&[
        "faults",
        plan.to_str().unwrap(),
        "--cut",
        "4",
        "--seed",
        "3",
        "--dead",
        "T3_2",
        "--out",
        cut.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let sim = Sim::start(&plan.join("topology.net"));
    let mut osm = sim.opensm_daemon(&cfg());
    osm.routed_by_ibfat(1, "intact");
    for cmd in std::fs::read_to_string(cut.join("cut.ibsim")).unwrap().lines() {
        sim.console(cmd);
    }
    let before = osm.log().matches("tables configured on all switches").count();
    osm.sighup();
    osm.routed_by_ibfat(before + 1, "cut");
    let log = osm.log();
    assert!(
        log.contains(
            "ibfat: degraded fabric: MOLS 3-level proximity tree arity 5 wiring mols, degraded: 4 missing cables, 1 dead switches"
        ) && log.contains("ibfat:   fault: switch T("),
        "{}",
        harness::tail(&log, 40)
    );
    assert!(
        log.contains("ibfat: up*/down* around the faults on one VL")
            && log.contains("ibfat: validation: 0 loops, 0 misdelivered, 0 broken host routes (0 unrouted pairs), CDG of host routes acyclic"),
        "{}",
        harness::tail(&log, 40)
    );

    // the LFTs the switches hold are the library's degraded routes (LMC 1), and validate
    let (fabric, lids, programmed) = sim.programmed();
    assert_eq!(lids.lmc, 1);
    let Recognition::Unrecognised { degraded: Some(d), .. } = recognize(&fabric, None) else {
        panic!("the cut fabric is not recognised as a degraded MOLS tree")
    };
    assert_eq!((d.family, d.faults.len()), (FamilyHint::Mols, 5));
    let Holes::Mols(h) = &d.holes else {
        panic!("not a MOLS tree's holes")
    };
    let want = route_mols(&fabric, h, &lids).unwrap();
    assert_eq!(want.unrouted, 0);
    harness::assert_same_tables(&fabric, &want.lfts, &programmed, "cut");
    let v = validate(&fabric, &lids, &programmed, None);
    assert!(
        v.loops == 0 && v.misdelivered == 0 && v.deadlock_free && v.data_path_ok && v.broken_host_routes == 0,
        "{v:?}"
    );

    // repair: the intact tables come back exactly
    harness::restore_and_expect_intact(&sim, &mut osm, &cut);
    osm.stop();
}
