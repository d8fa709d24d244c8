//! Degraded fabrics (issue 12, recognition and fault injection): an LSFT with cut cables,
//! a dead spine or a dead leaf is recognised as that LSFT with exactly the injected faults
//! listed (cross-checked against what `faults` cut), in the library, in `recognize` (text
//! and JSON) and through `ibfat faults`; a fabric too far from any LSFT stays unrecognised.

mod harness;

use harness::ibfat;
use ibfat::recognize::{recognize, FamilyHint, Fault, Recognition};
use ibfat::topology::faults::inject;
use ibfat::topology::lsft::LsftParams;
use ibfat::topology::{BuildOptions, FamilySpec, Spec, Topology};
use std::collections::BTreeSet;

fn lsft(q: u32, shuffle: u64) -> Topology {
    let mut s = Spec::new(FamilySpec::Lsft(LsftParams::new(q, false)));
    s.options = BuildOptions {
        shuffle: Some(shuffle),
        ..Default::default()
    };
    s.build().unwrap()
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
    let want: BTreeSet<(String, String)> = inj
        .cut
        .iter()
        .map(|l| {
            let (a, b) = (f.node(l.a).name.clone(), f.node(l.b).name.clone());
            if a.starts_with('L') {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect();
    let rec = recognize(&inj.fabric, None);
    let Recognition::Unrecognised { degraded: Some(d), .. } = rec else {
        panic!(
            "LSFT({}) with {cut} cuts (seed {seed}), dead {dead:?}: not recognised as degraded",
            t.layout.hosts().len()
        )
    };
    assert_eq!(d.family, FamilyHint::Lsft);
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
    assert!(matches!(recognize(&t.fabric, None), Recognition::Recognised { .. }));
    let k = Spec::new(FamilySpec::Kary(ibfat::topology::kary::KaryParams {
        arity: 4,
        levels: 2,
    }))
    .build()
    .unwrap();
    let inj = inject(&k.fabric, 3, 1, &[]).unwrap();
    assert!(matches!(
        recognize(&inj.fabric, None),
        Recognition::Unrecognised { degraded: None, .. }
    ));
}

/// The CLI: `faults` writes the degraded fabric and the ibsim commands; `recognize` lists
/// the faults (exit 1: defects found), in JSON under `faults` with family and order of the
/// intact LSFT; `route` refuses with the first fault named (exit 2), nothing written.
#[test]
fn cli_faults_and_recognize() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("l5");
    let p = plan.to_str().unwrap();
    let (c, _, e) = ibfat(&[
        "build",
        "lsft",
        "--order",
        "5",
        "--shuffle",
        "4",
        "--no-svg",
        "--out",
        p,
    ]);
    assert_eq!(c, 0, "{e}");
    let out = t.path().join("cut");
    let od = out.to_str().unwrap();
    let (c, _, e) = ibfat(&["faults", p, "--cut", "3", "--seed", "7", "--dead", "S2", "--out", od]);
    assert_eq!(c, 0, "{e}");
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
    let routes = t.path().join("routes");
    let (c, _, e) = ibfat(&["route", net.to_str().unwrap(), "--out", routes.to_str().unwrap()]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("degraded") && e.contains("first fault"), "{e}");
    assert!(!routes.exists());
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
