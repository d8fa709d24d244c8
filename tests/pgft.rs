//! PGFTs routed by ibfat's d-mod-k, measured by the checker on the tables: shift in tree
//! order is conflict-free on every full-bisection shape (parallel cables at one, two and
//! three levels, shuffled ports), an oversubscribed level carries no more flows per uplink
//! than its oversubscription forces, and leaves with empty slots stay conflict-free.

mod harness;

use harness::ibfat;
use ibfat::check::{check, CompiledRoutes};
use ibfat::routing::{route, Lids};
use ibfat::schedule::shift::TreeShift;
use ibfat::schedule::{Job, Pattern};
use ibfat::topology::pgft::PgftParams;
use ibfat::topology::{BuildOptions, FamilySpec, Layout, Spec, Topology};

fn plan(down: &[u32], up: &[u32], par: &[u32], hpl: Option<u32>, shuffle: Option<u64>) -> Topology {
    let mut s = Spec::new(FamilySpec::Pgft(PgftParams::from_lists(down, up, par, hpl).unwrap()));
    s.options = BuildOptions {
        shuffle,
        ..Default::default()
    };
    s.build().unwrap()
}

/// (throughput ratio, max congestion) of the tree-order shift over every host, on
/// ibfat's tables, measured by the checker; the tables also validate deadlock-free.
fn shift_on_tables(t: &Topology) -> (f64, u32) {
    let lids = Lids::plan(&t.fabric, t.layout.hosts(), 0).unwrap();
    let lfts = route(&t.fabric, &t.layout, &lids).unwrap();
    let v = ibfat::check::validate(&t.fabric, &lids, &lfts, Some(&t.layout));
    assert!(v.ok && v.deadlock_free && v.complete, "{v:?}");
    let Layout::Pgft(l) = &t.layout else { panic!() };
    let job = Job::whole(t.layout.hosts());
    let pattern = TreeShift::pgft(l, &job);
    let routes = CompiledRoutes::compile(&t.fabric, &lids, &lfts, job.hosts(), 0).unwrap();
    let r = check(&t.fabric, job.hosts(), &routes, &pattern, 0..pattern.phases(), &|| {}).unwrap();
    (r.throughput_ratio, r.max_congestion)
}

#[test]
fn full_bisection_pgfts_route_shift_without_conflict() {
    // (m, w, p): every level has as many up as down ports; parallel cables at 1, 2, 3 levels
    let shapes: [(&[u32], &[u32], &[u32]); 7] = [
        (&[4, 4], &[1, 2], &[1, 2]),
        (&[4, 4, 2], &[1, 2, 4], &[1, 2, 2]),
        (&[4, 4, 2], &[1, 4, 4], &[1, 1, 1]),
        (&[6, 3, 2], &[1, 3, 6], &[1, 2, 1]),
        (&[4, 3, 3], &[1, 2, 6], &[1, 2, 1]),
        (&[4, 2, 2, 2], &[1, 2, 2, 4], &[1, 2, 2, 1]),
        (&[3, 3, 3], &[1, 3, 3], &[1, 1, 1]),
    ];
    for (i, (m, w, p)) in shapes.into_iter().enumerate() {
        let t = plan(m, w, p, None, Some(i as u64 + 1));
        assert_eq!(shift_on_tables(&t), (1.0, 1), "PGFT m={m:?} w={w:?} p={p:?}");
    }
}

#[test]
fn oversubscription_bounds_the_congestion_and_empty_slots_keep_shift_clean() {
    // the production cluster: 24 hosts and 12 uplinks per leaf, 2:1
    let t = plan(&[24, 4], &[1, 2], &[1, 6], None, Some(3));
    let (ratio, maxc) = shift_on_tables(&t);
    assert_eq!(maxc, 2, "no uplink carries more than the 2:1 oversubscription forces");
    assert!(ratio > 0.5 && ratio < 1.0, "{ratio}");
    // 3:1 at level 2 of a 3-level tree
    let t = plan(&[4, 6, 2], &[1, 4, 2], &[1, 1, 1], None, None);
    assert_eq!(shift_on_tables(&t).1, 3);
    // leaves with empty host slots: hosts keep their slot positions, shift stays clean
    let t = plan(&[6, 3, 2], &[1, 3, 6], &[1, 2, 1], Some(4), Some(9));
    assert_eq!(t.layout.hosts().len(), 4 * 6);
    assert_eq!(shift_on_tables(&t), (1.0, 1));
}

