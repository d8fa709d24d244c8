//! Determinism (issue 21 item 5): the tables depend on the cabling alone. The same fabric
//! read from net files whose node sections come in another order (ibnetdiscover started
//! from another host lists nodes in another order), with the same guid2lid, must give the
//! same forwarding tables entry for entry — switch LIDs included — in every family.

use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::mols::model::{MolsParams, WiringChoice};
use ibfat::families::pgft::model::PgftParams;
use ibfat::formats::{guid2lid, ibsim};
use ibfat::load::load_family;
use ibfat::routing::{route, LftSet, Lids};
use ibfat::topology::{BuildOptions, Fabric, FamilySpec, NodeKind, Spec};
use ibfat::SplitMix64;
use std::collections::HashMap;
use std::path::Path;

use crate::net_sections::{join, sections};

/// Write `net` and `g2l` as a plan-like folder and route what loads from it.
fn route_folder(dir: &Path, net: &str, g2l: &str) -> (Fabric, Lids, LftSet) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("topology.net"), net).unwrap();
    std::fs::write(dir.join("guid2lid"), g2l).unwrap();
    let loaded = load_family(&dir.join("topology.net"), None).unwrap();
    let lids = loaded.own_lids().unwrap().expect("the folder's guid2lid");
    let lfts = route(loaded.fabric(), loaded.layout().unwrap(), &lids).unwrap();
    (loaded.fabric().clone(), lids, lfts)
}

/// [`route_folder`] for a degraded fabric: its holes recognised from what loads, routed
/// around (detours for the LSFT, up*/down* for trees).
fn route_degraded_folder(dir: &Path, net: &str, g2l: &str) -> (Fabric, Lids, LftSet) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("topology.net"), net).unwrap();
    std::fs::write(dir.join("guid2lid"), g2l).unwrap();
    // (an unrecognised fabric still loads, its degraded family kept)
    let loaded = ibfat::load::load(
        &dir.join("topology.net"),
        Default::default(),
        ibfat::load::Recognize::Yes(None),
    )
    .unwrap();
    let lids = guid2lid::parse(loaded.fabric(), g2l, &dir.join("guid2lid")).unwrap();
    let d = loaded.degraded.as_ref().expect("a degraded fabric");
    let shape = ibfat::routing::Shape::Degraded {
        holes: &d.holes,
        description: &d.description,
    };
    let lfts = ibfat::routing::route_fabric(loaded.fabric(), shape, &lids, &Default::default())
        .unwrap()
        .lfts;
    (loaded.fabric().clone(), lids, lfts)
}

