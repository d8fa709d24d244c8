//! Tables computed ahead: after a pass on a small subnet, a low-priority thread computes
//! the tables of every single change that subnet may see next — a cable gone, a switch
//! gone ([`changes`]) — so the pass after a cable fails programs them at once instead of
//! recognising and routing with caches OpenSM's sweep has just emptied (issue 39 item 4:
//! a computed pass on a 100-host tree takes 0.5 ms there, minhop's 0.2).
//!
//! The same worker computes the tables of the subnet a heavy sweep's discovery found,
//! while OpenSM configures it ([`discovered`]), and of the one `state_file` kept.
//!
//! A pass takes tables computed ahead only when the records it read equal the predicted
//! ones field for field, under the same VL offer: the tables are then exactly those the
//! pass would compute (they are a function of the records, the offer and the options,
//! [`crate::reuse`]). The cable's return finds the earlier subnet in [`crate::reuse`].
//!
//! The worker runs under `SCHED_IDLE` with every signal blocked (but for a saved subnet's
//! own tables, which race OpenSM's first discovery), one change at a time, and
//! stops between two changes when a pass asks for another subnet or the plugin unloads;
//! it never touches OpenSM except its log (which takes its own lock). The routing pass
//! never waits on it: jobs go over a channel, and what the worker allocated is freed by
//! the worker ([`Msg`]).

mod changes;

use crate::lanes::VlOffer;
use crate::options::Options;
use crate::reuse::LastPass;
use crate::subnet::{Reading, Records};
use changes::Change;
pub(crate) use changes::NO_CHANGE;
use std::ffi::{c_int, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, TryLockError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest a pass waits for the worker computing its subnet's own tables: a bound in
/// case that thread is starved; the lab's take 0.3–1.3 ms, a 10,000-host tree's 0.5 s on
/// all cores.
const OWN_WAIT: Duration = Duration::from_secs(1);

/// The memory the tables computed ahead may hold together (the states of
/// [`crate::reuse`] have their own budget).
const AHEAD_BYTES: usize = 64 << 20;

extern "C" {
    fn ibfat_shim_background_thread(idle: c_int) -> c_int;
}

/// OpenSM's handle, carried to the worker for the log only.
#[derive(Clone, Copy)]
struct Osm(*mut c_void);

// SAFETY: the worker passes the pointer only to OpenSM's log, which serialises its
// writers itself (OpenSM logs from all its threads), and the plugin's delete() joins the
// worker before OpenSM is gone.
unsafe impl Send for Osm {}

/// The subnet whose changes are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Base {
    /// The one this pass programmed.
    Pass(u64),
    /// The one `state_file` kept from before OpenSM started ([`crate::subnet::saved`]): its
    /// own tables are computed first, for the first pass.
    Saved,
    /// The one a heavy sweep's discovery found, with the LIDs OpenSM is about to give
    /// ([`discovered`]): only its own tables, for that sweep's pass. Its changes wait for
    /// the pass to program it: computed meanwhile, at idle priority, a pass served ahead
    /// took 1.4 and 3.2 ms instead of 0.1 (2 of 24 starts on the lab; its own stages took
    /// 0.1 ms, the rest was spent waiting, on what was not measured).
    Discovered,
}

impl Base {
    /// "pass 3's subnet", "the saved subnet", for the log.
    fn words(self) -> String {
        match self {
            Base::Pass(k) => format!("pass {k}'s subnet"),
            Base::Saved => "the subnet state_file kept (itself included)".to_string(),
            Base::Discovered => "the subnet discovery found".to_string(),
        }
    }

    /// Whether the job computes the subnet's own tables first, for a pass to come.
    fn own_first(self) -> bool {
        matches!(self, Base::Saved | Base::Discovered)
    }
}

/// Tables computed for one change of the subnet a pass programmed.
pub(crate) struct Ready {
    /// The change, in words.
    pub change: String,
    /// The subnet it changes.
    pub base: Base,
    /// What the pass after the change would compute.
    pub done: LastPass,
    /// The job that computed it.
    epoch: u64,
}

/// What a pass asks the worker to compute ahead.
struct Job {
    osm: Osm,
    options: Options,
    records: Records,
    offer: VlOffer,
    base: Base,
    epoch: u64,
}

