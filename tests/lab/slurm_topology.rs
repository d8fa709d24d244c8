//! `ibfat export slurm-topology` loaded by a real slurmctld (TopologyPlugin=topology/tree)
//! and read back with `scontrol show topology`: every switch, its level, its hosts and
//! the switches below it are what the fabric says, for a tree and for an LSFT.

use crate::harness::slurm::{run_ok, Options, Slurm};
use crate::harness::{build_plan, ibfat};
use std::collections::{BTreeMap, BTreeSet};

/// Expand a Slurm host list (`a[1-3,7],b`) into names.
fn expand(list: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut depth = 0;
    let mut start = 0;
    let mut items = Vec::new();
    for (i, c) in list.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&list[start..]);
    for item in items.into_iter().filter(|s| !s.is_empty()) {
        let Some((prefix, rest)) = item.split_once('[') else {
            out.insert(item.to_string());
            continue;
        };
        let (ranges, suffix) = rest.split_once(']').expect("closing bracket");
        for r in ranges.split(',') {
            let (a, b) = r.split_once('-').unwrap_or((r, r));
            let width = a.len();
            let (a, b): (u64, u64) = (a.parse().unwrap(), b.parse().unwrap());
            for v in a..=b {
                out.insert(format!("{prefix}{v:0width$}{suffix}"));
            }
        }
    }
    out
}

/// `SwitchName=X Key=Value ...` lines into name -> key -> value.
fn records(text: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    text.lines()
        .filter(|l| l.starts_with("SwitchName="))
        .map(|l| {
            let kv: BTreeMap<String, String> = l
                .split_whitespace()
                .filter_map(|w| w.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
                .collect();
            (kv["SwitchName"].clone(), kv)
        })
        .collect()
}

fn round_trip(build: &[&str], levels: usize) {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    build_plan(build, &plan);
    round_trip_of(plan.to_str().unwrap(), levels);
}

/// Export `topology`, load it into slurmctld, compare; the hosts it lists.
fn round_trip_of(topology: &str, levels: usize) -> BTreeSet<String> {
    let (code, conf, err) = ibfat(&["export", "slurm-topology", topology]);
    assert_eq!(code, 0, "{err}");
    let ours = records(&conf);
    let hosts: BTreeSet<String> = ours
        .values()
        .filter_map(|r| r.get("Nodes"))
        .flat_map(|n| expand(n))
        .collect();
    let slurm = Slurm::start_with(Options {
        slurmd: false,
        extra_conf: format!(
            "TopologyPlugin=topology/tree\nNodeName={} CPUs=1 State=FUTURE\n",
            hosts.iter().cloned().collect::<Vec<_>>().join(",")
        ),
        files: vec![("topology.conf".into(), conf.clone())],
    });
    let shown = run_ok(slurm.client("scontrol").args(["show", "topology"]));
    let theirs = records(&shown);
    assert_eq!(
        theirs.keys().collect::<Vec<_>>(),
        ours.keys().collect::<Vec<_>>(),
        "switches\n{shown}\n{}",
        slurm.logs()
    );
    let mut seen_levels = BTreeSet::new();
    for (name, mine) in &ours {
        let got = &theirs[name];
        seen_levels.insert(got["Level"].clone());
        if let Some(n) = mine.get("Nodes") {
            assert_eq!(got["Level"], "0", "{name} holds hosts: a leaf\n{shown}");
            assert_eq!(expand(&got["Nodes"]), expand(n), "{name}\n{shown}");
        }
        if let Some(s) = mine.get("Switches") {
            assert_eq!(expand(&got["Switches"]), expand(s), "{name}\n{shown}");
        }
    }
    assert_eq!(seen_levels.len(), levels, "{shown}");
    hosts
}

#[test]
fn a_tree_and_an_lsft_load_into_slurmctld_as_exported() {
    round_trip(&["build", "kary", "--arity", "2", "--levels", "3", "--shuffle", "3"], 3);
    round_trip(&["build", "lsft", "--order", "2"], 2);
}

/// A tree as found (the 145-host lab cluster, issue 39 item 5): its 142 compute hosts on
/// their 6 leaves, the 2 spines above; the storage hosts on a spine (tank1 with both ports, tank2) are no Slurm nodes.
#[test]
fn a_tree_as_found_loads_into_slurmctld_without_its_storage_hosts() {
    let lab = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/public/loginoff-sx6036-fdr10-2014.ibnetdiscover"
    );
    let hosts = round_trip_of(lab, 2);
    assert_eq!(hosts.len(), 142, "{hosts:?}");
    for storage in ["tank1", "tank2"] {
        assert!(!hosts.contains(storage), "{storage}");
    }
}

