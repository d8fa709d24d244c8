//! Multicast when ibfat routes (issue 41 item 5). The ibfat engine skips OpenSM's min-hop
//! propagation and records only the hops of its own routes to switch LIDs; OpenSM's
//! multicast manager builds its trees from those hops. These tests prove it still works:
//! hosts join an IPoIB-style group through the SA (`mcjoin.c`, one process per simulated
//! host under ibsim's umad shim), stock OpenSM 3.3.23 with `-R ibfat` builds the tree,
//! and the MFTs read back from every switch (`ibroute -M`) deliver from every member to
//! every other member, with no loop and no port forwarding outside the tree; then the same
//! after a cable of the tree is cut and the subnet re-swept. An LSFT, a PGFT with parallel
//! cables and a degraded LSFT (cables cut before OpenSM starts) each run once with ibfat
//! and once with minhop, whose tree sizes are printed beside ibfat's.

use crate::harness;

use crate::harness::mcast::{self, TreeSize};
use crate::harness::{OpenSm, OsmConfig, Sim};
use ibfat::topology::{Fabric, NodeId};
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

/// OpenSM with `engine` (`ibfat`: the plugin, validating, minhop behind it), QoS on (a
/// degraded LSFT's routes need a second data VL), sweeping only when told, with log flag
/// 0x04 on (group joins are logged) and a patient MAD timeout for a simulator that shares
/// 2 cores with the tests.
fn config(engine: &str) -> OsmConfig {
    let base = OsmConfig {
        extra_args: ["-Q", "-s", "0", "-D", "0x47"].map(String::from).to_vec(),
        conf: vec!["transaction_timeout 1000".into()],
        ..Default::default()
    };
    if engine == "ibfat" {
        OsmConfig {
            engine: "ibfat,minhop".into(),
            ..base
        }
        .with_ibfat_plugin("validate=1")
    } else {
        OsmConfig {
            engine: engine.into(),
            ..base
        }
    }
}

const DONE: &str = "tables configured on all switches";

/// Wait until `engine` has configured the tables `n` times and the sweep has settled (no
/// further pass starts, the subnet is up after the last one).
fn settled(osm: &mut OpenSm, engine: &str, n: usize, what: &str) {
    if engine == "ibfat" {
        return osm.routed_by_ibfat(n, what);
    }
    assert!(
        osm.wait_for(DONE, n, Duration::from_secs(90)),
        "{what}: {}",
        harness::tail(&osm.log(), 30)
    );
    let mut seen = 0;
    let up = harness::wait_until(Duration::from_secs(90), || {
        std::thread::sleep(Duration::from_millis(1500));
        let log = osm.log();
        let now = log.matches(DONE).count();
        let done = now == seen && log.rfind("SUBNET UP") > log.rfind(DONE);
        seen = now;
        done
    });
    assert!(up, "{what}: no settled sweep\n{}", harness::tail(&osm.log(), 30));
    assert_eq!(
        harness::configured_by(&osm.log()).as_deref(),
        Some(engine),
        "{what}: {}",
        harness::tail(&osm.log(), 30)
    );
}

/// Play ibsim `commands`, let the sweeps they start end, re-sweep (SIGHUP) and wait for
/// that pass of `engine` to settle.
fn resweep(osm: &mut OpenSm, sim: &Sim, engine: &str, commands: &str, what: &str) {
    if engine == "ibfat" {
        return osm.resweep_after(sim, commands, what);
    }
    for c in commands.lines() {
        sim.console(c);
    }
    let mut seen = usize::MAX;
    harness::wait_until(Duration::from_secs(30), || {
        std::thread::sleep(Duration::from_secs(2));
        let now = osm.log().matches(DONE).count();
        std::mem::replace(&mut seen, now) == now
    });
    let before = osm.log().matches(DONE).count();
    osm.sighup();
    settled(osm, engine, before + 1, what);
}

/// A switch-to-switch cable by its ends' GUIDs and ports (it keeps its name across the
/// fabrics read back from different simulations of one plan).
#[derive(Clone, Copy, Debug)]
struct Cable {
    a: (u64, u8),
    b: (u64, u8),
}

impl std::fmt::Display for Cable {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{:#018x}[{}] - {:#018x}[{}]", self.a.0, self.a.1, self.b.0, self.b.1)
    }
}

/// What one engine's run of a fabric gave: the tree (or the defects) before and after the
/// cut, and whether the cut cable was one its tree forwarded on.
struct Run {
    intact: Result<TreeSize, Vec<String>>,
    after_cut: Result<TreeSize, Vec<String>>,
    cut_was_in_tree: bool,
    cut: Cable,
    /// The masks before and after the cut ([`mcast::describe_masks`]).
    masks: [String; 2],
}

