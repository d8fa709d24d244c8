//! Linear forwarding tables of every switch, as one flat array.

use super::Lids;
use crate::fingerprint::{ComputedFor, Fnv1a};
use crate::topology::{Fabric, NodeId};

/// LFT entry meaning "no route" (OpenSM's OSM_NO_PATH): the switch drops the packet.
pub const NO_ROUTE: u8 = 255;

/// The LFTs of all switches: `ports[row * stride + lid]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LftSet {
    /// Switch of each row.
    pub switches: Vec<NodeId>,
    /// Row of each node (`u32::MAX` for non-switches).
    pub row_of: Vec<u32>,
    /// LIDs per row (max LID + 1).
    pub stride: usize,
    /// Output port (0 = deliver to the switch itself, 1-based external ports, [`NO_ROUTE`])
    /// of every (row, LID): `ports[row * stride + lid]`.
    pub ports: Vec<u8>,
}

impl LftSet {
    /// Empty tables (every entry `NO_ROUTE`) for all switches of a fabric.
    pub fn new(fabric: &Fabric, max_lid: u16) -> LftSet {
        let switches: Vec<NodeId> = fabric.switches().collect();
        let mut row_of = vec![u32::MAX; fabric.len()];
        for (r, &s) in switches.iter().enumerate() {
            row_of[s as usize] = r as u32;
        }
        let stride = max_lid as usize + 1;
        LftSet {
            ports: vec![NO_ROUTE; switches.len() * stride],
            switches,
            row_of,
            stride,
        }
    }

    /// The table of one row.
    #[inline]
    pub fn row(&self, row: usize) -> &[u8] {
        &self.ports[row * self.stride..(row + 1) * self.stride]
    }

    /// Port of `lid` at the switch `node` (None when the node is not a switch or the LID is
    /// beyond the table).
    #[inline]
    pub fn get(&self, node: NodeId, lid: u16) -> Option<u8> {
        let r = *self.row_of.get(node as usize)?;
        if r == u32::MAX || lid as usize >= self.stride {
            return None;
        }
        Some(self.ports[r as usize * self.stride + lid as usize])
    }

    /// Set one entry.
    pub fn set(&mut self, node: NodeId, lid: u16, port: u8) {
        let r = self.row_of[node as usize] as usize;
        self.ports[r * self.stride + lid as usize] = port;
    }

    /// Fingerprint of the routes these tables give (see [`crate::fingerprint`]): every
    /// LID in use with the port that owns it, then every switch (by GUID) with its entry
    /// for each of those LIDs. The same routes give the same value whatever the node
    /// order, the table length or the entries of unused LIDs — so tables ibfat computed
    /// and the same tables read back from a switch (`dump_lfts`) agree.
    pub fn fingerprint(&self, fabric: &Fabric, lids: &Lids) -> String {
        let used: Vec<u16> = (1..lids.owner.len())
            .filter(|&l| lids.owner[l] != crate::topology::NO_PEER)
            .map(|l| l as u16)
            .collect();
        let mut h = Fnv1a::new();
        for &lid in &used {
            let p = &fabric.ports[lids.owner[lid as usize] as usize];
            h.u64(lid as u64).u64(fabric.node(p.node).guid).u64(p.num as u64);
        }
        let mut rows: Vec<(u64, usize)> = self
            .switches
            .iter()
            .enumerate()
            .map(|(r, &s)| (fabric.node(s).guid, r))
            .collect();
        rows.sort_unstable();
        let mut row_bytes = Vec::with_capacity(used.len());
        for (guid, r) in rows {
            let row = self.row(r);
            row_bytes.clear();
            row_bytes.extend(used.iter().map(|&l| row.get(l as usize).copied().unwrap_or(NO_ROUTE)));
            h.u64(guid).bytes(&row_bytes);
        }
        h.hex()
    }

    /// What an artefact computed on these tables records: the fabric's fingerprint and
    /// the routes' ([`LftSet::fingerprint`]).
    pub fn computed_for(&self, fabric: &Fabric, lids: &Lids) -> ComputedFor {
        ComputedFor {
            fabric: fabric.fingerprint(),
            lfts: Some(self.fingerprint(fabric, lids)),
        }
    }

    /// Number of switches.
    pub fn len(&self) -> usize {
        self.switches.len()
    }

    /// True when there are no switches.
    pub fn is_empty(&self) -> bool {
        self.switches.is_empty()
    }

    /// Number of entries that hold a route.
    pub fn routed_entries(&self) -> usize {
        self.ports.iter().filter(|&&p| p != NO_ROUTE).count()
    }
}
