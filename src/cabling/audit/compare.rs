//! Step 2 of the audit, **compare cables** in plan terms and sort the differences, most
//! specific first: two cables exchanged (at one switch or between two), one end on the
//! wrong port / switch / host, both ends on wrong ports, then what remains is missing or
//! extra. Cables in place but slower or narrower than planned are *degraded*.
//!
//! Ports the dump leaves in doubt (a link listed by one end only, contradictory ends, a
//! malformed line) and nodes a damaged dump does not show are *uncompared*, not missing.
//! Nothing here is worded: [`super::explain`] turns the findings into fix text.

use super::matching::{Matching, NONE};
use crate::formats::dump::Discovered;
use crate::topology::{Fabric, NodeKind, Speed, Width};
use std::collections::{HashMap, HashSet};

/// An end in plan terms: plan node id, or `np + found node id` for nodes only in the dump.
pub(super) type End = (u32, u8);

/// A cable by its two ends in plan terms, the smaller end first.
pub(super) type Cable = (End, End);

/// Plan, dump and their pairing: the view in which both fabrics' cables are plan cables.
pub(super) struct Terms<'a> {
    /// The planned fabric.
    pub(super) plan: &'a Fabric,
    /// The discovered fabric.
    pub(super) found: &'a Fabric,
    /// Number of plan nodes: ends at or above it are dump-only nodes.
    pub(super) np: u32,
    /// The node pairing of step 1.
    pub(super) m: &'a Matching,
    /// How reports name the discovered nodes (description, with GUID and LID when shared).
    pub(super) found_labels: crate::topology::label::Labels,
}

