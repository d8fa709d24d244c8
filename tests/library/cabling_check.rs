//! The cabling audit on faults made in the library (every matching mode, damaged dumps);
//! the real-component counterpart is `cabling_on_ibsim.rs`.

use ibfat::cabling::audit::{audit, CablingReport, MatchedBy};
use ibfat::families::lsft::model::{self as lsft, LsftParams};
use ibfat::formats::{dump, ibsim};
use ibfat::topology::{BuildOptions, Fabric, Layout, LsftLayout, NodeId, Width};
use ibfat::SplitMix64;
use std::path::Path;

fn plan() -> (Fabric, Layout) {
    lsft::build(
        &LsftParams {
            order: 3,
            two_sided: false,
            hosts_per_leaf: Some(3),
        },
        &BuildOptions {
            shuffle: Some(5),
            ..Default::default()
        },
    )
    .unwrap()
}

fn lsft(l: &Layout) -> &LsftLayout {
    match l {
        Layout::Lsft(l) => l,
        _ => panic!("an LSFT plan"),
    }
}

/// Render as a net file and read it back, the way a dump reaches the audit.
fn as_dump(f: &Fabric) -> dump::Discovered {
    let text = ibsim::write_net(f, &["found".into()]);
    dump::parse_lenient(&text, Path::new("found.net")).unwrap()
}

fn free_port(f: &Fabric, n: NodeId, from: u8) -> u8 {
    (from..=f.node(n).nports)
        .find(|&p| f.peer(n, p).is_none())
        .expect("a free port")
}

fn last_free_port(f: &Fabric, n: NodeId) -> u8 {
    (1..=f.node(n).nports)
        .rev()
        .find(|&p| f.peer(n, p).is_none())
        .expect("a free port")
}

/// Swap two uplinks at leaf L1, move L2's cable from its spine to a free port of another
/// spine, unplug one cable of L4, put a host of L5 on a free host port of L6, degrade a
/// cable of L7, and plug an extra cable between two free spine ports.
fn make_faults(p: &Fabric, l: &LsftLayout) -> Fabric {
    let mut f = p.clone();
    let d = 4usize;
    let leaf = |i: usize| l.leaves[i];
    // swap at L1: its first two uplinks
    let (a, pa, pb) = (leaf(1), l.leaf_up[d], l.leaf_up[d + 1]);
    let (x, px) = f.peer(a, pa).unwrap();
    let (y, py) = f.peer(a, pb).unwrap();
    f.disconnect(a, pa);
    f.disconnect(a, pb);
    f.connect(a, pa as u32, y, py as u32).unwrap();
    f.connect(a, pb as u32, x, px as u32).unwrap();
    // L2's first uplink moved (spine end) to a spine not on its point
    let (b, pb2) = (leaf(2), l.leaf_up[2 * d]);
    let point2 = 2u32;
    let other_line = (0..13u32).find(|&ln| !l.plane.incident(point2, ln)).unwrap();
    let spine = l.spines[other_line as usize];
    let sp = free_port(p, spine, 1);
    f.disconnect(b, pb2);
    f.connect(b, pb2 as u32, spine, sp as u32).unwrap();
    // unplug L4's last uplink
    f.disconnect(leaf(4), l.leaf_up[4 * d + 3]);
    // host of L5 onto the free host port of L6
    let h = l.hosts[l.slot_rank[5 * d] as usize];
    let l6 = leaf(6);
    let hp = free_port(&f, l6, 1);
    f.disconnect(h.node, h.port);
    f.connect(l6, hp as u32, h.node, h.port as u32).unwrap();
    // L7's first uplink runs at 1x
    let (c, pc) = (leaf(7), l.leaf_up[7 * d]);
    let ic = f.port_index(c, pc) as usize;
    let jc = f.ports[ic].peer as usize;
    f.ports[ic].width = Width::X1;
    f.ports[jc].width = Width::X1;
    // an extra cable between two spines' free ports (spines 10 and 11)
    let (s10, s11) = (l.spines[10], l.spines[11]);
    let (q10, q11) = (last_free_port(p, s10), last_free_port(p, s11));
    f.connect(s10, q10 as u32, s11, q11 as u32).unwrap();
    f
}