/// Entries that differ between two routings of the same cabling, switches matched by
/// GUID and entries by LID: (switch LID entries, host LID entries).
fn differences(a: &(Fabric, Lids, LftSet), b: &(Fabric, Lids, LftSet)) -> (usize, usize) {
    let (fa, la, ta) = a;
    let (fb, lb, tb) = b;
    assert_eq!(la.owner.len(), lb.owner.len());
    let row_b: HashMap<u64, usize> = tb
        .switches
        .iter()
        .enumerate()
        .map(|(r, &n)| (fb.node(n).guid, r))
        .collect();
    assert_eq!(ta.switches.len(), tb.switches.len());
    let (mut sw, mut host) = (0, 0);
    for (ra, &n) in ta.switches.iter().enumerate() {
        let rb = row_b[&fa.node(n).guid];
        let (x, y) = (ta.row(ra), tb.row(rb));
        for lid in 1..la.owner.len().min(x.len()) {
            let owner = la.owner[lid];
            if owner == u32::MAX {
                continue;
            }
            let guid_a = fa.ports[owner as usize].guid;
            assert_eq!(guid_a, fb.ports[lb.owner[lid] as usize].guid, "LID {lid} owned alike");
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

fn check(name: &str, family: FamilySpec, lmc: u8) {
    check_with(name, family, lmc, None);
}

/// [`check`] of a plan built with its switch ports shuffled by `shuffle` (the cabling a
/// real installation has: no port order to lean on).
fn check_with(name: &str, family: FamilySpec, lmc: u8, shuffle: Option<u64>) {
    let plan = Spec {
        family,
        options: BuildOptions {
            shuffle,
            ..Default::default()
        },
    }
    .build()
    .unwrap();
    let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), lmc).unwrap();
    let g2l = guid2lid::write(&lids, &plan.fabric);
    let net = ibsim::write_net(&plan.fabric, &[name.to_owned()]);
    let (head, body) = sections(&net);
    assert!(body.len() == plan.fabric.len(), "{name}: one section per node");
    let dir = tempfile::tempdir().unwrap();
    let base = route_folder(&dir.path().join("as-written"), &net, &g2l);
    let mut reversed = body.clone();
    reversed.reverse();
    let mut shuffled = body.clone();
    SplitMix64::new(21).shuffle(&mut shuffled);
    for (how, order) in [("reversed", reversed), ("shuffled", shuffled)] {
        let other = route_folder(&dir.path().join(how), &join(&head, &order), &g2l);
        assert_eq!(
            differences(&base, &other),
            (0, 0),
            "{name}, node sections {how}: (switch-LID, host-LID) entries that changed"
        );
    }
}

#[test]
fn lsft_one_and_two_sided() {
    check("LSFT(7)", FamilySpec::Lsft(LsftParams::new(7, false)), 0);
    check("LSFT(3) two-sided", FamilySpec::Lsft(LsftParams::new(3, true)), 0);
    check_with(
        "LSFT(5) shuffled ports",
        FamilySpec::Lsft(LsftParams::new(5, false)),
        0,
        Some(5),
    );
}

#[test]
fn kary_trees() {
    check("4-ary 3-tree", FamilySpec::Kary(KaryParams { arity: 4, levels: 3 }), 0);
    check_with(
        "3-ary 3-tree shuffled ports",
        FamilySpec::Kary(KaryParams { arity: 3, levels: 3 }),
        0,
        Some(3),
    );
}

#[test]
fn mols_tree_with_lmc_1() {
    check(
        "MOLS(5)",
        FamilySpec::Mols(MolsParams {
            arity: 5,
            wiring: WiringChoice::Mols,
        }),
        1,
    );
}

#[test]
fn pgft_with_parallel_cables() {
    check(
        "PGFT(3; 4,4,2; 1,2,2; 1,2,1)",
        FamilySpec::Pgft(PgftParams::from_lists(&[4, 4, 2], &[1, 2, 2], &[1, 2, 1], None).unwrap()),
        0,
    );
}

#[test]
fn full_mesh_with_lmc_2_and_shuffled_ports() {
    check_with(
        "full mesh 6x3 W2",
        FamilySpec::Fullmesh(ibfat::families::fullmesh::model::FullmeshParams {
            switches: 6,
            hosts_per_switch: 3,
            cables_per_pair: 2,
        }),
        2,
        Some(6),
    );
}

/// Degraded fabrics too: an LSFT with cut cables and a dead spine (detours, SL-marked) and
/// a k-ary tree and a PGFT with cut cables and a dead top switch (up*/down*), each read
/// from its net file as written, reversed and shuffled, give the same tables.
#[test]
fn degraded_fabrics_route_alike_in_any_node_order() {
    use ibfat::topology::faults::inject;
    let cases = [
        (
            "LSFT(7), 10 cuts, dead spine",
            FamilySpec::Lsft(LsftParams::new(7, false)),
            10,
            'S',
        ),
        (
            "4-ary 3-tree, 4 cuts, dead top",
            FamilySpec::Kary(KaryParams { arity: 4, levels: 3 }),
            4,
            'T',
        ),
    ];
    for (name, family, cut, kill) in cases {
        let plan = Spec {
            family,
            options: BuildOptions {
                shuffle: Some(9),
                ..Default::default()
            },
        }
        .build()
        .unwrap();
        let f = &plan.fabric;
        // the last switch of the kind asked for (names start with S for LSFT spines; for a
        // tree, the top level is the highest level number)
        let dead: Vec<_> = match kill {
            'S' => f
                .switches()
                .filter(|&s| f.node(s).name.starts_with('S'))
                .take(1)
                .collect(),
            _ => {
                let top = f.switches().max_by_key(|&s| f.node(s).name.clone()).unwrap();
                vec![top]
            }
        };
        let inj = inject(f, cut, 4, &dead).unwrap();
        let lids = Lids::plan(&inj.fabric, &[], 0).unwrap();
        let g2l = guid2lid::write(&lids, &inj.fabric);
        let net = ibsim::write_net(&inj.fabric, &[name.to_owned()]);
        let (head, body) = sections(&net);
        let dir = tempfile::tempdir().unwrap();
        let base = route_degraded_folder(&dir.path().join("as-written"), &net, &g2l);
        let mut reversed = body.clone();
        reversed.reverse();
        let mut shuffled = body.clone();
        SplitMix64::new(5).shuffle(&mut shuffled);
        for (how, order) in [("reversed", reversed), ("shuffled", shuffled)] {
            let other = route_degraded_folder(&dir.path().join(how), &join(&head, &order), &g2l);
            assert_eq!(
                differences(&base, &other),
                (0, 0),
                "{name}, node sections {how}: (switch-LID, host-LID) entries that changed"
            );
        }
    }
}
