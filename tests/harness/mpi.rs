//! MPI under the real `mpirun` (Debian's Open MPI) for the examples of examples/mpi: the
//! tools, the C ABI's static library as the sources are now, the examples built with their
//! Makefile, and `mpirun --oversubscribe` runs with a time limit (tests/lab/mpi_*.rs).
//! Not a submodule of the harness, which the C ABI and plugin crates include too (their
//! manifest folder is not the workspace's): the `lab` binary declares it next to the
//! harness (`#[path = "../harness/mpi.rs"] mod mpi;`).

use crate::harness::wait_timeout;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The MPI tools on the PATH; fail loudly (never skip) when they are missing: CI installs
/// them with scripts/install-deps.sh.
pub fn require_mpi() {
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
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current executable");
    exe.ancestors()
        .nth(3)
        .expect("<target>/<profile>/deps/<exe>")
        .to_path_buf()
}

/// The newest modification time of the files under `dir` (recursively).
pub fn newest(dir: &Path) -> std::time::SystemTime {
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
pub fn ffi_static_lib() -> PathBuf {
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

/// Build examples/mpi/<prog>.c with its Makefile into `dir`.
pub fn compile_prog(dir: &Path, prog: &str) -> PathBuf {
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

/// Run `mpirun --oversubscribe -np <np> <exe> <args>` with its output in `dir`.
pub fn mpirun_args(exe: &Path, np: usize, dir: &Path, args: &[std::ffi::OsString]) -> (i32, String, String) {
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
