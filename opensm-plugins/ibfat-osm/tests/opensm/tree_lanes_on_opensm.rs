//! Switch-LID detours of a degraded tree on a second VL inside a stock OpenSM 3.3.23
//! (issue 12, `routing::tree_lanes`): cables of a running ibsim 4-ary 3-tree (shuffled)
//! are cut with the commands `ibfat faults` writes, so that some leaves reach some switch
//! LIDs only by a detour that turns up again. With QoS on, OpenSM keeps routing with the
//! ibfat engine (no fallback) and programs the detours: the LFTs the switches hold
//! (`dump_lfts`) equal the library's, their SL-to-VL tables (`smpquery sl2vl`) are the
//! TreeLanes rule, SA's PathRecord (`saquery -p`) from a host on a detour's leaf to the
//! switch LID carries the detour's SL, and the per-VL check of the tables read back passes
//! with only the library's counted remainder unrouted. Restoring the cables brings the
//! intact tables back exactly.

use crate::harness;

use crate::harness::{OsmConfig, Sim};
use ibfat::check::vls::check_lanes;
use ibfat::families::tree::lanes::{RELAY_LEAF_SL, RELAY_TWO_SL};
use ibfat::families::Family;
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::lanes::LaneRules;
use ibfat::routing::{Ask, Lids, Routed};
use ibfat::topology::degraded::Holes;
use ibfat::topology::{Fabric, NodeId, NodeKind};

/// OpenSM with QoS on (so it programs SL-to-VL tables), re-sweeping only when told, with a
/// patient MAD timeout for a simulator that shares 2 cores with the tests.
fn qos_cfg() -> OsmConfig {
    OsmConfig {
        extra_args: vec!["-Q".into(), "-s".into(), "0".into()],
        conf: vec!["transaction_timeout 1000".into()],
        ..OsmConfig {
            engine: "ibfat,minhop".into(),
            ..Default::default()
        }
        .with_ibfat_plugin("validate=1")
    }
}

/// The library's routes of the degraded tree as the subnet holds it now, as the plugin
/// asks for them with QoS on (every VL offered: the detours are kept), and their relay
/// detours: (leaf row, switch LID, SL) of every leaf's switch-LID route on SL 1 or 2, by
/// the lanes, sorted.
fn expected(fabric: &Fabric, lids: &Lids) -> (Routed, Vec<(u32, u16, u8)>) {
    let Recognition::Unrecognized { degraded: Some(d), .. } = recognize(fabric, None) else {
        panic!("the cut fabric is not recognised as a degraded tree")
    };
    assert_eq!(d.family, Family::Kary, "{}", d.description);
    let Holes::Pgft(_) = &d.holes else {
        panic!("not a tree's holes")
    };
    let want = harness::route_degraded(fabric, &d, lids, &Ask::default(), "cut");
    let mut detours = Vec::new();
    if let Some(lanes) = want.lanes.as_deref() {
        for (row, &leaf) in want.lfts.switches.iter().enumerate() {
            for lid in 1..want.lfts.stride {
                let owner = lids.owner[lid];
                let sl = lanes.sl(leaf, lid);
                if owner != ibfat::topology::NO_PEER
                    && fabric.node(fabric.ports[owner as usize].node).kind == NodeKind::Switch
                    && [RELAY_LEAF_SL, RELAY_TWO_SL].contains(&sl)
                {
                    detours.push((row as u32, lid as u16, sl));
                }
            }
        }
    }
    // the lanes name exactly the detours the routes count
    assert_eq!(detours.len(), want.switch_lid_detours);
    (want, detours)
}

/// A host port's base LID on `leaf`, if it has one.
fn host_on(fabric: &Fabric, lids: &Lids, leaf: NodeId) -> Option<u16> {
    (1..=fabric.node(leaf).nports).find_map(|p| {
        let (n, np) = fabric.peer(leaf, p)?;
        (fabric.node(n).kind == NodeKind::Ca).then(|| lids.base[fabric.port_index(n, np) as usize])
    })
}

/// `smpquery sl2vl` of switch `sw` against `rules` (`Sim::sl2vl_as_ruled`): (port pairs
/// compared, pairs with VL 1 for some SL below 15).
fn sl2vl_as_ruled(sim: &Sim, fabric: &Fabric, lids: &Lids, sw: NodeId, rules: &dyn LaneRules) -> (usize, usize) {
    let vl = |w, sl, i, o| rules.vl(w, sl, i, o);
    sim.sl2vl_as_ruled(fabric, lids, std::iter::once(sw), vl, &String::new)
}

