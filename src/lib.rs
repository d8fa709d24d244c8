//! ibfat: plan, route and verify InfiniBand fat-tree fabrics built from finite geometry.
//!
//! * [`geometry`] — GF(q), PG(2,q), mutually orthogonal Latin squares;
//! * [`topology`] — port-level models of the Latin-square fat-tree, the k-ary n-tree and
//!   the MOLS proximity 3-level tree;
//! * [`cabling`] — wiring plans for deployment;
//! * [`formats`] — ibsim, CSV, Graphviz and the other files ibfat reads and writes;
//! * [`metrics`] — cost and latency figures;
//! * [`schedule`] — all-to-all schedules and comparison patterns, and their files.
//! * [`select`] — choosing the all-to-all algorithm for a job's placement by measuring
//!   candidates on the routing tables;
//! * [`recognize`] — which family a discovered fabric is, in canonical coordinates;
//! * [`metrics`] — cost and latency figures.

pub mod cabling;
pub mod check;
pub mod error;
pub mod formats;
pub mod geometry;
pub mod hca;
pub mod metrics;
pub mod recognize;
pub mod rng;
pub mod routing;
pub mod schedule;
pub mod select;
pub mod topology;

pub use error::{Error, Result};
