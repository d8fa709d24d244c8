//! Reading the subnet OpenSM discovered: the shim walks OpenSM's node and port tables into
//! plain records ([`ShimNode`], [`ShimPort`]) and this turns them into an ibfat fabric with
//! OpenSM's LIDs, link rates and VL capabilities.

pub(crate) mod lids;
pub(crate) mod saved;

use crate::aside::SubnetFault;
use ibfat::routing::small::PassThreads;
use ibfat::topology::{Fabric, NodeKind, Speed, Width};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::atomic::{AtomicU64, Ordering};

extern "C" {
    fn ibfat_shim_subnet_walk(
        osm: *mut c_void,
        found_only: c_int,
        nodes: *mut ShimNode,
        max_nodes: c_uint,
        ports: *mut ShimPort,
        max_ports: c_uint,
        n_nodes: *mut c_uint,
        n_ports: *mut c_uint,
    ) -> c_int;
    fn ibfat_shim_subnet_bounds(osm: *mut c_void, n_nodes: *mut c_uint, n_ports: *mut c_uint);
    fn ibfat_shim_read_lock(osm: *mut c_void, take: c_int);
}

/// When the subnet is read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// In a routing pass, which holds OpenSM's lock: the subnet as it is routed.
    Pass,
    /// Right after a heavy sweep's discovery, outside any lock OpenSM holds: under its
    /// read lock, and without what its drop manager removes next (nodes the sweep did not
    /// reach), with the LIDs the ports have now ([`lids`] puts in those OpenSM is about
    /// to give).
    Discovered,
}

/// OpenSM's subnet lock, held for reading while this lives.
struct ReadLock(*mut c_void);

impl ReadLock {
    fn take(osm: *mut c_void) -> ReadLock {
        // SAFETY: osm is OpenSM's (given to create()); the caller holds no OpenSM lock
        unsafe { ibfat_shim_read_lock(osm, 1) };
        ReadLock(osm)
    }
}

impl Drop for ReadLock {
    fn drop(&mut self) {
        // SAFETY: taken in ReadLock::take on this thread
        unsafe { ibfat_shim_read_lock(self.0, 0) };
    }
}

/// The IB node type of a switch in [`ShimNode::kind`].
pub(crate) const SWITCH_KIND: u8 = 2;

#[repr(C)]
#[derive(Clone, PartialEq, Eq)]
pub struct ShimNode {
    pub(crate) guid: u64,
    pub(crate) kind: u8,
    nports: u8,
    lid: u16,
    pub(crate) desc: [c_char; 65],
}

#[repr(C)]
#[derive(Clone, PartialEq, Eq)]
pub struct ShimPort {
    pub(crate) node_guid: u64,
    port_guid: u64,
    pub(crate) remote_node_guid: u64,
    lid: u16,
    lmc: u8,
    pub(crate) port: u8,
    pub(crate) remote_port: u8,
    width: u8,
    speed: u8,
    speed_ext: u8,
    speed_mlnx: u8,
    vl_cap: u8,
}

/// A port whose PortInfo rate codes ibfat does not know: the link is routed (routing does
/// not need the rate) and its rate is recorded as unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownRate {
    node_guid: u64,
    port: u8,
    width: u8,
    speed: u8,
    speed_ext: u8,
    speed_mlnx: u8,
}

/// What the plugin reads of the subnet.
pub struct Subnet {
    /// The fabric with OpenSM's LIDs; a link of unknown rate holds the fabric's default
    /// width and speed as placeholders, listed in `unknown_rates`.
    pub fabric: Fabric,
    /// The links whose codes were not understood: their rate is unknown.
    pub unknown_rates: Vec<UnknownRate>,
}

impl Subnet {
    /// The log line about links of unknown rate, if any.
    pub fn unknown_rate_note(&self) -> Option<String> {
        let first = self.unknown_rates.first()?;
        Some(format!(
            "{} link(s) report rate codes ibfat does not know (first: port {} of 0x{:016x}: \
             LinkWidthActive {}, LinkSpeedActive {}, LinkSpeedExtActive {}, Mellanox LinkSpeedActive {}); \
             their rate is recorded as unknown, routing does not use it",
            self.unknown_rates.len(),
            first.port,
            first.node_guid,
            first.width,
            first.speed,
            first.speed_ext,
            first.speed_mlnx
        ))
    }
}