/// What the routing pass sends the worker. Sending never blocks (the channel takes no
/// lock a sleeping worker could hold), and what a pass lets go of that the worker made
/// goes back to it: freeing it in the pass would take the worker's malloc arena lock,
/// which a worker scheduled out holds for milliseconds.
enum Msg {
    Job(Job),
    Drop(Box<dyn Send>),
    /// Keep these records in this state file ([`crate::subnet::saved`]).
    Save(Osm, std::path::PathBuf, Records),
}

/// The tables computed ahead, shared with the worker. It holds the lock only to move a
/// finished change in (room reserved beforehand) or the previous job's changes out.
struct Shared {
    ready: Mutex<Vec<Ready>>,
    /// Bumped for every new subnet and at unload: work for an older one stops.
    epoch: AtomicU64,
    /// The plugin is unloading: the worker ends without a word.
    stopping: AtomicBool,
    /// The digest of the records whose own tables the worker is computing (a saved or
    /// discovered subnet's), and the signal that it is done with them ([`Ahead::take`]).
    owning: Mutex<Option<u64>>,
    owned: Condvar,
}

impl Shared {
    fn ready(&self) -> MutexGuard<'_, Vec<Ready>> {
        self.ready.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn owning(&self) -> MutexGuard<'_, Option<u64>> {
        self.owning.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The worker computes (`Some`) or is done with (`None`) a subnet's own tables.
    fn own(&self, digest: Option<u64>) {
        let mut owning = self.owning();
        if *owning != digest {
            *owning = digest;
            self.owned.notify_all();
        }
    }
}

/// The worker and the tables it computed.
pub(crate) struct Ahead {
    shared: Arc<Shared>,
    send: Mutex<Option<Sender<Msg>>>,
    worker: Mutex<Option<JoinHandle<()>>>,
    /// The subnet last submitted, its offer and what was computed for it.
    base: Mutex<Option<(Records, VlOffer, Base)>>,
}

impl Ahead {
    pub fn new() -> Ahead {
        Ahead {
            shared: Arc::new(Shared {
                ready: Mutex::new(Vec::new()),
                epoch: AtomicU64::new(0),
                stopping: AtomicBool::new(false),
                owning: Mutex::new(None),
                owned: Condvar::new(),
            }),
            send: Mutex::new(None),
            worker: Mutex::new(None),
            base: Mutex::new(None),
        }
    }

    /// Take out the tables computed ahead for a pass that read `records` under `offer`,
    /// and how long the pass waited for them. The pass waits only for the worker computing
    /// these very records' own tables (at normal priority, started milliseconds before:
    /// computing them again would take longer), at most [`OWN_WAIT`]; when the list stays
    /// locked for a few microseconds (the worker, scheduled out while it holds it), it
    /// computes instead.
    pub fn take(&self, records: &Records, offer: &VlOffer) -> Option<(Ready, Option<Duration>)> {
        if let Some(r) = self.take_now(records, offer) {
            return Some((r, None));
        }
        let t = Instant::now();
        let digest = Some(records.digest());
        let owning = self.shared.owning();
        if *owning != digest {
            return None;
        }
        let waited = self.shared.owned.wait_timeout_while(owning, OWN_WAIT, |o| *o == digest);
        drop(waited);
        self.take_now(records, offer).map(|r| (r, Some(t.elapsed())))
    }

    fn take_now(&self, records: &Records, offer: &VlOffer) -> Option<Ready> {
        let mut ready = (0..200).find_map(|_| match self.shared.ready.try_lock() {
            Ok(guard) => Some(guard),
            Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(TryLockError::WouldBlock) => {
                std::hint::spin_loop();
                None
            }
        })?;
        let k = ready.iter().position(|r| r.done.serves(records, offer))?;
        Some(ready.swap_remove(k))
    }

    /// Whether tables computed ahead serve a pass that reads `records` under `offer`
    /// (waits for the list: not for the routing pass).
    pub fn serves(&self, records: &Records, offer: &VlOffer) -> bool {
        self.shared.ready().iter().any(|r| r.done.serves(records, offer))
    }

