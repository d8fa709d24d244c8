//! examples/mpi/pingpong.c under the real `mpirun` (issue 13 item 2: L and B measured and
//! saved in a small profile file): two ranks measure the latency and bandwidth, rank 0
//! writes `latency:` / `bandwidth:` atomically, and `ibfat predict --profile` takes the
//! file. Bad input writes nothing and exits 2.

use crate::harness::{build_plan, ibfat, tail};
use crate::mpi::{compile_prog, mpirun_args, require_mpi};
use std::ffi::OsString;

#[test]
fn pingpong_measures_a_profile_that_predict_reads() {
    require_mpi();
    let t = tempfile::tempdir().unwrap();
    let exe = compile_prog(t.path(), "pingpong");
    let profile = t.path().join("fabric.profile");
    let args: Vec<OsString> = vec![profile.clone().into(), "8".into(), "1048576".into(), "20".into()];
    let (code, stdout, stderr) = mpirun_args(&exe, 2, t.path(), &args);
    assert_eq!(code, 0, "{stdout}{}", tail(&stderr, 30));
    assert!(
        stdout.starts_with("ibfat-mpi-pingpong: small=8 large=1048576 repetitions=20 "),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&profile).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let value = |line: &str, key: &str| -> f64 {
        let v = line.strip_prefix(key).unwrap_or_else(|| panic!("`{line}`: want {key}"));
        v.trim().parse().unwrap_or_else(|_| panic!("`{line}`"))
    };
    let (l, b) = (value(lines[0], "latency:"), value(lines[1], "bandwidth:"));
    assert!(l.is_finite() && l > 0.0 && b.is_finite() && b > 0.0, "{text}");
    let leftovers: Vec<_> = std::fs::read_dir(t.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp."))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");

    let plan = t.path().join("lsft2");
    build_plan(&["build", "lsft", "--order", "2"], &plan);
    let (code, out, err) = ibfat(&[
        "predict",
        plan.to_str().unwrap(),
        "--job",
        "ranks:0-7",
        "--msg-size",
        "16K,1M",
        "--profile",
        profile.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sizes = v["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 2, "{out}");
    for s in sizes {
        for a in s["algorithms"].as_array().unwrap() {
            let p = a["predicted_seconds"].as_f64().unwrap();
            assert!(p.is_finite() && p > 0.0, "{a}");
        }
    }
}

#[test]
fn pingpong_bad_input_writes_nothing() {
    require_mpi();
    let t = tempfile::tempdir().unwrap();
    let exe = compile_prog(t.path(), "pingpong");
    let profile = t.path().join("p.profile");
    for (np, extra, want) in [
        (3, vec![], "run it with -np 2"),
        (2, vec!["8", "4x"], "LARGE_BYTES: `4x` is not a number"),
        (2, vec!["0"], "SMALL_BYTES: `0` is not a number"),
        (2, vec!["1024", "512"], "must exceed SMALL_BYTES"),
        (2, vec!["8", "1024", "-1"], "REPETITIONS"),
    ] {
        let mut args: Vec<OsString> = vec![profile.clone().into()];
        args.extend(extra.iter().map(OsString::from));
        let (code, stdout, stderr) = mpirun_args(&exe, np, t.path(), &args);
        assert_eq!(code, 2, "{extra:?}: {stdout}{}", tail(&stderr, 30));
        assert!(
            stderr.contains(want),
            "{extra:?}: want `{want}` in {}",
            tail(&stderr, 30)
        );
        assert!(!profile.exists(), "{extra:?}: a profile was written");
    }
}
