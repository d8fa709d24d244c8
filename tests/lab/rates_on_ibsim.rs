//! `ibfat check --rates` on real components (issue 19, item 6): a 2-level PGFT with
//! parallel cables runs in ibsim at 4xQDR except one leaf–spine cable at 4xSDR; stock
//! OpenSM (minhop) programs it; `ibnetdiscover` and `dump_lfts` read it back, and the
//! weighted check names the slow cable as the busiest link at weight 40/10 = 4, while the
//! unweighted check counts it like any other.

use crate::harness;

use crate::harness::{ibfat, OsmConfig, Sim};
use ibfat::families::pgft::model::PgftParams;
use ibfat::formats::ibsim::write_net;
use ibfat::topology::{FamilySpec, NodeKind, Spec, Speed, Width, NO_PEER};
use serde_json::Value;

/// PGFT(2; 4,4; 1,2; 1,2) at 4xQDR with one 4xSDR leaf–spine cable; the net file and the
/// slow cable's two ends as (port GUID, port number).
fn slow_cable_net() -> (String, [(String, u64); 2]) {
    let spec = Spec::new(FamilySpec::Pgft(
        PgftParams::from_lists(&[4, 4], &[1, 2], &[1, 2], None).unwrap(),
    ));
    let mut f = spec.build().unwrap().fabric;
    for p in f.ports.iter_mut().filter(|p| p.peer != NO_PEER) {
        p.width = Width::X4;
        p.speed = Speed::Qdr;
    }
    let is_sw = |f: &ibfat::topology::Fabric, i: usize| f.node(f.ports[i].node).kind == NodeKind::Switch;
    let trunks: Vec<usize> = (0..f.ports.len())
        .filter(|&i| {
            let p = f.ports[i].peer;
            p != NO_PEER && (i as u32) < p && is_sw(&f, i) && is_sw(&f, p as usize)
        })
        .collect();
    assert_eq!(trunks.len(), 16, "4 leaves × 2 spines × 2 parallel cables");
    let a = trunks[5];
    let b = f.ports[a].peer as usize;
    for k in [a, b] {
        f.ports[k].speed = Speed::Sdr;
    }
    let end = |k: usize| (format!("0x{:016x}", f.ports[k].guid), u64::from(f.ports[k].num));
    (write_net(&f, &["rates test".into()]), [end(a), end(b)])
}

fn check(dir: &std::path::Path, extra: &[&str]) -> Value {
    let disc = dir.join("ibnetdiscover.txt");
    let lfts = dir.join("dump_lfts.txt");
    let mut args = vec![
        "check",
        disc.to_str().unwrap(),
        "--lfts",
        lfts.to_str().unwrap(),
        "--links",
        "--json",
    ];
    args.extend(extra);
    let (code, out, err) = ibfat(&args);
    assert!(code == 0 || code == 1, "ibfat {args:?}: exit {code}\n{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn the_slow_cable_is_the_busiest_link_when_weighed_by_rate() {
    let (net, slow) = slow_cable_net();
    let sim = Sim::start_text(&net);
    let run = sim.opensm(&OsmConfig {
        engine: "minhop".into(),
        ..Default::default()
    });
    assert!(run.success, "opensm: {}", harness::tail(&run.log, 20));
    let dir = tempfile::tempdir().unwrap();
    let disc = sim.ibnetdiscover(&[]);
    assert!(
        disc.contains("4xSDR") && disc.contains("4xQDR"),
        "ibsim reports the rates"
    );
    std::fs::write(dir.path().join("ibnetdiscover.txt"), &disc).unwrap();
    std::fs::write(dir.path().join("dump_lfts.txt"), sim.dump_lfts()).unwrap();
    let is_slow = |l: &Value| {
        slow.iter()
            .any(|(g, p)| l["from_guid"].as_str() == Some(g) && l["from_port"].as_u64() == Some(*p))
    };

    let plain = check(dir.path(), &[]);
    assert_eq!(plain["schema"], "ibfat.check/1");
    assert!(plain.get("rates").is_none());
    let loads = plain["link_loads"].as_array().unwrap();
    assert!(
        loads.iter().all(|l| l.get("rate").is_none()),
        "no weights without --rates"
    );
    // the unweighted loads, weighed here: the slow cable's (×4) beats every other link's
    let slow_max = loads
        .iter()
        .filter(|l| is_slow(l))
        .map(|l| l["max_flows"].as_u64().unwrap())
        .max();
    let slow_max = slow_max.expect("minhop sends flows over the slow cable");
    let other_max = loads
        .iter()
        .filter(|l| !is_slow(l))
        .map(|l| l["max_flows"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(4 * slow_max > other_max, "slow {slow_max}×4 vs {other_max}");
    assert!(!is_slow(&plain["worst_links"][0]) || slow_max >= other_max);

    let weighted = check(dir.path(), &["--rates"]);
    assert_eq!(weighted["schema"], "ibfat.check/2");
    let rates = &weighted["rates"];
    assert_eq!(rates["weighted"], true);
    assert_eq!(rates["reference"], "4xQDR");
    assert_eq!(rates["reference_gbps"], 40.0);
    assert_eq!(
        (rates["cables"].as_u64(), rates["unknown_cables"].as_u64()),
        (Some(16), Some(0))
    );
    assert_eq!(rates["reference_cables"].as_u64(), Some(15));
    let top = &weighted["worst_links"][0];
    assert!(is_slow(top), "busiest link {top}");
    assert_eq!(top["rate"]["rate"], "4xSDR");
    assert_eq!(top["rate"]["weight"], 4.0);
    assert_eq!(top["rate"]["weighted_max"].as_f64(), Some(4.0 * slow_max as f64));
    assert!(rates["max_congestion"].as_f64().unwrap() >= 4.0);
    assert!(weighted["max_congestion"].as_u64().unwrap() >= 4);
    assert!(weighted["throughput_ratio"].as_f64() < plain["throughput_ratio"].as_f64());
    assert_eq!(weighted["flows"], plain["flows"]);

    // the text report names the rate and weight of the busiest link
    let disc_path = dir.path().join("ibnetdiscover.txt");
    let lfts_path = dir.path().join("dump_lfts.txt");
    let (_, text, _) = ibfat(&[
        "check",
        disc_path.to_str().unwrap(),
        "--lfts",
        lfts_path.to_str().unwrap(),
        "--rates",
    ]);
    assert!(text.contains("rate-weighted: one flow on a 4xQDR cable"), "{text}");
    let busiest = text.lines().find(|l| l.contains("busiest link")).unwrap();
    assert!(busiest.contains("(4xSDR, weight 4, weighted load"), "{busiest}");
}

#[test]
fn rates_refuses_what_it_cannot_weigh() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    harness::build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &plan);
    // a plan states designed rates, not trained ones: nothing to weigh
    let (code, out, err) = ibfat(&["check", plan.to_str().unwrap(), "--rates"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("--rates") && err.contains("no switch-to-switch cable"),
        "{err}"
    );
    // the plan's net file states ibsim's rates (4xSDR everywhere): all weigh 1
    let net = plan.join("topology.net");
    let (code, out, err) = ibfat(&["check", net.to_str().unwrap(), "--rates"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("rate-weighted: one flow on a 4xSDR cable"), "{out}");
    // shards carry unweighted counts
    let (code, _, err) = ibfat(&["check", net.to_str().unwrap(), "--rates", "--shard", "0/2"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be combined with --shard"), "{err}");
}
