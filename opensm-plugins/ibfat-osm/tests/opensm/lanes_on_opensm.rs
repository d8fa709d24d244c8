//! Routes on two or more data VLs inside a stock OpenSM 3.3.23: degraded fabrics (issue 12;
//! the full mesh with LMC detours is `mesh_lanes_on_opensm`). Cables of a running ibsim LSFT
//! are cut with the commands `ibfat faults` writes; OpenSM (QoS on) keeps routing with the
//! ibfat engine — no fallback — and what the subnet then holds is read back with the real
//! tools: the LFTs (`dump_lfts`) equal the library's degraded routes and pass the per-VL
//! deadlock check, every switch's SL-to-VL tables (`smpquery sl2vl`) are ibfat's rule, and
//! SA PathRecords (`saquery -p`) carry ibfat's SLs. Restoring the cables brings the intact
//! tables back exactly; cut/restore cycles with re-sweeps keep every pass on ibfat.

use crate::harness;

use crate::harness::{OsmConfig, Sim};
use ibfat::check::vls::check_lanes;
use ibfat::families::lsft::lanes::MAX_DATA_VLS;
use ibfat::recognize::{recognize, Degraded, Recognition};
use ibfat::routing::lanes::LaneRules;
use ibfat::routing::{route, Ask, LftSet, Lids, Objective};
use ibfat::topology::{Fabric, NodeId, NodeKind};

/// The lane rules of routes, as the plugin keeps them for OpenSM's queries.
type Lanes = Box<dyn LaneRules + Send + Sync>;

/// OpenSM with QoS on (so it programs SL-to-VL tables), re-sweeping only when told (and on
/// traps), with a patient MAD timeout for a simulator that shares 2 cores with the tests.
fn qos_cfg(opts: &str) -> OsmConfig {
    qos_cfg_lmc(opts, 0)
}

pub(crate) fn qos_cfg_lmc(opts: &str, lmc: u8) -> OsmConfig {
    OsmConfig {
        lmc,
        extra_args: vec!["-Q".into(), "-s".into(), "0".into()],
        conf: vec!["transaction_timeout 1000".into()],
        ..OsmConfig {
            engine: "ibfat,minhop".into(),
            ..Default::default()
        }
        .with_ibfat_plugin(opts)
    }
}

/// The degraded recognition and ibfat's routes of the subnet as it is now (the plugin's
/// pipeline; QoS on, so every VL the routes need is asked for — with fewer the plugin
/// refuses, it never changes an LSFT's tables).
fn expected(fabric: &Fabric, lids: &Lids) -> (Degraded, LftSet, Lanes, u64) {
    let Recognition::Unrecognized { degraded: Some(d), .. } = recognize(fabric, None) else {
        panic!("the cut fabric is not recognised as a degraded LSFT")
    };
    assert!(d.lsft().is_some(), "not an LSFT's holes");
    let r = harness::route_degraded(fabric, &d, lids, &Ask::default(), "the degraded LSFT");
    let lanes = r.lanes.expect("a degraded LSFT's lanes");
    (d, r.lfts, lanes, r.unrouted_switch_lids)
}

/// Every cabled (input, output) port pair of every switch, read back with `smpquery
/// sl2vl`, maps each SL to `vl` (SL 15 → VL 1 unless the escape lane uses it: the plugin
/// keeps every table non-zero, lanes.rs): (pairs compared, pairs with VL 1 for some SL
/// below 15).
pub(crate) fn sl2vl_as_ruled(
    sim: &Sim,
    fabric: &Fabric,
    lids: &Lids,
    osm: &harness::OpenSm,
    vl: impl Fn(NodeId, u8, u8, u8) -> u8,
) -> (usize, usize) {
    sl2vl_of(sim, fabric, lids, osm, fabric.switches(), vl)
}

/// [`sl2vl_as_ruled`] for the switches `which` (`Sim::sl2vl_as_ruled`, a mismatch naming
/// how many SL-to-VL Sets timed out in OpenSM's log).
fn sl2vl_of(
    sim: &Sim,
    fabric: &Fabric,
    lids: &Lids,
    osm: &harness::OpenSm,
    which: impl Iterator<Item = NodeId>,
    vl: impl Fn(NodeId, u8, u8, u8) -> u8,
) -> (usize, usize) {
    let timed_out = || {
        format!(
            " ({} SL-to-VL Sets timed out in OpenSM's log)",
            osm.log().matches("SubnSet(SLtoVLMappingTable)").count()
        )
    };
    sim.sl2vl_as_ruled(fabric, lids, which, vl, &timed_out)
}

