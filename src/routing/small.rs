//! Small fabrics are routed on one thread. Spreading a pass over rayon's workers costs
//! wake-ups and yields (0.3–1 ms a pass on this 2-core machine, measured inside OpenSM)
//! that a fabric of a few thousand table entries never wins back: OpenSM's minhop routes
//! a 100-host lab in 0.1 ms.

use std::sync::OnceLock;

/// Table entries (switches × LIDs) below which a pass runs on one thread: 250 switches
/// with 1,000 LIDs each still go parallel.
pub const SMALL: usize = 1 << 18;

/// Run `f` on a pool of one thread when `entries` is below [`SMALL`], else as it is
/// (where that pool cannot start, too). The pool is made once and kept.
pub fn sized<R: Send>(entries: usize, f: impl FnOnce() -> R + Send) -> R {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    if entries >= SMALL {
        return f();
    }
    let pool = POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
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
