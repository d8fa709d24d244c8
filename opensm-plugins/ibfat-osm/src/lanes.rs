//! Virtual lanes inside OpenSM: the SL of every path (OpenSM's `path_sl`, what SA answers
//! in PathRecords) and the SL-to-VL table of every switch port pair (`update_sl2vl`, what
//! OpenSM programs when QoS is on), for routes that need a second VL (a degraded LSFT).
//!
//! A routing pass that needs lanes installs an [`ActiveLanes`]; a pass that does not (an
//! intact fabric: up*/down* routes are deadlock-free on any one VL) removes it, and the
//! callbacks then leave OpenSM's own choices alone (the SL hint, the QoS tables).
//!
//! SLs: a path the rule puts on SL s ≠ 0 gets s; a path on SL 0 keeps OpenSM's hint unless
//! the hint is one of the rule's SLs (1 … [`LaneRules::rule_sls`]), which would move it
//! onto the VLs the proof reserves for detours — such a path gets SL 0. SL-to-VL: every SL of every
//! switch port pair gets the rule's VL (SLs the rule does not use map to VL 0); CA ports
//! send every SL on VL 0 (a host's link carries no dependency between two channels).
//!
//! One exception, for OpenSM's sake: SL 15 maps to VL 1 everywhere ([`KEEPALIVE_SL`]) when
//! no route uses SL 15 (a job asking for it by QoS gets it for a path on SL 0,
//! an up-then-down path, which adds no down→up dependency to VL 1: both VLs stay acyclic).
//! When the escape lane carries pairs (`routing::escape`), SL 15 is one of the rule's SLs
//! and maps to the escape VL at every switch — never VL 0, so the tables keep the property
//! (a CA still sends SL 15 on VL 1: its own link depends on no channel before it).
//! It keeps every table from being all VL 0, because OpenSM 3.3.23 zeroes its copy of a
//! table whose Set was lost (a cable going down under the MAD) so that the next sweep
//! resends it — and then never resends a table that should be all VL 0, leaving the
//! switch with its old mapping.

use ibfat::routing::lanes::LaneRules;
use ibfat::routing::Lids;
use ibfat::topology::{Fabric, NodeId, NO_PEER};
use std::collections::HashMap;

/// The SL every table maps to [`KEEPALIVE_VL`] (module documentation).
pub const KEEPALIVE_SL: usize = 15;
/// The VL of [`KEEPALIVE_SL`]: the rule's second data VL.
pub const KEEPALIVE_VL: u8 = 1;

/// The lane rules of the tables OpenSM is programming, with the lookups its callbacks need.
pub struct ActiveLanes {
    rules: Box<dyn LaneRules + Send + Sync>,
    /// Switch node of every GUID.
    node_of_guid: HashMap<u64, NodeId>,
    /// The switch a LID's traffic starts at (a host's leaf, a switch itself); `NO_PEER`
    /// for LIDs nobody owns.
    src_of_lid: Vec<NodeId>,
}

impl ActiveLanes {
    /// Lanes for `fabric` with OpenSM's `lids`, following `rules`.
    pub fn new(fabric: &Fabric, lids: &Lids, rules: Box<dyn LaneRules + Send + Sync>) -> ActiveLanes {
        let node_of_guid = fabric
            .switches()
            .map(|s| (fabric.node(s).guid, s))
            .collect::<HashMap<_, _>>();
        let src_of_lid = lids.switch_of_each(fabric);
        ActiveLanes {
            rules,
            node_of_guid,
            src_of_lid,
        }
    }

    /// The SL of the path `slid` → `dlid` (module documentation).
    pub fn path_sl(&self, hint: u8, slid: u16, dlid: u16) -> u8 {
        let src = self.src_of_lid.get(slid as usize).copied().unwrap_or(NO_PEER);
        let dst_known = self.src_of_lid.get(dlid as usize).is_some_and(|&n| n != NO_PEER);
        if src == NO_PEER || !dst_known {
            return hint;
        }
        match self.rules.sl(src, dlid as usize) {
            0 if (1..=self.rules.rule_sls()).contains(&hint) => 0,
            0 => hint,
            s => s,
        }
    }

    /// Fill `vls` (the VL of each SL) for the port pair `in_port` → `out_port` of the node
    /// `guid`; false when the node is not one of the fabric's switches or CAs (left alone).
    pub fn sl2vl(&self, guid: u64, is_switch: bool, in_port: u8, out_port: u8, vls: &mut [u8; 16]) -> bool {
        if !is_switch {
            vls.fill(0);
        } else {
            let Some(&sw) = self.node_of_guid.get(&guid) else {
                return false;
            };
            for (sl, v) in vls.iter_mut().enumerate() {
                *v = self.rules.vl(sw, sl as u8, in_port, out_port);
            }
        }
        // a host's own link starts every path: its VL depends on nothing before it
        if !is_switch || self.rules.rule_sls() < KEEPALIVE_SL as u8 {
            vls[KEEPALIVE_SL] = KEEPALIVE_VL;
        }
        true
    }
}

/// What OpenSM offers for virtual lanes: QoS on (it programs SL-to-VL tables only then),
/// its `max_op_vls`, and the lowest VLCap of any cabled port (with the port, for the log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VlOffer {
    pub qos: bool,
    pub max_op_vls: u8,
    /// (VLCap code, node GUID, port) of the cabled port with the fewest VLs.
    pub lowest_cap: Option<(u8, u64, u8)>,
}

impl VlOffer {
    /// Data VLs every link can operate.
    pub fn data_vls(&self) -> u8 {
        let cap = self.lowest_cap.map_or(15, |(c, _, _)| data_vls_of_code(c));
        let op = match self.max_op_vls {
            0 => 15, // not set: OpenSM's default allows all
            c => data_vls_of_code(c),
        };
        cap.min(op)
    }