    /// Hand the worker something to free (see [`Msg`]); freed here when it is not running.
    pub fn discard(&self, what: Box<dyn Send>) {
        self.post(Msg::Drop(what));
    }

    /// Send the worker `msg`; dropped (here) when the worker is not running.
    fn post(&self, msg: Msg) {
        let send = self.send.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = send.as_ref() {
            let _ = tx.send(msg);
        }
    }

    /// Compute ahead the single changes of the subnet `base` (read as `records` under
    /// `offer`), and for a saved one its own tables first; what was computed for another
    /// subnet is dropped by the worker. False, with nothing to do, when that subnet is the
    /// last one submitted or the worker is not running.
    pub fn submit(&self, osm: *mut c_void, options: &Options, records: &Records, offer: VlOffer, base: Base) -> bool {
        let mut last = self.base.lock().unwrap_or_else(|e| e.into_inner());
        // a discovered subnet's job computed its own tables only: its pass hands it on again
        let done = |b: &Base| *b != Base::Discovered || base == Base::Discovered;
        if last
            .as_ref()
            .is_some_and(|(r, o, b)| r == records && *o == offer && done(b))
        {
            return false;
        }
        let send = self.send.lock().unwrap_or_else(|e| e.into_inner());
        let Some(tx) = send.as_ref() else {
            return false;
        };
        let epoch = self.shared.epoch.fetch_add(1, Ordering::AcqRel) + 1;
        let job = Job {
            osm: Osm(osm),
            options: options.clone(),
            records: records.clone(),
            offer,
            base,
            epoch,
        };
        if tx.send(Msg::Job(job)).is_err() {
            return false;
        }
        *last = Some((records.clone(), offer, base));
        true
    }

    /// Have the worker keep `records` in the state file at `path` (written atomically, off
    /// the routing thread; a failure is logged).
    pub fn save(&self, osm: *mut c_void, path: &std::path::Path, records: Records) {
        self.post(Msg::Save(Osm(osm), path.to_path_buf(), records));
    }

    /// Start the worker (when the plugin loads: a thread started inside the first pass
    /// costs that pass 0.1 ms).
    pub fn start(&self, osm: *mut c_void) {
        let mut worker = self.worker.lock().unwrap_or_else(|e| e.into_inner());
        if worker.is_some() {
            return;
        }
        let shared = Arc::clone(&self.shared);
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("ibfat-ahead".into())
            .stack_size(8 << 20)
            .spawn(move || work(&shared, &rx));
        match spawned {
            Ok(h) => {
                *worker = Some(h);
                *self.send.lock().unwrap_or_else(|e| e.into_inner()) = Some(tx);
            }
            // nothing is computed ahead; every pass after a change computes
            Err(e) => crate::log(
                osm,
                true,
                &format!("cannot start the thread that computes tables ahead: {e}"),
            ),
        }
    }

    /// Stop the worker and wait for it (it ends within one change's routing).
    pub fn stop(&self) {
        self.shared.stopping.store(true, Ordering::Release);
        self.shared.epoch.fetch_add(1, Ordering::AcqRel);
        // the worker ends when the channel closes
        drop(self.send.lock().unwrap_or_else(|e| e.into_inner()).take());
        if let Some(h) = self.worker.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = h.join();
        }
    }
}

/// The worker's loop: wait for the newest job, compute its changes, say what it computed.
fn work(shared: &Shared, rx: &Receiver<Msg>) {
    // SAFETY: a plain call that blocks this thread's signals
    unsafe { ibfat_shim_background_thread(0) };
    // a subnet's own tables race OpenSM's pass, on a machine it keeps busy: they are
    // computed at normal priority, changes at idle
    let mut idle = false;
    let mut priority = move |low: bool| {
        if idle != low {
            idle = low;
            // SAFETY: a plain call that sets this thread's priority (signals stay blocked)
            unsafe { ibfat_shim_background_thread(c_int::from(low)) };
        }
    };
    while let Ok(msg) = rx.recv() {
        let Some(mut job) = chores(msg) else {
            continue;
        };
        // only the newest job matters; what else came is done here
        while let Ok(next) = rx.try_recv() {
            if let Some(j) = chores(next) {
                job = j;
            }
        }
        if shared.epoch.load(Ordering::Acquire) != job.epoch {
            continue;
        }
        let changes = job_changes(&job);
        priority(!job.base.own_first());
        make_room(shared, job.epoch, changes.len());
        if job.base.own_first() {
            shared.own(Some(job.records.digest()));
        }
        let mut own_done = || {
            shared.own(None);
            priority(true);
        };
        let line = compute_changes(shared, &job, &changes, &mut own_done);
        shared.own(None);
        if let Some(line) = line {
            crate::log(job.osm.0, false, &line);
        }
    }
}

