//! The LIDs OpenSM's LID manager is about to give, told right after discovery, so that the
//! tables computed then are those of the subnet the pass will read ([`crate::ahead`]).
//!
//! OpenSM 3.3.23 (`osm_lid_mgr.c`) first marks free ranges: every LID its guid2lid
//! database does not hold, but those a port without an entry can keep (its LID aligned,
//! the rest of its range not held). It gives the SM's own port its LIDs first, then every
//! other port in its port table's order: a port keeps its database entry; without one,
//! the LID it has when aligned and not held; else the first free range that fits (aligned
//! to 2^LMC where the port takes that many). Each LID given is held from then on. This is
//! that, step for step, on the manager's own inputs (the shim copies its database
//! marks; an SM coming out of standby drops its database first, and starts from none).
//! Not told: `reassign_lids`, an SM coming out of standby with `honor_guid2lid_file`
//! (the file is read again), and entries the manager finds invalid and deletes at the
//! sweep (none it kept at start are).

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
        used: *mut u8,
        max_lid: *mut u16,
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
    /// The LMC it has now.
    pub lmc_now: u8,
}

/// The highest unicast LID, and the size of the manager's marks less one.
const UCAST_END: u16 = 0xBFFF;

/// What the LID manager decides from: its ports in the order it gives LIDs, the SM's port,
/// the LMC, which LIDs its database holds (index = LID) and the highest LID it gives.
pub(crate) struct LidInputs {
    pub ports: Vec<LidPort>,
    pub sm_port: u64,
    pub lmc: u8,
    pub used: Vec<u8>,
    pub max_lid: u16,
}

