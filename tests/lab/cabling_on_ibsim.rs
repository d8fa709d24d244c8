//! Real components (docs/recognition.md §5): a plan, an ibsim fabric cabled with deliberate faults (two
//! ports swapped, a cable moved to another switch, a host on the wrong leaf, a link at
//! 1x, an extra cable, and a link removed through the ibsim console), the real
//! ibnetdiscover, and `ibfat cabling`: it reports exactly those faults and nothing else.

use crate::harness::{ibfat, swap_far_ends, Sim};
use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::formats::ibsim;
use ibfat::topology::{BuildOptions, Fabric, FamilySpec, Layout, NodeId, Spec, Topology, Width};
use ibfat::SplitMix64;
use serde_json::Value;
use std::path::Path;

fn free_port(f: &Fabric, n: NodeId, last: bool) -> u8 {
    let mut ports: Vec<u8> = (1..=f.node(n).nports).filter(|&p| f.peer(n, p).is_none()).collect();
    if last {
        ports.reverse();
    }
    ports[0]
}

fn write_plan(plan: &Topology, dir: &Path) -> String {
    let out = dir.join("plan");
    ibfat::cabling::write_plan(plan, &out, Default::default()).unwrap();
    out.to_str().unwrap().to_string()
}

/// Run `ibfat cabling` on a dump; (exit code, JSON report).
fn cabling(plan: &str, dump_text: &str, dir: &Path) -> (i32, Value) {
    let dump = dir.join("found.txt");
    std::fs::write(&dump, dump_text).unwrap();
    let (code, stdout, stderr) = ibfat(&[
        "cabling",
        "--plan",
        plan,
        "--discovered",
        dump.to_str().unwrap(),
        "--json",
    ]);
    assert!(code == 0 || code == 1, "exit {code}: {stderr}");
    (
        code,
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}")),
    )
}

fn count(v: &Value, key: &str) -> usize {
    v[key].as_array().map(Vec::len).unwrap_or(usize::MAX)
}

fn nodes_of(c: &Value) -> (String, String) {
    (
        c["a"]["node"].as_str().unwrap().to_string(),
        c["b"]["node"].as_str().unwrap().to_string(),
    )
}

#[test]
fn an_lsft_cabled_with_faults_is_reported_fault_by_fault() {
    let spec = Spec {
        family: FamilySpec::Lsft(LsftParams {
            order: 3,
            two_sided: false,
            hosts_per_leaf: Some(3),
        }),
        options: BuildOptions {
            shuffle: Some(31),
            ..Default::default()
        },
    };
    let plan = spec.build().unwrap();
    let Layout::Lsft(l) = &plan.layout else { panic!() };
    let dir = tempfile::tempdir().unwrap();
    let plan_dir = write_plan(&plan, dir.path());
    let mut f = plan.fabric.clone();
    let d = 4usize;
    let name = |n: NodeId| plan.fabric.node(n).name.clone();
    // 1. two uplinks swapped at leaf 1
    let l1 = l.leaves[1];
    let (pa, pb) = (l.leaf_up[d], l.leaf_up[d + 1]);
    swap_far_ends(&mut f, l1, pa, l1, pb);
    // 2. leaf 2's first uplink moved at the spine end to a spine not through its point
    let l2 = l.leaves[2];
    let up2 = l.leaf_up[2 * d];
    let line = (0..13u32).find(|&x| !l.plane.incident(2, x)).unwrap();
    let target = l.spines[line as usize];
    let tp = free_port(&plan.fabric, target, false);
    let (was, was_port) = f.peer(l2, up2).unwrap();
    f.disconnect(l2, up2);
    f.connect(l2, up2 as u32, target, tp as u32).unwrap();
    // 3. a host of leaf 5 on the free host port of leaf 6
    let h = l.hosts[l.slot_rank[5 * d] as usize];
    let (h_leaf, h_port) = f.peer(h.node, h.port).unwrap();
    let l6 = l.leaves[6];
    let hp = free_port(&plan.fabric, l6, false);
    f.disconnect(h.node, h.port);
    f.connect(l6, hp as u32, h.node, h.port as u32).unwrap();
    // 4. leaf 7's first uplink at 1x (ibsim wants the width on both ends)
    let l7 = l.leaves[7];
    let i7 = f.port_index(l7, l.leaf_up[7 * d]) as usize;
    let j7 = f.ports[i7].peer as usize;
    f.ports[i7].width = Width::X1;
    f.ports[j7].width = Width::X1;
    // 5. an extra cable between the last free ports of spines 10 and 11
    let (s10, s11) = (l.spines[10], l.spines[11]);
    let (q10, q11) = (free_port(&plan.fabric, s10, true), free_port(&plan.fabric, s11, true));
    f.connect(s10, q10 as u32, s11, q11 as u32).unwrap();
    // 6. leaf 4's last uplink unplugged through the simulator console
    let l4 = l.leaves[4];
    let up4 = l.leaf_up[4 * d + 3];
    let (s4, s4p) = f.peer(l4, up4).unwrap();

    let sim = Sim::start_text(&ibsim::write_net(&f, &["faulty".into()]));
    let reply = sim.console(&format!("Unlink \"{}\"[{up4}]", name(l4)));
    assert!(!reply.contains("error"), "{reply}");
    let dump = sim.ibnetdiscover(&[]);
    let (code, v) = cabling(&plan_dir, &dump, dir.path());
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["matched_by"], "guid");
    assert_eq!(count(&v, "swapped"), 1, "{v:#}");
    assert_eq!(count(&v, "miswired"), 2, "{v:#}");
    assert_eq!(count(&v, "missing"), 1, "{v:#}");
    assert_eq!(count(&v, "degraded"), 1, "{v:#}");
    assert_eq!(count(&v, "extra"), 1, "{v:#}");
    assert_eq!(count(&v, "problems"), 0, "{v:#}");
    assert_eq!(count(&v, "uncompared"), 0, "{v:#}");
    assert_eq!(v["faults"], 6);
    // each fault where it was made, with its fix
    let sw = &v["swapped"][0];
    assert_eq!(sw["at"], format!("at {}", name(l1)));
    assert_eq!(
        sw["fix"],
        format!(
            "exchange the cables at {} ports {} and {}",
            name(l1),
            pa.min(pb),
            pa.max(pb)
        )
    );
    let moved = v["miswired"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| nodes_of(&m["planned"]) == (name(l2), name(was)) || nodes_of(&m["planned"]) == (name(was), name(l2)))
        .expect("the moved uplink");
    assert_eq!(moved["kind"], "wrong_switch");
    assert_eq!(
        moved["fix"],
        format!(
            "move the cable at {} port {tp} to {} port {was_port}",
            name(target),
            name(was)
        )
    );
    let host = v["miswired"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["planned"]["a"]["node"] == name(h.node) || m["planned"]["b"]["node"] == name(h.node))
        .expect("the host on the wrong leaf");
    assert_eq!(host["kind"], "wrong_switch");
    assert_eq!(
        host["fix"],
        format!(
            "move the cable at {} port {hp} to {} port {h_port}",
            name(l6),
            name(h_leaf)
        )
    );
    let missing = &v["missing"][0];
    let mut ends = [nodes_of(&missing["cable"]).0, nodes_of(&missing["cable"]).1];
    ends.sort();
    let mut want = [name(l4), name(s4)];
    want.sort();
    assert_eq!(ends, want);
    let fix = missing["fix"].as_str().unwrap();
    assert!(
        fix.contains(&format!("{} port {up4}", name(l4))) && fix.contains(&format!("{} port {s4p}", name(s4))),
        "{fix}"
    );
    assert_eq!(v["degraded"][0]["found"], "1xSDR");
    assert_eq!(v["degraded"][0]["planned"], "4xSDR");
    let extra = nodes_of(&v["extra"][0]["cable"]);
    assert!(
        [name(s10), name(s11)].contains(&extra.0) && [name(s10), name(s11)].contains(&extra.1),
        "{extra:?}"
    );

    // the human report says the same and exits 1
    let dump_path = dir.path().join("found.txt");
    let (code, stdout, _) = ibfat(&[
        "cabling",
        "--plan",
        &plan_dir,
        "--discovered",
        dump_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    for section in [
        "MISSING (1)",
        "EXTRA (1)",
        "MISWIRED (2)",
        "SWAPPED (1)",
        "DEGRADED (1)",
        "MISMATCH: 6 fault(s)",
    ] {
        assert!(stdout.contains(section), "{section}: {stdout}");
    }

    // relinked, the fabric still has the other five faults; a clean fabric matches
    let clean = Sim::start(Path::new(&plan_dir).join("topology.net").as_path());
    let (code, v) = cabling(&plan_dir, &clean.ibnetdiscover(&["-p"]), dir.path());
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["matches"], true);
}

