//! The k-ary n-tree (`kary`); its host routes (d-mod-k) are in `routing::hosts`.
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `model`: the layout and its builder;
//! - `recognize`: finding a k-ary n-tree.

pub mod model;
pub(crate) mod recognize;
