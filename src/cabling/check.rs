//! The pre-deployment cabling check: compare what `ibnetdiscover` found with the plan,
//! cable by cable, and say how to fix every difference.
//!
//! 1. **Match nodes.** By GUID when the dump's GUIDs are the plan's (ibsim, or plans
//!    made with the real GUIDs); otherwise by node description; otherwise by structure:
//!    starting from a pair of switches, follow cables that leave and arrive on the same
//!    port numbers in both fabrics (the best seed wins), and if that explains less than
//!    half of the plan, map both fabrics onto the family's canonical layout (recognition)
//!    and pair nodes by role. Hosts without GUID or description are interchangeable, so
//!    structural matching may pair them arbitrarily.
//! 2. **Compare cables** in plan terms. Ports the dump leaves in doubt (a link listed by
//!    one end only, contradictory ends, a malformed line) and nodes a damaged dump does
//!    not show are *uncompared*, not missing.
//! 3. **Explain differences**, most specific first: two cables exchanged (at one switch
//!    or between two), one end on the wrong port / switch / host, both ends on wrong
//!    ports, then what remains is missing or extra. Cables in place but slower or
//!    narrower than planned are *degraded*.

use crate::formats::dump::{Discovered, Problem};
use crate::recognize::{recognize, FamilyHint, Recognition};
use crate::topology::{Fabric, Layout, NodeId, NodeKind, Speed, Width};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

const NONE: u32 = u32::MAX;

/// How nodes were paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchedBy {
    Guid,
    Description,
    Structure,
}

impl std::fmt::Display for MatchedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MatchedBy::Guid => "GUID",
            MatchedBy::Description => "node description",
            MatchedBy::Structure => "structure",
        })
    }
}

/// One end of a cable as the report shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EndRef {
    /// The plan's name of the node (`L3`), or the dump's description/id for nodes the
    /// plan does not have.
    pub node: String,
    pub description: String,
    pub guid: String,
    pub port: u8,
    /// False for a node that is only in the dump.
    pub planned: bool,
}

/// A cable by its two ends.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CableRef {
    pub a: EndRef,
    pub b: EndRef,
}

/// A planned cable that is not there.
#[derive(Clone, Debug, Serialize)]
pub struct Missing {
    pub cable: CableRef,
    pub fix: String,
}

/// A cable that is not in the plan.
#[derive(Clone, Debug, Serialize)]
pub struct Extra {
    pub cable: CableRef,
    pub fix: String,
}

/// A planned cable found with one or both ends elsewhere.
#[derive(Clone, Debug, Serialize)]
pub struct Miswired {
    /// `wrong_port` (same node, other port), `wrong_switch`, `wrong_host`, `wrong_ports`
    /// (both ends on other ports of the right nodes).
    pub kind: String,
    pub planned: CableRef,
    pub found: CableRef,
    pub fix: String,
}

/// Two planned cables found with their ends exchanged.
#[derive(Clone, Debug, Serialize)]
pub struct Swapped {
    /// Where the exchange happened: `at L3` (one switch) or `between L3 and L5`.
    pub at: String,
    pub planned: [CableRef; 2],
    pub found: [CableRef; 2],
    pub fix: String,
}

/// A cable in place that runs narrower or slower than planned.
#[derive(Clone, Debug, Serialize)]
pub struct Degraded {
    pub cable: CableRef,
    pub planned: String,
    pub found: String,
    pub fix: String,
}

/// A dump problem, with its line.
#[derive(Clone, Debug, Serialize)]
pub struct DumpProblem {
    pub line: usize,
    pub message: String,
}

/// The check's result.
#[derive(Clone, Debug, Serialize)]
pub struct CablingReport {
    pub matched_by: MatchedBy,
    pub planned_cables: usize,
    pub found_cables: usize,
    /// Planned cables found in place (possibly degraded).
    pub matching_cables: usize,
    pub missing: Vec<Missing>,
    pub extra: Vec<Extra>,
    pub miswired: Vec<Miswired>,
    pub swapped: Vec<Swapped>,
    pub degraded: Vec<Degraded>,
    /// Inconsistencies of the dump itself.
    pub problems: Vec<DumpProblem>,
    /// What could not be compared, and why.
    pub uncompared: Vec<String>,
    /// Remarks (nodes matched by description though their GUID differs, ...).
    pub notes: Vec<String>,
}

