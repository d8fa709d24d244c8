//! A private Slurm for tests: Debian's munged, slurmctld and (optionally) slurmd, started
//! in a temporary folder with their own socket, ports, config, spool and logs, stopped by
//! PID when dropped (also when the test fails). Used by the array-job test and the
//! topology.conf test.
//!
//! Facts this encodes (verified on Debian 12: Slurm 22.05.8, MUNGE 0.5.15, as root, no
//! systemd):
//! * munged refuses to run unless its key is owned by its user and not readable by
//!   others, and needs every folder above its socket searchable by all: the lab folder
//!   is 0711 and munged's own folder (key, socket, pid, log, seed) belongs to `munge`;
//! * every Slurm program finds that munged through `AuthInfo=socket=...` in slurm.conf
//!   (used by auth/munge and cred/munge), and finds slurm.conf through `SLURM_CONF`;
//! * with `ReturnToService=2` the node is `idle` as soon as slurmd registers.

use super::{tail, wait_until, Background};
use std::fs;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// What a lab runs besides munged and slurmctld.
#[derive(Default)]
pub struct Options {
    /// Start slurmd for this machine and wait until its node is idle (to run jobs).
    pub slurmd: bool,
    /// Lines added to slurm.conf (plugins, more nodes).
    pub extra_conf: String,
    /// Files written into the lab folder before slurmctld starts (name, text), such as
    /// topology.conf beside slurm.conf.
    pub files: Vec<(String, String)>,
}

/// What `scripts/install-deps.sh` installs for this test.
pub const PACKAGES: &str = "slurmctld slurmd slurm-client munge";

/// A program on PATH or in the sbin folders (where Debian puts the daemons).
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/bin", "/sbin"].map(PathBuf::from))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Leave out the caller's Slurm variables (`SLURM_*`, and `SBATCH_*` which sbatch reads as
/// options): a test run inside a Slurm job must still talk to its own Slurm only.
pub fn without_outer_slurm(c: &mut Command) -> &mut Command {
    for (k, _) in std::env::vars_os() {
        let k = k.to_string_lossy();
        if k.starts_with("SLURM_") || k.starts_with("SBATCH_") {
            c.env_remove(&*k);
        }
    }
    c
}

/// Output of a short command that must succeed (trimmed stdout).
pub fn run_ok(cmd: &mut Command) -> String {
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
pub fn free_port(taken: &[u16]) -> u16 {
    loop {
        let l = std::net::TcpListener::bind("0.0.0.0:0").expect("bind a free port");
        let port = l.local_addr().unwrap().port();
        if !taken.contains(&port) {
            return port;
        }
    }
}

/// The short host name, as slurmd and `SlurmctldHost` use it.
pub fn short_hostname() -> String {
    let full = fs::read_to_string("/proc/sys/kernel/hostname").expect("/proc/sys/kernel/hostname");
    full.trim().split('.').next().unwrap_or_default().to_string()
}

/// Memory for `RealMemory`: 80% of MemTotal in MiB (more than the node has drains it).
pub fn real_memory_mib() -> u64 {
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
pub struct Slurm {
    slurmd: Option<Background>,
    slurmctld: Background,
    munged: Background,
    host: String,
    conf: PathBuf,
    dir: tempfile::TempDir,
}

impl Slurm {
    /// Start munged, slurmctld and slurmd; return when the node is idle.
    pub fn start() -> Slurm {
        Slurm::start_with(Options {
            slurmd: true,
            ..Options::default()
        })
    }

    /// Start munged and slurmctld, and slurmd when asked (then wait until its node is
    /// idle); without slurmd, return when slurmctld answers `scontrol ping`.
    pub fn start_with(opts: Options) -> Slurm {
        let programs = ["munged", "munge", "slurmctld", "slurmd", "sbatch", "sinfo", "scontrol"];
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
            "# a private single-node Slurm for ibfat's tests (tests/lab/slurm_check_array.rs)\n\
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
             PartitionName=ibfat Nodes={host} Default=YES MaxTime=10 State=UP\n{extra}",
            extra = opts.extra_conf,
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
        for (name, text) in &opts.files {
            fs::write(d.join(name), text).unwrap();
        }

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
        if !opts.slurmd {
            let up = wait_until(Duration::from_secs(30), || {
                slurmctld.exited().is_some()
                    || without_outer_slurm(&mut Command::new(find_program("scontrol").unwrap()))
                        .arg("ping")
                        .env("SLURM_CONF", &conf)
                        .output()
                        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("is UP"))
            });
            if let Some(st) = slurmctld.exited() {
                panic!("slurmctld exited ({st}):\n{}", logs(d));
            }
            assert!(up, "slurmctld not up after 30 s:\n{}", logs(d));
            return Slurm {
                slurmd: None,
                slurmctld,
                munged,
                host,
                conf,
                dir,
            };
        }
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
            slurmd: Some(slurmd),
            slurmctld,
            munged,
            host,
            conf,
            dir,
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A Slurm client command (sbatch, sinfo ...) talking to this Slurm.
    pub fn client(&self, program: &str) -> Command {
        let mut c =
            Command::new(find_program(program).unwrap_or_else(|| panic!("{program}: apt-get install {PACKAGES}")));
        without_outer_slurm(&mut c)
            .env("SLURM_CONF", &self.conf)
            .current_dir(self.path());
        c
    }

    /// The daemons' logs and PIDs, for failure messages.
    pub fn logs(&self) -> String {
        format!(
            "munged {}, slurmctld {}, slurmd {:?} on {}\n{}",
            self.munged.pid(),
            self.slurmctld.pid(),
            self.slurmd.as_ref().map(Background::pid),
            self.host,
            logs(self.path())
        )
    }
}

/// An append-mode log file in the lab folder (two handles may share it).
pub fn log_file(dir: &Path, name: &str) -> fs::File {
    fs::File::options()
        .create(true)
        .append(true)
        .open(dir.join(name))
        .unwrap()
}

/// The tails of every log in the lab folder (and munged's own).
pub fn logs(dir: &Path) -> String {
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
