//! The k-ary n-tree (`kary`).
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `model`: the layout and its builder;
//! - `model_args`: its `ibfat build` arguments and help (with the `cli` feature);
//! - `model_spec`: its `fabric.yaml` keys, read and written;
//! - `recognize`: finding a k-ary n-tree;
//! - `route`: its host routes, d-mod-k.

pub mod model;
#[cfg(feature = "cli")]
pub mod model_args;
mod model_layout;
mod model_spec;
pub(crate) mod recognize;
mod report;
pub(crate) mod route;

/// The family's layout, the variant of `topology::Layout` the registry makes for it.
pub(crate) type Layout = model::KaryLayout;

/// The family's parameters, what `fabric.yaml` and `ibfat build` give it (its keys:
/// `model_spec`).
pub(crate) type Params = model::KaryParams;

/// The family's `ibfat build` arguments (`model_args`), the variant of
/// `topology::spec::args::BuildCommand` the registry makes for it.
#[cfg(feature = "cli")]
pub(crate) type Args = model_args::KaryArgs;
