//! C ABI of ibfat.
//!
//! Handles are opaque pointers created by `*_new`/`*_load`/`*_open`/`*_compute` functions and
//! released by the matching `*_free`. Every function returns an [`IbfatStatus`] and writes
//! results through out-pointers; `ibfat_last_error()` explains a failure. Rust panics are
//! caught at this boundary and turned into `IBFAT_E_INTERNAL`, so no unwinding ever
//! crosses into C (or into OpenSM).
//!
//! # Pointer contract
//!
//! Every pointer a caller passes is NULL (reported as `IBFAT_E_ARG`, or ignored where a
//! function says so) or valid for what the function does with it:
//!
//! * a handle (`IbfatFabric *`, `IbfatRoutes *`, `IbfatSchedule *`, `IbfatPathPlan *`,
//!   `IbfatSelector *`, `IbfatBcast *`) was returned by this
//!   library, has not been freed, and no other thread uses it during the call;
//! * a `const char *` points to a NUL-terminated string that stays valid during the call;
//! * an out-pointer points to writable, aligned storage of its type, and an out array
//!   (`ibfat_schedule_phase`) to `len` such elements (`ibfat_path_plan_offsets`: to
//!   `IBFAT_PATH_PLAN_SLOTS` bytes);
//! * a handle given to a `*_free` function is not used again.
//!
//! The `unsafe` code of this crate relies on exactly these conditions; its `SAFETY:`
//! comments say which one applies.
//!
//! The API is split by handle: [`status`] (status codes, the last error, the panic
//! barrier), [`fabric`] (fabrics and recognition), [`routes`] (LIDs, LFTs, validation,
//! route files), [`schedules`] (all-to-all schedules by rank and phase), [`plans`] (the
//! DLID offsets of a full mesh's multipath plan), [`selector`] (the run-time all-to-all
//! algorithm selector) and [`bcast`] (multi-lane broadcast trees by rank and lane).
#![allow(clippy::missing_safety_doc)] // the pointer contract above covers every function
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

// cbindgen writes the functions in this order: the boundary first, then one API per handle
pub mod status;

pub mod fabric;
pub mod plans;
pub mod routes;
pub mod schedules;
pub mod selector;

pub mod bcast;

pub use bcast::*;
pub use fabric::*;
pub use plans::*;
pub use routes::*;
pub use schedules::*;
pub use selector::*;
pub use status::{ibfat_last_error, ibfat_selftest_panic_barrier, ibfat_version, IbfatStatus};
