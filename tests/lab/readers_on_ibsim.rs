//! Every topology reader on what the real tools print (docs/formats.md): fabrics run in
//! ibsim, OpenSM sweeps once (LIDs, `opensm-subnet.lst`), then `ibnetdiscover` in its
//! variants (default, `-f`, `-s`, `-g`, `-p`, `--node-name-map`) and `iblinkinfo`
//! (default, `-l`, `--switches-only`, `-S GUID`) describe the same fabric; each output is
//! read with its format detected and stated, and gives the same switches, cables and
//! LIDs as the default ibnetdiscover output. Fabrics: an LSFT with shuffled ports, the
//! same LSFT with cables cut in the running simulation, a leaf-spine fabric with
//! dual-port hosts and a router.

use crate::harness;

use crate::harness::{build_plan, ibfat, OsmConfig, Sim};
use ibfat::formats::dump::{self, Discovered, DumpFormat};
use ibfat::topology::{Fabric, NodeKind};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Cables = BTreeSet<((u64, u8), (u64, u8))>;

/// Every cable by (node GUID, port) at both ends.
fn cables(f: &Fabric) -> Cables {
    f.links()
        .map(|l| {
            let a = (f.node(l.a).guid, l.pa);
            let b = (f.node(l.b).guid, l.pb);
            (a.min(b), a.max(b))
        })
        .collect()
}

/// Cables between two switches only.
fn switch_cables(f: &Fabric) -> Cables {
    f.links()
        .filter(|l| f.node(l.a).kind == NodeKind::Switch && f.node(l.b).kind == NodeKind::Switch)
        .map(|l| {
            let a = (f.node(l.a).guid, l.pa);
            let b = (f.node(l.b).guid, l.pb);
            (a.min(b), a.max(b))
        })
        .collect()
}

/// LID of every switch and of every cabled CA port, by GUID and port.
fn lids(f: &Fabric) -> BTreeMap<(u64, u8), u16> {
    let mut out = BTreeMap::new();
    for n in 0..f.len() as u32 {
        let node = f.node(n);
        if node.kind == NodeKind::Switch {
            out.insert((node.guid, 0), f.port(n, 0).lid);
        } else {
            for p in 1..=node.nports {
                if f.peer(n, p).is_some() {
                    out.insert((node.guid, p), f.port(n, p).lid);
                }
            }
        }
    }
    out
}

