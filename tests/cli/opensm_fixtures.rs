//! Checking tables ibfat did not make (docs/schedules.md §5.2): the checker on OpenSM's own ftree and minhop
//! tables, captured from a real OpenSM on ibsim (`examples/capture_opensm_fixtures.rs`),
//! agrees with it on ibfat's tables where the engines route the same paths.

use ibfat::check::{check, validate, CompiledRoutes};
use ibfat::formats::{guid2lid, lftdump};
use ibfat::routing::{route, Lids};
use ibfat::schedule::shift::Shift;
use ibfat::topology::{Spec, Topology};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/opensm").join(name)
}

fn load(name: &str) -> (Topology, Lids) {
    let dir = fixture(name);
    let spec = Spec::from_yaml(
        &std::fs::read_to_string(dir.join("fabric.yaml")).unwrap(),
        &dir.join("fabric.yaml"),
    )
    .unwrap();
    let plan = spec.build().unwrap();
    let lids = guid2lid::parse(
        &plan.fabric,
        &std::fs::read_to_string(dir.join("guid2lid")).unwrap(),
        &dir.join("guid2lid"),
    )
    .unwrap();
    (plan, lids)
}

fn shift_ratio(plan: &Topology, lids: &Lids, lfts: &ibfat::routing::LftSet) -> (f64, u64) {
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

fn opensm_tables(name: &str, engine: &str, plan: &Topology, lids: &Lids) -> ibfat::routing::LftSet {
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

/// The `portguid` annotations of OpenSM's dump, `dump_lfts` and `ibroute` name the same
/// LIDs as the guid2lid OpenSM was seeded with, so a dump can be checked without it; the
/// command line does that when no LIDs are given, and says why when it cannot.
#[test]
fn dump_annotations_give_the_lids_the_tables_were_made_for() {
    for name in ["kary3x3", "lsft3", "lsft2x2", "mols3"] {
        let (plan, lids) = load(name);
        let dir = fixture(name);
        for file in [
            "opensm-minhop.dump",
            "opensm-ftree.dump",
            "dump_lfts-minhop.txt",
            "dump_lfts-ftree.txt",
            "ibroute-minhop.txt",
        ] {
            let path = dir.join(file);
            let sections = lftdump::parse(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
            let found = lftdump::lids_from_annotations(&sections, &plan.fabric, &path).unwrap();
            assert_eq!(found, lids, "{name}/{file}");
            let (l2, t2) = lftdump::read_with_lids(&path, &plan.fabric, None).unwrap();
            assert_eq!(l2, lids);
            assert_eq!(t2, lftdump::read(&path, &plan.fabric, &lids).unwrap());
        }
    }
    // annotations that disagree, or a port given LIDs twice, are errors naming the line
    let (plan, _) = load("lsft3");
    let dir = fixture("lsft3");
    let path = dir.join("dump_lfts-minhop.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let second = lines.iter().rposition(|l| l.starts_with("0x0001 ")).unwrap();
    let mut bad: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    bad[second] = bad[second].replace("0x00a3cd974a517841", "0x0027c933eca19451");
    let sections = lftdump::parse(&bad.join("\n"), &path).unwrap();
    let err = lftdump::lids_from_annotations(&sections, &plan.fabric, &path)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!(":{}:", second + 1)) && err.contains("LID 0x0001 is annotated"),
        "{err}"
    );
    let g2l = std::fs::read_to_string(dir.join("guid2lid")).unwrap();
    let twice = format!("{g2l}0x00a3cd974a517841 0x0001 0x0001\n\n");
    let err = guid2lid::parse(&plan.fabric, &twice, Path::new("guid2lid"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("0x00a3cd974a517841 is given LIDs twice"), "{err}");

    // the CLI: the net file alone (no LIDs, no guid2lid beside it) and OpenSM's dump
    let tmp = std::env::temp_dir().join(format!("ibfat-annot-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let dir = fixture("lsft3");
    std::fs::copy(dir.join("topology.net"), tmp.join("topology.net")).unwrap();
    std::fs::copy(dir.join("dump_lfts-minhop.txt"), tmp.join("dump_lfts.txt")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ibfat"))
        .args(["lfts", "validate", "--json", "--topology"])
        .arg(tmp.join("topology.net"))
        .arg("--lfts")
        .arg(tmp.join("dump_lfts.txt"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{out:?}"));
    assert_eq!(v["lids"], 13 * 4 + 26, "{v}"); // LSFT(3): 52 hosts, 26 switches
    assert_eq!(v["black_holes"], 0, "{v}");
    // a dump without annotations cannot name its LIDs: exit 2 with the line and a hint
    std::fs::write(
        tmp.join("bare.txt"),
        "Unicast lids [0-2] of switch Lid 1 guid 0x1 ('x'):\n0x0001 000\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ibfat"))
        .args(["lfts", "validate", "--topology"])
        .arg(tmp.join("topology.net"))
        .arg("--lfts")
        .arg(tmp.join("bare.txt"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bare.txt:2") && err.contains("portguid") && err.contains("--lids"),
        "{err}"
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// `lfts validate` on OpenSM's own ftree tables (which leave switch-to-switch LIDs between
/// lanes unrouted): the data path and deadlock sections pass, the completeness gap is a
/// warning (exit 0) — and fatal with `--strict` (exit 1). A lost host route is always fatal.
#[test]
fn validate_tells_a_management_gap_from_a_broken_data_path() {
    let dir = fixture("kary3x3");
    let run = |extra: &[&str], lfts: &Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ibfat"))
            .args(["lfts", "validate", "--topology"])
            .arg(dir.join("fabric.yaml"))
            .arg("--lids")
            .arg(dir.join("guid2lid"))
            .arg("--lfts")
            .arg(lfts)
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let ftree = dir.join("opensm-ftree.dump");
    let (c, out, e) = run(&["--json"], &ftree);
    assert_eq!(c, Some(0), "{out}{e}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (&v["data_path_ok"], &v["deadlock_free"], &v["complete"], &v["ok"]),
        (&true.into(), &true.into(), &false.into(), &false.into()),
        "{v}"
    );
    assert_eq!(v["broken_host_routes"], 0);
    assert!(v["defective_switch_lid_entries"].as_u64().unwrap() > 0, "{v}");
    let (c, out, _) = run(&[], &ftree);
    assert_eq!(c, Some(0));
    assert!(out.contains("data path: ok") && out.contains("deadlock: free"), "{out}");
    assert!(
        out.contains("completeness: gaps (warning") && out.contains("valid for data traffic"),
        "{out}"
    );
    let (c, out, _) = run(&["--strict"], &ftree);
    assert_eq!(c, Some(1), "{out}");
    assert!(out.contains("completeness: FAILED") && out.contains("INVALID"), "{out}");

    // drop one host LID from every switch: the data path breaks, strict or not
    let text = std::fs::read_to_string(&ftree).unwrap();
    let lid = "0x0001 ";
    let holed: String = text
        .lines()
        .filter(|l| !l.starts_with(lid))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(holed, text);
    let tmp = tempfile::tempdir().unwrap();
    let hd = tmp.path().join("holed.dump");
    std::fs::write(&hd, holed).unwrap();
    let (c, out, _) = run(&["--json"], &hd);
    assert_eq!(c, Some(1), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["data_path_ok"], false);
    assert!(v["broken_host_routes"].as_u64().unwrap() > 0, "{v}");
}
