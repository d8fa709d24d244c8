//! SVG pictures from DOT text through Graphviz, an optional external tool: `dot` may be
//! missing or take very long on a large fabric, so it runs with a time limit and a
//! failure comes back as a sentence for the caller to report (the plan writer notes it
//! and writes the other files; the checker's heat map fails with it).

use super::cleanup;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The first executable `name` on `PATH`.
fn on_path(name: &str) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}

/// `dot -Tsvg`, started so that it dies with ibfat even when ibfat is SIGKILLed: through
/// util-linux's `setpriv --pdeathsig KILL` when it is installed (the kernel then kills
/// `dot` when its parent goes; catchable signals are handled by [`cleanup`] as well).
fn dot_command(dot: &std::path::Path) -> Command {
    match on_path("setpriv") {
        Some(setpriv) => {
            let mut c = Command::new(setpriv);
            c.args(["--pdeathsig", "KILL", "--"]).arg(dot);
            c
        }
        None => Command::new(dot),
    }
}

/// Run Graphviz `dot -Tsvg` with a time limit; `Err(reason)` when it is missing or fails.
pub(crate) fn render_svg(dot_source: &[u8], limit: Duration) -> std::result::Result<Vec<u8>, String> {
    let dot = on_path("dot").ok_or_else(|| "Graphviz `dot` is not installed".to_string())?;
    let mut child = dot_command(&dot)
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|_| "Graphviz `dot` is not installed".to_string())?;
    let mut stdin = child.stdin.take().expect("piped");
    let src = dot_source.to_vec();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&src);
    });
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    // registered so that an interrupted ibfat kills `dot` instead of orphaning it
    let child = Arc::new(Mutex::new(child));
    let _tracked = cleanup::track_child(child.clone());
    let lock = || child.lock().unwrap_or_else(|e| e.into_inner());
    let start = Instant::now();
    let status = loop {
        if let Some(st) = lock().try_wait().map_err(|e| e.to_string())? {
            break st;
        }
        if start.elapsed() > limit {
            let mut c = lock();
            let _ = c.kill();
            let _ = c.wait();
            return Err(format!(
                "`dot` took longer than {} s; render topology.dot yourself (sfdp is faster)",
                limit.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = writer.join();
    let svg = reader.join().unwrap_or_default();
    if !status.success() || svg.is_empty() {
        return Err("`dot` failed on topology.dot".into());
    }
    Ok(svg)
}
