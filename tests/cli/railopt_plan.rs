//! Rail-optimised plans (issue 40 item 3): `ibfat build railopt` writes the usual plan
//! folder for the two-level SuperPOD designs (1 to 4 units) and three-level ones (one
//! pod, several pods); what it writes is recognised as servers on rails in units, rebuilds
//! identically from its fabric.yaml, routes with every GPU pattern conflict-free on the
//! plan and on the recognised net file alike, draws units and rails, and refuses options
//! out of range by name (exit 2).

use crate::harness::ibfat;
use serde_json::Value;
use std::path::Path;

fn build(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["build", "railopt"];
    all.extend(args);
    all.extend(["--out", dir.to_str().unwrap(), "--json"]);
    let (code, out, err) = ibfat(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// Max congestion of `pattern` (with `--job job`) on `topology`.
fn congestion(topology: &str, pattern: &str, job: Option<&str>) -> u64 {
    let mut args = vec!["check", topology, "--pattern", pattern, "--json"];
    args.extend(job.map(|j| ["--job", j]).into_iter().flatten());
    let (code, out, err) = ibfat(&args);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{args:?}: {err}"));
    assert_eq!(code, 0, "{args:?}: {out}");
    v["max_congestion"].as_u64().unwrap()
}

/// A design: build options, then servers, rails, units, switches and the PGFT it is.
type Design<'a> = (&'a [&'a str], u64, usize, usize, u64, &'a str);

#[test]
fn plans_are_servers_on_rails_and_every_gpu_pattern_is_conflict_free() {
    let t = tempfile::tempdir().unwrap();
    // (options, servers, rails, units, switches, PGFT)
    let designs: [Design; 6] = [
        (&["--sus", "1"], 32, 8, 1, 12, "PGFT(2; 32,8; 1,4; 1,8)"),
        (&["--sus", "2"], 64, 8, 2, 24, "PGFT(2; 32,16; 1,8; 1,4)"),
        (&["--sus", "3"], 96, 8, 3, 40, "PGFT(2; 32,24; 1,16; 1,2)"),
        (&["--sus", "4"], 128, 8, 4, 48, "PGFT(2; 32,32; 1,16; 1,2)"),
        (
            &["--sus", "8", "--levels", "3"],
            256,
            8,
            8,
            160,
            "PGFT(3; 32,8,8; 1,8,4; 1,4,8)",
        ),
        (
            // two pods of 4 units: rail traffic between pods crosses the core
            &[
                "--sus",
                "8",
                "--servers-per-su",
                "4",
                "--rails",
                "2",
                "--radix",
                "8",
                "--levels",
                "3",
            ],
            32,
            2,
            8,
            40,
            "PGFT(3; 4,4,4; 1,4,2; 1,1,2)",
        ),
    ];
    for (k, (args, servers, rails, units, switches, pgft)) in designs.into_iter().enumerate() {
        let dir = t.path().join(format!("plan{k}"));
        let r = build(&dir, args);
        assert_eq!(r["family"], "railopt", "{r}");
        assert_eq!(r["switches"].as_u64(), Some(switches), "{args:?}");
        assert!(r["description"].as_str().unwrap().contains(pgft), "{r}");
        let net = dir.join("topology.net").display().to_string();
        let (code, out, err) = ibfat(&["recognize", &net, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let ro = &v["rail_optimised"];
        assert_eq!(ro["servers"].as_u64(), Some(servers), "{args:?}: {ro}");
        assert_eq!(ro["rails"].as_array().unwrap().len(), rails);
        assert_eq!(ro["units"].as_array().unwrap().len(), units);
        assert_eq!((ro["errors"].as_u64(), ro["warnings"].as_u64()), (Some(0), Some(0)));
        // the rebuild from fabric.yaml is the identical fabric
        let again = t.path().join(format!("again{k}"));
        let spec = dir.join("fabric.yaml").display().to_string();
        let (code, _, err) = ibfat(&["build", "--spec", &spec, "--out", again.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        let read = |d: &Path| std::fs::read_to_string(d.join("topology.net")).unwrap();
        assert_eq!(read(&dir), read(&again), "{args:?}");
        // the plan (its own layout) and the net file (recognised) route every GPU pattern
        // without a conflict, the shift in GPU order too
        let plan = dir.display().to_string();
        let gpu_order = format!("dgx[001-{servers:03}]");
        for topology in [&plan, &net] {
            for (pattern, job) in [
                ("rail-alltoall", None),
                ("rail-ring", None),
                ("shift", Some(gpu_order.as_str())),
                ("shift", None),
                ("bisection", None),
            ] {
                assert_eq!(
                    congestion(topology, pattern, job),
                    1,
                    "{args:?} {topology} {pattern} {job:?}"
                );
            }
        }
    }
}

/// The SuperPOD as sold: 31 DGX per unit on leaves of 32 slots (the last for a management
/// host), still 32 uplinks per leaf; the GPU patterns stay conflict-free.
#[test]
fn thirty_one_servers_per_unit_keep_the_uplinks_and_the_gpu_patterns() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("superpod");
    let r = build(&dir, &["--sus", "4", "--servers-per-su", "31"]);
    assert_eq!(r["switches"], 48, "{r}");
    assert_eq!(r["hosts"], 4 * 31 * 8, "{r}");
    assert!(
        r["description"].as_str().unwrap().contains("PGFT(2; 32,32; 1,16; 1,2)"),
        "{r}"
    );
    let net = dir.join("topology.net").display().to_string();
    let (code, out, err) = ibfat(&["recognize", &net, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rail_optimised"]["servers"], 124, "{}", v["rail_optimised"]);
    assert_eq!(v["rail_optimised"]["units"][1]["servers"], "dgx[032-062]");
    let plan = dir.display().to_string();
    for topology in [&plan, &net] {
        for (pattern, job) in [
            ("rail-alltoall", None),
            ("rail-ring", None),
            ("shift", Some("dgx[001-124]")),
        ] {
            assert_eq!(congestion(topology, pattern, job), 1, "{topology} {pattern} {job:?}");
        }
    }
}

#[test]
fn the_picture_shows_units_and_rails() {
    let t = tempfile::tempdir().unwrap();
    for (args, title) in [
        (&["--sus", "2"][..], "2 units x 8 rails, 64 servers"),
        (&["--sus", "8", "--levels", "3"][..], "8 units x 8 rails, 256 servers"),
    ] {
        let dir = t.path().join(args[1]);
        build(&dir, args);
        let svg = std::fs::read_to_string(dir.join("topology.svg")).unwrap();
        assert!(svg.contains(title), "{args:?}");
        for leaf in ["SU1 mlx5_0", "SU2 mlx5_7"] {
            assert!(svg.contains(leaf), "{args:?}: no {leaf}");
        }
    }
}

#[test]
fn options_out_of_range_are_named_with_their_range() {
    for (args, message) in [
        (&["--sus", "0"][..], "sus: 0 is out of range; valid: at least 1"),
        (
            &["--sus", "1", "--rails", "0"],
            "rails: 0 is out of range; valid: 2..=16",
        ),
        (&["--sus", "1", "--rails", "17"], "rails: 17 is out of range"),
        (
            &["--sus", "1", "--servers-per-su", "33"],
            "servers_per_su: 33 is out of range; valid: 1..=32",
        ),
        (
            &["--sus", "1", "--servers-per-su", "0"],
            "servers_per_su: 0 is out of range",
        ),
        (&["--sus", "1", "--spines", "5"], "spines: 5 does not fit"),
        (
            &["--sus", "9"],
            "sus: 9 units have 72 leaves, more than a 64-port spine can reach; valid: 1..=8",
        ),
        (
            &["--sus", "2", "--levels", "4"],
            "levels: 4 is out of range; valid: 2 or 3",
        ),
        (
            &["--sus", "2", "--levels", "3", "--spines", "4"],
            "spines: given with 3 levels",
        ),
        (&["--sus", "1", "--radix", "300"], "radix: 300 is out of range"),
        (
            &["--sus", "176", "--levels", "3"],
            "valid: 1..=175 units of this design",
        ),
    ] {
        let mut all = vec!["build", "railopt"];
        all.extend(args);
        let (code, out, err) = ibfat(&all);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}
