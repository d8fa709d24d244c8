//! Degraded MOLS proximity 3-level trees (issue 12): MOLS(4) and MOLS(5) in the standard,
//! basic and mols wirings, shuffled ports and random GUIDs, with 1, 3 and 10 seeded cuts or
//! a dead top or middle switch, are recognised as MOLS trees with exactly the injected
//! faults and routed up*/down* around them on one VL, LMC 0 and 1: no loop, every host pair
//! routed, the channel dependency graph acyclic (`check::lfts::validate`); every entry whose
//! intact route survives is the intact routing's entry (both LMC routes); the tables do not
//! depend on the order the nodes are listed in.

use crate::harness;

use crate::harness::{build_shuffled, degraded, tree_faults, TreeFaults};
use ibfat::check::lfts::validate;
use ibfat::families::mols::model::{MolsParams, WiringChoice};
use ibfat::families::Family;
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::lids::LidRange;
use ibfat::routing::{route, Ask, LftSet, Lids, NO_ROUTE};
use ibfat::topology::degraded::Holes;
use ibfat::topology::faults::inject;
use ibfat::topology::{Fabric, FamilySpec, Layout, NodeKind, Topology};
use std::collections::HashMap;
use std::path::Path;

fn mols(n: u32, wiring: WiringChoice, shuffle: u64) -> Topology {
    build_shuffled(FamilySpec::Mols(MolsParams { arity: n, wiring }), shuffle)
}

fn node(f: &Fabric, name: &str) -> u32 {
    (0..f.len() as u32).find(|&n| f.node(n).name == name).unwrap()
}

/// The LIDs `full_lids` gives the ports of `full`, on the fabric `g` (a degraded copy: same
/// GUIDs, some nodes gone).
fn lids_like(full: &Fabric, full_lids: &Lids, g: &Fabric) -> Lids {
    let index = g.port_guid_index();
    let mut ranges = Vec::new();
    for (i, &base) in full_lids.base.iter().enumerate() {
        let p = &full.ports[i];
        if base == 0 || !index.contains_key(&p.guid) {
            continue;
        }
        let span = full_lids.span(full, i as u32) as u64;
        ranges.push(LidRange {
            guid: p.guid,
            lo: base as u64,
            hi: base as u64 + span - 1,
            line: 0,
        });
    }
    Lids::from_ranges(g, &ranges, Path::new("test")).unwrap()
}

/// (switch GUID, LID) -> port of every entry.
fn by_guid(f: &Fabric, lfts: &LftSet) -> HashMap<(u64, usize), u8> {
    let mut m = HashMap::new();
    for (r, &s) in lfts.switches.iter().enumerate() {
        for lid in 1..lfts.stride {
            m.insert((f.node(s).guid, lid), lfts.ports[r * lfts.stride + lid]);
        }
    }
    m
}

