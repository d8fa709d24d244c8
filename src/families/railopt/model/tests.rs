use super::check::{check, Severity};
use super::*;
use crate::topology::{Fabric, NodeKind};

/// `sus` units of `per_su` servers with `rails` HCAs (`mlx5_<r>`), server `i` of a unit
/// on port `i + 1` of every leaf of its unit; 2 spines; HCA GUIDs from `0x1000`.
struct Rig {
    f: Fabric,
    leaves: Vec<Vec<NodeId>>,
    hcas: Vec<Vec<NodeId>>,
}

fn rig(sus: usize, per_su: usize, rails: usize) -> Rig {
    let mut f = Fabric::new();
    let spines: Vec<NodeId> = (0..2)
        .map(|k| {
            f.add_node(NodeKind::Switch, 36, 0x100 + k, format!("S{k}"), "spine")
                .unwrap()
        })
        .collect();
    let mut leaves = Vec::new();
    let mut hcas = Vec::new();
    for u in 0..sus {
        let ls: Vec<NodeId> = (0..rails)
            .map(|r| {
                let g = 0x200 + (u * rails + r) as u64;
                f.add_node(NodeKind::Switch, 36, g, format!("L{u}_{r}"), "leaf")
                    .unwrap()
            })
            .collect();
        for (r, &l) in ls.iter().enumerate() {
            for (k, &s) in spines.iter().enumerate() {
                f.connect(l, 30 + k as u32, s, (u * rails + r) as u32 + 1).unwrap();
            }
        }
        for i in 0..per_su {
            let name = format!("dgx{:03}", u * per_su + i + 1);
            let mine: Vec<NodeId> = (0..rails)
                .map(|r| {
                    let g = 0x1000 + 4 * (hcas.len() * rails + r) as u64;
                    let h = f
                        .add_node(NodeKind::Ca, 1, g, format!("H{g:x}"), format!("{name} mlx5_{r}"))
                        .unwrap();
                    f.connect(h, 1, ls[r], i as u32 + 1).unwrap();
                    h
                })
                .collect();
            hcas.push(mine);
        }
        leaves.push(ls);
    }
    Rig { f, leaves, hcas }
}

impl Rig {
    /// Exchange the switch ends of two HCAs' cables.
    fn swap(&mut self, a: NodeId, b: NodeId) {
        let (la, pa) = self.f.peer(a, 1).unwrap();
        let (lb, pb) = self.f.peer(b, 1).unwrap();
        self.f.disconnect(a, 1);
        self.f.disconnect(b, 1);
        self.f.connect(a, 1, lb, pb as u32).unwrap();
        self.f.connect(b, 1, la, pa as u32).unwrap();
    }
}

#[test]
fn names_sort_as_numbers() {
    let mut v = vec!["dgx10", "dgx2", "dgx002a", "a", "dgx1", "mlx5_10", "mlx5_9"];
    v.sort_by(|a, b| natural_cmp(a, b));
    assert_eq!(v, ["a", "dgx1", "dgx2", "dgx002a", "dgx10", "mlx5_9", "mlx5_10"]);
}

/// The byte-wise `natural_cmp` orders names exactly as the chunk-key definition it
/// replaced (chunks of digits and of the rest; text before numbers; numbers by value,
/// then by their leading zeros through the plain-text tie-break), on random names from
/// an alphabet with digits, zeros, separators and non-ASCII letters.
#[test]
fn natural_order_is_the_chunk_key_order() {
    fn chunks(s: &str) -> impl Iterator<Item = (bool, &str)> {
        let mut rest = s;
        std::iter::from_fn(move || {
            let digit = rest.chars().next()?.is_ascii_digit();
            let end = rest.find(|c: char| c.is_ascii_digit() != digit).unwrap_or(rest.len());
            let (head, tail) = rest.split_at(end);
            rest = tail;
            Some((digit, head))
        })
    }
    fn key((digit, s): (bool, &str)) -> (bool, usize, &str) {
        let t = s.trim_start_matches('0');
        (digit, if digit { t.len() } else { 0 }, if digit { t } else { s })
    }
    let reference = |a: &str, b: &str| chunks(a).map(key).cmp(chunks(b).map(key)).then_with(|| a.cmp(b));
    let alphabet = ['0', '0', '1', '2', '9', 'a', 'b', '_', '-', ' ', 'é', 'x'];
    let mut rng = crate::rng::SplitMix64::new(7);
    let names: Vec<String> = (0..400)
        .map(|_| {
            let len = rng.next_u64() % 7;
            (0..len)
                .map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize])
                .collect()
        })
        .collect();
    for a in &names {
        for b in &names {
            assert_eq!(natural_cmp(a, b), reference(a, b), "{a:?} vs {b:?}");
        }
    }
}

