//! The two-level fat-tree (`twolevel`): a 2-level PGFT named in leaves, hosts per leaf, spines
//! and cables per pair.
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `model`: the parameters and their PGFT;
//! - `recognize`: a PGFT of two levels, named so.

pub mod model;
pub(crate) mod recognize;