/// The same fabric with new GUIDs and no node descriptions (as if the plan had been made
/// before the hardware was known and nobody set descriptions).
fn anonymous(f: &Fabric, seed: u64) -> Fabric {
    let mut g = f.clone();
    let mut rng = SplitMix64::new(seed);
    for n in 0..g.len() {
        g.set_node_guid(n as NodeId, 0x0033_4400_0000_0000 | ((rng.next_u64() & 0xFF_FFFF) << 8));
        g.nodes[n].desc = String::new();
    }
    g
}

#[test]
fn without_guids_or_descriptions_a_tree_is_matched_by_structure() {
    let spec = Spec {
        family: FamilySpec::Kary(KaryParams { arity: 3, levels: 3 }),
        options: BuildOptions {
            shuffle: Some(41),
            ..Default::default()
        },
    };
    let plan = spec.build().unwrap();
    let Layout::Kary(l) = &plan.layout else { panic!() };
    let dir = tempfile::tempdir().unwrap();
    let plan_dir = write_plan(&plan, dir.path());
    let mut f = plan.fabric.clone();
    // two up cables swapped at a level-2 switch, and one leaf up cable unlinked later
    let s = l.switches[l.index(2, 1, 2) as usize];
    let i = l.index(2, 1, 2) as usize * 3;
    swap_far_ends(&mut f, s, l.up[i], s, l.up[i + 1]);
    let leaf = l.switches[4];
    let up = l.up[4 * 3 + 1];
    let (pz, pzp) = f.peer(leaf, up).unwrap();
    let g = anonymous(&f, 5);
    let sim = Sim::start_text(&ibsim::write_net(&g, &["anonymous".into()]));
    sim.console(&format!("Unlink \"{}\"[{up}]", g.node(leaf).name));
    let (code, v) = cabling(&plan_dir, &sim.ibnetdiscover(&[]), dir.path());
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["matched_by"], "structure", "{v:#}");
    assert_eq!((count(&v, "swapped"), count(&v, "missing")), (1, 1), "{v:#}");
    assert_eq!(v["faults"], 2, "{v:#}");
    assert_eq!(v["swapped"][0]["at"], format!("at {}", plan.fabric.node(s).name));
    let m = nodes_of(&v["missing"][0]["cable"]);
    let want = (plan.fabric.node(leaf).name.clone(), plan.fabric.node(pz).name.clone());
    assert!(
        m == want || (m.1.clone(), m.0.clone()) == want,
        "{m:?} {want:?} port {pzp}"
    );
}
