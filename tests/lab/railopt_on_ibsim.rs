//! Rail-optimised clusters in the real ibsim (issue 40 items 1, 2 and 6): SuperPOD-shaped
//! fabrics discovered by the real `ibnetdiscover`, their servers, rails and units
//! recognised, and cables swapped between rails and between units in the running
//! simulator (`Unlink`/`Link` console commands) found by `ibfat cabling` from a new
//! discovery, each with the exchange that undoes it.

use crate::found;
use crate::harness;

use crate::harness::{ibfat, Sim};
use ibfat::topology::{Fabric, NodeId};
use serde_json::Value;

/// The HCA node of `server`'s device `mlx5_<rail>`.
fn hca(f: &Fabric, server: &str, rail: u32) -> NodeId {
    let want = format!("{server} mlx5_{rail}");
    f.nodes.iter().position(|n| n.desc == want).expect("the HCA") as NodeId
}

/// Exchange the leaf ends of two HCAs' cables in the running simulator and in `f`.
fn swap_in_sim(sim: &Sim, f: &mut Fabric, a: NodeId, b: NodeId) {
    let (la, pa) = f.peer(a, 1).unwrap();
    let (lb, pb) = f.peer(b, 1).unwrap();
    let name = |n: NodeId| f.node(n).name.clone();
    for n in [a, b] {
        sim.console(&format!("Unlink \"{}\"[1]", name(n)));
    }
    for (h, l, p) in [(a, lb, pb), (b, la, pa)] {
        let reply = sim.console(&format!("Link \"{}\"[1] \"{}\"[{p}]", name(h), name(l)));
        assert!(!reply.to_lowercase().contains("fail"), "ibsim Link: {reply}");
    }
    harness::swap_far_ends(f, a, 1, b, 1);
}

fn discover(sim: &Sim, dir: &std::path::Path, name: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, sim.ibnetdiscover(&[])).unwrap();
    path.display().to_string()
}

