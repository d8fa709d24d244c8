//! ibfat: plan, route and verify InfiniBand fat-tree fabrics.
//!
//! The working set, re-exported at the root: [`load()`] a TOPOLOGY (plan, spec, ibsim net
//! file, or what `ibnetdiscover` / `iblinkinfo` / OpenSM printed) into a fabric,
//! [`recognize()`] its family (intact, or with cables and switches missing), plan its
//! [`Lids`], route it with [`route_fabric`] — the one place that decides how a fabric is
//! routed — and prove the result with [`prove()`]; then build schedules ([`schedule`]) and
//! check them for link conflicts on the tables ([`check`]).
//!
//! The families are [`Family`], listed by the registry [`FAMILIES`]; each has its folder in
//! [`families`] (model, recognition, routing, degraded variant, lane rule), whose parts sit
//! in the layers below.
//!
//! Modules, lowest layer first (a module only uses those before it): [`error`], [`guid`],
//! [`families`] (the registry), [`fingerprint`], [`geometry`], [`topology`] (port-level
//! fabrics, the layouts of the families), [`routing`], [`formats`], [`schedule`],
//! [`metrics`], [`mod@recognize`], [`check`], [`select`], [`cabling`], [`mod@load`],
//! [`hca`]. The mathematics is in the repository's `docs/` folder.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cabling;
pub mod check;
pub mod error;
pub mod families;
pub mod fingerprint;
pub mod formats;
pub mod geometry;
pub(crate) mod guid;
pub mod hca;
pub mod load;
pub mod metrics;
pub mod recognize;
mod rng;
pub mod routing;
pub mod schedule;
pub mod select;
pub mod topology;

pub use check::{prove, Proof};
pub use error::{Error, Result};
pub use families::{Family, FAMILIES};
pub use load::{load, Loaded};
pub use recognize::{recognize, Recognition};
/// The seeded generator behind `--shuffle` and the random patterns: the same seed gives
/// the same fabric and pattern on every machine and release, so tests and users that
/// need their own reproducible draws use this one.
pub use rng::SplitMix64;
pub use routing::{route_fabric, Ask, Lids, Objective, Refusal, Routed, Shape};
pub use topology::{Fabric, Layout, Spec, Topology};
