//! Checker benchmark (docs/schedules.md §5.1): the full N-phase shift check of LSFT(17) (5,526 hosts,
//! 30.5 million flows) and LSFT(31) (31,776 hosts, about a billion flows). Prints time,
//! flows per second and peak memory; run with `cargo bench --bench check`.
//! `IBFAT_BENCH_QUICK=1` skips LSFT(31).

use ibfat::check::{check, CompiledRoutes};
use ibfat::families::lsft::model::LsftParams;
use ibfat::routing::{route, Lids};
use ibfat::schedule::shift::Shift;
use ibfat::schedule::Pattern;
use ibfat::topology::{FamilySpec, Spec};
use std::time::Instant;

fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map(|kb| kb / 1024.0)
        .unwrap_or(f64::NAN)
}

fn main() {
    let mut orders = vec![17u32];
    if std::env::var_os("IBFAT_BENCH_QUICK").is_none() {
        orders.push(31);
    }
    println!("threads: {}", rayon::current_num_threads());
    println!(
        "{:<9} {:>7} {:>14} {:>9} {:>9} {:>9} {:>14} {:>8} {:>9}",
        "fabric", "hosts", "flows", "route s", "compile s", "check s", "flows/s", "ratio", "peak MiB"
    );
    for q in orders {
        let plan = Spec::new(FamilySpec::Lsft(LsftParams::new(q, false))).build().unwrap();
        let hosts = plan.layout.hosts();
        let lids = Lids::plan(&plan.fabric, hosts, 0).unwrap();
        let t = Instant::now();
        let lfts = route(&plan.fabric, &plan.layout, &lids).unwrap();
        let t_route = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let routes = CompiledRoutes::compile(&plan.fabric, &lids, &lfts, hosts, 0).unwrap();
        let t_compile = t.elapsed().as_secs_f64();
        let pat = Shift::new(hosts.len());
        let t = Instant::now();
        let r = check(&plan.fabric, hosts, &routes, &pat, 0..pat.phases(), &|| {}).unwrap();
        let t_check = t.elapsed().as_secs_f64();
        println!(
            "LSFT({q:<2}) {:>7} {:>14} {:>9.3} {:>9.3} {:>9.3} {:>14.3e} {:>8.4} {:>9.0}",
            hosts.len(),
            r.flows,
            t_route,
            t_compile,
            t_check,
            r.flows as f64 / (t_compile + t_check),
            r.throughput_ratio,
            peak_rss_mib()
        );
    }
}
