//! Real tool output captured by `examples/capture_fixtures.rs` (ibsim + OpenSM +
//! ibnetdiscover, default, `-p`, `-g` and `-f`): parsed without problems, the same nodes,
//! GUIDs and cables as the plan it was made from, LIDs as OpenSM set them, recognised as
//! the plan's family, and a clean cabling audit.

use ibfat::cabling::audit::audit;
use ibfat::families::Family;
use ibfat::formats::dump::{self, DumpFormat};
use ibfat::recognize::{recognize, Recognition};
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
        Layout::Tree(l) => format!("tree levels={}", l.levels()),
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
            // every line understood
            assert!(d.notes.is_empty(), "{what}: {:?}", d.notes);
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
                Recognition::Recognized { layout, .. } => {
                    assert_eq!(params(&layout), params(&plan.layout), "{what}")
                }
                Recognition::Unrecognized { reason, .. } => panic!("{what}: {reason}"),
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
            Recognition::Unrecognized { reason, .. } => assert!(reason.contains("router"), "{what}: {reason}"),
            Recognition::Recognized { layout, .. } => panic!("{what}: recognised as {}", layout.describe()),
        }
    }
}

#[test]
fn fixtures_recognise_under_their_own_family_hint_only() {
    let d = dump::read(&fixture("mols3").join("ibnetdiscover.txt")).unwrap();
    assert!(matches!(
        recognize(&d.fabric, Some(Family::Mols)),
        Recognition::Recognized { .. }
    ));
    for wrong in [Family::Lsft, Family::Kary] {
        assert!(matches!(
            recognize(&d.fabric, Some(wrong)),
            Recognition::Unrecognized { .. }
        ));
    }
}

/// Lines of `text` (trimmed) that satisfy `pred`.
fn count(text: &str, pred: impl Fn(&str) -> bool) -> usize {
    text.lines().map(str::trim).filter(|l| pred(l)).count()
}

/// A node header of ibnetdiscover's format, tabs or not: the keyword and the port count.
fn is_header(l: &str, keywords: &[&str]) -> bool {
    keywords.iter().any(|k| {
        l.strip_prefix(k)
            .map(str::trim_start)
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    })
}