fn assert_faults(r: &CablingReport, plan: &Fabric, l: &LsftLayout) {
    assert_eq!(r.swapped.len(), 1, "{r:#?}");
    assert_eq!(r.swapped[0].at, format!("at {}", plan.node(l.leaves[1]).name));
    assert!(
        r.swapped[0].fix.starts_with("exchange the cables at"),
        "{}",
        r.swapped[0].fix
    );
    assert_eq!(r.miswired.len(), 2, "{r:#?}");
    assert!(r.miswired.iter().all(|m| m.kind == "wrong_switch"), "{:#?}", r.miswired);
    assert_eq!(r.missing.len(), 1, "{r:#?}");
    assert_eq!(r.missing[0].cable.a.node, plan.node(l.leaves[4]).name);
    assert_eq!(r.degraded.len(), 1, "{r:#?}");
    assert_eq!(
        (r.degraded[0].planned.as_str(), r.degraded[0].found.as_str()),
        ("4xSDR", "1xSDR")
    );
    assert_eq!(r.extra.len(), 1, "{r:#?}");
    assert!(r.problems.is_empty() && r.uncompared.is_empty(), "{r:#?}");
    assert_eq!(r.faults(), 6);
    assert!(!r.is_match());
}

#[test]
fn a_fabric_with_six_faults_reports_exactly_them_by_guid() {
    let (p, layout) = plan();
    let l = lsft(&layout);
    let found = make_faults(&p, l);
    let r = audit(&p, Some(&layout), &as_dump(&found));
    assert_eq!(r.matched_by, MatchedBy::Guid);
    assert_faults(&r, &p, l);
    // the fixes name plan nodes and ports
    let moved = r
        .miswired
        .iter()
        .find(|m| m.planned.a.node.starts_with('L') && m.planned.b.node.starts_with('S'));
    let m = moved.expect("the moved leaf-spine cable");
    assert!(
        m.fix.starts_with(&format!("move the cable at {} port", m.found.b.node)),
        "{}",
        m.fix
    );
    assert!(
        m.fix
            .ends_with(&format!("to {} port {}", m.planned.b.node, m.planned.b.port)),
        "{}",
        m.fix
    );
    let host = r
        .miswired
        .iter()
        .find(|m| m.planned.a.node.starts_with('H') || m.planned.b.node.starts_with('H'));
    assert!(host.is_some(), "the host on the wrong leaf: {:#?}", r.miswired);
    // and a correct fabric matches
    let ok = audit(&p, Some(&layout), &as_dump(&p));
    assert!(ok.is_match(), "{ok:#?}");
    assert_eq!(ok.matching_cables, p.link_count());
}

/// The same fabric with other GUIDs (and, optionally, no descriptions).
fn reidentify(f: &Fabric, keep_desc: bool, seed: u64) -> Fabric {
    let mut g = f.clone();
    let mut rng = SplitMix64::new(seed);
    for n in 0..g.len() {
        g.set_node_guid(n as NodeId, 0x0011_2200_0000_0000 | (rng.next_u64() & 0xFFFF_FFFF_FF00));
        if !keep_desc {
            g.nodes[n].desc = String::new();
        }
    }
    g
}

#[test]
fn descriptions_and_structure_find_the_same_faults() {
    let (p, layout) = plan();
    let l = lsft(&layout);
    let found = make_faults(&p, l);
    let by_desc = audit(&p, Some(&layout), &as_dump(&reidentify(&found, true, 1)));
    assert_eq!(by_desc.matched_by, MatchedBy::Description);
    assert_faults(&by_desc, &p, l);
    let by_structure = audit(&p, Some(&layout), &as_dump(&reidentify(&found, false, 2)));
    assert_eq!(by_structure.matched_by, MatchedBy::Structure);
    assert_faults(&by_structure, &p, l);
    let clean = audit(&p, Some(&layout), &as_dump(&reidentify(&p, false, 3)));
    assert!(clean.is_match(), "{clean:#?}");
}

#[test]
fn wrong_ports_and_wrong_hosts() {
    let (p, layout) = plan();
    let l = lsft(&layout);
    let mut f = p.clone();
    // a leaf uplink moved to a free port of the same leaf
    let leaf = l.leaves[3];
    let up = l.leaf_up[3 * 4 + 2];
    let (s, sp) = f.peer(leaf, up).unwrap();
    let free = free_port(&f, leaf, 1);
    f.disconnect(leaf, up);
    f.connect(leaf, free as u32, s, sp as u32).unwrap();
    // two hosts of leaf 8 exchanged: seen from the leaf, its cables lead to the wrong hosts
    let d = 4usize;
    let h1 = l.leaf_host[8 * d];
    let h2 = l.leaf_host[8 * d + 1];
    let l8 = l.leaves[8];
    let (x, px) = f.peer(l8, h1).unwrap();
    let (y, py) = f.peer(l8, h2).unwrap();
    f.disconnect(l8, h1);
    f.disconnect(l8, h2);
    f.connect(l8, h1 as u32, y, py as u32).unwrap();
    f.connect(l8, h2 as u32, x, px as u32).unwrap();
    let r = audit(&p, Some(&layout), &as_dump(&f));
    assert_eq!(r.miswired.len(), 1, "{r:#?}");
    assert_eq!(r.miswired[0].kind, "wrong_port");
    assert_eq!(
        r.miswired[0].fix,
        format!("move the cable at {} port {free} to port {up}", p.node(leaf).name)
    );
    assert_eq!(r.swapped.len(), 1, "{r:#?}");
    assert_eq!(r.swapped[0].at, format!("at {}", p.node(l8).name));
    assert_eq!(
        r.swapped[0].fix,
        format!(
            "exchange the cables at {} ports {} and {}",
            p.node(l8).name,
            h1.min(h2),
            h1.max(h2)
        )
    );
    assert_eq!(r.faults(), 2);
}