/// Build a shuffled `(arity, levels, shuffle)` k-ary n-tree's plan in `dir`, start it in
/// ibsim under OpenSM with QoS (routed by ibfat), cut `(cables, seed)` with the commands
/// `ibfat faults` writes and re-sweep (routed by ibfat again); the faults folder.
fn cut_tree(
    dir: &std::path::Path,
    (k, n, shuffle): (&str, &str, &str),
    (cables, seed): (&str, &str),
) -> (Sim, harness::OpenSm, std::path::PathBuf) {
    let plan = dir.join("plan");
    harness::build_plan(
        &["build", "kary", "--arity", k, "--levels", n, "--shuffle", shuffle],
        &plan,
    );
    let cut = dir.join("cut");
    let (p, c) = (plan.to_str().unwrap(), cut.to_str().unwrap());
    let (code, o, e) = harness::ibfat(&["faults", p, "--cut", cables, "--seed", seed, "--out", c]);
    assert_eq!(code, 0, "{o}{e}");
    let sim = Sim::start(&plan.join("topology.net"));
    let mut osm = sim.opensm_daemon(&qos_cfg());
    osm.routed_by_ibfat(1, "intact");
    for cmd in std::fs::read_to_string(cut.join("cut.ibsim")).unwrap().lines() {
        sim.console(cmd);
    }
    let before = osm.log().matches("tables configured on all switches").count();
    osm.sighup();
    osm.routed_by_ibfat(before + 1, "cut");
    (sim, osm, cut)
}

/// The switches on the paths of `pairs` ((source switch, LID)) in `want`'s tables.
fn on_paths(fabric: &Fabric, want: &Routed, pairs: impl Iterator<Item = (NodeId, u16)>) -> Vec<NodeId> {
    let mut on_path: Vec<NodeId> = Vec::new();
    for (mut at, lid) in pairs {
        for _ in 0..10 {
            on_path.push(at);
            match want.lfts.get(at, lid) {
                Some(p) if p != 0 && p != ibfat::routing::NO_ROUTE => match fabric.peer(at, p) {
                    Some((n, _)) => at = n,
                    None => break,
                },
                _ => break,
            }
        }
    }
    on_path.sort_unstable();
    on_path.dedup();
    on_path
}

/// A 4-ary 3-tree with 10 cables cut: ibfat routes it with the detours on SL 1-2 (QoS on),
/// and what the subnet holds is ibfat's, read back with the real tools.
#[test]
fn degraded_kary_tree_switch_lid_detours_on_a_second_vl() {
    let t = tempfile::tempdir().unwrap();
    let (sim, osm, cut) = cut_tree(t.path(), ("4", "3", "7"), ("10", "7"));
    let log = osm.log();
    let pass = &log[log.rfind("ibfat: degraded fabric:").expect("not degraded")..];
    assert!(
        pass.contains("ibfat: degraded fabric: k-ary n-tree 4-ary 3-tree, degraded: 10 missing cables"),
        "{}",
        harness::tail(pass, 40)
    );

    // the switches hold the library's routes, detours included
    let (fabric, lids, programmed) = sim.programmed();
    let (want, detours) = expected(&fabric, &lids);
    assert!(!detours.is_empty(), "the cuts leave no switch-LID detour");
    assert!(
        pass.contains(&format!(
            "ibfat: up*/down* on VL 0; {} (leaf, switch LID) detours through a relay on SL 1-2",
            detours.len()
        )) && pass.contains("ibfat: per-VL validation:")
            && pass.contains("CDG of host routes acyclic per VL"),
        "{}",
        harness::tail(pass, 40)
    );
    harness::assert_same_tables(&fabric, &want.lfts, &programmed, "cut");
    let lanes = want.lanes.as_deref().expect("the detours' lanes");
    assert_eq!(lanes.data_vls(), 2 + want.escape.used() as u8);

    // deadlock-free per VL on the tables read back; only the counted remainder unrouted
    let v = check_lanes(&fabric, &lids, &programmed, lanes);
    let on_sl = (detours.len() + want.escape.pairs.len()) as u64;
    assert!(v.ok() && v.vls == want.data_vls() && v.sl_paths == on_sl, "{v:?}");
    assert_eq!(v.unrouted, want.unrouted + want.unrouted_switch_lids, "{v:?}");

    // SL-to-VL tables of the switches on the first detours' paths are the rule
    let firsts = detours.iter().take(3);
    let on_path = on_paths(
        &fabric,
        &want,
        firsts.map(|&(row, lid, _)| (want.lfts.switches[row as usize], lid)),
    );
    let (mut pairs, mut on_vl1) = (0, 0);
    for &sw in &on_path {
        let (p, v1) = sl2vl_as_ruled(&sim, &fabric, &lids, sw, lanes);
        pairs += p;
        on_vl1 += v1;
    }
    assert!(pairs > 50 && on_vl1 > 0, "{pairs} pairs, {on_vl1} with VL 1");

    // PathRecords: a host on a detour's leaf to that switch LID carries the detour's SL;
    // to a switch LID it reaches up*/down*, SL 0
    let mut asked = 0;
    for &(row, lid, sl) in detours.iter().step_by(7) {
        let leaf = want.lfts.switches[row as usize];
        let Some(slid) = host_on(&fabric, &lids, leaf) else {
            continue;
        };
        assert_eq!(sim.path_record_sl(slid, lid), sl, "{slid} -> switch LID {lid}");
        let plain = (1..lids.owner.len() as u16)
            .find(|&l| {
                let o = lids.owner[l as usize];
                o != ibfat::topology::NO_PEER
                    && fabric.node(fabric.ports[o as usize].node).kind == NodeKind::Switch
                    && fabric.ports[o as usize].node != leaf
                    && lanes.sl(leaf, l as usize) == 0
            })
            .unwrap();
        assert_eq!(sim.path_record_sl(slid, plain), 0, "{slid} -> switch LID {plain}");
        asked += 1;
    }
    assert!(asked > 0);

    // repair: the intact tables come back exactly
    let mut osm = osm;
    harness::restore_and_expect_intact(&sim, &mut osm, &cut);
    osm.stop();
}

