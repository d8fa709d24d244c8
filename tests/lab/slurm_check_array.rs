//! Slurm, for real: `scripts/slurm/check-array.sbatch` submitted with `sbatch --wait` as
//! an array job to a private single-node Slurm (Debian's munged, slurmctld and slurmd,
//! started and configured here on localhost), its shards merged with `ibfat check merge`,
//! give exactly the unsharded report. A dry run checks the script's own argument checks
//! and runs its tasks by hand, so the script stays tested without Slurm.
//!
//! The private Slurm is `tests/harness/slurm.rs` (what it encodes is written there).
//! `sbatch --wait` polls: an array of 4 short tasks takes about 10 s.

use crate::harness::slurm::{log_file, Slurm};
use crate::harness::{build_plan, ibfat, ibfat_bin, wait_timeout};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/slurm/check-array.sbatch");

/// A 64-host 4-ary 3-tree with ibfat's tables and LIDs; the `check` arguments of a
/// random pattern on it (random permutations conflict on a tree: exit 1, worst links).
fn plan_with_tables(dir: &Path) -> Vec<String> {
    let plan = dir.join("k4");
    let p = plan.to_str().unwrap();
    build_plan(&["build", "kary", "--arity", "4", "--levels", "3"], &plan);
    let (c, o, e) = ibfat(&["route", p, "--out", p]);
    assert_eq!(c, 0, "{o}{e}");
    let s = |f: &str| plan.join(f).to_str().unwrap().to_string();
    [
        p,
        "--lfts",
        &s("opensm-lfts.dump"),
        "--lids",
        &s("guid2lid"),
        "--pattern",
        "random",
        "--seed",
        "11",
    ]
    .map(String::from)
    .to_vec()
}

/// `ibfat check merge` of the shard files against the unsharded `ibfat check`, with and
/// without the per-link loads: same exit code, same report in every field.
fn assert_merge_equals_unsharded(check: &[String], shards: &[PathBuf]) {
    let shard_args: Vec<&str> = shards.iter().map(|p| p.to_str().unwrap()).collect();
    for links in [&[][..], &["--links"][..]] {
        let mut args: Vec<&str> = vec!["check"];
        args.extend(check.iter().map(String::as_str));
        args.push("--json");
        args.extend_from_slice(links);
        let (c_whole, out, e) = ibfat(&args);
        assert_eq!(c_whole, 1, "random permutations conflict on a tree: {e}");
        let whole: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));

        let mut args = vec!["check", "merge", "--json"];
        args.extend_from_slice(links);
        args.extend_from_slice(&shard_args);
        let (c_merged, out, e) = ibfat(&args);
        assert_eq!(c_merged, c_whole, "merge exit code: {e}");
        let merged: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
        assert_eq!(merged["partial"], false);
        assert_eq!(merged, whole, "merged {links:?} report, every field");
    }
}

/// Each shard file: a shard of `count`, index `i` (the array task that wrote it).
fn assert_shards(shards: &[PathBuf]) {
    for (i, f) in shards.iter().enumerate() {
        let text = fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let shard: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(shard["schema"], "ibfat.check-shard/3", "{}", f.display());
        assert_eq!(
            (shard["shard"].as_u64(), shard["shards"].as_u64()),
            (Some(i as u64), Some(shards.len() as u64)),
            "{}",
            f.display()
        );
    }
}

#[test]
fn array_job_on_a_private_slurm_merges_into_the_unsharded_report() {
    let started = Instant::now();
    let slurm = Slurm::start();
    let check = plan_with_tables(slurm.path());
    let out = slurm.path().join("shards");
    let sbatch_log = slurm.path().join("sbatch.out");
    let mut sbatch = slurm.client("sbatch");
    sbatch
        .args(["--wait", "--array=0-3", "--time=5", "--job-name=ibfat-test"])
        .arg(format!("--output={}/job-%A_%a.out", slurm.path().display()))
        .arg(format!("--chdir={}", slurm.path().display()))
        .arg(SCRIPT)
        .arg(&check[0])
        .arg(&out)
        .args(&check[1..])
        .env("IBFAT", ibfat_bin())
        .stdin(Stdio::null())
        .stdout(log_file(slurm.path(), "sbatch.out"))
        .stderr(log_file(slurm.path(), "sbatch.out"));
    let mut child = sbatch.spawn().expect("start sbatch");
    let status = wait_timeout(&mut child, Duration::from_secs(45));
    let said = fs::read_to_string(&sbatch_log).unwrap_or_default();
    assert!(
        status.is_some_and(|s| s.success()),
        "sbatch --wait ({status:?}): {said}\n{}",
        slurm.logs()
    );
    let job = said
        .split_whitespace()
        .last()
        .filter(|id| id.chars().all(|c| c.is_ascii_digit()))
        .unwrap_or_else(|| panic!("no job id in {said:?}"));

    // each task ran under Slurm as shard i of 4 (its own output file says so)
    for i in 0..4 {
        let f = slurm.path().join(format!("job-{job}_{i}.out"));
        let text = fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}\n{}", f.display(), slurm.logs()));
        assert!(text.contains(&format!("shard {i}/4 on ")), "{}: {text}", f.display());
    }
    let shards: Vec<PathBuf> = (0..4).map(|i| out.join(format!("shard-{i}.json"))).collect();
    assert_shards(&shards);
    assert_merge_equals_unsharded(&check, &shards);
    eprintln!("Slurm array job test: {:.1} s", started.elapsed().as_secs_f64());
}

