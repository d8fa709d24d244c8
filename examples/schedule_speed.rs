//! How fast schedules are generated: one phase of the LSFT schedule (docs/schedules.md §2.1) on LSFT(31)
//! (31,776 ranks) and of shift, timed over many phases.
//!
//!     cargo run --release --example schedule_speed [ORDER]

use ibfat::families::lsft::model::LsftParams;
use ibfat::families::lsft::schedule::LsftAllToAll;
use ibfat::schedule::shift::Shift;
use ibfat::schedule::{Job, Pattern, IDLE};
use ibfat::topology::{FamilySpec, Layout, Spec};
use std::time::Instant;

fn time_phases(name: &str, p: &dyn Pattern, count: usize) {
    let mut out = vec![IDLE; p.ranks()];
    let step = (p.phases() / count).max(1);
    let start = Instant::now();
    let mut checksum = 0u64;
    let mut n = 0;
    for ph in (0..p.phases()).step_by(step).take(count) {
        p.phase(ph, &mut out);
        checksum = checksum.wrapping_add(out[ph % out.len()] as u64);
        n += 1;
    }
    let per = start.elapsed().as_secs_f64() / n as f64;
    println!(
        "{name}: {} ranks, {:.1} µs per phase ({:.0} M destinations/s) [checksum {checksum}]",
        p.ranks(),
        per * 1e6,
        p.ranks() as f64 / per / 1e6
    );
}

fn main() {
    let q: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(31);
    let start = Instant::now();
    let plan = Spec::new(FamilySpec::Lsft(LsftParams::new(q, false)))
        .build()
        .expect("a prime-power order");
    let Layout::Lsft(l) = &plan.layout else { unreachable!() };
    println!("built LSFT({q}) in {:.2} s", start.elapsed().as_secs_f64());
    let start = Instant::now();
    let s = LsftAllToAll::new(l, &Job::whole(plan.layout.hosts()));
    println!(
        "prepared the lsft schedule in {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    time_phases("lsft", &s, 2000);
    time_phases("shift", &Shift::new(s.ranks()), 2000);
}
