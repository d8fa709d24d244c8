//! Verification: LFT validation and (with the schedules) the phase-by-phase conflict
//! checker. These checks are independent of the code that produced the tables: they
//! follow the LFTs hop by hop over the port-level fabric.

pub mod conflicts;
pub mod lfts;

pub use conflicts::{check, merge, CheckReport, CompiledRoutes};
pub use lfts::{validate, LftReport};