impl CablingReport {
    /// True when the fabric was fully compared and matches the plan.
    pub fn is_match(&self) -> bool {
        self.missing.is_empty()
            && self.extra.is_empty()
            && self.miswired.is_empty()
            && self.swapped.is_empty()
            && self.degraded.is_empty()
            && self.problems.is_empty()
            && self.uncompared.is_empty()
    }

    /// Number of findings (cabling faults).
    pub fn faults(&self) -> usize {
        self.missing.len() + self.extra.len() + self.miswired.len() + self.swapped.len() + self.degraded.len()
    }
}

/// Node pairing between plan and dump.
struct Matching {
    p2d: Vec<u32>,
    d2p: Vec<u32>,
}

impl Matching {
    fn new(np: usize, nd: usize) -> Matching {
        Matching {
            p2d: vec![NONE; np],
            d2p: vec![NONE; nd],
        }
    }
    fn pair(&mut self, p: u32, d: u32) {
        self.p2d[p as usize] = d;
        self.d2p[d as usize] = p;
    }
    fn count(&self) -> usize {
        self.p2d.iter().filter(|&&d| d != NONE).count()
    }
}

fn by_guid(plan: &Fabric, found: &Fabric) -> Matching {
    let mut m = Matching::new(plan.len(), found.len());
    let index = plan.guid_index();
    for (d, node) in found.nodes.iter().enumerate() {
        if let Some(&p) = index.get(&node.guid) {
            if plan.node(p).kind == node.kind && m.p2d[p as usize] == NONE {
                m.pair(p, d as u32);
            }
        }
    }
    m
}

/// Pair still unmatched nodes by unique description (same kind).
fn by_description(plan: &Fabric, found: &Fabric, m: &mut Matching) -> Vec<(u32, u32)> {
    fn unique<'f>(f: &'f Fabric, taken: &[u32]) -> HashMap<(&'f str, NodeKind), Option<u32>> {
        let mut map: HashMap<(&str, NodeKind), Option<u32>> = HashMap::new();
        for (i, n) in f.nodes.iter().enumerate() {
            if taken[i] != NONE || n.desc.trim().is_empty() {
                continue;
            }
            map.entry((n.desc.as_str(), n.kind))
                .and_modify(|v| *v = None)
                .or_insert(Some(i as u32));
        }
        map
    }
    let pm = unique(plan, &m.p2d);
    let dm = unique(found, &m.d2p);
    let mut paired = Vec::new();
    for (key, d) in dm {
        if let (Some(d), Some(Some(p))) = (d, pm.get(&key)) {
            paired.push((*p, d));
        }
    }
    paired.sort_unstable();
    for &(p, d) in &paired {
        m.pair(p, d);
    }
    paired
}

/// Follow cables with equal port numbers from a seed pair; returns the matching and the
/// number of cables that agree.
fn propagate(plan: &Fabric, found: &Fabric, seed: (u32, u32)) -> (Matching, usize) {
    let mut m = Matching::new(plan.len(), found.len());
    m.pair(seed.0, seed.1);
    let mut queue = vec![seed];
    let mut agree = 0;
    while let Some((p, d)) = queue.pop() {
        let n = plan.node(p).nports.min(found.node(d).nports);
        for port in 1..=n {
            let (Some((pz, pzp)), Some((dz, dzp))) = (plan.peer(p, port), found.peer(d, port)) else {
                continue;
            };
            if pzp != dzp || plan.node(pz).kind != found.node(dz).kind {
                continue;
            }
            if m.p2d[pz as usize] == NONE && m.d2p[dz as usize] == NONE {
                m.pair(pz, dz);
                queue.push((pz, dz));
                agree += 1;
            } else if m.p2d[pz as usize] == dz {
                agree += 1;
            }
        }
    }
    (m, agree)
}