/// What a job computes: the single changes of its subnet, after a saved subnet's own
/// tables (alone when the subnet is routed on all cores: its changes are not computed
/// ahead, [`crate::routing_pass`]); a discovered subnet's own tables alone.
fn job_changes(job: &Job) -> Vec<Change> {
    if !job.base.own_first() {
        return job.records.changes();
    }
    let mut changes = vec![Change::Unchanged];
    if job.base == Base::Saved && job.records.threads().single() {
        changes.extend(job.records.changes());
    }
    changes
}

/// Do what a message asks but a job: free, or save a subnet's records.
fn chores(msg: Msg) -> Option<Job> {
    match msg {
        Msg::Job(job) => return Some(job),
        Msg::Drop(what) => drop(what),
        Msg::Save(osm, path, records) => {
            if let Err(e) = crate::subnet::saved::save(&path, &records) {
                crate::log(
                    osm.0,
                    true,
                    &format!("state_file: cannot keep the subnet in {}: {e}", path.display()),
                );
            }
        }
    }
    None
}

/// Drop the tables of older jobs and reserve room for `n` more, allocating and freeing
/// only while the list is unlocked (a pass may be looking it up).
fn make_room(shared: &Shared, epoch: u64, n: usize) {
    let all = std::mem::take(&mut *shared.ready());
    let (stale, mut keep): (Vec<Ready>, Vec<Ready>) = all.into_iter().partition(|r| r.epoch != epoch);
    drop(stale);
    keep.reserve(n);
    // the list is still the empty one taken above (passes only remove, only this thread
    // adds): replacing it frees nothing
    *shared.ready() = keep;
}

/// Compute every change of `job`'s subnet, the likeliest first, keeping each result
/// while the job is current and the budget holds (after the first, the thread runs at
/// idle priority: `lower`); the job's log line (every job ends with
/// one, but at unload).
fn compute_changes(shared: &Shared, job: &Job, changes: &[Change], lower: &mut dyn FnMut()) -> Option<String> {
    let t0 = Instant::now();
    let (mut kept, mut failed, mut bytes) = (0usize, 0usize, 0usize);
    let current = || shared.epoch.load(Ordering::Acquire) == job.epoch;
    for (i, &change) in changes.iter().enumerate() {
        if i > 0 {
            lower();
        }
        if !current() {
            return superseded(shared, job, kept, changes.len());
        }
        let Some(done) = compute_change(job, change) else {
            failed += 1;
            continue;
        };
        if bytes + done.bytes() > AHEAD_BYTES {
            return Some(format!(
                "computed ahead: the tables of {kept} of the {} single changes of {}, then the {} MiB budget was spent ({:.1} ms on a low-priority thread)",
                changes.len(),
                job.base.words(),
                AHEAD_BYTES >> 20,
                t0.elapsed().as_secs_f64() * 1e3
            ));
        }
        bytes += done.bytes();
        let ready = Ready {
            change: job.records.describe(change),
            base: job.base,
            done,
            epoch: job.epoch,
        };
        let mut list = shared.ready();
        if !current() {
            drop(list);
            return superseded(shared, job, kept, changes.len());
        }
        list.push(ready);
        kept += 1;
    }
    let (ms, mib) = (t0.elapsed().as_secs_f64() * 1e3, bytes as f64 / f64::from(1 << 20));
    Some(match (job.base, kept) {
        (Base::Discovered, 1) => format!("computed ahead: the tables of the subnet discovery found in {ms:.1} ms, {mib:.1} MiB"),
        (Base::Discovered, _) => "computed ahead: the subnet discovery found is not routable (its pass will say why)".to_string(),
        _ => format!(
            "computed ahead: the tables of {kept} single changes of {} ({failed} others not routable) in {ms:.1} ms on a low-priority thread, {mib:.1} MiB",
            job.base.words(),
        ),
    })
}

