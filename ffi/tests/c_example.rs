//! The C example in ffi/examples is compiled against the static library and run.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../tests/harness/mod.rs"]
mod harness;

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
        family: ibfat::topology::FamilySpec::Lsft(ibfat::topology::lsft::LsftParams::new(3, false)),
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
