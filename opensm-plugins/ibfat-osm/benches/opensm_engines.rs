//! OpenSM plugin benchmark (docs/routing.md): on LSFT(13) (366 switches, 2,562 hosts) in ibsim, the time stock
//! OpenSM spends in the ibfat engine (this plugin) against its own minhop and ftree, read
//! from OpenSM's log: from `ucast_mgr_route: building routing with '<engine>'` to
//! `<engine> tables configured on all switches` (OpenSM's hop matrices plus the engine's
//! forwarding tables). Each engine routes 5 passes (the first sweep and 4 SIGHUP
//! re-sweeps); the median and the best pass are printed.
//! Run: `cargo bench -p ibfat-osm --bench opensm_engines` (or scripts/bench-opensm.sh);
//! `IBFAT_BENCH_ORDER=q` picks another order.

#[path = "../../../tests/harness/mod.rs"]
mod harness;

use harness::{OsmConfig, Sim};
use ibfat::topology::lsft::LsftParams;
use ibfat::topology::{FamilySpec, Spec};
use std::path::PathBuf;
use std::time::Duration;

fn plugin_dir() -> PathBuf {
    harness::artifact_dir("libibfatosm.so")
}

fn main() {
    let q: u32 = std::env::var("IBFAT_BENCH_ORDER")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(13);
    let plan = Spec::new(FamilySpec::Lsft(LsftParams::new(q, false))).build().unwrap();
    let net = ibfat::formats::ibsim::write_net(&plan.fabric, &[]);
    println!(
        "LSFT({q}): {} switches, {} hosts",
        plan.fabric.switches().count(),
        plan.layout.hosts().len()
    );
    let sim = Sim::start_text(&net);
    println!(
        "{:<8} {:>8} {:>11} {:>9}  passes (ms)",
        "engine", "passes", "median ms", "best ms"
    );
    let mut medians = Vec::new();
    for engine in ["ibfat", "minhop", "ftree"] {
        let mut cfg = OsmConfig {
            engine: engine.into(),
            extra_args: vec!["-D".into(), "0x07".into(), "-s".into(), "0".into()],
            timeout: Some(Duration::from_secs(300)),
            tag: Some(format!("bench-{engine}")),
            ..Default::default()
        };
        if engine == "ibfat" {
            cfg.plugin = Some((plugin_dir(), "ibfatosm".into(), String::new()));
        }
        let osm = sim.opensm_daemon(&cfg);
        let end = format!("{engine} tables configured on all switches");
        assert!(
            osm.wait_for(&end, 1, Duration::from_secs(300)),
            "{engine} did not route:\n{}",
            osm.log()
                .lines()
                .filter(|l| l.contains("ibfat") || l.contains("configured") || l.contains("ERR"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        for k in 2..=5 {
            osm.sighup();
            assert!(
                osm.wait_for(&end, k, Duration::from_secs(300)),
                "{engine}: pass {k} missing"
            );
        }
        let mut p = harness::routing_passes_ms(&osm.log(), engine);
        osm.stop();
        let shown = p.iter().map(|x| format!("{x:.1}")).collect::<Vec<_>>().join(" ");
        p.sort_by(f64::total_cmp);
        let median = p[p.len() / 2];
        println!("{engine:<8} {:>8} {median:>11.1} {:>9.1}  {shown}", p.len(), p[0]);
        medians.push((engine, median));
    }
    let ibfat = medians[0].1;
    for (e, m) in &medians[1..] {
        println!("ibfat / {e} = {:.2}", ibfat / m);
    }
}
