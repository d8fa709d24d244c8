//! The log lines of a routing pass: what the routes look like and what their proof found.
//! Operators and the tests read them; the routes themselves come from the library's one
//! pipeline (`ibfat::routing::route_fabric`), proven by `ibfat::check::prove`.

use crate::ahead::Base;
use crate::lanes::VlOffer;
use crate::stages::Marks;
use ibfat::check::vls::VlReport;
use ibfat::check::Proof;
use ibfat::recognize::Degraded;
use ibfat::routing::{LftSet, Lids, Method, Routed};

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

/// What the routes look like, before their proof.
pub fn route_lines(routed: &Routed, description: &str, offer: &VlOffer) -> Vec<String> {
    let mut v = Vec::new();
    match routed.method {
        Method::Family => {}
        Method::Detours | Method::Spread => {
            if routed.method == Method::Spread {
                v.push(format!("objective spread: {description}"));
            }
            if routed.escape.used() {
                v.push(format!(
                    "escape lane: {} (leaf, host LID) and {} (leaf, switch LID) pairs no rule path serves, on SL 15 \
                     and VL {}",
                    routed.escape.host_pairs,
                    routed.escape.switch_pairs,
                    routed.data_vls() - 1
                ));
            }
            if routed.unrouted_switch_lids > 0 {
                v.push(format!(
                    "{} (leaf, switch LID) pairs unrouted: no surviving path, or one that would close a cycle on the \
                     escape lane (management traffic to that switch's port 0 goes directed-route)",
                    routed.unrouted_switch_lids
                ));
            }
            v.push(format!(
                "lanes: {} data VLs used of {} available ({} (leaf, host LID) and {} (leaf, switch LID) pairs turn \
                 twice); SLs by path_sl, SL-to-VL tables by update_sl2vl",
                routed.data_vls(),
                offer.data_vls(),
                routed.two_turn.0,
                routed.two_turn.1
            ));
        }
        Method::UpDown => updown_lines(routed, offer, &mut v),
    }
    v
}

/// A degraded tree's routes: one VL, with relay detours, or with them dropped.
fn updown_lines(routed: &Routed, offer: &VlOffer, v: &mut Vec<String>) {
    match (&routed.lanes, routed.dropped) {
        (_, Some(d)) => v.push(format!(
            "up*/down* on one VL; detours dropped: {} (leaf, switch LID) detours, {} escape-lane \
             pairs ({}); {} pairs routed again on VL 0 through a turn its CDG allows, the rest \
             left unrouted",
            d.detours,
            d.escape_pairs,
            offer.refusal(d.need).unwrap_or_default(),
            d.turned
        )),
        (None, None) => v.push("up*/down* on one VL (no SL-to-VL tables needed)".to_string()),
        (Some(_), None) => v.push(format!(
            "up*/down* on VL 0; {} (leaf, switch LID) detours through a relay on SL 1-2, VL 1 from \
             their turn; {} (leaf, host LID) and {} (leaf, switch LID) pairs on the escape lane (SL 15, VL {}); SLs \
             by path_sl, SL-to-VL tables by update_sl2vl",
            routed.switch_lid_detours,
            routed.escape.host_pairs,
            routed.escape.switch_pairs,
            routed.data_vls() - 1
        )),
    }
    if routed.unrouted > 0 {
        let named: Vec<String> = routed
            .unrouted_named
            .iter()
            .take(5)
            .map(|(a, b)| format!("{a} -> {b}"))
            .collect();
        v.push(format!(
            "{} (leaf, host LID) pairs have no up*/down* path and stay unrouted, e.g. {}",
            routed.unrouted,
            named.join(", ")
        ));
    }
    if routed.unrouted_switch_lids > 0 {
        v.push(format!(
            "{} (leaf, switch LID) pairs unrouted: no up*/down* path to that switch (management traffic to its port \
             0 goes directed-route)",
            routed.unrouted_switch_lids
        ));
    }
}

/// The log line of a per-VL proof of routes whose SLs go up to `rule_sls`.
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

