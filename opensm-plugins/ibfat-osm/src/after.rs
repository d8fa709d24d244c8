//! Work a routing pass leaves for after OpenSM has sent its tables: handing the subnet to
//! the worker that computes ahead ([`crate::ahead`]) and to the state file
//! ([`crate::subnet::saved`]), and giving the worker back what it made that the pass let
//! go of. Neither changes the tables, and together they took 40–130 µs of a
//! 0.2–0.8 ms pass on the 145-host lab (copying the records twice, waking the worker):
//! time OpenSM's routing stage waited for with the switches' tables not yet sent.
//!
//! OpenSM reports `UCAST_ROUTING_DONE` once the switches acknowledged their tables; the
//! work runs then, on the same thread. A sweep that stops before (a MAD timed out) leaves
//! it for the next heavy sweep's start. What waits to be freed is bounded: past
//! [`MAX_WAITING`] it goes to the worker from the pass itself.

use crate::ahead::{Ahead, Base};
use crate::options::Options;
use crate::reuse::Recent;
use std::ffi::c_void;
use std::sync::Mutex;

/// How many things to free may wait for the end of a sweep (two per pass).
const MAX_WAITING: usize = 16;

/// What the last passes left for after their tables are out.
#[derive(Default)]
pub(crate) struct Later {
    waiting: Mutex<Waiting>,
}

#[derive(Default)]
struct Waiting {
    /// The pass whose subnet is the newest of [`Recent`], and whether the worker computes
    /// its single changes ahead (a subnet routed on one thread) or only keeps it in the
    /// state file.
    newest: Option<(u64, bool)>,
    /// What the worker made that passes let go of ([`Ahead::discard`]).
    drops: Vec<Box<dyn Send>>,
    /// The digest of the records last handed to the state file.
    saved: Option<u64>,
}

impl Later {
    fn waiting(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The records of this digest are in the state file already (read when the plugin
    /// loaded): a first pass that reads them does not write them again.
    pub fn kept_in_file(&self, digest: u64) {
        self.waiting().saved = Some(digest);
    }

    /// Let the worker free `what` once the tables are out (at once when many wait).
    pub fn discard(&self, ahead: &Ahead, what: Box<dyn Send>) {
        let mut w = self.waiting();
        w.drops.push(what);
        if w.drops.len() > MAX_WAITING {
            for d in w.drops.drain(..) {
                ahead.discard(d);
            }
        }
    }

    /// The subnet pass `pass` programmed, which [`Recent`] now holds as its newest state,
    /// goes to the state file, and to the worker to compute its single changes ahead when
    /// `changes` (`None`: a pass with nothing to hand on; an earlier pass's wish no longer
    /// holds).
    pub fn hand_on(&self, newest: Option<(u64, bool)>) {
        self.waiting().newest = newest;
    }

    /// Do what waits: called on OpenSM's sweep thread, between routing passes.
    pub fn run(&self, osm: *mut c_void, options: &Options, recent: &Mutex<Recent>, ahead: &Ahead) {
        let mut w = self.waiting();
        for d in w.drops.drain(..) {
            ahead.discard(d);
        }
        let Some((pass, changes)) = w.newest.take() else {
            return;
        };
        let recent = recent.lock().unwrap_or_else(|e| e.into_inner());
        let Some(newest) = recent.newest() else {
            return;
        };
        if let Some(path) = &options.state_file {
            if w.saved != Some(newest.records.digest()) {
                w.saved = Some(newest.records.digest());
                ahead.save(osm, path, newest.records.clone());
            }
        }
        // logged after OpenSM's "tables configured": not a "pass N:" line, which tests
        // and operators read as the pass's own (the pass has ended)
        if changes && ahead.submit(osm, options, &newest.records, newest.offer, Base::Pass(pass)) {
            crate::log(
                osm,
                false,
                &format!(
                    "computing ahead the tables of the single changes of pass {pass}'s subnet, on a low-priority thread"
                ),
            );
        }
    }
}
