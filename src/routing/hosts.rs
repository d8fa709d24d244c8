//! Host routes of each family and the switch rankings their up*/down* structure follows.
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

use super::lft::NO_ROUTE;
use crate::topology::{Fabric, KaryLayout, Layout, LsftLayout, MolsLayout, NodeId};

const NONE: u32 = u32::MAX;

/// Family-specific route computation for host destinations.
pub(crate) enum HostRouter<'a> {
    Lsft(LsftRouter<'a>),
    Kary(KaryRouter<'a>),
    Mols(MolsRouter<'a>),
    Pgft(super::pgft::PgftRouter<'a>),
    Fullmesh(super::fullmesh::FullmeshRouter<'a>),
}

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
    fn port(&self, node: NodeId, rank: u32) -> u8 {
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
    fn rank(&self, node: NodeId) -> u32 {
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

/// Precomputed k-ary n-tree tables.
pub(crate) struct KaryRouter<'a> {
    l: &'a KaryLayout,
    /// node -> switch index in the layout
    idx: Vec<u32>,
    pow: Vec<u32>,
    /// `digit[(l-1) * hosts + r]` = ⌊d / k^(l−1)⌋ mod k of rank r's tree position d
    digit: Vec<u8>,
    /// `sub[(l-1) * hosts + r]` = ⌊d / k^l⌋ (the level-l subtree holding the host)
    sub: Vec<u32>,
}

impl<'a> KaryRouter<'a> {
    pub(crate) fn new(fabric: &Fabric, l: &'a KaryLayout) -> KaryRouter<'a> {
        let mut idx = vec![NONE; fabric.len()];
        for (i, &n) in l.switches.iter().enumerate() {
            idx[n as usize] = i as u32;
        }
        let pow: Vec<u32> = (0..=l.levels).map(|e| l.k.pow(e)).collect();
        let h = l.hosts.len() + l.others.len();
        let mut digit = vec![0u8; l.levels as usize * h];
        let mut sub = vec![0u32; l.levels as usize * h];
        for lv in 1..=l.levels as usize {
            for (r, &d) in l.host_pos.iter().chain(&l.other_pos).enumerate() {
                digit[(lv - 1) * h + r] = ((d / pow[lv - 1]) % l.k) as u8;
                sub[(lv - 1) * h + r] = d / pow[lv];
            }
        }
        KaryRouter {
            l,
            idx,
            pow,
            digit,
            sub,
        }
    }

    #[inline]
    fn port(&self, node: NodeId, rank: u32) -> u8 {
        let i = self.idx[node as usize];
        if i == NONE {
            return NO_ROUTE;
        }
        let k = self.l.k;
        let per = self.pow[self.l.levels as usize - 1];
        let level = (i / per) as usize;
        let g = (i % per) / self.pow[level];
        let at = level * (self.l.hosts.len() + self.l.others.len()) + rank as usize;
        let table = if self.sub[at] == g { &self.l.down } else { &self.l.up };
        table[(i * k) as usize + self.digit[at] as usize]
    }

    fn rank(&self, node: NodeId) -> u32 {
        let i = self.idx[node as usize];
        if i == NONE {
            return u32::MAX;
        }
        let per = self.pow[self.l.levels as usize - 1];
        self.l.levels - (i / per + 1)
    }
}

/// Precomputed proximity 3-tree tables.
pub(crate) struct MolsRouter<'a> {
    l: &'a MolsLayout,
    /// node -> (role 0 bottom / 1 middle / 2 top, index)
    role: Vec<(u8, u32)>,
    /// tree position of every routed host: the ranks, then the non-compute hosts
    pos: Vec<u32>,
}

impl<'a> MolsRouter<'a> {
    pub(crate) fn new(fabric: &Fabric, l: &'a MolsLayout) -> MolsRouter<'a> {
        let mut role = vec![(u8::MAX, NONE); fabric.len()];
        for (i, &n) in l.bottoms.iter().enumerate() {
            role[n as usize] = (0, i as u32);
        }
        for (i, &n) in l.middles.iter().enumerate() {
            role[n as usize] = (1, i as u32);
        }
        for (i, &n) in l.tops.iter().enumerate() {
            role[n as usize] = (2, i as u32);
        }
        let pos = l.host_pos.iter().chain(&l.other_pos).copied().collect();
        MolsRouter { l, role, pos }
    }

    #[inline]
    fn port(&self, node: NodeId, rank: u32, latency: bool) -> u8 {
        let n = self.l.n;
        let d = self.pos[rank as usize];
        let b2 = d / n; // destination bottom
        let (pod2, col2, j2) = (b2 / n, b2 % n, d % n);
        let (role, i) = self.role[node as usize];
        match role {
            0 => {
                let b = i;
                if b == b2 {
                    return self.l.b_host[(b * n + j2) as usize];
                }
                let mut plane = j2; // d mod n: the bandwidth plane
                if latency && self.l.b_row[(b * n + plane) as usize] != self.l.b_row[(b2 * n + plane) as usize] {
                    if let Some(u) =
                        (0..n).find(|&u| self.l.b_row[(b * n + u) as usize] == self.l.b_row[(b2 * n + u) as usize])
                    {
                        plane = u;
                    }
                }
                self.l.b_up[(b * n + plane) as usize]
            }
            1 => {
                let m = i;
                if self.l.g[(m * n + col2) as usize] == pod2 {
                    self.l.m_down[(m * n + col2) as usize]
                } else {
                    // up to top t = ⌊d / n⌋ mod n = colour of the destination bottom
                    self.l.m_up[(m * n + col2) as usize]
                }
            }
            2 => {
                let (plane, _) = (i / n, i % n);
                let r = self.l.b_row[(b2 * n + plane) as usize];
                self.l.t_down[(i * n + r) as usize]
            }
            _ => NO_ROUTE,
        }
    }

    fn rank(&self, node: NodeId) -> u32 {
        match self.role[node as usize].0 {
            0 => 2,
            1 => 1,
            2 => 0,
            _ => u32::MAX,
        }
    }
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
