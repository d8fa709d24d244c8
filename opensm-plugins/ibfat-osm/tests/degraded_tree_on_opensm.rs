//! Degraded trees inside a stock OpenSM 3.3.23 (issues 12 and 21): cables of a running
//! ibsim 4-ary 3-tree, or of a MOLS(5) proximity 3-level tree with LMC 1, are cut and a top
//! switch is taken down with the commands `ibfat faults` writes; OpenSM keeps routing with
//! the ibfat engine — no fallback, no QoS needed (up*/down* on one VL; on the MOLS tree both
//! LMC routes) — and the LFTs the switches then hold (`dump_lfts`) are the library's
//! degraded routes and validate (loop-free, CDG acyclic). Restoring the cables brings the
//! intact tables back exactly.

#[path = "../../../tests/harness/mod.rs"]
mod harness;

use harness::{OsmConfig, Sim};
use ibfat::check::validate;
use ibfat::recognize::{recognize, FamilyHint, Recognition};
use ibfat::routing::degraded_mols::route_mols;
use ibfat::routing::degraded_pgft::route_pgft;
use ibfat::topology::degraded::Holes;

/// OpenSM at `lmc`, re-sweeping only when told, with a patient MAD timeout for a simulator
/// that shares 2 cores with the tests; ibfat first (validating, writing its schedule to
/// `schedule`), minhop behind it.
fn cfg(lmc: u8, schedule: &std::path::Path) -> OsmConfig {
    OsmConfig {
        extra_args: vec!["-s".into(), "0".into()],
        conf: vec!["transaction_timeout 1000".into()],
        ..OsmConfig {
            engine: "ibfat,minhop".into(),
            lmc,
            ..Default::default()
        }
        .with_ibfat_plugin(&format!("validate=1 schedule_out={}", schedule.display()))
    }
}

/// Build the plan `build`, cut 4 cables (seed 3) and kill `dead` in a running ibsim under
/// OpenSM at `lmc`; the re-sweep must be ibfat's, logging `description` and a clean
/// validation. Then the switches must hold the routes `expect` computes for the degraded
/// fabric read back (it also checks the recognised family), which must validate, and the
/// schedule the plugin wrote must be the family's `pattern` repaired for them: every
/// ordered pair of the `hosts` once, conflict-free on the tables read back with the real
/// tools. Then the cables come back and so do the intact tables.
fn degraded_tree(
    build: &[&str],
    dead: &str,
    lmc: u8,
    description: &str,
    pattern: &str,
    hosts: u64,
    expect: impl Fn(&ibfat::topology::Fabric, &ibfat::routing::Lids) -> ibfat::routing::LftSet,
) {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    harness::build_plan(build, &plan);
    let cut = t.path().join("cut");
    let (code, out, err) = harness::ibfat(&[
        "faults",
        plan.to_str().unwrap(),
        "--cut",
        "4",
        "--seed",
        "3",
        "--dead",
        dead,
        "--out",
        cut.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let sim = Sim::start(&plan.join("topology.net"));
    let sched = t.path().join("schedule.json");
    let mut osm = sim.opensm_daemon(&cfg(lmc, &sched));
    osm.routed_by_ibfat(1, "intact");
    for cmd in std::fs::read_to_string(cut.join("cut.ibsim")).unwrap().lines() {
        sim.console(cmd);
    }
    let before = osm.log().matches("tables configured on all switches").count();
    osm.sighup();
    osm.routed_by_ibfat(before + 1, "cut");
    let log = osm.log();
    assert!(
        log.contains(&format!("ibfat: degraded fabric: {description}")),
        "{}",
        harness::tail(&log, 40)
    );
    assert!(
        log.contains("ibfat: up*/down* around the faults on one VL")
            && log.contains("ibfat: validation: 0 loops, 0 misdelivered, 0 broken host routes (0 unrouted pairs), CDG of host routes acyclic"),
        "{}",
        harness::tail(&log, 40)
    );

    // the LFTs the switches hold are the library's degraded routes, and they validate
    let (fabric, lids, programmed) = sim.programmed();
    assert_eq!(lids.lmc, lmc);
    harness::assert_same_tables(&fabric, &expect(&fabric, &lids), &programmed, "cut");
    let v = validate(&fabric, &lids, &programmed, None);
    assert!(
        v.loops == 0 && v.misdelivered == 0 && v.deadlock_free && v.data_path_ok && v.broken_host_routes == 0,
        "{v:?}"
    );

    // the schedule the plugin wrote for the degraded tables is repaired for them
    assert!(
        log.contains(&format!(
            "ibfat: wrote the {pattern} schedule repaired for the degraded tables ({hosts} ranks"
        )),
        "{}",
        harness::tail(&log, 40)
    );
    let r = harness::check_on_read_back(&sim, t.path(), &sched, description);
    assert_eq!(r["max_congestion"], 1, "{r}");
    assert_eq!(r["unrouted_flows"], 0, "{r}");
    assert_eq!(
        r["flows"].as_u64().unwrap(),
        hosts * (hosts - 1),
        "every ordered pair once: {r}"
    );

    // repair: the intact tables come back exactly
    harness::restore_and_expect_intact(&sim, &mut osm, &cut);
    osm.stop();
}

#[test]
fn degraded_kary_tree_is_routed_by_the_plugin() {
    degraded_tree(
        &["build", "kary", "--arity", "4", "--levels", "3", "--shuffle", "7"],
        "S3_5",
        0,
        "k-ary n-tree 4-ary 3-tree, degraded: 4 missing cables, 1 dead switches",
        "kary-shift",
        64,
        |fabric, lids| {
            let Recognition::Unrecognised { degraded: Some(d), .. } = recognize(fabric, None) else {
                panic!("the cut fabric is not recognised as a degraded tree")
            };
            assert_eq!((d.family, d.faults.len()), (FamilyHint::Kary, 5));
            let Holes::Pgft(h) = &d.holes else {
                panic!("not a tree's holes")
            };
            let want = route_pgft(fabric, h, lids).unwrap();
            assert_eq!(want.unrouted, 0);
            want.lfts
        },
    );
}

/// MOLS(5) with LMC 1 (both the d-mod-k and the latency routes kept where they survive).
#[test]
fn degraded_mols_tree_is_routed_by_the_plugin() {
    degraded_tree(
        &["build", "mols", "--arity", "5", "--wiring", "mols", "--shuffle", "5"],
        "T3_2",
        1,
        "MOLS 3-level proximity tree arity 5 wiring mols, degraded: 4 missing cables, 1 dead switches",
        "mols-shift",
        125,
        |fabric, lids| {
            let Recognition::Unrecognised { degraded: Some(d), .. } = recognize(fabric, None) else {
                panic!("the cut fabric is not recognised as a degraded MOLS tree")
            };
            assert_eq!((d.family, d.faults.len()), (FamilyHint::Mols, 5));
            assert!(
                d.faults.iter().any(|f| f.describe().starts_with("switch T(")),
                "{:?}",
                d.faults
            );
            let Holes::Mols(h) = &d.holes else {
                panic!("not a MOLS tree's holes")
            };
            let want = route_mols(fabric, h, lids).unwrap();
            assert_eq!(want.unrouted, 0);
            want.lfts
        },
    );
}
