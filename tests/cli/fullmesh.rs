//! Full meshes of switches (issue 15): plans, recognition from ibsim net files (shuffled
//! ports, random GUIDs, one description for every switch), bad input, and the LMC
//! multipath routes with their per-VL deadlock proof.

use crate::harness;

use crate::harness::ibfat;
use ibfat::check::multipath::{throughput, MeshPattern};
use ibfat::check::validate;
use ibfat::check::vls::check_vls;
use ibfat::families::fullmesh::model::FullmeshParams;
use ibfat::families::fullmesh::route::{relay, FullmeshLanes};
use ibfat::families::fullmesh::route_plan::PathPlan;
use ibfat::families::Family;
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::{route, Lids};
use ibfat::topology::{BuildOptions, FamilySpec, Layout, NodeKind, Spec, Topology};

fn mesh(n: u32, h: u32, w: u32, shuffle: Option<u64>) -> Topology {
    let mut s = Spec::new(FamilySpec::Fullmesh(FullmeshParams {
        switches: n,
        hosts_per_switch: h,
        cables_per_pair: w,
    }));
    s.options = BuildOptions {
        shuffle,
        ..Default::default()
    };
    s.build().unwrap()
}

/// The ibsim net file of `t` with every switch described alike (as on real clusters).
fn net_with_one_description(t: &Topology) -> String {
    let mut f = t.fabric.clone();
    for n in f.nodes.iter_mut().filter(|n| n.kind == NodeKind::Switch) {
        n.desc = "SwitchX Mellanox Technologies".into();
    }
    ibfat::formats::ibsim::write_net(&f, &[])
}

