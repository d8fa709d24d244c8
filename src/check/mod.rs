//! Verification: LFT validation and (with the schedules) the phase-by-phase conflict
//! checker. These checks are independent of the code that produced the tables: they
//! follow the LFTs hop by hop over the port-level fabric. A big check is split into
//! shards ([`shard`]) that merge exactly into the whole check's report.

pub mod conflicts;
pub mod lfts;
mod routes;
pub mod shard;
mod walk;

pub use conflicts::{check, CheckReport, CompiledRoutes, LinkLoad};
pub use lfts::{validate, LftReport};
pub use shard::{merge, CheckShard};
