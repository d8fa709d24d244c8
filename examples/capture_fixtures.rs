//! Capture real tool output for the parser and recognition tests into `fixtures/`.
//!
//! `cargo run --example capture_fixtures` (needs the lab packages: see
//! scripts/install-deps.sh). For each small fabric it writes the spec (or net file),
//! starts the real ibsim, lets the real OpenSM assign LIDs (`opensm -o`, minhop), and
//! saves what the real ibnetdiscover prints: default format, `-p` ports report, `-g`
//! grouping and `-f` full info. Re-running it replaces the files (dates inside change).

#[path = "../tests/harness/mod.rs"]
mod harness;

use harness::{OsmConfig, Sim};
use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::mols::model::{MolsParams, WiringChoice};
use ibfat::formats::ibsim;
use ibfat::topology::{BuildOptions, Fabric, FamilySpec, NodeKind, Spec, Width};
use std::fs;
use std::path::Path;

fn shuffled(family: FamilySpec, seed: u64) -> Spec {
    Spec {
        family,
        options: BuildOptions {
            shuffle: Some(seed),
            ..Default::default()
        },
    }
}

/// A leaf with two hosts and a router (no fat-tree family has routers): real `Rt` records.
fn router_fabric() -> Fabric {
    let mut f = Fabric::new();
    let h1 = f
        .add_node(NodeKind::Ca, 1, 0x0002_c900_0000_0100, "H1", "H1 HCA-1")
        .unwrap();
    let h2 = f
        .add_node(NodeKind::Ca, 2, 0x0002_c900_0000_0110, "H2", "H2 HCA-1")
        .unwrap();
    let r = f
        .add_node(NodeKind::Router, 2, 0x0002_c900_0000_0200, "R1", "router R1")
        .unwrap();
    let s = f
        .add_node(NodeKind::Switch, 8, 0x0002_c900_0000_1000, "L1", "leaf L1")
        .unwrap();
    f.connect(s, 1, h1, 1).unwrap();
    f.connect(s, 2, h2, 1).unwrap();
    f.connect_with(s, 5, r, 1, Width::X1, Default::default()).unwrap();
    f
}

fn capture(dir: &Path, net: &str, lids: bool) {
    fs::create_dir_all(dir).unwrap();
    let sim = Sim::start_text(net);
    if lids {
        let run = sim.opensm(&OsmConfig {
            engine: "minhop".into(),
            ..Default::default()
        });
        assert!(run.success, "opensm -o failed:\n{}", harness::tail(&run.log, 20));
    }
    for (file, args) in [
        ("ibnetdiscover.txt", &[][..]),
        ("ibnetdiscover-p.txt", &["-p"][..]),
        ("ibnetdiscover-g.txt", &["-g"][..]),
        ("ibnetdiscover-f.txt", &["-f"][..]),
    ] {
        let text = sim.ibnetdiscover(args);
        fs::write(dir.join(file), text).unwrap();
    }
    println!("captured {}", dir.display());
}

fn main() {
    harness::require_tools();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let specs = [
        ("lsft2", shuffled(FamilySpec::Lsft(LsftParams::new(2, false)), 3)),
        (
            "lsft3x2",
            shuffled(
                FamilySpec::Lsft(LsftParams {
                    order: 3,
                    two_sided: true,
                    hosts_per_leaf: Some(2),
                }),
                5,
            ),
        ),
        (
            "kary2x3",
            shuffled(FamilySpec::Kary(KaryParams { arity: 2, levels: 3 }), 7),
        ),
        (
            "mols3",
            shuffled(
                FamilySpec::Mols(MolsParams {
                    arity: 3,
                    wiring: WiringChoice::Mols,
                }),
                9,
            ),
        ),
    ];
    for (name, spec) in specs {
        let plan = spec.build().expect("the fixture specs build");
        let dir = root.join(name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("fabric.yaml"),
            plan.spec.as_ref().expect("built from a spec").to_yaml(Some(&plan)),
        )
        .unwrap();
        capture(&dir, &ibsim::write_net(&plan.fabric, &[name.into()]), true);
    }
    let net = ibsim::write_net(&router_fabric(), &["router".into()]);
    let dir = root.join("router");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("topology.net"), &net).unwrap();
    capture(&dir, &net, true);
}
