//! Issue 4 item 4 (and issue 3's fixtures): the checker on OpenSM's own ftree and minhop
//! tables, captured from a real OpenSM on ibsim (`examples/capture_opensm_fixtures.rs`),
//! agrees with it on ibfat's tables where the engines route the same paths.

use ibfat::check::{check, validate, CompiledRoutes, Shift};
use ibfat::formats::lftdump;
use ibfat::routing::{route, Lids};
use ibfat::topology::{Plan, Spec};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/opensm").join(name)
}

fn load(name: &str) -> (Plan, Lids) {
    let dir = fixture(name);
    let spec = Spec::from_yaml(
        &std::fs::read_to_string(dir.join("fabric.yaml")).unwrap(),
        &dir.join("fabric.yaml"),
    )
    .unwrap();
    let plan = spec.build().unwrap();
    let lids = Lids::from_guid2lid(
        &plan.fabric,
        &std::fs::read_to_string(dir.join("guid2lid")).unwrap(),
        &dir.join("guid2lid"),
    )
    .unwrap();
    (plan, lids)
}

fn shift_ratio(plan: &Plan, lids: &Lids, lfts: &ibfat::routing::LftSet) -> (f64, u64) {
    let hosts = plan.layout.hosts();
    let routes = CompiledRoutes::compile(&plan.fabric, lids, lfts, hosts, 0).unwrap();
    let r = check(
        &plan.fabric,
        hosts,
        &routes,
        &Shift::new(hosts.len()),
        0..hosts.len(),
        &|| {},
    )
    .unwrap();
    (r.throughput_ratio, r.unrouted_flows)
}

fn opensm_tables(name: &str, engine: &str, plan: &Plan, lids: &Lids) -> ibfat::routing::LftSet {
    let dir = fixture(name);
    let dump = lftdump::read(&dir.join(format!("opensm-{engine}.dump")), &plan.fabric, lids).unwrap();
    // what OpenSM wrote is what the switches hold (read back by dump_lfts)
    let programmed = lftdump::read(&dir.join(format!("dump_lfts-{engine}.txt")), &plan.fabric, lids).unwrap();
    for &sw in &dump.switches {
        for lid in 1..dump.stride.max(programmed.stride) as u16 {
            assert_eq!(
                dump.get(sw, lid),
                programmed.get(sw, lid),
                "{name} {engine}: dump vs switch, LID {lid}"
            );
        }
    }
    dump
}

/// ftree routes the k-ary tree d-mod-k like ibfat: shift is conflict-free on both. It leaves
/// switch-to-switch LIDs between lanes unrouted (management only); ibfat routes them.
#[test]
fn ftree_on_the_kary_tree_is_conflict_free_like_ours() {
    let (plan, lids) = load("kary3x3");
    let theirs = opensm_tables("kary3x3", "ftree", &plan, &lids);
    let ours = route(&plan.fabric, &plan.layout, &lids).unwrap();
    let v = validate(&plan.fabric, &lids, &theirs, Some(&plan.layout));
    assert_eq!(v.defective_host_lid_entries, 0, "{v:#?}");
    assert!(v.defective_switch_lid_entries > 0);
    assert!(v.ca_sourced.acyclic);
    assert!(validate(&plan.fabric, &lids, &ours, Some(&plan.layout)).ok);
    assert_eq!(shift_ratio(&plan, &lids, &ours), (1.0, 0));
    assert_eq!(shift_ratio(&plan, &lids, &theirs), (1.0, 0));
}

#[test]
fn minhop_on_the_lsft_has_our_shift_ratio() {
    let (plan, lids) = load("lsft3");
    let theirs = opensm_tables("lsft3", "minhop", &plan, &lids);
    let ours = route(&plan.fabric, &plan.layout, &lids).unwrap();
    // host-to-host minimal paths are unique on an LSFT: minhop and ibfat route them alike
    let (a, b) = (shift_ratio(&plan, &lids, &ours), shift_ratio(&plan, &lids, &theirs));
    assert_eq!((a.1, b.1), (0, 0));
    assert!((a.0 - b.0).abs() < 1e-12, "ibfat {} vs minhop {}", a.0, b.0);
    assert!(a.0 < 1.0);
}

/// OpenSM's ftree accepts the LSFT and routes host-to-host traffic over the unique paths
/// (same shift ratio as ibfat), but switches off those paths get no entries: spines not on a
/// host's line and leaf-to-non-adjacent-spine LIDs stay unrouted. ibfat routes every LID.
#[test]
fn ftree_leaves_lsft_lids_unrouted_where_ibfat_routes_them() {
    let (plan, lids) = load("lsft3");
    let theirs = opensm_tables("lsft3", "ftree", &plan, &lids);
    let v = validate(&plan.fabric, &lids, &theirs, Some(&plan.layout));
    assert!(
        v.black_holes > 0 && v.defective_switch_lid_entries > 0 && v.defective_host_lid_entries > 0,
        "{v:#?}"
    );
    let ours = route(&plan.fabric, &plan.layout, &lids).unwrap();
    let mine = validate(&plan.fabric, &lids, &ours, Some(&plan.layout));
    assert!(mine.ok && mine.defective_host_lid_entries == 0 && mine.defective_switch_lid_entries == 0);
    let (a, b) = (shift_ratio(&plan, &lids, &ours), shift_ratio(&plan, &lids, &theirs));
    assert_eq!((a.1, b.1), (0, 0));
    assert!((a.0 - b.0).abs() < 1e-12);
}

/// `ibroute` output of every switch reads into the same tables as `dump_lfts`.
#[test]
fn ibroute_output_reads_like_dump_lfts() {
    for name in ["kary3x3", "lsft3", "lsft2x2", "mols3"] {
        let (plan, lids) = load(name);
        let dir = fixture(name);
        let a = lftdump::read(&dir.join("ibroute-minhop.txt"), &plan.fabric, &lids).unwrap();
        let b = lftdump::read(&dir.join("dump_lfts-minhop.txt"), &plan.fabric, &lids).unwrap();
        assert!(a.routed_entries() > 0);
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn every_fixture_parses_and_validates_its_host_routes() {
    for name in ["kary3x3", "lsft3", "lsft2x2", "mols3"] {
        let (plan, lids) = load(name);
        for engine in ["ftree", "minhop"] {
            let t = opensm_tables(name, engine, &plan, &lids);
            let (_, unrouted) = shift_ratio(&plan, &lids, &t);
            assert_eq!(unrouted, 0, "{name} {engine}: every host reaches every host");
        }
    }
}
