//! Plans on real components (docs/families.md): every plan's topology.net loads in the real ibsim, and the
//! real ibnetdiscover finds exactly the planned switches, hosts and cables, port by port.

use crate::harness::{build_plan, Sim};
use ibfat::formats::dump;
use ibfat::topology::{Fabric, NodeKind};
use std::collections::BTreeSet;
use std::path::Path;

/// Nodes (GUID, kind, description, switch ports), cables (GUID and port of both ends),
/// host port GUIDs.
type Signature = (
    BTreeSet<(u64, String, String, u8)>,
    BTreeSet<((u64, u8), (u64, u8))>,
    BTreeSet<u64>,
);

/// Everything ibnetdiscover can see of a fabric, keyed by GUIDs.
fn signature(f: &Fabric) -> Signature {
    let nodes = f
        .nodes
        .iter()
        .map(|n| {
            (
                n.guid,
                format!("{:?}", n.kind),
                n.desc.clone(),
                if n.kind == NodeKind::Switch { n.nports } else { 0 },
            )
        })
        .collect();
    let links = f
        .links()
        .map(|l| {
            let a = (f.node(l.a).guid, l.pa);
            let b = (f.node(l.b).guid, l.pb);
            (a.min(b), a.max(b))
        })
        .collect();
    let port_guids = f.endpoints().iter().map(|e| f.port(e.node, e.port).guid).collect();
    (nodes, links, port_guids)
}

fn check_plan(args: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plan");
    build_plan(args, &out);
    let planned = dump::read(&out.join("topology.net"))
        .unwrap()
        .strict(Path::new("topology.net"))
        .unwrap();
    let sim = Sim::start(&out.join("topology.net"));
    let text = sim.ibnetdiscover(&[]);
    let found = dump::parse(&text, Path::new("ibnetdiscover")).unwrap();
    assert!(found.problems.is_empty(), "{args:?}: {:?}", found.problems);
    assert_eq!(found.format, dump::DumpFormat::Ibnetdiscover);
    let (pn, pl, pg) = signature(&planned.fabric);
    let (dn, dl, dg) = signature(&found.fabric);
    let missing: Vec<_> = pl.difference(&dl).collect();
    let extra: Vec<_> = dl.difference(&pl).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{args:?}: cables missing {missing:?}, extra {extra:?}"
    );
    assert_eq!(pn, dn, "{args:?}: nodes (GUID, kind, description, ports) differ");
    assert_eq!(pg, dg, "{args:?}: host port GUIDs differ");
    assert_eq!(found.fabric.switches().count(), planned.fabric.switches().count());
    assert_eq!(found.fabric.cas().count(), planned.fabric.cas().count());
    // the -p ports report describes the same cables
    let ports = dump::parse(&sim.ibnetdiscover(&["-p"]), Path::new("ibnetdiscover -p")).unwrap();
    assert!(ports.problems.is_empty(), "{:?}", ports.problems);
    assert_eq!(signature(&ports.fabric).1, pl, "{args:?}: -p report cables");
}

#[test]
fn lsft_orders_2_3_4_are_discovered_exactly() {
    check_plan(&["build", "lsft", "--order", "2"]);
    check_plan(&["build", "lsft", "--order", "3"]);
    check_plan(&["build", "lsft", "--order", "4"]);
}

#[test]
fn shuffled_and_two_sided_lsft_are_discovered_exactly() {
    check_plan(&["build", "lsft", "--order", "3", "--shuffle", "11"]);
    check_plan(&["build", "lsft", "--order", "2", "--two-sided"]);
}

#[test]
fn trees_are_discovered_exactly() {
    check_plan(&["build", "kary", "--arity", "3", "--levels", "3"]);
    check_plan(&["build", "mols", "--arity", "3"]);
    check_plan(&["build", "mols", "--arity", "4", "--wiring", "mols"]);
}
