//! Trees as they are found (issue 39): the published dumps of production clusters that no
//! family fits are recognised as trees of their own, reported level by level, routed
//! up*/down* with a proof, independently of the order the dump lists the nodes in; and
//! what is not a tree is named as such.

use ibfat::families::tree::model::TreeLayout;
use ibfat::families::Family;
use ibfat::formats::dump::ParseOptions;
use ibfat::formats::ibsim;
use ibfat::load::{load, Recognize};
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::{route_fabric, Ask, Lids, Method, Shape};
use ibfat::topology::{Fabric, Layout, NodeKind};
use std::collections::BTreeMap;
use std::path::Path;

fn fixture(name: &str) -> Fabric {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/public").join(name);
    load(&path, ParseOptions::default(), Recognize::No)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .fabric()
        .clone()
}

fn tree_of(f: &Fabric) -> TreeLayout {
    match recognize(f, None) {
        Recognition::Recognized {
            layout: Layout::Tree(t),
            ..
        } => t,
        Recognition::Recognized { layout, .. } => panic!("recognised as {}", layout.describe()),
        Recognition::Unrecognized { reason, .. } => panic!("unrecognised: {reason}"),
    }
}

/// Switch neighbours of `n` with the cable count to each.
fn cables_to(f: &Fabric, n: u32) -> BTreeMap<u32, usize> {
    let mut m = BTreeMap::new();
    for p in 1..=f.node(n).nports {
        if let Some((peer, _)) = f.peer(n, p) {
            if f.node(peer).kind == NodeKind::Switch {
                *m.entry(peer).or_default() += 1;
            }
        }
    }
    m
}

fn hosts_on(f: &Fabric, n: u32) -> usize {
    (1..=f.node(n).nports)
        .filter(|&p| f.peer(n, p).is_some_and(|(x, _)| f.node(x).kind != NodeKind::Switch))
        .count()
}

/// Route with the dump's LIDs through the one pipeline and prove the result.
fn route_and_prove(f: &Fabric, t: &TreeLayout) -> ibfat::Routed {
    let lids = Lids::discovered(f).unwrap().expect("the dump's LIDs");
    let layout = Layout::Tree(t.clone());
    let routed = route_fabric(f, Shape::Intact(&layout), &lids, &Ask::default()).unwrap();
    let proof = ibfat::prove(f, &lids, &routed, Some(&layout));
    assert!(proof.sound, "{}", proof.failure());
    routed
}

/// The 145-host FDR10 cluster (fixtures/README.md): 6 leaves and 2 spines of 36 ports, 4
/// cables per leaf-spine pair but one, the storage hosts on a spine.
#[test]
fn a_lab_cluster_with_hosts_on_a_spine_and_a_missing_cable_is_a_tree() {
    let f = fixture("loginoff-sx6036-fdr10-2014.ibnetdiscover");
    let t = tree_of(&f);
    assert_eq!(t.levels(), 2);
    let (leaves, spines) = (t.at(1), t.at(2));
    assert_eq!((leaves.len(), spines.len()), (6, 2));
    // what the dump says: every leaf-spine pair by its cables
    let mut pairs: BTreeMap<usize, usize> = BTreeMap::new();
    for &l in leaves {
        assert!((22..=24).contains(&hosts_on(&f, l)), "{}", f.node(l).desc);
        let c = cables_to(&f, l);
        assert!(c.keys().all(|s| spines.contains(s)), "a leaf cabled to a leaf");
        c.values().for_each(|&k| *pairs.entry(k).or_default() += 1);
    }
    assert_eq!(pairs, BTreeMap::from([(3, 1), (4, 11)]));
    // the hosts on a spine are routed, not ranked
    assert_eq!(t.others.len(), spines.iter().map(|&s| hosts_on(&f, s)).sum::<usize>());
    assert!(!t.others.is_empty() && t.others.iter().all(|&ep| t.above_leaves(&f, ep)));
    assert_eq!(t.hosts.len() + t.others.len(), f.endpoints().len());
    // the leaf with 3 cables to a spine is named, and nothing else is called uneven
    let short: Vec<u32> = leaves
        .iter()
        .copied()
        .filter(|&l| cables_to(&f, l).values().any(|&k| k == 3))
        .collect();
    let named: Vec<u32> = t
        .irregular
        .iter()
        .filter(|i| i.kind == "uneven-parallel-cables")
        .map(|i| i.switch)
        .collect();
    assert_eq!(named, short);
    assert!(t.irregular.iter().any(|i| i.kind == "hosts-above-leaves"));
    let r = route_and_prove(&f, &t);
    assert_eq!((r.method, r.unrouted, r.unrouted_switch_lids), (Method::UpDown, 0, 0));
}