/// Inject, recognise (exactly the injected faults), route with LMC `lmc`, validate, compare
/// with the intact routing; returns (entries whose intact route survives, of them kept).
/// `labels_known`: the faults leave the intact labels knowable (cuts only, or a dead switch
/// that was the last of its plane in GUID order, where its stand-in sorts): then every
/// surviving intact entry must be kept. (Otherwise the survivors after the dead GUID are
/// renumbered, as for a degraded PGFT's dead top switch: the dead GUID is gone.)
fn check(t: &Topology, cut: usize, seed: u64, dead: &[&str], lmc: u8, labels_known: bool) -> (u64, u64) {
    let f = &t.fabric;
    let what = format!(
        "{} with {cut} cuts (seed {seed}), dead {dead:?}, LMC {lmc}",
        t.layout.describe()
    );
    let dead_ids: Vec<u32> = dead.iter().map(|s| node(f, s)).collect();
    let inj = inject(f, cut, seed, &dead_ids).unwrap();
    let g = &inj.fabric;
    let d = degraded(g, Some(Family::Mols), &what);
    let Layout::Mols(built) = &t.layout else { panic!() };
    assert_eq!((d.family, d.order), (Family::Mols, built.n), "{what}");
    assert!(d.description.contains(", degraded: "), "{}", d.description);
    let TreeFaults {
        want,
        got,
        dead: dead_got,
        ..
    } = tree_faults(f, g, &inj.cut, &d.faults, &what);
    assert_eq!(got, want, "{what}: missing cables");
    assert_eq!(dead_got.len(), dead.len(), "{what}: dead switches {dead_got:?}");
    for (p, name) in dead_got.iter().zip(dead) {
        assert_eq!(p.chars().next(), name.chars().next(), "{what}: {p} for {name}");
    }
    let Holes::Mols(_) = &d.holes else {
        panic!("{what}: not MOLS holes")
    };
    let full_lids = Lids::plan(f, &[], lmc).unwrap();
    let lids = lids_like(f, &full_lids, g);
    // the one-VL routes, as a subnet offering one data VL gets them: switch-LID detours
    // (SL 1, a second VL: tests/cli/tree_lanes.rs) dropped, what a turn serves with VL 0's
    // CDG acyclic routed again
    let one_vl = Ask {
        vls: 1,
        ..Ask::default()
    };
    let r = harness::route_degraded(g, &d, &lids, &one_vl, &what);
    // unrouted by up*/down*: exactly the (bottom, host LID) pairs no up*/down* path joins
    let hosts_at = |b: u32| {
        (1..=g.node(b).nports)
            .filter(|&p| g.peer(b, p).is_some_and(|x| g.node(x.0).kind != NodeKind::Switch))
            .count() as u64
    };
    let bottoms: Vec<u32> = g.switches().filter(|&s| g.node(s).name.starts_with('B')).collect();
    let no_path: u64 = bottoms
        .iter()
        .flat_map(|&a| bottoms.iter().map(move |&b| (a, b)))
        .filter(|&(a, b)| a != b && !updown_path(g, a, b))
        .map(|(_, b)| hosts_at(b) << lmc)
        .sum();
    // (with every VL offered, the escape lane serves some of them on a VL of its own)
    let every = harness::route_degraded(g, &d, &lids, &Ask::default(), &what);
    assert_eq!(
        every.unrouted + every.escape.host_pairs,
        no_path,
        "{what}: {:?}",
        every.unrouted_named
    );
    // on one VL the detours and the escape lane are dropped, and a turn keeping VL 0's CDG
    // acyclic serves some pairs again: the one-VL routes leave exactly the rest
    let dropped = (
        no_path,
        every.unrouted_switch_lids + every.switch_lid_detours as u64 + every.escape.switch_pairs,
    );
    assert!(r.unrouted <= dropped.0 && r.unrouted_switch_lids <= dropped.1, "{what}");
    assert_eq!(
        (dropped.0 - r.unrouted) + (dropped.1 - r.unrouted_switch_lids),
        r.dropped.map_or(0, |x| x.turned),
        "{what}: {:?}",
        r.unrouted_named
    );
    let v = validate(g, &lids, &r.lfts, None);
    assert_eq!((v.loops, v.misdelivered), (0, 0), "{what}: {:?}", v.defects);
    assert!(v.deadlock_free, "{what}: {v:?}");
    assert_eq!(v.data_path_ok, r.unrouted == 0, "{what}: {v:?}");
    assert_eq!(v.broken_host_routes, r.unrouted, "{what}");
    assert_eq!(v.complete, r.unrouted_switch_lids == 0, "{what}: {v:?}");
    // intact entries: where the intact route from a switch survives, the entry is kept
    let Recognition::Recognized { layout, .. } = recognize(f, Some(Family::Mols)) else {
        panic!("{what}: intact fabric not recognised")
    };
    let intact = route(f, &layout, &full_lids).unwrap();
    let gi = g.guid_index();
    let alive = |n: u32| gi.get(&f.node(n).guid).copied();
    let (mut surviving, mut kept, mut no_route) = (0u64, 0u64, 0u64);
    for (row, &s) in intact.switches.iter().enumerate() {
        let Some(gs) = alive(s) else { continue };
        let grow = r.lfts.row_of[gs as usize] as usize;
        for lid in 1..intact.stride {
            let owner = full_lids.owner[lid];
            if owner == u32::MAX || f.node(f.ports[owner as usize].node).kind == NodeKind::Switch {
                continue;
            }
            // walk the intact route over cables the degraded fabric still has
            let (mut at, mut ok, mut hops) = (row, true, 0);
            loop {
                let port = intact.ports[at * intact.stride + lid];
                let here = intact.switches[at];
                let (Some(gh), Some((peer, _))) = (alive(here), f.peer(here, port)) else {
                    ok = false;
                    break;
                };
                if g.peer(gh, port).map(|x| g.node(x.0).guid) != Some(f.node(peer).guid) {
                    ok = false;
                    break;
                }
                if f.node(peer).kind != NodeKind::Switch {
                    break;
                }
                at = intact.row_of[peer as usize] as usize;
                hops += 1;
                assert!(hops < 8, "{what}: intact loop");
            }
            if ok {
                surviving += 1;
                let (a, b) = (
                    intact.ports[row * intact.stride + lid],
                    r.lfts.ports[grow * r.lfts.stride + lid],
                );
                if labels_known {
                    assert_eq!(
                        a,
                        b,
                        "{what}: switch {} LID {lid}: intact route survives",
                        f.node(s).name
                    );
                }
                kept += u64::from(a == b);
            } else if r.lfts.ports[grow * r.lfts.stride + lid] == NO_ROUTE {
                // only the pairs counted unrouted (at bottoms), or management entries
                // towards a bottom some switch cannot reach at all
                assert!(r.unrouted > 0, "{what}: {} LID {lid} unrouted", f.node(s).name);
                no_route += u64::from(f.node(s).name.starts_with('B'));
            }
        }
    }
    assert_eq!(no_route, r.unrouted, "{what}");
    // determinism: the same fabric listed in reverse node order gives the same tables
    let rev = reversed(g);
    let dr = degraded(&rev, Some(Family::Mols), &what);
    assert_eq!(dr.faults.len(), d.faults.len());
    let Holes::Mols(_) = &dr.holes else { panic!() };
    let rev_lids = lids_like(f, &full_lids, &rev);
    let rr = harness::route_degraded(&rev, &dr, &rev_lids, &one_vl, &what);
    assert_eq!(
        by_guid(g, &r.lfts),
        by_guid(&rev, &rr.lfts),
        "{what}: depends on node order"
    );
    (surviving, kept)
}

