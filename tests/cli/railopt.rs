//! Rail-optimised clusters through the CLI (issue 40 items 1, 2 and the bad input):
//! server names and Slurm host lists as jobs, GPU-ordered; the rail check on every kind
//! of miscabling the issue names, each reported by name with exit 1, never a panic; the
//! Slurm block form. The fabrics are SuperPOD-shaped (tests/harness/found.rs) and read
//! as net files; `railopt_on_ibsim.rs` does the same from real `ibnetdiscover` output.

use crate::found;
use crate::harness;

use crate::harness::ibfat;
use ibfat::topology::{Fabric, NodeId};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, f: &Fabric) -> String {
    let p: PathBuf = dir.join(name);
    std::fs::write(&p, ibfat::formats::ibsim::write_net(f, &[])).unwrap();
    p.display().to_string()
}

fn hca(f: &Fabric, server: &str, rail: u32) -> NodeId {
    let want = format!("{server} mlx5_{rail}");
    f.nodes.iter().position(|n| n.desc == want).expect("the HCA") as NodeId
}

/// Exchange the leaf ends of two HCAs' cables (`server`, rail).
fn swap(f: &mut Fabric, a: (&str, u32), b: (&str, u32)) {
    let (x, y) = (hca(f, a.0, a.1), hca(f, b.0, b.1));
    harness::swap_far_ends(f, x, 1, y, 1);
}

fn port_guid(f: &Fabric, n: NodeId) -> String {
    format!("0x{:016x}", f.port(n, 1).guid)
}

