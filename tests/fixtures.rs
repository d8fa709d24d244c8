//! Real tool output captured by `examples/capture_fixtures.rs` (ibsim + OpenSM +
//! ibnetdiscover, default, `-p`, `-g` and `-f`): parsed without problems, the same nodes,
//! GUIDs and cables as the plan it was made from, LIDs as OpenSM set them, recognised as
//! the plan's family, and a clean cabling audit.

use ibfat::cabling::audit::audit;
use ibfat::formats::dump::{self, DumpFormat};
use ibfat::recognize::{recognize, FamilyHint, Recognition};
use ibfat::topology::{Fabric, Layout, NodeKind, Spec, Width};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const FAMILIES: [&str; 4] = ["lsft2", "lsft3x2", "kary2x3", "mols3"];
const DUMPS: [&str; 4] = [
    "ibnetdiscover.txt",
    "ibnetdiscover-p.txt",
    "ibnetdiscover-g.txt",
    "ibnetdiscover-f.txt",
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name)
}

type Cables = BTreeSet<((u64, u8), (u64, u8))>;

fn cables(f: &Fabric) -> Cables {
    f.links()
        .map(|l| {
            let a = (f.node(l.a).guid, l.pa);
            let b = (f.node(l.b).guid, l.pb);
            (a.min(b), a.max(b))
        })
        .collect()
}

fn nodes(f: &Fabric) -> BTreeSet<(u64, String)> {
    f.nodes
        .iter()
        .map(|n| (n.guid, format!("{:?} {}", n.kind, n.desc)))
        .collect()
}

fn params(l: &Layout) -> String {
    match l {
        Layout::Lsft(l) => format!("lsft q={} sides={} m={}", l.q, l.sides, l.hosts_per_leaf),
        Layout::Kary(l) => format!("kary k={} n={}", l.k, l.levels),
        Layout::Mols(l) => format!("mols n={} {}", l.n, l.wiring),
        Layout::Pgft(l) => format!("pgft {}", l.params.describe()),
        Layout::Fullmesh(l) => format!("fullmesh n={} h={} w={}", l.n, l.h, l.w),
    }
}

#[test]
fn captured_dumps_match_their_plans() {
    for fam in FAMILIES {
        let dir = fixture(fam);
        let yaml = dir.join("fabric.yaml");
        let spec = Spec::from_yaml(&std::fs::read_to_string(&yaml).unwrap(), &yaml).unwrap();
        let plan = spec.build().unwrap();
        for dump in DUMPS {
            let path = dir.join(dump);
            let what = format!("{fam}/{dump}");
            let d = dump::read(&path).unwrap().strict(&path).unwrap();
            // every line understood (the ports report notes its unconnected ports)
            assert!(
                d.notes.iter().all(|n| n.message.ends_with("is not connected")),
                "{what}: {:?}",
                d.notes
            );
            assert!(!d.truncated, "{what}");
            let want = if dump.ends_with("-p.txt") {
                DumpFormat::Ports
            } else {
                DumpFormat::Ibnetdiscover
            };
            assert_eq!(d.format, want, "{what}");
            let f = &d.fabric;
            assert_eq!(cables(f), cables(&plan.fabric), "{what}: cables");
            assert_eq!(nodes(f), nodes(&plan.fabric), "{what}: nodes");
            // OpenSM gave every switch and every host port a LID
            for n in f.switches() {
                assert_ne!(f.port(n, 0).lid, 0, "{what}: switch {} has no LID", f.node(n).desc);
            }
            for ep in f.endpoints() {
                assert_ne!(
                    f.port(ep.node, ep.port).lid,
                    0,
                    "{what}: {} has no LID",
                    f.node(ep.node).desc
                );
            }
            // rates are known for every cable
            for l in f.links() {
                assert!(d.rate_known[f.port_index(l.a, l.pa) as usize], "{what}");
                assert_eq!(f.port(l.a, l.pa).width, Width::X4, "{what}");
            }
            match recognize(f, None) {
                Recognition::Recognised { layout, .. } => {
                    assert_eq!(params(&layout), params(&plan.layout), "{what}")
                }
                Recognition::Unrecognised { reason, .. } => panic!("{what}: {reason}"),
            }
            let r = audit(&plan.fabric, Some(&plan.layout), &d);
            assert!(r.is_match(), "{what}: {r:#?}");
        }
    }
}

#[test]
fn router_records_are_read_from_real_output() {
    let dir = fixture("router");
    let net = dump::read(&dir.join("topology.net")).unwrap();
    for dump in DUMPS {
        let what = format!("router/{dump}");
        let d = dump::read(&dir.join(dump)).unwrap().strict(Path::new(&what)).unwrap();
        let f = &d.fabric;
        let r = f
            .nodes
            .iter()
            .position(|n| n.kind == NodeKind::Router)
            .unwrap_or_else(|| panic!("{what}: no router"));
        assert_eq!(f.node(r as u32).desc, "router R1", "{what}");
        let (peer, _) = f.peer(r as u32, 1).expect("the router is cabled");
        assert_eq!(f.node(peer).desc, "leaf L1");
        assert_eq!(
            f.port(r as u32, 1).width,
            Width::X1,
            "{what}: the router link runs at 1x"
        );
        assert_eq!(cables(f), cables(&net.fabric), "{what}");
        match recognize(f, None) {
            Recognition::Unrecognised { reason, .. } => assert!(reason.contains("router"), "{what}: {reason}"),
            Recognition::Recognised { layout, .. } => panic!("{what}: recognised as {}", layout.describe()),
        }
    }
}

#[test]
fn fixtures_recognise_under_their_own_family_hint_only() {
    let d = dump::read(&fixture("mols3").join("ibnetdiscover.txt")).unwrap();
    assert!(matches!(
        recognize(&d.fabric, Some(FamilyHint::Mols)),
        Recognition::Recognised { .. }
    ));
    for wrong in [FamilyHint::Lsft, FamilyHint::Kary] {
        assert!(matches!(
            recognize(&d.fabric, Some(wrong)),
            Recognition::Unrecognised { .. }
        ));
    }
}