/// Two hosts Slurm would know by one name: exit 2 naming both GUIDs, nothing written.
#[test]
fn hosts_sharing_a_name_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    build_plan(&["build", "lsft", "--order", "2"], &plan);
    let net = std::fs::read_to_string(plan.join("topology.net")).unwrap();
    let clash = net
        .replace("# \"H0_0 HCA-1\"", "# \"node7 mlx5_0\"")
        .replace("# \"H0_1 HCA-1\"", "# \"node7 mlx5_1\"");
    assert_eq!(clash.matches("node7").count(), 2);
    let file = t.path().join("clash.net");
    std::fs::write(&file, clash).unwrap();
    let out = t.path().join("topology.conf");
    let (code, _, err) = ibfat(&[
        "export",
        "slurm-topology",
        file.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("two hosts are named \"node7\"") && err.contains("--node-name-map"),
        "{err}"
    );
    assert!(!out.exists());
}

/// A rail-optimised fabric (issue 40 item 5): one Slurm node per server, one switch per
/// scalable unit listing its servers, the spines above listing the units; slurmctld
/// loads it, and a job asking for one switch is placed inside one unit.
#[test]
fn a_rail_optimised_fabric_is_one_slurm_node_per_server_and_one_switch_per_unit() {
    use crate::found;
    let (f, _) = found::superpod_by_convention(5, 4);
    let t = tempfile::tempdir().unwrap();
    let net = t.path().join("superpod.net");
    std::fs::write(&net, ibfat::formats::ibsim::write_net(&f, &[])).unwrap();
    let (code, conf, err) = ibfat(&["export", "slurm-topology", net.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let ours = records(&conf);
    let units: Vec<(&String, &String)> = ours
        .iter()
        .filter_map(|(name, r)| r.get("Nodes").map(|n| (name, n)))
        .collect();
    assert_eq!(
        units,
        [
            (&"su1".to_string(), &"dgx[001-031]".to_string()),
            (&"su2".to_string(), &"dgx[032-062]".to_string()),
            (&"su3".to_string(), &"dgx[063-093]".to_string()),
            (&"su4".to_string(), &"dgx[094-124]".to_string())
        ],
        "{conf}"
    );
    let spines: Vec<&String> = ours.values().filter_map(|r| r.get("Switches")).collect();
    assert_eq!(spines.len(), 16, "{conf}");
    assert!(spines.iter().all(|s| *s == "su[1-4]"), "{conf}");
    let slurm = Slurm::start_with(Options {
        slurmd: false,
        extra_conf: "TopologyPlugin=topology/tree\nNodeName=dgx[001-124] NodeAddr=127.0.0.1 CPUs=1 State=IDLE\n\
                     PartitionName=gpu Nodes=dgx[001-124] MaxTime=10 State=UP\n"
            .into(),
        files: vec![("topology.conf".into(), conf.clone())],
    });
    let shown = run_ok(slurm.client("scontrol").args(["show", "topology"]));
    let theirs = records(&shown);
    assert_eq!(theirs.len(), ours.len(), "{shown}");
    for u in 1..=4 {
        let r = &theirs[&format!("su{u}")];
        assert_eq!(r["Level"], "0", "{shown}");
        assert_eq!(expand(&r["Nodes"]).len(), 31, "{shown}");
    }
    // with dgx[001-020] drained, the first 20 free nodes would span SU 1 and SU 2; one
    // switch means one unit
    run_ok(
        slurm
            .client("scontrol")
            .args(["update", "nodename=dgx[001-020]", "state=drain", "reason=test"]),
    );
    for n in ["20", "31"] {
        let out = slurm
            .client("sbatch")
            .args(["--test-only", "-p", "gpu", "-N", n, "--switches=1", "--wrap", "true"])
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let nodes = said
            .split(" on nodes ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("no placement in: {said}"));
        let placed = expand(nodes);
        assert_eq!(placed.len(), n.parse::<usize>().unwrap(), "{said}");
        let unit = (2..=4).find(|u| placed.is_subset(&expand(&theirs[&format!("su{u}")]["Nodes"])));
        assert!(
            unit.is_some(),
            "-N {n} --switches=1 placed on {nodes}, not inside one unit: {said}"
        );
    }
}
