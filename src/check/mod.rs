//! Verification: LFT validation and (with the schedules) the phase-by-phase conflict
//! checker. These checks are independent of the code that produced the tables: they
//! follow the LFTs hop by hop over the port-level fabric. A big check is split into
//! shards ([`shard`]) that merge exactly into the whole check's report; `check --rates`
//! weighs each link by its rate ([`rates`]). [`lft_diff`] compares two LFT sets of one
//! fabric (what a reroute changed).

pub(crate) mod bound;
pub(crate) mod conflicts;
pub mod lft_diff;
pub mod lfts;
pub mod multipath;
mod phase;
pub(crate) mod prove;
pub(crate) mod rates;
mod routes;
pub mod shard;
mod shard_links;
pub mod steps;
#[cfg(test)]
mod tree_detours;
pub mod vls;
mod walk;

pub use bound::{leaf_cut, leaf_cut_bound, LeafCut};
pub use conflicts::{
    check, check_counted, name_links, CheckReport, CompiledRoutes, LinkCount, LinkLoad, LinkRate, PhaseSummary,
    RailFigures, RouteFault, UnroutedFlow,
};
pub use lfts::{validate, LftReport};
pub use prove::{prove, Proof};
pub use rates::{RateWeights, RatesSummary};
pub use shard::{merge, CheckShard};
