//! The project's own lab: run the real `ibsim`, `opensm`, `ibnetdiscover` and
//! `dump_lfts` on a simulated fabric, with no InfiniBand hardware.
//!
//! Every lab lives in its own temporary folder with its own ibsim socket name, so tests
//! run in parallel. Processes are started in their own process group, recorded by PID
//! and stopped by PID (SIGTERM, then SIGKILL) when the lab is dropped. Facts this
//! encodes (verified on Debian 12, OpenSM 3.3.23, ibsim 0.10, infiniband-diags 44):
//! * clients need `LD_PRELOAD=libumad2sim.so` and the same `IBSIM_SOCKNAME`; each one
//!   creates `./sys-<pid>/` in its working folder, so they run inside the lab folder;
//! * ibsim reads console commands from stdin and spins at EOF, so its stdin is a FIFO
//!   opened read-write (never EOF); replies go to its log;
//! * ibsim serves at most 10 clients and a client killed by a signal leaks its slot, so
//!   tools get generous time limits and the whole lab is torn down on failure;
//! * `opensm -o` exits 0 even when it fell back to another engine: check the log line
//!   `<engine> tables configured on all switches`;
//! * `opensm-lfts.dump` is written only with the ROUTING log bit (`-D 0x43`).
#![allow(dead_code)]

mod degraded;
mod lanes;
pub mod mcast;
mod opensm;
pub mod osmlog;
pub mod slurm;

// not every test binary uses every part of the lab
#[allow(unused_imports)]
pub use degraded::*;
#[allow(unused_imports)]
pub use opensm::*;

use ibfat::topology::{Fabric, NodeId, NodeKind};
use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

pub const UMAD2SIM: &str = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";