/// What the proof found, as log lines; the first is an error when the proof failed.
pub fn proof_lines(proof: &Proof, routed: &Routed) -> Vec<String> {
    let mut v: Vec<String> = proof.lanes.iter().map(|l| per_vl_line(l, routed.rule_sls())).collect();
    match (&proof.tables, routed.method) {
        (None, _) => {}
        (Some(t), Method::UpDown) => v.push(format!(
            "validation: {} loops, {} misdelivered, {} broken host routes ({} unrouted pairs), CDG of host routes {}",
            t.loops,
            t.misdelivered,
            t.broken_host_routes,
            routed.unrouted,
            match (&proof.lanes, proof.sound) {
                (None, true) => "acyclic",
                (Some(_), true) => "acyclic per VL",
                _ => "CYCLIC",
            }
        )),
        (Some(t), _) => {
            let deadlock_free = proof.lanes.as_ref().map_or(t.deadlock_free, VlReport::ok);
            v.push(format!(
                "validation of {} switches x {} LIDs: data path {}, deadlock {}, completeness {} (broken host routes \
                 {}, black holes {}, loops {}, misdelivered {}, non-minimal {}; host-sourced CDG {} channels, {} \
                 dependencies)",
                t.switches,
                t.lids,
                if t.data_path_ok { "ok" } else { "FAILED" },
                if deadlock_free { "free" } else { "POSSIBLE (cyclic CDG)" },
                if t.complete { "ok" } else { "gaps" },
                t.broken_host_routes,
                t.black_holes,
                t.loops,
                t.misdelivered,
                t.non_minimal,
                t.ca_sourced.channels,
                t.ca_sourced.dependencies
            ));
            if let Some(d) = t.defects.first().filter(|_| !proof.sound) {
                v.push(format!(
                    "first defect: {} at {} for LID 0x{:04x} -> {}: {}",
                    d.kind, d.switch, d.lid, d.destination, d.path
                ));
            }
        }
    }
    v
}

/// Where a pass's tables come from.
pub(crate) enum Origin {
    /// Computed by this pass.
    Computed,
    /// Those of this earlier pass, whose subnet is back.
    Kept(u64),
    /// Computed ahead for this change of this subnet; how long the pass waited for the
    /// worker to finish them, if it did.
    Ahead(Base, String, Option<std::time::Duration>),
}

/// The pass summary line the tests and operators look for, with where its tables came
/// from when this pass did not compute them.
pub(crate) fn pass_line(pass: u64, what: &str, lfts: &LftSet, lids: &Lids, m: &Marks, origin: &Origin) -> String {
    let mut again = match origin {
        Origin::Computed => String::new(),
        Origin::Kept(k) => format!("; the subnet is as in pass {k}: its tables are programmed again"),
        Origin::Ahead(Base::Pass(k), change, _) => {
            format!("; the subnet is pass {k}'s with {change}: its tables were computed ahead")
        }
        Origin::Ahead(Base::Saved, change, _) => {
            let with = if change == crate::ahead::NO_CHANGE {
                String::new()
            } else {
                format!(" with {change}")
            };
            format!("; the subnet is the one state_file kept{with}: its tables were computed when the plugin loaded")
        }
        Origin::Ahead(Base::Discovered, change, _) if change == crate::ahead::NO_CHANGE => {
            "; the subnet is the one discovery found: its tables were computed while OpenSM configured it".to_string()
        }
        Origin::Ahead(Base::Discovered, change, _) => {
            format!("; the subnet is the one an earlier discovery found with {change}: its tables were computed ahead")
        }
    };
    if let Origin::Ahead(_, _, Some(waited)) = origin {
        again += &format!(
            " (the pass waited {:.3} ms for the thread computing them)",
            waited.as_secs_f64() * 1e3
        );
    }
    format!(
        "pass {pass}: recognised {what}; {} switches x {} LIDs (LMC {}) routed in {:.3} ms (read {:.3} ms, recognise {:.3} ms){again}",
        lfts.switches.len(),
        lids.owner.iter().skip(1).filter(|&&o| o != ibfat::topology::NO_PEER).count(),
        lids.lmc,
        m.done.as_secs_f64() * 1e3,
        m.read.as_secs_f64() * 1e3,
        (m.recognised - m.read).as_secs_f64() * 1e3
    )
}