/// The log line of a job a later pass superseded (none at unload: the channel is closed
/// and OpenSM is going).
fn superseded(shared: &Shared, job: &Job, kept: usize, of: usize) -> Option<String> {
    (!shared.stopping.load(Ordering::Acquire)).then(|| {
        format!(
            "computed ahead: stopped after {kept} of the {of} single changes of {}, a later pass programmed another",
            job.base.words()
        )
    })
}

/// Run a pass and a change of it on a lab-sized irregular tree, and keep nothing but a
/// 4 KiB block that holds the freed memory in the allocator: the code, the heap pages
/// and the lazily made tables a first pass on a tree as found needs are then in memory,
/// not faulted in during OpenSM's first routing pass. The plugin runs it once, on the
/// routing thread, when OpenSM starts its first heavy sweep (a few milliseconds before
/// discovery; run concurrently with the sweep, on the worker, it made SuperPOD 1 SU's
/// first pass 3 ms instead of 1).
pub(crate) fn warm_up(options: &Options) {
    let records = crate::subnet::made::warm_up();
    let offer = VlOffer {
        qos: false,
        max_op_vls: 0,
        lowest_cap: records.lowest_vl_cap(),
    };
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let changed = records.after(records.changes()[0]);
        let done: Vec<_> = [records, changed]
            .into_iter()
            .map(|r| crate::compute(options, r, offer, 0, Instant::now(), &mut Vec::new()))
            .collect();
        // a block allocated above what the warm-up holds, never freed (4 KiB, once): what
        // the warm-up frees below it stays with this thread's allocator instead of going
        // back to the kernel, and the first pass reuses those pages instead of faulting
        // new ones in (lab: 25 → 15–18 page faults; first pass, median of six starts,
        // 0.69 → 0.59–0.60 ms in two rounds, and no start above 0.71 ms in twelve)
        let pin: &'static mut [u8; 4096] = Box::leak(Box::new([1u8; 4096]));
        std::hint::black_box(pin);
        drop(done);
    }));
}

/// What a pass would compute after `change`; `None` where it would not route.
fn compute_change(job: &Job, change: Change) -> Option<LastPass> {
    let records = job.records.after(change);
    let routed = catch_unwind(AssertUnwindSafe(|| {
        let mut notes = Vec::new();
        let pass = match job.base {
            Base::Pass(k) => k,
            Base::Saved | Base::Discovered => 0,
        };
        let res = crate::compute(&job.options, records, job.offer, pass, Instant::now(), &mut notes);
        res.ok().map(|(mut done, _)| {
            done.notes = notes;
            done
        })
    }));
    routed.ok().flatten()
}

/// Have the worker compute the tables of the subnet `state_file` kept, and of its single
/// changes, while OpenSM starts: a first pass that reads the same records takes them. The
/// digest of the records read, if any (the file need not be written again for them).
pub(crate) fn resume(osm: *mut c_void, options: &Options, ahead: &Ahead) -> Option<u64> {
    let path = options.state_file.as_ref()?;
    match crate::subnet::saved::load(path) {
        Ok(Some(records)) => {
            let (nodes, ports) = (records.nodes.len(), records.ports.len());
            let offer = crate::vl_offer(osm, records.lowest_vl_cap());
            if ahead.submit(osm, options, &records, offer, Base::Saved) {
                crate::log(
                    osm,
                    false,
                    &format!(
                        "state_file: read the last subnet ibfat programmed ({nodes} nodes, {ports} cabled ports) from {}; \
                         computing its tables, then those of its single changes, in the background",
                        path.display()
                    ),
                );
            }
            return Some(records.digest());
        }
        Ok(None) => crate::log(
            osm,
            false,
            &format!(
                "state_file: {} is not there yet; the first pass computes its tables",
                path.display()
            ),
        ),
        Err(e) => crate::log(
            osm,
            true,
            &format!(
                "state_file: cannot use {}: {e}; the first pass computes its tables, and the file is replaced after it",
                path.display()
            ),
        ),
    }
    None
}

