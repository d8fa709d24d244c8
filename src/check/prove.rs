//! The one soundness check of routes from `routing::route_fabric`, used by every front end
//! before tables are written or programmed.
//!
//! What is proven depends on how the routes were made: one-VL routes must be loop-free,
//! deliver every LID and have an acyclic CDG; routes with lanes are proven per VL (their
//! one-VL CDG is cyclic by design); a degraded tree may leave exactly the pairs it
//! reports unrouted and nothing else broken.

use super::lfts::{validate, LftReport};
use super::vls::{check_lanes, VlReport};
use crate::routing::{Lids, Method, Routed};
use crate::topology::{Fabric, Layout};

/// The result of [`prove`].
#[derive(Clone, Debug)]
pub struct Proof {
    /// The hop-by-hop validation of the tables; none for an LSFT's detour or spread
    /// routes, whose per-VL walk follows every path and requires each to arrive.
    pub tables: Option<LftReport>,
    /// The per-VL proof, for routes with lanes.
    pub lanes: Option<VlReport>,
    /// Every promise the routes make holds.
    pub sound: bool,
}

impl Proof {
    /// One line naming what failed (empty when sound), for the "this is a bug" report.
    pub fn failure(&self) -> String {
        if self.sound {
            return String::new();
        }
        let mut parts = Vec::new();
        if let Some(t) = &self.tables {
            parts.push(format!(
                "{} loops, {} misdelivered, {} black holes, {} non-minimal, {} broken host routes, complete {}, CDG {}",
                t.loops,
                t.misdelivered,
                t.black_holes,
                t.non_minimal,
                t.broken_host_routes,
                t.complete,
                if t.deadlock_free { "acyclic" } else { "cyclic" }
            ));
            if let Some(d) = t.defects.first() {
                parts.push(format!("first defect {d:?}"));
            }
        }
        if let Some(l) = &self.lanes {
            parts.push(format!(
                "per VL: {} broken, {} VL decreases, {}",
                l.broken,
                l.vl_decreases,
                l.per_vl_lines().join("; ")
            ));
        }
        parts.join("; ")
    }
}

/// Prove `routed` on `fabric` with `lids`; `layout`: the intact family, whose promises
/// (minimal host routes) the tables are held to.
pub fn prove(fabric: &Fabric, lids: &Lids, routed: &Routed, layout: Option<&Layout>) -> Proof {
    let lanes = routed
        .lanes
        .as_deref()
        .map(|rules| check_lanes(fabric, lids, &routed.lfts, rules));
    let lanes_ok = lanes.as_ref().map(VlReport::ok);
    let tables = match routed.method {
        Method::Detours | Method::Spread => None,
        Method::Family => Some(validate(fabric, lids, &routed.lfts, layout)),
        Method::UpDown => Some(validate(fabric, lids, &routed.lfts, None)),
    };
    let sound = match (&tables, routed.method) {
        (None, _) => lanes_ok == Some(true),
        (Some(t), Method::UpDown) => {
            t.loops == 0
                && t.misdelivered == 0
                && t.broken_host_routes == routed.unrouted
                && lanes_ok.unwrap_or(t.deadlock_free)
        }
        (Some(t), _) => t.data_path_ok && t.complete && t.loops == 0 && lanes_ok.unwrap_or(t.deadlock_free),
    };
    Proof { tables, lanes, sound }
}
