//! Rail-optimised clusters in the real ibsim (issue 40 items 1, 2 and 6): SuperPOD-shaped
//! fabrics discovered by the real `ibnetdiscover`, their servers, rails and units
//! recognised, and cables swapped between rails and between units in the running
//! simulator (`Unlink`/`Link` console commands) found by `ibfat cabling` from a new
//! discovery, each with the exchange that undoes it.

#[path = "harness/found.rs"]
#[allow(dead_code)]
mod found;
mod harness;

use harness::{ibfat, Sim};
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