/// The CLI end to end: build (plan files, spec), route (dump and guid2lid), check the
/// dump; bad lists are exit 2 naming the field, with nothing written.
#[test]
fn cli_builds_routes_and_checks_a_pgft() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("p");
    let d = dir.to_str().unwrap();
    let (c, o, e) = ibfat(&[
        "build",
        "pgft",
        "--down",
        "4,4,2",
        "--up",
        "1,2,4",
        "--parallel",
        "1,2,2",
        "--shuffle",
        "2",
        "--out",
        d,
        "--json",
    ]);
    assert_eq!(c, 0, "{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["family"], "pgft");
    assert_eq!(
        (v["hosts"].as_u64(), v["switches"].as_u64()),
        (Some(32), Some(20)),
        "8 leaves, 4 + 8 switches above"
    );
    let yaml = std::fs::read_to_string(dir.join("fabric.yaml")).unwrap();
    assert!(yaml.contains("family: pgft") && yaml.contains("parallel:"), "{yaml}");
    let (c, _, e) = ibfat(&["route", d, "--out", d]);
    assert_eq!(c, 0, "{e}");
    let dump = dir.join("opensm-lfts.dump");
    let (c, o, e) = ibfat(&["check", d, "--lfts", dump.to_str().unwrap(), "--pattern", "kary-shift"]);
    assert_eq!(c, 0, "{o}{e}");
    assert!(o.contains("throughput ratio 1.0000, max congestion 1"), "{o}");
    let (c, o, _) = ibfat(&["lfts", "validate", d, "--lfts", dump.to_str().unwrap()]);
    assert_eq!(c, 0, "{o}");

    let bad = t.path().join("bad");
    let (c, _, e) = ibfat(&[
        "build",
        "pgft",
        "--down",
        "4,4",
        "--up",
        "1,2",
        "--parallel",
        "1",
        "--out",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("parallel: 1 values for 2 levels"), "{e}");
    assert!(!bad.exists());
}

/// `build twolevel` is PGFT(2; H,L; 1,S; 1,P), and its routing is the seed-001 uplink
/// rule: host d is reached over leaf uplink u = d mod (S·P) (spine u mod S, cable u div S).
#[test]
fn twolevel_is_the_h2_pgft_with_the_uplink_rule() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    let (c, _, e) = ibfat(&[
        "build",
        "twolevel",
        "--leaves",
        "4",
        "--hosts-per-leaf",
        "8",
        "--spines",
        "2",
        "--links-per-pair",
        "2",
        "--out",
        a.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = ibfat(&[
        "build",
        "pgft",
        "--down",
        "8,4",
        "--up",
        "1,2",
        "--parallel",
        "1,2",
        "--out",
        b.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{e}");
    for f in ["fabric.yaml", "topology.net"] {
        assert_eq!(
            std::fs::read_to_string(a.join(f)).unwrap(),
            std::fs::read_to_string(b.join(f)).unwrap(),
            "{f}"
        );
    }
    let t = plan(&[8, 4], &[1, 2], &[1, 2], None, Some(5));
    let Layout::Pgft(l) = &t.layout else { panic!() };
    let lids = Lids::plan(&t.fabric, t.layout.hosts(), 0).unwrap();
    let lfts = route(&t.fabric, &t.layout, &lids).unwrap();
    let leaf0 = l.switches[0];
    for (r, &d) in l.host_pos.iter().enumerate() {
        if d / 8 == 0 {
            continue; // on leaf 0 itself
        }
        let ep = t.layout.hosts()[r];
        let lid = lids.base[t.fabric.port_index(ep.node, ep.port) as usize];
        let u = d % 4;
        assert_eq!(lfts.get(leaf0, lid), Some(l.up[(l.up_off[0] + u) as usize]), "host {d}");
        let (spine, _) = t.fabric.peer(leaf0, l.up[(l.up_off[0] + u) as usize]).unwrap();
        assert_eq!(spine, l.switches[4 + (u % 2) as usize], "host {d}: spine u mod S");
    }
}

/// Recognition from the cabling alone (shuffled ports, random GUIDs, parallel cables,
/// oversubscription, a switch model larger than the leaves use, empty slots): the
/// parameters come back, and the recognised layout's own tables measure what the plan's
/// do for tree-order shift.
#[test]
fn pgfts_are_recognised_from_their_cabling() {
    use ibfat::recognize::{recognize, FamilyHint, Recognition};
    type Shape<'a> = (&'a [u32], &'a [u32], &'a [u32], Option<u32>);
    let shapes: [Shape; 6] = [
        (&[24, 4], &[1, 2], &[1, 6], None),
        (&[4, 4, 2], &[1, 2, 4], &[1, 2, 2], None),
        (&[6, 3, 2], &[1, 3, 6], &[1, 2, 1], None),
        (&[4, 2, 2, 2], &[1, 2, 2, 4], &[1, 2, 2, 1], None),
        (&[4, 6, 2], &[1, 4, 2], &[1, 1, 1], None),
        (&[6, 3, 2], &[1, 3, 6], &[1, 2, 1], Some(4)),
    ];
    for (i, (m, w, p, hpl)) in shapes.into_iter().enumerate() {
        let planned = plan(m, w, p, hpl, Some(40 + i as u64));
        let Recognition::Recognised { layout, .. } = recognize(&planned.fabric, Some(FamilyHint::Pgft)) else {
            panic!("PGFT m={m:?} w={w:?} p={p:?} not recognised")
        };
        let Layout::Pgft(l) = &layout else { panic!() };
        let want = PgftParams {
            hosts_per_leaf: None,
            down: {
                let mut d = PgftParams::from_lists(m, w, p, None).unwrap().down;
                d[0] = hpl.unwrap_or(m[0]);
                d
            },
            ..PgftParams::from_lists(m, w, p, None).unwrap()
        };
        assert_eq!(l.params, want, "m={m:?} w={w:?} p={p:?} hosts/leaf {hpl:?}");
        assert_eq!(l.hosts.len(), planned.layout.hosts().len());
        let found = Topology::discovered(planned.fabric.clone(), layout.clone(), "found");
        assert_eq!(shift_on_tables(&found), shift_on_tables(&planned), "m={m:?}");
    }
    // an LSFT is not a PGFT (leaves sharing one spine do not share all), and says why
    let lsft = Spec::new(FamilySpec::Lsft(ibfat::topology::lsft::LsftParams::new(3, false)))
        .build()
        .unwrap();
    let Recognition::Unrecognised { reason, .. } = recognize(&lsft.fabric, Some(FamilyHint::Pgft)) else {
        panic!("an LSFT recognised as a PGFT")
    };
    assert!(!reason.is_empty());
}

/// `recognize --json` reports the PGFT's parameters, oversubscription and maps.
#[test]
fn recognize_reports_a_pgft() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("p");
    let (c, _, e) = ibfat(&[
        "build",
        "pgft",
        "--down",
        "24,4",
        "--up",
        "1,2",
        "--parallel",
        "1,6",
        "--shuffle",
        "8",
        "--out",
        dir.to_str().unwrap(),
        "--no-svg",
    ]);
    assert_eq!(c, 0, "{e}");
    let (c, o, e) = ibfat(&["recognize", dir.join("topology.net").to_str().unwrap(), "--json"]);
    assert_eq!(c, 0, "{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["family"], "pgft");
    assert_eq!(v["down"], serde_json::json!([24, 4]));
    assert_eq!(v["up"], serde_json::json!([1, 2]));
    assert_eq!(v["parallel"], serde_json::json!([1, 6]));
    assert_eq!(v["oversubscription"], serde_json::json!([2.0]));
    assert_eq!(v["host_map"].as_array().unwrap().len(), 96);
    assert_eq!(v["switch_map"].as_array().unwrap().len(), 6);
}
