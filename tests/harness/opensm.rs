//! OpenSM under test: one-shot runs ([`OsmRun`]) and long-running daemons ([`OpenSm`],
//! re-swept by SIGHUP), their settings ([`OsmConfig`]) and the reading of their logs.

use super::{artifact_dir, stop_child, tail};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

impl OsmConfig {
    /// Load the ibfat plugin (built by cargo) with these `event_plugin_options`.
    pub fn with_ibfat_plugin(mut self, options: &str) -> OsmConfig {
        self.plugin = Some((artifact_dir("libibfatosm.so"), "ibfatosm".into(), options.into()));
        self
    }
}

/// One OpenSM run's settings.
#[derive(Clone, Debug, Default)]
pub struct OsmConfig {
    /// `-R` value, e.g. `minhop`, `ftree`, `file`, `ibfat,minhop`.
    pub engine: String,
    pub lmc: u8,
    /// `-U` file for the `file` engine.
    pub lfts_file: Option<PathBuf>,
    /// Seed the guid2lid cache with this text.
    pub guid2lid: Option<String>,
    /// (folder holding lib<name>.so, name, options line) for an event plugin.
    pub plugin: Option<(PathBuf, String, String)>,
    /// Extra config-file lines.
    pub conf: Vec<String>,
    pub extra_args: Vec<String>,
    pub timeout: Option<Duration>,
    /// Log tag (file names); default the engine.
    pub tag: Option<String>,
    /// The ibsim node OpenSM attaches to (`SIM_HOST`; default the first node). ibsim's
    /// umad2sim offers port 1 of a CA, or a switch's port 0: the SM of rail k ≥ 1 of a
    /// multi-rail fabric runs on one of that rail's switches.
    pub sim_host: Option<String>,
}

/// What a one-shot OpenSM run left behind.
pub struct OsmRun {
    pub log: String,
    pub log_path: PathBuf,
    pub dump_dir: PathBuf,
    pub success: bool,
}

impl OsmRun {
    /// The engine named in `<engine> tables configured on all switches` (last pass).
    pub fn configured_by(&self) -> Option<String> {
        configured_by(&self.log)
    }
    /// `opensm-lfts.dump` of this run.
    pub fn lfts_dump(&self) -> String {
        fs::read_to_string(self.dump_dir.join("opensm-lfts.dump")).expect("opensm-lfts.dump (log flags 0x43)")
    }
}

/// The engine of the last "tables configured on all switches" line of an OpenSM log.
pub fn configured_by(log: &str) -> Option<String> {
    log.lines()
        .rev()
        .filter_map(|l| l.split("osm_ucast_mgr_process: ").nth(1))
        .find_map(|rest| rest.strip_suffix(" tables configured on all switches"))
        .map(str::to_string)
}

/// A long-running OpenSM (for re-sweeps).
pub struct OpenSm {
    pub(super) child: Child,
    pub log_path: PathBuf,
    pub dump_dir: PathBuf,
}

impl OpenSm {
    pub fn log(&self) -> String {
        fs::read_to_string(&self.log_path).unwrap_or_default()
    }
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
    /// True while the process runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
    /// Peak resident memory of the running OpenSM in KiB (`VmHWM`), for benchmarks.
    pub fn peak_rss_kib(&self) -> Option<u64> {
        let status = fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    }
    /// Ask for a heavy sweep (OpenSM re-routes on SIGHUP).
    pub fn sighup(&self) {
        let _ = Command::new("kill")
            .arg("-HUP")
            .arg(self.child.id().to_string())
            .status();
    }
    /// Wait until `needle` (text within one line) occurs at least `count` times in the
    /// log. The log is read on from where the last look ended, complete lines only, so
    /// a log of hundreds of MB (a large fabric) is not read again every 50 ms on the
    /// cores OpenSM is being timed on.
    pub fn wait_for(&self, needle: &str, count: usize, limit: Duration) -> bool {
        self.wait_log(needle, count, limit, || true) == Waited::Found
    }

    /// As [`OpenSm::wait_for`], but stop waiting as soon as OpenSM has exited (a crash
    /// must not cost a benchmark its whole time limit); the exit status then comes back.
    pub fn wait_while_running(&mut self, needle: &str, count: usize, limit: Duration) -> Waited {
        let child = &mut self.child;
        let mut status = None;
        let w = wait_log_file(&self.log_path, needle, count, limit, || {
            status = child.try_wait().ok().flatten();
            status.is_none()
        });
        match (w, status) {
            (Waited::Found, _) => Waited::Found,
            (_, Some(st)) => Waited::Exited(st),
            (w, None) => w,
        }
    }