/// Switch neighbours of `s` whose name starts with `level` (B, M, T: the builder's names).
fn nbrs(g: &Fabric, s: u32, level: char) -> Vec<u32> {
    (1..=g.node(s).nports)
        .filter_map(|p| g.peer(s, p))
        .map(|x| x.0)
        .filter(|&x| g.node(x).kind == NodeKind::Switch && g.node(x).name.starts_with(level))
        .collect()
}

/// Whether an up*/down* path joins bottom `a` to bottom `b`: B-M-B or B-M-T-M-B.
fn updown_path(g: &Fabric, a: u32, b: u32) -> bool {
    let down_to_b = |m: u32| nbrs(g, m, 'B').contains(&b);
    nbrs(g, a, 'M').into_iter().any(|m| {
        down_to_b(m)
            || nbrs(g, m, 'T')
                .into_iter()
                .any(|t| nbrs(g, t, 'M').into_iter().any(down_to_b))
    })
}

/// The fabric with its nodes listed in reverse order (same GUIDs, names, ports, cables).
fn reversed(f: &Fabric) -> Fabric {
    let mut out = Fabric::new();
    let k = f.len() as u32;
    for i in (0..k).rev() {
        let n = f.node(i);
        out.add_node(n.kind, n.nports as u32, n.guid, n.name.clone(), n.desc.clone())
            .unwrap();
    }
    for l in f.links() {
        out.connect(k - 1 - l.a, l.pa as u32, k - 1 - l.b, l.pb as u32).unwrap();
    }
    out
}

