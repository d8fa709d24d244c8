//! Rail validation from the discovered fabric alone (what `ibdiagnet --rail_validation`
//! is for): every HCA of rail *r* of a unit on that unit's rail-*r* leaf, a server's HCAs
//! in one unit, one rail per leaf, as many HCAs per server as there are rails, and (a
//! convention, so a warning) a server on the same leaf port on every rail. Each finding
//! names the server, HCA, leaf and port found and the leaf expected, with the fix: the two
//! cables to exchange when two HCAs sit on each other's leaves, else the cable to move.

use super::{Hca, RailFabric, RailSource, Server, NONE};
use crate::topology::label::Labels;
use crate::topology::{Fabric, NodeId};
use serde::Serialize;
use std::collections::HashMap;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Traffic of one rail crosses another: exit 1.
    Error,
    /// A convention broken (leaf ports differ between rails): reported, exit 0.
    Warning,
}

/// One violation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Error or warning.
    pub severity: Severity,
    /// `wrong-rail`, `wrong-unit`, `hca-count`, `duplicate-device`, `unknown-device`,
    /// `mixed-leaf`, `shared-rail`, `missing-rail-leaf` or `port-convention`.
    pub kind: &'static str,
    /// The server concerned (empty for a leaf's finding).
    pub server: String,
    /// What is wrong, with the leaf and port found and the leaf expected.
    pub message: String,
    /// What to do.
    pub fix: String,
}

/// Every violation of rail-optimised cabling in `rf` (see the module text), errors first
/// in server order, then warnings.
pub fn check(fabric: &Fabric, rf: &RailFabric) -> Vec<Finding> {
    let labels = Labels::new(fabric);
    let leaf = |n: NodeId| labels.get(n).to_string();
    let mut out = Vec::new();
    let absent = Absent::of(rf);
    leaf_findings(rf, &absent, &leaf, &mut out);
    let mut misplaced: Vec<(u32, usize)> = Vec::new();
    for (si, s) in rf.servers.iter().enumerate() {
        count_findings(rf, &absent, s, &mut out);
        for (k, h) in s.hcas.iter().enumerate() {
            if h.rail != NONE && expected_leaf(rf, s, h) != Some(h.leaf) {
                misplaced.push((si as u32, k));
            }
        }
    }
    placement_findings(rf, &misplaced, &leaf, &mut out);
    let mut odd_ports = Vec::new();
    for s in &rf.servers {
        port_convention(rf, s, &leaf, &mut odd_ports);
    }
    if odd_ports.len() * 2 > rf.servers.len() {
        // a fabric cabled without the convention: one finding, not one per server
        let first = odd_ports.swap_remove(0);
        odd_ports = vec![Finding {
            server: String::new(),
            message: format!(
                "{} of {} servers use other leaf ports on other rails (the fabric does not follow the convention), e.g. {}",
                odd_ports.len() + 1,
                rf.servers.len(),
                first.message
            ),
            ..first
        }];
    }
    out.extend(odd_ports);
    for (u, map) in &rf.local_names {
        let names: Vec<String> = map
            .iter()
            .map(|(d, r)| format!("{d} = {}", rf.rails[*r as usize]))
            .collect();
        out.push(Finding {
            severity: Severity::Warning,
            kind: "device-names",
            server: String::new(),
            message: format!(
                "the servers of {} name their devices otherwise than the other units; their leaves give the rails: {}",
                su(*u),
                names.join(", ")
            ),
            fix: "name the devices alike on every server (rdma-ndd, udev rules) so that a rail is one name everywhere"
                .into(),
        });
    }
    // errors before warnings, a unit's leaves before servers, servers in name order
    out.sort_by(|a, b| {
        (a.severity == Severity::Warning)
            .cmp(&(b.severity == Severity::Warning))
            .then_with(|| super::natural_cmp(&a.server, &b.server))
    });
    out
}

/// Per unit and rail: no leaf serves the rail and no server of the unit has an HCA on it
/// (its leaf is gone as a whole). One pass over the servers, asked once per server and rail.
struct Absent {
    rails: usize,
    absent: Vec<bool>,
}