/// The members as (CA, port) of `fabric`, from ibsim node names (port 1 of each).
fn members_of(fabric: &Fabric, plan: &Fabric, hosts: &[String]) -> BTreeSet<(NodeId, u8)> {
    let by_guid = fabric.guid_index();
    hosts
        .iter()
        .map(|h| {
            let n = (0..plan.len() as NodeId)
                .find(|&n| plan.node(n).name == *h)
                .unwrap_or_else(|| panic!("no host {h} in the plan"));
            (by_guid[&plan.node(n).guid], 1)
        })
        .collect()
}

/// The multicast tree of `mlid` now, read back and checked: the switches' masks, the
/// fabric they were read on, and the checks' verdict.
fn tree_now(
    sim: &Sim,
    plan: &Fabric,
    hosts: &[String],
    mlid: u16,
) -> (Fabric, mcast::Masks, Result<TreeSize, Vec<String>>) {
    let (fabric, lids, _) = sim.programmed();
    let members = members_of(&fabric, plan, hosts);
    let masks = mcast::read_settled_masks(sim, &fabric, &lids, mlid);
    let verdict = mcast::check_tree(&fabric, &masks, &members);
    (fabric, masks, verdict)
}

/// The Unlink command that cuts `c` in ibsim (by the plan's node names).
fn unlink(plan: &Fabric, c: Cable) -> String {
    let n = (0..plan.len() as NodeId)
        .find(|&n| plan.node(n).guid == c.a.0)
        .expect("the cable's switch is in the plan");
    format!("Unlink \"{}\"[{}]", plan.node(n).name, c.a.1)
}

/// One engine on one fabric: ibsim on `net` (with `pre_cut` ibsim commands played before
/// OpenSM starts), OpenSM with `engine`, every host of `hosts` joins [`mcast::MGID`], the
/// tree is read back and checked; then `cut` (by default the first cable of this tree) is
/// cut, the subnet re-swept and the tree read back and checked again.
fn run(engine: &str, net: &Path, pre_cut: &str, hosts: &[String], cut: Option<Cable>, mcjoin: &Path) -> Run {
    let plan = ibfat::formats::dump::read(net).unwrap().fabric;
    let sim = Sim::start(net);
    for c in pre_cut.lines() {
        sim.console(c);
    }
    let what = format!("{engine} on {}", net.display());
    let mut osm = sim.opensm_daemon(&config(engine));
    settled(&mut osm, engine, 1, &what);

    let mlids: BTreeSet<u16> = hosts
        .iter()
        .map(|h| mcast::join(&sim, mcjoin, h, mcast::MGID))
        .collect();
    assert_eq!(
        mlids.len(),
        1,
        "{what}: every join answered with the one group's MLID: {mlids:x?}"
    );
    let mlid = *mlids.first().unwrap();
    let guids: Vec<u64> = hosts
        .iter()
        .map(|h| {
            plan.node((0..plan.len() as NodeId).find(|&n| plan.node(n).name == *h).unwrap())
                .guid
                + 1
        })
        .collect();
    mcast::assert_members_logged(&osm, mcast::MGID, mlid, &guids);

    let (fabric, masks, intact) = tree_now(&sim, &plan, hosts, mlid);
    let cut = cut.unwrap_or_else(|| {
        let &(s, p, t, q) = mcast::tree_cables(&fabric, &masks)
            .first()
            .unwrap_or_else(|| panic!("{what}: no switch-to-switch cable in the tree: {masks:?}"));
        Cable {
            a: (fabric.node(s).guid, p),
            b: (fabric.node(t).guid, q),
        }
    });
    let ends = |s: NodeId, p: u8| (fabric.node(s).guid, p);
    let cut_was_in_tree = mcast::tree_cables(&fabric, &masks)
        .iter()
        .any(|&(s, p, t, q)| [(ends(s, p), ends(t, q)), (ends(t, q), ends(s, p))].contains(&(cut.a, cut.b)));

    let swept = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        resweep(
            &mut osm,
            &sim,
            engine,
            &unlink(&plan, cut),
            &format!("{what}, cut {cut}"),
        )
    }));
    if let Err(e) = swept {
        // the log at flag 0x04 is long: its engine and error lines say why
        let log = osm.log();
        let lines: Vec<&str> = log
            .lines()
            .filter(|l| l.contains("ibfat") || l.contains("ERR "))
            .collect();
        eprintln!(
            "{what}: the re-sweep failed; OpenSM said:\n{}",
            harness::tail(&lines.join("\n"), 40)
        );
        std::panic::resume_unwind(e);
    }
    let (after, masks_after, after_cut) = tree_now(&sim, &plan, hosts, mlid);
    let by_guid = after.guid_index();
    for (guid, port) in [cut.a, cut.b] {
        assert!(
            after.peer(by_guid[&guid], port).is_none(),
            "{what}: the cable {cut} was not cut"
        );
    }
    osm.stop();
    Run {
        intact,
        after_cut,
        cut_was_in_tree,
        cut,
        masks: [
            mcast::describe_masks(&fabric, &masks),
            mcast::describe_masks(&after, &masks_after),
        ],
    }
}

