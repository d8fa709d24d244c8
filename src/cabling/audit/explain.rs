//! Step 3 of the audit, **explain**: name every end the way the installation team sees it
//! (the plan's name, or the dump's description for nodes the plan does not have), word a
//! fix for every finding, and assemble the [`CablingReport`].

use super::compare::{Cable, Comparison, End, Exchange, Moved, MovedEnds, Slower, Terms, Uncompared};
use super::matching::{Matched, NONE};
use super::{CableRef, CablingReport, Degraded, DumpProblem, EndRef, Extra, MatchedBy, Missing, Miswired, Swapped};
use crate::formats::dump::{Discovered, Problem};
use crate::topology::{Speed, Width};

impl Terms<'_> {
    /// An end as the report shows it.
    fn end_ref(&self, (n, port): End) -> EndRef {
        if n < self.np {
            let node = self.plan.node(n);
            EndRef {
                node: node.name.clone(),
                description: node.desc.clone(),
                guid: format!("0x{:016x}", node.guid),
                port,
                planned: true,
            }
        } else {
            let node = self.found.node(n - self.np);
            let name = self.found_labels.get(n - self.np).to_string();
            EndRef {
                node: name,
                description: node.desc.clone(),
                guid: format!("0x{:016x}", node.guid),
                port,
                planned: false,
            }
        }
    }

    /// A cable as the report shows it.
    fn cable(&self, (a, b): Cable) -> CableRef {
        CableRef {
            a: self.end_ref(a),
            b: self.end_ref(b),
        }
    }

    /// The name of a node in plan terms.
    fn name(&self, n: u32) -> String {
        self.end_ref((n, 0)).node
    }

    /// `L3 port 5`.
    fn at(&self, e: End) -> String {
        format!("{} port {}", self.name(e.0), e.1)
    }
}

/// `4xEDR`-style rate text.
fn rate((w, s): (Width, Speed)) -> String {
    format!("{w}{s}")
}

/// The report: every finding of `cmp` with its fix, the dump's own problems, and notes
/// on how nodes were matched and on dump-only nodes without cables.
pub(super) fn report(t: &Terms<'_>, matched: &Matched, cmp: Comparison, found: &Discovered) -> CablingReport {
    CablingReport {
        rail_findings: super::rails::check_against_plan(t.plan, t.found, &matched.nodes),
        matched_by: matched.by,
        planned_cables: t.plan.link_count(),
        found_cables: t.found.link_count(),
        matching_cables: cmp.matching,
        missing: cmp.missing.iter().map(|&c| missing(t, c)).collect(),
        extra: cmp.extra.iter().map(|&c| extra(t, c)).collect(),
        miswired: cmp.miswired.iter().map(|mv| miswired(t, mv)).collect(),
        swapped: cmp.swapped.iter().map(|x| swapped(t, x)).collect(),
        degraded: cmp.degraded.iter().map(|d| degraded(t, d)).collect(),
        problems: found
            .problems
            .iter()
            .map(|Problem { line, message }| DumpProblem {
                line: *line,
                message: message.clone(),
            })
            .collect(),
        uncompared: cmp.uncompared.iter().map(|u| uncompared(t, u)).collect(),
        notes: notes(t, matched),
    }
}

/// Why a planned cable was not compared.
fn uncompared(t: &Terms<'_>, u: &Uncompared) -> String {
    match *u {
        Uncompared::Doubtful { cable: c, line } => format!(
            "cable {} - {}: the dump is inconsistent about it (line {line})",
            t.at(c.0),
            t.at(c.1)
        ),
        Uncompared::Absent { cable: c, node } => format!(
            "cable {} - {}: {} is not in the dump, which is incomplete or inconsistent",
            t.at(c.0),
            t.at(c.1),
            t.plan.node(node).name
        ),
    }
}

/// Reseat or replace a slow cable.
fn degraded(t: &Terms<'_>, d: &Slower) -> Degraded {
    let c = d.cable;
    Degraded {
        cable: t.cable(c),
        planned: rate(d.planned),
        found: rate(d.found),
        fix: format!(
            "reseat or replace the cable between {} and {}: it runs at {}, planned {}",
            t.at(c.0),
            t.at(c.1),
            rate(d.found),
            rate(d.planned)
        ),
    }
}

