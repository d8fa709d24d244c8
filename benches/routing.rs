//! Routing benchmark (docs/routing.md): LFT computation for LSFT(17) and a 16-ary 3-tree,
//! dump writing, and dump reading in every dialect ibfat reads (OpenSM's dump, its compact
//! form, `dump_lfts` and `ibroute` output) for LSFT(17). Prints figures; run with `cargo
//! bench --bench routing`.

use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::formats::lftdump::{self, DumpStyle};
use ibfat::routing::{route, Lids};
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
    read_dialects(dir.path());
}

/// The text `ibroute` prints for the same tables (`dump_lfts` prints it per switch with a
/// directed-route header): the OpenSM dump's entries as `0x<lid> <port> : (<annotation>)`.
fn as_ibroute(opensm: &str, dump_lfts: bool) -> String {
    let mut out = String::with_capacity(opensm.len() + opensm.len() / 8);
    let mut count = 0usize;
    for line in opensm.lines() {
        if let Some(rest) = line.strip_prefix("Unicast lids [0-") {
            if count > 0 {
                out.push_str(&format!("{count} valid lids dumped \n"));
            }
            count = 0;
            let (top, rest) = rest.split_once(']').unwrap();
            let (lid, rest) = rest.trim_start_matches(" of switch Lid ").split_once(' ').unwrap();
            let (guid, desc) = rest.trim_start_matches("guid ").split_once(' ').unwrap();
            let desc = desc
                .trim_end_matches(':')
                .trim_matches(|c| c == '(' || c == ')' || c == '\'');
            let who = if dump_lfts {
                "DR path slid 0; dlid 0; 0,1".to_string()
            } else {
                format!("Lid {lid}")
            };
            let top: u32 = top.parse().unwrap();
            out.push_str(&format!(
                "Unicast lids [0x0-0x{top:x}] of switch {who} guid {guid} ({desc}):\n  Lid  Out   Destination\n       Port     Info \n"
            ));
        } else if let Some((entry, note)) = line.split_once(" # ") {
            count += 1;
            out.push_str(entry);
            out.push_str(" : (");
            out.push_str(note);
            out.push_str(")\n");
        }
    }
    out.push_str(&format!("{count} valid lids dumped \n"));
    out
}

/// Read LSFT(17)'s tables back from each dialect: MB/s (best of 3) and the tables' size.
fn read_dialects(dir: &std::path::Path) {
    let plan = Spec::new(FamilySpec::Lsft(LsftParams::new(17, false))).build().unwrap();
    let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), 0).unwrap();
    let lfts = route(&plan.fabric, &plan.layout, &lids).unwrap();
    let render = |style| {
        let mut v = Vec::new();
        lftdump::stream_opensm_as(&mut v, &plan.fabric, &lids, &lfts, style).unwrap();
        String::from_utf8(v).unwrap()
    };
    let full = render(DumpStyle::Full);
    let texts = [
        ("OpenSM dump", full.clone()),
        ("compact dump", render(DumpStyle::Compact)),
        ("ibroute", as_ibroute(&full, false)),
        ("dump_lfts", as_ibroute(&full, true)),
    ];
    println!(
        "\nreading LSFT(17)'s LFT dump ({} entries, tables {:.1} MB):",
        lfts.switches.len() * (lfts.stride - 1),
        lfts.ports.len() as f64 / 1e6
    );
    println!("{:<14} {:>10} {:>10} {:>10}", "dialect", "MB", "read s", "MB/s");
    for (name, text) in texts {
        let path = dir.join("read.dump");
        std::fs::write(&path, &text).unwrap();
        let (secs, back) = best_of(3, || lftdump::read(&path, &plan.fabric, &lids).unwrap());
        assert_eq!(back.ports, lfts.ports, "{name}: the tables read back differ");
        println!(
            "{:<14} {:>10.1} {:>10.3} {:>10.0}",
            name,
            text.len() as f64 / 1e6,
            secs,
            text.len() as f64 / 1e6 / secs
        );
    }
}
