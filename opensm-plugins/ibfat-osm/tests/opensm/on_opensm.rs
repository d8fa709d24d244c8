//! Real components (docs/routing.md): stock OpenSM 3.3.23 on ibsim loads the plugin, routes with the
//! `ibfat` engine, and what the switches hold (read back with the real `dump_lfts`) passes
//! ibfat's validator; the schedule the plugin writes is conflict-free on those tables.
//! Unrecognisable fabrics, bad options and cut cables make OpenSM fall back and keep going.

use crate::harness;

use crate::harness::{OsmConfig, Sim};
use ibfat::check::{check, validate, CompiledRoutes};
use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::mols::model::{MolsParams, WiringChoice};
use ibfat::formats::roles::{resolve as resolve_roles, RoleSources};
use ibfat::formats::{dump, lftdump};
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::Lids;
use ibfat::schedule::file;
use ibfat::schedule::job::Hosts;
use ibfat::topology::{BuildOptions, FamilySpec, Spec};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn plugin_dir() -> PathBuf {
    harness::artifact_dir("libibfatosm.so")
}

fn net(f: FamilySpec, shuffle: Option<u64>) -> String {
    net_with(f, shuffle, false)
}

/// The ibsim net of a plan; with `ufm`, also a management host (`UFM HCA-1`) on a free
/// port of the first top-level switch.
fn net_with(f: FamilySpec, shuffle: Option<u64>, ufm: bool) -> String {
    let mut plan = Spec {
        family: f,
        options: BuildOptions {
            shuffle,
            ..Default::default()
        },
    }
    .build()
    .unwrap();
    if ufm {
        let top = *plan.fabric.switches().collect::<Vec<_>>().last().unwrap();
        let free = (1..=plan.fabric.node(top).nports)
            .find(|&p| plan.fabric.peer(top, p).is_none())
            .expect("a free port on the top switch");
        let f = &mut plan.fabric;
        let ca = f
            .add_node(
                ibfat::topology::NodeKind::Ca,
                1,
                0x00aa_0000_0000_0010,
                "UFM",
                "UFM HCA-1",
            )
            .unwrap();
        f.connect(top, free as u32, ca, 1).unwrap();
    }
    let files = ibfat::cabling::render(&plan, false);
    String::from_utf8(files.iter().find(|x| x.0 == "topology.net").unwrap().1.clone()).unwrap()
}

fn plugin_cfg(engine: &str, opts: &str, lmc: u8) -> OsmConfig {
    OsmConfig {
        engine: engine.into(),
        lmc,
        plugin: Some((plugin_dir(), "ibfatosm".into(), opts.into())),
        ..Default::default()
    }
}

/// The plugin's stage line of pass 1 names the stages `ibfat route --timings` names, each
/// a number of seconds ≥ 0.
fn stage_line(name: &str, log: &str) {
    let line = log
        .lines()
        .find(|l| l.contains("ibfat: pass 1 stages: "))
        .unwrap_or_else(|| panic!("{name}: no stage line:\n{}", harness::tail(log, 20)));
    let fields = line.split("stages: ").nth(1).unwrap();
    let keys: Vec<&str> = fields
        .split_whitespace()
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or_else(|| panic!("{name}: {line}"));
            let secs: f64 = v
                .parse()
                .unwrap_or_else(|_| panic!("{name}: {k} is not a number: {line}"));
            assert!(secs >= 0.0, "{name}: {line}");
            k
        })
        .collect();
    assert_eq!(
        keys,
        ["read_s", "recognize_s", "route_s", "validate_s", "write_s"],
        "{name}: {line}"
    );
}