/// CU Boulder's Janus (fixtures/README.md): edge switches cabled unevenly to three
/// IS5600 director chassis whose leaf (`/Lnn/`) and spine (`/Snn/`) chips appear as
/// switches. The chips' own descriptions say which level they are on.
#[test]
fn edge_switches_under_director_chassis_are_a_three_level_tree() {
    let f = fixture("janus-qdr-2014.ibnetdiscover");
    let t = tree_of(&f);
    assert_eq!(t.levels(), 3);
    assert_eq!(t.hosts.len(), f.endpoints().len());
    for &n in t.at(1) {
        assert!(!f.node(n).desc.contains("IS5600"), "{}", f.node(n).desc);
    }
    for (lv, chip) in [(2, "/L"), (3, "/S")] {
        for &n in t.at(lv) {
            assert!(f.node(n).desc.contains(chip), "level {lv}: {}", f.node(n).desc);
        }
    }
    // a leaf chip without edge switches has nothing below it: named, on level 2
    for i in t.irregular.iter().filter(|i| i.kind == "no-down-cables") {
        assert!(f.node(i.switch).desc.contains("/L"), "{}", i.detail);
    }
    let r = route_and_prove(&f, &t);
    assert_eq!((r.unrouted, r.unrouted_switch_lids), (0, 0));
}

use crate::net_sections;

/// The same cluster listed in reverse node order routes to the same tables, switch by
/// switch and LID by LID (switch LIDs too).
#[test]
fn tree_routes_do_not_depend_on_the_dump_order() {
    let f = fixture("janus-qdr-2014.ibnetdiscover");
    let g = reversed(&f);
    assert_ne!(f.node(0).guid, g.node(0).guid, "the order did change");
    let (a, b) = (route_and_prove(&f, &tree_of(&f)), route_and_prove(&g, &tree_of(&g)));
    assert_eq!(
        differing(&f, &a.lfts, &g, &b.lfts),
        0,
        "entries differ between the two orders"
    );
}

/// The LIDs of a fabric by (node GUID, port).
fn lids_of(f: &Fabric) -> BTreeMap<(u64, u8), u16> {
    let mut m = BTreeMap::new();
    for p in &f.ports {
        if p.lid != 0 {
            m.insert((f.node(p.node).guid, p.num), p.lid);
        }
    }
    m
}

/// The same fabric with its nodes listed in reverse order (through an ibsim net file),
/// every port keeping its LID.
fn reversed(f: &Fabric) -> Fabric {
    let (head, mut body) = net_sections::sections(&ibsim::write_net(f, &[]));
    body.reverse();
    let text = net_sections::join(&head, &body);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reversed.net");
    std::fs::write(&path, text).unwrap();
    let mut g = load(&path, ParseOptions::default(), Recognize::No)
        .unwrap()
        .fabric()
        .clone();
    // the net file carries no LIDs: give every port the dump's
    let want = lids_of(f);
    for i in 0..g.ports.len() {
        let key = (g.node(g.ports[i].node).guid, g.ports[i].num);
        if let Some(&lid) = want.get(&key) {
            g.ports[i].lid = lid;
        }
    }
    assert_eq!(lids_of(&g), want);
    g
}

/// Entries that differ between the tables of `f` and those of its reordered copy `g`.
fn differing(f: &Fabric, a: &ibfat::routing::LftSet, g: &Fabric, b: &ibfat::routing::LftSet) -> usize {
    let mut differ = 0;
    for (ra, &sa) in a.switches.iter().enumerate() {
        let sb = g.guid_index()[&f.node(sa).guid];
        let rb = b.row_of[sb as usize] as usize;
        let (x, y) = (
            &a.ports[ra * a.stride..(ra + 1) * a.stride],
            &b.ports[rb * b.stride..(rb + 1) * b.stride],
        );
        differ += x.iter().zip(y).filter(|(p, q)| p != q).count();
    }
    differ
}