fn read(text: &str, what: &str) -> Discovered {
    dump::parse(text, Path::new(what))
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .strict(Path::new(what))
        .unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// Run every tool on the simulated fabric and compare what each reader makes of it.
fn every_reader_agrees(sim: &Sim, label: &str) {
    let run = sim.opensm(&OsmConfig {
        engine: "minhop".into(),
        ..Default::default()
    });
    assert!(run.success, "{label}: opensm failed:\n{}", harness::tail(&run.log, 20));
    let reference = read(&sim.ibnetdiscover(&[]), "ibnetdiscover");
    assert_eq!(reference.format, DumpFormat::Ibnetdiscover, "{label}");
    let f0 = &reference.fabric;
    let want_cables = cables(f0);
    let want_lids = lids(f0);
    assert!(
        want_lids.values().all(|&l| l != 0),
        "{label}: OpenSM gave every port a LID"
    );
    // a node-name map naming every switch
    let map = sim.path().join("node-name-map");
    let names: String = f0
        .switches()
        .map(|s| format!("0x{:016x} \"sw-{}\"\n", f0.node(s).guid, s))
        .collect();
    std::fs::write(&map, names).unwrap();
    let map = map.to_str().unwrap().to_string();
    let subnet_lst = std::fs::read_to_string(run.dump_dir.join("opensm-subnet.lst")).expect("opensm-subnet.lst");
    let full: [(&str, String, DumpFormat); 9] = [
        (
            "ibnetdiscover -f",
            sim.ibnetdiscover(&["-f"]),
            DumpFormat::Ibnetdiscover,
        ),
        (
            "ibnetdiscover -s",
            sim.ibnetdiscover(&["-s"]),
            DumpFormat::Ibnetdiscover,
        ),
        (
            "ibnetdiscover -g",
            sim.ibnetdiscover(&["-g"]),
            DumpFormat::Ibnetdiscover,
        ),
        ("ibnetdiscover -p", sim.ibnetdiscover(&["-p"]), DumpFormat::Ports),
        (
            "ibnetdiscover --node-name-map",
            sim.ibnetdiscover(&["--node-name-map", &map]),
            DumpFormat::Ibnetdiscover,
        ),
        ("iblinkinfo", sim.tool("iblinkinfo", &[]), DumpFormat::Iblinkinfo),
        (
            "iblinkinfo -l",
            sim.tool("iblinkinfo", &["-l"]),
            DumpFormat::IblinkinfoLines,
        ),
        (
            "iblinkinfo --node-name-map",
            sim.tool("iblinkinfo", &["--node-name-map", &map]),
            DumpFormat::Iblinkinfo,
        ),
        ("opensm-subnet.lst", subnet_lst, DumpFormat::SubnetLst),
    ];
    for (what, text, format) in &full {
        let d = read(text, what);
        assert_eq!(d.format, *format, "{label}: {what} read as {}", d.format.describe());
        assert_eq!(cables(&d.fabric), want_cables, "{label}: {what}: the cables differ");
        if *format != DumpFormat::Ports {
            assert_eq!(lids(&d.fabric), want_lids, "{label}: {what}: the LIDs differ");
        }
        if what.contains("node-name-map") {
            assert!(
                d.fabric.switches().all(|s| d.fabric.node(s).desc.starts_with("sw-")),
                "{label}: {what}: the map's names are the descriptions"
            );
        }
    }
    // ibsim's ports support 12x QDR while they run 4x SDR: every cable says "Could be"
    let links = read(&full[5].1, "iblinkinfo");
    assert_eq!(
        links.could_be.len(),
        2 * want_cables.len(),
        "{label}: a hint per cable end"
    );
    // --switches-only: hosts are peers only (one node per host port); the switch cables and
    // the number of host cables are the fabric's
    let sw = read(
        &sim.tool("iblinkinfo", &["--switches-only"]),
        "iblinkinfo --switches-only",
    );
    assert_eq!(switch_cables(&sw.fabric), switch_cables(f0), "{label}: --switches-only");
    assert_eq!(sw.fabric.link_count(), f0.link_count(), "{label}: --switches-only");
    // -S: one switch and its neighbours, its cables exactly
    let one = f0.switches().next().unwrap();
    let guid = format!("0x{:x}", f0.node(one).guid);
    let s = read(&sim.tool("iblinkinfo", &["-S", &guid]), "iblinkinfo -S");
    let mine: Cables = want_cables
        .iter()
        .filter(|c| c.0 .0 == f0.node(one).guid || c.1 .0 == f0.node(one).guid)
        .copied()
        .collect();
    let switch_ends = |c: &Cables| -> BTreeSet<(u64, u8)> {
        c.iter()
            .flat_map(|&(a, b)| [a, b])
            .filter(|e| e.0 == f0.node(one).guid)
            .collect()
    };
    assert_eq!(
        switch_ends(&cables(&s.fabric)),
        switch_ends(&mine),
        "{label}: iblinkinfo -S lists every cable of the switch"
    );
}

#[test]
fn every_reader_reads_an_lsft_as_ibnetdiscover_does() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    build_plan(
        &["build", "lsft", "--order", "2", "--two-sided", "--shuffle", "5"],
        &plan,
    );
    let sim = Sim::start(&plan.join("topology.net"));
    every_reader_agrees(&sim, "LSFT(2) two-sided");
}

#[test]
fn every_reader_reads_a_degraded_lsft() {
    let t = tempfile::tempdir().unwrap();
    let (plan, drill, _) = harness::lsft_with_faults(t.path(), 3, 7, "drill", &["--cut", "4", "--seed", "2"]);
    let sim = Sim::start(&plan.join("topology.net"));
    let commands = std::fs::read_to_string(drill.join("cut.ibsim")).unwrap();
    for cmd in commands.lines() {
        sim.console(cmd);
    }
    every_reader_agrees(&sim, "LSFT(3) with 4 cables cut");
}

/// Two leaves and a spine; a dual-port host on both leaves, a router on a leaf.
const DUAL: &str = "\
switchguid=0x0002c90000001000
Switch\t8 \"L1\"\t# \"leaf L1\"
[1]\t\"H1\"[1]
[2]\t\"H2\"[1]
[3]\t\"R1\"[1]
[7]\t\"S1\"[1]
[8]\t\"S1\"[2]