/// OpenSM's hop matrices (`opensm-lid-matrix.dump`, written with the ROUTING log bit) after
/// an ibfat pass: the engine skips OpenSM's min-hop propagation and records its own routes,
/// so every switch has, for every switch LID, a hop count on exactly the port its table
/// (read back from the switches) uses and that port's parallel cables to the same
/// neighbour (the multicast manager then keeps a group on one of them: src/hops.rs), one
/// count on all of them, and the count is the length of that route.
fn hop_matrices_follow_the_tables(
    name: &str,
    dump_dir: &Path,
    fabric: &ibfat::topology::Fabric,
    lids: &Lids,
    tables: &ibfat::routing::LftSet,
) {
    let text = std::fs::read_to_string(dump_dir.join("opensm-lid-matrix.dump"))
        .unwrap_or_else(|e| panic!("{name}: no lid matrix dump: {e}"));
    let by_guid: std::collections::HashMap<u64, u32> = fabric.switches().map(|s| (fabric.node(s).guid, s)).collect();
    let switch_lids: Vec<(u16, u32)> = fabric.switches().map(|s| (lids.lid(fabric, s, 0), s)).collect();
    let mut sw = None;
    let mut seen = std::collections::HashMap::<u32, usize>::new();
    for line in text.lines() {
        if let Some(g) = line.strip_prefix("Switch: guid 0x") {
            sw = Some(by_guid[&u64::from_str_radix(g.trim(), 16).unwrap()]);
            continue;
        }
        let (Some(at), Some((lid, rest))) = (sw, line.split_once(':')) else {
            continue;
        };
        let lid = u16::from_str_radix(lid.trim_start_matches("0x"), 16).unwrap();
        let counts: Vec<u8> = rest
            .split('#')
            .next()
            .unwrap()
            .split_whitespace()
            .map(|h| u8::from_str_radix(h, 16).unwrap())
            .collect();
        // column 0 is the least count over all ports (OpenSM keeps it there), or the
        // switch's own LID at 0 hops
        let with: Vec<(usize, u8)> = counts
            .iter()
            .copied()
            .enumerate()
            .skip(1)
            .filter(|&(_, h)| h != 0xff)
            .collect();
        let hops = with.first().map_or(counts[0], |&(_, h)| h);
        assert!(
            with.iter().all(|&(_, h)| h == hops),
            "{name}: more than one count: {line}"
        );
        assert_eq!(counts[0], hops, "{name}: least count: {line}");
        // walk the programmed tables from `at` to the switch that owns `lid`
        let (mut x, mut steps) = (at, 0u8);
        while lids.lid(fabric, x, 0) != lid {
            x = fabric.peer(x, tables.get(x, lid).unwrap()).unwrap().0;
            steps += 1;
            assert!(steps < 16, "{name}: route to LID {lid} loops");
        }
        let want_port = if steps == 0 {
            0
        } else {
            tables.get(at, lid).unwrap() as usize
        };
        // the counted ports: the table's port and every other cable to its neighbour
        let want: Vec<usize> = if want_port == 0 {
            vec![]
        } else {
            let next = fabric.peer(at, want_port as u8).unwrap().0;
            (1..=fabric.node(at).nports as usize)
                .filter(|&p| fabric.peer(at, p as u8).is_some_and(|(n, _)| n == next))
                .collect()
        };
        let got: Vec<usize> = with.iter().map(|&(p, _)| p).collect();
        assert_eq!(got, want, "{name}: counted ports: {line}");
        assert_eq!(hops, steps, "{name}: hops: {line}");
        *seen.entry(at).or_default() += 1;
    }
    for s in fabric.switches() {
        assert_eq!(
            seen.get(&s).copied(),
            Some(switch_lids.len()),
            "{name}: every switch LID from {}",
            fabric.node(s).name
        );
    }
}

/// Route with the plugin, read the switches back, validate, check the plugin's schedule.
fn route_with_plugin(name: &str, f: FamilySpec, shuffle: Option<u64>, lmc: u8) {
    route_net_with_plugin(name, &net(f, shuffle), lmc)
}

fn route_net_with_plugin(name: &str, net: &str, lmc: u8) {
    route_net_expecting(name, net, lmc, (1.0, 1));
}

/// As [`route_with_plugin`] on a net file, with the (throughput ratio, max congestion) the
/// plugin's schedule must measure on what the switches hold.
fn route_net_expecting(name: &str, net: &str, lmc: u8, want: (f64, u32)) {
    route_net_with_roles(name, net, lmc, want, "", &RoleSources::default())
}

