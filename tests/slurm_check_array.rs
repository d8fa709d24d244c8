//! Slurm, for real: `scripts/slurm/check-array.sbatch` submitted with `sbatch --wait` as
//! an array job to a private single-node Slurm (Debian's munged, slurmctld and slurmd,
//! started and configured here on localhost), its shards merged with `ibfat check merge`,
//! give exactly the unsharded report. A dry run checks the script's own argument checks
//! and runs its tasks by hand, so the script stays tested without Slurm.
//!
//! Facts this encodes (verified on Debian 12: Slurm 22.05.8, MUNGE 0.5.15, as root, no
//! systemd):
//! * munged refuses to run unless its key is owned by its user and not readable by
//!   others, and needs every folder above its socket searchable by all: the lab folder
//!   is 0711 and munged's own folder (key, socket, pid, log, seed) belongs to `munge`;
//! * every Slurm program finds that munged through `AuthInfo=socket=...` in slurm.conf
//!   (used by auth/munge and cred/munge), and finds slurm.conf through `SLURM_CONF`;
//! * with `ReturnToService=2` the node is `idle` as soon as slurmd registers;
//! * `sbatch --wait` polls: an array of 4 short tasks takes about 10 s.

mod harness;

use harness::{build_plan, ibfat, ibfat_bin, tail, wait_timeout, wait_until, Background};
use serde_json::Value;
use std::fs;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What `scripts/install-deps.sh` installs for this test.
const PACKAGES: &str = "slurmctld slurmd slurm-client munge";
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/slurm/check-array.sbatch");

/// A program on PATH or in the sbin folders (where Debian puts the daemons).
fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/bin", "/sbin"].map(PathBuf::from))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Leave out the caller's Slurm variables (`SLURM_*`, and `SBATCH_*` which sbatch reads as
/// options): a test run inside a Slurm job must still talk to its own Slurm only.
fn without_outer_slurm(c: &mut Command) -> &mut Command {
    for (k, _) in std::env::vars_os() {
        let k = k.to_string_lossy();
        if k.starts_with("SLURM_") || k.starts_with("SBATCH_") {
            c.env_remove(&*k);
        }
    }
    c
}

