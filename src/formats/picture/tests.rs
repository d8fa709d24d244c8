use super::*;
use crate::topology::{FamilySpec, Spec, Topology};

fn lsft(q: u32, two: bool) -> Topology {
    Spec::new(FamilySpec::Lsft(crate::families::lsft::model::LsftParams::new(q, two)))
        .build()
        .unwrap()
}

/// Two leaves with `hosts` hosts each, both cabled to one spine by `parallel` cables,
/// every switch described alike (as real fabrics are), one name hostile to markup.
fn pgft_like(hosts: u32, parallel: u32) -> Fabric {
    let mut f = Fabric::new();
    let ports = hosts + parallel;
    let spine = f
        .add_node(
            NodeKind::Switch,
            2 * parallel,
            0x100,
            "spine <&'>",
            "SwitchIB Mellanox Technologies",
        )
        .unwrap();
    for l in 0..2u32 {
        let leaf = f
            .add_node(
                NodeKind::Switch,
                ports,
                0x200 + u64::from(l),
                format!("leaf{l}"),
                "SwitchIB Mellanox Technologies",
            )
            .unwrap();
        for h in 0..hosts {
            let ca = f
                .add_node(
                    NodeKind::Ca,
                    1,
                    0x1000 + u64::from(l * hosts + h),
                    format!("h{l}_{h}"),
                    "HCA-1",
                )
                .unwrap();
            f.connect(leaf, h + 1, ca, 1).unwrap();
        }
        for c in 0..parallel {
            f.connect(leaf, hosts + 1 + c, spine, l * parallel + c + 1).unwrap();
        }
    }
    f
}

#[test]
fn lsft_rows_are_canonical_with_coordinates() {
    let p = lsft(3, false);
    let s = Scene::new(&p.fabric, Some(&p.layout));
    assert_eq!(s.rows.len(), 2);
    assert_eq!((s.rows[0].nodes.len(), s.rows[1].nodes.len()), (13, 13));
    let crate::topology::Layout::Lsft(l) = &p.layout else {
        unreachable!()
    };
    assert_eq!(s.rows[0].nodes, l.leaves);
    assert_eq!(s.rows[1].nodes, l.spines);
    assert!(s.rows[0].coords.iter().any(|c| c == "P(0,0)"), "{:?}", s.rows[0].coords);
    assert!(s.rows[1].coords.iter().any(|c| c == "L(0,0)"), "{:?}", s.rows[1].coords);
    assert_eq!(s.cables(), 52);
    assert_eq!(s.bundles.len(), 52);
    assert_eq!(s.hosts, 52);
    assert_eq!(s.other_cables, 0);
    assert!(s.fits_layered());
}

#[test]
fn small_fabrics_are_drawn_cable_by_cable_large_ones_as_matrices() {
    let small = lsft(3, false);
    let svg = render(&small.fabric, Some(&small.layout), "lsft3", None);
    assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
    // 52 cables + one short line per host dot
    assert_eq!(svg.matches("<line ").count(), 52 + 52);
    assert_eq!(svg.matches("<circle ").count(), 52);
    assert!(svg.contains(">P(0,0)<") && svg.contains(">L(0,0)<"));
    assert_eq!(
        svg,
        render(&small.fabric, Some(&small.layout), "lsft3", None),
        "deterministic"
    );

    // LSFT(11): 1,596 switch-to-switch cables, over the layered limit
    let big = lsft(11, false);
    let scene = Scene::new(&big.fabric, Some(&big.layout));
    assert!(scene.cables() > LAYERED_MAX_CABLES && !scene.fits_layered());
    let svg = render(&big.fabric, Some(&big.layout), "lsft11", None);
    assert!(svg.contains("incidence matrices"));
    assert_eq!(
        svg.matches(&format!("fill=\"{}\"", "#1f4e79")).count(),
        1596 + 1,
        "one cell per cable + legend"
    );
    assert_eq!(svg.matches("<line ").count(), 0);
}