/// Outputs of real clusters (fixtures/README.md cites each one): read with the format
/// stated, and the switches, hosts and cables read equal to counts taken from the text.
#[test]
fn public_outputs_of_real_clusters_are_read() {
    for name in [
        "ufm-selene-compute-hdr.ibnetdiscover",
        "ufm-director-putty-crlf.ibnetdiscover",
        "ufm-small-hdr-fdr.ibnetdiscover",
        "topograph-dgx-ndr-2025.ibnetdiscover",
        "janus-qdr-2014.ibnetdiscover",
        "loginoff-sx6036-fdr10-2014.ibnetdiscover",
        "ibtopotool-test1.ibnetdiscover",
        "ibtopotool-test2.ibnetdiscover",
        "ibtopotool-test3.ibnetdiscover",
        "ibtopotool-test4.ibnetdiscover",
    ] {
        let path = fixture("public").join(name);
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let d = dump::read(&path)
            .unwrap_or_else(|e| panic!("{e}"))
            .strict(&path)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d.format, DumpFormat::Ibnetdiscover, "{name}");
        let f = &d.fabric;
        let switches = count(&text, |l| is_header(l, &["Switch"]));
        let cas = count(&text, |l| is_header(l, &["Ca", "Hca"]));
        let port_lines = count(&text, |l| {
            l.starts_with('[') && l[1..].starts_with(|c: char| c.is_ascii_digit())
        });
        assert_eq!(f.switches().count(), switches, "{name}: switches");
        assert_eq!(f.cas().count(), cas, "{name}: hosts");
        assert_eq!(
            2 * f.link_count(),
            port_lines,
            "{name}: every port line is one end of a cable"
        );
    }
    // the 1,356-host QDR cluster with director chassis (issue 39's third row)
    let janus = dump::read(&fixture("public").join("janus-qdr-2014.ibnetdiscover")).unwrap();
    assert_eq!(
        (janus.fabric.switches().count(), janus.fabric.cas().count()),
        (214, 1356)
    );
    // a PuTTY log: its banner and the closing prompt are the skipped lines
    let putty = dump::read(&fixture("public").join("ufm-director-putty-crlf.ibnetdiscover")).unwrap();
    assert!(putty.truncated);
    assert!(putty
        .notes
        .iter()
        .any(|n| n.line == 1 && n.message.contains("PuTTY log")));

    // default iblinkinfo pasted in a README between prose and code fences
    let path = fixture("public").join("cc_rdma_test-iblinkinfo-qdr-README.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let d = dump::read(&path).unwrap().strict(&path).unwrap();
    assert_eq!(d.format, DumpFormat::Iblinkinfo);
    assert_eq!(
        d.fabric.switches().count(),
        count(&text, |l| l.starts_with("Switch: 0x"))
    );
    assert_eq!(d.fabric.cas().count(), count(&text, |l| l.starts_with("CA: ")));
    assert_eq!(2 * d.fabric.link_count(), count(&text, |l| l.contains(" Active/")));
    let dual = d
        .fabric
        .cas()
        .find(|&c| d.fabric.node(c).desc == "teaker-9 HCA-1")
        .unwrap();
    assert_eq!(
        d.fabric.node(dual).nports,
        2,
        "both ports of the dual-port HCA under its one header"
    );

    // an OpenSM subnet dump from before SPD= was written
    let path = fixture("public").join("ibutils-subnet.lst");
    let text = std::fs::read_to_string(&path).unwrap();
    let d = dump::read(&path).unwrap().strict(&path).unwrap();
    assert_eq!(d.format, DumpFormat::SubnetLst);
    assert_eq!(2 * d.fabric.link_count(), count(&text, |l| l.starts_with('{')));
    let guids: BTreeSet<&str> = text.split("NodeGUID:").skip(1).map(|s| &s[..16]).collect();
    assert_eq!(d.fabric.len(), guids.len());

    // a ports report trimmed for a test suite: refused with the hint, read with --partial
    let path = fixture("public").join("treydock-ibnetdiscover-p-edr.out");
    let e = dump::read(&path).unwrap().strict(&path).unwrap_err().to_string();
    assert!(e.contains("--partial"), "{e}");
    let opts = dump::ParseOptions {
        partial: true,
        ..Default::default()
    };
    let d = dump::read_with(&path, opts).unwrap().strict(&path).unwrap();
    assert_eq!(d.format, DumpFormat::Ports);

    // a listing has no cables: named as such
    let path = fixture("public").join("gsi-ibswitches.txt");
    let e = dump::read(&path).unwrap_err().to_string();
    assert!(
        e.contains("`ibswitches` listing") && e.contains("run `ibnetdiscover`"),
        "{e}"
    );
}

/// `[63](1/32/1) ` at the start of a port line: the port number and the label's numbers.
fn labelled_port(line: &str) -> Option<(u32, &str)> {
    let rest = line.strip_prefix('[')?;
    let (num, rest) = rest.split_once(']')?;
    let label = rest.strip_prefix('(')?.split_once(')')?.0;
    Some((num.parse().ok()?, label))
}