/// Extend a matching through cables whose ports agree on the near end only, then pair
/// lone leftovers of a kind.
fn extend(plan: &Fabric, found: &Fabric, m: &mut Matching) {
    loop {
        let mut added = false;
        for p in 0..plan.len() as u32 {
            let d = m.p2d[p as usize];
            if d == NONE {
                continue;
            }
            let n = plan.node(p).nports.min(found.node(d).nports);
            for port in 1..=n {
                let (Some((pz, _)), Some((dz, _))) = (plan.peer(p, port), found.peer(d, port)) else {
                    continue;
                };
                if m.p2d[pz as usize] == NONE && m.d2p[dz as usize] == NONE && plan.node(pz).kind == found.node(dz).kind
                {
                    m.pair(pz, dz);
                    added = true;
                }
            }
        }
        if !added {
            break;
        }
    }
    for kind in [NodeKind::Switch, NodeKind::Ca, NodeKind::Router] {
        let lp: Vec<u32> = (0..plan.len() as u32)
            .filter(|&p| m.p2d[p as usize] == NONE && plan.node(p).kind == kind)
            .collect();
        let ld: Vec<u32> = (0..found.len() as u32)
            .filter(|&d| m.d2p[d as usize] == NONE && found.node(d).kind == kind)
            .collect();
        if lp.len() == 1 && ld.len() == 1 {
            m.pair(lp[0], ld[0]);
        }
    }
}

/// Pair nodes by their role in the family layouts of both fabrics.
fn by_roles(plan: &Fabric, pl: &Layout, found: &Fabric) -> Option<Matching> {
    let Recognition::Recognised { layout: dl, .. } = recognize(found, Some(FamilyHint::of(pl))) else {
        return None;
    };
    let mut m = Matching::new(plan.len(), found.len());
    let pair_all = |a: &[NodeId], b: &[NodeId], m: &mut Matching| {
        for (&p, &d) in a.iter().zip(b) {
            m.pair(p, d);
        }
    };
    match (pl, &dl) {
        (Layout::Lsft(a), Layout::Lsft(b)) if a.q == b.q && a.sides == b.sides => {
            pair_all(&a.leaves, &b.leaves, &mut m);
            pair_all(&a.spines, &b.spines, &mut m);
            for (&ra, &rb) in a.slot_rank.iter().zip(&b.slot_rank) {
                if ra != u32::MAX && rb != u32::MAX {
                    m.pair(a.hosts[ra as usize].node, b.hosts[rb as usize].node);
                }
            }
        }
        (Layout::Kary(a), Layout::Kary(b)) if a.k == b.k && a.levels == b.levels => {
            pair_all(&a.switches, &b.switches, &mut m);
            let pos: BTreeMap<u32, NodeId> = b.host_pos.iter().zip(&b.hosts).map(|(&d, e)| (d, e.node)).collect();
            for (&d, e) in a.host_pos.iter().zip(&a.hosts) {
                if let Some(&x) = pos.get(&d) {
                    m.pair(e.node, x);
                }
            }
        }
        (Layout::Mols(a), Layout::Mols(b)) if a.n == b.n => {
            pair_all(&a.bottoms, &b.bottoms, &mut m);
            pair_all(&a.middles, &b.middles, &mut m);
            pair_all(&a.tops, &b.tops, &mut m);
            let pos: BTreeMap<u32, NodeId> = b.host_pos.iter().zip(&b.hosts).map(|(&d, e)| (d, e.node)).collect();
            for (&d, e) in a.host_pos.iter().zip(&a.hosts) {
                if let Some(&x) = pos.get(&d) {
                    m.pair(e.node, x);
                }
            }
        }
        _ => return None,
    }
    Some(m)
}

/// Cables of a fabric that agree with the plan under a matching.
fn agreement(plan: &Fabric, found: &Fabric, m: &Matching) -> usize {
    plan.links()
        .filter(|l| {
            let (da, db) = (m.p2d[l.a as usize], m.p2d[l.b as usize]);
            da != NONE && db != NONE && l.pa <= found.node(da).nports && found.peer(da, l.pa) == Some((db, l.pb))
        })
        .count()
}

fn structural(plan: &Fabric, plan_layout: Option<&Layout>, found: &Fabric) -> Matching {
    let seed_p = plan
        .switches()
        .max_by_key(|&s| (plan.node(s).nports, std::cmp::Reverse(s)))
        .or_else(|| plan.cas().next());
    let mut best: Option<(Matching, usize)> = None;
    if let Some(sp) = seed_p {
        let kind = plan.node(sp).kind;
        for d in (0..found.len() as u32).filter(|&d| found.node(d).kind == kind) {
            let (m, agree) = propagate(plan, found, (sp, d));
            if best.as_ref().map_or(true, |(_, s)| agree > *s) {
                best = Some((m, agree));
            }
        }
    }
    let mut m = match best {
        Some((m, _)) => m,
        None => Matching::new(plan.len(), found.len()),
    };
    extend(plan, found, &mut m);
    let links = plan.link_count();
    let agree = agreement(plan, found, &m);
    if agree * 2 < links {
        if let Some(mut r) = plan_layout.and_then(|pl| by_roles(plan, pl, found)) {
            extend(plan, found, &mut r);
            if agreement(plan, found, &r) > agree || r.count() > m.count() {
                return r;
            }
        }
    }
    m
}

