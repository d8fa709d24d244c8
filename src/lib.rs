//! ibfat: plan, route and verify InfiniBand fat-tree fabrics built from finite geometry.
//!
//! The modules, from the mathematics up to the front ends (a module only uses those
//! above it in this list):
//!
//! * [`error`] — the one error type: bad input (with file, line, field, hint) or a
//!   failed environment; [`fingerprint`] — the stable hash artefacts record of what they
//!   were computed for;
//! * [`geometry`] — GF(q), PG(2,q), mutually orthogonal Latin squares;
//! * [`topology`] — port-level fabrics and the family layouts: the Latin-square fat-tree,
//!   the k-ary n-tree and the MOLS proximity 3-level tree, built from a [`topology::Spec`];
//! * [`routing`] — LID assignment and deterministic linear forwarding tables per family;
//! * [`formats`] — the files ibfat reads and writes for the tools around it (ibsim,
//!   `ibnetdiscover`, OpenSM LFT dumps, CSV, Graphviz), written atomically;
//! * [`schedule`] — all-to-all schedules, comparison patterns, jobs and schedule files;
//! * [`metrics`] — cost and latency figures of the families;
//! * [`recognize`] — which family a discovered fabric is, in canonical coordinates;
//! * [`check`] — link conflicts of a pattern on real tables, and LFT validation
//!   (reachability, loops, deadlock freedom);
//! * [`select`] — choosing the all-to-all algorithm for a job's placement by measuring
//!   candidates on the routing tables;
//! * [`cabling`] — wiring plans for deployment, and the audit of a discovered fabric
//!   against its plan;
//! * [`load`] — the one loader that turns a TOPOLOGY argument (plan, spec, net file or
//!   dump) into a fabric with its family layout, for the CLI, the C ABI and the plugin;
//! * [`hca`] — the local host channel adapter's ports (sysfs, or libibverbs).
//!
//! The mathematics behind each family and schedule is written up in the repository's
//! `docs/` folder.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cabling;
pub mod check;
pub mod error;
pub mod fingerprint;
pub mod formats;
pub mod geometry;
pub mod hca;
pub mod load;
pub mod metrics;
pub mod recognize;
mod rng;
pub mod routing;
pub mod schedule;
pub mod select;
pub mod topology;

pub use error::{Error, Result};
/// The seeded generator behind `--shuffle` and the random patterns: the same seed gives
/// the same fabric and pattern on every machine and release, so tests and users that
/// need their own reproducible draws use this one.
pub use rng::SplitMix64;
