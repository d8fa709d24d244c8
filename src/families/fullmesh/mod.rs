//! The full mesh (`fullmesh`): N switches all cabled to each other, hosts on every switch; with
//! LMC the other LID offsets detour through one relay switch on a second data VL.
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `model`: the layout and its builder;
//! - `model_args`: its `ibfat build` arguments and help (with the `cli` feature);
//! - `model_spec`: its `fabric.yaml` keys, read and written;
//! - `recognize`: finding a full mesh in a discovered fabric;
//! - `route`: direct and one-relay routes, and their lane rule;
//! - `route_plan`: per-pair path plans over the LID offsets.

pub mod model;
#[cfg(feature = "cli")]
pub mod model_args;
mod model_layout;
mod model_spec;
pub(crate) mod recognize;
mod report;
pub mod route;
pub mod route_plan;

/// The family's layout, the variant of `topology::Layout` the registry makes for it.
pub(crate) type Layout = model::FullmeshLayout;

/// The family's parameters, what `fabric.yaml` and `ibfat build` give it (its keys:
/// `model_spec`).
pub(crate) type Params = model::FullmeshParams;

/// The family's `ibfat build` arguments (`model_args`), the variant of
/// `topology::spec::args::BuildCommand` the registry makes for it.
#[cfg(feature = "cli")]
pub(crate) type Args = model_args::FullmeshArgs;
