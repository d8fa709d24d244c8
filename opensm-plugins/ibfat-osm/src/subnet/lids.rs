//! The LIDs OpenSM's LID manager is about to give, told right after discovery, so that the
//! tables computed then are those of the subnet the pass will read ([`crate::ahead`]).
//!
//! OpenSM 3.3.23 (`osm_lid_mgr.c`) gives the SM's own port its LIDs first, then every
//! other port in its port table's order. A port keeps what its guid2lid database holds
//! for it; without an entry, the LID it has when that is aligned and no database entry
//! claims it; else the next free range (aligned to 2^LMC where the port takes that many).
//! Two cases are told exactly here: every port already decided (by the database or by the
//! LID it has, no two claiming one LID), and a subnet nobody has given LIDs (no entry, no
//! LID: the free range is everything, given in order). Anything else — some ports with
//! LIDs and some without, `reassign_lids` — is not told: the pass computes.

use super::{Records, SWITCH_KIND};
use std::ffi::{c_int, c_uint, c_void};

extern "C" {
    fn ibfat_shim_lid_inputs(
        osm: *mut c_void,
        out: *mut LidPort,
        max: c_uint,
        n: *mut c_uint,
        sm_port: *mut u64,
        lmc: *mut u8,
    ) -> c_int;
}

/// One port OpenSM gives LIDs to (the shim's `struct shim_lid_port`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LidPort {
    pub node_guid: u64,
    pub port_guid: u64,
    /// The base LID the port has now (0: none).
    pub lid: u16,
    /// The base LID OpenSM's guid2lid database holds for it (0: none).
    pub kept: u16,
    pub port: u8,
    pub is_switch: u8,
    /// It takes 2^LMC LIDs (a switch port 0 only when enhanced).
    pub lmc_capable: u8,
    pad: u8,
}

/// What the LID manager decides from: its ports in the order it gives LIDs, the SM's port
/// and the LMC.
pub(crate) struct LidInputs {
    pub ports: Vec<LidPort>,
    pub sm_port: u64,
    pub lmc: u8,
}

impl LidInputs {
    /// Read them from OpenSM (under its read lock); `None` when `reassign_lids` is set.
    pub fn read(osm: *mut c_void, room: usize) -> Option<LidInputs> {
        let mut cap = room + room / 16 + 4;
        for _ in 0..2 {
            let mut ports = vec![LidPort::default(); cap];
            let (mut n, mut sm_port, mut lmc): (c_uint, u64, u8) = (0, 0, 0);
            // SAFETY: osm is OpenSM's; the buffer holds cap records, the shim writes at most
            // that many and counts every port in n; the caller holds no OpenSM lock
            let rc = unsafe {
                ibfat_shim_lid_inputs(osm, ports.as_mut_ptr(), cap as c_uint, &mut n, &mut sm_port, &mut lmc)
            };
            if rc == 0 {
                ports.truncate(n as usize);
                return Some(LidInputs { ports, sm_port, lmc });
            }
            if n as usize <= cap {
                return None;
            }
            cap = n as usize;
        }
        None
    }

    fn span(&self, p: &LidPort) -> u16 {
        if p.lmc_capable != 0 {
            1 << self.lmc
        } else {
            1
        }
    }

    /// The base LID each port will have, in `ports` order; `None` where that is not told.
    pub fn predict(&self) -> Option<Vec<u16>> {
        let decided = |p: &LidPort| if p.kept != 0 { p.kept } else { p.lid };
        if self.ports.iter().all(|p| decided(p) != 0) {
            let lids: Vec<u16> = self.ports.iter().map(decided).collect();
            return self.distinct_and_aligned(&lids).then_some(lids);
        }
        if self.ports.iter().all(|p| p.kept == 0 && p.lid == 0) {
            return Some(self.in_order());
        }
        None
    }

    /// No two ports claim one LID, and every range of more than one LID is aligned: the
    /// LID manager keeps them all.
    fn distinct_and_aligned(&self, lids: &[u16]) -> bool {
        let mut taken: Vec<(u16, u16)> = Vec::with_capacity(lids.len());
        for (p, &lo) in self.ports.iter().zip(lids) {
            let n = self.span(p);
            if n > 1 && lo & (n - 1) != 0 {
                return false;
            }
            let Some(hi) = lo.checked_add(n - 1) else {
                return false;
            };
            taken.push((lo, hi));
        }
        taken.sort_unstable();
        taken.windows(2).all(|w| w[0].1 < w[1].0)
    }

