//! Host routes of each family and the switch rankings their up*/down* structure follows:
//! one router per family, each in its folder.
//!
//! * LSFT: between two leaves the unique minimal path (the spine of the line through both
//!   points); same-leaf traffic turns at the leaf. Two-sided: the two copies of a point
//!   share all q+1 spines, and destinations spread over them by host slot j (spine = the
//!   (j mod (q+1))-th line through the point), the path the two-sided all-to-all uses.
//!   A spine not on the destination's line forwards to the side-A leaf of its meet with
//!   the root line L (so every switch routes every LID, and routes stay up*/down*).
//! * k-ary n-tree: d-mod-k — up port ⌊d / k^(l−1)⌋ mod k at level l, down when the
//!   destination is in the subtree.
//! * PGFT: d-mod-k generalised to parallel cables and any arities ([`super::pgft`]).
//! * Full mesh: direct on the base LID, two-hop detours through a relay switch on the
//!   other offsets ([`super::fullmesh`]).
//! * Proximity 3-tree: base LID = bandwidth route (d-mod-k over the rewired middle stage,
//!   turning down at the first middle switch adjacent to the destination's bottom switch);
//!   base+1 (LMC 1) = latency route: through a middle switch the source and destination
//!   bottoms share, when one exists.

use crate::families::kary::route::KaryRouter;
use crate::families::lsft::route::LsftRouter;
use crate::families::mols::route::MolsRouter;
use crate::topology::{Fabric, Layout, NodeId};

/// Family-specific route computation for host destinations.
pub(crate) enum HostRouter<'a> {
    Lsft(LsftRouter<'a>),
    Kary(KaryRouter<'a>),
    Mols(MolsRouter<'a>),
    Pgft(super::pgft::PgftRouter<'a>),
    Fullmesh(super::fullmesh::FullmeshRouter<'a>),
}

impl<'a> HostRouter<'a> {
    /// The family's entry-by-entry router; `None` for a tree as found, which is routed
    /// destination by destination ([`super::tree`]).
    pub(crate) fn new(fabric: &Fabric, layout: &'a Layout) -> Option<HostRouter<'a>> {
        Some(match layout {
            Layout::Lsft(l) => HostRouter::Lsft(LsftRouter::new(fabric, l)),
            Layout::Kary(l) => HostRouter::Kary(KaryRouter::new(fabric, l)),
            Layout::Mols(l) => HostRouter::Mols(MolsRouter::new(fabric, l)),
            Layout::Pgft(l) => HostRouter::Pgft(super::pgft::PgftRouter::new(fabric, l)),
            Layout::Fullmesh(l) => HostRouter::Fullmesh(super::fullmesh::FullmeshRouter::new(fabric, l)),
            Layout::Tree(_) => return None,
        })
    }

    /// Out port at switch `node` towards host `rank`; `offset` is the LID offset (LMC path).
    #[inline]
    pub(crate) fn port(&self, node: NodeId, rank: u32, offset: u16) -> u8 {
        match self {
            HostRouter::Lsft(r) => r.port(node, rank),
            HostRouter::Kary(r) => r.port(node, rank),
            HostRouter::Mols(r) => r.port(node, rank, offset & 1 == 1),
            HostRouter::Pgft(r) => r.port(node, rank),
            HostRouter::Fullmesh(r) => r.port(node, rank, offset),
        }
    }

    /// The entries of switch `node` for every (LID, rank, LID offset) of `targets`, into
    /// its table row: one call per row, so a router can hoist what the row shares.
    pub(crate) fn fill_row(&self, node: NodeId, targets: &[(u32, u32, u16)], row: &mut [u8]) {
        if let HostRouter::Pgft(r) = self {
            return r.fill_row(node, targets, row);
        }
        for &(lid, rank, off) in targets {
            row[lid as usize] = self.port(node, rank, off);
        }
    }

    /// The up*/down* rank of a switch (0 = root level).
    pub(crate) fn rank(&self, node: NodeId) -> u32 {
        match self {
            HostRouter::Lsft(r) => r.rank(node),
            HostRouter::Kary(r) => r.rank(node),
            HostRouter::Mols(r) => r.rank(node),
            HostRouter::Pgft(r) => r.rank(node),
            HostRouter::Fullmesh(r) => r.rank(node),
        }
    }
}