/// As [`route_net_expecting`], with host-role options given to the plugin (`role_opts`)
/// and, for reading the result back, the same roles as the library takes them.
fn route_net_with_roles(name: &str, net: &str, lmc: u8, want: (f64, u32), role_opts: &str, roles: &RoleSources) {
    let sim = Sim::start_text(net);
    let sched = sim.path().join("schedule.json");
    let run = sim.opensm(&plugin_cfg(
        "ibfat",
        &format!("schedule_out={},validate=1{role_opts}", sched.display()),
        lmc,
    ));
    assert!(run.success, "{name}:\n{}", harness::tail(&run.log, 30));
    assert_eq!(
        run.configured_by().as_deref(),
        Some("ibfat"),
        "{name}: OpenSM did not route with ibfat:\n{}",
        harness::tail(&run.log, 40)
    );
    assert!(run.log.contains("ibfat tables configured on all switches"));
    assert!(
        run.log.contains("ibfat: pass 1: recognised"),
        "{name}: {}",
        harness::tail(&run.log, 20)
    );
    stage_line(name, &run.log);

    let (fabric, lids, tables) = sim.programmed();
    assert_eq!(lids.lmc, lmc);
    let Recognition::Recognized { mut layout, .. } = recognize(&fabric, None) else {
        panic!("{name}: not recognised")
    };
    if !roles.is_empty() {
        let r = resolve_roles(&fabric, roles, true).unwrap();
        let n = layout.apply_roles(&fabric, &r).unwrap();
        assert!(
            run.log.contains(&format!(
                "host roles: {} compute hosts ranked, {n} non-compute hosts routed at their slots",
                layout.hosts().len()
            )),
            "{name}: {}",
            harness::tail(&run.log, 40)
        );
    }
    let v = validate(&fabric, &lids, &tables, Some(&layout));
    assert!(v.ok, "{name}: the programmed tables fail validation: {v:#?}");
    hop_matrices_follow_the_tables(name, &run.dump_dir, &fabric, &lids, &tables);
    if let ibfat::topology::Layout::Pgft(l) = &layout {
        // host to host through at most 2h − 1 switches (up to the top and down again)
        let bound = 2 * l.params.levels - 1;
        assert!(v.host_hops.max <= bound, "{name}: {:?} > {bound}", v.host_hops);
    }
    assert!(
        run.log.contains(&format!(
            "options family=auto schedule_out={} pattern=(family default) validate=1",
            sched.display()
        )) && run.log.contains(&role_opts.replace(',', " ")),
        "{name}: {}",
        harness::tail(&run.log, 40)
    );
    assert!(
        run.log.contains("data path ok, deadlock free, completeness ok"),
        "{name}: {}",
        harness::tail(&run.log, 40)
    );

    // the schedule the plugin wrote is complete and conflict-free on the programmed tables
    let all = layout.hosts().to_vec();
    let (schedule, job) = file::read_json(&sched, Some(&Hosts::new(&fabric, &all, name))).unwrap();
    let job = job.unwrap();
    // ... and says it was computed for exactly the tables the switches hold
    assert_eq!(
        schedule.computed_for,
        Some(tables.computed_for(&fabric, &lids)),
        "{name}"
    );
    let routes = CompiledRoutes::compile(&fabric, &lids, &tables, job.hosts(), 0).unwrap();
    let r = check(
        &fabric,
        job.hosts(),
        &routes,
        &schedule,
        0..ibfat::schedule::Pattern::phases(&schedule),
        &|| {},
    )
    .unwrap();
    let n = job.hosts().len() as u64;
    assert_eq!(r.flows, n * (n - 1), "{name}: every ordered pair once");
    assert!(
        (r.throughput_ratio - want.0).abs() < 1e-9 && (r.max_congestion, r.unrouted_flows) == (want.1, 0),
        "{name}: ratio {} max congestion {} unrouted {}: {:?}",
        r.throughput_ratio,
        r.max_congestion,
        r.unrouted_flows,
        r.worst_links.first()
    );
}

#[test]
fn lsft_2_3_5_shuffled() {
    for (q, seed) in [(2, 21), (3, 22), (5, 23)] {
        route_with_plugin(
            &format!("lsft{q}"),
            FamilySpec::Lsft(LsftParams::new(q, false)),
            Some(seed),
            0,
        );
    }
}