/// OpenSM's node and port records as one walk of its tables gave them: everything a
/// routing pass knows of the subnet, so two equal readings route alike ([`crate::reuse`]).
#[derive(Clone, PartialEq, Eq)]
pub struct Records {
    /// A digest of the GUIDs, cables and LIDs ([`Records::new`]). It is compared first:
    /// a pass that looks its reading up among hundreds of changes computed ahead
    /// compares whole records only where the digests agree (a cable cut leaves every node
    /// record as it was, so comparing those alone cost 21 KB a change on SuperPOD 1 SU).
    digest: u64,
    /// One per node, in OpenSM's node-table order (by GUID).
    pub(crate) nodes: Vec<ShimNode>,
    /// One per cabled port, node by node, port by port.
    pub(crate) ports: Vec<ShimPort>,
}

impl Records {
    /// Records with their digest. Equal records have equal digests; what it leaves out
    /// (descriptions, rates) only costs a full comparison where it collides.
    pub(crate) fn new(nodes: Vec<ShimNode>, ports: Vec<ShimPort>) -> Records {
        let mix = |h: u64, v: u64| (h.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
        let mut h = mix(nodes.len() as u64, ports.len() as u64);
        for n in &nodes {
            h = mix(h, n.guid ^ u64::from(n.lid) << 48);
        }
        for p in &ports {
            h = mix(h, p.node_guid ^ p.remote_node_guid.rotate_left(17));
            h = mix(
                h,
                u64::from(p.port) | u64::from(p.remote_port) << 8 | u64::from(p.lid) << 16,
            );
        }
        Records {
            digest: h,
            nodes,
            ports,
        }
    }

    /// Walk OpenSM's tables, once when the last read's sizes still hold. `sizes` holds the
    /// node and port counts of the last read (high and low 32 bits) and is updated: the
    /// usual re-sweep fits, a subnet that grew takes a second walk. The first read sizes
    /// its buffers by every node's port count (a second walk was a third of its time).
    pub fn read(osm: *mut c_void, sizes: &AtomicU64, when: Reading) -> Result<Records, SubnetFault> {
        let _lock = (when == Reading::Discovered).then(|| ReadLock::take(osm));
        let last = sizes.load(Ordering::Relaxed);
        // a little room over the last read's counts: a host or two joining costs no second walk
        let (mut cap_n, mut cap_p) = ((last >> 32) as c_uint, last as c_uint);
        if last == 0 {
            // SAFETY: osm is OpenSM's (given to create()); the shim writes the two counts
            unsafe { ibfat_shim_subnet_bounds(osm, &mut cap_n, &mut cap_p) };
        }
        cap_n = cap_n.saturating_add(cap_n / 16 + 4);
        cap_p = cap_p.saturating_add(cap_p / 16 + 4);
        for _ in 0..2 {
            let mut nodes: Vec<ShimNode> = Vec::with_capacity(cap_n as usize);
            let mut ports: Vec<ShimPort> = Vec::with_capacity(cap_p as usize);
            let (mut nn, mut np): (c_uint, c_uint) = (0, 0);
            // SAFETY: osm is OpenSM's (given to create()); the buffers have room for cap_n /
            // cap_p records, the shim writes at most that many and counts every record in
            // nn / np, written or not
            let rc = unsafe {
                ibfat_shim_subnet_walk(
                    osm,
                    c_int::from(when == Reading::Discovered),
                    nodes.as_mut_ptr(),
                    cap_n,
                    ports.as_mut_ptr(),
                    cap_p,
                    &mut nn,
                    &mut np,
                )
            };
            if rc == 0 && nn <= cap_n && np <= cap_p {
                // SAFETY: the shim filled exactly nn and np records
                unsafe {
                    nodes.set_len(nn as usize);
                    ports.set_len(np as usize);
                }
                sizes.store((u64::from(nn) << 32) | u64::from(np), Ordering::Relaxed);
                return Ok(Records::new(nodes, ports));
            }
            (cap_n, cap_p) = (nn, np);
        }
        Err(SubnetFault::Changed)
    }

    /// The digest of the records ([`Records::new`]).
    pub(crate) fn digest(&self) -> u64 {
        self.digest
    }

    /// How a pass on these records routes: on its own thread or on all cores, by the size
    /// of the tables (switches × LIDs up to the highest OpenSM assigned). The same size
    /// decides whether the changes of the subnet are computed ahead (single thread only).
    pub(crate) fn threads(&self) -> PassThreads {
        let lids = self.nodes.iter().map(|n| n.lid).chain(self.ports.iter().map(|p| p.lid));
        let top = usize::from(lids.max().unwrap_or(0));
        let switches = self.nodes.iter().filter(|n| n.kind == SWITCH_KIND).count();
        PassThreads::for_entries(switches.saturating_mul(top + 1))
    }

    /// The heap bytes of the records.
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(self.nodes.as_slice()) + std::mem::size_of_val(self.ports.as_slice())
    }

