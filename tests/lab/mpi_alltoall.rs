//! examples/mpi under the real `mpirun` (Debian's Open MPI): the all-to-all program reads
//! `lsft`, `lsft-partial` and `shift` schedules written by `ibfat schedule` for a small
//! LSFT with the C ABI's schedule-only path, maps its MPI rank to a schedule rank through
//! a mapping file, exchanges phase by phase with `MPI_Sendrecv` and checks every byte.
//! All processes run on this machine (`--oversubscribe`); the mapping file makes each one
//! stand for a different host of the fabric.

use crate::harness::{build_plan, ibfat, tail};
use crate::mpi::{compile_prog, mpirun_args, require_mpi};
use ibfat::schedule::file::read_json;
use ibfat::schedule::Pattern;
use std::path::{Path, PathBuf};

/// Bytes every rank sends every other rank: not a power of two, so an off-by-some length
/// or offset shows.
const BYTES_PER_PAIR: usize = 1031;

/// Build examples/mpi/alltoall with its Makefile into `dir`.
fn compile(dir: &Path) -> PathBuf {
    compile_prog(dir, "alltoall")
}

/// Run `mpirun --oversubscribe -np <np> alltoall <schedule> <mapping> BYTES_PER_PAIR`;
/// (exit code, stdout, stderr). A run over a minute is killed and fails the test.
fn mpirun(exe: &Path, np: usize, schedule: &Path, mapping: &Path) -> (i32, String, String) {
    let args = [
        schedule.as_os_str().to_owned(),
        mapping.as_os_str().to_owned(),
        BYTES_PER_PAIR.to_string().into(),
    ];
    mpirun_args(exe, np, schedule.parent().unwrap(), &args)
}