/// Output of a short command that must succeed (trimmed stdout).
fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A TCP port nobody listens on now (the OS's choice), so the lab's Slurm never meets a
/// site's Slurm on the default ports 6817/6818 or another copy of this test.
fn free_port(taken: &[u16]) -> u16 {
    loop {
        let l = std::net::TcpListener::bind("0.0.0.0:0").expect("bind a free port");
        let port = l.local_addr().unwrap().port();
        if !taken.contains(&port) {
            return port;
        }
    }
}

/// The short host name, as slurmd and `SlurmctldHost` use it.
fn short_hostname() -> String {
    let full = fs::read_to_string("/proc/sys/kernel/hostname").expect("/proc/sys/kernel/hostname");
    full.trim().split('.').next().unwrap_or_default().to_string()
}

/// Memory for `RealMemory`: 80% of MemTotal in MiB (more than the node has drains it).
fn real_memory_mib() -> u64 {
    let info = fs::read_to_string("/proc/meminfo").expect("/proc/meminfo");
    let kib: u64 = info
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("MemTotal in /proc/meminfo");
    kib / 1024 * 8 / 10
}

/// A private single-node Slurm in a temporary folder. Fields drop in order: slurmd,
/// slurmctld, munged (each stopped by its PID's process group), then the folder.
struct Slurm {
    slurmd: Background,
    slurmctld: Background,
    munged: Background,
    host: String,
    conf: PathBuf,
    dir: tempfile::TempDir,
}

impl Slurm {
    /// Start munged, slurmctld and slurmd; return when the node is idle.
    fn start() -> Slurm {
        let programs = ["munged", "munge", "slurmctld", "slurmd", "sbatch", "sinfo"];
        let missing: Vec<&str> = programs.into_iter().filter(|p| find_program(p).is_none()).collect();
        assert!(
            missing.is_empty(),
            "Slurm is not installed (missing {missing:?}): apt-get install {PACKAGES} \
             (scripts/install-deps.sh does)"
        );
        let uid = run_ok(Command::new("id").arg("-u"));
        assert_eq!(
            uid, "0",
            "the Slurm test needs root: munged must run as user munge and slurmd as root \
             to start jobs (CI runs the tests as root)"
        );
        let munge_uid: u32 = run_ok(Command::new("id").args(["-u", "munge"])).parse().unwrap();
        let munge_gid: u32 = run_ok(Command::new("id").args(["-g", "munge"])).parse().unwrap();

        let dir = tempfile::Builder::new()
            .prefix("ibfat-slurm-")
            .tempdir()
            .expect("temp dir");
        let d = dir.path();
        // munged, running as munge, must reach its own folder through this one
        fs::set_permissions(d, fs::Permissions::from_mode(0o711)).unwrap();
        let m = d.join("munge");
        fs::create_dir(&m).unwrap();
        let key = m.join("munge.key");
        let mut bytes = vec![0u8; 1024];
        std::io::Read::read_exact(&mut fs::File::open("/dev/urandom").unwrap(), &mut bytes).unwrap();
        // readable by its owner only from the start (munged refuses any other key)
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o400)
            .open(&key)
            .unwrap();
        std::io::Write::write_all(&mut f, &bytes).unwrap();
        drop(f);
        for p in [&key, &m] {
            std::os::unix::fs::chown(p, Some(munge_uid), Some(munge_gid)).unwrap();
        }
        fs::set_permissions(&m, fs::Permissions::from_mode(0o711)).unwrap();
        let socket = m.join("munge.socket");
        let arg = |flag: &str, p: &Path| format!("--{flag}={}", p.display());
        let mut munged = Background::spawn(
            "munged",
            Command::new(find_program("munged").unwrap())
                .arg("--foreground")
                .arg(arg("socket", &socket))
                .arg(arg("key-file", &key))
                .arg(arg("pid-file", &m.join("munged.pid")))
                .arg(arg("log-file", &m.join("munged.log")))
                .arg(arg("seed-file", &m.join("munged.seed")))
                .uid(munge_uid)
                .gid(munge_gid)
                .stdin(Stdio::null())
                .stdout(log_file(d, "munged.out"))
                .stderr(log_file(d, "munged.out")),
        );
        let up = wait_until(Duration::from_secs(15), || {
            munged.exited().is_none()
                && socket.exists()
                && Command::new(find_program("munge").unwrap())
                    .arg("--no-input")
                    .arg(arg("socket", &socket))
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success())
        });
        assert!(up, "munged did not come up:\n{}", logs(d));

        let host = short_hostname();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let ctld_port = free_port(&[]);
        let d_port = free_port(&[ctld_port]);
        let p = |name: &str| d.join(name).display().to_string();
        for sub in ["state", "spool"] {
            fs::create_dir(d.join(sub)).unwrap();
        }
        let conf_text = format!(
            "# a private single-node Slurm for ibfat's tests (tests/slurm_check_array.rs)\n\
             ClusterName=ibfattest\n\
             SlurmctldHost={host}\n\
             SlurmctldPort={ctld_port}\n\
             SlurmdPort={d_port}\n\
             AuthType=auth/munge\n\
             CredType=cred/munge\n\
             AuthInfo=socket={socket}\n\
             SlurmUser=root\n\
             SlurmctldPidFile={ctld_pid}\n\
             SlurmdPidFile={d_pid}\n\
             StateSaveLocation={state}\n\
             SlurmdSpoolDir={spool}\n\
             SlurmctldLogFile={ctld_log}\n\
             SlurmdLogFile={d_log}\n\
             ProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\n\
             JobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\n\
             JobCompType=jobcomp/none\n\
             MpiDefault=none\n\
             MailProg=/bin/true\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_Core\n\
             ReturnToService=2\n\
             NodeName={host} CPUs={cpus} RealMemory={mem} State=UNKNOWN\n\
             PartitionName=ibfat Nodes={host} Default=YES MaxTime=10 State=UP\n",
            socket = socket.display(),
            ctld_pid = p("slurmctld.pid"),
            d_pid = p("slurmd.pid"),
            state = p("state"),
            spool = p("spool"),
            ctld_log = p("slurmctld.log"),
            d_log = p("slurmd.log"),
            mem = real_memory_mib(),
        );
        let conf = d.join("slurm.conf");
        fs::write(&conf, conf_text).unwrap();

        let daemon = |name: &str| {
            let mut c = Command::new(find_program(name).unwrap());
            without_outer_slurm(&mut c)
                .arg("-D")
                .env("SLURM_CONF", &conf)
                .current_dir(d)
                .stdin(Stdio::null())
                .stdout(log_file(d, &format!("{name}.out")))
                .stderr(log_file(d, &format!("{name}.out")));
            c
        };
        let mut slurmctld = Background::spawn("slurmctld", &mut daemon("slurmctld"));
        let mut slurmd = Background::spawn("slurmd", daemon("slurmd").arg("-N").arg(&host));
        let mut state = String::new();
        let idle = wait_until(Duration::from_secs(30), || {
            if slurmctld.exited().is_some() || slurmd.exited().is_some() {
                return true;
            }
            let out = without_outer_slurm(&mut Command::new(find_program("sinfo").unwrap()))
                .args(["--noheader", "--Node", "--format=%t"])
                .env("SLURM_CONF", &conf)
                .output();
            state = out
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
                .unwrap_or_default();
            state == "idle"
        });
        for daemon in [&mut slurmctld, &mut slurmd] {
            if let Some(st) = daemon.exited() {
                panic!("{} exited ({st}):\n{}", daemon.name(), logs(d));
            }
        }
        assert!(idle, "node {host} not idle after 30 s (sinfo: {state:?}):\n{}", logs(d));
        Slurm {
            slurmd,
            slurmctld,
            munged,
            host,
            conf,
            dir,
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A Slurm client command (sbatch, sinfo ...) talking to this Slurm.
    fn client(&self, program: &str) -> Command {
        let mut c =
            Command::new(find_program(program).unwrap_or_else(|| panic!("{program}: apt-get install {PACKAGES}")));
        without_outer_slurm(&mut c)
            .env("SLURM_CONF", &self.conf)
            .current_dir(self.path());
        c
    }

    /// The daemons' logs and PIDs, for failure messages.
    fn logs(&self) -> String {
        format!(
            "munged {}, slurmctld {}, slurmd {} on {}\n{}",
            self.munged.pid(),
            self.slurmctld.pid(),
            self.slurmd.pid(),
            self.host,
            logs(self.path())
        )
    }
}

/// An append-mode log file in the lab folder (two handles may share it).
fn log_file(dir: &Path, name: &str) -> fs::File {
    fs::File::options()
        .create(true)
        .append(true)
        .open(dir.join(name))
        .unwrap()
}

/// The tails of every log in the lab folder (and munged's own).
fn logs(dir: &Path) -> String {
    let mut names: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .chain(fs::read_dir(dir.join("munge")).into_iter().flatten())
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "log" || x == "out"))
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| {
            let text = fs::read_to_string(p).unwrap_or_default();
            format!("--- {}\n{}\n", p.display(), tail(&text, 25))
        })
        .collect()
}

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
        assert_eq!(shard["schema"], "ibfat.check-shard/2", "{}", f.display());
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