/// `count` hosts spread over the leaves: every (n / count)-th host of the plan, each at
/// another slot of its leaf.
fn spread_hosts(net: &Path, count: usize) -> Vec<String> {
    let plan = ibfat::formats::dump::read(net).unwrap().fabric;
    let hosts: Vec<String> = plan
        .endpoints()
        .iter()
        .map(|e| plan.node(e.node).name.clone())
        .collect();
    let stride = hosts.len() / count;
    (0..count)
        .map(|i| hosts[i * stride + i % stride.max(1)].clone())
        .collect()
}

fn size(r: &Result<TreeSize, Vec<String>>) -> String {
    match r {
        Ok(t) => format!("{} switches, {} cables", t.switches, t.cables),
        Err(d) => format!("NOT A TREE ({} defects)", d.len()),
    }
}

/// The whole scenario on one fabric: ibfat's trees must be valid trees before and after
/// the cut; minhop runs the same joins and the same cut for the sizes (reported, and its
/// defects too, if any, but not asserted: it is OpenSM's own engine).
fn scenario(label: &str, net: &Path, pre_cut: &str, members: usize) {
    harness::require_tools();
    let t = tempfile::tempdir().unwrap();
    let mcjoin = mcast::build_mcjoin(t.path());
    let hosts = spread_hosts(net, members);
    let ours = run("ibfat", net, pre_cut, &hosts, None, &mcjoin);
    let minhop = run("minhop", net, pre_cut, &hosts, Some(ours.cut), &mcjoin);
    eprintln!(
        "multicast tree on {label}, {} members {hosts:?}, cut {}:\n  ibfat : intact {}, after the cut {} (cut cable in its tree: {})\n  minhop: intact {}, after the cut {} (cut cable in its tree: {})",
        hosts.len(),
        ours.cut,
        size(&ours.intact),
        size(&ours.after_cut),
        ours.cut_was_in_tree,
        size(&minhop.intact),
        size(&minhop.after_cut),
        minhop.cut_was_in_tree,
    );
    for (what, r) in [("intact", &minhop.intact), ("after the cut", &minhop.after_cut)] {
        if let Err(d) = r {
            eprintln!("  minhop {what}: {}", d.join("\n    "));
        }
    }
    assert!(ours.cut_was_in_tree);
    for (k, (what, r)) in [("intact", &ours.intact), ("after the cut", &ours.after_cut)]
        .into_iter()
        .enumerate()
    {
        if let Err(d) = r {
            panic!(
                "{label}, ibfat, {what}: the MFTs are no valid tree:\n  {}\nmasks (port->peer[port]):\n{}",
                d.join("\n  "),
                ours.masks[k]
            );
        }
    }
}

#[test]
fn multicast_on_an_lsft_routed_by_ibfat() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    harness::build_plan(&["build", "lsft", "--order", "3", "--shuffle", "5"], &plan);
    scenario("LSFT(3)", &plan.join("topology.net"), "", 8);
}

#[test]
fn multicast_on_a_pgft_with_parallel_cables_routed_by_ibfat() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    harness::build_plan(
        &[
            "build",
            "pgft",
            "--down",
            "4,4,2",
            "--up",
            "1,2,4",
            "--parallel",
            "1,2,2",
            "--shuffle",
            "3",
        ],
        &plan,
    );
    scenario("PGFT(3; 4,4,2; 1,2,4; 1,2,2)", &plan.join("topology.net"), "", 8);
}

#[test]
fn multicast_on_a_degraded_lsft_routed_by_ibfat() {
    let t = tempfile::tempdir().unwrap();
    let (plan, cut, _) = harness::lsft_with_faults(t.path(), 3, 7, "cut", &["--cut", "3", "--seed", "4"]);
    let commands = std::fs::read_to_string(cut.join("cut.ibsim")).unwrap();
    scenario("LSFT(3) with 3 cables cut", &plan.join("topology.net"), &commands, 8);
}
