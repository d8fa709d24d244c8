//! The rail check against a rail-optimised plan: where the discovered fabric (through the
//! node pairing of step 1) puts each planned HCA, said in the site's terms. The cable
//! comparison already lists every moved cable; this names the server, HCA, rail and unit
//! it concerns, and names two HCAs sitting on each other's planned ports as one exchange.
//! Kinds and fixes are those of the check without a plan
//! ([`crate::families::railopt::model::check`]), with the plan's leaf and port as the expected place.

use super::matching::{Matching, NONE as UNPAIRED};
use crate::families::railopt::model::check::{Finding, Severity};
use crate::families::railopt::model::{RailFabric, NONE};
use crate::topology::label::Labels;
use crate::topology::{Fabric, NodeId, NodeKind};

/// A planned HCA and where the dump has it, in plan terms.
struct Placed {
    server: String,
    device: String,
    /// Planned (leaf, port).
    planned: (NodeId, u8),
    /// Found (plan switch or [`NONE`] for a switch the plan lacks, port, dump switch).
    found: (NodeId, u8, NodeId),
    /// Planned unit.
    unit: u32,
}

/// Rail findings of `found` against the plan (empty when the plan is not rail-optimised),
/// errors in server order.
pub(super) fn check_against_plan(plan: &Fabric, found: &Fabric, m: &Matching) -> Vec<Finding> {
    let Some(rf) = RailFabric::of(plan) else {
        return Vec::new();
    };
    let found_names = Labels::new(found);
    let name = |p: NodeId, d: NodeId| {
        if p == NONE {
            format!("{} (not in the plan)", found_names.get(d))
        } else {
            plan.node(p).name.clone()
        }
    };
    let mut out = Vec::new();
    let mut misplaced: Vec<Placed> = Vec::new();
    for s in &rf.servers {
        for h in &s.hcas {
            let at = (h.leaf, h.leaf_port);
            let d = m.p2d[h.endpoint.node as usize];
            let peer = (d != UNPAIRED).then(|| found.peer(d, h.endpoint.port)).flatten();
            let Some((dsw, dport)) = peer else {
                out.push(Finding {
                    severity: Severity::Error,
                    kind: "hca-count",
                    server: s.name.clone(),
                    message: format!(
                        "{} {} is not cabled in the dump; the plan puts it on {} port {}",
                        s.name,
                        h.device,
                        plan.node(at.0).name,
                        at.1
                    ),
                    fix: format!(
                        "cable {} {} to {} port {}",
                        s.name,
                        h.device,
                        plan.node(at.0).name,
                        at.1
                    ),
                });
                continue;
            };
            let psw = m.d2p[dsw as usize];
            let psw = if psw == UNPAIRED { NONE } else { psw };
            if (psw, dport) != at {
                misplaced.push(Placed {
                    server: s.name.clone(),
                    device: h.device.clone(),
                    planned: at,
                    found: (psw, dport, dsw),
                    unit: s.unit,
                });
            }
        }
    }
    for a in &misplaced {
        let here = format!("{} port {}", name(a.found.0, a.found.2), a.found.1);
        let there = format!("{} port {}", plan.node(a.planned.0).name, a.planned.1);
        let kind = if a.found.0 == a.planned.0 {
            "wrong-port"
        } else if a.found.0 != NONE && rf.leaf_unit[a.found.0 as usize] == a.unit {
            "wrong-rail"
        } else {
            "wrong-unit"
        };
        // two HCAs on each other's planned ports: one exchange, named in both findings
        let partner = misplaced
            .iter()
            .find(|b| b.found.0 == a.planned.0 && b.found.1 == a.planned.1 && b.planned == (a.found.0, a.found.1));
        let fix = match partner {
            Some(b) => format!(
                "exchange the cables at {here} and at {there} ({} {})",
                b.server, b.device
            ),
            None => format!("move the cable at {here} to {there}"),
        };
        out.push(Finding {
            severity: Severity::Error,
            kind,
            server: a.server.clone(),
            message: format!("{} {} is on {here}; the plan puts it on {there}", a.server, a.device),
            fix,
        });
    }
    unplanned_hcas(found, m, &found_names, &mut out);
    out.sort_by(|a, b| crate::families::railopt::model::natural_cmp(&a.server, &b.server));
    out
}

/// HCAs of the dump that the plan does not have, on a switch.
fn unplanned_hcas(found: &Fabric, m: &Matching, names: &Labels, out: &mut Vec<Finding>) {
    for n in 0..found.len() as NodeId {
        if found.node(n).kind == NodeKind::Switch || m.d2p[n as usize] != UNPAIRED {
            continue;
        }
        let (host, device) = crate::families::railopt::model::host_words(found, n);
        for p in 1..=found.node(n).nports {
            if let Some((sw, sp)) = found.peer(n, p) {
                out.push(Finding {
                    severity: Severity::Error,
                    kind: "unknown-device",
                    server: host.to_string(),
                    message: format!("{host} {device} on {} port {sp} is not in the plan", names.get(sw)),
                    fix: "add it to the plan, or remove the cable".into(),
                });
            }
        }
    }
}
