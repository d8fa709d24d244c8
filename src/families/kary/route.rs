//! Host routes of a k-ary n-tree: d-mod-k — up port ⌊d / k^(l−1)⌋ mod k at level l, down
//! when the destination is in the subtree.

use crate::routing::hosts::{Entries, HostRoutes, RoutedLayout};
use crate::routing::lft::NO_ROUTE;
use crate::topology::{Fabric, KaryLayout, NodeId};

const NONE: u32 = u32::MAX;

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
    pub(crate) fn port(&self, node: NodeId, rank: u32) -> u8 {
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

    pub(crate) fn rank(&self, node: NodeId) -> u32 {
        let i = self.idx[node as usize];
        if i == NONE {
            return u32::MAX;
        }
        let per = self.pow[self.l.levels as usize - 1];
        self.l.levels - (i / per + 1)
    }
}

impl HostRoutes for KaryRouter<'_> {
    fn port(&self, node: NodeId, rank: u32, _offset: u16) -> u8 {
        KaryRouter::port(self, node, rank)
    }

    fn rank(&self, node: NodeId) -> u32 {
        KaryRouter::rank(self, node)
    }
}

impl RoutedLayout for KaryLayout {
    fn host_router<'a>(&'a self, fabric: &Fabric, _lids: &crate::routing::Lids) -> crate::error::Result<Entries<'a>> {
        Ok(Entries::Rows(Box::new(KaryRouter::new(fabric, self))))
    }
}