    /// A subnet without LIDs: one free range from LID 1, the SM's port first, then the
    /// others in table order, each range aligned to its size.
    fn in_order(&self) -> Vec<u16> {
        let mut lids = vec![0u16; self.ports.len()];
        let mut next = 1u16;
        let sm = self.ports.iter().position(|p| p.port_guid == self.sm_port);
        let order = sm.into_iter().chain((0..self.ports.len()).filter(|&k| Some(k) != sm));
        for k in order {
            let n = self.span(&self.ports[k]);
            let mut lo = next;
            if n > 1 && lo & (n - 1) != 0 {
                lo = (lo + n) & !(n - 1);
            }
            lids[k] = lo;
            next = lo.saturating_add(n);
        }
        lids
    }
}

/// `records` with the LIDs (and LMC) OpenSM is about to give; `None` where they are not
/// told, or a record has no port among the inputs.
pub(crate) fn predicted(osm: *mut c_void, records: &Records) -> Option<Records> {
    let inputs = LidInputs::read(osm, records.nodes.len() + records.ports.len())?;
    let lids = inputs.predict()?;
    with_lids(records, &inputs, &lids)
}

/// `records` with these LIDs: a switch's by its node GUID, a CA or router port's by its
/// port GUID.
fn with_lids(records: &Records, inputs: &LidInputs, lids: &[u16]) -> Option<Records> {
    let mut switch: Vec<(u64, u16)> = Vec::new();
    let mut port: Vec<(u64, u16)> = Vec::new();
    for (p, &lid) in inputs.ports.iter().zip(lids) {
        if p.is_switch != 0 {
            switch.push((p.node_guid, lid));
        } else {
            port.push((p.port_guid, lid));
        }
    }
    switch.sort_unstable();
    port.sort_unstable();
    let find = |list: &[(u64, u16)], guid: u64| list.binary_search_by_key(&guid, |e| e.0).ok().map(|k| list[k].1);
    let mut nodes = records.nodes.clone();
    for n in nodes.iter_mut().filter(|n| n.kind == SWITCH_KIND) {
        n.lid = find(&switch, n.guid)?;
    }
    let kinds: Vec<(u64, u8)> = {
        let mut k: Vec<(u64, u8)> = records.nodes.iter().map(|n| (n.guid, n.kind)).collect();
        k.sort_unstable();
        k
    };
    let mut ports = records.ports.clone();
    for p in ports.iter_mut() {
        let kind = kinds
            .binary_search_by_key(&p.node_guid, |e| e.0)
            .ok()
            .map(|k| kinds[k].1)?;
        if kind != SWITCH_KIND {
            p.lid = find(&port, p.port_guid)?;
            p.lmc = inputs.lmc;
        }
    }
    Some(Records::new(nodes, ports))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port(guid: u64, lid: u16, kept: u16, is_switch: bool, lmc_capable: bool) -> LidPort {
        LidPort {
            node_guid: guid,
            port_guid: guid,
            lid,
            kept,
            port: if is_switch { 0 } else { 1 },
            is_switch: is_switch.into(),
            lmc_capable: lmc_capable.into(),
            pad: 0,
        }
    }

    fn inputs(ports: Vec<LidPort>, sm_port: u64, lmc: u8) -> LidInputs {
        LidInputs { ports, sm_port, lmc }
    }

    #[test]
    fn a_subnet_without_lids_gets_them_in_order_the_sm_port_first() {
        let i = inputs(
            vec![
                port(1, 0, 0, true, false),
                port(2, 0, 0, false, true),
                port(3, 0, 0, false, true),
            ],
            3,
            0,
        );
        assert_eq!(i.predict(), Some(vec![2, 3, 1]));
    }

    #[test]
    fn with_an_lmc_every_range_is_aligned_and_switches_take_one_lid() {
        // SM port 3 takes 2..=3 (1 is not aligned), the switch 4, host 2 then 6..=7
        let i = inputs(
            vec![
                port(1, 0, 0, true, false),
                port(2, 0, 0, false, true),
                port(3, 0, 0, false, true),
            ],
            3,
            1,
        );
        assert_eq!(i.predict(), Some(vec![4, 6, 2]));
    }

    #[test]
    fn decided_ports_keep_the_database_lid_over_the_one_they_have() {
        let i = inputs(vec![port(1, 7, 0, true, false), port(2, 9, 12, false, true)], 2, 0);
        assert_eq!(i.predict(), Some(vec![7, 12]));
    }

    #[test]
    fn what_the_lid_manager_would_change_is_not_told() {
        // two ports claiming one LID
        let i = inputs(vec![port(1, 5, 0, true, false), port(2, 0, 5, false, true)], 2, 0);
        assert_eq!(i.predict(), None);
        // an unaligned LID under LMC 1
        let i = inputs(vec![port(1, 4, 0, true, false), port(2, 7, 0, false, true)], 2, 1);
        assert_eq!(i.predict(), None);
        // some ports with LIDs, one without (a node that joined)
        let i = inputs(vec![port(1, 4, 0, true, false), port(2, 0, 0, false, true)], 2, 0);
        assert_eq!(i.predict(), None);
    }
}
