//! Degraded trees inside a stock OpenSM 3.3.23 (issues 12 and 21): 1, 3 and 10 cables of a
//! running ibsim 4-ary 3-tree, or of a MOLS(5) proximity 3-level tree with LMC 1, are cut,
//! and a top switch is taken down, with the commands `ibfat faults` writes; OpenSM keeps routing with
//! the ibfat engine — no fallback, no QoS needed (up*/down* on one VL; on the MOLS tree both
//! LMC routes; switch-LID detours, which need a second VL, dropped with the reason) — and
//! the LFTs the switches then hold (`dump_lfts`) are the library's degraded routes without
//! the detours and validate (loop-free, CDG acyclic). Restoring the cables brings the
//! intact tables back exactly. With QoS on the detours are programmed: tree_lanes_on_opensm.rs.

use crate::harness;

use crate::harness::{OsmConfig, Sim};
use ibfat::check::validate;
use ibfat::families::Family;
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::Ask;
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

/// The fault drills every tree goes through in one OpenSM run (issue 12's matrix): 1, 3
/// and 10 random cables cut, and 4 cut with the top switch `dead` down; each is restored
/// before the next. (label, `ibfat faults` arguments, cables cut, switches dead); `expect` gets the last two
fn drills(dead: &str) -> Vec<(&'static str, Vec<String>, usize, usize)> {
    let a = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        ("1 cut", a(&["--cut", "1", "--seed", "5"]), 1, 0),
        ("3 cuts", a(&["--cut", "3", "--seed", "6"]), 3, 0),
        ("10 cuts", a(&["--cut", "10", "--seed", "7"]), 10, 0),
        (
            "4 cuts and a dead top",
            a(&["--cut", "4", "--seed", "3", "--dead", dead]),
            4,
            1,
        ),
    ]
}

/// Build the plan `build` and run it in ibsim under OpenSM at `lmc`; then, for every
/// drill of [`drills`]: cut the cables (and kill the switch) with the commands `ibfat
/// faults` writes and re-sweep. The pass must be ibfat's, logging `family`'s degraded
/// description and a clean validation; the switches must hold the routes `expect` computes
/// for the degraded fabric read back (given the faults it must list; it also checks the
/// recognised family), which must validate; the schedule the plugin wrote must be the
/// family's `pattern` repaired for them: every ordered pair of the `hosts` once,
/// conflict-free on the tables read back with the real tools. Restoring the cables brings
/// the intact tables back exactly.
fn degraded_tree(
    build: &[&str],
    dead: &str,
    lmc: u8,
    family: &str,
    pattern: &str,
    hosts: u64,
    expect: impl Fn(&ibfat::topology::Fabric, &ibfat::routing::Lids, (usize, usize)) -> ibfat::routing::LftSet,
) {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    harness::build_plan(build, &plan);
    let sim = Sim::start(&plan.join("topology.net"));
    let sched = t.path().join("schedule.json");
    let mut osm = sim.opensm_daemon(&cfg(lmc, &sched));
    osm.routed_by_ibfat(1, "intact");
    let mut dropped_passes = 0;
    for (i, (what, args, cuts, deads)) in drills(dead).into_iter().enumerate() {
        let name = format!("{family}, {what}");
        let drill = t.path().join(format!("drill{i}"));
        let mut a = vec!["faults", plan.to_str().unwrap()];
        a.extend(args.iter().map(String::as_str));
        a.extend(["--out", drill.to_str().unwrap()]);
        let (code, out, err) = harness::ibfat(&a);
        assert_eq!(code, 0, "{name}: {out}{err}");
        osm.resweep_after(&sim, &std::fs::read_to_string(drill.join("cut.ibsim")).unwrap(), &name);
        let log = osm.log();
        let pass = &log[log
            .rfind("ibfat: degraded fabric:")
            .unwrap_or_else(|| panic!("{name}: not degraded"))..];
        let description = format!("{family}, degraded: {cuts} missing cables, {deads} dead switches");
        assert!(
            pass.contains(&format!("ibfat: degraded fabric: {description}")),
            "{name}: {}",
            harness::tail(pass, 40)
        );
        assert!(
            pass.contains("ibfat: up*/down* on one VL")
                && pass.contains("ibfat: validation: 0 loops, 0 misdelivered, 0 broken host routes (0 unrouted pairs), CDG of host routes acyclic"),
            "{name}: {}",
            harness::tail(pass, 40)
        );
        // without QoS, switch-LID detours (SL 1-2) are dropped, and the log says why
        if pass.contains("detours dropped: ") {
            assert!(pass.contains("QoS on"), "{name}: {}", harness::tail(pass, 40));
            dropped_passes += 1;
        }

        // the LFTs the switches hold are the library's degraded routes, and they validate
        let (fabric, lids, programmed) = sim.programmed();
        assert_eq!(lids.lmc, lmc);
        harness::assert_same_tables(&fabric, &expect(&fabric, &lids, (cuts, deads)), &programmed, &name);
        let v = validate(&fabric, &lids, &programmed, None);
        assert!(
            v.loops == 0 && v.misdelivered == 0 && v.deadlock_free && v.data_path_ok && v.broken_host_routes == 0,
            "{name}: {v:?}"
        );

        // the schedule the plugin wrote for the degraded tables is repaired for them
        assert!(
            pass.contains(&format!(
                "ibfat: wrote the {pattern} schedule repaired for the degraded tables ({hosts} ranks"
            )),
            "{name}: {}",
            harness::tail(pass, 40)
        );
        let r = harness::check_on_read_back(&sim, t.path(), &sched, &name);
        assert_eq!(r["max_congestion"], 1, "{name}: {r}");
        assert_eq!(r["unrouted_flows"], 0, "{name}: {r}");
        assert_eq!(
            r["flows"].as_u64().unwrap(),
            hosts * (hosts - 1),
            "{name}: every ordered pair once: {r}"
        );

        // repair: the intact tables come back exactly
        harness::restore_and_expect_intact(&sim, &mut osm, &drill);
    }
    assert!(
        dropped_passes > 0,
        "{family}: no drill left a switch-LID detour to drop"
    );
    osm.stop();
}