/// Write `ibfat schedule <plan> <args> --out <out>`; the phases its report states.
fn schedule(plan: &Path, args: &[&str], out: &Path) -> usize {
    let mut full = vec!["schedule", plan.to_str().unwrap()];
    full.extend(args);
    full.extend(["--out", out.to_str().unwrap(), "--json"]);
    let (code, stdout, stderr) = ibfat(&full);
    assert_eq!(code, 0, "{full:?}: {stdout}{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    report["phases"].as_u64().expect("phases in the report") as usize
}

/// The mapping file: MPI rank i stands for the schedule's host (5i + 3) mod n, so MPI
/// ranks and schedule ranks differ and only the mapping can pair them.
fn write_mapping(schedule: &Path, out: &Path) {
    let (sched, _) = read_json(schedule, None).unwrap();
    let n = sched.hosts.len();
    assert!(n % 5 != 0, "5 must be invertible mod {n}");
    let mut text = format!("# MPI_RANK PORT_GUID, for {}\n", schedule.display());
    for i in 0..n {
        text += &format!("{i} 0x{:016x}\n", sched.hosts[(5 * i + 3) % n]);
    }
    std::fs::write(out, text).unwrap();
}

#[test]
fn alltoall_follows_lsft_lsft_partial_and_shift_schedules_under_mpirun() {
    require_mpi();
    let t = tempfile::tempdir().unwrap();
    let exe = compile(t.path());
    // LSFT(2): 21 hosts, 7 leaves of 3
    let plan = t.path().join("lsft2");
    build_plan(&["build", "lsft", "--order", "2"], &plan);
    for np in [8usize, 12] {
        let last = format!("ranks:0-{}", np - 1);
        let size = np.to_string();
        let cases: [(&str, Vec<&str>); 3] = [
            ("lsft", vec!["--pattern", "lsft", "--job", &last]),
            ("lsft-partial", vec!["--pattern", "lsft-partial", "--job-size", &size]),
            ("shift", vec!["--pattern", "shift", "--job", &last]),
        ];
        for (name, args) in cases {
            let dir = t.path().join(format!("{name}-{np}"));
            std::fs::create_dir(&dir).unwrap();
            let sched = dir.join("a2a.json");
            let phases = schedule(&plan, &args, &sched);
            let (file, _) = read_json(&sched, None).unwrap();
            assert_eq!((file.ranks(), file.phases()), (np, phases), "{name} -np {np}");
            let mapping = dir.join("mapping.txt");
            write_mapping(&sched, &mapping);
            let (code, stdout, stderr) = mpirun(&exe, np, &sched, &mapping);
            let pairs = np * (np - 1);
            let want = format!(
                "ibfat-mpi-alltoall: ranks={np} phases={phases} pairs={pairs} bytes_verified={} errors=0",
                pairs * BYTES_PER_PAIR
            );
            assert_eq!(code, 0, "{name} -np {np}: {stdout}{}", tail(&stderr, 30));
            assert_eq!(stdout.trim(), want, "{name} -np {np}: {}", tail(&stderr, 30));
        }
    }
}

#[test]
fn a_mapping_to_a_host_outside_the_schedule_and_an_incomplete_schedule_fail() {
    require_mpi();
    let t = tempfile::tempdir().unwrap();
    let exe = compile(t.path());
    let plan = t.path().join("lsft2");
    build_plan(&["build", "lsft", "--order", "2"], &plan);
    let sched = t.path().join("shift.json");
    schedule(&plan, &["--pattern", "shift", "--job", "ranks:0-7"], &sched);
    // fabric host 20 is a real host, but not one of the job's eight
    let outside = t.path().join("outside.json");
    schedule(&plan, &["--pattern", "shift", "--job", "ranks:20"], &outside);
    let (other, _) = read_json(&outside, None).unwrap();
    let stranger = format!("0x{:016x}", other.hosts[0]);
    let mapping = t.path().join("mapping.txt");
    write_mapping(&sched, &mapping);
    let text = std::fs::read_to_string(&mapping).unwrap();
    let bad = t.path().join("bad-mapping.txt");
    let line4 = text.lines().nth(4).unwrap(); // comment, then MPI ranks 0, 1, 2, 3
    assert!(line4.starts_with("3 "), "{text}");
    std::fs::write(&bad, text.replace(line4, &format!("3 {stranger}"))).unwrap();
    let (code, stdout, stderr) = mpirun(&exe, 8, &sched, &bad);
    assert_ne!(code, 0, "{stdout}{stderr}");
    let want = format!(
        "{}:5: MPI rank 3: host {stranger} is not in the schedule {}",
        bad.display(),
        sched.display()
    );
    assert!(stderr.contains(&want), "want `{want}` in: {}", tail(&stderr, 30));
    assert!(!stdout.contains("ibfat-mpi-alltoall"), "{stdout}");

    // a ring's phases are not an all-to-all: every pair but the neighbours' is missing
    let ring = t.path().join("ring.json");
    schedule(&plan, &["--pattern", "ring", "--job", "ranks:0-7"], &ring);
    let (code, stdout, stderr) = mpirun(&exe, 8, &ring, &mapping);
    assert_eq!(code, 1, "{stdout}{}", tail(&stderr, 30));
    assert!(
        stdout.contains("ibfat-mpi-alltoall: ranks=8 phases=7 pairs=0"),
        "{stdout}"
    );
    assert!(stderr.contains("expected once"), "{}", tail(&stderr, 30));
}

/// The run-time selector client (issue 13 item 6): on a two-level fat-tree (4 leaves of
/// 8 hosts, 4 uplinks each), two placements of 8 ranks — one uplink per rank, and all of
/// a leaf's ranks behind one uplink — and two message sizes; every call's bytes are
/// checked, the selector learns over ibfat's predicted shortlist and names its choice.
#[test]
fn alltoall_select_learns_over_the_predicted_shortlist_under_mpirun() {
    require_mpi();
    let t = tempfile::tempdir().unwrap();
    let exe = compile_prog(t.path(), "alltoall_select");
    let spec = t.path().join("fabric.yaml");
    std::fs::write(
        &spec,
        "family: twolevel\nleaves: 4\nhosts_per_leaf: 8\nspines: 2\nlinks_per_pair: 2\n",
    )
    .unwrap();
    let calls = 24; // at most 10 candidates × K = 2 learning calls, then monitoring
    for (placement, job) in [
        ("spread", "ranks:0,1,8,9,16,17,24,25"),
        ("shared", "ranks:0,4,8,12,16,20,24,28"),
    ] {
        for bytes in [1024usize, 65536] {
            let dir = t.path().join(format!("{placement}-{bytes}"));
            std::fs::create_dir(&dir).unwrap();
            let args: Vec<std::ffi::OsString> = vec![
                spec.as_os_str().to_owned(),
                job.into(),
                bytes.to_string().into(),
                calls.to_string().into(),
                // oversubscribed processes time noisily: no re-learning in this test
                "1000".into(),
            ];
            let (code, stdout, stderr) = mpirun_args(&exe, 8, &dir, &args);
            assert_eq!(code, 0, "{placement} {bytes}: {stdout}{}", tail(&stderr, 30));
            let line = stdout.trim();
            let want = format!("bytes_verified={} errors=0", calls * 8 * 7 * bytes);
            assert!(line.starts_with("ibfat-mpi-select: ranks=8 "), "{line}");
            assert!(line.ends_with(&want), "{placement} {bytes}: {line}");
            let field = |k: &str| {
                line.split_whitespace()
                    .find_map(|w| w.strip_prefix(&format!("{k}=")))
                    .unwrap_or_default()
                    .to_string()
            };
            let shortlist: Vec<String> = field("shortlist").split(',').map(String::from).collect();
            let chosen = field("chosen");
            assert!(shortlist.contains(&chosen), "{placement} {bytes}: {line}");
            let learning: usize = field("learning_calls").parse().unwrap();
            assert_eq!(learning, 2 * shortlist.len(), "{line}");
        }
    }
}
