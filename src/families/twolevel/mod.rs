//! The two-level fat-tree (`twolevel`): a 2-level PGFT named in leaves, hosts per leaf, spines
//! and cables per pair.
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `model`: the parameters and their PGFT;
//! - `model_args`: its `ibfat build` arguments and help (with the `cli` feature);
//! - `model_spec`: its `fabric.yaml` keys, read and written;
//! - `recognize`: a PGFT of two levels, named so.

pub mod model;
#[cfg(feature = "cli")]
pub mod model_args;
mod model_spec;
pub(crate) mod recognize;

/// The family's parameters, what `fabric.yaml` and `ibfat build` give it (its keys:
/// `model_spec`).
pub(crate) type Params = model::TwolevelParams;

/// The family's `ibfat build` arguments (`model_args`), the variant of
/// `topology::spec::args::BuildCommand` the registry makes for it.
#[cfg(feature = "cli")]
pub(crate) type Args = model_args::TwolevelArgs;