/// `n` switches of 8 ports in a ring, with `hosts[i]` hosts on switch i.
fn ring(hosts: &[u32]) -> Fabric {
    let n = hosts.len() as u32;
    let mut f = Fabric::new();
    let sw: Vec<u32> = (0..n)
        .map(|i| {
            f.add_node(
                NodeKind::Switch,
                8,
                0x100 + i as u64,
                format!("S{i}"),
                format!("ring switch {i}"),
            )
            .unwrap()
        })
        .collect();
    for i in 0..n {
        f.connect(sw[i as usize], 1, sw[((i + 1) % n) as usize], 2).unwrap();
    }
    let mut guid = 0x1000;
    for (i, &h) in hosts.iter().enumerate() {
        for k in 0..h {
            let ca = f
                .add_node(NodeKind::Ca, 1, guid, format!("H{i}-{k}"), format!("host{i}-{k} HCA-1"))
                .unwrap();
            guid += 2;
            f.connect(ca, 1, sw[i], 3 + k).unwrap();
        }
    }
    f
}

fn tree_reason(f: &Fabric) -> String {
    match recognize(f, None) {
        Recognition::Recognized { layout, .. } => panic!("recognised as {}", layout.describe()),
        Recognition::Unrecognized { attempts, .. } => attempts
            .iter()
            .find(|a| a.family == Family::Tree)
            .map(|a| a.reason.clone())
            .expect("the tree was tried"),
    }
}

#[test]
fn rings_are_not_trees_and_the_cable_is_named() {
    // hosts everywhere: no way to tell leaves from spines
    let why = tree_reason(&ring(&[2, 2, 2, 2, 2, 2]));
    assert!(why.contains("cabled together") && why.contains("ring switch"), "{why}");
    // an odd ring: two switches of one level are cabled together
    let why = tree_reason(&ring(&[2, 0, 2, 0, 0]));
    assert!(
        why.contains("joins two switches of level 2") && why.contains("port"),
        "{why}"
    );
}

/// A role file that calls a spine's host compute is accepted with a warning naming it.
#[test]
fn a_compute_host_on_a_spine_is_ranked_with_a_warning() {
    let f = fixture("loginoff-sx6036-fdr10-2014.ibnetdiscover");
    let mut t = tree_of(&f);
    let upper = t.others[0];
    let mut non_compute = vec![false; f.ports.len()];
    // every other host of the spines stays non-compute
    for &ep in &t.others[1..] {
        non_compute[f.port_index(ep.node, ep.port) as usize] = true;
    }
    let roles = ibfat::topology::roles::Roles::new(non_compute, Vec::new());
    let n = t.apply_roles(&f, &roles).unwrap();
    assert_eq!(n, 2);
    assert!(t.hosts.contains(&upper));
    assert_eq!(t.role_warnings.len(), 1);
    assert!(
        t.role_warnings[0].contains(&f.node(upper.node).desc),
        "{:?}",
        t.role_warnings
    );
    route_and_prove(&f, &t);
}

use crate::found;

/// Every generated shape of the field (issue 39 item 6) is a tree with the levels and
/// irregularities its construction gives, and routes with a proof.
#[test]
fn generated_field_shapes_are_trees_with_their_irregularities() {
    for seed in 1..=3 {
        // the grown lab: 7 leaves (one empty), 4 spines
        let f = found::grown_lab(seed);
        let t = tree_of(&f);
        assert_eq!((t.levels(), t.at(1).len(), t.at(2).len()), (2, 7, 4), "seed {seed}");
        let empty: Vec<u32> = t.at(1).iter().copied().filter(|&l| hosts_on(&f, l) == 0).collect();
        assert_eq!(empty.len(), 1);
        let named: Vec<u32> = t
            .irregular
            .iter()
            .filter(|i| i.kind == "empty-leaf")
            .map(|i| i.switch)
            .collect();
        assert_eq!(named, empty);
        assert!(t.irregular.iter().any(|i| i.kind == "partial-parents"));
        assert_eq!(t.hosts.len(), 24 + 24 + 21 + 9 + 6 + 5);
        let r = route_and_prove_planned(&f, &t);
        assert_eq!((r.unrouted, r.unrouted_switch_lids), (0, 0));

        // storage on a spine, one pair short of a cable
        let f = found::storage_on_spine(seed);
        let t = tree_of(&f);
        assert_eq!((t.levels(), t.at(1).len(), t.at(2).len(), t.others.len()), (2, 6, 2, 3));
        let short: Vec<_> = t
            .irregular
            .iter()
            .filter(|i| i.kind == "uneven-parallel-cables")
            .collect();
        assert_eq!(short.len(), 1, "{short:?}");
        route_and_prove_planned(&f, &t);

        // the irregular 3-level tree of the scale bench, small: 4 pods of 18 leaves (so
        // small it is a PGFT with faults in automatic mode: asked for as a tree)
        let f = found::big_irregular(seed, 4);
        let t = match recognize(&f, Some(Family::Tree)) {
            Recognition::Recognized {
                layout: Layout::Tree(t),
                ..
            } => t,
            _ => panic!("seed {seed}: not a tree"),
        };
        assert_eq!(
            (t.levels(), t.at(1).len(), t.at(2).len(), t.at(3).len()),
            (3, 72, 72, 36)
        );
        route_and_prove_planned(&f, &t);

        // edge switches under 3 directors: the chips on levels 2 and 3 by their names
        let f = found::under_directors(seed, 30, 3, 12);
        let t = tree_of(&f);
        assert_eq!(t.levels(), 3);
        for (lv, chip) in [(2, "/L/"), (3, "/S/")] {
            assert!(t.at(lv).iter().all(|&n| f.node(n).desc.contains(chip)), "level {lv}");
        }
        route_and_prove_planned(&f, &t);
    }
}

