//! A routing pass on a degraded fabric (a known family with cables or switches missing).
//! An LSFT: ibfat's detour routes (docs/routing.md §2.4), deadlock-free on two data VLs,
//! three when some route turns twice — which needs OpenSM to program the SL-to-VL tables
//! (QoS on) and every port to offer the VLs the routes need; anything short of that is
//! refused with the reason, so OpenSM falls back. A PGFT
//! (k-ary n-tree, two-level) or a MOLS 3-level tree (LMC 0 or 1): up*/down* around the
//! holes on one VL; pairs no up*/down* path connects are logged and left unrouted, the rest
//! is programmed. Switch-LID routes that detour through a relay (`routing::tree_lanes`)
//! need SL 1-2 and a second VL: with QoS on and two VLs offered they are programmed with
//! their SL-to-VL tables; otherwise they are dropped (logged with the reason) and the
//! tree is routed on one VL as without them.

use crate::lanes::{data_vls_of_code, ActiveLanes};
use ibfat::check::vls::{check_lanes, VlReport};
use ibfat::recognize::Degraded;
use ibfat::routing::degraded::{route_lsft, route_lsft_spread};
use ibfat::routing::degraded_mols::route_mols;
use ibfat::routing::degraded_pgft::route_pgft;
use ibfat::routing::lanes::{LaneRules, Lanes};
use ibfat::routing::{LftSet, Lids};
use ibfat::topology::degraded::Holes;
use ibfat::topology::Fabric;

/// What OpenSM offers for virtual lanes: QoS on (it programs SL-to-VL tables only then),
/// its `max_op_vls`, and the lowest VLCap of any cabled port (with the port, for the log).
#[derive(Clone, Copy, Debug)]
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

/// The log line of the per-VL check of routes whose SLs go up to `rule_sls`.
fn per_vl_line(v: &VlReport, rule_sls: u8) -> String {
    format!(
        "per-VL validation: {} host paths ({} on SL 1-{rule_sls}), {} unrouted, {} broken, {} VL decreases, {} VLs, \
         every VL's CDG {}",
        v.paths,
        v.sl_paths,
        v.unrouted,
        v.broken,
        v.vl_decreases,
        v.vls,
        if v.per_vl.iter().all(|c| c.acyclic) {
            "acyclic"
        } else {
            "CYCLIC"
        }
    )
}

/// The log lines naming a degraded fabric and its faults (the first 20).
pub fn fault_lines(d: &Degraded) -> Vec<String> {
    const SHOWN: usize = 20;
    let mut v = vec![format!("degraded fabric: {}", d.description)];
    for f in d.faults.iter().take(SHOWN) {
        v.push(format!("  fault: {}", f.describe()));
    }
    if d.faults.len() > SHOWN {
        v.push(format!("  ... and {} more faults", d.faults.len() - SHOWN));
    }
    v
}

/// The routes of a degraded pass, ready to program.
pub struct Routed {
    pub lfts: LftSet,
    /// The SLs and VLs of the routes (none: one VL, OpenSM's defaults).
    pub lanes: Option<ActiveLanes>,
    /// Log lines: what the routes look like.
    pub report: Vec<String>,
    /// Time of the per-VL check (zero without `validate`).
    pub validate_time: std::time::Duration,
}

/// Route the degraded fabric `d` with OpenSM's `lids`; `validate`: walk every host path
/// with its VLs first.
/// `spread`: an LSFT is routed for spreading (`objective=spread`) rather than family
/// routes first.
pub fn route(
    fabric: &Fabric,
    d: &Degraded,
    lids: &Lids,
    offer: &VlOffer,
    validate: bool,
    spread: bool,
) -> Result<Routed, String> {
    let holes = match &d.holes {
        Holes::Lsft(h) => h,
        Holes::Pgft(_) | Holes::Mols(_) => return route_tree(fabric, d, lids, offer, validate),
    };
    let mut report = Vec::new();
    if lids.lmc != 0 {
        return Err(format!(
            "{}: a degraded LSFT is routed with LMC 0 (OpenSM runs LMC {})",
            d.description, lids.lmc
        ));
    }
    let r = if spread {
        route_lsft_spread(fabric, holes, lids)
    } else {
        route_lsft(fabric, holes, lids)
    }
    .map_err(|e| e.to_string())?;
    if spread {
        report.push(format!("objective spread: {}", d.description));
    }
    if r.unrouted > 0 {
        return Err(format!(
            "{}: {} (leaf, LID) pairs have no surviving path the lanes can serve (too many faults around some leaves)",
            d.description, r.unrouted
        ));
    }
    let rules = Lanes::with_sl(fabric, holes, r.sl, r.stride, (r.data_vls, r.escape.used()));
    if let Some(why) = offer.refusal(rules.data_vls()) {
        return Err(format!("{}: {why}", d.description));
    }
    let t = std::time::Instant::now();
    if validate {
        let v = check_lanes(fabric, lids, &r.lfts, &rules);
        report.push(per_vl_line(&v, rules.rule_sls()));
        if !v.ok() {
            return Err(format!("{}: the detour routes fail the per-VL check", d.description));
        }
    }
    if r.escape.used() {
        report.push(format!(
            "escape lane: {} (leaf, host LID) and {} (leaf, switch LID) pairs no rule path serves, on SL 15 and VL {}",
            r.escape.host_pairs,
            r.escape.switch_pairs,
            rules.data_vls() - 1
        ));
    }
    if r.unrouted_switch_lids > 0 {
        report.push(format!(
            "{} (leaf, switch LID) pairs unrouted: no surviving path, or one that would close a cycle on the escape \
             lane (management traffic to that switch's port 0 goes directed-route)",
            r.unrouted_switch_lids
        ));
    }
    let validate_time = t.elapsed();
    report.push(format!(
        "lanes: {} data VLs used of {} available ({} (leaf, host LID) and {} (leaf, switch LID) pairs turn \
         twice); SLs by path_sl, SL-to-VL tables by update_sl2vl",
        rules.data_vls(),
        offer.data_vls(),
        r.two_turn,
        r.two_turn_switch_lids
    ));
    let lanes = ActiveLanes::new(fabric, lids, Box::new(rules));
    Ok(Routed {
        lfts: r.lfts,
        lanes: Some(lanes),
        report,
        validate_time,
    })
}

