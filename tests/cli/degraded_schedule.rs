//! Schedule repair on degraded LSFTs (issue 12 item 4): the LSFT all-to-all repaired for
//! the degraded tables is conflict-free on them, in the library and through `ibfat
//! schedule` / `ibfat check` on the dump `ibfat route` writes.

use crate::harness;

use crate::harness::{build_shuffled, ibfat};
use ibfat::families::lsft::model::LsftParams;
use ibfat::recognize::{recognize, Recognition};
use ibfat::topology::faults::inject;
use ibfat::topology::{FamilySpec, Topology};

fn lsft(q: u32, shuffle: u64) -> Topology {
    build_shuffled(FamilySpec::Lsft(LsftParams::new(q, false)), shuffle)
}

/// Schedule repair (issue 12 item 4): the LSFT all-to-all of a degraded LSFT, repaired on
/// its degraded tables, is conflict-free on them (the checker measures ratio 1.0,
/// congestion 1), sends every ordered pair of distinct hosts exactly once, keeps the phases
/// that stayed conflict-free, and beats the unrepaired schedule on the same tables.
#[test]
fn repaired_schedules_are_conflict_free_on_the_degraded_tables() {
    use ibfat::routing::{Ask, Lids};
    for (q, cut, dead) in [(5u32, 3usize, false), (7, 10, false), (7, 10, true)] {
        let t = lsft(q, 40 + q as u64);
        let f = &t.fabric;
        let dead_nodes: Vec<_> = if dead {
            vec![f.switches().find(|&s| f.node(s).name.starts_with('S')).unwrap()]
        } else {
            Vec::new()
        };
        let inj = inject(f, cut, 5, &dead_nodes).unwrap();
        let Recognition::Unrecognized { degraded: Some(d), .. } = recognize(&inj.fabric, None) else {
            panic!("LSFT({q}) with {cut} cuts not recognised as degraded")
        };
        let lids = Lids::plan(&inj.fabric, &[], 0).unwrap();
        let what = format!("LSFT({q}) {cut} cuts dead spine {dead}");
        let r = harness::route_degraded(&inj.fabric, &d, &lids, &Ask::default(), &what);
        let rep = harness::repaired_lsft_checked(
            &inj.fabric,
            d.lsft().unwrap(),
            &lids,
            &r.lfts,
            t.layout.hosts().len(),
            &what,
        );
        let what = format!("{what}: {rep:?}");
        assert!(
            rep.moved_flows > 0 && rep.kept_phases > 0 && rep.kept_phases < rep.original_phases,
            "{what}"
        );
        assert!(
            rep.throughput_vs_intact() > rep.unrepaired_vs_intact() && rep.throughput_vs_intact() > 0.5,
            "{what}"
        );
        // the packing is within a few phases of what the tables allow (measured 1–2.5 %)
        assert!(
            rep.phases >= rep.lower_bound_phases as usize && rep.phases as f64 <= 1.05 * rep.lower_bound_phases as f64,
            "{what}: {rep:?}"
        );
        eprintln!(
            "{what}\n  throughput vs intact: repaired {:.3}, unrepaired {:.3}",
            rep.throughput_vs_intact(),
            rep.unrepaired_vs_intact()
        );
    }
}

/// `ibfat schedule` on a degraded LSFT writes the lsft schedule repaired for ibfat's
/// degraded routes; `ibfat check` measures it conflict-free on the dump `ibfat route`
/// writes (the same tables: the fingerprints match), and refuses it on the intact plan's.
#[test]
fn cli_schedule_repairs_a_degraded_lsft() {
    let t = tempfile::tempdir().unwrap();
    let (plan, cut, _) = harness::lsft_with_faults(t.path(), 5, 31, "cut", &["--cut", "4", "--seed", "2"]);
    let net = cut.join("topology.net");
    let (n, s) = (net.to_str().unwrap(), t.path().join("s.json"));
    let (c, o, e) = ibfat(&[
        "schedule",
        n,
        "--pattern",
        "lsft",
        "--out",
        s.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(c, 0, "{o}{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    let r = &v["repair"];
    assert!(
        r["moved_flows"].as_u64().unwrap() > 0 && r["added_phases"].as_u64().is_some(),
        "{o}"
    );
    assert!(
        r["throughput_vs_intact"].as_f64().unwrap() > r["unrepaired_vs_intact"].as_f64().unwrap(),
        "{o}"
    );
    assert_eq!(
        v["phases"].as_u64(),
        Some(186 + r["added_phases"].as_u64().unwrap()),
        "{o}"
    );
    let routed = t.path().join("routed");
    let (c, o, e) = ibfat(&["route", n, "--out", routed.to_str().unwrap()]);
    assert_eq!(c, 0, "{o}{e}");
    let dump = routed.join("opensm-lfts.dump");
    let g2l = routed.join("guid2lid");
    let (c, o, e) = ibfat(&[
        "check",
        n,
        "--lfts",
        dump.to_str().unwrap(),
        "--lids",
        g2l.to_str().unwrap(),
        "--pattern",
        s.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(c, 0, "{o}{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["max_congestion"].as_u64(), Some(1), "{o}");
    assert_eq!(v["throughput_ratio"].as_f64(), Some(1.0), "{o}");
    // the same schedule against the intact plan's tables: stale
    let (c, _, e) = ibfat(&["check", plan.to_str().unwrap(), "--pattern", s.to_str().unwrap()]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("stale"), "{e}");
    // other patterns are refused on a degraded fabric, naming it
    let (c, _, e) = ibfat(&["schedule", n, "--pattern", "shift"]);
    assert_eq!(c, 2, "{e}");
    assert!(e.contains("degraded") && e.contains("--pattern lsft"), "{e}");
}