/// A SuperPOD-shaped fabric is a PGFT exactly (its family keeps precedence).
#[test]
fn superpod_shapes_stay_pgfts() {
    for sus in [1, 2, 4] {
        let f = found::superpod(1, sus);
        match recognize(&f, None) {
            Recognition::Recognized {
                layout: Layout::Pgft(_),
                ..
            } => {}
            Recognition::Recognized { layout, .. } => panic!("{sus} units: {}", layout.describe()),
            Recognition::Unrecognized { reason, .. } => panic!("{sus} units: {reason}"),
        }
    }
}

/// A SuperPOD leaf has 31 hosts on 32 up cables, so d-mod-k leaves the second cable to
/// the last spine without a destination at every leaf, and random permutations lose it.
/// The PGFT router hands that cable its sibling's destinations from half the source
/// leaves (docs/tree.md §1.4): every up cable of every leaf carries destinations, at
/// least a third as many as the cables' mean, and every cable to one spine still leads
/// there (the route after the leaf is d-mod-k's).
#[test]
fn superpod_leaves_use_every_up_cable() {
    for sus in [1, 2, 4] {
        let f = found::superpod(1, sus);
        let Recognition::Recognized { layout, .. } = recognize(&f, None) else {
            panic!("{sus} units: unrecognised")
        };
        let lids = Lids::plan(&f, &[], 0).unwrap();
        let routed = route_fabric(&f, Shape::Intact(&layout), &lids, &Ask::default()).unwrap();
        let host_leaf = |n: u32| f.peer(n, 1).map(|(leaf, _)| leaf);
        let hosts: Vec<(u32, u16)> = (0..f.len() as u32)
            .filter(|&n| f.node(n).kind != NodeKind::Switch)
            .filter_map(|n| Some((host_leaf(n)?, lids.base[f.port_index(n, 1) as usize])))
            .collect();
        let leaves: std::collections::BTreeSet<u32> = hosts.iter().map(|h| h.0).collect();
        // every leaf sends a destination to the same spine
        for &(home, lid) in &hosts {
            let spines: std::collections::BTreeSet<u32> = leaves
                .iter()
                .filter(|&&l| l != home)
                .map(|&l| f.peer(l, routed.lfts.get(l, lid).unwrap()).unwrap().0)
                .collect();
            assert_eq!(spines.len(), 1, "{sus} units, LID {lid}: spines {spines:?}");
        }
        for &leaf in &leaves {
            let mut per_port: BTreeMap<u8, usize> = (1..=f.node(leaf).nports)
                .filter(|&p| f.peer(leaf, p).is_some_and(|(x, _)| f.node(x).kind == NodeKind::Switch))
                .map(|p| (p, 0))
                .collect();
            for &(_, lid) in hosts.iter().filter(|h| h.0 != leaf) {
                let port = routed.lfts.get(leaf, lid).unwrap();
                *per_port.get_mut(&port).expect("a host of another leaf is sent up") += 1;
            }
            let (least, total) = (per_port.values().min().unwrap(), per_port.values().sum::<usize>());
            assert!(
                least * 3 * per_port.len() >= total,
                "{sus} units, leaf {}: destinations per up cable {:?}",
                f.node(leaf).desc,
                per_port.values().collect::<Vec<_>>()
            );
        }
    }
}

