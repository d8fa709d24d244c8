//! LID assignment: which LIDs each port answers to.
//!
//! A planned fabric gets deterministic LIDs: hosts in rank order first (LMC 0: 1, 2, 3...;
//! LMC 1: 2, 4, 6... since a host's LID block must be aligned to 2^LMC), then the other CA
//! and router ports, then switches (one LID each: switch port 0 is a base port, LMC 0).
//! Written as OpenSM's `guid2lid` cache (see `formats::guid2lid`), OpenSM assigns exactly
//! these LIDs. A discovered fabric keeps the LIDs its subnet manager gave it.

use crate::error::{Error, Result};
use crate::topology::{Endpoint, Fabric, NodeId, NodeKind, PortIdx, NO_PEER};
use std::path::Path;

/// Highest unicast LID.
pub(crate) const MAX_UNICAST_LID: u32 = 0xBFFF;

/// Highest LID Mask Control value (PortInfo:LMC is three bits).
pub const MAX_LMC: u8 = 7;

/// One port's LIDs: `lo..=hi` (two LIDs for an LMC 1 CA port), read at `line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LidRange {
    /// Port GUID (switch port 0's GUID for a switch) the LIDs belong to.
    pub guid: u64,
    /// First LID, as read; range and alignment are checked by [`Lids::from_ranges`].
    pub lo: u64,
    /// Last LID (inclusive): `lo` for LMC 0, `lo + 1` for an LMC 1 CA port.
    pub hi: u64,
    /// 1-based line of the source file the range came from, for error messages.
    pub line: usize,
}

/// LIDs of every port that has some (CA/router ports, switch port 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lids {
    /// LMC of CA and router ports (switch port 0 always has LMC 0).
    pub lmc: u8,
    /// Base LID per global port index (0 = none).
    pub base: Vec<u16>,
    /// Owner of every LID (global port index), `NO_PEER` when unused; index = LID.
    pub owner: Vec<PortIdx>,
}

impl Lids {
    /// Number of LIDs a port answers to.
    pub fn span(&self, fabric: &Fabric, port: PortIdx) -> u32 {
        let p = &fabric.ports[port as usize];
        if fabric.node(p.node).kind == NodeKind::Switch {
            1
        } else {
            1 << self.lmc
        }
    }

    /// Fingerprint of the assignment (see [`crate::fingerprint`]): the LMC, then every
    /// LID in use with the node GUID and port number of the port that owns it. The LIDs
    /// part of [`super::LftSet::fingerprint`] with the LMC in front; binary table files
    /// (`formats::lftbin`) record it to tell "other LIDs" from "other tables".
    pub(crate) fn fingerprint(&self, fabric: &Fabric) -> String {
        let mut h = crate::fingerprint::Fnv1a::new();
        h.u64(self.lmc as u64);
        for (lid, &owner) in self.owner.iter().enumerate().skip(1) {
            if owner != NO_PEER {
                let p = &fabric.ports[owner as usize];
                h.u64(lid as u64).u64(fabric.node(p.node).guid).u64(p.num as u64);
            }
        }
        h.hex()
    }

    /// The switch every LID's packets are delivered by — the switch itself for a switch
    /// LID, the switch a host port is cabled to for a host LID — per LID (index = LID);
    /// `NO_PEER` for LIDs nobody owns and hosts without a cable. It is also the switch a
    /// packet from that LID enters first.
    pub fn switch_of_each(&self, fabric: &Fabric) -> Vec<NodeId> {
        self.owner
            .iter()
            .enumerate()
            .map(|(lid, &owner)| {
                if lid == 0 || owner == NO_PEER {
                    return NO_PEER;
                }
                let p = &fabric.ports[owner as usize];
                match fabric.node(p.node).kind {
                    NodeKind::Switch => p.node,
                    _ => fabric.peer(p.node, p.num).map_or(NO_PEER, |(n, _)| n),
                }
            })
            .collect()
    }

    /// Largest LID in use.
    pub fn max_lid(&self) -> u16 {
        (self.owner.len().max(1) - 1) as u16
    }

    /// Base LID of a CA port or of a switch (its port 0).
    pub fn lid(&self, fabric: &Fabric, node: u32, port: u8) -> u16 {
        let p = if fabric.node(node).kind == NodeKind::Switch {
            0
        } else {
            port
        };
        self.base[fabric.port_index(node, p) as usize]
    }

    fn empty(fabric: &Fabric, lmc: u8) -> Lids {
        Lids {
            lmc,
            base: vec![0; fabric.ports.len()],
            owner: vec![NO_PEER],
        }
    }