/// (Base LID, switch it hangs off) of every host port.
pub(crate) fn host_lids(fabric: &Fabric, lids: &Lids) -> Vec<(u16, NodeId)> {
    let mut v = Vec::new();
    for lid in 1..lids.owner.len() {
        let o = lids.owner[lid];
        if o == ibfat::topology::NO_PEER {
            continue;
        }
        let p = &fabric.ports[o as usize];
        if fabric.node(p.node).kind == NodeKind::Ca && lids.base[o as usize] as usize == lid {
            if let Some((leaf, _)) = fabric.peer(p.node, p.num) {
                v.push((lid as u16, leaf));
            }
        }
    }
    v
}

/// Play `file` (`cut.ibsim`, `restore.ibsim`) of an `ibfat faults` folder on the running
/// ibsim and re-sweep: the pass must be ibfat's.
fn play_and_resweep(sim: &Sim, osm: &mut harness::OpenSm, dir: &std::path::Path, file: &str, what: &str) {
    osm.resweep_after(sim, &std::fs::read_to_string(dir.join(file)).unwrap(), what);
}

/// What a degraded LSFT pass left in the switches, read back: the tables equal the
/// library's degraded routes, and the per-VL check of them (host-sourced paths walked with
/// ibfat's SLs and SL-to-VL rule) — returned with the recognition, the lanes and the
/// (leaf, switch LID) pairs the library leaves unrouted, for the caller's bounds.
fn degraded_read_back(sim: &Sim, what: &str) -> (Fabric, Lids, Degraded, Lanes, ibfat::check::vls::VlReport, u64) {
    let (fabric, lids, programmed) = sim.programmed();
    let (d, want, lanes, unrouted_switch_lids) = expected(&fabric, &lids);
    harness::assert_same_tables(&fabric, &want, &programmed, what);
    let v = check_lanes(&fabric, &lids, &programmed, &*lanes);
    (fabric, lids, d, lanes, v, unrouted_switch_lids)
}

/// `saquery -p` for one host of every `every`-th leaf to every `step`-th host LID: the SL
/// is ibfat's. Returns the pairs asked that are detoured (SL ≠ 0) and the sources used.
fn path_records_match(
    sim: &Sim,
    fabric: &Fabric,
    lids: &Lids,
    lanes: &Lanes,
    sources: impl Fn(&[(u16, NodeId)]) -> Vec<(u16, NodeId)>,
    step: usize,
) -> (usize, Vec<(u16, NodeId)>) {
    let hosts = host_lids(fabric, lids);
    let mut firsts: Vec<(u16, NodeId)> = Vec::new();
    for &(lid, leaf) in &hosts {
        if !firsts.iter().any(|&(_, l)| l == leaf) {
            firsts.push((lid, leaf));
        }
    }
    let mut detoured = 0;
    for &(slid, leaf) in &sources(&firsts) {
        for &(dlid, _) in hosts.iter().step_by(step) {
            let want = lanes.sl(leaf, dlid as usize);
            assert_eq!(sim.path_record_sl(slid, dlid), want, "{slid} -> {dlid}");
            detoured += (want != 0) as usize;
        }
    }
    (detoured, firsts)
}

