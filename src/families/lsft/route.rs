//! Host routes of an intact LSFT: between two leaves the unique minimal path (the spine of
//! the line through both points); same-leaf traffic turns at the leaf. Two-sided: the two
//! copies of a point share all q+1 spines, and destinations spread over them by host slot j
//! (spine = the (j mod (q+1))-th line through the point), the path the two-sided
//! all-to-all uses. A spine not on the destination's line forwards to the side-A leaf of
//! its meet with the root line L (so every switch routes every LID, and routes stay
//! up*/down*).

use crate::families::lsft::model_holes::LsftHoles;
use crate::routing::hosts::{Entries, HostRoutes, RoutedLayout};
use crate::routing::lft::NO_ROUTE;
use crate::routing::lids::Lids;
use crate::routing::pipeline::{lsft_lanes, Ask, Objective, Refusal, Routed};
use crate::topology::{Fabric, LsftLayout, NodeId};

const NONE: u32 = u32::MAX;

/// Precomputed LSFT tables.
pub(crate) struct LsftRouter<'a> {
    l: &'a LsftLayout,
    npts: usize,
    d: usize,
    /// role of a node: leaf index, or NONE
    leaf_of: Vec<u32>,
    /// point of each leaf index
    point_of: Vec<u32>,
    spine_of: Vec<u32>,
    /// `toward[leaf*npts + p']`: leaf port towards point p' (p' != own point)
    toward: Vec<u8>,
    /// `spine_to[line*sides*npts + side*npts + p]`: spine port to leaf (side, p), 0 if not incident
    spine_to: Vec<u8>,
    /// per rank: (leaf index, slot, point): the point is the leaf index mod the number of
    /// points, kept so that filling a table divides nothing per entry
    dest: Vec<(u32, u32, u32)>,
    /// root-line meet: `root_meet[line]` = point of L on the line (side A leaf routes it)
    root_meet: Vec<u32>,
}

impl<'a> LsftRouter<'a> {
    pub(crate) fn new(fabric: &Fabric, l: &'a LsftLayout) -> LsftRouter<'a> {
        let npts = l.npts() as usize;
        let d = l.degree() as usize;
        let sides = l.sides as usize;
        let mut leaf_of = vec![NONE; fabric.len()];
        let mut spine_of = vec![NONE; fabric.len()];
        for (i, &n) in l.leaves.iter().enumerate() {
            leaf_of[n as usize] = i as u32;
        }
        for (i, &n) in l.spines.iter().enumerate() {
            spine_of[n as usize] = i as u32;
        }
        let mut toward = vec![0u8; l.leaves.len() * npts];
        for li in 0..l.leaves.len() {
            let p = (li % npts) as u32;
            for (k, &line) in l.plane.lines_through(p).iter().enumerate() {
                let port = l.leaf_up[li * d + k];
                for &p2 in l.plane.points_on(line) {
                    if p2 != p {
                        toward[li * npts + p2 as usize] = port;
                    }
                }
            }
        }
        let mut spine_to = vec![0u8; npts * sides * npts];
        for line in 0..npts {
            for s in 0..sides {
                for (k, &p) in l.plane.points_on(line as u32).iter().enumerate() {
                    spine_to[line * sides * npts + s * npts + p as usize] = l.spine_down[line * sides * d + s * d + k];
                }
            }
        }
        let mut dest = vec![(NONE, NONE, NONE); l.hosts.len()];
        for (slot, &r) in l.slot_rank.iter().enumerate() {
            if r != NONE {
                let li = slot / d;
                dest[r as usize] = (li as u32, (slot % d) as u32, (li % npts) as u32);
            }
        }
        let root_meet = (0..npts as u32)
            .map(|line| if line == 0 { 0 } else { l.plane.meet(line, 0) })
            .collect();
        LsftRouter {
            l,
            npts,
            d,
            point_of: (0..l.leaves.len()).map(|li| (li % npts) as u32).collect(),
            leaf_of,
            spine_of,
            toward,
            spine_to,
            dest,
            root_meet,
        }
    }

    #[inline]
    pub(crate) fn port(&self, node: NodeId, rank: u32) -> u8 {
        let (dli, j, dp) = self.dest[rank as usize];
        let (npts, d, dp) = (self.npts, self.d, dp as usize);
        let li = self.leaf_of[node as usize];
        if li != NONE {
            let li = li as usize;
            if li == dli as usize {
                return self.l.leaf_host[li * d + j as usize];
            }
            if self.point_of[li] as usize == dp {
                // the other copy of the same point: spread over its q+1 spines by slot
                return self.l.leaf_up[li * d + j as usize % d];
            }
            return self.toward[li * npts + dp];
        }
        let line = self.spine_of[node as usize];
        if line == NONE {
            return NO_ROUTE;
        }
        let line = line as usize;
        let sides = self.l.sides as usize;
        // the leaf index is side·npts + point: the column of (side, point)
        let direct = self.spine_to[line * sides * npts + dli as usize];
        if direct != 0 {
            return direct;
        }
        // not on the destination's line: hand over to the side-A leaf of (line ∩ L); the
        // root line itself hands over to one of its side-A points, spread by slot
        let via = if line == 0 {
            self.l.plane.points_on(0)[j as usize % d]
        } else {
            self.root_meet[line]
        };
        self.spine_to[line * sides * npts + via as usize]
    }

    /// Ranks: L = 0, side-A points of L = 1, other spines = 2, everything else 3.
    pub(crate) fn rank(&self, node: NodeId) -> u32 {
        let li = self.leaf_of[node as usize];
        if li != NONE {
            let side_a = (li as usize) < self.npts;
            let on_root = self.l.plane.incident(li % self.npts as u32, 0);
            return if side_a && on_root { 1 } else { 3 };
        }
        match self.spine_of[node as usize] {
            0 => 0,
            NONE => 4,
            _ => 2,
        }
    }
}

impl HostRoutes for LsftRouter<'_> {
    fn port(&self, node: NodeId, rank: u32, _offset: u16) -> u8 {
        LsftRouter::port(self, node, rank)
    }

    fn rank(&self, node: NodeId) -> u32 {
        LsftRouter::rank(self, node)
    }
}

impl RoutedLayout for LsftLayout {
    fn host_router<'a>(&'a self, fabric: &Fabric, _lids: &crate::routing::Lids) -> crate::error::Result<Entries<'a>> {
        Ok(Entries::Rows(Box::new(LsftRouter::new(fabric, self))))
    }

    /// The spreading objective routes the intact LSFT as a degraded one without holes.
    fn route_own(&self, fabric: &Fabric, lids: &Lids, ask: &Ask) -> Option<Result<Routed, Refusal>> {
        (ask.objective == Objective::Spread).then(|| {
            let holes = LsftHoles::new(
                fabric,
                self.plane.clone(),
                self.sides,
                self.leaves.clone(),
                self.spines.clone(),
            );
            lsft_lanes(
                fabric,
                &holes,
                lids,
                ask,
                &crate::topology::FamilyLayout::describe(self),
            )
        })
    }
}