impl LidInputs {
    /// Read them from OpenSM (under its read lock); `None` when `reassign_lids` is set.
    pub fn read(osm: *mut c_void, room: usize) -> Option<LidInputs> {
        let mut cap = room + room / 16 + 4;
        for _ in 0..2 {
            let mut ports = vec![LidPort::default(); cap];
            let mut used = vec![0u8; usize::from(UCAST_END) + 1];
            let (mut n, mut sm_port, mut lmc, mut max_lid): (c_uint, u64, u8, u16) = (0, 0, 0, 0);
            // SAFETY: osm is OpenSM's; the buffer holds cap records, the shim writes at most
            // that many and counts every port in n; used has the manager's UCAST_END + 1
            // marks; the caller holds no OpenSM lock
            let rc = unsafe {
                ibfat_shim_lid_inputs(
                    osm,
                    ports.as_mut_ptr(),
                    cap as c_uint,
                    &mut n,
                    &mut sm_port,
                    &mut lmc,
                    used.as_mut_ptr(),
                    &mut max_lid,
                )
            };
            if rc == 0 {
                ports.truncate(n as usize);
                let max_lid = max_lid.min(UCAST_END);
                return Some(LidInputs {
                    ports,
                    sm_port,
                    lmc,
                    used,
                    max_lid,
                });
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

    /// The base LID each port will have, in `ports` order; `None` when a port would find
    /// no free range.
    pub fn predict(&self) -> Option<Vec<u16>> {
        let mut used = self.used.clone();
        // made when a port first needs a free range (a subnet whose ports all keep their
        // LIDs needs none)
        let mut free: Option<Vec<(u16, u16)>> = None;
        let mut lids = vec![0u16; self.ports.len()];
        let sm = self.ports.iter().position(|p| p.port_guid == self.sm_port);
        let order = sm.into_iter().chain((0..self.ports.len()).filter(|&k| Some(k) != sm));
        for k in order {
            let p = &self.ports[k];
            let n = self.span(p);
            let lo = if p.kept != 0 {
                p.kept
            } else if p.lid != 0 && self.aligned(p.lid, n) && !held(&used, p.lid, n) {
                p.lid
            } else {
                take_free(free.get_or_insert_with(|| self.free_ranges()), n, self.lmc)?
            };
            for lid in lo..lo.saturating_add(n) {
                if let Some(u) = used.get_mut(usize::from(lid)) {
                    *u = 1;
                }
            }
            lids[k] = lo;
        }
        Some(lids)
    }

    fn aligned(&self, lid: u16, n: u16) -> bool {
        n == 1 || lid & !((1u16 << self.lmc) - 1) == lid
    }

    /// The manager's free ranges at the start of the sweep: LIDs the database does not
    /// hold and no port without an entry keeps, in order, the last one open to `max_lid`.
    fn free_ranges(&self) -> Vec<(u16, u16)> {
        // the port each LID's current holder is (later ports win, as in the manager)
        const NONE: u32 = u32::MAX;
        let mut holder: Vec<u32> = vec![NONE; usize::from(UCAST_END) + 1];
        for (k, p) in self.ports.iter().enumerate() {
            let (lo, hi) = (trim(p.lid), trim(p.lid.saturating_add((1u16 << p.lmc_now.min(7)) - 1)));
            if lo == 0 || hi < lo {
                continue;
            }
            for lid in lo..=hi {
                holder[usize::from(lid)] = if lid < lo.saturating_add(1 << self.lmc) {
                    k as u32
                } else {
                    NONE
                };
            }
        }
        let mut ranges: Vec<(u16, u16)> = Vec::new();
        let mut open: Option<(u16, u16)> = None;
        let mut lid = 1u16;
        while lid <= UCAST_END {
            let mut free = self.used[usize::from(lid)] == 0;
            let k = holder[usize::from(lid)];
            if free && k != NONE {
                let p = &self.ports[k as usize];
                let n = self.span(p);
                if p.kept == 0 && self.aligned(p.lid, n) {
                    let top = if p.lmc_capable != 0 {
                        p.lid.saturating_add(n - 1)
                    } else {
                        p.lid.saturating_add((1u16 << p.lmc_now.min(7)) - 1)
                    };
                    free = (p.lid.saturating_add(1)..=top).any(|l| self.used[usize::from(l.min(UCAST_END))] != 0);
                    if !free && top > lid {
                        lid = top;
                    }
                }
            }
            match (free, open.as_mut()) {
                (true, Some(r)) => r.1 = lid,
                (true, None) => open = Some((lid, lid)),
                (false, Some(_)) => ranges.extend(open.take()),
                (false, None) => {}
            }
            lid = lid.saturating_add(1);
            if lid == u16::MAX {
                break;
            }
        }
        let last = open.map_or(lid, |r| r.0);
        ranges.push((last, self.max_lid));
        ranges
    }
}

/// A LID as the manager keeps it: 0 outside the unicast range.
fn trim(lid: u16) -> u16 {
    if lid > UCAST_END {
        0
    } else {
        lid
    }
}

/// Whether the database holds one of `n` LIDs from `lo`.
fn held(used: &[u8], lo: u16, n: u16) -> bool {
    (lo..lo.saturating_add(n)).any(|l| used.get(usize::from(l)).is_some_and(|&u| u != 0))
}

/// The first free range that fits `n` LIDs (aligned when more than one), consumed.
fn take_free(free: &mut Vec<(u16, u16)>, n: u16, lmc: u8) -> Option<u16> {
    let block = 1u16 << lmc;
    for k in 0..free.len() {
        let (min, max) = free[k];
        let mut lid = min;
        if n > 1 && lid & !(block - 1) != lid {
            lid = lid.saturating_add(block) & !(block - 1);
        }
        let top = lid.saturating_add(n - 1);
        if top <= max {
            if top == max {
                free.remove(k);
            } else {
                free[k].0 = top + 1;
            }
            return Some(lid);
        }
    }
    None
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
            lmc_now: 0,
        }
    }

    /// The inputs, with the database holding what the ports' entries say (and `other`,
    /// entries of ports not in the subnet), as OpenSM marks it when it starts.
    fn inputs(ports: Vec<LidPort>, sm_port: u64, lmc: u8, other: &[u16]) -> LidInputs {
        let mut used = vec![0u8; usize::from(UCAST_END) + 1];
        for p in &ports {
            if p.kept != 0 {
                let n = if p.lmc_capable != 0 { 1u16 << lmc } else { 1 };
                (p.kept..p.kept + n).for_each(|l| used[usize::from(l)] = 1);
            }
        }
        other.iter().for_each(|&l| used[usize::from(l)] = 1);
        LidInputs {
            ports,
            sm_port,
            lmc,
            used,
            max_lid: UCAST_END,
        }
    }

    /// A switch and two hosts with these LIDs and entries, the SM on the second host.
    fn three(lids: [u16; 3], kept: [u16; 3], lmc: u8, other: &[u16]) -> LidInputs {
        let ports = vec![
            port(1, lids[0], kept[0], true, false),
            port(2, lids[1], kept[1], false, true),
            port(3, lids[2], kept[2], false, true),
        ];
        inputs(ports, 3, lmc, other)
    }

    #[test]
    fn a_subnet_without_lids_gets_them_in_order_the_sm_port_first() {
        assert_eq!(three([0; 3], [0; 3], 0, &[]).predict(), Some(vec![2, 3, 1]));
    }

    #[test]
    fn with_an_lmc_every_range_is_aligned_and_switches_take_one_lid() {
        // SM port 3 takes 2..=3 (1 is not aligned), the switch 4, host 2 then 6..=7
        assert_eq!(three([0; 3], [0; 3], 1, &[]).predict(), Some(vec![4, 6, 2]));
    }

    #[test]
    fn the_database_entry_wins_over_the_lid_a_port_has() {
        assert_eq!(three([7, 9, 5], [0, 12, 0], 0, &[]).predict(), Some(vec![7, 12, 5]));
    }

    #[test]
    fn without_a_database_every_port_keeps_its_lid() {
        // an SM coming out of standby: the LIDs the master gave stay
        assert_eq!(three([4, 9, 2], [0; 3], 0, &[]).predict(), Some(vec![4, 9, 2]));
    }

    #[test]
    fn a_port_without_a_lid_gets_the_first_free_one() {
        // a host joined: 1, 2 and 3 are held by the others, 4 by an entry of a port gone
        assert_eq!(three([1, 0, 3], [1, 0, 3], 0, &[2, 4]).predict(), Some(vec![1, 5, 3]));
        // and the same without any entry: the LIDs the others have are not free
        assert_eq!(three([1, 0, 3], [0; 3], 0, &[]).predict(), Some(vec![1, 2, 3]));
    }

    #[test]
    fn a_lid_an_entry_holds_is_not_kept_by_another_port() {
        // host 2 has LID 5, which an entry of a port gone holds: it gets the first free one
        assert_eq!(three([1, 5, 3], [0; 3], 0, &[5]).predict(), Some(vec![1, 2, 3]));
        // an unaligned LID under LMC 1 is not kept either
        assert_eq!(three([1, 7, 4], [0; 3], 1, &[]).predict(), Some(vec![1, 2, 4]));
    }
}