#[test]
fn lsft2_two_sided() {
    route_with_plugin("lsft2x2", FamilySpec::Lsft(LsftParams::new(2, true)), Some(5), 0);
}

#[test]
fn kary_3x3_and_mols3_with_lmc1() {
    route_with_plugin(
        "kary3x3",
        FamilySpec::Kary(KaryParams { arity: 3, levels: 3 }),
        Some(8),
        0,
    );
    route_with_plugin(
        "mols3",
        FamilySpec::Mols(MolsParams {
            arity: 3,
            wiring: WiringChoice::Auto,
        }),
        Some(9),
        1,
    );
}

/// PGFTs with parallel cables at one and two levels, shuffled: OpenSM routes them with
/// ibfat (no fallback), the tables validate, and the plugin's tree-order shift is
/// conflict-free on what the switches hold.
#[test]
fn pgfts_with_parallel_cables() {
    use ibfat::families::pgft::model::PgftParams;
    route_with_plugin(
        "pgft4-4_1-2_1-2",
        FamilySpec::Pgft(PgftParams::from_lists(&[4, 4], &[1, 2], &[1, 2], None).unwrap()),
        Some(31),
        0,
    );
    route_with_plugin(
        "pgft4-4-2_1-2-4_1-2-2",
        FamilySpec::Pgft(PgftParams::from_lists(&[4, 4, 2], &[1, 2, 4], &[1, 2, 2], None).unwrap()),
        Some(32),
        0,
    );
    // oversubscribed 2:1 at the leaves (the production shape of the issue): the plugin's
    // tree-order shift measures on the programmed tables exactly what it measures on
    // ibfat's own tables for the plan (tests/cli/pgft.rs): ratio 0.6842, congestion 2
    route_net_expecting(
        "pgft24-4_1-2_1-6",
        &net(
            FamilySpec::Pgft(PgftParams::from_lists(&[24, 4], &[1, 2], &[1, 6], None).unwrap()),
            Some(34),
        ),
        0,
        (13.0 / 19.0, 2),
    );
    // a management host on a top switch (which OpenSM's ftree refuses): routed beside
    // the tree, left out of the schedule, which stays conflict-free
    route_net_with_plugin(
        "pgft+ufm",
        &net_with(
            FamilySpec::Pgft(PgftParams::from_lists(&[4, 4, 2], &[1, 2, 4], &[1, 2, 2], None).unwrap()),
            Some(33),
            true,
        ),
        0,
    );
}

/// A PGFT as sites fill it: leaves with empty ports and storage hosts (named `IO<d>`)
/// on the last populated ports, shuffled ports and random GUIDs. With `io_names=IO*` the
/// plugin routes every host (validated on the programmed tables: every LID reachable,
/// deadlock-free) and its schedule ranks only the compute hosts, conflict-free; the
/// storage hosts of the plan are given by GUID list the second time (io_guid_file).
#[test]
fn pgft_with_empty_ports_and_storage_hosts() {
    use ibfat::families::pgft::model::PgftParams;
    let f = FamilySpec::Pgft(
        PgftParams::from_lists(&[6, 4], &[1, 6], &[1, 1], Some(5))
            .unwrap()
            .with_io_per_leaf(1)
            .unwrap(),
    );
    let by_name = RoleSources {
        io_names: vec!["IO*".into()],
        ..Default::default()
    };
    let text = net(f, Some(35));
    route_net_with_roles("pgft-storage", &text, 0, (1.0, 1), ",io_names=IO*", &by_name);
    // the same by GUID list: the node GUIDs of the IO hosts, read from the net file
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("io.guids");
    let mut guids = Vec::new();
    let mut last = "";
    for l in text.lines() {
        if let Some(g) = l.strip_prefix("caguid=") {
            last = g;
        } else if l.starts_with("Hca") && l.contains("\"IO") {
            guids.push(last.to_string());
        }
    }
    assert_eq!(guids.len(), 4, "{text}");
    std::fs::write(&list, guids.join("\n") + "\n").unwrap();
    let by_guid = RoleSources {
        io_guids: Some(list.clone()),
        ..Default::default()
    };
    route_net_with_roles(
        "pgft-storage-guids",
        &text,
        0,
        (1.0, 1),
        &format!(",io_guid_file={}", list.display()),
        &by_guid,
    );
}