/// An end in plan terms: plan node id, or `np + found node id` for nodes only in the dump.
type End = (u32, u8);

struct Ctx<'a> {
    plan: &'a Fabric,
    found: &'a Fabric,
    np: u32,
    m: &'a Matching,
}

impl Ctx<'_> {
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
            let name = if node.desc.trim().is_empty() {
                node.name.clone()
            } else {
                node.desc.clone()
            };
            EndRef {
                node: name,
                description: node.desc.clone(),
                guid: format!("0x{:016x}", node.guid),
                port,
                planned: false,
            }
        }
    }
    fn cable(&self, (a, b): (End, End)) -> CableRef {
        CableRef {
            a: self.end_ref(a),
            b: self.end_ref(b),
        }
    }
    fn name(&self, n: u32) -> String {
        self.end_ref((n, 0)).node
    }
    fn kind(&self, n: u32) -> NodeKind {
        if n < self.np {
            self.plan.node(n).kind
        } else {
            self.found.node(n - self.np).kind
        }
    }
    fn to_plan(&self, d: u32) -> u32 {
        let p = self.m.d2p[d as usize];
        if p == NONE {
            self.np + d
        } else {
            p
        }
    }
    fn at(&self, e: End) -> String {
        format!("{} port {}", self.name(e.0), e.1)
    }
}

fn norm(a: End, b: End) -> (End, End) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

fn other(c: (End, End), e: End) -> End {
    if c.0 == e {
        c.1
    } else {
        c.0
    }
}

fn rate(w: Width, s: Speed) -> String {
    format!("{w}{s}")
}