/// LSFT(5) shuffled with 6 cables cut and one spine dead (ibsim `Unlink`/`Down` commands from
/// `ibfat faults`): routed by ibfat with lanes, read back with the real tools; then repaired.
#[test]
fn degraded_lsft5_is_routed_with_sls_and_sl2vl_tables() {
    let t = tempfile::tempdir().unwrap();
    let (plan, cut, _) =
        harness::lsft_with_faults(t.path(), 5, 21, "cut", &["--cut", "6", "--seed", "9", "--dead", "S4"]);
    let sim = Sim::start(&plan.join("topology.net"));
    let sched = t.path().join("schedule.json");
    let mut osm = sim.opensm_daemon(&qos_cfg(&format!("validate=1 schedule_out={}", sched.display())));
    osm.routed_by_ibfat(1, "intact");
    play_and_resweep(&sim, &mut osm, &cut, "cut.ibsim", "cut");
    let log = osm.log();
    assert!(log.contains("ibfat: degraded fabric: Latin-square fat-tree LSFT(5) one-sided, degraded: 6 missing cables, 1 dead spines"), "{}", harness::tail(&log, 40));
    assert!(
        log.contains("ibfat: per-VL validation:") && log.contains("acyclic"),
        "{}",
        harness::tail(&log, 40)
    );
    let last = &log[log.rfind("ibfat: degraded fabric:").unwrap()..];
    let last = &last[..last.find("ibfat: per-VL validation").unwrap()];
    assert_eq!(
        last.matches("ibfat:   fault: ").count(),
        7,
        "6 cables and a spine:\n{last}"
    );

    // the LFTs the switches hold are ibfat's degraded routes, deadlock-free per VL
    let (fabric, lids, d, lanes, v, unrouted_switch_lids) = degraded_read_back(&sim, "cut");
    assert_eq!(d.faults.len(), 7);
    // (the only unrouted paths: a leaf to the spine its own cut cable led to)
    assert!(
        v.ok() && v.vls == lanes.data_vls() && v.sl_paths > 0 && v.unrouted == unrouted_switch_lids,
        "{v:?}"
    );

    // the schedule the plugin wrote is repaired for these tables: conflict-free on what
    // the switches hold
    assert!(
        log.contains("wrote the lsft schedule repaired for the degraded tables"),
        "{}",
        harness::tail(&log, 40)
    );
    let v = harness::check_on_read_back(&sim, t.path(), &sched, "cut");
    assert_eq!(
        (v["max_congestion"].as_u64(), v["throughput_ratio"].as_f64()),
        (Some(1), Some(1.0)),
        "{v}"
    );

    // SL-to-VL tables read back from every switch port pair equal the rule
    let (pairs, on_vl1) = sl2vl_as_ruled(&sim, &fabric, &lids, &osm, |w, sl, i, o| lanes.vl(w, sl, i, o));
    assert!(on_vl1 > 0 && pairs > 1000, "{pairs} pairs, {on_vl1} with VL 1");

    // PathRecords carry ibfat's SLs: one host of each of 8 leaves to every third host LID
    let (detoured, firsts) =
        path_records_match(&sim, &fabric, &lids, &lanes, |f| f.iter().take(8).copied().collect(), 3);
    assert!(detoured > 0, "no detoured pair was asked");
    let hosts = host_lids(&fabric, &lids);

    // repair: the intact tables come back exactly, and the SLs are 0 again; the subnet is
    // pass 1's again, so the pass programs pass 1's tables (src/reuse.rs) and with them
    // OpenSM's own SLs
    harness::restore_and_expect_intact(&sim, &mut osm, &cut);
    assert!(
        last_pass_line(&osm).contains("the subnet is as in pass 1: its tables are programmed again"),
        "{}",
        harness::tail(&osm.log(), 20)
    );
    let (slid, _) = firsts[0];
    for &(dlid, _) in hosts.iter().step_by(5) {
        assert_eq!(sim.path_record_sl(slid, dlid), 0, "{slid} -> {dlid} after the repair");
    }

    // the same cut again (a flapping cable): the cut pass's tables and lanes come back,
    // as the switches and the SA then say
    play_and_resweep(&sim, &mut osm, &cut, "cut.ibsim", "cut again");
    assert!(
        last_pass_line(&osm).contains(": its tables are programmed again"),
        "{}",
        harness::tail(&osm.log(), 20)
    );
    let (_, _, _, again, v, _) = degraded_read_back(&sim, "cut again");
    assert!(v.ok() && v.vls == again.data_vls(), "{v:?}");
    let (detoured, _) = path_records_match(&sim, &fabric, &lids, &again, |f| f.iter().take(8).copied().collect(), 3);
    assert!(detoured > 0, "no detoured pair was asked");
    osm.stop();
}

/// The last pass line of the plugin in OpenSM's log.
fn last_pass_line(osm: &harness::OpenSm) -> String {
    let log = osm.log();
    log.lines()
        .rev()
        .find(|l| l.contains("ibfat: pass ") && l.contains(" recognised "))
        .unwrap_or_default()
        .to_string()
}