/// The `hosts` of a schedule written for `job`.
fn scheduled_hosts(net: &str, job: &str, dir: &Path) -> Vec<String> {
    let out = dir.join("s.json");
    let (code, _, err) = ibfat(&[
        "schedule",
        net,
        "--pattern",
        "shift",
        "--job",
        job,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{job}: {err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    v["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn servers_and_host_lists_are_jobs_in_gpu_order() {
    let (f, _) = found::superpod_by_convention(3, 2);
    let t = tempfile::tempdir().unwrap();
    let net = write(t.path(), "sp.net", &f);
    let gpu_order = |servers: &[&str]| -> Vec<String> {
        servers
            .iter()
            .flat_map(|s| (0..8).map(|r| port_guid(&f, hca(&f, s, r))))
            .collect()
    };
    assert_eq!(
        scheduled_hosts(&net, "dgx[001-002]", t.path()),
        gpu_order(&["dgx001", "dgx002"])
    );
    assert_eq!(
        scheduled_hosts(&net, "dgx040,dgx003", t.path()),
        gpu_order(&["dgx040", "dgx003"])
    );
    // a job file mixes servers, host lists and a single host
    let file = t.path().join("job.txt");
    std::fs::write(&file, "dgx005\n# the next unit\ndgx[032-033]\nmgmt0\n").unwrap();
    let mut want = gpu_order(&["dgx005", "dgx032", "dgx033"]);
    want.push(port_guid(&f, hca(&f, "mgmt0", 0)));
    assert_eq!(scheduled_hosts(&net, file.to_str().unwrap(), t.path()), want);
    // a name that is no host, a server twice, a bad list: exit 2, what and where
    for (job, says) in [
        ("dgx001,dgx999", "no host is named or described `dgx999`"),
        ("dgx[001-002],dgx002", "is listed twice (`dgx002`)"),
        ("dgx[9-1]", "is empty"),
    ] {
        let (code, _, err) = ibfat(&["schedule", &net, "--pattern", "shift", "--job", job]);
        assert_eq!(code, 2, "{job}: {err}");
        assert!(err.contains(says), "{job}: {err}");
    }
    std::fs::write(&file, "dgx005\ndgx[005-006]\n").unwrap();
    let (code, _, err) = ibfat(&["schedule", &net, "--pattern", "shift", "--job", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("job.txt:2") && err.contains("already in the job (line 1)"),
        "{err}"
    );
}

/// Every kind of miscabling the issue names, at once, on a 2-unit fabric: each is named,
/// exit 1; warnings alone leave exit 0.
#[test]
fn the_rail_check_names_every_miscabling() {
    let (mut f, units) = found::superpod_by_convention(9, 2);
    let t = tempfile::tempdir().unwrap();
    // dgx003 mlx5_1 <-> dgx007 mlx5_6 (rails), dgx010 mlx5_2 <-> dgx050 mlx5_2 (units)
    swap(&mut f, ("dgx003", 1), ("dgx007", 6));
    swap(&mut f, ("dgx010", 2), ("dgx050", 2));
    // dgx020 loses mlx5_4; dgx021 gets a ninth HCA (mlx5_8) on a free port of a leaf
    let h = hca(&f, "dgx020", 4);
    f.disconnect(h, 1);
    let extra = f
        .add_node(
            ibfat::topology::NodeKind::Ca,
            1,
            0x00ee_0000_0000_0010,
            "H-extra",
            "dgx021 mlx5_8",
        )
        .unwrap();
    f.connect(extra, 1, units[0][1], 32).unwrap();
    // dgx062 is also the name of dgx061's HCAs (two servers, one name)
    for r in 0..8 {
        let n = hca(&f, "dgx061", r);
        f.nodes[n as usize].desc = format!("dgx062 mlx5_{r}");
    }
    let net = write(t.path(), "bad.net", &f);
    let (code, out, err) = ibfat(&["cabling", &net, "--json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let found: Vec<(String, String)> = v["rail_findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["kind"].as_str().unwrap().into(), x["server"].as_str().unwrap().into()))
        .collect();
    let want: Vec<(String, String)> = [
        ("wrong-rail", "dgx003"),
        ("wrong-rail", "dgx007"),
        ("wrong-unit", "dgx010"),
        ("hca-count", "dgx020"),
        ("unknown-device", "dgx021"),
        ("wrong-unit", "dgx050"),
        ("duplicate-device", "dgx062"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(found, want, "{out}");
    assert_eq!(v["rail_optimised"]["errors"], 7);
    let (_, text, _) = ibfat(&["cabling", &net]);
    assert!(text.contains("RAILS (7)"), "{text}");
    assert!(
        text.contains("dgx020 has 7 HCAs on the fabric, the rails are 8: none on mlx5_4"),
        "{text}"
    );
    assert!(
        text.contains("dgx021 has HCA(s) mlx5_8 that are no rail's device"),
        "{text}"
    );
    assert!(text.contains("two servers named dgx062"), "{text}");
}

#[test]
fn a_leaf_serving_two_rails_is_named_and_random_ports_are_one_warning() {
    let f = found::superpod(4, 1);
    let t = tempfile::tempdir().unwrap();
    let (code, out, err) = ibfat(&["cabling", &write(t.path(), "sp.net", &f)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("RAIL WARNINGS (1)") && out.contains("31 of 31 servers use other leaf ports"),
        "{out}"
    );
    // half the servers' rails 0 and 1 trade leaves: both leaves serve two rails
    let (mut f, _) = found::superpod_by_convention(4, 1);
    for s in 1..=15 {
        let name = format!("dgx{s:03}");
        swap(&mut f, (&name, 0), (&name, 1));
    }
    let (code, out, _) = ibfat(&["cabling", &write(t.path(), "mixed.net", &f)]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("serves several rails: rail 0 (mlx5_0) (16 HCAs), rail 1 (mlx5_1) (15 HCAs)"),
        "{out}"
    );
}

/// The topology/block form, checked against the format of Slurm's topology.conf(5) (the
/// installed Slurm 22.05 has no topology/block plugin: it came with 23.11).
#[test]
fn the_block_form_is_one_block_per_unit() {
    let (f, _) = found::superpod_by_convention(2, 2);
    let t = tempfile::tempdir().unwrap();
    let net = write(t.path(), "sp.net", &f);
    let (code, out, err) = ibfat(&["export", "slurm-topology", &net, "--form", "block"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        lines,
        ["BlockName=su1 Nodes=dgx[001-031]", "BlockName=su2 Nodes=dgx[032-062]"]
    );
    assert!(
        out.starts_with("# Slurm topology.conf (TopologyPlugin=topology/block)"),
        "{out}"
    );
    let (code, _, err) = ibfat(&[
        "export",
        "slurm-topology",
        "--form",
        "block",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/public/loginoff-sx6036-fdr10-2014.ibnetdiscover"
        ),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not rail-optimised"), "{err}");
}

/// GPU traffic on ibfat's tables (issue 40 item 4): `rail-alltoall` and `rail-ring` are
/// conflict-free on healthy SuperPOD-shaped fabrics of 1, 2 and 4 units, ports by the
/// convention or at random, every rail alone and all at once; the shift in GPU order is
/// reported beside them.
#[test]
fn rail_patterns_are_conflict_free_on_ibfats_tables() {
    let t = tempfile::tempdir().unwrap();
    for sus in [1, 2, 4] {
        let shapes = [
            ("by convention", found::superpod_by_convention(6, sus).0),
            ("random ports", found::superpod(6, sus)),
        ];
        for (how, f) in shapes {
            let net = write(t.path(), "sp.net", &f);
            let servers = format!("dgx[001-{:03}]", 31 * sus);
            for (pattern, job) in [
                ("rail-alltoall", None),
                ("rail-ring", None),
                ("rail-alltoall", Some(servers.as_str())),
                ("shift", Some(servers.as_str())),
            ] {
                let mut args = vec!["check", &net, "--pattern", pattern, "--json"];
                if let Some(j) = job {
                    args.extend(["--job", j]);
                }
                let (code, out, err) = ibfat(&args);
                let v: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
                println!(
                    "{sus} SU {how}: {pattern} {job:?}: code {code}, ratio {}, max congestion {}",
                    v["throughput_ratio"], v["max_congestion"]
                );
                // servers take the same slot on every leaf of their unit: the shift in GPU
                // order is a slot shift on every rail, conflict-free under d-mod-k too
                assert_eq!(
                    (code, v["max_congestion"].as_u64()),
                    (0, Some(1)),
                    "{sus} SU {how} {pattern}: {out}"
                );
                if pattern != "shift" {
                    let rails = v["per_rail"].as_array().unwrap();
                    assert_eq!(rails.len(), 8);
                    assert!(
                        rails.iter().all(|r| r["max_congestion"] == 1
                            && r["flows"].as_u64() == Some(31 * sus as u64 * (31 * sus as u64 - 1))
                            || pattern == "rail-ring"),
                        "{out}"
                    );
                }
            }
        }
    }
}

/// A real rail-optimised NDR DGX cluster (fixtures/README.md: NVIDIA/topograph's
/// ibnetdiscover example, 40 Quantum-2 switches, 582 CAs): servers, rails and units are
/// found through what the field does to descriptions (one unit names its devices
/// `mlx5_*` where the rest say `HCA-*`, HCAs with the firmware's description, SHARP
/// aggregation nodes, hosts called `ubuntu`), and the check names what is really wrong:
/// a unit's HCA-5 leaf absent from the dump, two HCAs of one server on each other's rail
/// leaves, servers whose devices are no rail's.
#[test]
fn a_real_ndr_dgx_cluster_is_servers_on_rails_with_its_faults_named() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/public/topograph-dgx-ndr-2025.ibnetdiscover");
    let dump = path.display().to_string();
    let (code, out, err) = ibfat(&["recognize", &dump, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let r = &v["rail_optimised"];
    assert_eq!(
        r["rails"],
        serde_json::json!(["HCA-1", "HCA-2", "HCA-5", "HCA-6"]),
        "{r}"
    );
    assert_eq!(r["units"].as_array().unwrap().len(), 8, "{r}");
    assert_eq!(r["servers"], 122, "{r}");
    // 69 HCAs with the firmware's description and 40 aggregation nodes: each its own host
    assert_eq!(r["other_hosts"].as_array().unwrap().len(), 109, "{r}");
    let (code, out, err) = ibfat(&["cabling", &dump, "--json"]);
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let found: Vec<(&str, &str)> = v["rail_findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .map(|f| (f["kind"].as_str().unwrap(), f["server"].as_str().unwrap()))
        .collect();
    assert_eq!(
        found,
        [
            ("missing-rail-leaf", ""),
            ("unknown-device", "B11-P1-CUFM-02"),
            ("hca-count", "B11-P1-CUFM-02"),
            ("wrong-rail", "b08-p1-dgx-08-c01"),
            ("wrong-rail", "b08-p1-dgx-08-c01"),
            ("unknown-device", "ubuntu"),
            ("hca-count", "ubuntu"),
        ],
        "{out}"
    );
    let all = v["rail_findings"].as_array().unwrap();
    let swap = all.iter().find(|f| f["kind"] == "wrong-rail").unwrap();
    assert!(
        swap["fix"]
            .as_str()
            .unwrap()
            .starts_with("exchange the cables at leaf MF0;B09-P1-IBLEAF-04-08:MQM9701/U1 port 1"),
        "{swap}"
    );
    let renamed = all
        .iter()
        .find(|f| f["kind"] == "device-names")
        .expect("the unit named otherwise");
    assert!(
        renamed["message"]
            .as_str()
            .unwrap()
            .ends_with("mlx5_0 = HCA-1, mlx5_1 = HCA-2, mlx5_4 = HCA-5, mlx5_5 = HCA-6"),
        "{renamed}"
    );
}

/// Issue 40 item 1: where descriptions name no host (the firmware's default on every HCA,
/// no system image shared), a `--node-name-map` (GUID -> `dgx001 mlx5_0`) is the host
/// list: with it the servers, rails and units are found as from rdma-ndd's descriptions.
#[test]
fn a_node_name_map_names_the_servers_when_descriptions_do_not() {
    let (mut f, _) = found::superpod_by_convention(9, 2);
    let t = tempfile::tempdir().unwrap();
    let mut map = String::from("# GUID -> host and device, as a site keeps them\n");
    for n in 0..f.len() as NodeId {
        if f.node(n).kind != ibfat::topology::NodeKind::Ca {
            continue;
        }
        map.push_str(&format!("0x{:016x} \"{}\"\n", f.node(n).guid, f.node(n).desc));
        f.nodes[n as usize].desc = "MT4129 ConnectX7   Mellanox Technologies".into();
    }
    let net = write(t.path(), "default-descriptions.net", &f);
    let map_path = t.path().join("node-name-map");
    std::fs::write(&map_path, map).unwrap();
    let (code, out, err) = ibfat(&["recognize", &net, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["rail_optimised"].is_null(),
        "no host names, no servers: {}",
        v["rail_optimised"]
    );
    let (code, out, err) = ibfat(&[
        "recognize",
        &net,
        "--json",
        "--node-name-map",
        map_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let r = &v["rail_optimised"];
    assert_eq!(r["servers"], 62, "{r}");
    assert_eq!(r["rails"][7], "mlx5_7", "{r}");
    assert_eq!(r["units"].as_array().unwrap().len(), 2, "{r}");
    assert_eq!(r["errors"], 0, "{r}");
}