    /// (VLCap code, node GUID, port) of the cabled port offering the fewest VLs.
    pub fn lowest_vl_cap(&self) -> Option<(u8, u64, u8)> {
        self.ports
            .iter()
            .filter(|p| p.vl_cap != 0)
            .map(|p| (p.vl_cap, p.node_guid, p.port))
            .min()
    }
}

/// Width and speed of a port from its PortInfo codes (see `ibfat::topology::rate`);
/// `None` where the code is not one ibfat knows.
pub fn link_rate(p: &ShimPort) -> (Option<Width>, Option<Speed>) {
    (
        Width::from_code(p.width),
        Speed::from_codes(p.speed, p.speed_ext, p.speed_mlnx),
    )
}

/// The name of a node: its kind's letter and its GUID, `S-0002c90300a1b2c3`, written
/// digit by digit (the formatting machinery costs more than the rest of a node's record).
fn guid_name(prefix: u8, guid: u64) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut b = [0u8; 18];
    b[0] = prefix;
    b[1] = b'-';
    for (k, d) in b[2..].iter_mut().enumerate() {
        *d = HEX[(guid >> (60 - 4 * k) & 0xf) as usize];
    }
    // ASCII by construction: one allocation and a copy, not a char-by-char collect
    String::from_utf8_lossy(&b).into_owned()
}

/// A node description as the SMA reports it (NUL-terminated, at most 64 bytes used),
/// without surrounding blanks; bytes that are not UTF-8 become U+FFFD. Valid text (the
/// usual case) is copied once, with no lossy scan.
pub(crate) fn description(desc: &[c_char; 65]) -> String {
    // SAFETY: the shim NUL-terminates desc (65 bytes, at most 64 used)
    let bytes = unsafe { CStr::from_ptr(desc.as_ptr()) }.to_bytes();
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    };
    text.trim().to_owned()
}

/// The subnet OpenSM discovered as an ibfat fabric (with OpenSM's LIDs).
pub fn subnet_of(records: &Records) -> Result<Subnet, SubnetFault> {
    let (nodes, ports) = (&records.nodes, &records.ports);
    let mut fabric = Fabric::new();
    fabric.reserve(
        nodes.len(),
        nodes.iter().map(|n| usize::from(n.nports.max(1)) + 1).sum(),
    );
    // GUID -> node id, sorted for binary search (a hash per port costs more at this size)
    let mut id_of: Vec<(u64, u32)> = Vec::with_capacity(nodes.len());
    let mut unknown_rates = Vec::new();
    for n in nodes {
        let kind = match n.kind {
            SWITCH_KIND => NodeKind::Switch,
            3 => NodeKind::Router,
            _ => NodeKind::Ca,
        };
        let desc = description(&n.desc);
        let prefix = match kind {
            NodeKind::Switch => b'S',
            NodeKind::Ca => b'H',
            NodeKind::Router => b'R',
        };
        let id = fabric
            .add_node(kind, n.nports.max(1) as u32, n.guid, guid_name(prefix, n.guid), desc)
            .map_err(SubnetFault::Fabric)?;
        if kind == NodeKind::Switch {
            let p0 = fabric.port_index(id, 0) as usize;
            fabric.ports[p0].lid = n.lid;
        }
        id_of.push((n.guid, id));
    }
    id_of.sort_unstable();
    let id = |guid: u64| id_of.binary_search_by_key(&guid, |e| e.0).ok().map(|i| id_of[i].1);
    for p in ports {
        let (Some(a), Some(b)) = (id(p.node_guid), id(p.remote_node_guid)) else {
            return Err(SubnetFault::UnknownPeer {
                node: p.node_guid,
                port: p.port,
                peer: p.remote_node_guid,
            });
        };
        let ia = fabric.try_port_index(a, p.port as u32).map_err(SubnetFault::Fabric)? as usize;
        if fabric.node(a).kind != NodeKind::Switch {
            fabric.ports[ia].guid = p.port_guid;
            fabric.ports[ia].lid = p.lid;
            fabric.ports[ia].lmc = p.lmc;
        }
        if fabric.ports[ia].peer == ibfat::topology::NO_PEER {
            let ib = fabric
                .try_port_index(b, p.remote_port as u32)
                .map_err(SubnetFault::Fabric)? as usize;
            if fabric.ports[ib].peer == ibfat::topology::NO_PEER {
                let (w, s) = link_rate(p);
                if w.is_none() || s.is_none() {
                    unknown_rates.push(UnknownRate {
                        node_guid: p.node_guid,
                        port: p.port,
                        width: p.width,
                        speed: p.speed,
                        speed_ext: p.speed_ext,
                        speed_mlnx: p.speed_mlnx,
                    });
                }
                fabric
                    .connect_with(
                        a,
                        p.port as u32,
                        b,
                        p.remote_port as u32,
                        w.unwrap_or_default(),
                        s.unwrap_or_default(),
                    )
                    .map_err(SubnetFault::Fabric)?;
            }
        }
    }
    Ok(Subnet { fabric, unknown_rates })
}