impl Absent {
    fn of(rf: &RailFabric) -> Absent {
        let rails = rf.rails_n();
        let mut absent = vec![false; rf.units.len() * rails];
        for (u, unit) in rf.units.iter().enumerate() {
            let row = &mut absent[u * rails..(u + 1) * rails];
            for (r, a) in row.iter_mut().enumerate() {
                *a = unit.rail_leaf[r] == NONE;
            }
            for &si in &unit.servers {
                for h in &rf.servers[si as usize].hcas {
                    if let Some(a) = row.get_mut(h.rail as usize) {
                        *a = false;
                    }
                }
            }
        }
        Absent { rails, absent }
    }

    fn get(&self, u: u32, r: u32) -> bool {
        self.absent
            .get(u as usize * self.rails + r as usize)
            .copied()
            .unwrap_or(false)
    }
}

/// The leaf HCA `h` of server `s` belongs on: its unit's leaf for its rail.
fn expected_leaf(rf: &RailFabric, s: &Server, h: &Hca) -> Option<NodeId> {
    let unit = rf.units.get(s.unit as usize)?;
    let l = *unit.rail_leaf.get(h.rail as usize)?;
    (l != NONE).then_some(l)
}

/// Leaves: one rail each, every rail served once per unit.
fn leaf_findings(rf: &RailFabric, absent: &Absent, leaf: &dyn Fn(NodeId) -> String, out: &mut Vec<Finding>) {
    if rf.source == RailSource::Leaves {
        return;
    }
    let mut on_leaf: HashMap<NodeId, Vec<u32>> = HashMap::new();
    for s in &rf.servers {
        s.hcas
            .iter()
            .for_each(|h| on_leaf.entry(h.leaf).or_default().push(h.rail));
    }
    for (u, unit) in rf.units.iter().enumerate() {
        for &l in &unit.leaves {
            let rails = &on_leaf[&l];
            let mine = rails.iter().filter(|&&r| r == rf.leaf_rail[l as usize]).count();
            if mine * 3 < rails.len() * 2 {
                let mut per: Vec<(u32, usize)> = Vec::new();
                for &r in rails {
                    match per.iter_mut().find(|p| p.0 == r) {
                        Some(p) => p.1 += 1,
                        None => per.push((r, 1)),
                    }
                }
                per.sort_unstable();
                let list: Vec<String> = per
                    .iter()
                    .map(|&(r, c)| format!("{} ({c} HCAs)", rail_name(rf, r)))
                    .collect();
                out.push(Finding {
                    severity: Severity::Error,
                    kind: "mixed-leaf",
                    server: String::new(),
                    message: format!(
                        "leaf {} of {} serves several rails: {}",
                        leaf(l),
                        su(u as u32),
                        list.join(", ")
                    ),
                    fix: "recable it so that it serves one rail: every HCA of a rail of the unit on one leaf".into(),
                });
            }
            let r = rf.leaf_rail[l as usize];
            if r != NONE && unit.rail_leaf[r as usize] != l {
                out.push(Finding {
                    severity: Severity::Error,
                    kind: "shared-rail",
                    server: String::new(),
                    message: format!(
                        "leaves {} and {} of {} both serve {}",
                        leaf(unit.rail_leaf[r as usize]),
                        leaf(l),
                        su(u as u32),
                        rail_name(rf, r)
                    ),
                    fix: "each rail of a unit has one leaf: move the HCAs of one of them to the leaf of the rail that has none"
                        .into(),
                });
            }
        }
        for (r, &l) in unit.rail_leaf.iter().enumerate() {
            if l == NONE {
                let name = rail_name(rf, r as u32);
                let (message, fix) = if absent.get(u as u32, r as u32) {
                    (
                        format!(
                            "no leaf of {} serves {}, and none of its {} servers has an HCA on that rail",
                            su(u as u32),
                            name,
                            unit.servers.len()
                        ),
                        format!("the unit's {name} leaf is down or missing from the dump: check its power, its cables to the spines, then the servers' {name} cables"),
                    )
                } else {
                    (
                        format!("no leaf of {} serves {name}", su(u as u32)),
                        format!("cable the {name} HCAs of the unit's servers to one leaf"),
                    )
                };
                out.push(Finding {
                    severity: Severity::Error,
                    kind: "missing-rail-leaf",
                    server: String::new(),
                    message,
                    fix,
                });
            }
        }
    }
}

