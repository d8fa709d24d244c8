//! The k-ary n-tree (`kary`).
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `model`: the layout and its builder;
//! - `recognize`: finding a k-ary n-tree;
//! - `route`: its host routes, d-mod-k.

pub mod model;
pub(crate) mod recognize;
pub(crate) mod route;