    fn set(&mut self, fabric: &Fabric, port: PortIdx, lid: u32) -> Result<()> {
        let span = self.span(fabric, port);
        let top = lid + span - 1;
        if lid == 0 || top > MAX_UNICAST_LID {
            return Err(Error::input(
                "lid",
                format!(
                    "LID {lid} of {} is outside the unicast range 1..={MAX_UNICAST_LID}",
                    describe_port(fabric, port)
                ),
                None,
            ));
        }
        if span > 1 && lid % span != 0 {
            return Err(Error::input(
                "lid",
                format!(
                    "LID {lid} of {} is not aligned to its LMC ({span} LIDs)",
                    describe_port(fabric, port)
                ),
                None,
            ));
        }
        if self.owner.len() <= top as usize {
            self.owner.resize(top as usize + 1, NO_PEER);
        }
        for l in lid..=top {
            let prev = self.owner[l as usize];
            if prev != NO_PEER && prev != port {
                return Err(Error::input(
                    "lid",
                    format!(
                        "LID {l} is used by both {} and {}",
                        describe_port(fabric, prev),
                        describe_port(fabric, port)
                    ),
                    None,
                ));
            }
            self.owner[l as usize] = port;
        }
        self.base[port as usize] = lid as u16;
        Ok(())
    }

    /// The deterministic assignment of a planned fabric: `hosts` (rank order) first, then
    /// remaining CA/router ports, then switches in node order.
    pub fn plan(fabric: &Fabric, hosts: &[Endpoint], lmc: u8) -> Result<Lids> {
        if lmc > MAX_LMC {
            return Err(Error::input(
                "lmc",
                format!("LMC {lmc} is not supported"),
                Some(format!("0..={MAX_LMC}")),
            ));
        }
        let mut lids = Lids::empty(fabric, lmc);
        let step = 1u32 << lmc;
        let mut next = step; // LID 0 is reserved; aligned start
        let mut placed = vec![false; fabric.ports.len()];
        let mut order: Vec<PortIdx> = hosts.iter().map(|e| fabric.port_index(e.node, e.port)).collect();
        for ep in fabric.endpoints() {
            let i = fabric.port_index(ep.node, ep.port);
            order.push(i);
        }
        for n in 0..fabric.len() as u32 {
            if fabric.node(n).kind == NodeKind::Router {
                for p in 1..=fabric.node(n).nports {
                    if fabric.peer(n, p).is_some() {
                        order.push(fabric.port_index(n, p));
                    }
                }
            }
        }
        for i in order {
            if std::mem::replace(&mut placed[i as usize], true) {
                continue;
            }
            lids.set(fabric, i, next)?;
            next += step;
        }
        for sw in fabric.switches() {
            lids.set(fabric, fabric.port_index(sw, 0), next)?;
            next += 1;
        }
        Ok(lids)
    }

    /// The LIDs recorded in a discovered fabric (ibnetdiscover after an SM ran).
    /// `None` when the dump carries no LIDs (a fabric nobody has swept yet).
    pub fn discovered(fabric: &Fabric) -> Result<Option<Lids>> {
        let any = fabric.ports.iter().any(|p| p.lid != 0);
        if !any {
            return Ok(None);
        }
        let lmc = fabric
            .ports
            .iter()
            .filter(|p| fabric.node(p.node).kind != NodeKind::Switch)
            .map(|p| p.lmc)
            .max()
            .unwrap_or(0);
        if lmc > MAX_LMC {
            // the fields of a fabric are public: refuse what no subnet can have instead of
            // shifting a LID span past 32 bits
            return Err(Error::input(
                "lmc",
                format!("LMC {lmc} is out of range: valid 0..={MAX_LMC}"),
                None,
            ));
        }
        let mut lids = Lids::empty(fabric, lmc);
        for (i, p) in fabric.ports.iter().enumerate() {
            let kind = fabric.node(p.node).kind;
            let relevant = if kind == NodeKind::Switch {
                p.num == 0
            } else {
                p.num > 0 && p.peer != NO_PEER
            };
            if !relevant {
                continue;
            }
            if p.lid == 0 {
                return Err(Error::input(
                    "lid",
                    format!("{} has no LID while others have", describe_port(fabric, i as PortIdx)),
                    None,
                ));
            }
            lids.set(fabric, i as PortIdx, p.lid as u32)?;
        }
        Ok(Some(lids))
    }

