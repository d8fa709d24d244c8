//! Dual-rail fabrics on the real components: `ibfat build ... --rails 2` loaded into one
//! ibsim, one stock OpenSM per rail (each bound with `-g` to a port of its own rail), each
//! rail routed by OpenSM's file engine from `ibfat route --rail k`, then read back through
//! that rail only: the discovered plane is recognised as rail k, OpenSM kept ibfat's
//! LIDs, and every switch holds ibfat's table. With the ibfat plugin in each rail's
//! OpenSM instead, the tables read back pass the validator.
//!
//! ibsim's umad2sim offers a client port 1 of a CA (or port 0 of a switch), so the rail 0
//! SM runs on the first host's HCA port 1 and the rail 1 SM on a rail 1 leaf switch (an SM
//! on a managed switch, as many sites run it).

use crate::harness;

use crate::harness::{build_plan, ibfat, OsmConfig, Sim};
use ibfat::formats::{dump, guid2lid, lftdump};
use ibfat::routing::{Lids, NO_ROUTE};
use ibfat::topology::{rails, Endpoint};
use std::path::Path;

fn prove(name: &str, build: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    let plan_s = plan.to_str().unwrap();
    let mut args = build.to_vec();
    args.extend(["--rails", "2"]);
    build_plan(&args, &plan);
    let all = dump::read(&plan.join("topology.net")).unwrap().fabric;
    assert_eq!(rails::rails_of(&all).unwrap().len(), 2, "{name}: two planes");
    let sim = Sim::start(&plan.join("topology.net"));

    for k in 0..2u32 {
        let out = dir.path().join(format!("rail{k}"));
        let out_s = out.to_str().unwrap();
        let (c, o, e) = ibfat(&["route", plan_s, "--rail", &k.to_string(), "--out", out_s]);
        assert_eq!(c, 0, "{name} rail {k}: {o}{e}");
        let fabric = rails::plane(&all, k).unwrap();
        let g2l = std::fs::read_to_string(out.join("guid2lid")).unwrap();
        let lids = guid2lid::parse(&fabric, &g2l, Path::new("guid2lid")).unwrap();
        let ours = lftdump::read(&out.join("opensm-lfts.dump"), &fabric, &lids).unwrap();

        // the SM's port: the first host's HCA port 1 on rail 0, its leaf switch on rail k else
        let (host, guid) = if k == 0 {
            let h = fabric.cas().next().unwrap();
            (None, fabric.port(h, 1).guid)
        } else {
            let h = fabric.cas().next().unwrap();
            let (leaf, _) = fabric.peer(h, k as u8 + 1).expect("host cabled on every rail");
            (Some(fabric.node(leaf).name.clone()), fabric.node(leaf).guid)
        };
        let run = sim.opensm(&OsmConfig {
            engine: "file".into(),
            lfts_file: Some(out.join("opensm-lfts.dump")),
            guid2lid: Some(g2l.clone()),
            extra_args: vec!["-g".into(), format!("0x{guid:016x}")],
            sim_host: host.clone(),
            tag: Some(format!("rail{k}")),
            ..Default::default()
        });
        assert!(
            run.success,
            "{name} rail {k}: opensm failed:\n{}",
            harness::tail(&run.log, 30)
        );
        assert_eq!(run.configured_by().as_deref(), Some("file"), "{name} rail {k}");

        // read back through this rail only
        let text = sim.tool_on(host.as_deref(), "ibnetdiscover", &[]);
        let disc = dump::parse(&text, Path::new("ibnetdiscover")).unwrap().fabric;
        let found_rails: Vec<u32> = rails::rails_of(&disc).unwrap().into_keys().collect();
        assert_eq!(found_rails, vec![k], "{name}: the SM of rail {k} sees rail {k} only");
        let dumped = dir.path().join(format!("ibnetdiscover-rail{k}.txt"));
        std::fs::write(&dumped, &text).unwrap();
        let (c, o, e) = ibfat(&["recognize", dumped.to_str().unwrap(), "--json"]);
        assert_eq!(c, 0, "{name} rail {k}: {o}{e}");
        let v: serde_json::Value = serde_json::from_str(&o).unwrap();
        assert_eq!(v["rail"], k, "{name}: recognize names the rail: {o}");

        let found = Lids::discovered(&disc).unwrap().expect("LIDs after the sweep");
        for (i, p) in fabric.ports.iter().enumerate() {
            if lids.base[i] != 0 {
                let dn = disc
                    .nodes
                    .iter()
                    .position(|x| x.guid == fabric.node(p.node).guid)
                    .unwrap() as u32;
                assert_eq!(
                    found.lid(&disc, dn, p.num),
                    lids.base[i],
                    "{name} rail {k}: LID of {}",
                    fabric.node(p.node).name
                );
            }
        }
        let held = lftdump::parse(&sim.tool_on(host.as_deref(), "dump_lfts", &[]), Path::new("dump_lfts")).unwrap();
        let programmed = lftdump::to_lftset(&held, &fabric, &lids, Path::new("dump_lfts")).unwrap();
        assert_eq!(programmed.switches, ours.switches);
        let mut compared = 0;
        for &sw in &ours.switches {
            for lid in 1..ours.stride.max(programmed.stride) {
                let a = ours.get(sw, lid as u16).unwrap_or(NO_ROUTE);
                let b = programmed.get(sw, lid as u16).unwrap_or(NO_ROUTE);
                assert_eq!(a, b, "{name} rail {k}: switch {} LID {lid}", fabric.node(sw).name);
                compared += (a != NO_ROUTE) as usize;
            }
        }
        assert_eq!(compared, ours.routed_entries(), "{name} rail {k}");
        eprintln!("{name} rail {k}: {compared} LFT entries read back equal ibfat's");
    }
}