/// The script run with bash by hand, the array variables set as Slurm would.
fn script<S: AsRef<std::ffi::OsStr>>(args: &[S], env: &[(&str, &str)]) -> (i32, String) {
    let mut c = Command::new("bash");
    c.arg(SCRIPT).args(args);
    for (k, _) in std::env::vars() {
        if k.starts_with("SLURM_") || k.starts_with("IBFAT") {
            c.env_remove(k);
        }
    }
    c.envs(env.iter().copied());
    let out = c.output().expect("run bash");
    let mut said = String::from_utf8_lossy(&out.stdout).into_owned();
    said.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), said)
}

#[test]
fn sbatch_script_dry_run_checks_its_parameters_and_writes_mergeable_shards() {
    let dir = tempfile::tempdir().unwrap();
    let check = plan_with_tables(dir.path());
    let outdir = dir.path().join("out");
    let (top, out) = (check[0].as_str(), outdir.to_str().unwrap());
    let rest: Vec<&str> = check[1..].iter().map(String::as_str).collect();
    let bin = ibfat_bin();
    let ibfat = bin.to_str().unwrap();
    let task = |i: &'static str| [("SLURM_ARRAY_TASK_ID", i), ("SLURM_ARRAY_TASK_COUNT", "4")];
    let with = |extra: &[&str]| -> Vec<String> { [top, out].iter().chain(extra).map(|s| s.to_string()).collect() };

    // missing parameters: exit 2, the message names what is missing, nothing written
    /// Arguments, environment, what the message must say.
    type Refused<'a> = (Vec<String>, Vec<(&'a str, &'a str)>, &'a str);
    let refused: Vec<Refused> = vec![
        (vec![], vec![], "no TOPOLOGY"),
        (vec![top.to_string()], vec![], "no OUTDIR"),
        (with(&["--seed", "1"]), vec![], "no pattern"),
        (
            with(&rest),
            vec![],
            "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT not set",
        ),
        (
            with(&rest),
            vec![("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_COUNT", "4")],
            "--array=0-3",
        ),
        (
            with(&rest),
            vec![
                ("SLURM_ARRAY_TASK_ID", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
            ],
            "--array=0-3",
        ),
        (
            with(&["--pattern", "shift", "--shard", "0/2"]),
            task("0").to_vec(),
            "set by this script",
        ),
    ];
    for (args, env, needle) in &refused {
        let (code, said) = script(args, env);
        assert_eq!(code, 2, "{args:?} {env:?}: {said}");
        assert!(
            said.contains("check-array.sbatch: error:") && said.contains(needle),
            "{args:?}: {said}"
        );
    }
    // environment instead of arguments; the missing one is still named
    let (code, said) = script::<&str>(&[], &[("IBFAT_TOPOLOGY", top)]);
    assert_eq!((code, said.contains("no OUTDIR")), (2, true), "{said}");
    assert!(!outdir.exists(), "nothing written for refused parameters");

    // ibfat not found: exit 3, the package named
    let mut env = task("0").to_vec();
    env.push(("IBFAT", "/nonexistent/ibfat"));
    let (code, said) = script(&with(&rest), &env);
    assert_eq!(code, 3, "{said}");
    assert!(said.contains("install the ibfat package"), "{said}");

    // the four tasks by hand: exit 0 although the pattern conflicts (the shard records
    // it), and the merge equals the unsharded check; task 1 takes --lfts, --lids and
    // --pattern from the environment
    for i in ["0", "1", "2", "3"] {
        let mut env = task(i).to_vec();
        env.push(("IBFAT", ibfat));
        let (code, said) = if i == "1" {
            env.extend([
                ("IBFAT_LFTS", rest[1]),
                ("IBFAT_LIDS", rest[3]),
                ("IBFAT_PATTERN", "random"),
            ]);
            script(&with(&["--seed", "11"]), &env)
        } else {
            script(&with(&rest), &env)
        };
        assert_eq!(code, 0, "task {i}: {said}");
        assert!(said.contains(&format!("shard {i}/4 on ")), "{said}");
    }
    let shards: Vec<PathBuf> = (0..4).map(|i| outdir.join(format!("shard-{i}.json"))).collect();
    assert_shards(&shards);
    assert_merge_equals_unsharded(&check, &shards);

    // everything from the environment: a one-task array
    let alone = dir.path().join("alone");
    let env = [
        ("SLURM_ARRAY_TASK_ID", "0"),
        ("SLURM_ARRAY_TASK_COUNT", "1"),
        ("IBFAT", ibfat),
        ("IBFAT_TOPOLOGY", top),
        ("IBFAT_OUTDIR", alone.to_str().unwrap()),
        ("IBFAT_PATTERN", "shift"),
    ];
    let (code, said) = script::<&str>(&[], &env);
    assert_eq!(code, 0, "{said}");
    let shard: Value = serde_json::from_str(&fs::read_to_string(alone.join("shard-0.json")).unwrap()).unwrap();
    assert_eq!(
        (shard["shards"].as_u64(), shard["pattern"]["name"].as_str()),
        (Some(1), Some("shift")),
        "{shard}"
    );
}
