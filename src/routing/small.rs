//! Small fabrics are routed on one thread. Spreading a pass over rayon's workers costs
//! wake-ups and yields (0.3–1 ms a pass on this 2-core machine, measured inside OpenSM)
//! that a fabric of a few thousand table entries never wins back: OpenSM's minhop routes
//! a 100-host lab in 0.1 ms. Even one worker costs: handing a pass to a sleeping thread on
//! another core, with cold caches there, took 170 µs of a 300 µs route (a 145-host lab,
//! caches flushed between passes as OpenSM's own work flushes them). A caller that owns
//! its thread (the OpenSM plugin) therefore runs its small passes on that thread itself
//! ([`PassThreads`]).

use rayon::{ThreadPool, ThreadPoolBuilder};
use std::cell::OnceCell;
use std::sync::OnceLock;

/// Table entries (switches × LIDs) below which a pass runs on one thread: 250 switches
/// with 1,000 LIDs each still go parallel.
pub(crate) const SMALL: usize = 1 << 18;

/// Run `f` on a pool of one thread when `entries` is below [`SMALL`], else on all cores
/// (where a pool cannot start, as it is). The pools are made once and kept.
pub(crate) fn sized<R: Send>(entries: usize, f: impl FnOnce() -> R + Send) -> R {
    if entries >= SMALL {
        return wide(f);
    }
    if on_one_thread() {
        // already where one-thread work belongs (a small pass of [`PassThreads`])
        return f();
    }
    static POOL: OnceLock<Option<ThreadPool>> = OnceLock::new();
    let pool = POOL.get_or_init(|| {
        ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|_| "ibfat-small".into())
            .build()
            .ok()
    });
    match pool {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// Where the compute steps of one routing pass run: a small pass on the calling thread
/// itself (no hand-over to another thread, no wake-up), a large one on all cores.
///
/// The calling thread becomes, for good, the one thread of a pool of its own: every
/// rayon loop it runs afterwards, outside [`PassThreads::run`] too, stays on it. That
/// suits a thread that only routes (OpenSM's sweeper) and is why the CLI does not use it.
#[derive(Clone, Copy, Debug)]
pub struct PassThreads {
    inline: bool,
}

impl PassThreads {
    /// The threads for a pass over `entries` table entries (switches × LIDs).
    pub fn for_entries(entries: usize) -> PassThreads {
        PassThreads {
            inline: entries < SMALL,
        }
    }

    /// Whether the pass runs on the calling thread alone (a small fabric).
    pub fn single(self) -> bool {
        self.inline
    }

    /// Run `f`, and every rayon loop in it, where the pass belongs.
    pub fn run<R: Send>(self, f: impl FnOnce() -> R + Send) -> R {
        if !self.inline {
            return wide(f);
        }
        match this_thread() {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }
}

/// Whether the caller is the one thread of a one-thread pool (a small pass).
fn on_one_thread() -> bool {
    rayon::current_thread_index().is_some() && rayon::current_num_threads() == 1
}

/// Run `f` on all cores: as it is, unless the caller is a small pass's thread (whose
/// rayon loops would stay on it), then on a pool of all cores made once.
fn wide<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    if !on_one_thread() {
        return f();
    }
    static WIDE: OnceLock<Option<ThreadPool>> = OnceLock::new();
    let pool = WIDE.get_or_init(|| {
        ThreadPoolBuilder::new()
            .thread_name(|i| format!("ibfat-wide-{i}"))
            .build()
            .ok()
    });
    match pool {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// The one-thread pool whose thread is the calling thread, made on its first small pass
/// and kept for the thread's life (leaked: dropping it at thread exit would stop a pool
/// whose worker is the exiting thread). None when the thread already works for another
/// pool: the pass then runs in that pool.
fn this_thread() -> Option<&'static ThreadPool> {
    thread_local! {
        static HERE: OnceCell<Option<&'static ThreadPool>> = const { OnceCell::new() };
    }
    HERE.with(|here| {
        *here.get_or_init(|| {
            ThreadPoolBuilder::new()
                .num_threads(1)
                .use_current_thread()
                .build()
                .ok()
                .map(|pool| &*Box::leak(Box::new(pool)))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    /// A small pass runs its rayon loops on the caller's thread; a large pass after it, on
    /// the same thread, runs them on more than one thread again (on a machine with more
    /// than one core).
    #[test]
    fn small_passes_stay_on_the_calling_thread_and_large_ones_spread() {
        std::thread::spawn(|| {
            let me = std::thread::current().id();
            let ids: Vec<_> = PassThreads::for_entries(1000)
                .run(|| (0..64).into_par_iter().map(|_| std::thread::current().id()).collect());
            assert!(ids.iter().all(|&id| id == me), "a small pass left its thread");
            // route_fabric's own sizing inside a small pass stays on the thread too
            let inner = PassThreads::for_entries(1000).run(|| sized(1000, || std::thread::current().id()));
            assert_eq!(inner, me);
            let threads = PassThreads::for_entries(SMALL).run(rayon::current_num_threads);
            // what a thread outside every pool gets (RAYON_NUM_THREADS or the cores)
            let cores = std::thread::spawn(rayon::current_num_threads).join().unwrap();
            assert_eq!(threads, cores, "a large pass after a small one is on all cores");
            assert_eq!(sized(SMALL, rayon::current_num_threads), cores);
        })
        .join()
        .unwrap();
    }
}