/// A fabric of no known family: the plugin logs why and OpenSM routes with minhop.
#[test]
fn unrecognisable_fabric_falls_back_to_minhop() {
    // a ring of four switches with a host each
    let mut text = String::from("# ring\n");
    for i in 0..4 {
        text.push_str(&format!(
            "caguid=0x{:016x}\nHca\t1 \"H{i}\"\t# \"H{i} HCA-1\"\n[1]\t\"S{i}\"[1]\n\n",
            0x100 + 2 * i
        ));
    }
    for i in 0..4 {
        let (l, r) = ((i + 3) % 4, (i + 1) % 4);
        text.push_str(&format!("switchguid=0x{:016x}\nSwitch\t4 \"S{i}\"\t# \"ring S{i}\"\n[1]\t\"H{i}\"[1]\n[2]\t\"S{r}\"[3]\n[3]\t\"S{l}\"[2]\n\n", 0x200 + i));
    }
    let sim = Sim::start_text(&text);
    let run = sim.opensm(&plugin_cfg("ibfat,minhop", "", 0));
    assert!(run.success, "{}", harness::tail(&run.log, 30));
    assert_eq!(
        run.configured_by().as_deref(),
        Some("minhop"),
        "{}",
        harness::tail(&run.log, 30)
    );
    assert!(
        run.log.contains(
            "ibfat: cannot route this fabric, falling back to the next engine: not a fabric ibfat recognises"
        ),
        "{}",
        harness::tail(&run.log, 30)
    );
}

/// Malformed options are logged; OpenSM falls back. An unwritable schedule path is logged
/// but the routing itself succeeds.
#[test]
fn bad_options_and_unwritable_schedule_path() {
    let sim = Sim::start_text(&net(FamilySpec::Lsft(LsftParams::new(2, false)), None));
    let run = sim.opensm(&OsmConfig {
        tag: Some("bad-opts".into()),
        ..plugin_cfg("ibfat,minhop", "colour=red", 0)
    });
    assert!(run.success);
    assert_eq!(run.configured_by().as_deref(), Some("minhop"));
    assert!(
        run.log.contains("bad plugin options: unknown option `colour`"),
        "{}",
        harness::tail(&run.log, 30)
    );
    let file = sim.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let bad = file.join("dir/s.json");
    let run = sim.opensm(&OsmConfig {
        tag: Some("bad-path".into()),
        ..plugin_cfg("ibfat,minhop", &format!("schedule_out={}", bad.display()), 0)
    });
    assert!(run.success);
    assert_eq!(
        run.configured_by().as_deref(),
        Some("ibfat"),
        "{}",
        harness::tail(&run.log, 30)
    );
    // reported when the plugin loads, and again when a pass cannot write it
    assert!(
        run.log.contains("schedule_out: cannot create the folder"),
        "{}",
        harness::tail(&run.log, 30)
    );
    assert!(
        run.log
            .contains(&format!("cannot write the schedule to {}", bad.display())),
        "{}",
        harness::tail(&run.log, 30)
    );
}

