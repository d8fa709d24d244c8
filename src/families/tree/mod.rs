//! A fat-tree as it is found (`tree`): switches in levels by distance from the hosts, any
//! irregularity.
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `lanes`: the SL/VL rule of detours on a degraded tree;
//! - `model`: the layout;
//! - `recognize`: finding the levels;
//! - `report`: the levels and irregularities in a report;
//! - `route`: up*/down* balanced by load;
//! - `route_degraded`: routing with faults and detours.

pub mod lanes;
pub mod model;
mod model_layout;
pub(crate) mod recognize;
pub(crate) mod report;
pub(crate) mod route;
pub(crate) mod route_degraded;

pub use report::{IrregularityReport, LevelReport};

/// The family's layout, the variant of `topology::Layout` the registry makes for it.
pub(crate) type Layout = model::TreeLayout;
