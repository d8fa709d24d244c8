//! The two-level fat-tree of seed 001 (RICC: 52 leaves × 20 hosts, 2 spines, 2 cables per
//! leaf-spine pair): built, written as `family: twolevel` in fabric.yaml, recognised from a
//! shuffled ibsim net file as `twolevel` when asked (automatic recognition says `pgft` and
//! names the twolevel spelling), routed, and refused with exit 2 on bad sizes.

use crate::harness::ibfat;

const RICC: [&str; 10] = [
    "build",
    "twolevel",
    "--leaves",
    "52",
    "--hosts-per-leaf",
    "20",
    "--spines",
    "2",
    "--links-per-pair",
    "2",
];

#[test]
fn ricc_is_built_recognised_as_twolevel_and_routed() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("ricc");
    let d = dir.to_str().unwrap();
    let mut args = RICC.to_vec();
    args.extend(["--shuffle", "5", "--no-svg", "--out", d]);
    let (c, _, e) = ibfat(&args);
    assert_eq!(c, 0, "{e}");
    for f in ["topology.net", "cables.csv", "fabric.yaml", "topology.dot"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    let net = dir.join("topology.net");
    let (c, o, e) = ibfat(&["recognize", net.to_str().unwrap(), "--family", "twolevel", "--json"]);
    assert_eq!(c, 0, "{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["family"], "twolevel");
    assert_eq!(
        (
            &v["leaf_switches"],
            &v["hosts_per_leaf"],
            &v["spine_switches"],
            &v["links_per_pair"]
        ),
        (
            &serde_json::json!(52),
            &serde_json::json!(20),
            &serde_json::json!(2),
            &serde_json::json!(2)
        )
    );
    assert_eq!(v["hosts"], 1040);
    let (c, o, e) = ibfat(&["recognize", net.to_str().unwrap(), "--json"]);
    assert_eq!(c, 0, "{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["family"], "pgft");
    assert_eq!(
        v["equivalent"],
        "twolevel --leaves 52 --hosts-per-leaf 20 --spines 2 --links-per-pair 2"
    );
    // routed as the family it was recognised as: complete, deadlock-free tables
    let lfts = t.path().join("routes");
    let (c, _, e) = ibfat(&[
        "route",
        net.to_str().unwrap(),
        "--family",
        "twolevel",
        "--out",
        lfts.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{e}");
    assert!(lfts.join("opensm-lfts.dump").exists());
}

#[test]
fn fabric_yaml_may_spell_the_family_twolevel() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    let mut args = RICC.to_vec();
    args.extend(["--no-svg", "--out", a.to_str().unwrap()]);
    let (c, _, e) = ibfat(&args);
    assert_eq!(c, 0, "{e}");
    let spec = t.path().join("ricc.yaml");
    std::fs::write(
        &spec,
        "family: twolevel\nleaves: 52\nhosts_per_leaf: 20\nspines: 2\nlinks_per_pair: 2\n",
    )
    .unwrap();
    let (c, _, e) = ibfat(&[
        "build",
        "--spec",
        spec.to_str().unwrap(),
        "--no-svg",
        "--out",
        b.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{e}");
    for f in ["topology.net", "cables.csv"] {
        assert_eq!(
            std::fs::read_to_string(a.join(f)).unwrap(),
            std::fs::read_to_string(b.join(f)).unwrap(),
            "{f}"
        );
    }
    std::fs::write(
        &spec,
        "family: twolevel\nleaves: 52\nhosts_per_leaf: 20\ndown: [2, 2]\n",
    )
    .unwrap();
    let (c, _, e) = ibfat(&["build", "--spec", spec.to_str().unwrap(), "--json"]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("down: does not apply to family twolevel"), "{e}");
}

#[test]
fn bad_sizes_exit_2_and_write_nothing() {
    let t = tempfile::tempdir().unwrap();
    let bad = t.path().join("bad");
    for (spines, want) in [("0", "spines: 0 is out of range"), ("200", "would need")] {
        let mut args = RICC.to_vec();
        args[7] = spines;
        args.extend(["--out", bad.to_str().unwrap()]);
        let (c, _, e) = ibfat(&args);
        assert_eq!(c, 2, "{e}");
        assert!(e.contains(want), "{e}");
        assert!(!bad.exists());
    }
}