impl<'a> Terms<'a> {
    /// The view of `found` through the pairing `m`.
    pub(super) fn new(plan: &'a Fabric, found: &'a Fabric, m: &'a Matching) -> Terms<'a> {
        Terms {
            plan,
            found,
            np: plan.len() as u32,
            m,
            found_labels: crate::topology::label::Labels::new(found),
        }
    }

    /// The kind of a node in plan terms.
    pub(super) fn kind(&self, n: u32) -> NodeKind {
        if n < self.np {
            self.plan.node(n).kind
        } else {
            self.found.node(n - self.np).kind
        }
    }

    /// A dump node in plan terms.
    fn to_plan(&self, d: u32) -> u32 {
        let p = self.m.d2p[d as usize];
        if p == NONE {
            self.np + d
        } else {
            p
        }
    }

    /// True when a plan node has no partner in the dump.
    pub(super) fn unpaired(&self, p: u32) -> bool {
        self.m.p2d[p as usize] == NONE
    }
}

/// A planned cable that could not be compared.
pub(super) enum Uncompared {
    /// The dump is inconsistent about one of its ports (at this line).
    Doubtful {
        /// The planned cable.
        cable: Cable,
        /// The dump line that put it in doubt.
        line: usize,
    },
    /// One of its nodes is not in a damaged dump.
    Absent {
        /// The planned cable.
        cable: Cable,
        /// The plan node the dump does not show.
        node: u32,
    },
}

/// A cable in place at a lower rate than planned.
pub(super) struct Slower {
    /// The cable.
    pub(super) cable: Cable,
    /// Planned width and speed.
    pub(super) planned: (Width, Speed),
    /// Found width and speed.
    pub(super) found: (Width, Speed),
}

/// Planned p1-q1 and p2-q2, found p1-q2 and p2-q1.
pub(super) struct Exchange {
    /// The two planned cables.
    pub(super) planned: [Cable; 2],
    /// The two found cables.
    pub(super) found: [Cable; 2],
    /// The ends p1, q1, p2, q2.
    pub(super) ends: [End; 4],
}

/// A planned cable found with one or both ends elsewhere.
pub(super) struct Moved {
    /// `wrong_port`, `wrong_switch`, `wrong_host` (one end moved) or `wrong_ports` (both).
    pub(super) kind: &'static str,
    /// The planned cable.
    pub(super) planned: Cable,
    /// The cable found instead.
    pub(super) found: Cable,
    /// Which ends are where.
    pub(super) ends: MovedEnds,
}

/// The ends of a [`Moved`] cable.
pub(super) enum MovedEnds {
    /// One end moved.
    One {
        /// The end that is where the plan has it.
        keep: End,
        /// Where the plan has the other end.
        was: End,
        /// Where the other end is.
        now: End,
    },
    /// Both ends on other ports of the right nodes: the found ends, in the order of the
    /// planned cable's ends.
    Both(End, End),
}

/// Every difference between the dump and the plan, in plan terms.
pub(super) struct Comparison {
    /// Planned cables that could not be compared, in plan order.
    pub(super) uncompared: Vec<Uncompared>,
    /// Planned cables found in place (possibly degraded).
    pub(super) matching: usize,
    /// Cables in place at a lower rate.
    pub(super) degraded: Vec<Slower>,
    /// Pairs of cables with exchanged ends.
    pub(super) swapped: Vec<Exchange>,
    /// Cables with one or both ends elsewhere.
    pub(super) miswired: Vec<Moved>,
    /// Planned cables not found.
    pub(super) missing: Vec<Cable>,
    /// Found cables not planned.
    pub(super) extra: Vec<Cable>,
}

/// Compare the dump's cables with the plan's under the pairing of `t`.
pub(super) fn compare(t: &Terms<'_>, found: &Discovered) -> Comparison {
    let suspect = suspect_ends(t, found);
    let (planned, uncompared) = planned_cables(t, found, &suspect);
    let seen = found_cables(t, found, &suspect);
    let (matching, degraded) = in_place(t, &planned, &seen);
    let mut d = Differences::new(&planned, &seen);
    let swapped = d.swaps();
    let mut miswired = d.one_end_moved(t);
    miswired.extend(d.both_ends_moved());
    let (missing, extra) = d.leftovers();
    Comparison {
        uncompared,
        matching,
        degraded,
        swapped,
        miswired,
        missing,
        extra,
    }
}

/// Ports the dump leaves in doubt, in plan terms, with the line that says so.
fn suspect_ends(t: &Terms<'_>, found: &Discovered) -> HashMap<End, usize> {
    let mut suspect = HashMap::new();
    for &(d, port, line) in &found.suspect {
        suspect.insert((t.to_plan(d), port), line);
    }
    suspect
}

/// The planned cables that can be compared, and why the others cannot.
fn planned_cables(t: &Terms<'_>, found: &Discovered, suspect: &HashMap<End, usize>) -> (Vec<Cable>, Vec<Uncompared>) {
    let doubtful_dump = !found.problems.is_empty() || found.truncated;
    let mut uncompared = Vec::new();
    let mut planned = Vec::new();
    for l in t.plan.links() {
        let c = norm((l.a, l.pa), (l.b, l.pb));
        if let Some(&line) = suspect.get(&c.0).or_else(|| suspect.get(&c.1)) {
            uncompared.push(Uncompared::Doubtful { cable: c, line });
            continue;
        }
        let absent = [c.0 .0, c.1 .0].into_iter().find(|&n| t.unpaired(n));
        if let (Some(node), true) = (absent, doubtful_dump) {
            uncompared.push(Uncompared::Absent { cable: c, node });
            continue;
        }
        planned.push(c);
    }
    (planned, uncompared)
}

/// A found cable in plan terms, its rate, and whether the dump gave the rate.
type Seen = (End, End, Width, Speed, bool);

/// The dump's cables in plan terms, except those at ports in doubt.
fn found_cables(t: &Terms<'_>, found: &Discovered, suspect: &HashMap<End, usize>) -> Vec<Seen> {
    let f = t.found;
    let mut seen = Vec::new();
    for l in f.links() {
        let c = norm((t.to_plan(l.a), l.pa), (t.to_plan(l.b), l.pb));
        if suspect.contains_key(&c.0) || suspect.contains_key(&c.1) {
            continue;
        }
        let port = f.port(l.a, l.pa);
        let known = found
            .rate_known
            .get(f.port_index(l.a, l.pa) as usize)
            .copied()
            .unwrap_or(false);
        seen.push((c.0, c.1, port.width, port.speed, known));
    }
    seen
}

/// How many planned cables are in place, and those of them that run slower than planned.
fn in_place(t: &Terms<'_>, planned: &[Cable], seen: &[Seen]) -> (usize, Vec<Slower>) {
    let found_set: HashMap<Cable, (Width, Speed, bool)> =
        seen.iter().map(|&(a, b, w, s, k)| ((a, b), (w, s, k))).collect();
    let mut degraded = Vec::new();
    let mut matching = 0;
    for &c in planned {
        if let Some(&(w, s, known)) = found_set.get(&c) {
            matching += 1;
            let pp = t.plan.port(c.0 .0, c.0 .1);
            if known && (w < pp.width || s < pp.speed) {
                degraded.push(Slower {
                    cable: c,
                    planned: (pp.width, pp.speed),
                    found: (w, s),
                });
            }
        }
    }
    (matching, degraded)
}

/// Planned cables not found (`lost`) and found cables not planned (`new`), sorted, with
/// an index by end and a flag per cable once a finding explains it.
struct Differences {
    lost: Vec<Cable>,
    new: Vec<Cable>,
    lost_at: HashMap<End, usize>,
    new_at: HashMap<End, usize>,
    lost_used: Vec<bool>,
    new_used: Vec<bool>,
}

impl Differences {
    /// The cables on one side only.
    fn new(planned: &[Cable], seen: &[Seen]) -> Differences {
        let found_set: HashSet<Cable> = seen.iter().map(|&(a, b, ..)| (a, b)).collect();
        let plan_set: HashSet<Cable> = planned.iter().copied().collect();
        let mut lost: Vec<Cable> = planned.iter().copied().filter(|c| !found_set.contains(c)).collect();
        let mut new: Vec<Cable> = seen
            .iter()
            .map(|&(a, b, ..)| (a, b))
            .filter(|c| !plan_set.contains(c))
            .collect();
        lost.sort_unstable();
        new.sort_unstable();
        let index = |cables: &[Cable]| {
            let mut at: HashMap<End, usize> = HashMap::new();
            for (i, c) in cables.iter().enumerate() {
                at.insert(c.0, i);
                at.insert(c.1, i);
            }
            at
        };
        Differences {
            lost_at: index(&lost),
            new_at: index(&new),
            lost_used: vec![false; lost.len()],
            new_used: vec![false; new.len()],
            lost,
            new,
        }
    }

