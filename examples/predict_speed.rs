//! How fast `ibfat predict` prices every algorithm: 5,000 ranks (one per node) on
//! LSFT(17), all twelve algorithms the fabric has (Table 1's ten, lsft, lsft-partial),
//! two message sizes. Issue 13 asks for under 10 s.
//!
//!     cargo run --release --example predict_speed [ORDER] [RANKS]

use ibfat::families::lsft::model::LsftParams;
use ibfat::routing::{route, Lids};
use ibfat::schedule::Job;
use ibfat::select::model::{costs, predict, Hockney, Placement};
use ibfat::topology::{FamilySpec, Spec};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let q: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(17);
    let ranks: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(5000);
    let t0 = Instant::now();
    let plan = Spec::new(FamilySpec::Lsft(LsftParams::new(q, false)))
        .build()
        .expect("a prime-power order");
    let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), 0).expect("LIDs");
    let lfts = route(&plan.fabric, &plan.layout, &lids).expect("tables");
    let ranks = ranks.min(plan.layout.hosts().len() as u32);
    let job = Job::from_fabric_ranks(plan.layout.hosts(), (0..ranks).collect()).expect("job");
    let t1 = Instant::now();
    println!(
        "LSFT({q}) built and routed in {:.2} s; predicting {ranks} ranks",
        (t1 - t0).as_secs_f64()
    );
    let placement = Placement {
        plan: &plan,
        lids: &lids,
        lfts: &lfts,
        job: &job,
        ranks_per_node: 1,
    };
    let (c, skipped) = costs(&placement, None).expect("costs");
    let h = Hockney::new(2e-6, 3.2e9).expect("parameters");
    let sizes = [16u64 << 10, 1 << 20];
    let preds: Vec<_> = sizes.iter().map(|&m| predict(&c, &h, m, 2.0)).collect();
    let secs = t1.elapsed().as_secs_f64();
    for p in &preds {
        println!("  M = {:>7}: best {}, shortlist {:?}", p.msg_size, p.best, p.shortlist);
    }
    for s in &skipped {
        println!("  not priced: {}: {}", s.algorithm, s.reason);
    }
    println!(
        "predicted {} algorithms × {} sizes for {ranks} ranks on LSFT({q}) in {secs:.2} s (limit 10 s)",
        c.len(),
        sizes.len()
    );
}