/// The switch named `prefix*` with the highest GUID (the last of its plane in GUID order).
fn last_of(f: &Fabric, prefix: &str) -> String {
    let n = f
        .switches()
        .filter(|&s| f.node(s).name.starts_with(prefix))
        .max_by_key(|&s| f.node(s).guid)
        .unwrap();
    f.node(n).name.clone()
}

fn run_family(n: u32, wiring: WiringChoice, shuffle: u64) {
    let t = mols(n, wiring, shuffle);
    let f = &t.fabric;
    let d = t.layout.describe();
    for lmc in [0u8, 1] {
        for (cut, seed) in [(1usize, 1u64), (3, 2), (10, 3)] {
            let (s, k) = check(&t, cut, seed, &[], lmc, true);
            println!("{d}: {cut} cuts, LMC {lmc}: {k} of {s} surviving intact entries kept");
        }
        // a dead top / middle whose GUID sorts last in its plane: labels known, all kept
        check(&t, 0, 1, &[&last_of(f, "T1_")], lmc, true);
        check(&t, 0, 1, &[&last_of(f, "M2_")], lmc, true);
        check(&t, 3, 4, &[&last_of(f, "T0_")], lmc, true);
        // any dead top or middle: recognised, routed, validated
        for dead in ["T1_0", "M2_1", "M0_0"] {
            let (s, k) = check(&t, 0, 1, &[dead], lmc, false);
            println!("{d}: {dead} dead, LMC {lmc}: {k} of {s} surviving intact entries kept");
        }
    }
}

#[test]
fn mols4_wirings_with_cuts_and_dead_switches() {
    for (w, s) in [
        (WiringChoice::Standard, 21),
        (WiringChoice::Basic, 22),
        (WiringChoice::Mols, 23),
    ] {
        run_family(4, w, s);
    }
}

#[test]
fn mols5_wirings_with_cuts_and_dead_switches() {
    for (w, s) in [
        (WiringChoice::Standard, 31),
        (WiringChoice::Basic, 32),
        (WiringChoice::Mols, 33),
    ] {
        run_family(5, w, s);
    }
}

/// A middle that lost every bottom cable cannot be placed: still unrecognised, with a reason.
#[test]
fn too_broken_is_not_a_degraded_mols() {
    let t = mols(4, WiringChoice::Mols, 7);
    let f = &t.fabric;
    let m = node(f, "M1_1");
    let cut: Vec<_> = f
        .links()
        .filter(|l| (l.a == m || l.b == m) && [l.a, l.b].iter().any(|&x| f.node(x).name.starts_with('B')))
        .collect();
    let g = ibfat::topology::faults::without(f, cut, &[]).unwrap().fabric;
    match recognize(&g, Some(Family::Mols)) {
        Recognition::Unrecognized {
            degraded: None, reason, ..
        } => assert!(!reason.is_empty()),
        other => panic!("recognised: {:?}", other.layout().map(|l| l.describe())),
    }
}

/// Without a family hint a degraded mols or basic wiring is found as MOLS (arity and wiring
/// in the report); a standard wiring is the 3-level k-ary tree it is equivalent to.
#[test]
fn automatic_recognition_names_the_family() {
    for (w, family) in [
        (WiringChoice::Mols, Family::Mols),
        (WiringChoice::Basic, Family::Mols),
        (WiringChoice::Standard, Family::Kary),
    ] {
        let t = mols(4, w, 41);
        let g = inject(&t.fabric, 3, 5, &[]).unwrap().fabric;
        let d = degraded(&g, None, "auto");
        assert_eq!(d.family, family, "{}", d.description);
        let rep = ibfat::recognize::report(&g, &recognize(&g, None));
        assert_eq!(rep.family, family.to_string());
        assert_eq!(rep.faults.len(), 3);
        if family == Family::Mols {
            assert_eq!(rep.arity, Some(4));
            assert_eq!(rep.wiring.as_deref(), Some(w.to_string().as_str()));
        }
    }
}

