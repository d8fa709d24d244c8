//! Host routes of each family and the switch rankings their up*/down* structure follows:
//! one router per family, each in its folder, reached through [`RoutedLayout`] (which the
//! registry's layouts implement), so no generic module names a family's router.
//!
//! * LSFT: between two leaves the unique minimal path (the spine of the line through both
//!   points); same-leaf traffic turns at the leaf. Two-sided: the two copies of a point
//!   share all q+1 spines, and destinations spread over them by host slot j (spine = the
//!   (j mod (q+1))-th line through the point), the path the two-sided all-to-all uses.
//!   A spine not on the destination's line forwards to the side-A leaf of its meet with
//!   the root line L (so every switch routes every LID, and routes stay up*/down*).
//! * k-ary n-tree: d-mod-k — up port ⌊d / k^(l−1)⌋ mod k at level l, down when the
//!   destination is in the subtree.
//! * PGFT: d-mod-k generalised to parallel cables and any arities ([`crate::families::pgft::route`]).
//! * Full mesh: direct on the base LID, two-hop detours through a relay switch on the
//!   other offsets ([`crate::families::fullmesh::route`]).
//! * Proximity 3-tree: base LID = bandwidth route (d-mod-k over the rewired middle stage,
//!   turning down at the first middle switch adjacent to the destination's bottom switch);
//!   base+1 (LMC 1) = latency route: through a middle switch the source and destination
//!   bottoms share, when one exists.

use super::pipeline::{Ask, LaneBox, Refusal, Routed};
use super::{LftSet, Lids};
use crate::error::Result;
use crate::topology::{Fabric, Layout, NodeId};

/// A family's host routes, entry by entry, and the up*/down* ranking of its switches.
pub(crate) trait HostRoutes: Sync {
    /// Out port at switch `node` towards host `rank`; `offset` is the LID offset (LMC path).
    fn port(&self, node: NodeId, rank: u32, offset: u16) -> u8;

    /// The entries of switch `node` for every (LID, rank, LID offset) of `targets`, into
    /// its table row: one call per row, so a router can hoist what the row shares.
    fn fill_row(&self, node: NodeId, targets: &[(u32, u32, u16)], row: &mut [u8]) {
        for &(lid, rank, off) in targets {
            row[lid as usize] = self.port(node, rank, off);
        }
    }

    /// The up*/down* rank of a switch (0 = root level).
    fn rank(&self, node: NodeId) -> u32;
}

/// What a family's intact routes start from.
pub(crate) enum Entries<'a> {
    /// A router that fills the host entries row by row (then up*/down* the switch LIDs).
    Rows(Box<dyn HostRoutes + 'a>),
    /// The finished tables of a family routed destination by destination.
    Tables(LftSet),
}

/// How a family's intact layout is routed; each family implements it in its folder
/// (`route*`).
pub(crate) trait RoutedLayout {
    /// Its entry-by-entry router, or, for a family routed destination by destination, its
    /// tables on one VL.
    fn host_router<'a>(&'a self, fabric: &Fabric, lids: &Lids) -> Result<Entries<'a>>;

    /// Its own routes for what `ask` asks, where the generic path (entry by entry, then the
    /// family's lanes) does not serve; `None` takes the generic path (or refuses the spread
    /// objective, which is the LSFT's).
    fn route_own(&self, _fabric: &Fabric, _lids: &Lids, _ask: &Ask) -> Option<Result<Routed, Refusal>> {
        None
    }

    /// The lanes its intact routes need (a full mesh's relay detours), if any.
    fn lanes(&self, _fabric: &Fabric, _lids: &Lids) -> Option<LaneBox> {
        None
    }

    /// Route the switch LIDs where the family does better than up*/down* (a full mesh:
    /// one hop to every switch), over what up*/down* filled in.
    fn route_switch_lids(&self, _fabric: &Fabric, _lids: &Lids, _lfts: &mut LftSet) {}
}

macro_rules! make_routed {
    ($(layout $variant:ident: $folder:ident,)*) => {
        /// What routes this layout's family.
        pub(crate) fn routed(layout: &Layout) -> &dyn RoutedLayout {
            match layout {
                $(Layout::$variant(l) => l,)*
            }
        }
    };
}
crate::families::for_each_layout!(make_routed);
