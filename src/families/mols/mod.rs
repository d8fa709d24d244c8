//! The MOLS proximity 3-level tree (`mols`).
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `model`: the layout, wirings and builder;
//! - `model_holes`: a degraded MOLS tree;
//! - `model_args`: its `ibfat build` arguments and help (with the `cli` feature);
//! - `model_spec`: its `fabric.yaml` keys, read and written;
//! - `recognize`: finding a MOLS tree and its wiring;
//! - `recognize_degraded`: finding one with faults;
//! - `route`: the intact host routes, bandwidth and latency;
//! - `route_degraded`: up*/down* around the holes.

pub mod model;
#[cfg(feature = "cli")]
pub mod model_args;
pub mod model_holes;
mod model_layout;
mod model_spec;
pub(crate) mod recognize;
pub(crate) mod recognize_degraded;
mod report;
pub(crate) mod route;
pub(crate) mod route_degraded;

/// The family's layout, the variant of `topology::Layout` the registry makes for it.
pub(crate) type Layout = model::MolsLayout;

/// The family's degraded structure, the variant of `topology::degraded::Holes` the registry
/// makes for it.
pub(crate) type Holes = model_holes::MolsHoles;

/// The family's parameters, what `fabric.yaml` and `ibfat build` give it (its keys:
/// `model_spec`).
pub(crate) type Params = model::MolsParams;

/// The family's `ibfat build` arguments (`model_args`), the variant of
/// `topology::spec::args::BuildCommand` the registry makes for it.
#[cfg(feature = "cli")]
pub(crate) type Args = model_args::MolsArgs;