#[test]
fn a_healthy_fabric_has_servers_rails_units_and_no_finding() {
    let r = rig(2, 3, 4);
    let rf = RailFabric::of(&r.f).expect("rail-optimised");
    assert_eq!(rf.source, RailSource::Devices);
    assert_eq!(rf.rails, ["mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"]);
    let names: Vec<&str> = rf.servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["dgx001", "dgx002", "dgx003", "dgx004", "dgx005", "dgx006"]);
    assert_eq!(rf.units.len(), 2);
    for (u, unit) in rf.units.iter().enumerate() {
        assert_eq!(unit.servers, [3 * u as u32, 3 * u as u32 + 1, 3 * u as u32 + 2]);
        assert_eq!(unit.rail_leaf, r.leaves[u]);
        assert_eq!(unit.leaves, r.leaves[u]);
    }
    let s = rf.server("dgx005").unwrap();
    assert_eq!(s.unit, 1);
    assert_eq!(s.hcas.iter().map(|h| h.rail).collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(s.hcas[2].endpoint.node, r.hcas[4][2]);
    assert!(rf.others.is_empty());
    assert_eq!(check(&r.f, &rf), []);
}

#[test]
fn hosts_of_one_hca_are_not_rail_optimised() {
    let mut f = Fabric::new();
    let l = f.add_node(NodeKind::Switch, 8, 1, "L", "leaf").unwrap();
    for k in 0..4u32 {
        let h = f
            .add_node(
                NodeKind::Ca,
                1,
                0x10 + 4 * k as u64,
                format!("H{k}"),
                format!("n{k} mlx5_0"),
            )
            .unwrap();
        f.connect(h, 1, l, k + 1).unwrap();
    }
    assert!(RailFabric::of(&f).is_none());
}

#[test]
fn a_swap_within_a_unit_is_one_exchange() {
    let mut r = rig(2, 3, 4);
    r.swap(r.hcas[1][1], r.hcas[2][2]);
    let rf = RailFabric::of(&r.f).unwrap();
    let found = check(&r.f, &rf);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found
        .iter()
        .all(|f| f.kind == "wrong-rail" && f.severity == Severity::Error));
    assert_eq!(found[0].server, "dgx002");
    assert_eq!(
        found[0].message,
        "dgx002 mlx5_1 (rail 1 (mlx5_1) of SU 1) is on leaf leaf [0x0000000000000202] port 3, a leaf of rail 2 (mlx5_2); \
         expected on leaf leaf [0x0000000000000201]"
    );
    assert_eq!(
        found[0].fix,
        "exchange the cables at leaf leaf [0x0000000000000202] port 3 and at leaf leaf [0x0000000000000201] port 2 \
         (dgx003 mlx5_2)"
    );
    assert_eq!(found[1].server, "dgx003");
}

#[test]
fn a_cable_to_another_unit_is_a_move_to_the_usual_port() {
    let mut r = rig(2, 3, 4);
    let h = r.hcas[0][0];
    r.f.disconnect(h, 1);
    r.f.connect(h, 1, r.leaves[1][0], 20).unwrap();
    let rf = RailFabric::of(&r.f).unwrap();
    let found = check(&r.f, &rf);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].kind, "wrong-unit");
    assert!(found[0].message.contains("a leaf of SU 2"), "{}", found[0].message);
    assert_eq!(found[0].fix, "move the cable at leaf leaf [0x0000000000000204] port 20 to leaf leaf [0x0000000000000200] port 1 (its port on the other rails)");
}