/// A degraded PGFT or MOLS tree: up*/down* on VL 0, switch-LID detours on a second VL when
/// `offer` has it (else dropped); `validate`: loops, deliveries and the CDG (per VL with
/// detours) first.
fn route_tree(fabric: &Fabric, d: &Degraded, lids: &Lids, offer: &VlOffer, validate: bool) -> Result<Routed, String> {
    let mut r = match &d.holes {
        Holes::Mols(h) => route_mols(fabric, h, lids),
        Holes::Pgft(_) | Holes::Lsft(_) if lids.lmc != 0 => {
            return Err(format!(
                "{}: a degraded tree is routed with LMC 0 (OpenSM runs LMC {})",
                d.description, lids.lmc
            ))
        }
        Holes::Pgft(h) => route_pgft(fabric, h, lids),
        Holes::Lsft(_) => return Err(format!("{}: not a tree", d.description)),
    }
    .map_err(|e| e.to_string())?;
    let mut report = Vec::new();
    let need = r.data_vls();
    let lanes = match (need, offer.refusal(need)) {
        (1, _) => {
            report.push("up*/down* around the faults on one VL (no SL-to-VL tables needed)".to_string());
            None
        }
        (_, None) => {
            report.push(format!(
                "up*/down* around the faults on VL 0; {} (leaf, switch LID) detours through a relay on SL 1-2, VL 1 \
                 from their turn; {} (leaf, host LID) and {} (leaf, switch LID) pairs on the escape lane (SL 15, \
                 VL {}); SLs by path_sl, SL-to-VL tables by update_sl2vl",
                r.detours.len(),
                r.escape.host_pairs,
                r.escape.switch_pairs,
                need - 1
            ));
            Some(r.lanes(fabric))
        }
        (_, Some(why)) => {
            let (detours, escape) = (r.detours.len(), r.escape.pairs.len());
            r.drop_detours(fabric, lids);
            report.push(format!(
                "up*/down* around the faults on one VL; detours dropped and left unrouted: {detours} (leaf, switch \
                 LID) detours, {escape} escape-lane pairs ({why})"
            ));
            None
        }
    };
    if r.unrouted > 0 {
        report.push(format!(
            "{} (leaf, host LID) pairs have no up*/down* path and stay unrouted, e.g. {}",
            r.unrouted,
            r.unrouted_named
                .iter()
                .take(5)
                .map(|(a, b)| format!("{a} -> {b}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if r.unrouted_switch_lids > 0 {
        report.push(format!(
            "{} (leaf, switch LID) pairs unrouted: no up*/down* path to that switch (management traffic to its \
             port 0 goes directed-route)",
            r.unrouted_switch_lids
        ));
    }
    let t = std::time::Instant::now();
    if validate {
        let v = ibfat::check::lfts::validate(fabric, lids, &r.lfts, None);
        let mut deadlock_free = v.deadlock_free;
        if let Some(l) = &lanes {
            // the one-VL CDG is cyclic by design: the proof is per VL
            let c = check_lanes(fabric, lids, &r.lfts, l);
            report.push(per_vl_line(&c, l.rule_sls()));
            deadlock_free = c.ok();
        }
        report.push(format!(
            "validation: {} loops, {} misdelivered, {} broken host routes ({} unrouted pairs), CDG of host routes {}",
            v.loops,
            v.misdelivered,
            v.broken_host_routes,
            r.unrouted,
            match (&lanes, deadlock_free) {
                (None, true) => "acyclic",
                (Some(_), true) => "acyclic per VL",
                _ => "CYCLIC",
            }
        ));
        if v.loops > 0 || v.misdelivered > 0 || !deadlock_free || v.broken_host_routes != r.unrouted {
            return Err(format!("{}: the up*/down* routes fail validation", d.description));
        }
    }
    Ok(Routed {
        lfts: r.lfts,
        lanes: lanes.map(|l| ActiveLanes::new(fabric, lids, Box::new(l))),
        report,
        validate_time: t.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