/// Fail loudly (never skip) when the lab packages are missing: a test that cannot run
/// the real components must not pass.
pub fn require_tools() {
    let missing: Vec<&str> = ["ibsim", "opensm", "ibnetdiscover", "dump_lfts"]
        .into_iter()
        .filter(|t| !Path::new("/usr/bin").join(t).exists() && !Path::new("/usr/sbin").join(t).exists())
        .collect();
    assert!(
        missing.is_empty() && Path::new(UMAD2SIM).exists(),
        "the lab needs {missing:?} and {UMAD2SIM}: run scripts/install-deps.sh (Debian: opensm ibsim-utils \
         libumad2sim0 infiniband-diags)"
    );
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// Wait for a child with a time limit; kill it (and its group) when it overruns.
pub fn wait_timeout(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    loop {
        if let Ok(Some(st)) = child.try_wait() {
            return Some(st);
        }
        if start.elapsed() > limit {
            kill_group(child.id(), true);
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn kill_group(pid: u32, hard: bool) {
    let sig = if hard { "-KILL" } else { "-TERM" };
    let _ = Command::new("kill")
        .arg(sig)
        .arg("--")
        .arg(format!("-{pid}"))
        .stderr(Stdio::null())
        .status();
}

fn stop_child(child: &mut Child, grace: Duration) {
    if let Ok(Some(_)) = child.try_wait() {
        return;
    }
    kill_group(child.id(), false);
    if wait_timeout(child, grace).is_none() {
        kill_group(child.id(), true);
        let _ = child.wait();
    }
}

/// A daemon a test started in the foreground, in its own process group: dropping it
/// stops that group (SIGTERM, then SIGKILL after `grace`), so a failing test leaves
/// nothing running and never signals a process it did not start.
pub struct Background {
    name: String,
    child: Child,
}

impl Background {
    /// Start `cmd` (its stdio as the caller set it) in a new process group.
    pub fn spawn(name: &str, cmd: &mut Command) -> Background {
        let child = cmd
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        Background {
            name: name.to_string(),
            child,
        }
    }

    /// The daemon's PID (also its process group).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `Some(status)` when the daemon has already exited: a daemon that must run did not.
    pub fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// The name it was started under (for messages).
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        stop_child(&mut self.child, Duration::from_secs(10));
    }
}

/// Poll `ready` every 100 ms until it returns true (true) or `limit` has passed (false).
pub fn wait_until(limit: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if ready() {
            return true;
        }
        if start.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Size limits for ibsim from a net file: nodes, switches, ports (with head-room), and
/// the LIDs the fabric needs (one per switch, one per CA port).
fn sim_limits(net: &str) -> (usize, usize, usize, usize) {
    let (mut nodes, mut switches, mut ports, mut lids) = (0, 0, 0, 0);
    for l in net.lines() {
        let is_sw = l.starts_with("Switch");
        if is_sw || l.starts_with("Hca") || l.starts_with("Ca") || l.starts_with("Rt") {
            nodes += 1;
            switches += is_sw as usize;
            let n: usize = l.split_whitespace().nth(1).and_then(|x| x.parse().ok()).unwrap_or(0);
            ports += n + 1;
            lids += if is_sw { 1 } else { n };
        }
    }
    (nodes + 16, switches + 16, ports + 64, lids)
}

/// ibsim 0.10 (Debian 12) gives every switch a linear forwarding table of 30 × 1024
/// entries unless told otherwise (`-L`; ibsim 0.12 raised the default to 48 × 1024), so
/// OpenSM runs out of LIDs at 30,719 ("ERR 0307: OPENSM RAN OUT OF LIDS"). Larger
/// fabrics get the whole unicast LID space (0x0001–0xBFFF, LinearFDBCap 0xC000).
const IBSIM_DEFAULT_LINEAR_CAP: usize = 30 * 1024;

/// A running ibsim with its console and folder.
pub struct Sim {
    pub dir: tempfile::TempDir,
    pub sock: String,
    pub net: PathBuf,
    child: Child,
    ctl: PathBuf,
    log: PathBuf,
}

impl Sim {
    /// Start ibsim on a net file (text given, written into the lab folder).
    pub fn start_text(net_text: &str) -> Sim {
        require_tools();
        let dir = tempfile::Builder::new()
            .prefix("ibfat-lab-")
            .tempdir()
            .expect("temp dir");
        let net = dir.path().join("topology.net");
        fs::write(&net, net_text).unwrap();
        Sim::start_in(dir, net, net_text)
    }

    /// Start ibsim on a net file on disk (copied into the lab folder).
    pub fn start(net: &Path) -> Sim {
        let text = fs::read_to_string(net).unwrap_or_else(|e| panic!("cannot read {}: {e}", net.display()));
        Sim::start_text(&text)
    }

    fn start_in(dir: tempfile::TempDir, net: PathBuf, net_text: &str) -> Sim {
        let sock = format!("ibfat{}_{}", std::process::id(), COUNTER.fetch_add(1, Ordering::SeqCst));
        let ctl = dir.path().join("ibsim.ctl");
        let log = dir.path().join("ibsim.log");
        let st = Command::new("mkfifo").arg(&ctl).status().expect("mkfifo");
        assert!(st.success(), "mkfifo failed");
        // read-write open of the FIFO never blocks and never reaches EOF
        let console = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&ctl)
            .expect("open console fifo");
        let (n, s, p, lids) = sim_limits(net_text);
        let linear_cap: Vec<String> = if lids >= IBSIM_DEFAULT_LINEAR_CAP {
            vec!["-L".into(), "49152".into()]
        } else {
            Vec::new()
        };
        // unbuffered stdout (coreutils' stdbuf): console replies and the `sim> ` prompt
        // reach the log at once instead of when the stdio buffer fills
        let child = Command::new("stdbuf")
            .args(["-o0", "ibsim"])
            .args([
                "-N",
                &n.max(2048).to_string(),
                "-S",
                &s.max(256).to_string(),
                "-P",
                &p.max(13312).to_string(),
            ])
            .args(&linear_cap)
            .arg("-s")
            .arg(&net)
            .env("IBSIM_SOCKNAME", &sock)
            .current_dir(dir.path())
            .stdin(Stdio::from(console))
            // both streams append: with a plain stdout its offset lags behind stderr's
            // writes and console replies overwrite older log text
            .stdout(Stdio::from(
                fs::File::options().create(true).append(true).open(&log).unwrap(),
            ))
            .stderr(Stdio::from(fs::File::options().append(true).open(&log).unwrap()))
            .process_group(0)
            .spawn()
            .expect("spawn ibsim");
        let mut sim = Sim {
            dir,
            sock,
            net,
            child,
            ctl,
            log,
        };
        let start = Instant::now();
        loop {
            let text = fs::read_to_string(&sim.log).unwrap_or_default();
            if text.contains("Network simulator ready") && sim.socket_listening() {
                break;
            }
            if let Ok(Some(st)) = sim.child.try_wait() {
                panic!("ibsim exited ({st}) on {}:\n{}", sim.net.display(), tail(&text, 30));
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "ibsim not ready after 60 s:\n{}",
                tail(&text, 30)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        sim
    }

    fn socket_listening(&self) -> bool {
        let want = format!("@{}:ctl", self.sock);
        fs::read_to_string("/proc/net/unix")
            .map(|t| t.lines().any(|l| l.trim_end().trim_end_matches('@').ends_with(&want)))
            .unwrap_or(false)
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    fn client(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("LD_PRELOAD", UMAD2SIM)
            .env("IBSIM_SOCKNAME", &self.sock)
            .current_dir(self.dir.path())
            .stdin(Stdio::null())
            .process_group(0);
        c
    }

    /// Run a diagnostic tool against the simulator.
    pub fn try_tool(&self, program: &str, args: &[&str], limit: Duration) -> Output {
        self.try_tool_on(None, program, args, limit)
    }

    /// [`Sim::try_tool`] attached to ibsim node `host` (`SIM_HOST`) when given: how a
    /// tool reaches the other rails of a multi-rail fabric.
    pub fn try_tool_on(&self, host: Option<&str>, program: &str, args: &[&str], limit: Duration) -> Output {
        let mut cmd = self.client(program);
        if let Some(h) = host {
            cmd.env("SIM_HOST", h);
        }
        let mut child = cmd
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        // drain pipes in threads so big outputs never block the tool
        let mut so = child.stdout.take().unwrap();
        let mut se = child.stderr.take().unwrap();
        let t1 = std::thread::spawn(move || {
            let mut v = Vec::new();
            std::io::Read::read_to_end(&mut so, &mut v).ok();
            v
        });
        let t2 = std::thread::spawn(move || {
            let mut v = Vec::new();
            std::io::Read::read_to_end(&mut se, &mut v).ok();
            v
        });
        let status = wait_timeout(&mut child, limit).unwrap_or_else(|| panic!("{program} {args:?} timed out"));
        Output {
            status,
            stdout: t1.join().unwrap(),
            stderr: t2.join().unwrap(),
        }
    }

    /// Run a tool that must succeed; its stdout.
    pub fn tool(&self, program: &str, args: &[&str]) -> String {
        self.tool_on(None, program, args)
    }

    /// [`Sim::tool`] attached to ibsim node `host` when given ([`Sim::try_tool_on`]).
    pub fn tool_on(&self, host: Option<&str>, program: &str, args: &[&str]) -> String {
        let mut out = self.try_tool_on(host, program, args, Duration::from_secs(120));
        // the SA does not answer while OpenSM sweeps (a trap can start one at any time):
        // a query that timed out is asked again, as an operator would, a few times
        for _ in 0..3 {
            let timed_out = String::from_utf8_lossy(&out.stderr).contains("timed out");
            if out.status.success() || program != "saquery" || !timed_out {
                break;
            }
            std::thread::sleep(Duration::from_secs(2));
            out = self.try_tool_on(host, program, args, Duration::from_secs(120));
        }
        assert!(
            out.status.success(),
            "{program} {args:?} failed ({}):\n{}",
            out.status,
            tail(&String::from_utf8_lossy(&out.stderr), 20)
        );
        String::from_utf8(out.stdout).expect("utf-8 output")
    }

    pub fn ibnetdiscover(&self, args: &[&str]) -> String {
        self.tool("ibnetdiscover", args)
    }

    /// All switch LFTs by directed route (works whatever the LFTs say).
    pub fn dump_lfts(&self) -> String {
        self.tool("dump_lfts", &[])
    }

    /// What the subnet holds after a sweep, read back with the real tools: the fabric
    /// `ibnetdiscover` finds, the LIDs the SM assigned, and the LFTs `dump_lfts` reads from
    /// every switch.
    pub fn programmed(&self) -> (Fabric, ibfat::routing::Lids, ibfat::routing::LftSet) {
        use ibfat::formats::dump;
        let fabric = dump::parse(&self.ibnetdiscover(&[]), Path::new("ibnetdiscover"))
            .unwrap()
            .strict(Path::new("ibnetdiscover"))
            .unwrap()
            .fabric;
        let lids = ibfat::routing::Lids::discovered(&fabric)
            .unwrap()
            .expect("LIDs after the sweep");
        let tables = self.tables_for(&fabric, &lids);
        (fabric, lids, tables)
    }

    /// The forwarding tables the switches hold (`dump_lfts`), read for `fabric` and `lids`.
    pub fn tables_for(&self, fabric: &Fabric, lids: &ibfat::routing::Lids) -> ibfat::routing::LftSet {
        use ibfat::formats::lftdump;
        lftdump::to_lftset(
            &lftdump::parse(&self.dump_lfts(), Path::new("dump_lfts")).unwrap(),
            fabric,
            lids,
            Path::new("dump_lfts"),
        )
        .unwrap()
    }

    /// Send one ibsim console command; the text ibsim printed in reply.
    pub fn console(&self, cmd: &str) -> String {
        let before = fs::metadata(&self.log).map(|m| m.len()).unwrap_or(0) as usize;
        let mut f = fs::OpenOptions::new()
            .write(true)
            .open(&self.ctl)
            .expect("console fifo");
        writeln!(f, "{cmd}").unwrap();
        let start = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(50));
            let text = fs::read(&self.log).unwrap_or_default();
            let new = String::from_utf8_lossy(&text[before.min(text.len())..]).into_owned();
            if new.contains("sim> ") || start.elapsed() > Duration::from_secs(10) {
                return new.replace("sim> ", "");
            }
        }
    }

    fn osm_command(&self, cfg: &OsmConfig, tag: &str) -> (Command, PathBuf, PathBuf) {
        let base = self.dir.path();
        let cache = base.join(format!("cache-{tag}"));
        let tmp = base.join(format!("tmp-{tag}"));
        let dump = base.join(format!("dump-{tag}"));
        for d in [&cache, &tmp, &dump] {
            fs::create_dir_all(d).unwrap();
        }
        if let Some(g) = &cfg.guid2lid {
            fs::write(cache.join("guid2lid"), g).unwrap();
        }
        let conf_path = base.join(format!("opensm-{tag}.conf"));
        let mut conf = String::new();
        if let Some((_, name, opts)) = &cfg.plugin {
            conf.push_str(&format!("event_plugin_name {name}\n"));
            if !opts.is_empty() {
                conf.push_str(&format!("event_plugin_options {opts}\n"));
            }
        }
        for l in &cfg.conf {
            conf.push_str(l);
            conf.push('\n');
        }
        fs::write(&conf_path, conf).unwrap();
        let log = base.join(format!("osm-{tag}.log"));
        let _ = fs::remove_file(&log);
        let mut c = self.client("opensm");
        c.env("OSM_CACHE_DIR", &cache).env("OSM_TMP_DIR", &tmp);
        if let Some(h) = &cfg.sim_host {
            c.env("SIM_HOST", h);
        }
        if let Some((dir, _, _)) = &cfg.plugin {
            c.env("LD_LIBRARY_PATH", dir);
        }
        c.arg("-F")
            .arg(&conf_path)
            .arg("-R")
            .arg(&cfg.engine)
            .args(["-D", "0x43", "-e"]);
        c.arg("-f").arg(&log).arg("--dump_files_dir").arg(&dump);
        if cfg.lmc > 0 {
            c.arg("-l").arg(cfg.lmc.to_string());
        }
        if let Some(u) = &cfg.lfts_file {
            c.arg("-U").arg(u);
        }
        c.args(&cfg.extra_args);
        c.stdout(Stdio::from(
            fs::File::create(base.join(format!("osm-{tag}.stdout"))).unwrap(),
        ));
        c.stderr(Stdio::from(
            fs::File::create(base.join(format!("osm-{tag}.stderr"))).unwrap(),
        ));
        (c, log, dump)
    }

    /// Run `opensm -o` (one sweep, program the LFTs, exit).
    pub fn opensm(&self, cfg: &OsmConfig) -> OsmRun {
        let tag = cfg.tag.clone().unwrap_or_else(|| cfg.engine.replace(',', "_"));
        let (mut c, log_path, dump_dir) = self.osm_command(cfg, &tag);
        c.arg("-o");
        let mut child = c.spawn().expect("spawn opensm");
        let limit = cfg.timeout.unwrap_or(Duration::from_secs(180));
        let status = wait_timeout(&mut child, limit);
        let log = fs::read_to_string(&log_path).unwrap_or_default();
        let success = status.map(|s| s.success()).unwrap_or(false);
        OsmRun {
            log,
            log_path,
            dump_dir,
            success,
        }
    }

    /// Start OpenSM in the background (log flushed after every line with -d2) and return
    /// at once: for a caller that waits for its own log line, with its own time limit,
    /// and must go on when the first sweep does not end (a benchmark of a slow engine).
    pub fn opensm_spawn(&self, cfg: &OsmConfig) -> OpenSm {
        let tag = cfg
            .tag
            .clone()
            .unwrap_or_else(|| format!("{}-daemon", cfg.engine.replace(',', "_")));
        let (mut c, log_path, dump_dir) = self.osm_command(cfg, &tag);
        c.arg("-d2");
        let child = c.spawn().expect("spawn opensm");
        OpenSm {
            child,
            log_path,
            dump_dir,
        }
    }

    /// Start OpenSM in the background and wait until the subnet is up.
    pub fn opensm_daemon(&self, cfg: &OsmConfig) -> OpenSm {
        let osm = self.opensm_spawn(cfg);
        let limit = cfg.timeout.unwrap_or(Duration::from_secs(180));
        assert!(
            osm.wait_for("SUBNET UP", 1, limit),
            "opensm not up:\n{}",
            tail(&osm.log(), 30)
        );
        osm
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        stop_child(&mut self.child, Duration::from_secs(5));
    }
}

/// Last `n` lines of a text (for failure messages).
pub fn tail(s: &str, n: usize) -> String {
    let v: Vec<&str> = s.lines().collect();
    v[v.len().saturating_sub(n)..].join("\n")
}

/// Path of the `ibfat` binary under test.
/// (Cargo tells integration tests where it is; examples that include this harness find
/// it next to their own folder, `target/<profile>/examples/..`.)
pub fn ibfat_bin() -> PathBuf {
    match option_env!("CARGO_BIN_EXE_ibfat") {
        Some(p) => PathBuf::from(p),
        None => std::env::current_exe()
            .ok()
            .and_then(|e| e.parent()?.parent().map(|d| d.join("ibfat")))
            .unwrap_or_else(|| PathBuf::from("ibfat")),
    }
}

/// Run the ibfat CLI; (exit code, stdout, stderr).
pub fn ibfat(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(ibfat_bin()).args(args).output().expect("run ibfat");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `family` built as a site's fabric looks: ports shuffled and GUIDs drawn at random from
/// `shuffle` (the library's own build, no CLI).
pub fn build_shuffled(family: ibfat::topology::FamilySpec, shuffle: u64) -> ibfat::topology::Topology {
    let mut s = ibfat::topology::Spec::new(family);
    s.options = ibfat::topology::BuildOptions {
        shuffle: Some(shuffle),
        ..Default::default()
    };
    s.build().unwrap()
}

/// Write a plan folder: `ibfat <build...> --out OUT --no-svg`, which must succeed.
pub fn build_plan(build: &[&str], out: &Path) {
    let mut args = build.to_vec();
    args.extend(["--out", out.to_str().expect("a UTF-8 path"), "--no-svg"]);
    let (code, stdout, stderr) = ibfat(&args);
    assert_eq!(code, 0, "ibfat {args:?}: {stdout}{stderr}");
}

/// A shuffled LSFT(q) plan in `dir/plan` and a degraded copy of it in `dir/<name>` made by
/// `ibfat faults` with `faults` (`--cut 5 --seed 3 --dead S7`): (plan, degraded folder,
/// the `faults --json` report).
pub fn lsft_with_faults(dir: &Path, q: u32, shuffle: u64, name: &str, faults: &[&str]) -> (PathBuf, PathBuf, String) {
    let plan = dir.join("plan");
    let (q, shuffle) = (q.to_string(), shuffle.to_string());
    build_plan(&["build", "lsft", "--order", &q, "--shuffle", &shuffle], &plan);
    let out = dir.join(name);
    let mut args = faults.to_vec();
    args.push("--json");
    let stdout = faults_into(&plan, &args, &out);
    (plan, out, stdout)
}

/// `ibfat faults plan <faults> --out out`, which must succeed: its standard output.
pub fn faults_into(plan: &Path, faults: &[&str], out: &Path) -> String {
    let mut args = vec!["faults", plan.to_str().expect("a UTF-8 path")];
    args.extend(faults);
    args.extend(["--out", out.to_str().expect("a UTF-8 path")]);
    let (code, stdout, stderr) = ibfat(&args);
    assert_eq!(code, 0, "ibfat {args:?}: {stdout}{stderr}");
    stdout
}

/// Exchange the far ends of the cables at (a, pa) and (b, pb): the fault of two cables
/// plugged into each other's ports.
pub fn swap_far_ends(f: &mut Fabric, a: NodeId, pa: u8, b: NodeId, pb: u8) {
    let (x, px) = f.peer(a, pa).expect("a cable at (a, pa)");
    let (y, py) = f.peer(b, pb).expect("a cable at (b, pb)");
    f.disconnect(a, pa);
    f.disconnect(b, pb);
    f.connect(a, pa as u32, y, py as u32).expect("port in range");
    f.connect(b, pb as u32, x, px as u32).expect("port in range");
}

/// Switch neighbours of a node, as a set.
pub fn switch_peers(f: &Fabric, n: NodeId) -> BTreeSet<NodeId> {
    (1..=f.node(n).nports)
        .filter_map(|p| f.peer(n, p))
        .map(|(m, _)| m)
        .filter(|&m| f.node(m).kind == NodeKind::Switch)
        .collect()
}

/// The folder holding a build artifact of this workspace (`libibfatosm.so`,
/// `libibfatc.a`): a test or bench build leaves cdylibs and staticlibs in
/// target/<profile>/deps next to its executable; `cargo build` also copies them one up.
pub fn artifact_dir(file: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("current executable");
    let deps = exe.parent().expect("a folder");
    let found = [deps, deps.parent().unwrap_or(deps)]
        .into_iter()
        .find(|d| d.join(file).exists());
    found
        .unwrap_or_else(|| panic!("no {file} in {} or its parent", deps.display()))
        .to_path_buf()
}

/// Durations (ms) of every routing pass by `engine` in an OpenSM log: from `building
/// routing with '<engine>'` to `<engine> tables configured on all switches`, by the log's
/// timestamps (`Nov 22 06:21:58 729141 [...]`).
pub fn routing_passes_ms(log: &str, engine: &str) -> Vec<f64> {
    let stamp = |line: &str| -> Option<f64> {
        let mut f = line.split_whitespace();
        let (_, _, hms, us) = (f.next()?, f.next()?, f.next()?, f.next()?);
        let mut t = hms.split(':').map(|x| x.parse::<f64>().ok());
        let (h, m, s) = (t.next()??, t.next()??, t.next()??);
        Some((h * 3600.0 + m * 60.0 + s) * 1e6 + us.parse::<f64>().ok()?)
    };
    let start_tag = format!("building routing with '{engine}'");
    let end_tag = format!("{engine} tables configured on all switches");
    let mut out = Vec::new();
    let mut start = None;
    for l in log.lines() {
        if l.contains(&start_tag) {
            start = stamp(l);
        } else if l.contains(&end_tag) {
            if let (Some(a), Some(b)) = (start.take(), stamp(l)) {
                out.push((b - a) / 1e3);
            }
        }
    }
    out
}