    /// Data VLs the routes may use: every one offered with QoS on (OpenSM programs
    /// SL-to-VL tables only then), else one.
    pub fn usable(&self) -> u8 {
        if self.qos {
            self.data_vls()
        } else {
            1
        }
    }

    /// Why `need` data VLs cannot be had, if they cannot.
    pub fn refusal(&self, need: u8) -> Option<String> {
        if !self.qos {
            return Some(format!(
                "the routes need {need} data VLs, and OpenSM programs SL-to-VL tables only with QoS on \
                 (start it with -Q or set `qos TRUE`)"
            ));
        }
        let have = self.data_vls();
        (have < need).then(|| match self.lowest_cap {
            Some((code, guid, port)) if data_vls_of_code(code) < need => format!(
                "the routes need {need} data VLs; port {port} of 0x{guid:016x} offers {} (VLCap {code})",
                data_vls_of_code(code)
            ),
            _ => format!(
                "the routes need {need} data VLs; max_op_vls {} allows {have}",
                self.max_op_vls
            ),
        })
    }
}

/// Data VLs a PortInfo VLCap / OperationalVLs code stands for (1: VL0, 2: VL0–1, 3:
/// VL0–3, 4: VL0–7, 5: VL0–14); 0 for codes outside 1..=5.
pub fn data_vls_of_code(code: u8) -> u8 {
    match code {
        1..=4 => 1 << (code - 1),
        5 => 15,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibfat::topology::NodeKind;

    #[test]
    fn vl_codes() {
        let got: Vec<u8> = (0..=6).map(data_vls_of_code).collect();
        assert_eq!(got, vec![0, 1, 2, 4, 8, 15, 0]);
    }

    struct TwoLanes;
    impl LaneRules for TwoLanes {
        fn sl(&self, src: NodeId, dlid: usize) -> u8 {
            (src as usize + dlid) as u8 % 3
        }
        fn vl(&self, switch: NodeId, sl: u8, in_port: u8, out_port: u8) -> u8 {
            ((switch as u8 + sl + in_port + out_port) % 2) * (sl.min(1))
        }
        fn data_vls(&self) -> u8 {
            2
        }
    }

    #[test]
    fn hints_survive_only_where_the_rule_allows() {
        use ibfat::families::lsft::model::LsftParams;
        use ibfat::topology::{FamilySpec, Spec};
        let topo = Spec::new(FamilySpec::Lsft(LsftParams::new(2, false))).build().unwrap();
        let lids = Lids::plan(&topo.fabric, &[], 0).unwrap();
        let lanes = ActiveLanes::new(&topo.fabric, &lids, Box::new(TwoLanes));
        let host_lid = (1..lids.owner.len() as u16)
            .find(|&l| {
                let o = lids.owner[l as usize];
                o != NO_PEER && topo.fabric.node(topo.fabric.ports[o as usize].node).kind == NodeKind::Ca
            })
            .unwrap();
        let leaf = lanes.src_of_lid[host_lid as usize];
        assert_eq!(topo.fabric.node(leaf).kind, NodeKind::Switch);
        for dlid in 1..lids.owner.len() as u16 {
            if lids.owner[dlid as usize] == NO_PEER {
                continue;
            }
            let want = TwoLanes.sl(leaf, dlid as usize);
            for hint in [0u8, 1, 2, 5] {
                let got = lanes.path_sl(hint, host_lid, dlid);
                let expect = match want {
                    0 if hint == 1 || hint == 2 => 0,
                    0 => hint,
                    s => s,
                };
                assert_eq!(got, expect, "dlid {dlid} hint {hint}");
            }
        }
        // an unknown source or destination LID keeps the hint
        assert_eq!(lanes.path_sl(7, 0xbfff, host_lid), 7);
        assert_eq!(lanes.path_sl(7, host_lid, 0xbfff), 7);
        let mut vls = [9u8; 16];
        assert!(lanes.sl2vl(0xdead, false, 0, 0, &mut vls));
        let mut ca = [0; 16];
        ca[KEEPALIVE_SL] = KEEPALIVE_VL;
        assert_eq!(vls, ca);
        let mut vls = [9u8; 16];
        assert!(!lanes.sl2vl(0xdead_beef_0000, true, 1, 2, &mut vls), "unknown switch");
        assert_eq!(vls, [9; 16]);
        let g = topo.fabric.node(leaf).guid;
        assert!(lanes.sl2vl(g, true, 1, 2, &mut vls));
        for (sl, &v) in vls.iter().enumerate().take(KEEPALIVE_SL) {
            assert_eq!(v, TwoLanes.vl(leaf, sl as u8, 1, 2));
        }
        assert_eq!(vls[KEEPALIVE_SL], KEEPALIVE_VL);
    }

    #[test]
    fn refusals_name_the_cause() {
        let mut o = VlOffer {
            qos: false,
            max_op_vls: 5,
            lowest_cap: Some((4, 0x2c9, 3)),
        };
        assert!(o.refusal(2).unwrap().contains("QoS on"));
        o.qos = true;
        assert_eq!(o.data_vls(), 8);
        assert!(o.refusal(2).is_none());
        o.lowest_cap = Some((1, 0x2c9, 3));
        let why = o.refusal(2).unwrap();
        assert!(why.contains("port 3 of 0x00000000000002c9 offers 1"), "{why}");
        o.lowest_cap = Some((4, 0x2c9, 3));
        o.max_op_vls = 1;
        assert!(o.refusal(2).unwrap().contains("max_op_vls 1 allows 1"));
    }
}