/// Exchange two cables, described where the exchange happened: two ports of one node
/// if either pair of ends shares a node.
fn swapped(t: &Terms<'_>, x: &Exchange) -> Swapped {
    let [p1, q1, p2, q2] = x.ends;
    let (x0, y0) = if p1.0 == p2.0 || q1.0 != q2.0 {
        (p1, p2)
    } else {
        (q1, q2)
    };
    let (at, fix) = if x0.0 == y0.0 {
        (
            format!("at {}", t.name(x0.0)),
            format!(
                "exchange the cables at {} ports {} and {}",
                t.name(x0.0),
                x0.1.min(y0.1),
                x0.1.max(y0.1)
            ),
        )
    } else {
        (
            format!("between {} and {}", t.name(x0.0), t.name(y0.0)),
            format!("exchange the cables at {} and {}", t.at(x0), t.at(y0)),
        )
    };
    Swapped {
        at,
        planned: [t.cable(x.planned[0]), t.cable(x.planned[1])],
        found: [t.cable(x.found[0]), t.cable(x.found[1])],
        fix,
    }
}

/// Move one or both ends of a cable.
fn miswired(t: &Terms<'_>, mv: &Moved) -> Miswired {
    let c = mv.planned;
    let fix = match mv.ends {
        MovedEnds::One { now, was, .. } if mv.kind == "wrong_port" => {
            format!("move the cable at {} to port {}", t.at(now), was.1)
        }
        MovedEnds::One { keep, was, now } if mv.kind == "wrong_host" => format!(
            "the cable at {} leads to {}, planned {}: move its far end from {} to {}",
            t.at(keep),
            t.name(now.0),
            t.name(was.0),
            t.at(now),
            t.at(was)
        ),
        MovedEnds::One { was, now, .. } => format!("move the cable at {} to {}", t.at(now), t.at(was)),
        MovedEnds::Both(fa, fb) => format!(
            "move the cable at {} to port {} and its other end at {} to port {}",
            t.at(fa),
            c.0 .1,
            t.at(fb),
            c.1 .1
        ),
    };
    Miswired {
        kind: mv.kind.into(),
        planned: t.cable(c),
        found: t.cable(mv.found),
        fix,
    }
}

/// Connect a missing cable; say which of its nodes the dump does not show.
fn missing(t: &Terms<'_>, c: Cable) -> Missing {
    let absent: Vec<String> = [c.0 .0, c.1 .0]
        .into_iter()
        .filter(|&n| t.unpaired(n))
        .map(|n| t.name(n))
        .collect();
    let why = if absent.is_empty() {
        String::new()
    } else {
        format!(" ({} not found in the fabric: powered and cabled?)", absent.join(", "))
    };
    Missing {
        cable: t.cable(c),
        fix: format!("connect {} to {}{why}", t.at(c.0), t.at(c.1)),
    }
}

/// Remove a cable the plan does not have.
fn extra(t: &Terms<'_>, c: Cable) -> Extra {
    Extra {
        cable: t.cable(c),
        fix: format!(
            "remove the cable between {} and {} (not in the plan)",
            t.at(c.0),
            t.at(c.1)
        ),
    }
}

/// Remarks: nodes paired by description despite their GUID, structural matching, and
/// dump-only nodes without cables.
fn notes(t: &Terms<'_>, matched: &Matched) -> Vec<String> {
    let (plan, f) = (t.plan, t.found);
    let mut notes = Vec::new();
    for &(p, d) in &matched.by_description {
        notes.push(format!(
            "{} matched by its description; its GUID is 0x{:016x}, planned 0x{:016x} (replaced hardware?)",
            plan.node(p).name,
            f.node(d).guid,
            plan.node(p).guid
        ));
    }
    if matched.by == MatchedBy::Structure {
        notes.push(
            "nodes matched by structure (no GUID or description in common with the plan); hosts without \
             identity are interchangeable"
                .into(),
        );
    }
    for (d, node) in f.nodes.iter().enumerate() {
        if t.m.d2p[d] == NONE && (1..=node.nports).all(|p| f.peer(d as u32, p).is_none()) {
            notes.push(format!(
                "{} is in the dump but not in the plan, and has no cables",
                t.name(t.np + d as u32)
            ));
        }
    }
    notes
}