/// A server's HCAs: one per rail.
fn count_findings(rf: &RailFabric, absent: &Absent, s: &Server, out: &mut Vec<Finding>) {
    let mut per_rail = vec![0u32; rf.rails_n()];
    let mut unknown = Vec::new();
    for h in &s.hcas {
        match per_rail.get_mut(h.rail as usize) {
            Some(c) => *c += 1,
            None => unknown.push(h.device.as_str()),
        }
    }
    if !unknown.is_empty() {
        out.push(Finding {
            severity: Severity::Error,
            kind: "unknown-device",
            server: s.name.clone(),
            message: format!(
                "{} has HCA(s) {} that are no rail's device (rails: {})",
                s.name,
                unknown.join(", "),
                rf.rails.join(", ")
            ),
            fix: "name the HCA as the other servers do (rdma-ndd sets the description), or recable it".into(),
        });
    }
    let twice: Vec<String> = (0..rf.rails_n())
        .filter(|&r| per_rail[r] > 1)
        .map(|r| rf.rails[r].clone())
        .collect();
    if !twice.is_empty() {
        out.push(Finding {
            severity: Severity::Error,
            kind: "duplicate-device",
            server: s.name.clone(),
            message: format!(
                "{} has {} HCAs with {} twice: two servers named {}, or a description copied",
                s.name,
                s.hcas.len(),
                twice.join(", "),
                s.name
            ),
            fix: "give every server its own host name (hostname, then restart rdma-ndd) or map names with --node-name-map"
                .into(),
        });
        return;
    }
    // a rail no server of the unit has is one finding of the unit (missing-rail-leaf)
    let missing: Vec<&str> = (0..rf.rails_n())
        .filter(|&r| per_rail[r] == 0 && !absent.get(s.unit, r as u32))
        .map(|r| rf.rails[r].as_str())
        .collect();
    // an HCA of no rail is its own finding; a count is wrong when a rail has none
    let gone = (0..rf.rails_n() as u32).filter(|&r| absent.get(s.unit, r)).count();
    if !missing.is_empty() || (unknown.is_empty() && s.hcas.len() + gone != rf.rails_n()) {
        out.push(Finding {
            severity: Severity::Error,
            kind: "hca-count",
            server: s.name.clone(),
            message: format!(
                "{} has {} HCAs on the fabric, the rails are {}{}",
                s.name,
                s.hcas.len(),
                rf.rails_n(),
                if missing.is_empty() {
                    String::new()
                } else {
                    format!(": none on {}", missing.join(", "))
                }
            ),
            fix: "check the missing HCA's cable and link state (iblinkinfo), or the server's HCA population".into(),
        });
    }
}