/// Records made by hand: the warm-up subnet of [`crate::ahead`], and tests.
pub(crate) mod made {
    use super::*;

    /// A node record: kind 1 a CA, 2 a switch.
    pub fn node(guid: u64, kind: u8, nports: u8, desc: &str) -> ShimNode {
        let mut d = [0 as c_char; 65];
        for (to, &b) in d.iter_mut().zip(desc.as_bytes()) {
            *to = b as c_char;
        }
        ShimNode {
            guid,
            kind,
            nports,
            lid: 0,
            desc: d,
        }
    }

    /// The two port records of a 4x QDR cable between (a, pa) and (b, pb).
    pub fn cable(a: u64, pa: u8, b: u64, pb: u8) -> [ShimPort; 2] {
        let end = |n: u64, p: u8, r: u64, rp: u8| ShimPort {
            node_guid: n,
            port_guid: n,
            remote_node_guid: r,
            lid: 0,
            lmc: 0,
            port: p,
            remote_port: rp,
            width: 2,
            speed: 4,
            speed_ext: 0,
            speed_mlnx: 0,
            vl_cap: 4,
        };
        [end(a, pa, b, pb), end(b, pb, a, pa)]
    }

    /// An irregular two-level tree the size of a lab cluster: 6 leaves of 36 ports with
    /// 24 down to 19 hosts, 2 spines, one leaf with a second cable to a spine, a host on a
    /// spine. Recognition tries every family on it before it is a tree as found. Its size
    /// matters: on a tree of 6 hosts the 145-host lab's first pass took 0.43–0.49 ms
    /// against 0.52–0.65 (the allocator's heap and the caches hold less of what it needs).
    pub fn warm_up() -> Records {
        let spines = [0x5001u64, 0x5002];
        let leaves = [0x4001u64, 0x4002, 0x4003, 0x4004, 0x4005, 0x4006];
        let mut nodes: Vec<ShimNode> = spines
            .iter()
            .chain(&leaves)
            .map(|&g| node(g, SWITCH_KIND, 36, "warm-up switch"))
            .collect();
        let mut cables = Vec::new();
        let mut host = 0x1000u64;
        let mut add_host = |nodes: &mut Vec<ShimNode>, cables: &mut Vec<[ShimPort; 2]>, sw: u64, port: u8| {
            host += 1;
            nodes.push(node(host, 1, 1, "warm-up host"));
            cables.push(cable(host, 1, sw, port));
        };
        for (i, &leaf) in leaves.iter().enumerate() {
            for (j, &spine) in spines.iter().enumerate() {
                cables.push(cable(leaf, 35 + j as u8, spine, 1 + i as u8));
            }
            for p in 0..24 - i as u8 {
                add_host(&mut nodes, &mut cables, leaf, 1 + p);
            }
        }
        cables.push(cable(leaves[2], 34, spines[0], 7));
        add_host(&mut nodes, &mut cables, spines[1], 20);
        records(nodes, &cables)
    }