/// The CLI: `ibfat faults` on a MOLS(5) plan (3 cuts, a dead top), `recognize --json`
/// names the family, arity, wiring and the four faults; `route --lmc 1` routes it on one
/// VL (both LMC routes), validated; `lfts validate` passes the written tables.
#[test]
fn cli_faults_recognize_and_route_a_degraded_mols() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    harness::build_plan(
        &["build", "mols", "--arity", "5", "--wiring", "mols", "--shuffle", "9"],
        &plan,
    );
    let out = t.path().join("cut");
    let (p, o) = (plan.to_str().unwrap(), out.to_str().unwrap());
    let (c, so, e) = harness::ibfat(&["faults", p, "--cut", "3", "--seed", "2", "--dead", "T2_1", "--out", o]);
    assert_eq!(c, 0, "{so}{e}");
    let net = out.join("topology.net");
    let n = net.to_str().unwrap();
    let (c, so, e) = harness::ibfat(&["recognize", n, "--json"]);
    assert_eq!(c, 1, "{so}{e}");
    let v: serde_json::Value = serde_json::from_str(&so).unwrap();
    assert_eq!(
        (v["family"].as_str(), v["arity"].as_u64(), v["wiring"].as_str()),
        (Some("mols"), Some(5), Some("mols")),
        "{so}"
    );
    let faults = v["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 4, "{so}");
    let (c, so, _) = harness::ibfat(&["recognize", n]);
    assert_eq!(c, 1);
    assert!(so.contains("degraded: 3 missing cables, 1 dead switches"), "{so}");
    let routes = t.path().join("routes");
    let r = routes.to_str().unwrap();
    let (c, so, e) = harness::ibfat(&["route", n, "--lmc", "1", "--out", r, "--json"]);
    assert_eq!(c, 0, "{so}{e}");
    let v: serde_json::Value = serde_json::from_str(&so).unwrap();
    assert_eq!(v["schema"], "ibfat.route/2");
    assert_eq!(v["method"], "updown", "{so}");
    // the dead top leaves bottoms without an up*/down* path to some switch LIDs: those
    // detour through a relay on SL 1 or 2, with a second VL
    let detours = v["detours"]["switch_lids"].as_u64().unwrap();
    assert!(detours > 0, "{so}");
    assert_eq!(
        (
            v["valid"].as_bool(),
            v["lanes"]["proof"]["vls"].as_u64(),
            v["data_vls"].as_u64(),
            v["lmc"].as_u64(),
            v["unrouted"].is_null()
        ),
        (Some(true), Some(2), Some(2), Some(1), true),
        "{so}"
    );
    assert_eq!(v["faults"].as_u64(), Some(4));
    let files: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f.as_str())
        .collect();
    assert!(files.contains(&"path-sl.txt") && files.contains(&"sl2vl.txt"), "{so}");
    // the SL file lists only detours, on SL 1 or 2
    let path_sl = std::fs::read_to_string(routes.join("path-sl.txt")).unwrap();
    let listed: Vec<&str> = path_sl.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(
        !listed.is_empty() && listed.iter().all(|l| l.ends_with(" 1") || l.ends_with(" 2")),
        "{path_sl}"
    );
    let dump = routes.join("opensm-lfts.dump");
    let g2l = routes.join("guid2lid");
    let (sl, vl) = (routes.join("path-sl.txt"), routes.join("sl2vl.txt"));
    let (c, so, e) = harness::ibfat(&[
        "lfts",
        "validate",
        n,
        "--lfts",
        dump.to_str().unwrap(),
        "--lids",
        g2l.to_str().unwrap(),
        "--sl",
        sl.to_str().unwrap(),
        "--sl2vl",
        vl.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{so}{e}");
    assert!(
        so.contains("deadlock per VL: free (2 data VLs") && so.contains("VL 1:"),
        "{so}"
    );
    // text report; LMC 2 is refused with the reason
    let (c, so, _) = harness::ibfat(&["route", n, "--out", r]);
    assert_eq!(c, 0);
    assert!(
        so.contains("detours through a relay on SL 1-2 (2 data VLs)") && so.contains("validated"),
        "{so}"
    );
    let (c, _, e) = harness::ibfat(&["route", n, "--lmc", "2", "--out", r]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("LMC 0 or 1"), "{e}");
}