switchguid=0x0002c90000001001
Switch\t8 \"L2\"\t# \"leaf L2\"
[1]\t\"H2\"[2]
[2]\t\"H3\"[1]
[8]\t\"S1\"[3]

switchguid=0x0002c90000002000
Switch\t8 \"S1\"\t# \"spine S1\"
[1]\t\"L1\"[7]
[2]\t\"L1\"[8]
[3]\t\"L2\"[8]

caguid=0x0002c90000000100
Hca\t1 \"H1\"\t# \"h1 HCA-1\"
[1]\t\"L1\"[1]

caguid=0x0002c90000000110
Hca\t2 \"H2\"\t# \"h2 HCA-1\"
[1]\t\"L1\"[2]
[2]\t\"L2\"[1]

caguid=0x0002c90000000120
Hca\t1 \"H3\"\t# \"h3 HCA-1\"
[1]\t\"L2\"[2]

rtguid=0x0002c90000000200
Rt\t2 \"R1\"\t# \"router R1\"
[1]\t\"L1\"[3]
";

#[test]
fn every_reader_reads_dual_port_hosts_and_a_router() {
    let sim = Sim::start_text(DUAL);
    every_reader_agrees(&sim, "dual-port hosts and a router");
}

#[test]
fn listings_and_pasted_output_from_the_real_tools() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &plan);
    let sim = Sim::start(&plan.join("topology.net"));
    let run = sim.opensm(&OsmConfig {
        engine: "minhop".into(),
        ..Default::default()
    });
    assert!(run.success);
    for (tool, args, says) in [
        ("ibswitches", &[][..], "ibswitches"),
        ("ibhosts", &[][..], "ibhosts"),
        ("ibnodes", &[][..], "ibnodes"),
        ("ibnetdiscover", &["-l"][..], "ibnetdiscover -l"),
    ] {
        let text = sim.tool(tool, args);
        let file = dir.path().join(format!("{tool}.txt"));
        std::fs::write(&file, &text).unwrap();
        let (code, out, err) = ibfat(&["recognize", file.to_str().unwrap()]);
        assert_eq!(code, 2, "{tool}: {out}{err}");
        assert!(
            err.contains(&format!("`{says}` listing")) && err.contains("no cables"),
            "{tool}: {err}"
        );
    }
    // the prompt and a warning pasted around real output: read, with one warning
    let text = format!(
        "[root@login1 ~]# ibnetdiscover -f\nibwarn: [1234] mad_rpc: _do_madrpc failed; dport (DR path slid 0)\n{}[root@login1 ~]# \n",
        sim.ibnetdiscover(&["-f"])
    );
    let file = dir.path().join("pasted.txt");
    std::fs::write(&file, text.replace('\n', "\r\n")).unwrap();
    let (code, out, err) = ibfat(&["recognize", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("ibnetdiscover output"), "{out}");
    assert!(
        err.contains("skipped 3 line(s) that belong to no record (line 1, 2, ") && err.contains("[root@login1 ~]#"),
        "{err}"
    );
    // trimmed to its first records: refused with the hint, read with --partial
    let full = sim.ibnetdiscover(&[]);
    let cut = &full[..full
        .find("\nvendid=")
        .map(|i| full[i + 1..].find("\nvendid=").unwrap() + i + 1)
        .unwrap()];
    let file = dir.path().join("trimmed.txt");
    std::fs::write(&file, format!("{cut}\n...omitted\n")).unwrap();
    let (code, _, err) = ibfat(&["recognize", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("looks trimmed") && err.contains("--partial"), "{err}");
    let (code, out, err) = ibfat(&["recognize", "--partial", file.to_str().unwrap()]);
    assert!(code == 0 || code == 1, "{out}{err}");
    assert!(err.contains("lead outside the dump (--partial)"), "{err}");
    // --input-format overrides detection: the default output read as iblinkinfo is refused
    let file = dir.path().join("d.txt");
    std::fs::write(&file, &full).unwrap();
    let (code, _, err) = ibfat(&["recognize", "--input-format", "iblinkinfo", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    let (code, out, _) = ibfat(&["recognize", "--input-format", "ibnetdiscover", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
}