    fn wait_log(&self, needle: &str, count: usize, limit: Duration, running: impl FnMut() -> bool) -> Waited {
        wait_log_file(&self.log_path, needle, count, limit, running)
    }

    /// Wait for the `n`-th "tables configured" line, let a follow-up sweep settle (a port
    /// change can start a second one; SL-to-VL tables are programmed after the LFTs, before
    /// OpenSM reports the subnet up), and require that the ibfat engine configured the
    /// tables without falling back. `what` names the step in the failure message.
    pub fn routed_by_ibfat(&mut self, n: usize, what: &str) {
        const DONE: &str = "tables configured on all switches";
        let w = self.wait_while_running(DONE, n, Duration::from_secs(90));
        assert_eq!(w, Waited::Found, "{what}: {}", tail(&self.log(), 40));
        let mut seen = self.log().matches(DONE).count();
        let start = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(1500));
            let log = self.log();
            let now = log.matches(DONE).count();
            if now == seen && log.rfind("SUBNET UP") > log.rfind(DONE) {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(90),
                "{what}: no settled sweep:\n{}",
                tail(&log, 40)
            );
            seen = now;
        }
        let log = self.log();
        assert_eq!(
            configured_by(&log).as_deref(),
            Some("ibfat"),
            "{what}: {}",
            tail(&log, 40)
        );
        assert!(!log.contains("falling back"), "{what}: {}", tail(&log, 40));
    }

    /// Play ibsim console `commands` (a `cut.ibsim`, `restore.ibsim` of `ibfat faults`),
    /// re-sweep, and require the pass to be ibfat's ([`OpenSm::routed_by_ibfat`]). A trap
    /// from the first command can start a sweep that sees only some of the changes, and a
    /// late one can start after the settle: both are let end, so that the log and the
    /// tables read next are one finished pass's that saw every change.
    pub fn resweep_after(&mut self, sim: &super::Sim, commands: &str, what: &str) {
        const DONE: &str = "tables configured on all switches";
        for cmd in commands.lines() {
            sim.console(cmd);
        }
        let start = Instant::now();
        loop {
            let seen = self.log().matches(DONE).count();
            std::thread::sleep(Duration::from_secs(2));
            if self.log().matches(DONE).count() == seen || start.elapsed() > Duration::from_secs(30) {
                break;
            }
        }
        let before = self.log().matches(DONE).count();
        self.sighup();
        self.routed_by_ibfat(before + 1, what);
        let finished = super::wait_until(Duration::from_secs(60), || {
            let log = self.log();
            // a degraded pass logs its fabric first, its summary line last
            let (pass, table, up) = (
                log.rfind("ibfat: pass ").max(log.rfind("ibfat: degraded fabric:")),
                log.rfind(DONE),
                log.rfind("SUBNET UP"),
            );
            table > pass && up > table
        });
        assert!(finished, "{what}: a pass did not finish\n{}", tail(&self.log(), 30));
    }

    pub fn stop(mut self) {
        stop_child(&mut self.child, Duration::from_secs(15));
    }
}

impl Drop for OpenSm {
    fn drop(&mut self) {
        stop_child(&mut self.child, Duration::from_secs(15));
    }
}

/// How a wait on OpenSM's log ended.
#[derive(Debug, PartialEq)]
pub enum Waited {
    /// The line occurred as often as asked.
    Found,
    /// The time limit passed first.
    TimedOut,
    /// OpenSM exited first, with this status.
    Exited(std::process::ExitStatus),
}

/// Poll `log` every 50 ms, reading on from the last complete line, until `needle` was
/// seen `count` times, `limit` passed or `running` says the writer is gone (checked
/// once more after that, so a line written just before the exit still counts).
fn wait_log_file(log: &Path, needle: &str, count: usize, limit: Duration, mut running: impl FnMut() -> bool) -> Waited {
    use std::io::{Read, Seek, SeekFrom};
    let start = Instant::now();
    let (mut offset, mut seen) = (0u64, 0usize);
    let mut buf = Vec::new();
    loop {
        let alive = running();
        if let Ok(mut f) = fs::File::open(log) {
            buf.clear();
            if f.seek(SeekFrom::Start(offset)).is_ok() && f.read_to_end(&mut buf).is_ok() {
                if let Some(end) = buf.iter().rposition(|&b| b == b'\n') {
                    seen += String::from_utf8_lossy(&buf[..=end]).matches(needle).count();
                    offset += end as u64 + 1;
                }
            }
        }
        if seen >= count {
            return Waited::Found;
        }
        if !alive {
            return Waited::TimedOut; // the caller knows the writer is gone
        }
        if start.elapsed() >= limit {
            return Waited::TimedOut;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
