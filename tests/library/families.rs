//! The family suite: the properties every family's routes share, run over every family
//! the registry lists (`ibfat::FAMILIES`), intact and degraded. [`instances`] matches on
//! the family with no wildcard, so registering a family does not compile until it has
//! instances here — registering it is what puts it under test.
//!
//! For every instance, routed by the one pipeline (`route_fabric`) and checked by the one
//! soundness check (`prove`): the routes are sound (every LID reached from every switch,
//! no loop, nothing misdelivered; deadlock-free on one VL, or on each VL when the routes
//! have lanes — a degraded instance is proven per VL); routing again gives the same
//! tables; and the same cabling read from its net file with the node sections as written,
//! reversed and shuffled (ibnetdiscover started from another host lists nodes in another
//! order) gives the same tables entry for entry, switches matched by GUID and entries by
//! LID, switch LIDs included. What only one family promises stays in its own file.

use crate::found;
use crate::net_sections::{join, sections};
use ibfat::families::fullmesh::model::FullmeshParams;
use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::mols::model::{MolsParams, WiringChoice};
use ibfat::families::pgft::model::PgftParams;
use ibfat::formats::{dump, guid2lid, ibsim};
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::{LftSet, Shape};
use ibfat::topology::faults::inject;
use ibfat::topology::{BuildOptions, Fabric, FamilySpec, Layout, NodeKind, Spec};
use ibfat::{prove, route_fabric, Ask, Family, Lids, Routed, SplitMix64, FAMILIES};
use std::collections::HashMap;
use std::path::Path;

/// What an instance starts from.
enum Source {
    /// A family's plan: built (ports shuffled by the seed when given), routed on the
    /// builder's own layout as well as on what recognition finds.
    Built(FamilySpec, Option<u64>),
    /// A fabric as found (a family that is recognised only).
    Found(Fabric),
}

/// Faults made on the instance: `cut` seeded switch-to-switch cables and the switches
/// `dead` picks out of the intact fabric.
struct Faults {
    cut: usize,
    seed: u64,
    dead: fn(&Fabric) -> Vec<u32>,
}

/// One instance of a family under test.
struct Case {
    what: String,
    source: Source,
    lmc: u8,
    /// The seed that shuffles the node sections of the net file.
    order_seed: u64,
    faults: Option<Faults>,
}

fn built(what: &str, spec: FamilySpec, shuffle: Option<u64>, lmc: u8, order_seed: u64) -> Case {
    Case {
        what: what.to_string(),
        source: Source::Built(spec, shuffle),
        lmc,
        order_seed,
        faults: None,
    }
}

/// `case` with faults made on it.
fn degraded(case: Case, cut: usize, seed: u64, dead: fn(&Fabric) -> Vec<u32>) -> Case {
    Case {
        what: format!("{}, {cut} cuts (seed {seed})", case.what),
        faults: Some(Faults { cut, seed, dead }),
        ..case
    }
}

fn none(_: &Fabric) -> Vec<u32> {
    Vec::new()
}

/// The first LSFT spine (spines are named `S…` by the plans).
fn first_spine(f: &Fabric) -> Vec<u32> {
    f.switches()
        .filter(|&s| f.node(s).name.starts_with('S'))
        .take(1)
        .collect()
}

/// A tree's top switch: the highest level number sorts last by name.
fn a_top(f: &Fabric) -> Vec<u32> {
    vec![f.switches().max_by_key(|&s| f.node(s).name.clone()).unwrap()]
}

fn lsft(q: u32, two_sided: bool) -> FamilySpec {
    FamilySpec::Lsft(LsftParams::new(q, two_sided))
}

fn kary(arity: u32, levels: u32) -> FamilySpec {
    FamilySpec::Kary(KaryParams { arity, levels })
}

fn mols(arity: u32, wiring: WiringChoice) -> FamilySpec {
    FamilySpec::Mols(MolsParams { arity, wiring })
}

fn pgft(down: &[u32], up: &[u32], parallel: &[u32]) -> FamilySpec {
    FamilySpec::Pgft(PgftParams::from_lists(down, up, parallel, None).unwrap())
}

fn mesh(switches: u32, hosts_per_switch: u32, cables_per_pair: u32) -> FamilySpec {
    FamilySpec::Fullmesh(FullmeshParams {
        switches,
        hosts_per_switch,
        cables_per_pair,
    })
}