/// Misplaced HCAs: paired into swaps where two sit on each other's leaves, else moves.
fn placement_findings(
    rf: &RailFabric,
    misplaced: &[(u32, usize)],
    leaf: &dyn Fn(NodeId) -> String,
    out: &mut Vec<Finding>,
) {
    let get = |&(s, k): &(u32, usize)| (&rf.servers[s as usize], &rf.servers[s as usize].hcas[k]);
    let mut partner = vec![usize::MAX; misplaced.len()];
    // a swap: a sits on b's expected leaf and b on a's
    for i in 0..misplaced.len() {
        if partner[i] != usize::MAX {
            continue;
        }
        let (sa, ha) = get(&misplaced[i]);
        let Some(ea) = expected_leaf(rf, sa, ha) else { continue };
        let j = (i + 1..misplaced.len()).find(|&j| {
            let (sb, hb) = get(&misplaced[j]);
            partner[j] == usize::MAX && hb.leaf == ea && expected_leaf(rf, sb, hb) == Some(ha.leaf)
        });
        if let Some(j) = j {
            partner[i] = j;
            partner[j] = i;
        }
    }
    for (i, m) in misplaced.iter().enumerate() {
        let (s, h) = get(m);
        let here = format!("leaf {} port {}", leaf(h.leaf), h.leaf_port);
        let found_unit = rf.leaf_unit[h.leaf as usize];
        let kind = if found_unit != s.unit {
            "wrong-unit"
        } else {
            "wrong-rail"
        };
        let what = if found_unit == s.unit {
            format!("a leaf of {}", rail_name(rf, rf.leaf_rail[h.leaf as usize]))
        } else if found_unit == NONE {
            "a switch of no unit".to_string()
        } else {
            format!("a leaf of {}", su(found_unit))
        };
        let Some(expect) = expected_leaf(rf, s, h) else {
            out.push(Finding {
                severity: Severity::Error,
                kind,
                server: s.name.clone(),
                message: format!(
                    "{} {} ({}) is on {here}, {what}; no leaf of {} serves that rail",
                    s.name,
                    h.device,
                    rail_name(rf, h.rail),
                    su(s.unit)
                ),
                fix: "see the unit's missing-rail-leaf finding".into(),
            });
            continue;
        };
        let message = format!(
            "{} {} ({} of {}) is on {here}, {what}; expected on leaf {}",
            s.name,
            h.device,
            rail_name(rf, h.rail),
            su(s.unit),
            leaf(expect)
        );
        let fix = match partner[i] {
            j if j == usize::MAX => format!(
                "move the cable at {here} to {}",
                match usual_port(s) {
                    Some(p) => format!("leaf {} port {p} (its port on the other rails)", leaf(expect)),
                    None => format!("a free port of leaf {}", leaf(expect)),
                }
            ),
            j => {
                let (sb, hb) = get(&misplaced[j]);
                format!(
                    "exchange the cables at {here} and at leaf {} port {} ({} {})",
                    leaf(hb.leaf),
                    hb.leaf_port,
                    sb.name,
                    hb.device
                )
            }
        };
        out.push(Finding {
            severity: Severity::Error,
            kind,
            server: s.name.clone(),
            message,
            fix,
        });
    }
}

/// The leaf port most of a server's HCAs use (`None` when no port has a majority).
fn usual_port(s: &Server) -> Option<u8> {
    let mut count: Vec<(u8, usize)> = Vec::new();
    for h in &s.hcas {
        match count.iter_mut().find(|c| c.0 == h.leaf_port) {
            Some(c) => c.1 += 1,
            None => count.push((h.leaf_port, 1)),
        }
    }
    count.into_iter().find(|c| c.1 * 2 > s.hcas.len()).map(|c| c.0)
}

/// A server on different leaf ports on different rails: allowed, but not the convention
/// that makes a miscabled port obvious on the rack.
fn port_convention(rf: &RailFabric, s: &Server, leaf: &dyn Fn(NodeId) -> String, out: &mut Vec<Finding>) {
    if s.hcas.len() > rf.rails_n() {
        return; // two servers under one name: their ports say nothing
    }
    let usual = usual_port(s);
    let odd: Vec<String> = s
        .hcas
        .iter()
        .filter(|h| Some(h.leaf_port) != usual && expected_leaf(rf, s, h) == Some(h.leaf))
        .map(|h| format!("{} on leaf {} port {}", h.device, leaf(h.leaf), h.leaf_port))
        .collect();
    if odd.is_empty() {
        return;
    }
    out.push(Finding {
        severity: Severity::Warning,
        kind: "port-convention",
        server: s.name.clone(),
        message: match usual {
            Some(p) => format!("{} is on port {p} of its leaves but {}", s.name, odd.join(", ")),
            None => format!(
                "{} uses a different leaf port on every rail: {}",
                s.name,
                odd.join(", ")
            ),
        },
        fix: match usual {
            Some(p) => format!("the convention is one port per server on every rail: move those cables to port {p}"),
            None => "the convention is one port per server on every rail".into(),
        },
    });
}

/// `rail 3 (mlx5_3)`.
pub(crate) fn rail_name(rf: &RailFabric, r: u32) -> String {
    match rf.rails.get(r as usize) {
        Some(d) if rf.source == RailSource::Devices => format!("rail {r} ({d})"),
        _ if r == NONE => "no rail".into(),
        _ => format!("rail {r}"),
    }
}

/// `SU 2` (units count from 1, as the SuperPOD documents number them).
pub(crate) fn su(u: u32) -> String {
    if u == NONE {
        "no unit".into()
    } else {
        format!("SU {}", u + 1)
    }
}