#[test]
fn unrecognised_fabrics_get_levels_by_distance_and_parallel_cables_one_bundle() {
    let f = pgft_like(3, 4);
    let s = Scene::new(&f, None);
    assert_eq!(s.rows.len(), 2);
    assert_eq!(s.rows[0].title, "switches with hosts");
    assert_eq!(s.rows[0].nodes.len(), 2);
    assert_eq!(s.rows[1].nodes.len(), 1);
    assert_eq!(s.bundles.len(), 2, "4 parallel cables per leaf are one bundle");
    assert!(s.bundles.iter().all(|b| b.ports.len() == 4));
    assert_eq!(s.cables(), 8);
    let svg = render(&f, None, "two leaves", None);
    assert!(svg.contains(">×4<"), "parallel cables are marked");
    // the hostile name is escaped everywhere it appears
    assert!(!svg.contains("spine <&"));
    assert!(svg.contains("spine &lt;&amp;&#39;&gt;"));
    // a switch no host reaches is drawn in its own row, not lost
    let mut g = f.clone();
    g.add_node(NodeKind::Switch, 4, 0x999, "island", "x").unwrap();
    let s = Scene::new(&g, None);
    assert_eq!(s.rows.last().unwrap().title, "switches no host reaches");
}

#[test]
fn heat_maps_colour_each_direction_and_carry_a_legend() {
    let f = pgft_like(2, 1);
    let s = Scene::new(&f, None);
    // leaf0 -> spine hot, spine -> leaf0 one flow; leaf1 unused both ways
    let leaf0 = s.rows[0].nodes[0];
    let heat = |n: NodeId, _p: u8| -> Option<(f64, String)> {
        if n == leaf0 {
            Some((1.0, "worst".into()))
        } else if f.node(n).name.starts_with("spine") {
            Some((0.0, "one flow".into()))
        } else {
            None
        }
    };
    let scale = Scale {
        low: "1 flow".into(),
        high: "5 flows".into(),
    };
    let layered = render(&f, None, "heat", Some((&heat, &scale)));
    assert!(layered.contains("linearGradient") && layered.contains(">5 flows<") && layered.contains(">unused<"));
    assert!(
        layered.contains(&format!("stroke=\"{}\"", heat_colour(1.0))),
        "upward leaf0"
    );
    assert!(
        layered.contains(&format!("stroke=\"{}\"", heat_colour(0.0))),
        "downward to leaf0"
    );
    assert!(layered.contains("upward: worst") && layered.contains("downward: one flow"));
    assert_eq!(heat_colour(0.0), "#00c830");
    assert_eq!(heat_colour(1.0), "#ff0030");

    let scene = Scene::new(&f, None);
    let m = matrix::draw(&scene, "heat", Some((&heat, &scale)));
    assert!(m.contains("upward: switches with hosts") && m.contains("downward:"));
    assert!(m.contains(&format!("fill=\"{}\"", heat_colour(1.0))));
}

#[test]
fn discovered_fabrics_are_drawn_with_descriptions_not_guid_ids() {
    let mut f = Fabric::new();
    let a = f
        .add_node(
            NodeKind::Switch,
            4,
            0x0002_c903_0001_e3f0,
            "S-0002c9030001e3f0",
            "SwitchIB Mellanox Technologies",
        )
        .unwrap();
    let b = f
        .add_node(
            NodeKind::Switch,
            4,
            0x0002_c903_0001_e3f1,
            "S-0002c9030001e3f1",
            "SwitchIB Mellanox Technologies",
        )
        .unwrap();
    let c = f
        .add_node(
            NodeKind::Switch,
            4,
            0x0002_c903_0001_e3f2,
            "S-0002c9030001e3f2",
            "core switch 1 in row A rack 7",
        )
        .unwrap();
    let d = f
        .add_node(NodeKind::Switch, 4, 0x5, "L3", "L3 lsft3 leaf P(0)")
        .unwrap();
    let names = short_names(&f);
    assert_eq!(names[a as usize], "SwitchIB …01e3f0");
    assert_eq!(names[b as usize], "SwitchIB …01e3f1");
    assert_eq!(names[c as usize], "core switch 1 in ro…");
    assert_eq!(names[d as usize], "L3", "planned names stay");
}