#[test]
fn damaged_dumps_are_compared_as_far_as_they_go() {
    let (p, layout) = plan();
    let text = ibsim::write_net(&p, &["found".into()]);
    // cut the dump in the middle of a line, two thirds in
    let cut = &text[..text.len() * 2 / 3 + 7];
    let d = dump::parse_lenient(cut, Path::new("cut.net")).unwrap();
    assert!(d.truncated);
    let r = audit(&p, Some(&layout), &d);
    assert_eq!(r.faults(), 0, "nothing is called missing when the dump is cut: {r:#?}");
    assert!(!r.uncompared.is_empty() && !r.problems.is_empty(), "{r:#?}");
    assert!(r.matching_cables > 0 && r.matching_cables < p.link_count());
    assert!(!r.is_match());
    // a link listed by one end only: that cable is uncompared, the rest matches
    let lines: Vec<&str> = text.lines().collect();
    let victim = lines.iter().rposition(|l| l.starts_with('[')).unwrap();
    let edited: String = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != victim)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let d = dump::parse_lenient(&edited, Path::new("edited.net")).unwrap();
    let r = audit(&p, Some(&layout), &d);
    assert_eq!(r.faults(), 0, "{r:#?}");
    assert_eq!(r.uncompared.len(), 1, "{r:#?}");
    assert_eq!(r.problems.len(), 1);
    assert!(r.problems[0].message.contains("one end only"), "{:?}", r.problems);
    assert_eq!(r.matching_cables, p.link_count() - 1);
}

#[test]
fn a_leaf_port_leading_to_the_wrong_host_and_a_slow_link() {
    let (p, layout) = plan();
    let l = lsft(&layout);
    let mut f = p.clone();
    let d = 4usize;
    // host A (slot 0 of leaf 9) is unplugged; host B (slot 0 of leaf 10) takes its place
    let a = l.hosts[l.slot_rank[9 * d] as usize];
    let b = l.hosts[l.slot_rank[10 * d] as usize];
    let (leaf9, port9) = f.peer(a.node, a.port).unwrap();
    f.disconnect(a.node, a.port);
    f.disconnect(b.node, b.port);
    f.connect(leaf9, port9 as u32, b.node, b.port as u32).unwrap();
    // a leaf-spine cable of leaf 11 trained at DDR below a planned QDR: plan at QDR
    let mut planned = p.clone();
    for port in planned.ports.iter_mut() {
        port.speed = ibfat::topology::Speed::Qdr;
    }
    for port in f.ports.iter_mut() {
        port.speed = ibfat::topology::Speed::Qdr;
    }
    let i = f.port_index(l.leaves[11], l.leaf_up[11 * d]) as usize;
    let j = f.ports[i].peer as usize;
    f.ports[i].speed = ibfat::topology::Speed::Ddr;
    f.ports[j].speed = ibfat::topology::Speed::Ddr;
    let r = audit(&planned, Some(&layout), &as_dump(&f));
    assert_eq!(r.miswired.len(), 1, "{r:#?}");
    assert_eq!(r.miswired[0].kind, "wrong_host");
    assert!(
        r.miswired[0].fix.contains(&format!("leads to {}", p.node(b.node).name)),
        "{}",
        r.miswired[0].fix
    );
    assert_eq!(r.missing.len(), 1, "B's own planned cable: {r:#?}");
    let ends = [&r.missing[0].cable.a.node, &r.missing[0].cable.b.node];
    assert!(ends.contains(&&p.node(b.node).name), "{ends:?}");
    assert_eq!(r.degraded.len(), 1, "{r:#?}");
    assert_eq!(
        (r.degraded[0].planned.as_str(), r.degraded[0].found.as_str()),
        ("4xQDR", "4xDDR")
    );
    assert_eq!(r.faults(), 3);
    assert!(r.extra.is_empty() && r.swapped.is_empty());
}