/// A shuffled 3-ary 4-tree with one cable cut: some leaves reach some switch LIDs only by
/// turning above level 2, which the relay rule cannot serve; the escape lane routes them
/// (`routing::escape`: SL 15, the third data VL). Inside a stock OpenSM with QoS: ibfat
/// routes the fabric, the switches hold its tables (`dump_lfts`), the per-VL check of the
/// tables read back passes with every pair routed, `smpquery sl2vl` maps SL 15 to the
/// escape VL on the escape paths' switches, and `saquery -p` from a host on an escape
/// pair's leaf to that switch LID answers SL 15. Restoring the cable brings the intact
/// tables back.
#[test]
fn degraded_four_level_tree_escape_lane_on_its_own_vl() {
    let t = tempfile::tempdir().unwrap();
    let (sim, osm, cut) = cut_tree(t.path(), ("3", "4", "13"), ("1", "1"));
    let log = osm.log();
    let pass = &log[log.rfind("ibfat: degraded fabric:").expect("not degraded")..];

    let (fabric, lids, programmed) = sim.programmed();
    let (want, detours) = expected(&fabric, &lids);
    assert!(want.escape.used(), "the cut leaves nothing for the escape lane");
    assert_eq!((want.unrouted, want.unrouted_switch_lids), (0, 0));
    assert!(
        pass.contains(&format!(
            "{} (leaf, switch LID) pairs on the escape lane (SL 15, VL {})",
            want.escape.switch_pairs,
            want.data_vls() - 1
        )) && pass.contains("CDG of host routes acyclic per VL"),
        "{}",
        harness::tail(pass, 40)
    );
    harness::assert_same_tables(&fabric, &want.lfts, &programmed, "cut");
    let lanes = want.lanes.as_deref().expect("the escape lane's lanes");
    assert_eq!(lanes.rule_sls(), 15);

    // every pair routed, deadlock-free per VL on the tables read back
    let v = check_lanes(&fabric, &lids, &programmed, lanes);
    let on_sl = (detours.len() + want.escape.pairs.len()) as u64;
    assert!(v.ok() && v.vls == want.data_vls() && v.sl_paths == on_sl, "{v:?}");
    assert_eq!(v.unrouted, 0, "{v:?}");

    // the switches on the first escape paths map SL 15 to the escape VL
    let escape_vl = want.data_vls() - 1;
    let firsts = want.escape.pairs.iter().take(3);
    let on_path = on_paths(&fabric, &want, firsts.map(|&(leaf, lid)| (leaf, lid as u16)));
    let mut pairs = 0;
    for &sw in &on_path {
        pairs += sl2vl_as_ruled(&sim, &fabric, &lids, sw, lanes).0;
        assert_eq!(lanes.vl(sw, 15, 1, 2), escape_vl);
    }
    assert!(pairs > 20, "{pairs} port pairs compared");

    // PathRecords of escape pairs carry SL 15
    let mut asked = 0;
    for &(leaf, lid) in want.escape.pairs.iter().step_by(4) {
        let Some(slid) = host_on(&fabric, &lids, leaf) else {
            continue;
        };
        assert_eq!(sim.path_record_sl(slid, lid as u16), 15, "{slid} -> switch LID {lid}");
        asked += 1;
    }
    assert!(asked > 0);

    let mut osm = osm;
    harness::restore_and_expect_intact(&sim, &mut osm, &cut);
    osm.stop();
}
