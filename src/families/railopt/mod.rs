//! The rail-optimised GPU cluster (`railopt`): servers of one HCA per rail, built and routed as a
//! PGFT whose hosts the rails order.
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `model`: the plan, builder and cabling check;
//! - `model_spec`: its `fabric.yaml` keys, read and written;
//! - `recognize`: found as the PGFT it is; `recognize_slots`: host slots in server order;
//! - `report`: the rails in a recognition report;
//! - `schedule`: the traffic of GPU collectives per rail.

pub mod model;
mod model_spec;
pub(crate) mod recognize;
pub(crate) mod recognize_slots;
pub mod report;
pub mod schedule;

/// The family's parameters, what `fabric.yaml` and `ibfat build` give it (its keys:
/// `model_spec`).
pub(crate) type Params = model::plan::RailoptParams;
