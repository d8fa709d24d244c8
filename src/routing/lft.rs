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

    /// (switch GUID, row) of every table, by ascending GUID: the order the fingerprint and
    /// the binary table file take them in, whatever the fabric's node order.
    pub(crate) fn rows_by_guid(&self, fabric: &Fabric) -> Vec<(u64, usize)> {
        let mut rows: Vec<(u64, usize)> = self
            .switches
            .iter()
            .enumerate()
            .map(|(r, &s)| (fabric.node(s).guid, r))
            .collect();
        rows.sort_unstable();
        rows
    }

    /// Fingerprint of the routes these tables give (see [`crate::fingerprint`]): every
    /// LID in use with the port that owns it, then every switch (by GUID) with its entry
    /// for each of those LIDs. The same routes give the same value whatever the node
    /// order, the table length or the entries of unused LIDs — so tables ibfat computed
    /// and the same tables read back from a switch (`dump_lfts`) agree.
    pub fn fingerprint(&self, fabric: &Fabric, lids: &Lids) -> String {
        let mut h = Fingerprinter::new(fabric, lids);
        for (guid, r) in self.rows_by_guid(fabric) {
            h.row(guid, self.row(r));
        }
        h.finish()
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

/// [`LftSet::fingerprint`] fed one table at a time, in ascending switch GUID order, for
/// readers that hash tables as they arrive (`formats::lftbin`).
pub(crate) struct Fingerprinter {
    h: Fnv1a,
    /// The used LIDs as runs `[a, b)` of consecutive LIDs (planned LIDs are one run): a
    /// table's entries are hashed slice by slice, the same bytes in the same order as one
    /// by one, without gathering them first.
    runs: Vec<(usize, usize)>,
}

impl Fingerprinter {
    /// Start with the LIDs in use and the ports that own them.
    pub(crate) fn new(fabric: &Fabric, lids: &Lids) -> Fingerprinter {
        let mut h = Fnv1a::new();
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (lid, &owner) in lids.owner.iter().enumerate().skip(1) {
            if owner == crate::topology::NO_PEER {
                continue;
            }
            let p = &fabric.ports[owner as usize];
            h.u64(lid as u64).u64(fabric.node(p.node).guid).u64(p.num as u64);
            match runs.last_mut() {
                Some((_, end)) if *end == lid => *end += 1,
                _ => runs.push((lid, lid + 1)),
            }
        }
        Fingerprinter { h, runs }
    }

    /// The table of the switch with node GUID `guid` (tables in ascending GUID order).
    pub(crate) fn row(&mut self, guid: u64, row: &[u8]) {
        self.h.u64(guid);
        for &(a, b) in &self.runs {
            // entries beyond a short table are NO_ROUTE
            let (lo, hi) = (a.min(row.len()), b.min(row.len()));
            self.h.bytes(&row[lo..hi]);
            for _ in hi.max(a)..b {
                self.h.bytes(&[NO_ROUTE]);
            }
        }
    }

    /// The fingerprint, as artefacts record it.
    pub(crate) fn finish(&self) -> String {
        self.h.hex()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kary::model::KaryParams;
    use crate::topology::{FamilySpec, Spec};

    /// The definition as first written: every used LID's entry gathered one by one.
    fn entry_by_entry(t: &LftSet, fabric: &Fabric, lids: &Lids) -> String {
        let used: Vec<usize> = (1..lids.owner.len())
            .filter(|&l| lids.owner[l] != crate::topology::NO_PEER)
            .collect();
        let mut h = Fnv1a::new();
        for &lid in &used {
            let p = &fabric.ports[lids.owner[lid] as usize];
            h.u64(lid as u64).u64(fabric.node(p.node).guid).u64(p.num as u64);
        }
        let mut rows: Vec<(u64, usize)> = t
            .switches
            .iter()
            .enumerate()
            .map(|(r, &s)| (fabric.node(s).guid, r))
            .collect();
        rows.sort_unstable();
        for (guid, r) in rows {
            let row = t.row(r);
            let bytes: Vec<u8> = used.iter().map(|&l| row.get(l).copied().unwrap_or(NO_ROUTE)).collect();
            h.u64(guid).bytes(&bytes);
        }
        h.hex()
    }

    #[test]
    fn fingerprint_by_runs_is_the_entry_by_entry_definition() {
        let plan = Spec::new(FamilySpec::Kary(KaryParams { arity: 4, levels: 3 }))
            .build()
            .unwrap();
        for lmc in [0, 1] {
            let mut lids = Lids::plan(&plan.fabric, plan.layout.hosts(), lmc).unwrap();
            let lfts = crate::routing::route(&plan.fabric, &plan.layout, &lids).unwrap();
            assert_eq!(
                lfts.fingerprint(&plan.fabric, &lids),
                entry_by_entry(&lfts, &plan.fabric, &lids)
            );
            // holes in the LIDs (several runs) and tables shorter than the LIDs in use
            for l in [3, 4, 17, lids.owner.len() - 2] {
                lids.owner[l] = crate::topology::NO_PEER;
            }
            let short = LftSet {
                stride: lfts.stride - 5,
                ports: lfts
                    .ports
                    .chunks(lfts.stride)
                    .flat_map(|r| r[..lfts.stride - 5].to_vec())
                    .collect(),
                ..lfts.clone()
            };
            for t in [&lfts, &short] {
                assert_eq!(
                    t.fingerprint(&plan.fabric, &lids),
                    entry_by_entry(t, &plan.fabric, &lids)
                );
            }
            assert_ne!(
                lfts.fingerprint(&plan.fabric, &lids),
                short.fingerprint(&plan.fabric, &lids)
            );
        }
    }
}