/// The plugin never leaves a stale schedule: a cut cable makes the pass fail and OpenSM
/// fall back to minhop; the schedule written for ibfat's tables is removed, and `ibfat
/// check` refuses a kept copy on the tables now programmed (and accepts the fresh one
/// written after the repair). A missing schedule folder is created when the plugin loads.
#[test]
fn a_fallback_removes_the_schedule_and_check_refuses_a_stale_copy() {
    let sim = Sim::start_text(&net(FamilySpec::Lsft(LsftParams::new(2, false)), Some(3)));
    let sched = sim.path().join("made/by/plugin/schedule.json");
    let mut osm = sim.opensm_daemon(&OsmConfig {
        extra_args: vec!["-s".into(), "0".into()],
        ..plugin_cfg("ibfat,minhop", &format!("schedule_out={}", sched.display()), 0)
    });
    assert!(
        osm.wait_for("ibfat tables configured on all switches", 1, Duration::from_secs(60)),
        "{}",
        harness::tail(&osm.log(), 30)
    );
    assert!(
        osm.log().contains("created the folder"),
        "{}",
        harness::tail(&osm.log(), 30)
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(sched.parent().unwrap()).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o755);
    let check = |sched: &Path, tag: &str| {
        let topo = sim.path().join(format!("ibnetdiscover-{tag}.txt"));
        let lfts = sim.path().join(format!("dump_lfts-{tag}.txt"));
        std::fs::write(&topo, sim.ibnetdiscover(&[])).unwrap();
        std::fs::write(&lfts, sim.dump_lfts()).unwrap();
        harness::ibfat(&[
            "check",
            "--topology",
            topo.to_str().unwrap(),
            "--lfts",
            lfts.to_str().unwrap(),
            "--pattern",
            sched.to_str().unwrap(),
        ])
    };
    std::thread::sleep(Duration::from_secs(1));
    let (c, out, e) = check(&sched, "whole");
    assert_eq!(c, 0, "the plugin's schedule on its own tables: {out}{e}");
    let kept = sim.path().join("kept.json");
    std::fs::copy(&sched, &kept).unwrap();

    // cut a leaf-to-spine cable: recognised as the LSFT with that cable missing (logged
    // in canonical coordinates), not routed without QoS (its detours need SL-to-VL
    // tables), so ibfat steps aside for minhop
    let up = first_uplink(&sim, "L3");
    let before = osm.log().matches("tables configured on all switches").count();
    sim.console(&format!("Unlink \"L3\"[{up}]"));
    osm.sighup();
    settle(&mut osm, "minhop", before, 0);
    assert!(
        osm.log()
            .contains("ibfat: degraded fabric: Latin-square fat-tree LSFT(2) one-sided, degraded: 1 missing cables, 0 dead spines, 0 dead leaves")
            && osm.log().contains("ibfat:   fault: cable P(")
            && osm.log().contains("OpenSM programs SL-to-VL tables only with QoS on"),
        "{}",
        harness::tail(&osm.log(), 30)
    );
    assert!(
        !sched.exists(),
        "the stale schedule is gone:\n{}",
        harness::tail(&osm.log(), 30)
    );
    assert!(
        osm.log().contains("removed the schedule"),
        "{}",
        harness::tail(&osm.log(), 30)
    );
    let (c, _, e) = check(&kept, "cut");
    assert_eq!(c, 2, "a schedule for other tables is refused: {e}");
    assert!(
        e.contains("kept.json") && e.contains("stale schedule") && e.contains("--allow-stale"),
        "{e}"
    );

    // repaired: ibfat routes again and writes a fresh schedule that matches
    let before = osm.log().matches("tables configured on all switches").count();
    sim.console(&format!("ReLink \"L3\"[{up}]"));
    osm.sighup();
    settle(&mut osm, "ibfat", before, 1);
    let (c, out, e) = check(&sched, "repaired");
    assert_eq!(c, 0, "{out}{e}");
    osm.stop();
}