/// Compare a discovered fabric with the plan.
pub fn check(plan: &Fabric, plan_layout: Option<&Layout>, found: &Discovered) -> CablingReport {
    let f = &found.fabric;
    let np = plan.len() as u32;
    let mut notes = Vec::new();
    // 1. matching
    let mut m = by_guid(plan, f);
    let enough = |m: &Matching| m.count() * 2 >= f.len().min(plan.len()).max(1);
    let matched_by = if enough(&m) {
        for (p, d) in by_description(plan, f, &mut m) {
            notes.push(format!(
                "{} matched by its description; its GUID is 0x{:016x}, planned 0x{:016x} (replaced hardware?)",
                plan.node(p).name,
                f.node(d).guid,
                plan.node(p).guid
            ));
        }
        MatchedBy::Guid
    } else {
        m = Matching::new(plan.len(), f.len());
        by_description(plan, f, &mut m);
        if enough(&m) {
            MatchedBy::Description
        } else {
            m = structural(plan, plan_layout, f);
            notes.push(
                "nodes matched by structure (no GUID or description in common with the plan); hosts without \
                 identity are interchangeable"
                    .into(),
            );
            MatchedBy::Structure
        }
    };
    let ctx = Ctx {
        plan,
        found: f,
        np,
        m: &m,
    };
    let doubtful_dump = !found.problems.is_empty() || found.truncated;
    // 2. cables in plan terms
    let mut uncompared = Vec::new();
    let mut suspect: HashMap<End, usize> = HashMap::new();
    for &(d, port, line) in &found.suspect {
        suspect.insert((ctx.to_plan(d), port), line);
    }
    let mut planned: Vec<(End, End)> = Vec::new();
    for l in plan.links() {
        let c = norm((l.a, l.pa), (l.b, l.pb));
        if let Some(&line) = suspect.get(&c.0).or_else(|| suspect.get(&c.1)) {
            uncompared.push(format!(
                "cable {} - {}: the dump is inconsistent about it (line {line})",
                ctx.at(c.0),
                ctx.at(c.1)
            ));
            continue;
        }
        let absent = [c.0 .0, c.1 .0].into_iter().find(|&n| m.p2d[n as usize] == NONE);
        if let (Some(n), true) = (absent, doubtful_dump) {
            uncompared.push(format!(
                "cable {} - {}: {} is not in the dump, which is incomplete or inconsistent",
                ctx.at(c.0),
                ctx.at(c.1),
                plan.node(n).name
            ));
            continue;
        }
        planned.push(c);
    }
    let mut seen: Vec<(End, End, Width, Speed, bool)> = Vec::new();
    for l in f.links() {
        let c = norm((ctx.to_plan(l.a), l.pa), (ctx.to_plan(l.b), l.pb));
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
    let found_set: HashMap<(End, End), (Width, Speed, bool)> =
        seen.iter().map(|&(a, b, w, s, k)| ((a, b), (w, s, k))).collect();
    let plan_set: std::collections::HashSet<(End, End)> = planned.iter().copied().collect();
    // common cables and their rates
    let mut degraded = Vec::new();
    let mut matching = 0;
    for &c in &planned {
        if let Some(&(w, s, known)) = found_set.get(&c) {
            matching += 1;
            let pp = plan.port(c.0 .0, c.0 .1);
            if known && (w < pp.width || s < pp.speed) {
                degraded.push(Degraded {
                    cable: ctx.cable(c),
                    planned: rate(pp.width, pp.speed),
                    found: rate(w, s),
                    fix: format!(
                        "reseat or replace the cable between {} and {}: it runs at {}, planned {}",
                        ctx.at(c.0),
                        ctx.at(c.1),
                        rate(w, s),
                        rate(pp.width, pp.speed)
                    ),
                });
            }
        }
    }
    // 3. differences
    let mut lost: Vec<(End, End)> = planned.iter().copied().filter(|c| !found_set.contains_key(c)).collect();
    let mut new: Vec<(End, End)> = seen
        .iter()
        .map(|&(a, b, ..)| (a, b))
        .filter(|c| !plan_set.contains(c))
        .collect();
    lost.sort_unstable();
    new.sort_unstable();
    let mut lost_at: HashMap<End, usize> = HashMap::new();
    for (i, c) in lost.iter().enumerate() {
        lost_at.insert(c.0, i);
        lost_at.insert(c.1, i);
    }
    let mut new_at: HashMap<End, usize> = HashMap::new();
    for (i, c) in new.iter().enumerate() {
        new_at.insert(c.0, i);
        new_at.insert(c.1, i);
    }
    let mut lost_used = vec![false; lost.len()];
    let mut new_used = vec![false; new.len()];
    // swaps: planned p1-q1, p2-q2; found p1-q2, p2-q1
    let mut swapped = Vec::new();
    for i in 0..lost.len() {
        if lost_used[i] {
            continue;
        }
        let c1 = lost[i];
        'orient: for (p1, q1) in [(c1.0, c1.1), (c1.1, c1.0)] {
            let Some(&j) = new_at.get(&p1) else { continue };
            if new_used[j] {
                continue;
            }
            let q2 = other(new[j], p1);
            let Some(&k) = lost_at.get(&q2) else { continue };
            if k == i || lost_used[k] {
                continue;
            }
            let p2 = other(lost[k], q2);
            let Some(&l) = new_at.get(&p2) else { continue };
            if l == j || new_used[l] || other(new[l], p2) != q1 {
                continue;
            }
            lost_used[i] = true;
            lost_used[k] = true;
            new_used[j] = true;
            new_used[l] = true;
            // describe the exchange where it happened: two ports of one node if either
            // pair of ends shares a node
            let (x, y) = if p1.0 == p2.0 || q1.0 != q2.0 {
                (p1, p2)
            } else {
                (q1, q2)
            };
            let (at, fix) = if x.0 == y.0 {
                (
                    format!("at {}", ctx.name(x.0)),
                    format!(
                        "exchange the cables at {} ports {} and {}",
                        ctx.name(x.0),
                        x.1.min(y.1),
                        x.1.max(y.1)
                    ),
                )
            } else {
                (
                    format!("between {} and {}", ctx.name(x.0), ctx.name(y.0)),
                    format!("exchange the cables at {} and {}", ctx.at(x), ctx.at(y)),
                )
            };
            swapped.push(Swapped {
                at,
                planned: [ctx.cable(c1), ctx.cable(lost[k])],
                found: [ctx.cable(new[j]), ctx.cable(new[l])],
                fix,
            });
            break 'orient;
        }
    }
    // one end moved
    let mut miswired = Vec::new();
    for i in 0..lost.len() {
        if lost_used[i] {
            continue;
        }
        let c = lost[i];
        // prefer keeping a host end in place: a host's cable is moved at the switch
        let orients = if ctx.kind(c.1 .0) == NodeKind::Switch {
            [(c.0, c.1), (c.1, c.0)]
        } else {
            [(c.1, c.0), (c.0, c.1)]
        };
        for (keep, was) in orients {
            let Some(&j) = new_at.get(&keep) else { continue };
            if new_used[j] {
                continue;
            }
            let now = other(new[j], keep);
            lost_used[i] = true;
            new_used[j] = true;
            let kind = if now.0 == was.0 {
                "wrong_port"
            } else if ctx.kind(now.0) == NodeKind::Switch {
                "wrong_switch"
            } else {
                "wrong_host"
            };
            let fix = if now.0 == was.0 {
                format!("move the cable at {} to port {}", ctx.at(now), was.1)
            } else if kind == "wrong_host" {
                format!(
                    "the cable at {} leads to {}, planned {}: move its far end from {} to {}",
                    ctx.at(keep),
                    ctx.name(now.0),
                    ctx.name(was.0),
                    ctx.at(now),
                    ctx.at(was)
                )
            } else {
                format!("move the cable at {} to {}", ctx.at(now), ctx.at(was))
            };
            miswired.push(Miswired {
                kind: kind.into(),
                planned: ctx.cable(c),
                found: ctx.cable(new[j]),
                fix,
            });
            break;
        }
    }
    // both ends on other ports of the right nodes: found cables by node pair
    let mut by_pair: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    for (j, c) in new.iter().enumerate() {
        if !new_used[j] {
            by_pair
                .entry((c.0 .0.min(c.1 .0), c.0 .0.max(c.1 .0)))
                .or_default()
                .push(j);
        }
    }
    for i in 0..lost.len() {
        if lost_used[i] {
            continue;
        }
        let c = lost[i];
        let key = (c.0 .0.min(c.1 .0), c.0 .0.max(c.1 .0));
        let cand = by_pair
            .get(&key)
            .and_then(|js| js.iter().copied().find(|&j| !new_used[j]));
        if let Some(j) = cand {
            lost_used[i] = true;
            new_used[j] = true;
            let (fa, fb) = if new[j].0 .0 == c.0 .0 {
                new[j]
            } else {
                (new[j].1, new[j].0)
            };
            miswired.push(Miswired {
                kind: "wrong_ports".into(),
                planned: ctx.cable(c),
                found: ctx.cable(new[j]),
                fix: format!(
                    "move the cable at {} to port {} and its other end at {} to port {}",
                    ctx.at(fa),
                    c.0 .1,
                    ctx.at(fb),
                    c.1 .1
                ),
            });
        }
    }
    let missing: Vec<Missing> = (0..lost.len())
        .filter(|&i| !lost_used[i])
        .map(|i| {
            let c = lost[i];
            let absent: Vec<String> = [c.0 .0, c.1 .0]
                .into_iter()
                .filter(|&n| m.p2d[n as usize] == NONE)
                .map(|n| ctx.name(n))
                .collect();
            let why = if absent.is_empty() {
                String::new()
            } else {
                format!(" ({} not found in the fabric: powered and cabled?)", absent.join(", "))
            };
            Missing {
                cable: ctx.cable(c),
                fix: format!("connect {} to {}{why}", ctx.at(c.0), ctx.at(c.1)),
            }
        })
        .collect();
    let extra: Vec<Extra> = (0..new.len())
        .filter(|&j| !new_used[j])
        .map(|j| {
            let c = new[j];
            Extra {
                cable: ctx.cable(c),
                fix: format!(
                    "remove the cable between {} and {} (not in the plan)",
                    ctx.at(c.0),
                    ctx.at(c.1)
                ),
            }
        })
        .collect();
    for (d, node) in f.nodes.iter().enumerate() {
        if m.d2p[d] == NONE && (1..=node.nports).all(|p| f.peer(d as u32, p).is_none()) {
            notes.push(format!(
                "{} is in the dump but not in the plan, and has no cables",
                ctx.name(np + d as u32)
            ));
        }
    }
    CablingReport {
        matched_by,
        planned_cables: plan.link_count(),
        found_cables: f.link_count(),
        matching_cables: matching,
        missing,
        extra,
        miswired,
        swapped,
        degraded,
        problems: found
            .problems
            .iter()
            .map(|Problem { line, message }| DumpProblem {
                line: *line,
                message: message.clone(),
            })
            .collect(),
        uncompared,
        notes,
    }
}
