//! Host routes of a MOLS proximity 3-level tree: base LID = bandwidth route (d-mod-k over
//! the rewired middle stage, turning down at the first middle switch adjacent to the
//! destination's bottom switch); base+1 (LMC 1) = latency route, through a middle switch
//! the source and destination bottoms share, when one exists.

use crate::routing::hosts::{Entries, HostRoutes, RoutedLayout};
use crate::routing::lft::NO_ROUTE;
use crate::topology::{Fabric, MolsLayout, NodeId};

const NONE: u32 = u32::MAX;

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
    pub(crate) fn port(&self, node: NodeId, rank: u32, latency: bool) -> u8 {
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

    pub(crate) fn rank(&self, node: NodeId) -> u32 {
        match self.role[node as usize].0 {
            0 => 2,
            1 => 1,
            2 => 0,
            _ => u32::MAX,
        }
    }
}

impl HostRoutes for MolsRouter<'_> {
    /// Odd LID offsets take the latency route (LMC 1).
    fn port(&self, node: NodeId, rank: u32, offset: u16) -> u8 {
        MolsRouter::port(self, node, rank, offset & 1 == 1)
    }

    fn rank(&self, node: NodeId) -> u32 {
        MolsRouter::rank(self, node)
    }
}

impl RoutedLayout for MolsLayout {
    fn host_router<'a>(&'a self, fabric: &Fabric, _lids: &crate::routing::Lids) -> crate::error::Result<Entries<'a>> {
        Ok(Entries::Rows(Box::new(MolsRouter::new(fabric, self))))
    }
}