/// Cut a cable, force a re-sweep, repeat 20 times, with QoS off: OpenSM stays up, every
/// switch keeps valid routes to every LID it can still reach (ibfat when the fabric is
/// whole; while a cable is missing the next engine, because ibfat's detours need SL-to-VL
/// tables that OpenSM programs only with QoS on — lanes_on_opensm.rs has the QoS
/// runs), and ibfat takes over again after every repair.
#[test]
fn twenty_cut_and_restore_cycles() {
    let sim = Sim::start_text(&net(FamilySpec::Lsft(LsftParams::new(3, false)), Some(4)));
    let mut osm = sim.opensm_daemon(&OsmConfig {
        extra_args: vec!["-s".into(), "0".into()],
        ..plugin_cfg("ibfat,minhop", "", 0)
    });
    assert!(
        osm.wait_for("ibfat tables configured on all switches", 1, Duration::from_secs(60)),
        "{}",
        harness::tail(&osm.log(), 30)
    );
    // a leaf-to-spine cable: leaf L5's first switch port
    let up = first_uplink(&sim, "L5");
    for cycle in 0..20 {
        let before = osm.log().matches("tables configured on all switches").count();
        sim.console(&format!("Unlink \"L5\"[{up}]"));
        osm.sighup();
        settle(&mut osm, "minhop", before, cycle);
        valid_routes(&sim, cycle, false);
        let before = osm.log().matches("tables configured on all switches").count();
        sim.console(&format!("ReLink \"L5\"[{up}]"));
        osm.sighup();
        settle(&mut osm, "ibfat", before, cycle);
        valid_routes(&sim, cycle, true);
    }
    let log = osm.log();
    assert!(log.matches("ibfat tables configured on all switches").count() >= 21);
    assert!(
        log.contains("OpenSM programs SL-to-VL tables only with QoS on"),
        "{}",
        harness::tail(&log, 30)
    );
    osm.stop();
}

/// The first port of leaf `leaf` (by node description) cabled to a switch, as the
/// running fabric reports it: a leaf-to-spine cable to cut.
fn first_uplink(sim: &Sim, leaf: &str) -> u8 {
    let d = dump::parse(&sim.ibnetdiscover(&[]), Path::new("ibnetdiscover")).unwrap();
    let f = &d.fabric;
    let sw = f
        .switches()
        .find(|&s| f.node(s).desc.starts_with(&format!("{leaf} ")))
        .unwrap_or_else(|| panic!("no leaf {leaf}"));
    (1..=f.node(sw).nports)
        .find(|&p| {
            f.peer(sw, p)
                .is_some_and(|(n, _)| f.node(n).kind == ibfat::topology::NodeKind::Switch)
        })
        .unwrap_or_else(|| panic!("{leaf} has no uplink"))
}

/// Wait until OpenSM has re-routed after an event (more routing passes than `before`), the
/// last pass was by `engine`, and no further pass followed for a second (a port change
/// can trigger a second sweep); OpenSM must be alive throughout.
fn settle(osm: &mut harness::OpenSm, engine: &str, before: usize, cycle: usize) {
    let start = std::time::Instant::now();
    let mut last = (0, std::time::Instant::now());
    loop {
        assert!(
            osm.alive(),
            "cycle {cycle}: OpenSM died:\n{}",
            harness::tail(&osm.log(), 30)
        );
        let log = osm.log();
        let n = log.matches("tables configured on all switches").count();
        if n != last.0 {
            last = (n, std::time::Instant::now());
        }
        let by = harness::configured_by(&log);
        if n > before && by.as_deref() == Some(engine) && last.1.elapsed() > Duration::from_secs(1) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "cycle {cycle}: no settled {engine} pass (last {by:?}):\n{}",
            harness::tail(&log, 30)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Every switch delivers every LID of the fabric as it is now (no black hole, loop or
/// misdelivery); when whole, ibfat's full promise holds.
fn valid_routes(sim: &Sim, cycle: usize, whole: bool) {
    let d = dump::parse(&sim.ibnetdiscover(&[]), Path::new("ibnetdiscover"))
        .unwrap()
        .strict(Path::new("x"))
        .unwrap();
    let lids = Lids::discovered(&d.fabric).unwrap().unwrap();
    let tables = lftdump::to_lftset(
        &lftdump::parse(&sim.dump_lfts(), Path::new("dump_lfts")).unwrap(),
        &d.fabric,
        &lids,
        Path::new("dump_lfts"),
    )
    .unwrap();
    let layout = match recognize(&d.fabric, None) {
        Recognition::Recognized { layout, .. } => Some(layout),
        Recognition::Unrecognized { .. } => None,
    };
    assert_eq!(layout.is_some(), whole, "cycle {cycle}");
    let v = validate(&d.fabric, &lids, &tables, layout.as_ref());
    assert_eq!(
        (v.black_holes, v.loops, v.misdelivered),
        (0, 0, 0),
        "cycle {cycle}: {v:#?}"
    );
    if whole {
        assert!(v.ok, "cycle {cycle}: {v:#?}");
    }
}
