//! What a signal must clean up. ibfat runs as root next to OpenSM, and an interrupted
//! write must leave neither a hidden temporary file (hundreds of megabytes for a large
//! dump) nor a Graphviz process behind. Every temporary path and child process is
//! registered here while it lives; a front end that catches SIGINT/SIGTERM calls
//! [`abandon`], which removes them and keeps the registry locked until the process exits.
//!
//! The library installs no signal handler itself (a host program such as OpenSM owns its
//! signals); the CLI does.

use std::path::PathBuf;
use std::process::Child;
use std::sync::{Arc, Mutex, MutexGuard};

enum Live {
    File(PathBuf),
    Dir(PathBuf),
    Child(Arc<Mutex<Child>>),
}

struct Registry {
    next: u64,
    live: Vec<(u64, Live)>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    next: 0,
    live: Vec::new(),
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// A registered temporary path or child; dropping it unregisters it (the owner has
/// renamed, removed or reaped it).
#[must_use = "dropping the handle unregisters the path at once"]
pub(crate) struct Tracked(u64);

impl Drop for Tracked {
    fn drop(&mut self) {
        registry().live.retain(|(id, _)| *id != self.0);
    }
}

fn track(what: Live) -> Tracked {
    let mut r = registry();
    r.next += 1;
    let id = r.next;
    r.live.push((id, what));
    Tracked(id)
}

/// Register a temporary file: removed if the process is interrupted before it is renamed.
pub(crate) fn track_file(path: PathBuf) -> Tracked {
    track(Live::File(path))
}

/// Register a temporary folder: removed with its contents on interruption.
pub(crate) fn track_dir(path: PathBuf) -> Tracked {
    track(Live::Dir(path))
}

/// Register a child process: killed on interruption (so that no `dot` outlives ibfat).
pub(crate) fn track_child(child: Arc<Mutex<Child>>) -> Tracked {
    track(Live::Child(child))
}

/// Run `f` (a group of renames that must all happen or none) while no interruption can
/// clean up: [`abandon`] waits for it to finish.
pub(crate) fn commit<T>(f: impl FnOnce() -> T) -> T {
    let _held = registry();
    f()
}

/// For signal handlers: remove every registered temporary path, kill every registered
/// child, and keep the registry locked so that nothing new is registered or committed
/// before the process exits. Never returns the lock; call it once, then exit.
pub fn abandon() {
    let r = registry();
    for (_, what) in &r.live {
        match what {
            Live::File(p) => {
                let _ = std::fs::remove_file(p);
            }
            Live::Dir(p) => {
                let _ = std::fs::remove_dir_all(p);
            }
            Live::Child(c) => {
                let mut c = c.lock().unwrap_or_else(|e| e.into_inner());
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
    std::mem::forget(r);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_unregisters() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("x");
        {
            let _g = track_file(p.clone());
            assert!(registry()
                .live
                .iter()
                .any(|(_, l)| matches!(l, Live::File(q) if *q == p)));
        }
        assert!(!registry()
            .live
            .iter()
            .any(|(_, l)| matches!(l, Live::File(q) if *q == p)));
    }
}