#[test]
fn shuffled_meshes_are_recognised_from_net_files() {
    let dir = tempfile::tempdir().unwrap();
    for (n, h, w, seed) in [(3, 1, 1, 1), (4, 2, 2, 2), (6, 3, 1, 3), (8, 4, 2, 4)] {
        let t = mesh(n, h, w, Some(seed));
        let path = dir.path().join(format!("m{n}.net"));
        std::fs::write(&path, net_with_one_description(&t)).unwrap();
        let (code, out, err) = ibfat(&["recognize", path.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["family"], "fullmesh", "{out}");
        assert_eq!(v["switches"], n);
        assert_eq!(v["hosts"], n * h);
        assert_eq!(v["hosts_per_switch"], h);
        assert_eq!(v["cables_per_pair"], w);
        // the library agrees, and the layout names every cable of the fabric
        let Recognition::Recognized {
            layout: Layout::Fullmesh(l),
            ..
        } = recognize(&t.fabric, None)
        else {
            panic!("not a full mesh")
        };
        assert_eq!((l.n, l.h, l.w), (n, h, w));
        for i in 0..n {
            for j in (0..n).filter(|&j| j != i) {
                for c in 0..w {
                    let (peer, _) = t.fabric.peer(l.switches[i as usize], l.cable(i, j, c)).unwrap();
                    assert_eq!(peer, l.switches[j as usize]);
                }
            }
        }
    }
}

/// Issue 15 item 6 (and 12): a mesh with cut cables is recognised as that mesh with the
/// missing cables as faults, and routed around them — every host LID offset and switch
/// LID from every switch in at most two switch hops, pairs with their cables unchanged,
/// deadlock-free on two VLs; with half the pairs cut it is no mesh any more.
#[test]
fn a_mesh_with_cut_cables_is_recognised_and_routed_around_them() {
    let t = mesh(5, 2, 1, Some(9));
    let Layout::Fullmesh(l) = &t.layout else { panic!() };
    let mut f = t.fabric.clone();
    f.disconnect(l.switches[0], l.cable(0, 3, 0));
    let Recognition::Recognized {
        layout: Layout::Fullmesh(d),
        ..
    } = recognize(&f, Some(Family::Fullmesh))
    else {
        panic!("a mesh with one cut cable is not recognised")
    };
    assert_eq!(d.cut.len(), 1);
    assert!(Layout::Fullmesh(d.clone())
        .describe()
        .ends_with("degraded: 1 missing cables"));
    for (n, w, cuts, seed) in [
        (6u32, 1u32, 3usize, 1u64),
        (6, 1, 3, 2),
        (8, 1, 6, 3),
        (8, 2, 6, 4),
        (6, 1, 1, 5),
    ] {
        let t = mesh(n, 2, w, Some(seed));
        let inj = ibfat::topology::faults::inject(&t.fabric, cuts, seed, &[]).unwrap();
        let Recognition::Recognized { layout, .. } = recognize(&inj.fabric, None) else {
            panic!("N={n} W={w} with {cuts} cuts not recognised")
        };
        let Layout::Fullmesh(d) = &layout else {
            panic!("{}", layout.describe())
        };
        assert_eq!(d.cut.iter().map(|c| c.2).sum::<u32>(), cuts as u32, "N={n}");
        for lmc in [0u8, 2] {
            let what = format!("N={n} W={w} cuts={cuts} seed={seed} LMC {lmc}");
            let lids = Lids::plan(&inj.fabric, &[], lmc).unwrap();
            let lfts = route(&inj.fabric, &layout, &lids).unwrap();
            let v = validate(&inj.fabric, &lids, &lfts, Some(&layout));
            assert!(v.data_path_ok && v.complete, "{what}: {:?}", v.defects.first());
            let lanes = FullmeshLanes::new(&inj.fabric, d, &lids);
            let vr = check_vls(
                &inj.fabric,
                &lids,
                &lfts,
                |s, dl| lanes.sl(s, dl),
                |x, sl, i, o| lanes.vl(x, sl, i, o),
            );
            assert!(vr.ok() && vr.unrouted == 0 && vr.vls <= 2, "{what}: {vr:?}");
            if lmc == 0 {
                // at LMC 0 only pairs that lost every cable detour, and every entry of a
                // pair with all its cables is the intact one
                assert_eq!(vr.sl_paths > 0, d.cut.iter().any(|c| c.2 == w), "{what}");
                // the intact mesh recognised the same way (canonical frame: GUID order, slots by port)
                let Recognition::Recognized {
                    layout: whole_layout, ..
                } = recognize(&t.fabric, None)
                else {
                    panic!()
                };
                let intact = route(&t.fabric, &whole_layout, &lids).unwrap();
                let whole = |i: u32, j: u32| !d.cut.iter().any(|c| (c.0, c.1) == (i.min(j), i.max(j)));
                let mut same = 0;
                for (lid, &owner) in lids.owner.iter().enumerate().skip(1) {
                    if owner == ibfat::topology::NO_PEER {
                        continue;
                    }
                    let node = inj.fabric.ports[owner as usize].node;
                    let target = inj
                        .fabric
                        .peer(node, inj.fabric.ports[owner as usize].num)
                        .map_or(node, |x| x.0);
                    let Some(tj) = d.switches.iter().position(|&x| x == target) else {
                        continue;
                    };
                    for (i, &sw) in d.switches.iter().enumerate() {
                        if i != tj && whole(i as u32, tj as u32) {
                            assert_eq!(
                                lfts.get(sw, lid as u16),
                                intact.get(sw, lid as u16),
                                "{what}: LID {lid}"
                            );
                            same += 1;
                        }
                    }
                }
                assert!(same > 0, "{what}");
            }
        }
    }
    // half the pairs cut: not a mesh
    let t = mesh(6, 1, 1, Some(3));
    let inj = ibfat::topology::faults::inject(&t.fabric, 8, 3, &[]).unwrap();
    match recognize(&inj.fabric, Some(Family::Fullmesh)) {
        Recognition::Unrecognized { reason, .. } => assert!(reason.contains("not a full mesh"), "{reason}"),
        other => panic!("{other:?}"),
    }
    // a 2-level tree is not taken for a mesh, nor a mesh for a tree
    let tree = Spec::new(FamilySpec::Kary(ibfat::families::kary::model::KaryParams {
        arity: 3,
        levels: 2,
    }))
    .build()
    .unwrap();
    assert!(matches!(
        recognize(&tree.fabric, None),
        Recognition::Recognized {
            layout: Layout::Kary(_),
            ..
        }
    ));
}

#[test]
fn bad_input_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plan");
    for (args, says) in [
        (
            vec!["--switches", "2", "--hosts-per-switch", "4"],
            "at least 3 switches",
        ),
        (
            vec!["--switches", "4", "--hosts-per-switch", "0"],
            "hosts_per_switch: 0",
        ),
        (
            vec!["--switches", "4", "--hosts-per-switch", "2", "--cables-per-pair", "0"],
            "cables_per_pair: 0",
        ),
        (
            vec!["--switches", "60", "--hosts-per-switch", "20", "--cables-per-pair", "4"],
            "more than 254",
        ),
    ] {
        let mut a = vec!["build", "fullmesh"];
        a.extend(&args);
        a.extend(["--out", out.to_str().unwrap()]);
        let (code, _, err) = ibfat(&a);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

#[test]
fn plan_folder_has_every_file_and_the_spec_rebuilds_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let o = out.to_str().unwrap();
    let (code, _, err) = ibfat(&[
        "build",
        "fullmesh",
        "--switches",
        "5",
        "--hosts-per-switch",
        "2",
        "--cables-per-pair",
        "2",
        "--shuffle",
        "4",
        "--out",
        o,
    ]);
    assert_eq!(code, 0, "{err}");
    for f in [
        "topology.net",
        "cables.csv",
        "fabric.yaml",
        "topology.dot",
        "topology.svg",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    let again = dir.path().join("again");
    let spec = out.join("fabric.yaml");
    let (code, _, err) = ibfat(&[
        "build",
        "--spec",
        spec.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(out.join("topology.net")).unwrap(),
        std::fs::read_to_string(again.join("topology.net")).unwrap()
    );
    // cabling checks: the plan's own net file is clean, a cut cable between two switches
    // is named
    let net = out.join("topology.net");
    let (code, out_text, err) = ibfat(&["cabling", o, net.to_str().unwrap()]);
    assert_eq!(code, 0, "{out_text}{err}");
    let t = mesh(5, 2, 2, Some(4));
    let Layout::Fullmesh(l) = &t.layout else { panic!() };
    let mut f = t.fabric.clone();
    f.disconnect(l.switches[1], l.cable(1, 4, 1));
    let cut = dir.path().join("cut.net");
    std::fs::write(&cut, ibfat::formats::ibsim::write_net(&f, &[])).unwrap();
    let (code, out_text, err) = ibfat(&["cabling", o, cut.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1, "{out_text}{err}");
    let v: serde_json::Value = serde_json::from_str(&out_text).unwrap();
    assert_eq!(v["missing"].as_array().map(Vec::len), Some(1), "{out_text}");
}

#[test]
fn lmc_routes_are_direct_then_two_hop_detours_and_deadlock_free_on_two_vls() {
    for (n, h, w, lmc) in [(3, 2, 1, 1), (4, 2, 2, 2), (6, 3, 1, 2), (8, 2, 1, 3), (5, 1, 2, 3)] {
        let t = mesh(n, h, w, Some(n as u64));
        let Layout::Fullmesh(l) = &t.layout else { panic!() };
        let f = &t.fabric;
        let lids = Lids::plan(f, t.layout.hosts(), lmc).unwrap();
        let lfts = route(f, &t.layout, &lids).unwrap();
        let r = validate(f, &lids, &lfts, Some(&t.layout));
        assert!(r.data_path_ok && r.complete, "{r:?}");
        assert_eq!(r.non_minimal, 0);
        let index = |node| l.switches.iter().position(|&s| s == node).unwrap() as u32;
        // walk every (source switch, host LID): hops and relays as the rule says
        for (ep, &d) in l.hosts.iter().zip(&l.host_pos) {
            let t_sw = d / h;
            let base = lids.lid(f, ep.node, ep.port);
            for o in 0..(1u32 << lmc) {
                let lid = base + o as u16;
                for s in (0..n).filter(|&s| s != t_sw) {
                    let mut at = l.switches[s as usize];
                    let mut path = vec![s];
                    while index(at) != t_sw {
                        let (next, _) = f.peer(at, lfts.get(at, lid).unwrap()).unwrap();
                        at = next;
                        path.push(index(at));
                        assert!(path.len() <= 3, "{path:?}");
                    }
                    let want = if o == 0 || s == relay(t_sw, o, n) {
                        vec![s, t_sw]
                    } else {
                        vec![s, relay(t_sw, o, n), t_sw]
                    };
                    assert_eq!(path, want, "n {n} offset {o}");
                }
            }
        }
        let lanes = FullmeshLanes::new(f, l, &lids);
        let v = check_vls(
            f,
            &lids,
            &lfts,
            |s, d| lanes.sl(s, d),
            |w, s, i, o| lanes.vl(w, s, i, o),
        );
        assert!(v.ok(), "{v:?}");
        assert_eq!(v.vls, 2, "{v:?}");
        assert!(v.per_vl.iter().all(|c| c.acyclic));
        assert!(v.sl_paths > 0);
        // on one VL the detours deadlock: the single-VL CDG has a cycle
        assert!(!r.deadlock_free, "n {n}: detours should close a cycle on one VL");
    }
}

#[test]
fn route_writes_sl_files_that_lfts_validate_proves_per_vl() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("m6");
    let p = plan.to_str().unwrap();
    harness::build_plan(
        &[
            "build",
            "fullmesh",
            "--switches",
            "6",
            "--hosts-per-switch",
            "3",
            "--shuffle",
            "6",
        ],
        &plan,
    );
    let out = dir.path().join("r");
    let o = out.to_str().unwrap();
    let (code, text, err) = ibfat(&["route", p, "--lmc", "2", "--out", o, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["schema"], "ibfat.route/2");
    assert_eq!((&v["method"], &v["data_vls"]), (&"family".into(), &2.into()), "{text}");
    assert_eq!(v["lanes"]["proof"]["vls"], 2);
    for f in ["opensm-lfts.dump", "guid2lid", "path-sl.txt", "sl2vl.txt"] {
        assert!(out.join(f).exists(), "{f}");
    }
    let dump = out.join("opensm-lfts.dump");
    let (sl, sl2vl) = (out.join("path-sl.txt"), out.join("sl2vl.txt"));
    let (code, text, err) = ibfat(&[
        "lfts",
        "validate",
        p,
        "--lfts",
        dump.to_str().unwrap(),
        "--sl",
        sl.to_str().unwrap(),
        "--sl2vl",
        sl2vl.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{text}{err}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["vls"]["vls"], 2, "{text}");
    assert_eq!(v["deadlock_free"], false, "one VL alone has the detours' cycle");
    // without the SL files the single-VL verdict stands: the detours close a cycle
    let (code, _, _) = ibfat(&["lfts", "validate", p, "--lfts", dump.to_str().unwrap()]);
    assert_eq!(code, 1);
    // LMC above 1 is for full meshes only
    let tree = dir.path().join("t");
    harness::build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &tree);
    let (code, _, err) = ibfat(&["route", tree.to_str().unwrap(), "--lmc", "2", "--out", o]);
    assert_eq!(code, 2);
    assert!(err.contains("LMC 2 is for full meshes"), "{err}");
}

#[test]
fn plan_paths_writes_ten_offsets_per_host_pair() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("m8");
    harness::build_plan(
        &[
            "build",
            "fullmesh",
            "--switches",
            "8",
            "--hosts-per-switch",
            "2",
            "--shuffle",
            "8",
        ],
        &plan,
    );
    let out = dir.path().join("paths.json");
    let (code, _, err) = ibfat(&[
        "plan-paths",
        plan.to_str().unwrap(),
        "--direct-share",
        "3",
        "--lmc",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["schema"], "ibfat.path-plan/1");
    assert_eq!((v["lmc"].as_u64(), v["direct_share"].as_u64()), (Some(3), Some(3)));
    let hosts = v["hosts"].as_array().unwrap();
    assert_eq!(hosts.len(), 16);
    let offsets = v["offsets"].as_array().unwrap();
    for (s, row) in offsets.iter().enumerate() {
        for (t, arr) in row.as_array().unwrap().iter().enumerate() {
            let a: Vec<u64> = arr.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
            assert_eq!(a.len(), 10);
            assert_eq!(a[0], 0);
            if hosts[s]["switch"] != hosts[t]["switch"] {
                assert_eq!(a.iter().filter(|&&x| x == 0).count(), 3, "{a:?}");
                // detours: offsets 1..=7, never through the source's own switch
                let ts = hosts[t]["switch"].as_u64().unwrap() as u32;
                let ss = hosts[s]["switch"].as_u64().unwrap() as u32;
                for &o in a.iter().filter(|&&x| x != 0) {
                    assert!(o <= 7);
                    assert_ne!(relay(ts, o as u32, 8), ss);
                }
            }
        }
    }
    // bad input: exit 2, no file
    let bad = dir.path().join("bad.json");
    for args in [
        ["--direct-share", "0", "--lmc", "2"],
        ["--direct-share", "4", "--lmc", "0"],
    ] {
        let mut a = vec!["plan-paths", plan.to_str().unwrap()];
        a.extend(args);
        a.extend(["--out", bad.to_str().unwrap()]);
        let (code, _, err) = ibfat(&a);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!bad.exists());
    }
}

/// The seed's patterns on N = 8 switches (7 hosts each, LMC 3: 6 detours per pair) at
/// D1 … D10, on the real tables: (pattern, throughput per D).
fn seed_table() -> Vec<(MeshPattern, Vec<f64>)> {
    let t = mesh(8, 7, 1, Some(3));
    let Layout::Fullmesh(l) = &t.layout else { panic!() };
    let lids = Lids::plan(&t.fabric, t.layout.hosts(), 3).unwrap();
    let lfts = route(&t.fabric, &t.layout, &lids).unwrap();
    MeshPattern::ALL
        .iter()
        .map(|&p| {
            let flows = p.flows(l);
            let per_d = (1..=10u8)
                .map(|d| {
                    let plan = PathPlan::new(&t.layout, 3, d).unwrap();
                    throughput(&t.fabric, &lids, &lfts, l, &plan, &flows)
                        .unwrap()
                        .throughput
                })
                .collect();
            (p, per_d)
        })
        .collect()
}

/// The seed's qualitative results (its §5) on N = 8: detours multiply point-to-point
/// bandwidth (D1 > … > D10), N-to-one and N-to-N are best direct only (D10). One-to-N
/// gains nothing from detours in this model — the sender's N−1 cables are all busy
/// direct already (the seed's Fig. 8 shows no gain for its method either) — and loses
/// at most the rotation's imbalance (9 detour slots over 6 relays at D1).
#[test]
fn the_seeds_patterns_at_every_direct_share() {
    let table = seed_table();
    for (p, v) in &table {
        println!(
            "{p:>15}: {}",
            v.iter().map(|x| format!("{x:.2}")).collect::<Vec<_>>().join(" ")
        );
    }
    let get = |p: MeshPattern| table.iter().find(|r| r.0 == p).unwrap().1.clone();
    let p2p = get(MeshPattern::PointToPoint);
    assert!(p2p.windows(2).all(|w| w[0] > w[1]), "{p2p:?}");
    assert!(p2p[0] > 6.0 && (p2p[9] - 1.0).abs() < 1e-9, "{p2p:?}");
    for p in [MeshPattern::NToOne, MeshPattern::NToN] {
        let v = get(p);
        assert!(v.iter().all(|&x| x <= v[9] + 1e-9), "{p}: {v:?}");
        assert!(v[9] > v[0], "{p}: {v:?}");
    }
    let one = get(MeshPattern::OneToN);
    assert!((one[9] - 7.0).abs() < 1e-9 && one.iter().all(|&x| x > 6.0), "{one:?}");
}

#[test]
fn check_multipath_reports_every_pattern_and_share() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("m5");
    harness::build_plan(
        &["build", "fullmesh", "--switches", "5", "--hosts-per-switch", "4"],
        &plan,
    );
    let p = plan.to_str().unwrap();
    let (code, out, err) = ibfat(&["check", "multipath", p, "--lmc", "2", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema"], "ibfat.check-multipath/1");
    assert_eq!(v["rows"].as_array().unwrap().len(), 40);
    // on the dump `ibfat route` wrote: the same figures
    let r = dir.path().join("r");
    let (code, _, err) = ibfat(&["route", p, "--lmc", "2", "--out", r.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (dump, g2l) = (r.join("opensm-lfts.dump"), r.join("guid2lid"));
    let (code, out2, err) = ibfat(&[
        "check",
        "multipath",
        p,
        "--lmc",
        "2",
        "--lfts",
        dump.to_str().unwrap(),
        "--lids",
        g2l.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v2: serde_json::Value = serde_json::from_str(&out2).unwrap();
    assert_eq!(v["rows"], v2["rows"]);
    // bad input
    let (code, _, err) = ibfat(&["check", "multipath", p, "--lmc", "2", "-d", "11"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = ibfat(&["check", "multipath", p, "--pattern", "ring"]);
    assert_eq!(code, 2, "{err}");
    let tree = dir.path().join("t");
    harness::build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &tree);
    let (code, _, err) = ibfat(&["check", "multipath", tree.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("full meshes"), "{err}");
}