/// Route a generated fabric (LIDs planned) and prove the result.
/// With every VL offered and with one (detours and escape lane dropped, as the plugin
/// without QoS does), no host LID has a defective entry anywhere: switches without hosts
/// included (their holes filled, management only).
fn route_and_prove_planned(f: &Fabric, t: &TreeLayout) -> ibfat::Routed {
    let lids = Lids::plan(f, &[], 0).unwrap();
    let layout = Layout::Tree(t.clone());
    let one_vl = Ask {
        vls: 1,
        ..Ask::default()
    };
    for ask in [one_vl, Ask::default()] {
        let routed = route_fabric(f, Shape::Intact(&layout), &lids, &ask).unwrap();
        let proof = ibfat::prove(f, &lids, &routed, Some(&layout));
        assert!(proof.sound, "{}", proof.failure());
        let v = ibfat::check::validate(f, &lids, &routed.lfts, Some(&layout));
        assert_eq!(v.defective_host_lid_entries, 0, "{} VLs: {:?}", ask.vls, v.defects);
        assert_eq!(v.broken_host_routes, 0, "{} VLs", ask.vls);
        if ask.vls == 15 {
            return routed;
        }
    }
    unreachable!()
}

use crate::harness;

/// The ratio and max congestion of an `ibfat check --json` run that must measure (exit 1:
/// conflicts, as any all-to-all on an irregular tree has).
fn checked(args: &[&str]) -> (f64, u64) {
    let (code, out, err) = harness::ibfat(args);
    assert_eq!(code, 1, "{args:?}: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    (
        v["throughput_ratio"].as_f64().unwrap(),
        v["max_congestion"].as_u64().unwrap(),
    )
}

