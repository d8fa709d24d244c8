//! Switch-LID detours of degraded trees on a second VL (issue 12, `routing::tree_lanes`),
//! through what the CLI and the library's pipeline give: `ibfat route` writes the detours'
//! SLs and SL-to-VL tables and `lfts validate` proves them per VL; far beyond the test
//! matrix, `route_fabric` leaves almost nothing to the escape lane's refusals. The routers'
//! own results (the detour list, dropping it for one VL) are unit tests in
//! `src/check/tree_detours.rs`.

use crate::harness;

use crate::harness::{build_shuffled, degraded};
use ibfat::check::vls::check_lanes;
use ibfat::families::kary::model::KaryParams;
use ibfat::routing::{Ask, Lids};
use ibfat::topology::faults::inject;
use ibfat::topology::FamilySpec;

/// `ibfat route` on a cut 4-ary 3-tree writes the detours' SLs (1 and 2) and SL-to-VL
/// tables next to the dump, and `ibfat lfts validate` proves the written files per VL.
#[test]
fn cli_route_writes_the_detours_lanes_and_lfts_validate_proves_them() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    harness::build_plan(
        &["build", "kary", "--arity", "4", "--levels", "3", "--shuffle", "7"],
        &plan,
    );
    let cut = t.path().join("cut");
    let (p, c) = (plan.to_str().unwrap(), cut.to_str().unwrap());
    let (code, so, e) = harness::ibfat(&["faults", p, "--cut", "10", "--seed", "7", "--out", c]);
    assert_eq!(code, 0, "{so}{e}");
    let net = cut.join("topology.net");
    let routes = t.path().join("routes");
    let (n, r) = (net.to_str().unwrap(), routes.to_str().unwrap());
    let (code, so, e) = harness::ibfat(&["route", n, "--out", r, "--json"]);
    assert_eq!(code, 0, "{so}{e}");
    let v: serde_json::Value = serde_json::from_str(&so).unwrap();
    let detours = v["detours"]["switch_lids"].as_u64().unwrap();
    assert!(detours > 0, "{so}");
    assert_eq!(
        (v["lanes"]["proof"]["vls"].as_u64(), v["data_vls"].as_u64()),
        (Some(2), Some(2)),
        "{so}"
    );
    assert_eq!(v["valid"].as_bool(), Some(true), "{so}");
    // path-sl.txt lists the detours (one line per host on a detour's leaf): SLs 1 and 2 only,
    // both used on this fabric (relay leaves and level-2 turns below a cut top cable)
    let path_sl = std::fs::read_to_string(routes.join("path-sl.txt")).unwrap();
    let sls: Vec<&str> = path_sl
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.rsplit(' ').next())
        .collect();
    assert!(sls.iter().all(|s| *s == "1" || *s == "2"), "{path_sl}");
    assert!(sls.contains(&"1") && sls.contains(&"2"), "{path_sl}");
    let file = |f: &str| routes.join(f).to_str().unwrap().to_string();
    let (dump, g2l, sl, sl2vl) = (
        file("opensm-lfts.dump"),
        file("guid2lid"),
        file("path-sl.txt"),
        file("sl2vl.txt"),
    );
    let validate = |lanes: &[&str]| {
        let mut args = vec!["lfts", "validate", n, "--lfts", &dump, "--lids", &g2l];
        args.extend_from_slice(lanes);
        harness::ibfat(&args)
    };
    let (code, so, e) = validate(&["--sl", &sl, "--sl2vl", &sl2vl]);
    assert_eq!(code, 0, "{so}{e}");
    assert!(
        so.contains("deadlock per VL: free (2 data VLs") && so.contains("VL 1:"),
        "{so}"
    );
    // without the SL files the one-VL CDG has the detours' cycle: the second VL is needed
    let (code, so, _) = validate(&[]);
    assert_eq!(code, 1, "{so}");
    assert!(
        so.contains("host-sourced CDG CYCLIC") && so.contains("completeness: ok"),
        "{so}"
    );
}

/// Far beyond the test matrix — an 8-ary 3-tree with 300 of its 1,024 switch cables cut
/// (29 %), three seeds — the escape lane takes nearly everything the relay rule cannot:
/// every host pair routed, at most 1 % of the escape lane's pairs refused (LID-by-LID
/// acceptance refused 9 %, before a source whose path would close a cycle tried its other
/// cables), and every VL's CDG acyclic on the tables.
#[test]
fn heavy_faults_leave_almost_nothing_to_the_escape_lanes_refusals() {
    let t = build_shuffled(FamilySpec::Kary(KaryParams { arity: 8, levels: 3 }), 9);
    let (mut escaped, mut refused) = (0, 0);
    for seed in 1..=3 {
        let what = format!("8-ary 3-tree with 300 cuts (seed {seed})");
        let inj = inject(&t.fabric, 300, seed, &[]).unwrap();
        let g = &inj.fabric;
        let d = degraded(g, None, &what);
        let lids = Lids::plan(g, &[], 0).unwrap();
        let r = harness::route_degraded(g, &d, &lids, &Ask::default(), &what);
        assert_eq!(r.unrouted, 0, "{what}: {:?}", r.unrouted_named);
        assert_eq!(r.unrouted_switch_lids, r.escape.refused, "{what}");
        let v = check_lanes(g, &lids, &r.lfts, r.lanes.as_deref().expect("lanes"));
        assert!(
            v.ok() && v.broken == 0 && v.unrouted == r.escape.refused,
            "{what}: {v:?}"
        );
        escaped += r.escape.pairs.len() as u64;
        refused += r.escape.refused;
    }
    eprintln!("{escaped} pairs on the escape lane, {refused} refused");
    assert!(
        escaped > 1000 && refused * 100 <= escaped,
        "{escaped} escaped, {refused} refused"
    );
}
