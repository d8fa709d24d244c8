//! The boundary itself: the status every call returns, the thread-local message that
//! explains it, the panic barrier ([`guard`]) and the checked conversions of the raw
//! pointers C passes in.

use ibfat::Error;
use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Result of every call.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbfatStatus {
    /// Success.
    IbfatOk = 0,
    /// A null pointer or an argument out of range.
    IbfatEArg = 1,
    /// Bad input: a malformed file, an impossible parameter (the message names it).
    IbfatEInput = 2,
    /// I/O failure.
    IbfatEIo = 3,
    /// The fabric is not of a family ibfat knows (the message says why).
    IbfatEUnrecognized = 4,
    /// No such switch, LID, rank or phase.
    IbfatENotFound = 5,
    /// An internal error (a caught panic): a bug to report.
    IbfatEInternal = 6,
    /// A schedule computed for another fabric or other forwarding tables than the ones
    /// given: using it would mislead (the message says which fingerprints differ).
    IbfatEStale = 7,
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(msg: &str) {
    let c = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// A failure: status and message.
pub(crate) struct Fail(pub(crate) IbfatStatus, pub(crate) String);

impl From<Error> for Fail {
    fn from(e: Error) -> Fail {
        let code = if e.is_input() {
            IbfatStatus::IbfatEInput
        } else {
            IbfatStatus::IbfatEIo
        };
        Fail(code, e.to_string())
    }
}

/// A bad argument (`IBFAT_E_ARG`).
pub(crate) fn arg(msg: &str) -> Fail {
    Fail(IbfatStatus::IbfatEArg, msg.to_string())
}

/// Run `f`, catching panics; set the last error on failure.
pub(crate) fn guard(f: impl FnOnce() -> Result<(), Fail>) -> IbfatStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => {
            set_error("");
            IbfatStatus::IbfatOk
        }
        Ok(Err(Fail(code, msg))) => {
            set_error(&msg);
            code
        }
        Err(p) => {
            let what = ibfat::error::panic_message(p.as_ref());
            set_error(&format!("internal error (please report): {what}"));
            IbfatStatus::IbfatEInternal
        }
    }
}

/// The string argument `what`; NULL or not UTF-8 is `IBFAT_E_ARG`.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that stays valid for `'a`.
pub(crate) unsafe fn cstr<'a>(p: *const c_char, what: &str) -> Result<&'a str, Fail> {
    if p.is_null() {
        return Err(arg(&format!("{what} is NULL")));
    }
    // SAFETY: p is not NULL, and the caller guarantees a NUL-terminated string valid for 'a
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|_| arg(&format!("{what} is not UTF-8")))
}

/// The handle argument `what`; NULL is `IBFAT_E_ARG`.
///
/// # Safety
/// `p` is NULL or a live handle this crate returned, not mutated elsewhere during `'a`.
pub(crate) unsafe fn handle<'a, T>(p: *const T, what: &str) -> Result<&'a T, Fail> {
    // SAFETY: the caller guarantees p is NULL (as_ref checks) or a live, aligned handle
    unsafe { p.as_ref() }.ok_or_else(|| arg(&format!("{what} handle is NULL")))
}

/// The handle argument `what`, to change it; NULL is `IBFAT_E_ARG`.
///
/// # Safety
/// `p` is NULL or a live handle this crate returned, not accessed elsewhere during `'a`.
pub(crate) unsafe fn handle_mut<'a, T>(p: *mut T, what: &str) -> Result<&'a mut T, Fail> {
    // SAFETY: the caller guarantees p is NULL (as_mut checks) or a live handle used by no one else
    unsafe { p.as_mut() }.ok_or_else(|| arg(&format!("{what} handle is NULL")))
}

/// The out-pointer `what`; NULL is `IBFAT_E_ARG`.
///
/// # Safety
/// `p` is NULL or points to writable, aligned storage for a `T` during `'a`.
pub(crate) unsafe fn out<'a, T>(p: *mut T, what: &str) -> Result<&'a mut T, Fail> {
    // SAFETY: the caller guarantees p is NULL (as_mut checks) or writable, aligned storage;
    // out-pointer types are plain data, so overwriting what is there drops nothing
    unsafe { p.as_mut() }.ok_or_else(|| arg(&format!("out-pointer {what} is NULL")))
}

/// Put a new handle into the out-pointer; C gives it back to the matching `*_free`.
pub(crate) fn give<T>(o: &mut *mut T, value: T) {
    *o = Box::into_raw(Box::new(value));
}

/// Free a handle made by [`give`] (NULL is ignored); a panic in a destructor stops here.
///
/// # Safety
/// `p` is NULL or a handle of type `T` from [`give`] that is not used again.
pub(crate) unsafe fn free<T>(p: *mut T) {
    if !p.is_null() {
        // SAFETY: p came from Box::into_raw in give() and the caller hands it back once
        let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(p) })));
    }
}

/// The library version, a static NUL-terminated string.
#[no_mangle]
pub extern "C" fn ibfat_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

/// Message of the last failed call on this thread ("" after a success). Valid until the
/// next ibfat call on the same thread; never NULL.
#[no_mangle]
pub extern "C" fn ibfat_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Self-test of the panic barrier: panics inside the library and returns what every entry
/// point returns then, `IBFAT_E_INTERNAL`, with the panic message in `ibfat_last_error()`.
/// Lets integrators check that no unwinding reaches their code.
#[no_mangle]
pub extern "C" fn ibfat_selftest_panic_barrier() -> IbfatStatus {
    guard(|| {
        let v: Vec<u8> = Vec::new();
        let i = v.len() + 3;
        let _ = v[i]; // index out of bounds: a genuine panic
        Ok(())
    })
}
