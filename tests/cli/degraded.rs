//! Degraded fabrics (issue 12, recognition and fault injection): an LSFT with cut cables,
//! a dead spine or a dead leaf is recognised as that LSFT with exactly the injected faults
//! listed (cross-checked against what `faults` cut), in the library, in `recognize` (text
//! and JSON) and through `ibfat faults`; a fabric too far from any LSFT stays unrecognised.

use crate::harness;

use crate::harness::{build_shuffled, ibfat, leaf_spine};
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::Family;
use ibfat::recognize::{recognize, Fault, Recognition};
use ibfat::topology::faults::inject;
use ibfat::topology::{FamilySpec, Spec, Topology};
use std::collections::BTreeSet;

fn lsft(q: u32, shuffle: u64) -> Topology {
    build_shuffled(FamilySpec::Lsft(LsftParams::new(q, false)), shuffle)
}

/// (leaf name, spine name) pairs.
type Cables = BTreeSet<(String, String)>;

/// (leaf name, spine name) of every cable the recognition says is missing, and the
/// numbers of dead spines and leaves.
fn reported(t: &Topology, cut: usize, seed: u64, dead: &[&str]) -> (Cables, usize, usize, Cables) {
    let f = &t.fabric;
    let dead: Vec<_> = dead
        .iter()
        .map(|n| f.switches().find(|&s| f.node(s).name == *n).unwrap())
        .collect();
    let inj = inject(f, cut, seed, &dead).unwrap();
    let want: BTreeSet<(String, String)> = inj.cut.iter().map(|l| leaf_spine(f, l.a, l.b)).collect();
    let rec = recognize(&inj.fabric, None);
    let Recognition::Unrecognized { degraded: Some(d), .. } = rec else {
        panic!(
            "LSFT({}) with {cut} cuts (seed {seed}), dead {dead:?}: not recognised as degraded",
            t.layout.hosts().len()
        )
    };
    assert_eq!(d.family, Family::Lsft);
    let (mut got, mut spines, mut leaves) = (BTreeSet::new(), 0, 0);
    for fault in &d.faults {
        match fault {
            Fault::MissingCable {
                leaf,
                spine,
                point,
                line,
            } => {
                assert!(point.starts_with('P') && line.starts_with('L'));
                got.insert((
                    inj.fabric.node(*leaf).name.clone(),
                    inj.fabric.node(*spine).name.clone(),
                ));
            }
            Fault::DeadSpine { .. } => spines += 1,
            Fault::DeadLeaf { .. } => leaves += 1,
            Fault::MissingTreeCable { .. } | Fault::DeadSwitch { .. } => panic!("a tree's fault on an LSFT: {fault:?}"),
        }
    }
    (got, spines, leaves, want)
}

#[test]
fn cut_cables_and_dead_switches_are_named() {
    for (q, cuts) in [(3u32, &[1usize, 3][..]), (5, &[1, 3, 10][..]), (7, &[1, 10, 30][..])] {
        let t = lsft(q, q as u64 + 100);
        for (i, &cut) in cuts.iter().enumerate() {
            let (got, spines, leaves, want) = reported(&t, cut, i as u64 + 1, &[]);
            assert_eq!(got, want, "LSFT({q}) with {cut} cuts");
            assert_eq!((spines, leaves), (0, 0));
        }
        // a dead spine, a dead leaf (with its hosts), and a dead spine with cuts elsewhere
        let spine = t
            .fabric
            .switches()
            .find(|&s| t.fabric.node(s).name.starts_with('S'))
            .unwrap();
        let leaf = t
            .fabric
            .switches()
            .find(|&s| t.fabric.node(s).name.starts_with('L'))
            .unwrap();
        let (sn, ln) = (t.fabric.node(spine).name.clone(), t.fabric.node(leaf).name.clone());
        let (got, spines, leaves, _) = reported(&t, 0, 1, &[&sn]);
        assert_eq!((got.len(), spines, leaves), (0, 1, 0), "LSFT({q}) without {sn}");
        let (got, spines, leaves, _) = reported(&t, 0, 1, &[&ln]);
        assert_eq!((got.len(), spines, leaves), (0, 0, 1), "LSFT({q}) without {ln}");
        let (got, spines, leaves, want) = reported(&t, 2, 9, &[&sn]);
        assert_eq!((got, spines, leaves), (want, 1, 0), "LSFT({q}) without {sn}, 2 cuts");
    }
    // an intact fabric is not degraded; a fabric that is no LSFT at all is not either
    let t = lsft(3, 1);
    assert!(matches!(recognize(&t.fabric, None), Recognition::Recognized { .. }));
    let k = Spec::new(FamilySpec::Kary(ibfat::families::kary::model::KaryParams {
        arity: 4,
        levels: 2,
    }))
    .build()
    .unwrap();
    let inj = inject(&k.fabric, 3, 1, &[]).unwrap();
    // not a degraded LSFT: since degraded trees are recognised (issue 12), it is the k-ary
    // tree with its 3 cuts (tests/library/degraded_pgft.rs)
    assert!(matches!(
        recognize(&inj.fabric, None),
        Recognition::Unrecognized { degraded: Some(ref d), .. } if d.family == Family::Kary && d.faults.len() == 3
    ));
}

