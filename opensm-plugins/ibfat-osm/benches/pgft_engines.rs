//! ibfat against OpenSM's own engines on the fat-trees sites run (docs/routing.md §3.1):
//! for PGFT shapes with parallel cables, oversubscription and empty host slots (shuffled
//! ports, random GUIDs) in ibsim, stock OpenSM 3.3.23 routes with each engine in turn —
//! the ibfat plugin, ftree, minhop, updn — and the tables the switches then hold (read back
//! with `dump_lfts`) are measured with ibfat's checker: shift in the recognised tree order
//! (the order d-mod-k is built for), its throughput ratio and worst congestion, whether
//! the tables validate (host routes arrive, every LID — switch LIDs too — is routed without
//! loops, the channel dependency graph of host traffic is acyclic), and the routing
//! time from OpenSM's log. An engine that gave up shows as the engine OpenSM fell back to.
//! Run: `cargo bench -p ibfat-osm --bench pgft_engines` (prints a Markdown table).

#[path = "../../../tests/harness/mod.rs"]
mod harness;

use harness::{OsmConfig, Sim};
use ibfat::check::{check, validate, CompiledRoutes};
use ibfat::families::pgft::model::PgftParams;
use ibfat::families::Family;
use ibfat::recognize::{recognize, Recognition};
use ibfat::schedule::shift::TreeShift;
use ibfat::schedule::{Job, Pattern};
use ibfat::topology::{BuildOptions, FamilySpec, Layout, Spec};

fn main() {
    type Shape<'a> = (&'a str, &'a [u32], &'a [u32], &'a [u32], Option<u32>);
    let shapes: [Shape; 4] = [
        ("PGFT(2; 24,4; 1,2; 1,6) 2:1", &[24, 4], &[1, 2], &[1, 6], None),
        ("PGFT(2; 8,8; 1,4; 1,2)", &[8, 8], &[1, 4], &[1, 2], None),
        ("PGFT(3; 4,4,2; 1,2,4; 1,2,2)", &[4, 4, 2], &[1, 2, 4], &[1, 2, 2], None),
        // 2 of 4 host slots: 52 LIDs (with exactly 64 LIDs, OpenSM 3.3.23 on ibsim left
        // LID 64 unprogrammed whatever the engine, minhop included)
        (
            "PGFT(3; 4,6,2; 1,4,2; 1,1,1) 3:1, 2 of 4 slots",
            &[4, 6, 2],
            &[1, 4, 2],
            &[1, 1, 1],
            Some(2),
        ),
    ];
    println!(
        "| fabric | engine | routed by | shift ratio | max congestion | host routes | every LID | deadlock-free | routing ms |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (i, (name, m, w, p, hpl)) in shapes.into_iter().enumerate() {
        let mut spec = Spec::new(FamilySpec::Pgft(PgftParams::from_lists(m, w, p, hpl).unwrap()));
        spec.options = BuildOptions {
            shuffle: Some(70 + i as u64),
            ..Default::default()
        };
        let plan = spec.build().unwrap();
        let net = ibfat::formats::ibsim::write_net(&plan.fabric, &[]);
        let sim = Sim::start_text(&net);
        for engine in ["ibfat", "ftree", "minhop", "updn"] {
            let mut cfg = OsmConfig {
                engine: if engine == "ibfat" {
                    "ibfat,minhop".into()
                } else {
                    format!("{engine},minhop")
                },
                extra_args: vec!["-D".into(), "0x07".into()],
                tag: Some(format!("bench-{engine}")),
                ..Default::default()
            };
            if engine == "ibfat" {
                cfg = cfg.with_ibfat_plugin("");
            }
            let run = sim.opensm(&cfg);
            let by = run.configured_by().unwrap_or_else(|| "nothing".into());
            let (fabric, lids, tables) = sim.programmed();
            let Recognition::Recognized { layout, .. } = recognize(&fabric, Some(Family::Pgft)) else {
                panic!("{name}: not recognised")
            };
            let Layout::Pgft(l) = &layout else { unreachable!() };
            let job = Job::whole(layout.hosts());
            let pattern = TreeShift::pgft(l, &job);
            let routes = CompiledRoutes::compile(&fabric, &lids, &tables, job.hosts(), 0).unwrap();
            let r = check(&fabric, job.hosts(), &routes, &pattern, 0..pattern.phases(), &|| {}).unwrap();
            let v = validate(&fabric, &lids, &tables, Some(&layout));
            let ms = harness::routing_passes_ms(&run.log, &by)
                .last()
                .map_or("-".into(), |x| format!("{x:.1}"));
            let yes = |b: bool| if b { "yes" } else { "no" };
            println!(
                "| {name} | {engine} | {by} | {:.4} | {} | {} | {} | {} | {ms} |",
                r.throughput_ratio,
                r.max_congestion,
                yes(v.data_path_ok),
                yes(v.complete),
                yes(v.deadlock_free)
            );
        }
    }
}