/// The tables the plugin programs into the degraded tree `d`: every host pair routed
/// when every VL is offered; OpenSM runs without QoS here, so the plugin asks the pipeline
/// for one data VL (`VlOffer::usable`), which drops the switch-LID detours and routes again
/// on VL 0 what a turn serves with that VL's CDG acyclic.
fn want_on_one_vl(
    fabric: &ibfat::topology::Fabric,
    d: &ibfat::recognize::Degraded,
    lids: &ibfat::routing::Lids,
) -> ibfat::routing::LftSet {
    let all = harness::route_degraded(fabric, d, lids, &Ask::default(), "every VL");
    assert_eq!(all.unrouted, 0);
    let one_vl = Ask {
        vls: 1,
        ..Ask::default()
    };
    harness::route_degraded(fabric, d, lids, &one_vl, "one VL").lfts
}

#[test]
fn degraded_kary_tree_is_routed_by_the_plugin() {
    degraded_tree(
        &["build", "kary", "--arity", "4", "--levels", "3", "--shuffle", "7"],
        "S3_5",
        0,
        "k-ary n-tree 4-ary 3-tree",
        "kary-shift",
        64,
        |fabric, lids, faults| {
            let Recognition::Unrecognized { degraded: Some(d), .. } = recognize(fabric, None) else {
                panic!("the cut fabric is not recognised as a degraded tree")
            };
            assert_eq!((d.family, d.faults.len()), (Family::Kary, faults.0 + faults.1));
            let Holes::Pgft(_) = &d.holes else {
                panic!("not a tree's holes")
            };
            want_on_one_vl(fabric, &d, lids)
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
        "MOLS 3-level proximity tree arity 5 wiring mols",
        "mols-shift",
        125,
        |fabric, lids, faults| {
            let Recognition::Unrecognized { degraded: Some(d), .. } = recognize(fabric, None) else {
                panic!("the cut fabric is not recognised as a degraded MOLS tree")
            };
            assert_eq!((d.family, d.faults.len()), (Family::Mols, faults.0 + faults.1));
            let tops = d
                .faults
                .iter()
                .filter(|f| f.describe().starts_with("switch T("))
                .count();
            assert_eq!(tops, faults.1, "the dead top is named by its position: {:?}", d.faults);
            let Holes::Mols(_) = &d.holes else {
                panic!("not a MOLS tree's holes")
            };
            want_on_one_vl(fabric, &d, lids)
        },
    );
}