/// The CLI: `faults` writes the degraded fabric and the ibsim commands; `recognize` lists
/// the faults (exit 1: defects found), in JSON under `faults` with family and order of the
/// intact LSFT; `route` routes it with detours and writes the SL and SL-to-VL files; a command
/// that needs the intact family names the first fault (exit 2).
#[test]
fn cli_faults_and_recognize() {
    let t = tempfile::tempdir().unwrap();
    let (plan, out, _) =
        harness::lsft_with_faults(t.path(), 5, 4, "cut", &["--cut", "3", "--seed", "7", "--dead", "S2"]);
    let (p, od) = (plan.to_str().unwrap(), out.to_str().unwrap());
    let cuts = std::fs::read_to_string(out.join("cut.ibsim")).unwrap();
    let restore = std::fs::read_to_string(out.join("restore.ibsim")).unwrap();
    assert_eq!(
        cuts.lines().count(),
        3 + 6,
        "3 cables and the 6 of the dead spine:\n{cuts}"
    );
    assert!(cuts.lines().all(|l| l.starts_with("Unlink \"")), "{cuts}");
    assert_eq!(restore.replace("ReLink", "Unlink"), cuts);
    let net = out.join("topology.net");
    let (c, o, e) = ibfat(&["recognize", net.to_str().unwrap(), "--json"]);
    assert_eq!(c, 1, "{o}{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!((v["family"].as_str(), v["order"].as_u64()), (Some("lsft"), Some(5)));
    let faults = v["faults"].as_array().unwrap();
    assert_eq!(faults.iter().filter(|f| f["kind"] == "missing-cable").count(), 3);
    assert_eq!(faults.iter().filter(|f| f["kind"] == "dead-spine").count(), 1);
    let listed = std::fs::read_to_string(out.join("faults.txt")).unwrap();
    for f in faults.iter().filter(|f| f["kind"] == "missing-cable") {
        let (leaf, spine) = (
            f["leaf"]["name"].as_str().unwrap(),
            f["spine"]["name"].as_str().unwrap(),
        );
        assert!(
            listed
                .lines()
                .any(|l| l.contains(&format!("{leaf}[")) && l.contains(&format!("{spine}["))),
            "{leaf}-{spine} not in\n{listed}"
        );
    }
    let (c, o, _) = ibfat(&["recognize", net.to_str().unwrap()]);
    assert_eq!(c, 1);
    assert!(
        o.contains("degraded: 3 missing cables, 1 dead spines, 0 dead leaves") && o.contains("dead-spine L"),
        "{o}"
    );
    // route: the degraded fabric with detours, SLs and SL-to-VL tables, proven per VL
    let routes = t.path().join("routes");
    let (c, o, e) = ibfat(&[
        "route",
        net.to_str().unwrap(),
        "--out",
        routes.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(c, 0, "{o}{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["schema"], "ibfat.route/2");
    assert_eq!(v["method"], "detours", "{o}");
    // the VLs the per-VL check walked are the ones the routes declare: 2, or 3 exactly
    // when some route turns twice
    let two =
        v["detours"]["two_turn_host_lids"].as_u64().unwrap() + v["detours"]["two_turn_switch_lids"].as_u64().unwrap();
    assert_eq!(v["lanes"]["proof"]["vls"].as_u64(), v["data_vls"].as_u64(), "{o}");
    assert_eq!(v["data_vls"].as_u64(), Some(2 + (two > 0) as u64), "{o}");
    let data_vls = v["data_vls"].as_u64().unwrap();
    assert!(
        v["lanes"]["proof"]["per_vl"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["acyclic"] == true),
        "{o}"
    );
    assert!(v["lanes"]["proof"]["sl_paths"].as_u64().unwrap() > 0, "{o}");
    let sl2vl = std::fs::read_to_string(routes.join("sl2vl.txt")).unwrap();
    let path_sl = std::fs::read_to_string(routes.join("path-sl.txt")).unwrap();
    assert!(sl2vl.contains("# computed-for fabric 0x") && path_sl.contains("# computed-for fabric 0x"));
    // every listed pair uses one of the rule's SLs, 1 ..= 2J (LSFT(5): 31 leaves, J = 5);
    // every table line maps SL 0 to VL 0
    assert!(path_sl.lines().filter(|l| !l.starts_with('#')).all(|l| l
        .rsplit(' ')
        .next()
        .and_then(|x| x.parse::<u8>().ok())
        .is_some_and(|s| (1..=10).contains(&s))));
    assert!(sl2vl
        .lines()
        .filter(|l| !l.starts_with('#'))
        .all(|l| l.split(' ').nth(3) == Some("0")));
    assert!(routes.join("opensm-lfts.dump").exists() && routes.join("guid2lid").exists());
    // lfts validate with the SL files: deadlock freedom per VL; files for other tables refused
    let dump = routes.join("opensm-lfts.dump");
    let (sl, vl) = (routes.join("path-sl.txt"), routes.join("sl2vl.txt"));
    let args = |sl: &std::path::Path| {
        vec![
            "lfts".to_string(),
            "validate".into(),
            net.to_str().unwrap().into(),
            "--lfts".into(),
            dump.to_str().unwrap().into(),
            "--sl".into(),
            sl.to_str().unwrap().into(),
            "--sl2vl".into(),
            vl.to_str().unwrap().into(),
        ]
    };
    let a: Vec<String> = args(&sl);
    let (c, o, e) = ibfat(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(c, 0, "{o}{e}");
    assert!(
        o.contains(&format!("deadlock per VL: free ({data_vls} data VLs")) && o.contains("VL 1:"),
        "{o}"
    );
    let stale = t.path().join("stale-sl.txt");
    std::fs::write(
        &stale,
        path_sl.replacen("computed-for fabric 0x", "computed-for fabric 0x1", 1),
    )
    .unwrap();
    let a: Vec<String> = args(&stale);
    let (c, _, e) = ibfat(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("stale-sl.txt") && e.contains("other tables"), "{e}");
    // a command that needs the intact family names the fault and points at route
    // (`schedule --pattern lsft` repairs instead: cli_schedule_repairs_a_degraded_lsft)
    let g2l = routes.join("guid2lid");
    let (c, _, e) = ibfat(&[
        "check",
        net.to_str().unwrap(),
        "--lids",
        g2l.to_str().unwrap(),
        "--pattern",
        "lsft",
    ]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("first fault") && e.contains("ibfat route"), "{e}");
    // bad input: nothing to inject, an unknown switch, more cuts than cables
    for args in [
        vec!["faults", p, "--out", od],
        vec!["faults", p, "--dead", "nope", "--out", od],
        vec!["faults", p, "--cut", "100000", "--out", od],
    ] {
        let (c, _, e) = ibfat(&args);
        assert_eq!(c, 2, "{args:?}: {e}");
    }
}
