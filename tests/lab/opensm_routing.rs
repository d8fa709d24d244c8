//! Routing proof on stock OpenSM (docs/routing.md §6): OpenSM's `file` engine, fed ibfat's opensm-lfts.dump and
//! guid2lid, programs exactly ibfat's tables into the simulated switches (read back with
//! the real `dump_lfts`), and OpenSM's own ftree/minhop run on the same fabrics.

use crate::harness;

use crate::harness::{build_plan, ibfat, OsmConfig, Sim};
use ibfat::check::validate;
use ibfat::formats::{dump, guid2lid, lftdump};
use ibfat::routing::{Lids, NO_ROUTE};
use std::path::Path;

struct Case {
    name: &'static str,
    build: &'static [&'static str],
    lmc: u8,
    /// route with `--dump-style compact` (entries without the node type and description)
    compact: bool,
}

fn prove(case: &Case) {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    let plan_s = plan.to_str().unwrap();
    build_plan(case.build, &plan);
    let lmc = case.lmc.to_string();
    let mut args = vec!["route", plan_s, "--lmc", &lmc, "--out", plan_s];
    if case.compact {
        args.extend(["--dump-style", "compact"]);
    }
    let (c, o, e) = ibfat(&args);
    assert_eq!(c, 0, "{}: {o}{e}", case.name);

    let fabric = dump::read(&plan.join("topology.net")).unwrap().fabric;
    let g2l = std::fs::read_to_string(plan.join("guid2lid")).unwrap();
    let lids = guid2lid::parse(&fabric, &g2l, Path::new("guid2lid")).unwrap();
    let ours = lftdump::read(&plan.join("opensm-lfts.dump"), &fabric, &lids).unwrap();
    if case.compact {
        // the compact dump holds the very tables of the full one, in fewer bytes
        let full = dir.path().join("full");
        let (c, o, e) = ibfat(&["route", plan_s, "--lmc", &lmc, "--out", full.to_str().unwrap()]);
        assert_eq!(c, 0, "{}: {o}{e}", case.name);
        assert_eq!(
            lftdump::read(&full.join("opensm-lfts.dump"), &fabric, &lids).unwrap(),
            ours
        );
        // `--no-sync` publishes the same bytes (it only skips waiting for the disk, which
        // matters after a power loss, not to any reader)
        let nosync = dir.path().join("nosync");
        let (c, o, e) = ibfat(&[
            "route",
            plan_s,
            "--lmc",
            &lmc,
            "--no-sync",
            "--out",
            nosync.to_str().unwrap(),
        ]);
        assert_eq!(c, 0, "{}: {o}{e}", case.name);
        for f in ["opensm-lfts.dump", "guid2lid"] {
            assert_eq!(
                std::fs::read(nosync.join(f)).unwrap(),
                std::fs::read(full.join(f)).unwrap(),
                "{f}"
            );
        }
        let compact = std::fs::read_to_string(plan.join("opensm-lfts.dump")).unwrap();
        let full = std::fs::read_to_string(full.join("opensm-lfts.dump")).unwrap();
        assert!(!compact.contains("Channel Adapter") && compact.contains(" # portguid 0x"));
        assert!(
            compact.len() * 5 < full.len() * 4,
            "{} vs {} bytes",
            compact.len(),
            full.len()
        );
    }

    let sim = Sim::start(&plan.join("topology.net"));
    let run = sim.opensm(&OsmConfig {
        engine: "file".into(),
        lmc: case.lmc,
        lfts_file: Some(plan.join("opensm-lfts.dump")),
        guid2lid: Some(g2l.clone()),
        ..Default::default()
    });
    assert!(
        run.success,
        "{}: opensm failed:\n{}",
        case.name,
        harness::tail(&run.log, 30)
    );
    assert_eq!(
        run.configured_by().as_deref(),
        Some("file"),
        "{}: OpenSM did not use the file engine:\n{}",
        case.name,
        harness::tail(&run.log, 30)
    );

    // OpenSM honoured the seeded LIDs
    let disc = dump::parse(&sim.ibnetdiscover(&[]), Path::new("ibnetdiscover")).unwrap();
    let found = Lids::discovered(&disc.fabric).unwrap().expect("LIDs after the sweep");
    for (i, p) in fabric.ports.iter().enumerate() {
        if lids.base[i] != 0 {
            let (n, q) = (p.node, p.num);
            let dn = disc
                .fabric
                .nodes
                .iter()
                .position(|x| x.guid == fabric.node(n).guid)
                .unwrap() as u32;
            assert_eq!(
                found.lid(&disc.fabric, dn, q),
                lids.base[i],
                "{}: LID of {}",
                case.name,
                fabric.node(n).desc
            );
        }
    }

    // what the switches hold, read back by directed route, equals ibfat's tables
    let programmed = sim.tables_for(&fabric, &lids);
    assert_eq!(programmed.switches, ours.switches);
    let mut compared = 0;
    for (row, &sw) in ours.switches.iter().enumerate() {
        for lid in 1..ours.stride.max(programmed.stride) {
            let a = ours.get(sw, lid as u16).unwrap_or(NO_ROUTE);
            let b = programmed.get(sw, lid as u16).unwrap_or(NO_ROUTE);
            assert_eq!(
                a,
                b,
                "{}: switch '{}' (row {row}) LID {lid}: ibfat {a}, programmed {b}",
                case.name,
                fabric.node(sw).desc
            );
            compared += (a != NO_ROUTE) as usize;
        }
    }
    assert_eq!(compared, ours.routed_entries());
    assert!(validate(&fabric, &lids, &programmed, None).ok);

    // OpenSM's own engines on the same fabric (their dumps are the checker's fixtures)
    for engine in ["ftree", "minhop"] {
        let r = sim.opensm(&OsmConfig {
            engine: engine.into(),
            lmc: case.lmc,
            guid2lid: Some(g2l.clone()),
            ..Default::default()
        });
        assert!(
            r.success,
            "{}: opensm -R {engine}:\n{}",
            case.name,
            harness::tail(&r.log, 20)
        );
        let by = r.configured_by().expect("some engine configured the tables");
        assert!(
            by == engine || (engine == "ftree" && by == "minhop"),
            "{}: {engine} -> {by}",
            case.name
        );
        let t = lftdump::read(&r.dump_dir.join("opensm-lfts.dump"), &fabric, &lids).unwrap();
        assert!(t.routed_entries() > 0);
    }
}

