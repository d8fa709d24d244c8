//! Full meshes on real components (issue 15): shuffled full meshes (N = 4, 6, 8) run in ibsim;
//! `ibnetdiscover` reads it back and `ibfat recognize` finds the full mesh; `ibfat route
//! --lmc L` on that dump gives tables that stock OpenSM's file engine (`-R file`, `lmc L`,
//! L = 2 and 3)
//! programs exactly (read back with `dump_lfts`), with the LIDs ibfat planned, and the
//! tables the switches hold pass the per-VL deadlock check with ibfat's SLs and VLs.

use crate::harness;

use crate::harness::{ibfat, Sim};
use ibfat::check::vls::check_vls;
use ibfat::families::fullmesh::route::FullmeshLanes;
use ibfat::formats::{dump, guid2lid, lftdump};
use ibfat::recognize::{recognize, Recognition};
use ibfat::topology::Layout;
use std::path::Path;

#[test]
fn shuffled_meshes_are_recognised_and_their_lmc_routes_programmed_by_opensm_exactly() {
    for (n, h, w, lmc) in [(6, 2, 1, 2), (4, 3, 2, 3), (8, 2, 1, 3)] {
        mesh_in_ibsim(n, h, w, lmc);
    }
}

fn mesh_in_ibsim(n: u32, h: u32, w: u32, lmc: u8) {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("mesh");
    let (ns, hs, ws, seed) = (n.to_string(), h.to_string(), w.to_string(), (10 + n).to_string());
    let build = [
        "build",
        "fullmesh",
        "--switches",
        &ns,
        "--hosts-per-switch",
        &hs,
        "--cables-per-pair",
        &ws,
        "--shuffle",
        &seed,
    ];
    harness::build_plan(&build, &plan);
    let sim = Sim::start(&plan.join("topology.net"));
    let disc = t.path().join("ibnetdiscover.txt");
    std::fs::write(&disc, sim.ibnetdiscover(&[])).unwrap();
    let (c, o, e) = ibfat(&["recognize", disc.to_str().unwrap(), "--json"]);
    assert_eq!(c, 0, "{o}{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(
        (v["family"].as_str(), v["switches"].as_u64(), v["hosts"].as_u64()),
        (Some("fullmesh"), Some(n as u64), Some((n * h) as u64)),
        "{o}"
    );

    let out = t.path().join("r");
    let (c, o, e) = ibfat(&[
        "route",
        disc.to_str().unwrap(),
        "--lmc",
        &lmc.to_string(),
        "--lids",
        "plan",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{o}{e}");
    let fabric = dump::read(&disc).unwrap().fabric;
    let g2l = std::fs::read_to_string(out.join("guid2lid")).unwrap();
    let lids = guid2lid::parse(&fabric, &g2l, Path::new("guid2lid")).unwrap();
    assert_eq!(lids.lmc, lmc);
    let ours = lftdump::read(&out.join("opensm-lfts.dump"), &fabric, &lids).unwrap();

    let run = sim.opensm(&harness::OsmConfig {
        engine: "file".into(),
        lmc,
        lfts_file: Some(out.join("opensm-lfts.dump")),
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
    // the SM gave every port the LIDs ibfat planned
    let (_, assigned, _) = sim.programmed();
    for ep in fabric.endpoints() {
        assert_eq!(
            assigned.lid(&fabric, ep.node, ep.port),
            lids.lid(&fabric, ep.node, ep.port),
            "{}",
            fabric.node(ep.node).desc
        );
    }
    assert_eq!(assigned.lmc, lmc);
    let programmed = sim.tables_for(&fabric, &lids);
    harness::assert_same_tables(&fabric, &ours, &programmed, "mesh");
    let Recognition::Recognized {
        layout: Layout::Fullmesh(l),
        ..
    } = recognize(&fabric, None)
    else {
        panic!("not a full mesh")
    };
    let lanes = FullmeshLanes::new(&fabric, &l, &lids);
    let v = check_vls(
        &fabric,
        &lids,
        &programmed,
        |s, d| lanes.sl(s, d),
        |w, s, i, o| lanes.vl(w, s, i, o),
    );
    assert!(v.ok() && v.vls == 2 && v.sl_paths > 0, "{v:?}");
}
