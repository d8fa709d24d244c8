//! Routing benchmark (docs/routing.md): LFT computation for LSFT(17) and a 16-ary 3-tree, and
//! dump writing. Prints figures; run with `cargo bench --bench routing`.

use ibfat::formats::lftdump;
use ibfat::routing::{route, Lids};
use ibfat::topology::kary::KaryParams;
use ibfat::topology::lsft::LsftParams;
use ibfat::topology::{FamilySpec, Spec};
use std::time::Instant;

fn best_of<T>(n: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..n {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(v);
    }
    (best, out.unwrap())
}

fn main() {
    let cases = [
        ("LSFT(17)", FamilySpec::Lsft(LsftParams::new(17, false))),
        ("16-ary 3-tree", FamilySpec::Kary(KaryParams { arity: 16, levels: 3 })),
    ];
    let dir = tempfile::tempdir().unwrap();
    println!(
        "{:<16} {:>8} {:>8} {:>12} {:>10} {:>14} {:>10} {:>10}",
        "fabric", "switches", "hosts", "entries", "route s", "entries/s", "dump MB", "dump MB/s"
    );
    for (name, fam) in cases {
        let plan = Spec::new(fam).build().unwrap();
        let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), 0).unwrap();
        let (secs, lfts) = best_of(5, || route(&plan.fabric, &plan.layout, &lids).unwrap());
        let entries = lfts.switches.len() * (lfts.stride - 1);
        let path = dir.path().join("opensm-lfts.dump");
        let (wsecs, bytes) = best_of(3, || {
            lftdump::write_opensm_file(&path, &plan.fabric, &lids, &lfts).unwrap();
            std::fs::metadata(&path).unwrap().len() as usize
        });
        println!(
            "{:<16} {:>8} {:>8} {:>12} {:>10.4} {:>14.3e} {:>10.1} {:>10.0}",
            name,
            lfts.switches.len(),
            plan.layout.hosts().len(),
            entries,
            secs,
            entries as f64 / secs,
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / wsecs
        );
    }
}