/// A family spelled as `fabric.yaml` spells it (the families built as another's layout).
fn yaml(text: &str) -> FamilySpec {
    Spec::from_yaml(text, Path::new("fabric.yaml")).unwrap().family
}

fn twolevel() -> FamilySpec {
    yaml("family: twolevel\nleaves: 8\nhosts_per_leaf: 8\nspines: 4\nlinks_per_pair: 2\n")
}

/// Two units of 6 servers on the 8 server slots of 16-port leaves, 4 rails.
fn railopt() -> FamilySpec {
    yaml("family: railopt\nsus: 2\nservers_per_su: 6\nrails: 4\nradix: 16\n")
}

fn found_tree(what: &str, seed: u64) -> Case {
    Case {
        what: what.to_string(),
        source: Source::Found(found::grown_lab(seed)),
        lmc: 0,
        order_seed: seed,
        faults: None,
    }
}

/// The instances of `family`: intact ones first, then degraded ones. No wildcard: a new
/// family must say here how it is built and degraded.
fn instances(family: Family) -> Vec<Case> {
    match family {
        Family::Lsft => vec![
            built("LSFT(7)", lsft(7, false), None, 0, 21),
            built("LSFT(3) two-sided", lsft(3, true), None, 0, 21),
            built("LSFT(5) shuffled ports", lsft(5, false), Some(5), 0, 21),
            degraded(
                built("LSFT(7), dead spine", lsft(7, false), Some(9), 0, 5),
                10,
                4,
                first_spine,
            ),
            degraded(built("LSFT(3) two-sided", lsft(3, true), Some(3), 0, 5), 3, 7, none),
        ],
        Family::Kary => {
            let mut v = vec![
                built("4-ary 3-tree", kary(4, 3), None, 0, 21),
                built("3-ary 3-tree shuffled ports", kary(3, 3), Some(3), 0, 21),
            ];
            for (k, n) in [(2, 2), (2, 3), (3, 3), (4, 3), (2, 5), (3, 4)] {
                let seed = k as u64 * 10 + n as u64;
                v.push(built(&format!("{k}-ary {n}-tree"), kary(k, n), Some(seed), 0, seed));
            }
            v.push(degraded(
                built("4-ary 3-tree, dead top", kary(4, 3), Some(9), 0, 5),
                4,
                4,
                a_top,
            ));
            v
        }
        Family::Mols => {
            let mut v = vec![built("MOLS(5)", mols(5, WiringChoice::Mols), None, 1, 21)];
            for n in [2, 3, 4, 5, 6] {
                for w in [WiringChoice::Standard, WiringChoice::Basic, WiringChoice::Auto] {
                    v.push(built(
                        &format!("MOLS({n}) {w:?}"),
                        mols(n, w),
                        Some(n as u64),
                        1,
                        n as u64,
                    ));
                }
            }
            v.push(degraded(
                built("MOLS(4) mols wiring", mols(4, WiringChoice::Mols), Some(4), 1, 5),
                3,
                7,
                none,
            ));
            v
        }
        Family::Pgft => vec![
            built(
                "PGFT(3; 4,4,2; 1,2,2; 1,2,1)",
                pgft(&[4, 4, 2], &[1, 2, 2], &[1, 2, 1]),
                None,
                0,
                21,
            ),
            degraded(
                built(
                    "PGFT(3; 4,4,2; 1,2,4; 1,2,2)",
                    pgft(&[4, 4, 2], &[1, 2, 4], &[1, 2, 2]),
                    Some(12),
                    0,
                    5,
                ),
                3,
                5,
                none,
            ),
        ],
        Family::Fullmesh => vec![
            built("full mesh 6x3 W2, LMC 2", mesh(6, 3, 2), Some(6), 2, 21),
            degraded(
                built("full mesh 6x2 W1, LMC 2", mesh(6, 2, 1), Some(1), 2, 5),
                3,
                1,
                none,
            ),
        ],
        Family::Twolevel => vec![
            built("two-level 8x8, 4 spines, 2 cables", twolevel(), Some(13), 0, 21),
            degraded(
                built("two-level 8x8, 4 spines, 2 cables", twolevel(), Some(13), 0, 5),
                3,
                3,
                none,
            ),
        ],
        Family::Railopt => vec![
            built("railopt 2 units x 6 servers x 4 rails", railopt(), Some(40), 0, 21),
            degraded(
                built("railopt 2 units x 6 servers x 4 rails", railopt(), Some(40), 0, 5),
                3,
                2,
                none,
            ),
        ],
        Family::Tree => vec![
            found_tree("grown lab (seed 1)", 1),
            Case {
                faults: Some(Faults {
                    cut: 2,
                    seed: 3,
                    dead: none,
                }),
                ..found_tree("grown lab (seed 2), 2 cuts (seed 3)", 2)
            },
        ],
    }
}