/// A two-sided LSFT(3) (shuffled ports, random GUIDs) with 3 cables cut and a spine down
/// (ibsim commands from `ibfat faults`): routed by ibfat with lanes, no fallback; the
/// switches hold the library's degraded routes (per-VL check passes on them), every
/// switch's SL-to-VL tables are the rule, PathRecords carry ibfat's SLs; restoring brings
/// the intact tables back exactly.
#[test]
fn degraded_two_sided_lsft3_is_routed_with_sls_and_sl2vl_tables() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    harness::build_plan(
        &["build", "lsft", "--order", "3", "--two-sided", "--shuffle", "13"],
        &plan,
    );
    let cut = t.path().join("cut");
    let (c, o, e) = harness::ibfat(&[
        "faults",
        plan.to_str().unwrap(),
        "--cut",
        "3",
        "--seed",
        "4",
        "--dead",
        "S5",
        "--out",
        cut.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{o}{e}");
    let sim = Sim::start(&plan.join("topology.net"));
    let mut osm = sim.opensm_daemon(&qos_cfg("validate=1"));
    osm.routed_by_ibfat(1, "intact");
    let (intact_fabric, intact_lids, intact_tables) = sim.programmed();
    play_and_resweep(&sim, &mut osm, &cut, "cut.ibsim", "cut");
    let log = osm.log();
    assert!(
        log.contains("ibfat: degraded fabric: Latin-square fat-tree LSFT(3) two-sided, degraded: 3 missing cables, 1 dead spines"),
        "{}",
        harness::tail(&log, 40)
    );
    assert!(
        log.contains("ibfat: per-VL validation:") && log.contains("every VL's CDG acyclic"),
        "{}",
        harness::tail(&log, 40)
    );
    let (fabric, lids, d, lanes, v, unrouted_switch_lids) = degraded_read_back(&sim, "two-sided cut");
    assert_eq!((d.faults.len(), d.lsft().unwrap().sides), (4, 2));
    assert_eq!(
        unrouted_switch_lids, 0,
        "a leaf turns at its twin towards a spine it lost"
    );
    assert!(
        v.ok() && v.vls == lanes.data_vls() && v.sl_paths > 0 && v.unrouted == 0,
        "{v:?}"
    );
    let (pairs, on_vl1) = sl2vl_as_ruled(&sim, &fabric, &lids, &osm, |w, sl, i, o| lanes.vl(w, sl, i, o));
    assert!(on_vl1 > 0 && pairs > 500, "{pairs} pairs, {on_vl1} with VL 1");
    // PathRecords: one host of every third leaf (both sides) to every other host LID
    let (detoured, _) = path_records_match(
        &sim,
        &fabric,
        &lids,
        &lanes,
        |f| f.iter().step_by(3).copied().collect(),
        2,
    );
    assert!(detoured > 0, "no detoured pair was asked");
    harness::restore_and_expect_intact(&sim, &mut osm, &cut);
    // (and exactly the tables the switches held before the cut)
    let restored = sim.tables_for(&intact_fabric, &intact_lids);
    harness::assert_same_tables(&intact_fabric, &intact_tables, &restored, "restored vs before the cut");
    osm.stop();
}

/// Without QoS OpenSM cannot program SL-to-VL tables, and with `max_op_vls 1` there is one
/// data VL, with `max_op_vls 2` two: on a fabric whose routes need three (LSFT(3) with 10
/// cuts: some routes turn twice) each pass is refused with the reason and OpenSM falls back.
#[test]
fn degraded_pass_without_the_vls_it_needs_falls_back() {
    let t = tempfile::tempdir().unwrap();
    let (_, cut, _) = harness::lsft_with_faults(t.path(), 3, 31, "cut", &["--cut", "10", "--seed", "7"]);
    let net = cut.join("topology.net");
    let routes = t.path().join("routes");
    let (c, o, e) = harness::ibfat(&[
        "route",
        net.to_str().unwrap(),
        "--out",
        routes.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(c, 0, "{o}{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["data_vls"].as_u64(), Some(3), "the fabric needs the third VL: {o}");
    let sim = Sim::start(&net);
    for (args, conf, why) in [
        (vec![], vec![], "OpenSM programs SL-to-VL tables only with QoS on"),
        (
            vec!["-Q".to_string()],
            vec!["max_op_vls 1".to_string()],
            "the routes need 3 data VLs; max_op_vls 1 allows 1",
        ),
        (
            vec!["-Q".to_string()],
            vec!["max_op_vls 2".to_string()],
            "the routes need 3 data VLs; max_op_vls 2 allows 2",
        ),
    ] {
        let run = sim.opensm(&OsmConfig {
            extra_args: args,
            conf,
            ..OsmConfig {
                engine: "ibfat,minhop".into(),
                ..Default::default()
            }
            .with_ibfat_plugin("")
        });
        assert_eq!(
            run.configured_by().as_deref(),
            Some("minhop"),
            "{}",
            harness::tail(&run.log, 30)
        );
        assert!(
            run.log.contains(why) && run.log.contains("falling back to the next engine"),
            "{why}:\n{}",
            harness::tail(&run.log, 30)
        );
    }
}

/// 20 random cut/restore cycles of an LSFT(3) (3 cables each) with re-sweeps: OpenSM stays
/// up and every pass is ibfat's; the switches always hold ibfat's tables for the fabric
/// as it is.
#[test]
fn twenty_random_cut_restore_cycles_stay_on_ibfat() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    harness::build_plan(&["build", "lsft", "--order", "3", "--shuffle", "8"], &plan);
    let sim = Sim::start(&plan.join("topology.net"));
    let mut osm = sim.opensm_daemon(&qos_cfg(""));
    osm.routed_by_ibfat(1, "intact");
    let p = plan.to_str().unwrap();
    for cycle in 0..20u32 {
        let drill = t.path().join(format!("drill{cycle}"));
        let seed = (1000 + cycle).to_string();
        let (c, o, e) = harness::ibfat(&[
            "faults",
            p,
            "--cut",
            "3",
            "--seed",
            &seed,
            "--out",
            drill.to_str().unwrap(),
        ]);
        assert_eq!(c, 0, "{o}{e}");
        for (file, what) in [("cut.ibsim", "cut"), ("restore.ibsim", "restored")] {
            play_and_resweep(&sim, &mut osm, &drill, file, &format!("cycle {cycle} {what}"));
            assert!(osm.alive(), "cycle {cycle}");
            let (fabric, lids, programmed) = sim.programmed();
            let want = match recognize(&fabric, None) {
                Recognition::Recognized { layout, .. } => route(&fabric, &layout, &lids).unwrap(),
                Recognition::Unrecognized { .. } => expected(&fabric, &lids).1,
            };
            harness::assert_same_tables(&fabric, &want, &programmed, &format!("cycle {cycle} {what}"));
        }
    }
    osm.stop();
}

/// The matrix on the LSFT: LSFT(3), LSFT(5) and LSFT(7) one-sided and LSFT(3)
/// two-sided, shuffled, each in one ibsim under one OpenSM (QoS on), with 1, 3 and 10 random cables cut and with one
/// spine down (`ibfat faults` commands), one fault set after the other. Every pass is
/// ibfat's (no fallback); the switches hold the library's degraded routes (read back with
/// `dump_lfts`), deadlock-free on at most 3 data VLs per the per-VL check (3 exactly when
/// some route turns twice — one-sided LSFT(3) with 10 cuts, among others); the schedule
/// the plugin wrote is conflict-free on the read-back tables (`ibfat check`); the SL-to-VL
/// tables of the switches a detour crosses (`smpquery sl2vl`) and PathRecord SLs
/// (`saquery -p`) are ibfat's; restoring the cables brings the intact tables back exactly.
#[test]
fn lsft_3_5_7_with_1_3_10_cuts_and_a_dead_spine() {
    for (q, shuffle, two_sided) in [(3u32, 31u64, false), (5, 32, false), (7, 33, false), (3, 34, true)] {
        let t = tempfile::tempdir().unwrap();
        let plan = t.path().join("plan");
        let (qs, sh) = (q.to_string(), shuffle.to_string());
        let mut build = vec!["build", "lsft", "--order", &qs, "--shuffle", &sh];
        if two_sided {
            build.push("--two-sided");
        }
        harness::build_plan(&build, &plan);
        let sides = if two_sided { "two-sided" } else { "one-sided" };
        let sim = Sim::start(&plan.join("topology.net"));
        let sched = t.path().join("schedule.json");
        let mut osm = sim.opensm_daemon(&qos_cfg(&format!("validate=1 schedule_out={}", sched.display())));
        osm.routed_by_ibfat(1, "intact");
        let spine = format!("S{}", q + 1);
        let sets: [(&str, Vec<&str>); 4] = [
            ("1 cut", vec!["--cut", "1", "--seed", "5"]),
            ("3 cuts", vec!["--cut", "3", "--seed", "6"]),
            ("dead spine", vec!["--dead", &spine]),
            ("10 cuts", vec!["--cut", "10", "--seed", "7"]),
        ];
        for (i, (what, args)) in sets.iter().enumerate() {
            let name = format!("LSFT({q}) {sides} {what}");
            let drill = t.path().join(format!("drill{i}"));
            let mut a = vec!["faults", plan.to_str().unwrap()];
            a.extend(args.iter().copied());
            a.extend(["--out", drill.to_str().unwrap()]);
            let (c, o, e) = harness::ibfat(&a);
            assert_eq!(c, 0, "{name}: {o}{e}");
            play_and_resweep(&sim, &mut osm, &drill, "cut.ibsim", &name);
            let log = osm.log();
            let pass = &log[log
                .rfind("ibfat: degraded fabric:")
                .unwrap_or_else(|| panic!("{name}: not degraded"))..];
            assert!(
                pass.contains(&format!("LSFT({q}) {sides}, degraded")),
                "{name}: {}",
                harness::tail(pass, 20)
            );

            // the switches hold the library's degraded routes, deadlock-free per VL
            let (fabric, lids, d, lanes, v, unrouted_switch_lids) = degraded_read_back(&sim, &name);
            let n_faults = if *what == "dead spine" {
                1
            } else {
                args[1].parse::<usize>().unwrap()
            };
            assert_eq!(d.faults.len(), n_faults, "{name}: {:?}", d.faults);
            assert!(
                v.ok() && v.vls == lanes.data_vls() && v.vls <= MAX_DATA_VLS && v.unrouted == unrouted_switch_lids,
                "{name}: {v:?}"
            );
            // the plugin says how many VLs it uses, and they are what the routes need
            assert!(
                pass.contains(&format!("lanes: {} data VLs used", lanes.data_vls())),
                "{name}: {}",
                harness::tail(pass, 20)
            );

            // the schedule the plugin wrote for these tables is conflict-free on them
            assert!(
                pass.contains("wrote the lsft schedule repaired for the degraded tables"),
                "{name}: {}",
                harness::tail(pass, 20)
            );
            let r = harness::check_on_read_back(&sim, t.path(), &sched, &name);
            assert_eq!(
                (r["max_congestion"].as_u64(), r["unrouted_flows"].as_u64()),
                (Some(1), Some(0)),
                "{name}: {r}"
            );

            // PathRecords and SL-to-VL tables: the sources of detoured pairs, and the
            // switches along their first hops, checked with the real tools
            let hosts = host_lids(&fabric, &lids);
            let mut detoured: Vec<(u16, u16, NodeId, u8)> = Vec::new();
            for &(slid, leaf) in &hosts {
                for &(dlid, _) in &hosts {
                    let sl = lanes.sl(leaf, dlid as usize);
                    if sl != 0 && !detoured.iter().any(|&(_, _, l, _)| l == leaf) {
                        detoured.push((slid, dlid, leaf, sl));
                    }
                }
            }
            // every fault set here breaks some leaf pair (each cable is a pair's only path)
            assert!(!detoured.is_empty(), "{name}: no detour");
            for &(slid, dlid, leaf, sl) in detoured.iter().take(6) {
                assert_eq!(sim.path_record_sl(slid, dlid), sl, "{name}: {slid} -> {dlid}");
                // and a pair from the same leaf whose family route survives stays on SL 0
                let (other, _) = *hosts
                    .iter()
                    .find(|&&(l, at)| at != leaf && lanes.sl(leaf, l as usize) == 0)
                    .unwrap_or_else(|| panic!("{name}: every pair from the leaf detours"));
                assert_eq!(sim.path_record_sl(slid, other), 0, "{name}: {slid} -> {other}");
            }
            let leaves: Vec<NodeId> = detoured.iter().map(|d| d.2).take(3).collect();
            let (pairs, _) = sl2vl_of(&sim, &fabric, &lids, &osm, leaves.into_iter(), |w, sl, i, o| {
                lanes.vl(w, sl, i, o)
            });
            assert!(pairs > 0 || detoured.is_empty(), "{name}: no SL-to-VL table read");

            harness::restore_and_expect_intact(&sim, &mut osm, &drill);
        }
        assert!(osm.alive());
        osm.stop();
    }
}

/// The LSFT structure recognition finds in `fabric`, intact or degraded.
fn lsft_holes(fabric: &Fabric) -> ibfat::families::lsft::model_holes::LsftHoles {
    match recognize(fabric, None) {
        Recognition::Recognized {
            layout: ibfat::topology::Layout::Lsft(l),
            ..
        } => ibfat::families::lsft::model_holes::LsftHoles::new(
            fabric,
            l.plane.clone(),
            l.sides,
            l.leaves.clone(),
            l.spines.clone(),
        ),
        Recognition::Unrecognized { degraded: Some(d), .. } => d.lsft().unwrap().clone(),
        _ => panic!("not an LSFT"),
    }
}

/// The spreading objective inside OpenSM (issue 21 item 6): LSFT(5) shuffled, intact and
/// then with 3 cables cut, routed by the plugin with `objective=spread` (no fallback). What
/// the switches hold, read back with the real tools, is the library's spread routes,
/// deadlock-free per VL on two data VLs; `smpquery sl2vl` and `saquery -p` give ibfat's
/// SL-to-VL tables and SLs; and the shift all-to-all on the programmed tables is better
/// than on the family-first routes of the same fabric.
#[test]
fn spread_objective_is_programmed_with_sls_and_sl2vl_tables() {
    use ibfat::check::{check, CompiledRoutes};
    use ibfat::schedule::{shift::Shift, Pattern};
    let t = tempfile::tempdir().unwrap();
    let (plan, cut, _) = harness::lsft_with_faults(t.path(), 5, 23, "cut", &["--cut", "3", "--seed", "4"]);
    let sim = Sim::start(&plan.join("topology.net"));
    let sched = t.path().join("schedule.json");
    let mut osm = sim.opensm_daemon(&qos_cfg(&format!(
        "validate=1 objective=spread schedule_out={}",
        sched.display()
    )));
    osm.routed_by_ibfat(1, "intact");
    for what in ["intact", "3 cuts"] {
        if what != "intact" {
            play_and_resweep(&sim, &mut osm, &cut, "cut.ibsim", what);
        }
        let log = osm.log();
        let pass = &log[log
            .rfind("ibfat: objective spread: ")
            .unwrap_or_else(|| panic!("{what}: not spread"))..];
        assert!(
            pass.contains("LSFT(5)")
                && pass.contains("ibfat: per-VL validation:")
                && pass.contains("objective=spread: no schedule is written"),
            "{what}: {}",
            harness::tail(pass, 20)
        );
        assert!(!sched.exists(), "{what}: a schedule was written for spread tables");
        let (fabric, lids, programmed) = sim.programmed();
        let h = lsft_holes(&fabric);
        let spread = Ask {
            objective: Objective::Spread,
            ..Ask::default()
        };
        let r = harness::route_found(&fabric, &lids, &spread, what);
        harness::assert_same_tables(&fabric, &r.lfts, &programmed, what);
        let lanes = r.lanes.as_ref().expect("spread lanes");
        let v = check_lanes(&fabric, &lids, &programmed, &**lanes);
        assert!(
            v.ok() && v.vls == r.data_vls() && v.sl_paths > 0 && v.unrouted == r.unrouted_switch_lids,
            "{what}: {v:?}"
        );
        let (pairs, on_vl1) = sl2vl_of(
            &sim,
            &fabric,
            &lids,
            &osm,
            fabric.switches().step_by(4),
            |w, sl, i, o| lanes.vl(w, sl, i, o),
        );
        assert!(on_vl1 > 0 && pairs > 100, "{what}: {pairs} pairs, {on_vl1} with VL 1");
        let (detoured, _) = path_records_match(&sim, &fabric, &lids, lanes, |f| f.iter().take(4).copied().collect(), 4);
        assert!(detoured > 0, "{what}: no detoured pair was asked");
        // shift over the hosts in leaf order, on the programmed tables and on the
        // family-first routes of the same fabric and LIDs
        let hosts: Vec<_> = h.hosts.iter().map(|&(_, _, ep)| ep).collect();
        let shift = |lfts: &LftSet| {
            let routes = CompiledRoutes::compile(&fabric, &lids, lfts, &hosts, 0).unwrap();
            let pat = Shift::new(hosts.len());
            check(&fabric, &hosts, &routes, &pat, 0..pat.phases(), &|| {}).unwrap()
        };
        let family = harness::route_found(&fabric, &lids, &Ask::default(), what).lfts;
        let (s, f) = (shift(&programmed), shift(&family));
        assert_eq!(s.unrouted_flows, 0, "{what}");
        assert!(
            s.throughput_ratio > 1.1 * f.throughput_ratio,
            "{what}: spread {} vs family {}",
            s.throughput_ratio,
            f.throughput_ratio
        );
    }
    osm.stop();
}

/// LSFT(3) (shuffled) with 14 cables cut: some leaves reach some spine LIDs only over paths
/// that turn three times, which no SL of the rule serves; the escape lane routes them on
/// SL 15 and a fourth data VL (`routing::escape`). Inside a stock OpenSM with QoS: routed
/// by ibfat, the tables read back are the library's with every pair routed and each VL's
/// CDG acyclic, every switch's SL-to-VL tables map SL 15 to the escape VL, PathRecords of
/// the escape pairs carry SL 15; restoring brings the intact tables back.
#[test]
fn degraded_lsft3_escape_lane_on_a_fourth_vl() {
    let t = tempfile::tempdir().unwrap();
    let (plan, cut, _) = harness::lsft_with_faults(t.path(), 3, 31, "cut", &["--cut", "14", "--seed", "8"]);
    let sim = Sim::start(&plan.join("topology.net"));
    let mut osm = sim.opensm_daemon(&qos_cfg("validate=1"));
    osm.routed_by_ibfat(1, "intact");
    play_and_resweep(&sim, &mut osm, &cut, "cut.ibsim", "cut");
    let (fabric, lids, d, lanes, v, unrouted_switch_lids) = degraded_read_back(&sim, "cut");
    let r = harness::route_degraded(&fabric, &d, &lids, &Ask::default(), "cut");
    assert!(r.escape.used(), "the cuts leave nothing for the escape lane");
    assert_eq!((r.unrouted, unrouted_switch_lids, r.escape.refused), (0, 0, 0));
    assert_eq!(lanes.data_vls(), r.data_vls());
    // the rule's VLs (the third when a route turns twice), then the escape lane's
    let twice = r.two_turn.0 + r.two_turn.1 > 0;
    assert_eq!(r.data_vls(), 2 + twice as u8 + r.escape.used() as u8);
    assert!(v.ok() && v.vls == r.data_vls() && v.unrouted == 0, "{v:?}");
    let log = osm.log();
    let pass = &log[log.rfind("ibfat: degraded fabric:").unwrap()..];
    assert!(
        pass.contains(&format!(
            "ibfat: escape lane: {} (leaf, host LID) and {} (leaf, switch LID) pairs no rule path serves, on SL 15 \
             and VL {}",
            r.escape.host_pairs,
            r.escape.switch_pairs,
            r.data_vls() - 1
        )),
        "{}",
        harness::tail(pass, 40)
    );
    // every switch maps SL 15 to the escape VL, the rest by the rule
    let (pairs, _) = sl2vl_as_ruled(&sim, &fabric, &lids, &osm, |w, sl, i, o| lanes.vl(w, sl, i, o));
    assert!(pairs > 100, "{pairs} pairs");
    assert!(fabric.switches().all(|w| lanes.vl(w, 15, 1, 2) == r.data_vls() - 1));
    // PathRecords: a host of an escape pair's leaf to that switch LID asks SL 15
    let hosts = host_lids(&fabric, &lids);
    let mut asked = 0;
    for &(leaf, lid) in &r.escape.pairs {
        if let Some(&(slid, _)) = hosts.iter().find(|&&(_, l)| l == leaf) {
            assert_eq!(sim.path_record_sl(slid, lid as u16), 15, "{slid} -> {lid}");
            asked += 1;
        }
    }
    assert!(asked > 0);
    harness::restore_and_expect_intact(&sim, &mut osm, &cut);
    osm.stop();
}
