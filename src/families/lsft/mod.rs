//! The Latin-square fat-tree (`lsft`): leaves and spines are the points and lines of PG(2,q).
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `lanes`: the SL/VL rule of the degraded router's detours;
//! - `model`: the layout and its builder;
//! - `model_holes`: a degraded LSFT: the plane with holes;
//! - `model_args`: its `ibfat build` arguments and help (with the `cli` feature);
//! - `model_spec`: its `fabric.yaml` keys, read and written;
//! - `recognize`: finding an LSFT;
//! - `recognize_degraded`: finding an LSFT with cables or switches missing;
//! - `recognize_plane`: the plane isomorphism recognition rests on;
//! - `route`: the intact host routes;
//! - `route_degraded`: routing around the holes with detours and lanes;
//! - `schedule`: the conflict-free all-to-all.

pub mod lanes;
pub mod model;
#[cfg(feature = "cli")]
pub mod model_args;
pub mod model_holes;
mod model_layout;
mod model_spec;
pub(crate) mod recognize;
pub(crate) mod recognize_degraded;
pub(crate) mod recognize_plane;
mod report;
pub(crate) mod route;
pub(crate) mod route_degraded;
pub mod schedule;

/// The family's layout, the variant of `topology::Layout` the registry makes for it.
pub(crate) type Layout = model::LsftLayout;

/// The family's degraded structure, the variant of `topology::degraded::Holes` the registry
/// makes for it.
pub(crate) type Holes = model_holes::LsftHoles;

/// The family's parameters, what `fabric.yaml` and `ibfat build` give it (its keys:
/// `model_spec`).
pub(crate) type Params = model::LsftParams;

/// The family's `ibfat build` arguments (`model_args`), the variant of
/// `topology::spec::args::BuildCommand` the registry makes for it.
#[cfg(feature = "cli")]
pub(crate) type Args = model_args::LsftArgs;