    /// LIDs from (port GUID, first LID, last LID) ranges, as a `guid2lid` file or the
    /// `portguid` annotations of an LFT dump give them. Every port GUID must belong to the
    /// fabric; every switch and cabled CA port must get a LID; `line` locates errors.
    pub fn from_ranges(fabric: &Fabric, ranges: &[LidRange], path: &Path) -> Result<Lids> {
        let index = fabric.port_guid_index();
        let mut lids: Option<Lids> = None;
        // a CA port already has its LIDs (flag, not a scan of every port per range)
        let mut ca_given = false;
        for &LidRange { guid: g, lo, hi, line } in ranges {
            let Some(&(node, port)) = index.get(&g) else {
                return Err(Error::at(
                    path,
                    line,
                    format!("port GUID 0x{g:016x} is not in the fabric"),
                ));
            };
            if hi < lo || hi - lo > 127 {
                return Err(Error::at(path, line, format!("bad LID range 0x{lo:x}..0x{hi:x}")));
            }
            let span = hi - lo + 1;
            let is_switch = fabric.node(node).kind == NodeKind::Switch;
            let l = lids.get_or_insert_with(|| Lids::empty(fabric, 0));
            if !is_switch {
                let lmc = span.trailing_zeros() as u8;
                if span != 1 << lmc || lmc > MAX_LMC {
                    return Err(Error::at(
                        path,
                        line,
                        format!("LID range of {span} LIDs: expected a power of two, 1..=128 (LMC 0..=7)"),
                    ));
                }
                if ca_given && l.lmc != lmc {
                    return Err(Error::at(path, line, "CA ports with different LMCs"));
                }
                l.lmc = lmc;
            }
            let idx = fabric.port_index(node, if is_switch { 0 } else { port });
            if l.base[idx as usize] != 0 {
                return Err(Error::at(
                    path,
                    line,
                    format!("port GUID 0x{g:016x} is given LIDs twice"),
                ));
            }
            l.set(fabric, idx, lo as u32).map_err(|e| e.in_file(path, line))?;
            ca_given |= !is_switch;
        }
        let lids = lids.ok_or_else(|| Error::at(path, 0, "no entries"))?;
        lids.require_complete(fabric).map_err(|e| e.in_file(path, 0))?;
        Ok(lids)
    }

    /// Every switch and every cabled CA port has a LID.
    pub fn require_complete(&self, fabric: &Fabric) -> Result<()> {
        for sw in fabric.switches() {
            if self.base[fabric.port_index(sw, 0) as usize] == 0 {
                return Err(Error::input(
                    "lid",
                    format!("switch {} has no LID", fabric.node(sw).desc),
                    None,
                ));
            }
        }
        for ep in fabric.endpoints() {
            if self.base[fabric.port_index(ep.node, ep.port) as usize] == 0 {
                return Err(Error::input(
                    "lid",
                    format!(
                        "{} has no LID",
                        describe_port(fabric, fabric.port_index(ep.node, ep.port))
                    ),
                    None,
                ));
            }
        }
        Ok(())
    }
}

/// "switch 'desc'" or "'desc' port 1" for messages.
pub(crate) fn describe_port(fabric: &Fabric, port: PortIdx) -> String {
    let p = &fabric.ports[port as usize];
    let n = fabric.node(p.node);
    match n.kind {
        NodeKind::Switch => format!("switch '{}'", n.desc),
        _ => format!("'{}' port {} (GUID 0x{:016x})", n.desc, p.num, p.guid),
    }
}

/// Every host LID of a degraded tree family as (tree position, LID, owning port), sorted
/// by position: `placed` gives each host port's position in the layout, `in_layout` says
/// which switches are the layout's. A LID owned by anything else (a host or switch the
/// layout does not know) is refused before any table is filled, naming it and `family`.
pub(crate) fn positioned_host_lids<'a>(
    fabric: &Fabric,
    lids: &Lids,
    placed: impl Iterator<Item = (&'a Endpoint, &'a u32)>,
    in_layout: impl Fn(NodeId) -> bool,
    family: impl Fn() -> String,
) -> Result<Vec<(u32, u32, PortIdx)>> {
    let mut pos_of = vec![u32::MAX; fabric.ports.len()];
    for (ep, &d) in placed {
        pos_of[fabric.port_index(ep.node, ep.port) as usize] = d;
    }
    let mut dests = Vec::new();
    for (lid, &owner) in lids.owner.iter().enumerate() {
        if owner == NO_PEER || lid == 0 {
            continue;
        }
        let node = fabric.ports[owner as usize].node;
        match fabric.node(node).kind {
            NodeKind::Switch if in_layout(node) => {}
            _ if pos_of[owner as usize] != u32::MAX => dests.push((pos_of[owner as usize], lid as u32, owner)),
            _ => {
                return Err(Error::input(
                    "topology",
                    format!(
                        "{} is not a switch or host of the degraded {}",
                        describe_port(fabric, owner),
                        family()
                    ),
                    None,
                ))
            }
        }
    }
    dests.sort_unstable();
    Ok(dests)
}