#[test]
fn servers_with_too_few_or_doubled_hcas_and_management_hosts() {
    let mut r = rig(1, 6, 4);
    // dgx002 loses mlx5_3; dgx006 is renamed dgx005 (two servers, one name)
    r.f.disconnect(r.hcas[1][3], 1);
    for &h in &r.hcas[5] {
        let d = r.f.nodes[h as usize].desc.replace("dgx006", "dgx005");
        r.f.nodes[h as usize].desc = d;
    }
    let m = r.f.add_node(NodeKind::Ca, 1, 0x9000, "M", "mgmt0 mlx5_0").unwrap();
    r.f.connect(m, 1, r.leaves[0][0], 33).unwrap();
    let rf = RailFabric::of(&r.f).unwrap();
    assert_eq!(rf.others, [Endpoint { node: m, port: 1 }]);
    let found = check(&r.f, &rf);
    let kinds: Vec<(&str, &str)> = found.iter().map(|f| (f.kind, f.server.as_str())).collect();
    assert_eq!(
        kinds,
        [("hca-count", "dgx002"), ("duplicate-device", "dgx005")],
        "{found:#?}"
    );
    assert_eq!(
        found[0].message,
        "dgx002 has 3 HCAs on the fabric, the rails are 4: none on mlx5_3"
    );
    assert!(
        found[1].message.contains("two servers named dgx005"),
        "{}",
        found[1].message
    );
}

#[test]
fn a_leaf_serving_two_rails_and_port_conventions() {
    let mut r = rig(1, 4, 4);
    // rails 0 and 1 of dgx001 and dgx002 trade leaves: leaves 0 and 1 serve both rails
    for s in 0..2 {
        r.swap(r.hcas[s][0], r.hcas[s][1]);
    }
    // dgx004's rail 3 moves to another port of the right leaf
    r.f.disconnect(r.hcas[3][3], 1);
    r.f.connect(r.hcas[3][3], 1, r.leaves[0][3], 12).unwrap();
    let rf = RailFabric::of(&r.f).unwrap();
    let found = check(&r.f, &rf);
    let kinds: Vec<&str> = found.iter().map(|f| f.kind).collect();
    assert!(kinds.contains(&"mixed-leaf"), "{found:#?}");
    let warn = found.last().unwrap();
    assert_eq!((warn.kind, warn.severity), ("port-convention", Severity::Warning));
    assert_eq!(
        warn.message,
        "dgx004 is on port 4 of its leaves but mlx5_3 on leaf leaf [0x0000000000000203] port 12"
    );
}

#[test]
fn without_device_names_rails_are_the_leaves() {
    let mut r = rig(2, 2, 3);
    for n in r.f.nodes.iter_mut().filter(|n| n.kind == NodeKind::Ca) {
        n.desc = n.desc.split_whitespace().next().unwrap().to_string();
    }
    let rf = RailFabric::of(&r.f).unwrap();
    assert_eq!(rf.source, RailSource::Leaves);
    assert_eq!(rf.rails, ["rail0", "rail1", "rail2"]);
    assert_eq!(rf.units[1].rail_leaf, r.leaves[1]);
    assert!(rf.servers.iter().all(|s| s.hcas.iter().map(|h| h.rail).eq(0..3)));
    assert_eq!(check(&r.f, &rf), []);
}

#[test]
fn vendor_default_descriptions_group_by_system_image() {
    // no rdma-ndd: every HCA keeps the firmware's description; each server's HCAs share
    // a system image GUID, so they are still one server (rails then come from leaves)
    let mut r = rig(2, 4, 4);
    for (s, hcas) in r.hcas.iter().enumerate() {
        for &h in hcas {
            r.f.nodes[h as usize].desc = "MT4129 ConnectX7 Mellanox Technologies".into();
            r.f.set_sysimg(h, 0xabc000 + s as u64);
        }
    }
    let rf = RailFabric::of(&r.f).expect("rail-optimised by system image");
    assert_eq!(rf.servers.len(), 8);
    assert_eq!(rf.servers[0].name, "sysimg-abc000");
    assert_eq!(rf.source, RailSource::Leaves);
    assert_eq!(rf.units.len(), 2);
    assert!(check(&r.f, &rf).is_empty());
    // a description that names its host wins over the system image
    r.f.nodes[r.hcas[0][0] as usize].desc = "gpu17 mlx5_0".into();
    assert_eq!(host_words(&r.f, r.hcas[0][0]).0, "gpu17");
    // without a system image, vendor defaults name no server: not rail-optimised
    for hcas in &r.hcas {
        for &h in hcas {
            r.f.set_sysimg(h, 0);
        }
    }
    assert!(RailFabric::of(&r.f).is_none());
}