    /// Records as the shim's walk orders them — nodes by GUID, ports node by node, port
    /// by port — with LIDs as OpenSM gives them: one per switch, one per CA port.
    pub fn records(mut nodes: Vec<ShimNode>, cables: &[[ShimPort; 2]]) -> Records {
        nodes.sort_by_key(|n| n.guid);
        let mut ports: Vec<ShimPort> = cables.iter().flat_map(|c| c.iter().cloned()).collect();
        ports.sort_by_key(|p| (nodes.iter().position(|n| n.guid == p.node_guid), p.port));
        let mut lid = 0u16;
        for n in nodes.iter_mut().filter(|n| n.kind == SWITCH_KIND) {
            lid += 1;
            n.lid = lid;
        }
        let switch = |g: u64| nodes.iter().any(|n| n.guid == g && n.kind == SWITCH_KIND);
        for p in ports.iter_mut().filter(|p| !switch(p.node_guid)) {
            lid += 1;
            p.lid = lid;
        }
        Records::new(nodes, ports)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port(width: u8, speed: u8, speed_ext: u8, speed_mlnx: u8) -> ShimPort {
        ShimPort {
            node_guid: 1,
            port_guid: 2,
            remote_node_guid: 3,
            lid: 0,
            lmc: 0,
            port: 1,
            remote_port: 1,
            width,
            speed,
            speed_ext,
            speed_mlnx,
            vl_cap: 4,
        }
    }

    #[test]
    fn rates_come_from_the_portinfo_codes() {
        assert_eq!(link_rate(&port(2, 4, 0, 0)), (Some(Width::X4), Some(Speed::Qdr)));
        assert_eq!(link_rate(&port(8, 1, 0, 0)), (Some(Width::X12), Some(Speed::Sdr)));
        assert_eq!(link_rate(&port(2, 4, 2, 0)), (Some(Width::X4), Some(Speed::Edr)));
        assert_eq!(link_rate(&port(1, 0, 8, 0)), (Some(Width::X1), Some(Speed::Ndr)));
        assert_eq!(link_rate(&port(16, 4, 0, 1)), (Some(Width::X2), Some(Speed::Fdr10)));
    }

    #[test]
    fn node_names_are_kind_and_guid() {
        for guid in [0, 1, 0x0002_c903_00a1_b2c3, u64::MAX] {
            assert_eq!(guid_name(b'S', guid), format!("S-{guid:016x}"));
        }
        assert_eq!(guid_name(b'H', 0xabc), "H-0000000000000abc");
    }

    #[test]
    fn descriptions_read_as_the_lossy_trimmed_text() {
        let cases: [&[u8]; 6] = [
            b"MF0;switch-a:SX6036/U1",
            b"  host07 HCA-1 \t",
            b"",
            b"caf\xc3\xa9 \xe2\x80\x83",
            b"bad \xff\xfe bytes ",
            &[b'x'; 64],
        ];
        for bytes in cases {
            let mut raw = [0 as c_char; 65];
            for (d, &b) in raw.iter_mut().zip(bytes) {
                *d = b as c_char;
            }
            let old = String::from_utf8_lossy(bytes).trim().to_string();
            assert_eq!(description(&raw), old, "{bytes:?}");
        }
    }

    #[test]
    fn unknown_codes_are_unknown_not_sdr() {
        // LinkSpeedActive 0 without an extended speed, and values no spec assigns
        for speed in [0u8, 3, 8, 15] {
            assert_eq!(link_rate(&port(2, speed, 0, 0)).1, None, "speed {speed}");
        }
        assert_eq!(link_rate(&port(2, 4, 3, 0)).1, None, "ext 3");
        assert_eq!(link_rate(&port(0, 4, 0, 0)).0, None, "width 0");
        assert_eq!(link_rate(&port(3, 4, 0, 0)).0, None, "width 3");
        let subnet = Subnet {
            fabric: Fabric::new(),
            unknown_rates: vec![UnknownRate {
                node_guid: 0x2c9,
                port: 3,
                width: 2,
                speed: 0,
                speed_ext: 0,
                speed_mlnx: 0,
            }],
        };
        let note = subnet.unknown_rate_note().unwrap();
        assert!(
            note.contains("port 3 of 0x00000000000002c9") && note.contains("unknown"),
            "{note}"
        );
    }
}
