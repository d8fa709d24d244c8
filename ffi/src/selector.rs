//! Selector handles: the run-time algorithm selector of seed 001 (learning, then the
//! fastest, monitored) for an MPI library's collective — one handle per communicator.
//!
//! Use: `ibfat_selector_next` names the candidate to run for this call; the caller runs
//! it, times it and hands the time to `ibfat_selector_record`. `ibfat_selector_free`
//! takes the address of the handle and sets it to NULL, so a freed selector used again
//! is a NULL handle (`IBFAT_E_ARG`, "selector handle is NULL") instead of freed memory.

use crate::fabric::IbfatFabric;
use crate::routes::IbfatRoutes;
use crate::status::{arg, cstr, free, give, guard, handle, handle_mut, out, Fail, IbfatStatus};
use ibfat::routing::{route, Lids};
use ibfat::schedule::job::Hosts;
use ibfat::schedule::Job;
use ibfat::select::model::{costs, predict, Hockney, Placement};
use ibfat::select::runtime::Selector;
use std::ffi::{c_char, CString};

/// A run-time selector over named candidates.
pub struct IbfatSelector {
    inner: Selector,
    /// NUL-terminated copies of the names, for `ibfat_selector_name`.
    names: Vec<CString>,
}

/// A selector over `candidates`, a list of algorithm names separated by commas (the
/// shortlist of `ibfat predict`: `"spread,ring,pair"`), measuring each `k` times (≥ 1)
/// while learning and learning again when the choice's mean over its last `k` calls is
/// more than `margin` (≥ 0; 0.2 = 20 %) slower than the second-best candidate's.
#[no_mangle]
pub unsafe extern "C" fn ibfat_selector_new(
    candidates: *const c_char,
    k: u32,
    margin: f64,
    out_selector: *mut *mut IbfatSelector,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: candidates is NULL or a C string, out_selector NULL or writable (pointer contract)
        let (list, o) = unsafe { (cstr(candidates, "candidates")?, out(out_selector, "out_selector")?) };
        *o = std::ptr::null_mut();
        let names: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
        let inner = Selector::new(names, k, margin)?;
        let names = inner
            .names()
            .iter()
            .map(|n| CString::new(n.as_str()).map_err(|_| arg("a candidate name contains NUL")))
            .collect::<Result<Vec<_>, Fail>>()?;
        give(o, IbfatSelector { inner, names });
        Ok(())
    })
}

/// A selector over the shortlist `ibfat predict` gives for a placement: the job `job`
/// (`ranks:0-7` or the path of a job file: fabric hosts in MPI rank order, one per node)
/// with `ranks_per_node` ranks each, blocks of `msg_size` bytes, Hockney `latency`
/// (seconds) and `bandwidth` (bytes/s), algorithms predicted at `prune` × the best or
/// slower dropped (2.0 in seed 001). `routes` may be NULL (ibfat's own tables for the
/// fabric); the fabric's family must be known. `k` and `margin` as in
/// `ibfat_selector_new`; the candidates' names are the algorithm names of
/// `ibfat predict` (spread, ring, pair, bruck, their barrier variants, lsft, ...).
#[no_mangle]
#[allow(clippy::too_many_arguments)] // one flat call for C; each argument is a plain value
pub unsafe extern "C" fn ibfat_selector_for_job(
    fabric: *const IbfatFabric,
    routes: *const IbfatRoutes,
    job: *const c_char,
    ranks_per_node: u32,
    msg_size: u64,
    latency: f64,
    bandwidth: f64,
    prune: f64,
    k: u32,
    margin: f64,
    out_selector: *mut *mut IbfatSelector,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric NULL or a live handle, job NULL or a C string, out_selector NULL
        // or writable (pointer contract)
        let (f, job, o) = unsafe {
            (
                handle(fabric, "fabric")?,
                cstr(job, "job")?,
                out(out_selector, "out_selector")?,
            )
        };
        *o = std::ptr::null_mut();
        // SAFETY: routes is NULL (own tables) or a live handle (pointer contract)
        let given = unsafe { routes.as_ref() };
        if msg_size == 0 {
            return Err(arg("msg_size is 0; valid: bytes > 0"));
        }
        if !(prune.is_finite() && prune >= 1.0) {
            return Err(arg(&format!("prune {prune} is out of range; valid: a factor >= 1")));
        }
        let h = Hockney::new(latency, bandwidth)?;
        let topo = f.known()?;
        let job = Job::from_arg(job, &Hosts::of(topo))?;
        let own;
        let (lids, lfts) = match given {
            Some(r) => (&r.lids, r.lfts()),
            None => {
                let lids = Lids::plan(&topo.fabric, topo.layout.hosts(), 0)?;
                let lfts = route(&topo.fabric, &topo.layout, &lids)?;
                own = (lids, lfts);
                (&own.0, &own.1)
            }
        };
        let placement = Placement {
            plan: topo,
            lids,
            lfts,
            job: &job,
            ranks_per_node,
        };
        let (c, _) = costs(&placement, None)?;
        let shortlist = predict(&c, &h, msg_size, prune).shortlist;
        let inner = Selector::new(shortlist, k, margin)?;
        let names = inner
            .names()
            .iter()
            .map(|n| CString::new(n.as_str()).map_err(|_| arg("a candidate name contains NUL")))
            .collect::<Result<Vec<_>, Fail>>()?;
        give(o, IbfatSelector { inner, names });
        Ok(())
    })
}

