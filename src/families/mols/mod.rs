//! The MOLS proximity 3-level tree (`mols`).
//!
//! Parts (each in the layer its name says, see [`crate::families`]):
//! - `model`: the layout, wirings and builder;
//! - `model_holes`: a degraded MOLS tree;
//! - `recognize`: finding a MOLS tree and its wiring;
//! - `recognize_degraded`: finding one with faults;
//! - `route`: the intact host routes, bandwidth and latency;
//! - `route_degraded`: up*/down* around the holes.

pub mod model;
pub mod model_holes;
pub(crate) mod recognize;
pub(crate) mod recognize_degraded;
pub(crate) mod route;
pub mod route_degraded;