/// A real NDR cluster as ibdiagnet 2.10 wrote it (fixtures/README.md): its
/// ibnetdiscover-format file, every port line labelled, and its `.lst`, each cable listed
/// once. Both read to the same fabric; the bracketed number is the port LFTs use, and on
/// every Quantum-2 port the label's cage and port give it (2·(cage − 1) + port); reports
/// name a switch port by its cage.
#[test]
fn ibdiagnet_files_of_a_real_ndr_cluster() {
    let path = fixture("public").join("infiniband-exporter-ndr-ibdiagnet2.ibnetdiscover");
    let text = std::fs::read_to_string(&path).unwrap();
    let d = dump::read(&path).unwrap().strict(&path).unwrap();
    assert_eq!(d.format, DumpFormat::Ibdiagnet);
    let f = &d.fabric;
    let port_lines = count(&text, |l| labelled_port(l).is_some());
    assert_eq!(f.switches().count(), count(&text, |l| is_header(l, &["Switch"])));
    assert_eq!(f.cas().count(), count(&text, |l| is_header(l, &["Ca"])));
    assert_eq!(2 * f.link_count(), port_lines, "every port line is one end of a cable");
    assert_eq!(d.port_labels.len(), port_lines, "every port line labels its port");

    // the text's own numbering: ASIC/cage/port labels against the bracketed port
    let mut ndr = 0;
    for (num, label) in text.lines().filter_map(labelled_port) {
        let parts: Vec<u32> = label.split('/').filter_map(|p| p.parse().ok()).collect();
        if let [1, cage, port] = parts[..] {
            assert_eq!(num, 2 * (cage - 1) + port, "[{num}]({label})");
            ndr += 1;
        }
    }
    assert_eq!(ndr, 272);
    // and the reader kept each label at its port: every leaf's uplink is port 63, cage 32/1
    let uplinks: Vec<String> = d
        .port_labels
        .iter()
        .filter(|(n, p, _)| *p == 63 && f.node(*n).kind == NodeKind::Switch)
        .map(|(_, _, l)| format!("{l} {}", l.cage()))
        .collect();
    assert_eq!(uplinks, vec!["1/32/1 32/1".to_string(); 8]);
    // an HCA port by its PCI address (B134D0F0/0/0/1), kept as written
    let pci = d
        .port_labels
        .iter()
        .filter(|(n, _, l)| f.node(*n).kind == NodeKind::Ca && l.to_string().starts_with('B'))
        .count();
    assert_eq!(pci, count(&text, |l| l.starts_with("[1](B")));

    // the .lst of the same run: the same nodes and cables
    let lst = fixture("public").join("infiniband-exporter-ndr-ibdiagnet2.lst");
    let l = dump::read(&lst).unwrap().strict(&lst).unwrap();
    assert_eq!(l.format, DumpFormat::IbdiagnetLst);
    assert!(l.notes.is_empty(), "{:?}", l.notes);
    assert_eq!(nodes(&l.fabric).len(), nodes(f).len());
    assert_eq!(cables(&l.fabric), cables(f));

    // recognised: a two-level tree of 8 leaves under one spine
    let Recognition::Recognized { layout, .. } = recognize(f, None) else {
        panic!("not recognised")
    };
    assert_eq!(params(&layout), "pgft PGFT(2; 33,8; 1,1; 1,1)");

    // a slow uplink is reported by its cages
    let slow = text
        .lines()
        .map(|l| {
            let uplink = l.starts_with("[1](1/1/1) \"S-fc6a1c030091cf00\"[63]")
                || l.starts_with("[63](1/32/1) \"S-b0cf0e0300d33fc0\"[1]");
            if uplink {
                l.replace("4xNDR", "4xHDR")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let dir = tempfile::tempdir().unwrap();
    let slow_path = dir.path().join("slow.ibnetdiscover");
    std::fs::write(&slow_path, slow + "\n").unwrap();
    let s = dump::read(&slow_path).unwrap().strict(&slow_path).unwrap();
    let mut r = ibfat::recognize::report(&s.fabric, &recognize(&s.fabric, None));
    assert_eq!(r.slow_cables.len(), 1);
    ibfat::recognize::report::label_ports(&s.fabric, &mut r.slow_cables[0].ends, &s.port_labels);
    let ends: Vec<String> = r.slow_cables[0].ends.iter().map(|e| e.describe()).collect();
    assert!(ends.iter().any(|e| e.ends_with("port 63 (cage 32/1)")), "{ends:?}");
    assert!(ends.iter().any(|e| e.ends_with("port 1 (cage 1/1)")), "{ends:?}");
}