    /// Pairs of planned cables p1-q1, p2-q2 found as p1-q2, p2-q1.
    fn swaps(&mut self) -> Vec<Exchange> {
        let mut swapped = Vec::new();
        for i in 0..self.lost.len() {
            if self.lost_used[i] {
                continue;
            }
            let c1 = self.lost[i];
            for (p1, q1) in [(c1.0, c1.1), (c1.1, c1.0)] {
                let Some(&j) = self.new_at.get(&p1) else { continue };
                if self.new_used[j] {
                    continue;
                }
                let q2 = other(self.new[j], p1);
                let Some(&k) = self.lost_at.get(&q2) else { continue };
                if k == i || self.lost_used[k] {
                    continue;
                }
                let p2 = other(self.lost[k], q2);
                let Some(&l) = self.new_at.get(&p2) else { continue };
                if l == j || self.new_used[l] || other(self.new[l], p2) != q1 {
                    continue;
                }
                self.lost_used[i] = true;
                self.lost_used[k] = true;
                self.new_used[j] = true;
                self.new_used[l] = true;
                swapped.push(Exchange {
                    planned: [c1, self.lost[k]],
                    found: [self.new[j], self.new[l]],
                    ends: [p1, q1, p2, q2],
                });
                break;
            }
        }
        swapped
    }

    /// Planned cables found with one end elsewhere.
    fn one_end_moved(&mut self, t: &Terms<'_>) -> Vec<Moved> {
        let mut miswired = Vec::new();
        for i in 0..self.lost.len() {
            if self.lost_used[i] {
                continue;
            }
            let c = self.lost[i];
            // prefer keeping a host end in place: a host's cable is moved at the switch
            let orients = if t.kind(c.1 .0) == NodeKind::Switch {
                [(c.0, c.1), (c.1, c.0)]
            } else {
                [(c.1, c.0), (c.0, c.1)]
            };
            for (keep, was) in orients {
                let Some(&j) = self.new_at.get(&keep) else { continue };
                if self.new_used[j] {
                    continue;
                }
                let now = other(self.new[j], keep);
                self.lost_used[i] = true;
                self.new_used[j] = true;
                let kind = if now.0 == was.0 {
                    "wrong_port"
                } else if t.kind(now.0) == NodeKind::Switch {
                    "wrong_switch"
                } else {
                    "wrong_host"
                };
                miswired.push(Moved {
                    kind,
                    planned: c,
                    found: self.new[j],
                    ends: MovedEnds::One { keep, was, now },
                });
                break;
            }
        }
        miswired
    }

    /// Planned cables found between the right nodes, on other ports at both ends.
    fn both_ends_moved(&mut self) -> Vec<Moved> {
        let mut by_pair: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
        for (j, c) in self.new.iter().enumerate() {
            if !self.new_used[j] {
                by_pair
                    .entry((c.0 .0.min(c.1 .0), c.0 .0.max(c.1 .0)))
                    .or_default()
                    .push(j);
            }
        }
        let mut miswired = Vec::new();
        for i in 0..self.lost.len() {
            if self.lost_used[i] {
                continue;
            }
            let c = self.lost[i];
            let key = (c.0 .0.min(c.1 .0), c.0 .0.max(c.1 .0));
            let cand = by_pair
                .get(&key)
                .and_then(|js| js.iter().copied().find(|&j| !self.new_used[j]));
            if let Some(j) = cand {
                self.lost_used[i] = true;
                self.new_used[j] = true;
                let (fa, fb) = if self.new[j].0 .0 == c.0 .0 {
                    self.new[j]
                } else {
                    (self.new[j].1, self.new[j].0)
                };
                miswired.push(Moved {
                    kind: "wrong_ports",
                    planned: c,
                    found: self.new[j],
                    ends: MovedEnds::Both(fa, fb),
                });
            }
        }
        miswired
    }

    /// What no finding explains: (missing, extra).
    fn leftovers(self) -> (Vec<Cable>, Vec<Cable>) {
        let missing = (0..self.lost.len())
            .filter(|&i| !self.lost_used[i])
            .map(|i| self.lost[i])
            .collect();
        let extra = (0..self.new.len())
            .filter(|&j| !self.new_used[j])
            .map(|j| self.new[j])
            .collect();
        (missing, extra)
    }
}

/// A cable with its smaller end first.
fn norm(a: End, b: End) -> Cable {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The far end of a cable from `e`.
fn other(c: Cable, e: End) -> End {
    if c.0 == e {
        c.1
    } else {
        c.0
    }
}
