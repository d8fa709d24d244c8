//! A full mesh with LMC detours on two data VLs inside a stock OpenSM 3.3.23 (issue 15):
//! the plugin programs ibfat's tables for every LID offset, the switches' SL-to-VL tables
//! and SA PathRecords carry the detour lane, and a cut cable is routed around without a
//! fallback. (Split from `lanes_on_opensm`, whose helpers it shares.)

use crate::harness;
use crate::harness::Sim;
use crate::lanes_on_opensm::{host_lids, qos_cfg_lmc, sl2vl_as_ruled};
use ibfat::check::vls::check_lanes;
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::route;
use ibfat::topology::{Fabric, NodeId, NodeKind};

/// Shuffled full meshes routed by the plugin with LMC 2 and 3 (N = 6, 4, 8): OpenSM
/// programs ibfat's tables (every LID offset), the per-VL check passes on what the switches
/// hold, `smpquery sl2vl` reads back the detour rule (SL 1 from a switch port → VL 1) on
/// every switch port pair, and `saquery -p` PathRecords carry SL 1 exactly for detours; a
/// cut cable is routed around without a fallback.
#[test]
fn full_mesh_with_lmc_detours_is_routed_with_sls_and_sl2vl_tables() {
    for (n, h, lmc, shuffle) in [(6u32, 2u32, 2u8, 17u64), (4, 3, 3, 5), (8, 2, 3, 29)] {
        mesh_on_opensm(n, h, lmc, shuffle);
    }
}

fn mesh_on_opensm(n: u32, h: u32, lmc: u8, shuffle: u64) {
    use ibfat::families::fullmesh::route::FullmeshLanes as MeshLanes;
    use ibfat::topology::Layout;
    let what = format!("mesh N={n} H={h} LMC {lmc}");
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("mesh");
    harness::build_plan(
        &[
            "build",
            "fullmesh",
            "--switches",
            &n.to_string(),
            "--hosts-per-switch",
            &h.to_string(),
            "--shuffle",
            &shuffle.to_string(),
        ],
        &plan,
    );
    let sim = Sim::start(&plan.join("topology.net"));
    let mut osm = sim.opensm_daemon(&qos_cfg_lmc("validate=1", lmc));
    osm.routed_by_ibfat(1, &what);
    let log = osm.log();
    assert!(
        log.contains("ibfat: per-VL validation:") && log.contains("every VL's CDG acyclic"),
        "{}",
        harness::tail(&log, 30)
    );
    let (fabric, lids, programmed) = sim.programmed();
    assert_eq!(lids.lmc, lmc, "{what}");
    let Recognition::Recognized { layout, .. } = recognize(&fabric, None) else {
        panic!("the mesh is not recognised")
    };
    let Layout::Fullmesh(l) = &layout else {
        panic!("not a full mesh: {}", layout.describe())
    };
    let want = route(&fabric, &layout, &lids).unwrap();
    harness::assert_same_tables(&fabric, &want, &programmed, &what);
    let lanes = MeshLanes::new(&fabric, l, &lids);
    let v = check_lanes(&fabric, &lids, &programmed, &lanes);
    assert!(v.ok() && v.vls == 2 && v.sl_paths > 0 && v.unrouted == 0, "{v:?}");
    let (_, on_vl1) = sl2vl_as_ruled(&sim, &fabric, &lids, &osm, |w, sl, i, o| lanes.vl(w, sl, i, o));
    assert!(on_vl1 > 0);
    // every LID offset of every host from one host per switch
    let hosts = host_lids(&fabric, &lids);
    let (mut detours, mut direct) = (0, 0);
    // (every source switch; on the larger meshes every other destination host)
    let step = if n * h > 12 { 2 } else { 1 };
    for &(slid, leaf) in hosts.iter().step_by(h as usize) {
        for &(base, _) in hosts.iter().filter(|&&(_, l)| l != leaf).step_by(step) {
            for off in 0..1u16 << lmc {
                let dlid = base + off;
                let want = lanes.sl(leaf, dlid as usize);
                assert_eq!(sim.path_record_sl(slid, dlid), want, "{slid} -> {dlid}");
                if want == 1 {
                    detours += 1;
                } else {
                    direct += 1;
                }
            }
        }
    }
    assert!(detours > 0 && direct > 0, "{what}: {detours} detours, {direct} direct");

    // cut a switch-to-switch cable: still ibfat (no fallback), every pair routed around it
    let (a, pa) = fabric
        .switches()
        .find_map(|s| {
            (1..=fabric.node(s).nports)
                .find(|&p| {
                    fabric
                        .peer(s, p)
                        .is_some_and(|(n, _)| fabric.node(n).kind == NodeKind::Switch)
                })
                .map(|p| (s, p))
        })
        .unwrap();
    let before = osm.log().matches("tables configured on all switches").count();
    sim.console(&format!("Unlink \"{}\"[{pa}]", sim_name(&fabric, a)));
    osm.sighup();
    osm.routed_by_ibfat(before + 1, &format!("{what} with a cut cable"));
    let (fabric, lids, programmed) = sim.programmed();
    let Recognition::Recognized { layout, .. } = recognize(&fabric, None) else {
        panic!("the cut mesh is not recognised")
    };
    let Layout::Fullmesh(l) = &layout else {
        panic!("not a full mesh: {}", layout.describe())
    };
    assert_eq!(l.cut.len(), 1, "{}", layout.describe());
    harness::assert_same_tables(
        &fabric,
        &route(&fabric, &layout, &lids).unwrap(),
        &programmed,
        "cut mesh",
    );
    let lanes = MeshLanes::new(&fabric, l, &lids);
    let v = check_lanes(&fabric, &lids, &programmed, &lanes);
    assert!(v.ok() && v.vls == 2 && v.unrouted == 0 && v.broken == 0, "{v:?}");
    osm.stop();
}

/// The ibsim name of a switch (its node description's first word, as the net file names it).
fn sim_name(fabric: &Fabric, sw: NodeId) -> String {
    fabric
        .node(sw)
        .desc
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}