#[test]
fn lsft3_compact_dump_programmed_exactly() {
    prove(&Case {
        name: "lsft3-compact",
        build: &["build", "lsft", "--order", "3", "--shuffle", "5"],
        lmc: 0,
        compact: true,
    });
}

#[test]
fn lsft3_shuffled_ports_programmed_exactly() {
    prove(&Case {
        name: "lsft3-shuffled",
        build: &["build", "lsft", "--order", "3", "--shuffle", "5"],
        lmc: 0,
        compact: false,
    });
}

#[test]
fn lsft2_two_sided_programmed_exactly() {
    prove(&Case {
        name: "lsft2x2",
        build: &["build", "lsft", "--order", "2", "--two-sided"],
        lmc: 0,
        compact: false,
    });
}

#[test]
fn kary_4x3_programmed_exactly() {
    prove(&Case {
        name: "kary4x3",
        build: &["build", "kary", "--arity", "4", "--levels", "3"],
        lmc: 0,
        compact: false,
    });
}

#[test]
fn mols3_lmc1_programmed_exactly() {
    prove(&Case {
        name: "mols3-lmc1",
        build: &["build", "mols", "--arity", "3"],
        lmc: 1,
        compact: false,
    });
}

#[test]
fn pgft_2to1_parallel_cables_programmed_exactly() {
    // the production shape: 4 leaves of 24 hosts, 2 spines, 6 parallel cables per pair
    prove(&Case {
        name: "pgft24-4_1-2_1-6",
        build: &[
            "build",
            "pgft",
            "--down",
            "24,4",
            "--up",
            "1,2",
            "--parallel",
            "1,6",
            "--shuffle",
            "4",
        ],
        lmc: 0,
        compact: false,
    });
}

#[test]
fn pgft_3_levels_parallel_cables_programmed_exactly() {
    prove(&Case {
        name: "pgft4-4-2_1-2-4_1-2-2",
        build: &[
            "build",
            "pgft",
            "--down",
            "4,4,2",
            "--up",
            "1,2,4",
            "--parallel",
            "1,2,2",
            "--shuffle",
            "6",
        ],
        lmc: 0,
        compact: false,
    });
}