/// The candidate to run for the next call: its index in the list given to
/// `ibfat_selector_new`. Asking again before `ibfat_selector_record` names the same one.
#[no_mangle]
pub unsafe extern "C" fn ibfat_selector_next(selector: *mut IbfatSelector, out_index: *mut u32) -> IbfatStatus {
    guard(|| {
        // SAFETY: selector NULL or a live handle used by no one else, out_index NULL or writable
        let (s, o) = unsafe { (handle_mut(selector, "selector")?, out(out_index, "out_index")?) };
        *o = s.inner.next_candidate() as u32;
        Ok(())
    })
}

/// Record the time in seconds (finite, ≥ 0) of the call `ibfat_selector_next` named.
/// A negative or non-finite time, or a record without a pending call, is `IBFAT_E_INPUT`.
#[no_mangle]
pub unsafe extern "C" fn ibfat_selector_record(selector: *mut IbfatSelector, seconds: f64) -> IbfatStatus {
    guard(|| {
        // SAFETY: selector is NULL or a live handle used by no one else (pointer contract)
        let s = unsafe { handle_mut(selector, "selector")? };
        s.inner.record(seconds)?;
        Ok(())
    })
}

/// The chosen candidate's index once learning is over; while learning (no choice yet)
/// `IBFAT_E_NOT_FOUND`. `out_learning` (may be NULL) receives 1 while learning, else 0.
#[no_mangle]
pub unsafe extern "C" fn ibfat_selector_choice(
    selector: *const IbfatSelector,
    out_index: *mut u32,
    out_learning: *mut i32,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: selector NULL or a live handle; out_index NULL or writable; out_learning
        // NULL (ignored) or writable (pointer contract)
        let (s, o) = unsafe { (handle(selector, "selector")?, out(out_index, "out_index")?) };
        // SAFETY: out_learning is NULL or writable storage for an int32_t
        if let Some(l) = unsafe { out_learning.as_mut() } {
            *l = i32::from(s.inner.choice().is_none());
        }
        match s.inner.choice() {
            Some(i) => {
                *o = i as u32;
                Ok(())
            }
            None => Err(Fail(
                IbfatStatus::IbfatENotFound,
                "no choice yet: the selector is still learning".into(),
            )),
        }
    })
}

/// The name of candidate `index`; the string stays valid until the selector is freed.
#[no_mangle]
pub unsafe extern "C" fn ibfat_selector_name(
    selector: *const IbfatSelector,
    index: u32,
    out_name: *mut *const c_char,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: selector NULL or a live handle, out_name NULL or writable (pointer contract)
        let (s, o) = unsafe { (handle(selector, "selector")?, out(out_name, "out_name")?) };
        let n = s.names.get(index as usize).ok_or_else(|| {
            Fail(
                IbfatStatus::IbfatENotFound,
                format!("candidate {index} does not exist; valid: 0..{}", s.names.len()),
            )
        })?;
        *o = n.as_ptr();
        Ok(())
    })
}

/// Free the selector `*selector` points to and set `*selector` to NULL (NULL or a NULL
/// handle is ignored), so that a later use of the same variable is reported as a NULL
/// handle.
#[no_mangle]
pub unsafe extern "C" fn ibfat_selector_free(selector: *mut *mut IbfatSelector) {
    // SAFETY: selector is NULL or points to a variable holding NULL or a live handle from
    // ibfat_selector_new that is not used again (pointer contract)
    if let Some(p) = unsafe { selector.as_mut() } {
        let h = std::mem::replace(p, std::ptr::null_mut());
        // SAFETY: h is NULL or a handle from give() handed back once
        unsafe { free(h) };
    }
}
