//! examples/mpi under the real `mpirun` (Debian's Open MPI): the all-to-all program reads
//! `lsft`, `lsft-partial` and `shift` schedules written by `ibfat schedule` for a small
//! LSFT with the C ABI's schedule-only path, maps its MPI rank to a schedule rank through
//! a mapping file, exchanges phase by phase with `MPI_Sendrecv` and checks every byte.
//! All processes run on this machine (`--oversubscribe`); the mapping file makes each one
//! stand for a different host of the fabric.

mod harness;

use harness::{build_plan, ibfat, tail, wait_timeout};
use ibfat::schedule::file::read_json;
use ibfat::schedule::Pattern;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Bytes every rank sends every other rank: not a power of two, so an off-by-some length
/// or offset shows.
const BYTES_PER_PAIR: usize = 1031;

/// The MPI tools on the PATH; fail loudly (never skip) when they are missing: CI installs
/// them with scripts/install-deps.sh.
fn require_mpi() {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let missing: Vec<&str> = ["mpicc", "mpirun"]
        .into_iter()
        .filter(|t| !std::env::split_paths(&path).any(|d| d.join(t).is_file()))
        .collect();
    assert!(
        missing.is_empty(),
        "examples/mpi needs {missing:?} on the PATH: run scripts/install-deps.sh (Debian packages \
         openmpi-bin libopenmpi-dev)"
    );
}

/// The target folder this test was built in (`<target>/<profile>/deps/<test>`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current executable");
    exe.ancestors()
        .nth(3)
        .expect("<target>/<profile>/deps/<exe>")
        .to_path_buf()
}

/// The newest modification time of the files under `dir` (recursively).
fn newest(dir: &Path) -> std::time::SystemTime {
    let mut t = std::time::SystemTime::UNIX_EPOCH;
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        let m = if p.is_dir() {
            newest(&p)
        } else {
            e.metadata().and_then(|m| m.modified()).unwrap_or(t)
        };
        t = t.max(m);
    }
    t
}

/// `libibfatc.a` as the sources are now. `cargo test --workspace` builds it next to this
/// test (the C ABI crate's own tests need it); when it is missing or older than a source
/// of the library or the C ABI, cargo builds it here, in this test's target folder and
/// profile, and says where it is.
fn ffi_static_lib() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let next_to_me = std::env::current_exe().unwrap().with_file_name("libibfatc.a");
    let sources = [
        root.join("src"),
        root.join("ffi/src"),
        root.join("ffi/Cargo.toml"),
        root.join("Cargo.toml"),
        root.join("Cargo.lock"),
    ]
    .iter()
    .map(|p| {
        if p.is_dir() {
            newest(p)
        } else {
            std::fs::metadata(p).and_then(|m| m.modified()).unwrap()
        }
    })
    .max()
    .unwrap();
    if std::fs::metadata(&next_to_me)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= sources)
    {
        return next_to_me;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(root)
        .args([
            "build",
            "-p",
            "ibfat-ffi",
            "--lib",
            "--profile",
            "test",
            "--message-format=json",
        ])
        .arg("--target-dir")
        .arg(target_dir())
        .stderr(Stdio::inherit())
        .output()
        .expect("run cargo");
    assert!(out.status.success(), "cargo build -p ibfat-ffi failed");
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "ibfatc")
        .flat_map(|m| m["filenames"].as_array().cloned().unwrap_or_default())
        .filter_map(|f| f.as_str().map(PathBuf::from))
        .find(|f| f.extension().is_some_and(|e| e == "a"))
        .expect("cargo reported no libibfatc.a")
}

/// Build examples/mpi/alltoall with its Makefile into `dir`.
fn compile(dir: &Path) -> PathBuf {
    compile_prog(dir, "alltoall")
}

/// Build examples/mpi/<prog>.c with its Makefile into `dir`.
fn compile_prog(dir: &Path, prog: &str) -> PathBuf {
    let lib = ffi_static_lib();
    let exe = dir.join(prog);
    let out = Command::new("make")
        .arg("-f")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/mpi/Makefile"))
        .arg(format!("PROG={prog}"))
        .arg(format!("IBFAT_LIB={}", lib.parent().unwrap().display()))
        .arg(format!("OUT={}", exe.display()))
        .output()
        .expect("run make");
    assert!(
        out.status.success(),
        "make examples/mpi: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
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

/// Run `mpirun --oversubscribe -np <np> <exe> <args>` with its output in `dir`.
fn mpirun_args(exe: &Path, np: usize, dir: &Path, args: &[std::ffi::OsString]) -> (i32, String, String) {
    let (so, se) = (dir.join("mpirun.out"), dir.join("mpirun.err"));
    // a session folder of its own for every run: Open MPI's default one under /tmp is
    // shared by every mpirun of the user, and one run's cleanup can remove it while the
    // next creates its own inside ("A call to mkdir was unable to create the desired
    // directory: /tmp/ompi.<host>.0/pid.N", seen once in the suite)
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let session = dir.join(format!(
        "ompi-session-{}",
        RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&session).unwrap();
    let mut child = Command::new("mpirun")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_orte_tmpdir_base", &session)
        .args(["--oversubscribe", "-np", &np.to_string()])
        .arg(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&so).unwrap())
        .stderr(std::fs::File::create(&se).unwrap())
        .process_group(0)
        .spawn()
        .expect("start mpirun");
    let status = wait_timeout(&mut child, Duration::from_secs(60));
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    let (stdout, stderr) = (read(&so), read(&se));
    let status = status.unwrap_or_else(|| panic!("mpirun -np {np} {args:?} ran over a minute: {stderr}"));
    (status.code().unwrap_or(-1), stdout, stderr)
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
