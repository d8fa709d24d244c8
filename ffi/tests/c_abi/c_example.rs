//! The C example in ffi/examples is compiled against the static library and run.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::harness;

fn static_lib() -> PathBuf {
    harness::artifact_dir("libibfatc.a").join("libibfatc.a")
}

#[test]
fn c_example_builds_and_runs() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = static_lib();
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("example");
    let out = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir.join("include"))
        .arg(crate_dir.join("examples/example.c"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .output()
        .expect("gcc");
    assert!(out.status.success(), "gcc: {}", String::from_utf8_lossy(&out.stderr));
    // a shuffled order-3 LSFT as an ibsim net file, for the "discovered fabric" part
    let plan = ibfat::topology::Spec {
        family: ibfat::topology::FamilySpec::Lsft(ibfat::families::lsft::model::LsftParams::new(3, false)),
        options: ibfat::topology::BuildOptions {
            shuffle: Some(12),
            ..Default::default()
        },
    }
    .build()
    .unwrap();
    let net = tmp.path().join("topology.net");
    std::fs::write(&net, ibfat::formats::ibsim::write_net(&plan.fabric, &[])).unwrap();
    let run = Command::new(&exe).arg(&net).output().unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "example failed: {stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("LSFT(3): 26 switches, 52 hosts, 104 cables"),
        "{stdout}"
    );
    assert!(
        stdout.contains("validation: ok=1 black_holes=0 loops=0 deadlock_free=1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("order 6: status 2: <spec>:2: order: 6 is not a prime power"),
        "{stdout}"
    );
    assert!(
        stdout.contains("unknown switch: status 5: no switch with GUID 0x000000000000dead"),
        "{stdout}"
    );
    assert!(stdout.contains("NULL handle: status 1"), "{stdout}");
    assert!(
        stdout.contains("recognised family 1 order 3 sides 1 hosts 52"),
        "{stdout}"
    );
    assert!(
        stdout.contains("discovered fabric routes: ok=1 deadlock_free=1"),
        "{stdout}"
    );
    assert!(stdout.contains("lsft schedule: 52 ranks, 52 phases"), "{stdout}");
    assert!(stdout.contains("rank 5 (GUID 0x"), "{stdout}");
    assert!(stdout.contains("sends in 52 phases, idle in 0"), "{stdout}");
    assert!(
        stdout.contains("rank out of range: status 5: rank 52: the schedule has 52 ranks"),
        "{stdout}"
    );
}

/// Compile one of the C examples against the static library.
fn compile_example(name: &str, dir: &Path) -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = dir.join(name);
    let out = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir.join("include"))
        .arg(crate_dir.join(format!("examples/{name}.c")))
        .arg(static_lib())
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .output()
        .expect("gcc");
    assert!(out.status.success(), "gcc: {}", String::from_utf8_lossy(&out.stderr));
    exe
}

/// The number after `key ` in `text`.
fn field(text: &str, key: &str) -> u64 {
    let at = text
        .find(&format!("{key} "))
        .unwrap_or_else(|| panic!("no {key} in {text}"));
    text[at + key.len() + 1..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after {key} in {text}"))
}

/// Through the header alone, a C program routes what `ibfat route` routes — a degraded
/// LSFT (detours on 2-3 data VLs), a degraded PGFT (up*/down*, relay detours for switch
/// LIDs on a second VL) and an intact full mesh with LMC 2 (relay detours) — and reads back the SLs and SL-to-VL
/// tables: its files are byte for byte the CLI's, the tables proven, every VL a table maps
/// to below the data VLs the routes report.
#[test]
fn c_routes_degraded_fabrics_with_their_lanes() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = compile_example("lanes", tmp.path());
    let cases: [(&str, &[&str], &[&str], &str); 3] = [
        (
            "lsft",
            &["build", "lsft", "--order", "3", "--shuffle", "4"],
            &["--cut", "4", "--seed", "3"],
            "0",
        ),
        (
            "pgft",
            &[
                "build",
                "pgft",
                "--down",
                "4,4,3",
                "--up",
                "1,4,2",
                "--parallel",
                "1,1,2",
                "--shuffle",
                "9",
            ],
            &["--cut", "9", "--seed", "5"],
            "0",
        ),
        (
            "mesh",
            &["build", "fullmesh", "--switches", "5", "--hosts-per-switch", "2"],
            &[],
            "2",
        ),
    ];
    // and a tree as found: the published lab cluster with one more cable cut
    let lab = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/public/loginoff-sx6036-fdr10-2014.ibnetdiscover");
    let cases = cases
        .into_iter()
        .chain([("tree", &[][..], &["--cut", "1", "--seed", "2"][..], "0")]);
    for (name, build, cut, lmc) in cases {
        let plan = if build.is_empty() {
            lab.clone()
        } else {
            tmp.path().join(name)
        };
        if !build.is_empty() {
            let mut args = build.to_vec();
            args.extend(["--out", plan.to_str().unwrap(), "--no-svg"]);
            let (c, _, e) = harness::ibfat(&args);
            assert_eq!(c, 0, "{name}: {e}");
        }
        let net = if cut.is_empty() {
            plan.join("topology.net")
        } else {
            let faulty = tmp.path().join(format!("{name}-cut"));
            let mut args = vec!["faults", plan.to_str().unwrap(), "--out", faulty.to_str().unwrap()];
            args.extend(cut);
            let (c, _, e) = harness::ibfat(&args);
            assert_eq!(c, 0, "{name}: {e}");
            faulty.join("topology.net")
        };
        let (cli, via_c) = (
            tmp.path().join(format!("{name}-cli")),
            tmp.path().join(format!("{name}-c")),
        );
        std::fs::create_dir_all(&via_c).unwrap();
        let (c, o, e) = harness::ibfat(&[
            "route",
            net.to_str().unwrap(),
            "--lids",
            "plan",
            "--lmc",
            lmc,
            "--out",
            cli.to_str().unwrap(),
            "--json",
        ]);
        assert!(c == 0 || c == 1, "{name}: {e}");
        let report: serde_json::Value = serde_json::from_str(&o).unwrap();
        let run = Command::new(&exe).arg(&net).arg(&via_c).arg(lmc).output().unwrap();
        let text = String::from_utf8_lossy(&run.stdout).into_owned();
        assert!(
            run.status.success(),
            "{name}: {text}{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let faults = field(&text, "faults");
        assert_eq!(faults > 0, name != "mesh" && name != "tree", "{name}: {text}");
        // IBFAT_FAMILY_TREE
        assert_eq!(field(&text, "family") == 6, name == "tree", "{name}: {text}");
        assert!(
            text.contains("validation ok=1 deadlock_free=1 loops=0"),
            "{name}: {text}"
        );
        let data_vls = field(&text, "data_vls");
        assert_eq!(
            Some(data_vls),
            report["data_vls"].as_u64(),
            "{name}: {text} vs {report}"
        );
        assert_eq!(field(&text, "highest_vl") + 1, data_vls, "{name}: {text}");
        assert_eq!(field(&text, "sl_paths") > 0, data_vls > 1, "{name}: {text}");
        let mut files = vec!["opensm-lfts.dump", "guid2lid"];
        if data_vls > 1 {
            files.extend(["path-sl.txt", "sl2vl.txt"]);
        } else {
            assert!(text.contains("one VL: write_lanes status 2"), "{name}: {text}");
        }
        for f in files {
            let (a, b) = (
                std::fs::read(cli.join(f)).unwrap(),
                std::fs::read(via_c.join(f)).unwrap(),
            );
            assert!(a == b, "{name}: {f} differs between the CLI and the C ABI");
        }
    }
}
