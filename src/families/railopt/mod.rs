//! The rail-optimised GPU cluster (`railopt`): servers of one HCA per rail, built and routed as a
//! PGFT whose hosts the rails order.
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `model`: the plan, builder and cabling check;
//! - `model_args`: its `ibfat build` arguments and help (with the `cli` feature);
//! - `model_spec`: its `fabric.yaml` keys, read and written;
//! - `recognize`: found as the PGFT it is; `recognize_slots`: host slots in server order;
//! - `report`: the rails in a recognition report;
//! - `schedule`: the traffic of GPU collectives per rail.

pub mod model;
#[cfg(feature = "cli")]
pub mod model_args;
mod model_spec;
pub(crate) mod recognize;
pub(crate) mod recognize_slots;
pub mod report;
pub mod schedule;

/// The family's parameters, what `fabric.yaml` and `ibfat build` give it (its keys:
/// `model_spec`).
pub(crate) type Params = model::plan::RailoptParams;

/// The family's `ibfat build` arguments (`model_args`), the variant of
/// `topology::spec::args::BuildCommand` the registry makes for it.
#[cfg(feature = "cli")]
pub(crate) type Args = model_args::RailoptArgs;
