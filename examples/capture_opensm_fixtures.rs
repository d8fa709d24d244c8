//! Capture real OpenSM outputs into `fixtures/` (reproducible; needs the lab packages):
//! for each fabric, the plan's topology.net and guid2lid, ibnetdiscover after the sweep,
//! and the LFTs OpenSM's own ftree and minhop engines program (opensm-lfts.dump and the
//! `dump_lfts` read-back). Run: `cargo run --example capture_opensm_fixtures`.

#[path = "../tests/harness/mod.rs"]
mod harness;

use harness::{OsmConfig, Sim};
use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::mols::model::{MolsParams, WiringChoice};
use ibfat::formats::guid2lid;
use ibfat::routing::Lids;
use ibfat::topology::{BuildOptions, FamilySpec, Spec};
use std::fs;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/opensm");
    let cases = [
        ("kary3x3", FamilySpec::Kary(KaryParams { arity: 3, levels: 3 }), None),
        ("lsft3", FamilySpec::Lsft(LsftParams::new(3, false)), Some(5)),
        ("lsft2x2", FamilySpec::Lsft(LsftParams::new(2, true)), None),
        (
            "mols3",
            FamilySpec::Mols(MolsParams {
                arity: 3,
                wiring: WiringChoice::Auto,
            }),
            None,
        ),
    ];
    for (name, fam, shuffle) in cases {
        let spec = Spec {
            family: fam,
            options: BuildOptions {
                shuffle,
                ..Default::default()
            },
        };
        let plan = spec.build().expect("plan");
        let files = ibfat::cabling::render(&plan, false);
        let dir = root.join(name);
        fs::create_dir_all(&dir).unwrap();
        for (f, bytes) in &files {
            if *f == "topology.net" || *f == "fabric.yaml" {
                fs::write(dir.join(f), bytes).unwrap();
            }
        }
        let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), 0).unwrap();
        let g2l = guid2lid::write(&lids, &plan.fabric);
        fs::write(dir.join("guid2lid"), &g2l).unwrap();
        let sim = Sim::start(&dir.join("topology.net"));
        for engine in ["ftree", "minhop"] {
            let r = sim.opensm(&OsmConfig {
                engine: engine.into(),
                guid2lid: Some(g2l.clone()),
                ..Default::default()
            });
            assert!(r.success, "{name} {engine}");
            let by = r.configured_by().unwrap_or_default();
            fs::write(dir.join(format!("opensm-{engine}.dump")), r.lfts_dump()).unwrap();
            fs::write(dir.join(format!("dump_lfts-{engine}.txt")), sim.dump_lfts()).unwrap();
            fs::write(dir.join(format!("opensm-{engine}.engine")), format!("{by}\n")).unwrap();
            if engine == "minhop" {
                // `ibroute <switch lid>` of every switch (LID-routed, so after a full routing)
                let mut all = String::new();
                for sw in plan.fabric.switches() {
                    let lid = lids.lid(&plan.fabric, sw, 0).to_string();
                    all.push_str(&sim.tool("ibroute", &[&lid]));
                }
                fs::write(dir.join("ibroute-minhop.txt"), all).unwrap();
            }
            println!("{name}: -R {engine} -> {by} tables");
        }
        fs::write(dir.join("ibnetdiscover.txt"), sim.ibnetdiscover(&[])).unwrap();
    }
}