/// At the end of a heavy sweep's discovery: have the worker compute the tables of the
/// subnet found, with the LIDs OpenSM is about to give ([`crate::subnet::lids`]), while
/// OpenSM spends milliseconds setting P_Keys and LIDs before it routes, so that the
/// sweep's pass takes them. Nothing is done when kept or computed-ahead tables already
/// serve that subnet, when its LIDs cannot be told (the pass computes), or when the last
/// pass stepped aside (`first`: no pass yet) — a subnet ibfat does not route would be
/// recognised in vain at every sweep. A pass whose records differ from the ones made here
/// computes too: only the records decide ([`crate::reuse`]).
pub(crate) fn discovered(
    osm: *mut c_void,
    options: &Options,
    sizes: &AtomicU64,
    first: bool,
    recent: &Mutex<crate::reuse::Recent>,
    ahead: &Ahead,
) {
    if !first && recent.lock().unwrap_or_else(|e| e.into_inner()).newest().is_none() {
        return;
    }
    let Ok(found) = Records::read(osm, sizes, Reading::Discovered) else {
        return;
    };
    let Some(records) = crate::subnet::lids::predicted(osm, &found) else {
        return;
    };
    let offer = crate::vl_offer(osm, records.lowest_vl_cap());
    let known = recent
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .serves(&records, &offer);
    if known || ahead.serves(&records, &offer) {
        return;
    }
    let (nodes, ports) = (records.nodes.len(), records.ports.len());
    if ahead.submit(osm, options, &records, offer, Base::Discovered) {
        crate::log(
            osm,
            false,
            &format!(
                "computing ahead the tables of the subnet discovery found ({nodes} nodes, {ports} cabled ports, \
                 with the LIDs OpenSM is about to give) while OpenSM configures it, on another thread"
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worker computing a subnet's own tables: `own` is set, and after `delay` the
    /// tables are in the list and `own` is cleared.
    fn worker_computing(ahead: &Ahead, records: &Records, offer: VlOffer, delay: Duration) -> JoinHandle<()> {
        ahead.shared.own(Some(records.digest()));
        let (shared, records) = (Arc::clone(&ahead.shared), records.clone());
        std::thread::spawn(move || {
            std::thread::sleep(delay);
            let options = crate::options::parse_options("").unwrap();
            let (done, _) = crate::compute(&options, records, offer, 0, Instant::now(), &mut Vec::new())
                .ok()
                .unwrap();
            let epoch = 0;
            shared.ready().push(Ready {
                change: NO_CHANGE.to_string(),
                base: Base::Discovered,
                done,
                epoch,
            });
            shared.own(None);
        })
    }

    #[test]
    fn a_pass_waits_for_the_own_tables_of_its_subnet_and_for_nothing_else() {
        let records = crate::subnet::made::warm_up();
        let offer = VlOffer {
            qos: false,
            max_op_vls: 0,
            lowest_cap: records.lowest_vl_cap(),
        };
        let ahead = Ahead::new();
        // nothing computed, nothing under way
        assert!(ahead.take(&records, &offer).is_none());
        // under way for these records: the pass waits, and takes them
        let worker = worker_computing(&ahead, &records, offer, Duration::from_millis(50));
        let (ready, waited) = ahead.take(&records, &offer).expect("the tables under way");
        assert!(waited.is_some_and(|w| w >= Duration::from_millis(50)), "{waited:?}");
        assert!(ready.done.serves(&records, &offer));
        worker.join().unwrap();
        // under way for another subnet: no wait
        let other = records.after(records.changes()[0]);
        let worker = worker_computing(&ahead, &other, offer, Duration::from_millis(300));
        let t = Instant::now();
        assert!(ahead.take(&records, &offer).is_none());
        assert!(t.elapsed() < Duration::from_millis(250), "{:?}", t.elapsed());
        worker.join().unwrap();
        // and what was computed for it is taken at once
        let (_, waited) = ahead.take(&other, &offer).expect("the other subnet's tables");
        assert_eq!(waited, None);
    }
}