/// `f` running in ibsim, discovered into a lab folder and recognised: the simulator, the
/// folder, the dump's path and `recognize --json` of it.
fn start_and_recognize(f: &Fabric) -> (Sim, tempfile::TempDir, String, Value) {
    let sim = Sim::start_text(&ibfat::formats::ibsim::write_net(f, &[]));
    let t = tempfile::tempdir().unwrap();
    let healthy = discover(&sim, t.path(), "healthy.ibnd");
    let (code, out, err) = ibfat(&["recognize", &healthy, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    (sim, t, healthy, v)
}

#[test]
fn a_superpod_unit_is_servers_on_rails_and_a_swap_between_rails_is_found() {
    let (mut f, units) = found::superpod_by_convention(7, 1);
    let (sim, t, healthy, v) = start_and_recognize(&f);
    let r = &v["rail_optimised"];
    assert_eq!(r["servers"], 31, "{r}");
    assert_eq!(r["rails"].as_array().unwrap().len(), 8);
    assert_eq!(r["rails"][3], "mlx5_3");
    assert_eq!(r["rails_from"], "devices");
    assert_eq!(r["units"][0]["servers"], "dgx[001-031]");
    assert_eq!(r["other_hosts"][0], "mgmt0 mlx5_0");
    let leaves: Vec<String> = units[0].iter().map(|&l| format!("0x{:016x}", f.node(l).guid)).collect();
    for (k, leaf) in r["units"][0]["leaves"].as_array().unwrap().iter().enumerate() {
        assert_eq!(leaf["rail"], k, "{leaf}");
        assert_eq!(leaf["guid"], leaves[k].as_str(), "leaf of rail {k}");
    }
    assert_eq!((r["errors"].as_u64(), r["warnings"].as_u64()), (Some(0), Some(0)));
    let (code, out, err) = ibfat(&["cabling", &healthy]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("every HCA is on its rail's leaf"), "{out}");

    // the classic error: dgx002 mlx5_3 and dgx004 mlx5_5 on each other's leaves
    let (a, b) = (hca(&f, "dgx002", 3), hca(&f, "dgx004", 5));
    swap_in_sim(&sim, &mut f, a, b);
    let swapped = discover(&sim, t.path(), "swapped.ibnd");
    let (code, out, err) = ibfat(&["cabling", &swapped, "--json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let found = v["rail_findings"].as_array().unwrap();
    assert_eq!(found.len(), 2, "{out}");
    let guid = |n: NodeId| format!("0x{:016x}", f.node(n).guid);
    let (l3, l5) = (units[0][3], units[0][5]);
    assert_eq!(found[0]["kind"], "wrong-rail");
    assert_eq!(found[0]["server"], "dgx002");
    let m = found[0]["message"].as_str().unwrap();
    assert!(
        m.starts_with("dgx002 mlx5_3 (rail 3 (mlx5_3) of SU 1) is on leaf"),
        "{m}"
    );
    assert!(
        m.contains(&format!("[{}] port 4, a leaf of rail 5 (mlx5_5)", guid(l5))),
        "{m}"
    );
    assert!(
        m.ends_with(&format!("expected on leaf MF0;leaf:MQM9700/U1 [{}]", guid(l3))),
        "{m}"
    );
    let fix = found[0]["fix"].as_str().unwrap();
    assert_eq!(
        fix,
        format!(
            "exchange the cables at leaf MF0;leaf:MQM9700/U1 [{}] port 4 and at leaf MF0;leaf:MQM9700/U1 [{}] port 2 \
             (dgx004 mlx5_5)",
            guid(l5),
            guid(l3)
        )
    );
    assert_eq!(
        (found[1]["kind"].as_str(), found[1]["server"].as_str()),
        (Some("wrong-rail"), Some("dgx004"))
    );
    let (_, text, _) = ibfat(&["cabling", &swapped]);
    assert!(
        text.contains("RAILS (2)") && text.contains("FOUND: 2 finding(s)"),
        "{text}"
    );

    // exchanging them back, as the fix says, heals the fabric
    swap_in_sim(&sim, &mut f, a, b);
    let healed = discover(&sim, t.path(), "healed.ibnd");
    let (code, out, _) = ibfat(&["cabling", &healed]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn four_units_a_swap_between_units_and_a_server_short_of_an_hca() {
    let (mut f, units) = found::superpod_by_convention(11, 4);
    let (sim, t, _, v) = start_and_recognize(&f);
    let r = &v["rail_optimised"];
    assert_eq!(r["servers"], 124);
    let names: Vec<&str> = r["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["servers"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["dgx[001-031]", "dgx[032-062]", "dgx[063-093]", "dgx[094-124]"]);
    // rail 3 of dgx002 (SU 1) and of dgx040 (SU 2) trade places; dgx100 loses mlx5_7
    let (a, b) = (hca(&f, "dgx002", 3), hca(&f, "dgx040", 3));
    swap_in_sim(&sim, &mut f, a, b);
    sim.console(&format!("Unlink \"{}\"[1]", f.node(hca(&f, "dgx100", 7)).name));
    let broken = discover(&sim, t.path(), "broken.ibnd");
    let (code, out, err) = ibfat(&["cabling", &broken, "--json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let found: Vec<(&str, &str)> = v["rail_findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["kind"].as_str().unwrap(), x["server"].as_str().unwrap()))
        .collect();
    assert_eq!(
        found,
        [
            ("wrong-unit", "dgx002"),
            ("wrong-unit", "dgx040"),
            ("hca-count", "dgx100")
        ],
        "{out}"
    );
    let fix = v["rail_findings"][0]["fix"].as_str().unwrap();
    let guid = |n: NodeId| format!("0x{:016x}", f.node(n).guid);
    assert!(
        fix.starts_with(&format!(
            "exchange the cables at leaf MF0;leaf:MQM9700/U1 [{}] port 9",
            guid(units[1][3])
        )),
        "{fix}"
    );
    assert_eq!(v["rail_optimised"]["errors"], 3);
}

/// Issue 40 items 2 and 3: a plan from `ibfat build railopt` running in ibsim is checked
/// against itself rail by rail: a swap between rails, a move between units and a lost
/// HCA are named by server and HCA with the plan's leaf and port, and `cables.csv` labels
/// every host cable by server, HCA, unit and rail.
#[test]
fn a_railopt_plan_is_checked_rail_by_rail_against_the_running_fabric() {
    use ibfat::families::railopt::model::plan::RailoptParams;
    use ibfat::topology::{FamilySpec, Spec};
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("plan");
    let args = [
        "build",
        "railopt",
        "--sus",
        "2",
        "--servers-per-su",
        "8",
        "--rails",
        "4",
        "--radix",
        "16",
        "--out",
        dir.to_str().unwrap(),
    ];
    let (code, out, err) = ibfat(&args);
    assert_eq!(code, 0, "{out}{err}");
    let csv = std::fs::read_to_string(dir.join("cables.csv")).unwrap();
    assert!(csv.lines().next().unwrap().ends_with(",server,hca,unit,rail"), "{csv}");
    let row = csv
        .lines()
        .find(|l| l.contains(",dgx010/mlx5_3,"))
        .expect("dgx010's rail 3 cable");
    assert!(
        row.contains(",su2_r3:2-dgx010/mlx5_3:1,") && row.ends_with(",dgx010,mlx5_3,su2,3"),
        "{row}"
    );
    // the same plan in the library (builds are deterministic) names the nodes for ibsim
    let spec = Spec::new(FamilySpec::Railopt(RailoptParams {
        sus: 2,
        servers_per_su: 8,
        rails: 4,
        levels: 2,
        spines: None,
        radix: 16,
    }));
    let mut f = spec.build().unwrap().fabric;
    let sim = Sim::start(&dir.join("topology.net"));
    let healthy = discover(&sim, t.path(), "healthy.ibnd");
    let plan = dir.display().to_string();
    let (code, out, err) = ibfat(&["cabling", &plan, &healthy]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("RAILS"), "{out}");

    // dgx002 mlx5_1 <-> dgx004 mlx5_2 (rails of SU 1), dgx003 mlx5_0 <-> dgx011 mlx5_0
    // (units), dgx016 loses mlx5_3
    let (a, b) = (hca(&f, "dgx002", 1), hca(&f, "dgx004", 2));
    swap_in_sim(&sim, &mut f, a, b);
    let (c, d) = (hca(&f, "dgx003", 0), hca(&f, "dgx011", 0));
    swap_in_sim(&sim, &mut f, c, d);
    sim.console(&format!("Unlink \"{}\"[1]", f.node(hca(&f, "dgx016", 3)).name));
    let broken = discover(&sim, t.path(), "broken.ibnd");
    let (code, out, err) = ibfat(&["cabling", &plan, &broken, "--json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let found: Vec<(&str, &str, &str, &str)> = v["rail_findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["kind"].as_str().unwrap(),
                x["server"].as_str().unwrap(),
                x["message"].as_str().unwrap(),
                x["fix"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "wrong-rail",
                "dgx002",
                "dgx002 mlx5_1 is on su1_r2 port 4; the plan puts it on su1_r1 port 2",
                "exchange the cables at su1_r2 port 4 and at su1_r1 port 2 (dgx004 mlx5_2)"
            ),
            (
                "wrong-unit",
                "dgx003",
                "dgx003 mlx5_0 is on su2_r0 port 3; the plan puts it on su1_r0 port 3",
                "exchange the cables at su2_r0 port 3 and at su1_r0 port 3 (dgx011 mlx5_0)"
            ),
            (
                "wrong-rail",
                "dgx004",
                "dgx004 mlx5_2 is on su1_r1 port 2; the plan puts it on su1_r2 port 4",
                "exchange the cables at su1_r1 port 2 and at su1_r2 port 4 (dgx002 mlx5_1)"
            ),
            (
                "wrong-unit",
                "dgx011",
                "dgx011 mlx5_0 is on su1_r0 port 3; the plan puts it on su2_r0 port 3",
                "exchange the cables at su1_r0 port 3 and at su2_r0 port 3 (dgx003 mlx5_0)"
            ),
            (
                "hca-count",
                "dgx016",
                "dgx016 mlx5_3 is not cabled in the dump; the plan puts it on su2_r3 port 8",
                "cable dgx016 mlx5_3 to su2_r3 port 8"
            ),
        ],
        "{out}"
    );
    let (_, text, _) = ibfat(&["cabling", &plan, &broken]);
    assert!(text.contains("RAILS (against the plan) (5)"), "{text}");
    // undone as the fixes say (the lost HCA cabled again), the fabric matches its plan
    swap_in_sim(&sim, &mut f, a, b);
    swap_in_sim(&sim, &mut f, c, d);
    let lost = hca(&f, "dgx016", 3);
    let (leaf, port) = f.peer(lost, 1).unwrap();
    let reply = sim.console(&format!(
        "Link \"{}\"[1] \"{}\"[{port}]",
        f.node(lost).name,
        f.node(leaf).name
    ));
    assert!(!reply.to_lowercase().contains("fail"), "ibsim Link: {reply}");
    let healed = discover(&sim, t.path(), "healed.ibnd");
    let (code, out, _) = ibfat(&["cabling", &plan, &healed]);
    assert_eq!(code, 0, "{out}");
}

/// Issue 40 item 1: HCAs that keep the firmware's default description (no rdma-ndd) are
/// grouped into servers by the system image GUID the real `ibnetdiscover` reports.
#[test]
fn servers_by_system_image_when_descriptions_name_no_host() {
    let (mut f, _) = found::superpod_by_convention(5, 1);
    let mut images: Vec<String> = Vec::new();
    for n in 0..f.len() as NodeId {
        if f.node(n).kind != ibfat::topology::NodeKind::Ca {
            continue;
        }
        let host = f.node(n).desc.split_whitespace().next().unwrap().to_string();
        let k = images.iter().position(|h| *h == host).unwrap_or_else(|| {
            images.push(host);
            images.len() - 1
        });
        f.nodes[n as usize].desc = "MT4129 ConnectX7 Mellanox Technologies".into();
        f.set_sysimg(n, 0x5000 + k as u64);
    }
    let (_sim, _t, dump, v) = start_and_recognize(&f);
    let text = std::fs::read_to_string(&dump).unwrap();
    assert!(
        text.contains("sysimgguid=0x5001"),
        "ibnetdiscover reports the system images"
    );
    let r = &v["rail_optimised"];
    assert_eq!(r["servers"], 31, "{r}");
    assert_eq!(r["rails_from"], "leaves", "{r}");
    assert_eq!(r["units"].as_array().unwrap().len(), 1, "{r}");
    assert_eq!(
        r["other_hosts"].as_array().unwrap().len(),
        1,
        "the management host: {r}"
    );
    let (code, out, err) = ibfat(&["cabling", &dump]);
    assert_eq!(code, 0, "{out}{err}");
}