/// Recognition as `ibfat route` does it by default: automatic for the families it tries
/// on its own, told the family for the others.
fn recognised(f: &Fabric, family: Family) -> Recognition {
    let hint = (!family.entry().auto).then_some(family);
    recognize(f, hint)
}

/// The shape to route from a recognition: a family intact (or, for a full mesh and a tree
/// as found, with its missing cables in its layout) or a family with holes.
fn shape_of<'a>(r: &'a Recognition, what: &str) -> (Shape<'a>, Option<&'a Layout>) {
    match r {
        Recognition::Recognized { layout, .. } => (Shape::Intact(layout), Some(layout)),
        Recognition::Unrecognized { degraded: Some(d), .. } => (
            Shape::Degraded {
                holes: &d.holes,
                description: &d.description,
            },
            None,
        ),
        Recognition::Unrecognized { reason, .. } => panic!("{what}: not recognised: {reason}"),
    }
}

/// Route and prove: sound, every pair routed; one-VL routes of an intact family also pass
/// the validator held to the family's promises (minimal where promised, every entry set).
fn routed_and_proven(f: &Fabric, lids: &Lids, shape: Shape<'_>, layout: Option<&Layout>, what: &str) -> Routed {
    let routed = route_fabric(f, shape, lids, &Ask::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
    let proof = prove(f, lids, &routed, layout);
    assert!(proof.sound, "{what}: {}", proof.failure());
    assert_eq!(
        (routed.unrouted, routed.unrouted_switch_lids),
        (0, 0),
        "{what}: (leaf, LID) pairs unrouted"
    );
    match (&proof.lanes, &proof.tables) {
        // with lanes the proof is per VL: every path arrives, no VL decreases, each VL acyclic
        (Some(l), _) => assert!(l.ok() && l.broken == 0, "{what}: {l:?}"),
        (None, Some(t)) => {
            assert!(t.deadlock_free && t.loops == 0 && t.complete, "{what}: {t:?}");
            if layout.is_some() {
                let owned = lids.owner.iter().skip(1).filter(|&&o| o != u32::MAX).count();
                assert_eq!(
                    routed.lfts.routed_entries(),
                    routed.lfts.switches.len() * owned,
                    "{what}"
                );
                assert!(t.ok && t.ca_sourced.dependencies > 0, "{what}: {t:?}");
            }
        }
        (None, None) => panic!("{what}: nothing was proven"),
    }
    // the same inputs give the same routes
    let again = route_fabric(f, shape, lids, &Ask::default()).unwrap();
    assert!(again.lfts == routed.lfts, "{what}: routing twice gave other tables");
    assert_eq!(
        (again.method, again.data_vls(), again.rule_sls()),
        (routed.method, routed.data_vls(), routed.rule_sls()),
        "{what}"
    );
    routed
}

/// Entries that differ between two routings of the same cabling, switches matched by
/// GUID and entries by LID: (switch-LID entries, host-LID entries).
fn differences(a: (&Fabric, &Lids, &LftSet), b: (&Fabric, &Lids, &LftSet)) -> (usize, usize) {
    let ((fa, la, ta), (fb, lb, tb)) = (a, b);
    assert_eq!(la.owner.len(), lb.owner.len());
    assert_eq!(ta.switches.len(), tb.switches.len());
    let row_b: HashMap<u64, usize> = tb
        .switches
        .iter()
        .enumerate()
        .map(|(r, &n)| (fb.node(n).guid, r))
        .collect();
    let (mut sw, mut host) = (0, 0);
    for (ra, &n) in ta.switches.iter().enumerate() {
        let (x, y) = (ta.row(ra), tb.row(row_b[&fa.node(n).guid]));
        for lid in 1..la.owner.len().min(x.len()) {
            let owner = la.owner[lid];
            if owner == u32::MAX {
                continue;
            }
            let guid = fa.ports[owner as usize].guid;
            assert_eq!(guid, fb.ports[lb.owner[lid] as usize].guid, "LID {lid} owned alike");
            if x[lid] != y[lid] {
                if fa.node(fa.ports[owner as usize].node).kind == NodeKind::Switch {
                    sw += 1;
                } else {
                    host += 1;
                }
            }
        }
    }
    (sw, host)
}

/// Check every shared property on one instance of `family`.
fn check(family: Family, case: &Case) {
    let what = format!("{family}: {}", case.what);
    let (whole, plan) = match &case.source {
        Source::Built(spec, shuffle) => {
            let plan = Spec {
                family: *spec,
                options: BuildOptions {
                    shuffle: *shuffle,
                    ..Default::default()
                },
            }
            .build()
            .unwrap_or_else(|e| panic!("{what}: {e}"));
            (plan.fabric.clone(), Some(plan))
        }
        Source::Found(f) => (f.clone(), None),
    };
    let (f, plan) = match &case.faults {
        Some(x) => (inject(&whole, x.cut, x.seed, &(x.dead)(&whole)).unwrap().fabric, None),
        None => (whole, plan),
    };
    let hosts = plan.as_ref().map_or(&[][..], |p| p.layout.hosts());
    let lids = Lids::plan(&f, hosts, case.lmc).unwrap();
    // a plan's own layout, as `ibfat build` routes it
    if let Some(p) = &plan {
        routed_and_proven(&f, &lids, Shape::Intact(&p.layout), Some(&p.layout), &what);
    }
    // what recognition finds: intact, or the family's degraded form
    let r = recognised(&f, family);
    let intact_form = matches!(&r, Recognition::Recognized { layout, .. }
        if !matches!(layout, Layout::Fullmesh(l) if !l.cut.is_empty()));
    let tree = matches!(
        &r,
        Recognition::Recognized {
            layout: Layout::Tree(_),
            ..
        }
    );
    assert!(
        intact_form == case.faults.is_none() || tree,
        "{what}: recognised as {}",
        match &r {
            Recognition::Recognized { layout, .. } => layout.describe(),
            Recognition::Unrecognized { reason, .. } => reason.clone(),
        }
    );
    let (shape, layout) = shape_of(&r, &what);
    let base = routed_and_proven(&f, &lids, shape, layout, &what);
    // the same cabling listed in other node orders
    let g2l = guid2lid::write(&lids, &f);
    let (head, body) = sections(&ibsim::write_net(&f, std::slice::from_ref(&what)));
    assert_eq!(body.len(), f.len(), "{what}: one section per node");
    let mut reversed = body.clone();
    reversed.reverse();
    let mut shuffled = body;
    SplitMix64::new(case.order_seed).shuffle(&mut shuffled);
    for (how, order) in [("reversed", reversed), ("shuffled", shuffled)] {
        let what = format!("{what}, node sections {how}");
        let path = Path::new("reordered.net");
        let g = dump::parse(&join(&head, &order), path)
            .and_then(|d| d.strict(path))
            .unwrap_or_else(|e| panic!("{what}: {e}"))
            .fabric;
        let lids_g = guid2lid::parse(&g, &g2l, Path::new("guid2lid")).unwrap();
        let r = recognised(&g, family);
        let (shape, layout) = shape_of(&r, &what);
        let other = routed_and_proven(&g, &lids_g, shape, layout, &what);
        assert_eq!(
            differences((&f, &lids, &base.lfts), (&g, &lids_g, &other.lfts)),
            (0, 0),
            "{what}: (switch-LID, host-LID) entries that changed"
        );
    }
}

/// Check every family's instances, the intact or the degraded ones: each family must have
/// some.
fn every_registered_family(degraded: bool) {
    for e in FAMILIES {
        let cases: Vec<Case> = instances(e.family)
            .into_iter()
            .filter(|c| c.faults.is_some() == degraded)
            .collect();
        assert!(!cases.is_empty(), "{}: no instance (degraded: {degraded})", e.name);
        for case in &cases {
            check(e.family, case);
        }
    }
}

/// Every registered family, as built (or found): sound, deterministic routes that do not
/// depend on the order the nodes are listed in.
#[test]
fn every_registered_family_intact() {
    every_registered_family(false);
}

/// Every registered family with cut cables (and dead switches where the family survives
/// them): its degraded form recognised, routed around the holes, proven deadlock-free per
/// VL, deterministic and independent of the node order.
#[test]
fn every_registered_family_degraded() {
    every_registered_family(true);
}