/// Everything downstream works on a tree as found (issue 39 item 5), through the CLI on
/// the lab cluster: tables written and validated, the shift, random and bisection
/// schedules written and checked on those tables (the same figures as the pattern checked
/// directly), the layered heat map, Slurm's topology.conf by level, and a degraded copy (`faults`) that is still a
/// tree and routes with a proof.
#[test]
fn schedules_checks_exports_and_faults_work_on_a_tree() {
    let lab = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/public/loginoff-sx6036-fdr10-2014.ibnetdiscover");
    let lab = lab.to_str().unwrap();
    let t = tempfile::tempdir().unwrap();
    let dir = |n: &str| t.path().join(n).to_str().unwrap().to_string();
    let (code, out, err) = harness::ibfat(&["route", lab, "-o", &dir("lfts")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("validated: loop-free"), "{out}");
    let dump = format!("{}/opensm-lfts.dump", dir("lfts"));
    let (code, out, err) = harness::ibfat(&["lfts", "validate", lab, "--lfts", &dump]);
    assert_eq!((code, out.trim_end().lines().last()), (0, Some("valid")), "{out}{err}");
    for pattern in ["shift", "random", "bisection"] {
        let file = dir(&format!("{pattern}.json"));
        let (code, _, err) = harness::ibfat(&["schedule", lab, "--pattern", pattern, "-o", &file]);
        assert_eq!(code, 0, "{pattern}: {err}");
        let from_file = checked(&["check", lab, "--lfts", &dump, "-p", &file, "--json", "-q"]);
        assert!(from_file.0 > 0.25 && from_file.0 <= 1.0, "{pattern}: {from_file:?}");
        if pattern != "random" {
            // the schedule is the pattern: the same figures as checking the pattern itself
            let direct = checked(&["check", lab, "--lfts", &dump, "-p", pattern, "--json", "-q"]);
            assert_eq!(from_file, direct, "{pattern}");
        }
    }
    let (code, _, err) = harness::ibfat(&["check", lab, "--heatmap", &dir("heat.svg"), "-q"]);
    assert_eq!(code, 1, "{err}");
    let svg = std::fs::read_to_string(dir("heat.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{}",
        &svg[..80.min(svg.len())]
    );

    let (code, conf, err) = harness::ibfat(&["export", "slurm-topology", lab]);
    assert_eq!(code, 0, "{err}");
    // one line per switch, the 6 leaves with their hosts, the 2 spines with the leaves below
    // (loaded into a real slurmctld: tests/lab/slurm_topology.rs)
    let lines: Vec<&str> = conf.lines().filter(|l| l.starts_with("SwitchName=")).collect();
    assert_eq!(lines.len(), 8, "{conf}");
    assert_eq!(lines.iter().filter(|l| l.contains(" Nodes=")).count(), 6, "{conf}");
    assert_eq!(lines.iter().filter(|l| l.contains(" Switches=")).count(), 2, "{conf}");

    let (code, _, err) = harness::ibfat(&["faults", lab, "--cut", "3", "--seed", "5", "--out", &dir("cut")]);
    assert_eq!(code, 0, "{err}");
    let net = format!("{}/topology.net", dir("cut"));
    let (code, out, err) = harness::ibfat(&["recognize", &net, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["family"], "tree", "{out}");
    let (code, out, err) = harness::ibfat(&["route", &net, "-o", &dir("cut-lfts")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("validated: loop-free"), "{out}");
}

/// On one VL (no QoS: relay detours and the escape lane dropped) the grown lab's leaf
/// cabled to 2 of the 4 spines still reaches the other two spines and the hostless switch:
/// through a turn at another leaf that keeps the VL's channel dependency graph acyclic.
/// Checked independently: every (switch, LID) entry walks to its LID, and the CDG of the
/// walks from every switch with hosts to every LID (hosts' and switches') has a
/// topological order.
#[test]
fn one_vl_routes_every_lid_of_the_grown_lab_through_turns_its_cdg_allows() {
    let one_vl = |f: &Fabric| {
        let layout = Layout::Tree(tree_of(f));
        let lids = Lids::discovered(f).unwrap().expect("LIDs");
        let ask = Ask {
            vls: 1,
            ..Ask::default()
        };
        let routed = route_fabric(f, Shape::Intact(&layout), &lids, &ask).unwrap();
        assert!(ibfat::prove(f, &lids, &routed, Some(&layout)).sound);
        let v = ibfat::check::validate(f, &lids, &routed.lfts, Some(&layout));
        assert!(v.complete && v.defects.is_empty(), "{:?}", v.defects);
        assert!(all_lid_cdg_acyclic(f, &lids, &routed.lfts));
        routed
    };
    for seed in 1..=3 {
        let mut f = found::grown_lab(seed);
        let planned = Lids::plan(&f, &[], 0).unwrap();
        for (i, p) in f.ports.iter_mut().enumerate() {
            p.lid = planned.base[i];
        }
        let routed = one_vl(&f);
        let d = routed.dropped.expect("the relay detours need a second VL");
        assert_eq!(
            (d.turned, routed.unrouted, routed.unrouted_switch_lids),
            (3, 0, 0),
            "seed {seed}"
        );
        // the turns do not depend on the order the switches were found in
        let g = reversed(&f);
        assert_eq!(differing(&f, &routed.lfts, &g, &one_vl(&g).lfts), 0, "seed {seed}");
    }
}

/// Kahn's algorithm on the dependencies of the walks from every switch with hosts to
/// every LID.
fn all_lid_cdg_acyclic(f: &Fabric, lids: &Lids, lfts: &ibfat::routing::LftSet) -> bool {
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); f.ports.len()];
    for &sw in lfts.switches.iter().filter(|&&sw| hosts_on(f, sw) > 0) {
        for lid in 1..lids.owner.len() {
            if lids.owner[lid] == ibfat::topology::NO_PEER {
                continue;
            }
            let (mut at, mut prev) = (sw, None::<usize>);
            for _ in 0..f.len() {
                let Some(p) = lfts
                    .get(at, lid as u16)
                    .filter(|&p| p != 0 && p != ibfat::routing::NO_ROUTE)
                else {
                    break;
                };
                let ch = f.port_index(at, p) as usize;
                if let Some(x) = prev {
                    next[x].push(ch);
                }
                prev = Some(ch);
                match f.peer(at, p) {
                    Some((n, _)) if f.node(n).kind == NodeKind::Switch => at = n,
                    _ => break,
                }
            }
        }
    }
    let mut indeg = vec![0usize; next.len()];
    for v in next.iter_mut() {
        v.sort_unstable();
        v.dedup();
        v.iter().for_each(|&y| indeg[y] += 1);
    }
    let mut ready: Vec<usize> = (0..next.len()).filter(|&c| indeg[c] == 0).collect();
    let mut seen = 0;
    while let Some(c) = ready.pop() {
        seen += 1;
        for &y in &next[c] {
            indeg[y] -= 1;
            if indeg[y] == 0 {
                ready.push(y);
            }
        }
    }
    seen == next.len()
}
