//! PGFTs routed by ibfat's d-mod-k, measured by the checker on the tables: shift in tree
//! order is conflict-free on every full-bisection shape (parallel cables at one, two and
//! three levels, shuffled ports), an oversubscribed level carries no more flows per uplink
//! than its oversubscription forces, and leaves with empty slots stay conflict-free.

use crate::harness::ibfat;
use ibfat::check::{check, CompiledRoutes};
use ibfat::families::pgft::model::PgftParams;
use ibfat::families::Family;
use ibfat::formats::roles::{resolve as resolve_roles, RoleSources};
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::{route, Lids};
use ibfat::schedule::shift::TreeShift;
use ibfat::schedule::{Job, Pattern};
use ibfat::topology::{BuildOptions, FamilySpec, Layout, Spec, Topology};
use std::path::{Path, PathBuf};

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
    use ibfat::families::Family;
    use ibfat::recognize::{recognize, Recognition};
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
        let Recognition::Recognized { layout, .. } = recognize(&planned.fabric, Some(Family::Pgft)) else {
            panic!("PGFT m={m:?} w={w:?} p={p:?} not recognised")
        };
        let Layout::Pgft(l) = &layout else { panic!() };
        let want = PgftParams {
            hosts_per_leaf: None,
            down: {
                let mut d = PgftParams::from_lists(m, w, p, None).unwrap().down;
                // a leaf that is not full spans its hosts, at least its uplinks (within
                // its ports): the recognised m1 (docs/recognition.md)
                d[0] = hpl.map_or(m[0], |h| h.max(w[1] * p[1]).min(m[0]));
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
    let lsft = Spec::new(FamilySpec::Lsft(ibfat::families::lsft::model::LsftParams::new(
        3, false,
    )))
    .build()
    .unwrap();
    let Recognition::Unrecognized { reason, .. } = recognize(&lsft.fabric, Some(Family::Pgft)) else {
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

/// Shift over the compute hosts of a recognised copy of `t`'s cabling, with `roles`.
fn recognized_with_roles(t: &Topology, roles: &RoleSources) -> Topology {
    let Recognition::Recognized { mut layout, .. } = recognize(&t.fabric, Some(Family::Pgft)) else {
        panic!("not recognised")
    };
    let r = resolve_roles(&t.fabric, roles, true).unwrap();
    layout.apply_roles(&t.fabric, &r).unwrap();
    Topology::discovered(t.fabric.clone(), layout, "found")
}

fn guid_file(dir: &Path, t: &Topology, eps: &[ibfat::topology::Endpoint]) -> PathBuf {
    let p = dir.join(format!("io{}.guids", eps.len()));
    let text: String = eps
        .iter()
        .map(|e| {
            format!(
                "0x{:016x}  {}\n",
                t.fabric.node(e.node).guid,
                t.fabric.node(e.node).desc
            )
        })
        .collect();
    std::fs::write(&p, format!("# storage and login\n{text}")).unwrap();
    p
}

/// Host roles (issue 19 item 4): non-compute hosts are routed (every LID reachable,
/// deadlock-free: `shift_on_tables` validates), left out of the rank order, and wherever
/// they are plugged in the compute hosts' shift stays conflict-free on a full-bisection
/// PGFT — a leaf's compute hosts take its first slots, as if the others were absent.
#[test]
fn non_compute_hosts_are_routed_but_not_ranked() {
    let dir = tempfile::tempdir().unwrap();
    // planned: the last populated port of every leaf is a storage host, one port empty
    let p = PgftParams::from_lists(&[6, 4], &[1, 6], &[1, 1], Some(5))
        .unwrap()
        .with_io_per_leaf(1)
        .unwrap();
    let mut s = Spec::new(FamilySpec::Pgft(p));
    s.options.shuffle = Some(12);
    let t = s.build().unwrap();
    assert_eq!((t.layout.hosts().len(), t.layout.others().len()), (16, 4));
    assert_eq!(shift_on_tables(&t), (1.0, 1));
    // recognised from the shuffled cabling, roles by name pattern: the same split
    let by_name = RoleSources {
        io_names: vec!["IO*".into()],
        ..Default::default()
    };
    let found = recognized_with_roles(&t, &by_name);
    assert_eq!((found.layout.hosts().len(), found.layout.others().len()), (16, 4));
    assert_eq!(shift_on_tables(&found), (1.0, 1));

    // a full 2-level and a full 3-level tree with one storage host per leaf on a different
    // port of every leaf (by GUID list): without roles the storage hosts are ranks; with
    // them the compute shift is conflict-free and every host is still routed
    for (m, w, par, seed) in [
        (&[6u32, 4][..], &[1u32, 6][..], &[1u32, 1][..], 5u64),
        (&[4, 4, 2][..], &[1, 4, 4][..], &[1, 1, 1][..], 6),
    ] {
        let t = plan(m, w, par, None, Some(seed));
        let Layout::Pgft(l) = &t.layout else { panic!() };
        let m1 = m[0];
        let storage: Vec<_> = (0..l.hosts.len())
            .filter(|&r| l.host_pos[r] % m1 == (l.host_pos[r] / m1) % m1)
            .map(|r| l.hosts[r])
            .collect();
        let leaves = l.hosts.len() as u32 / m1;
        assert_eq!(storage.len() as u32, leaves);
        let roles = RoleSources {
            io_guids: Some(guid_file(dir.path(), &t, &storage)),
            ..Default::default()
        };
        let found = recognized_with_roles(&t, &roles);
        assert_eq!(found.layout.others().len(), storage.len(), "m={m:?}");
        assert!(found.layout.hosts().iter().all(|h| !storage.contains(h)));
        assert_eq!(shift_on_tables(&found), (1.0, 1), "m={m:?}");
    }
}

/// The CLI takes roles on every command that ranks hosts; role files that name a GUID
/// twice or one that is not in the fabric, and patterns that match nothing, are exit 2
/// naming the file and line, with nothing written.
#[test]
fn cli_host_roles_and_their_bad_input() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("p");
    let d = dir.to_str().unwrap();
    let (c, _, e) = ibfat(&[
        "build",
        "pgft",
        "--down",
        "6,4",
        "--up",
        "1,6",
        "--parallel",
        "1,1",
        "--hosts-per-leaf",
        "5",
        "--io-per-leaf",
        "1",
        "--shuffle",
        "4",
        "--out",
        d,
    ]);
    assert_eq!(c, 0, "{e}");
    let yaml = std::fs::read_to_string(dir.join("fabric.yaml")).unwrap();
    assert!(yaml.contains("io_per_leaf: 1"), "{yaml}");
    let net = dir.join("topology.net");
    let net_s = net.to_str().unwrap();
    // the plan ranks the 16 compute hosts; the discovered cabling with --io-hosts too
    let (c, o, e) = ibfat(&["recognize", net_s, "--io-hosts", "IO*", "--json"]);
    assert_eq!(c, 0, "{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["family"], "pgft");
    assert_eq!(v["host_map"].as_array().unwrap().len(), 16);
    let others = v["non_compute"].as_array().unwrap();
    assert_eq!(others.len(), 4);
    assert!(others.iter().all(|h| h["name"].as_str().unwrap().starts_with("IO")));
    // routed and checked on the discovered cabling with the same roles (the rank order
    // and the tables come from one layout)
    let (c, _, e) = ibfat(&["route", net_s, "--io-hosts", "IO*", "--out", d]);
    assert_eq!(c, 0, "{e}");
    let dump = dir.join("opensm-lfts.dump");
    let (c, o, e) = ibfat(&["check", net_s, "--lfts", dump.to_str().unwrap(), "--io-hosts", "IO*"]);
    assert_eq!(c, 0, "{o}{e}");
    assert!(
        o.contains("16 ranks") && o.contains("throughput ratio 1.0000, max congestion 1"),
        "{o}"
    );
    let (c, o, _) = ibfat(&["lfts", "validate", net_s, "--lfts", dump.to_str().unwrap()]);
    assert_eq!(c, 0, "{o}");
    // Slurm's view leaves the storage hosts out
    let (c, o, e) = ibfat(&["export", "slurm-topology", net_s, "--io-hosts", "IO*"]);
    assert_eq!(c, 0, "{e}");
    assert!(!o.contains("IO") && o.contains("Nodes=H[0-3]"), "{o}");

    // bad role input: exit 2, file and line, nothing written
    let out = t.path().join("never");
    let o_s = out.to_str().unwrap();
    let list = t.path().join("io.guids");
    let l_s = list.to_str().unwrap();
    let hosts = std::fs::read_to_string(&net).unwrap();
    let guid = hosts
        .lines()
        .find_map(|l| l.strip_prefix("caguid="))
        .unwrap()
        .to_string();
    for (text, want) in [
        (format!("{guid}\n# again\n{guid}\n"), ":3".to_string()),
        ("0x00000000deadbeef\n".to_string(), ":1".to_string()),
    ] {
        std::fs::write(&list, &text).unwrap();
        let (c, _, e) = ibfat(&["route", net_s, "--io-guids", l_s, "--out", o_s]);
        assert_eq!(c, 2, "{e}");
        assert!(e.contains(&format!("io.guids{want}")), "{e}");
        assert!(!out.exists());
    }
    let (c, _, e) = ibfat(&["route", net_s, "--io-hosts", "stor*", "--out", o_s]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("`stor*` matches no host"), "{e}");
    assert!(!out.exists());
    // an LSFT's hosts are all ranks of its all-to-all: roles are refused with a hint
    let lsft = t.path().join("l");
    let (c, _, e) = ibfat(&["build", "lsft", "--order", "2", "--out", lsft.to_str().unwrap()]);
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = ibfat(&[
        "schedule",
        lsft.to_str().unwrap(),
        "--io-hosts",
        "H0*",
        "--pattern",
        "shift",
    ]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("--job"), "{e}");
}

/// A leaf without hosts (an empty rack) is still a leaf: recognised by having the parents
/// of the other leaves of its subtree, the PGFT keeps its parameters, every remaining host
/// is routed, and shift measures what the plan's own layout without those hosts gives.
#[test]
fn a_leaf_without_hosts_is_still_a_leaf() {
    for (m, w, par, seed) in [
        (&[4u32, 4][..], &[1u32, 4][..], &[1u32, 1][..], 21u64),
        (&[4, 4, 2][..], &[1, 2, 4][..], &[1, 2, 2][..], 22),
    ] {
        let mut t = plan(m, w, par, None, Some(seed));
        let Layout::Pgft(l) = &t.layout else { panic!() };
        let (params, leaf) = (l.params, l.switches[1]);
        let kept = l
            .hosts
            .iter()
            .filter(|h| t.fabric.peer(h.node, h.port).unwrap().0 != leaf)
            .count();
        for p in 1..=t.fabric.node(leaf).nports {
            if let Some((peer, _)) = t.fabric.peer(leaf, p) {
                if t.fabric.node(peer).kind != ibfat::topology::NodeKind::Switch {
                    t.fabric.disconnect(leaf, p);
                }
            }
        }
        let Recognition::Recognized { layout, .. } = recognize(&t.fabric, Some(Family::Pgft)) else {
            panic!("m={m:?}: a PGFT with an empty leaf not recognised")
        };
        let Layout::Pgft(found) = &layout else { panic!() };
        assert_eq!(found.params, params, "m={m:?}");
        assert_eq!(found.hosts.len(), kept, "m={m:?}");
        assert!(found.level(1).contains(&leaf), "m={m:?}: the empty leaf is a leaf");
        // the plan's own layout without those hosts routes shift exactly as well
        let mut planned = t.layout.clone();
        if let Layout::Pgft(l) = &mut planned {
            let keep: Vec<bool> = l
                .hosts
                .iter()
                .map(|h| t.fabric.peer(h.node, h.port).is_some())
                .collect();
            let mut i = 0;
            l.hosts.retain(|_| (keep[i], i += 1).0);
            let mut i = 0;
            l.host_pos.retain(|_| (keep[i], i += 1).0);
        }
        let found = Topology::discovered(t.fabric.clone(), layout, "found");
        let planned = Topology::discovered(t.fabric.clone(), planned, "planned");
        assert_eq!(shift_on_tables(&found), shift_on_tables(&planned), "m={m:?}");
    }
}