#[test]
fn dual_rail_lsft2_two_opensms() {
    prove("lsft2", &["build", "lsft", "--order", "2"]);
}

#[test]
fn dual_rail_kary_2x3_two_opensms() {
    prove("kary2x3", &["build", "kary", "--arity", "2", "--levels", "3"]);
}

/// Each rail routed inside OpenSM by the ibfat plugin (one OpenSM per rail, `-g` a port of
/// that rail): the plugin sees the plane with hosts on HCA port k+1, recognises it, and
/// the tables read back through that rail pass ibfat's validator for the family. The
/// broadcast steady state of `bcast-multilane` (whole fabric, 2 lanes, root 0, nested
/// placement; docs/schedules.md §6.4, §6.5), lane k checked on rail k's read-back tables, equals the same
/// check on ibfat's computed tables for that rail (what the schedule report's
/// `steady_state` computes) and is conflict-free.
fn prove_with_plugin(name: &str, build: &[&str]) {
    use ibfat::check::validate;
    use ibfat::recognize::{recognize, Recognition};
    use ibfat::schedule::bcast::{subtree_levels, Bcast};
    use ibfat::select::bcast::check_steady_state;
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    let mut args = build.to_vec();
    args.extend(["--rails", "2"]);
    build_plan(&args, &plan);
    let all = dump::read(&plan.join("topology.net")).unwrap().fabric;
    // the broadcast plan: the whole fabric in rail 0's host order, 2 lanes, root 0, nested
    // placement (every leaf and pod entered and left through one rank); a rank is a host's
    // HCA, the same node on every rail, on HCA port k+1 on rail k
    let (bcast, rank_nodes) = {
        let plane = rails::plane(&all, 0).unwrap();
        let Recognition::Recognized { layout, .. } = recognize(&plane, None) else {
            panic!("{name} rail 0: not recognised")
        };
        let hosts = layout.hosts();
        let levels = subtree_levels(&plane, hosts);
        let b = Bcast::build_nested(hosts.len() as u32, 0, 2, &levels).unwrap();
        (b, hosts.iter().map(|e| plane.node(e.node).guid).collect::<Vec<u64>>())
    };
    // lane k of the steady state on fabric `f`'s tables, rank r on its rail-k port
    let lane_on = |f: &ibfat::topology::Fabric, lids: &Lids, lfts: &ibfat::routing::LftSet, k: u32| {
        let node: std::collections::HashMap<u64, u32> = f.nodes.iter().zip(0..).map(|(n, i)| (n.guid, i)).collect();
        let hosts: Vec<Endpoint> = rank_nodes
            .iter()
            .map(|g| Endpoint {
                node: node[g],
                port: k as u8 + 1,
            })
            .collect();
        let mut r = check_steady_state(f, &hosts, lids, lfts, &bcast, k..k + 1).unwrap();
        r.remove(0)
    };
    let sim = Sim::start(&plan.join("topology.net"));
    for k in 0..2u32 {
        let fabric = rails::plane(&all, k).unwrap();
        let h = fabric.cas().next().unwrap();
        let (host, guid) = if k == 0 {
            (None, fabric.port(h, 1).guid)
        } else {
            let (leaf, _) = fabric.peer(h, k as u8 + 1).unwrap();
            (Some(fabric.node(leaf).name.clone()), fabric.node(leaf).guid)
        };
        let run = sim.opensm(
            &OsmConfig {
                engine: "ibfat".into(),
                extra_args: vec!["-g".into(), format!("0x{guid:016x}")],
                sim_host: host.clone(),
                tag: Some(format!("plugin-rail{k}")),
                ..Default::default()
            }
            .with_ibfat_plugin("validate=1"),
        );
        assert!(run.success, "{name} rail {k}:\n{}", harness::tail(&run.log, 30));
        assert_eq!(
            run.configured_by().as_deref(),
            Some("ibfat"),
            "{name} rail {k}: {}",
            harness::tail(&run.log, 30)
        );
        let text = sim.tool_on(host.as_deref(), "ibnetdiscover", &[]);
        let disc = dump::parse(&text, Path::new("ibnetdiscover"))
            .unwrap()
            .strict(Path::new("ibnetdiscover"))
            .unwrap()
            .fabric;
        assert_eq!(rails::rails_of(&disc).unwrap().into_keys().collect::<Vec<_>>(), vec![k]);
        let lids = Lids::discovered(&disc).unwrap().expect("LIDs after the sweep");
        let held = lftdump::parse(&sim.tool_on(host.as_deref(), "dump_lfts", &[]), Path::new("dump_lfts")).unwrap();
        let tables = lftdump::to_lftset(&held, &disc, &lids, Path::new("dump_lfts")).unwrap();
        let Recognition::Recognized { layout, .. } = recognize(&disc, None) else {
            panic!("{name} rail {k}: not recognised")
        };
        let v = validate(&disc, &lids, &tables, Some(&layout));
        assert!(v.ok, "{name} rail {k}: the programmed tables fail validation: {v:#?}");
        eprintln!(
            "{name} rail {k}: plugin tables validated ({} entries)",
            v.entries_checked
        );

        // ibfat's own tables for rail k (what `schedule`'s steady_state checks), then the
        // tables read back from rail k's switches
        let want = {
            let plane = rails::plane(&all, k).unwrap();
            let Recognition::Recognized { layout, .. } = recognize(&plane, None) else {
                panic!("{name} rail {k}: plane not recognised")
            };
            let lids = Lids::plan(&plane, layout.hosts(), 0).unwrap();
            let lfts = ibfat::routing::route(&plane, &layout, &lids).unwrap();
            lane_on(&plane, &lids, &lfts, k)
        };
        let lane = lane_on(&disc, &lids, &tables, k);
        assert_eq!(
            (lane.flows, lane.max_congestion, lane.throughput_ratio, &lane.histogram),
            (want.flows, want.max_congestion, want.throughput_ratio, &want.histogram),
            "{name} rail {k}: lane {k} on the read-back tables vs ibfat's"
        );
        assert_eq!(lane.max_congestion, 1, "{name} rail {k}: lane {k} conflict-free");
        assert_eq!(
            lane.flows,
            u64::from(bcast.ranks - 1),
            "{name} lane {k}: one flow per rank"
        );
        eprintln!(
            "{name} rail {k}: bcast lane {k} on the read-back tables: {} flows, at most 1 per link",
            lane.flows
        );
    }
}

#[test]
fn dual_rail_lsft3_and_kary_3x3_with_the_plugin_on_each_rail() {
    prove_with_plugin("lsft3", &["build", "lsft", "--order", "3"]);
    prove_with_plugin("kary3x3", &["build", "kary", "--arity", "3", "--levels", "3"]);
}
