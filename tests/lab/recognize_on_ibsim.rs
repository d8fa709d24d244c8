//! Recognition on real components (docs/recognition.md): plans built with shuffled ports and random GUIDs are loaded
//! into the real ibsim, discovered by the real ibnetdiscover, and recognised from that
//! output with the right family and parameters, the leaf → point map an incidence
//! isomorphism onto PG(2,q), the trees with their arity and levels.

use crate::harness::{build_plan, ibfat, switch_peers, Sim};
use ibfat::formats::dump;
use ibfat::recognize::{recognize, Recognition};
use ibfat::topology::{Fabric, Layout, NodeId, Wiring};
use std::collections::BTreeSet;
use std::path::Path;

/// Build a plan with the CLI, run it in ibsim and return (plan folder guard, dump text).
fn discover(build_args: &[&str], ibnd_args: &[&str]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plan");
    build_plan(build_args, &out);
    let sim = Sim::start(&out.join("topology.net"));
    let text = sim.ibnetdiscover(ibnd_args);
    (dir, text)
}

fn recognised(text: &str) -> Layout {
    let d = dump::parse(text, Path::new("ibnetdiscover"))
        .unwrap()
        .strict(Path::new("ibnetdiscover"))
        .unwrap();
    match recognize(&d.fabric, None) {
        Recognition::Recognized { layout, .. } => {
            // keep the fabric alive for the checks: re-recognition is deterministic
            layout
        }
        Recognition::Unrecognized { reason, .. } => panic!("unrecognised: {reason}"),
    }
}

fn parsed(text: &str) -> Fabric {
    dump::parse(text, Path::new("ibnetdiscover")).unwrap().fabric
}

#[test]
fn lsft_orders_2_to_7_are_recognised_from_real_ibnetdiscover_output() {
    for (q, seed) in [(2u32, 11u64), (3, 12), (4, 13), (5, 14), (7, 15)] {
        let (_dir, text) = discover(
            &[
                "build",
                "lsft",
                "--order",
                &q.to_string(),
                "--shuffle",
                &seed.to_string(),
            ],
            &[],
        );
        let f = parsed(&text);
        let Layout::Lsft(l) = recognised(&text) else {
            panic!("q={q}: not recognised as an LSFT")
        };
        assert_eq!((l.q, l.sides, l.hosts_per_leaf), (q, 1, q + 1), "q={q}");
        assert_eq!(l.hosts.len() as u32, (q + 1) * (q * q + q + 1));
        // leaf p is cabled to spine l exactly when point p lies on line l
        for (i, &leaf) in l.leaves.iter().enumerate() {
            let want: BTreeSet<NodeId> = l
                .plane
                .lines_through(i as u32)
                .iter()
                .map(|&x| l.spines[x as usize])
                .collect();
            assert_eq!(switch_peers(&f, leaf), want, "q={q}: leaf {}", f.node(leaf).desc);
        }
    }
}

#[test]
fn two_sided_lsft_and_the_cli_report() {
    let (dir, text) = discover(&["build", "lsft", "--order", "3", "--two-sided", "--shuffle", "4"], &[]);
    let Layout::Lsft(l) = recognised(&text) else { panic!() };
    assert_eq!((l.q, l.sides), (3, 2));
    let dump = dir.path().join("dump.txt");
    std::fs::write(&dump, &text).unwrap();
    let (code, stdout, stderr) = ibfat(&["recognize", dump.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["family"], "lsft");
    assert_eq!(v["order"], 3);
    assert_eq!(v["sides"], 2);
    assert_eq!(v["leaves"].as_array().unwrap().len(), 26);
    assert_eq!(v["spines"].as_array().unwrap().len(), 13);
    let leaf = &v["leaves"][0];
    assert!(leaf["guid"].as_str().unwrap().starts_with("0x"));
    assert!(leaf["point"].as_str().unwrap().starts_with('P'));
    assert!(v["spines"][5]["line"].as_str().unwrap().starts_with('L'));
    // the same fabric asked for as a tree is unrecognised, exit 1, with a reason
    let (code, stdout, _) = ibfat(&["recognize", dump.to_str().unwrap(), "--family", "kary", "--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["family"], "unrecognised");
    assert!(!v["reason"].as_str().unwrap().is_empty());
}

#[test]
fn trees_are_recognised_from_real_ibnetdiscover_output() {
    let (_d, text) = discover(
        &["build", "kary", "--arity", "3", "--levels", "3", "--shuffle", "7"],
        &[],
    );
    let Layout::Kary(l) = recognised(&text) else {
        panic!("kary")
    };
    assert_eq!((l.k, l.levels, l.hosts.len()), (3, 3, 27));
    let (_d, text) = discover(
        &["build", "kary", "--arity", "2", "--levels", "4", "--shuffle", "8"],
        &["-p"],
    );
    let Layout::Kary(l) = recognised(&text) else {
        panic!("kary from -p")
    };
    assert_eq!((l.k, l.levels, l.hosts.len()), (2, 4, 16));
    let (_d, text) = discover(&["build", "mols", "--arity", "3", "--shuffle", "9"], &[]);
    let Layout::Mols(l) = recognised(&text) else {
        panic!("mols")
    };
    assert_eq!((l.n, l.wiring), (3, Wiring::Mols));
    let (_d, text) = discover(
        &["build", "mols", "--arity", "4", "--wiring", "basic", "--shuffle", "10"],
        &["-g"],
    );
    let Layout::Mols(l) = recognised(&text) else {
        panic!("mols basic")
    };
    assert_eq!((l.n, l.wiring, l.hosts.len()), (4, Wiring::Basic, 64));
}

/// The two-level fat-tree of seed 001 (shuffled) from real ibnetdiscover output: a
/// 2-level PGFT automatically, the `twolevel` family with its parameters when asked.
#[test]
fn a_two_level_fat_tree_is_recognised_as_twolevel_when_asked() {
    use ibfat::families::Family;
    let (_d, text) = discover(
        &[
            "build",
            "twolevel",
            "--leaves",
            "6",
            "--hosts-per-leaf",
            "8",
            "--spines",
            "2",
            "--links-per-pair",
            "2",
            "--shuffle",
            "11",
        ],
        &[],
    );
    let Layout::Pgft(l) = recognised(&text) else {
        panic!("pgft")
    };
    assert!(!l.twolevel);
    let f = parsed(&text);
    let Recognition::Recognized { layout, .. } = recognize(&f, Some(Family::Twolevel)) else {
        panic!("twolevel")
    };
    assert_eq!(layout.family_name(), "twolevel");
    let Layout::Pgft(l) = &layout else { panic!() };
    assert_eq!(l.params.describe(), "PGFT(2; 8,6; 1,2; 1,2)");
    assert_eq!(l.hosts.len(), 48);
}
