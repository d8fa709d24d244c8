//! Step 1 of the audit, **match nodes**: by GUID when the dump's GUIDs are the plan's
//! (ibsim, or plans made with the real GUIDs); otherwise by node description; otherwise
//! by structure: starting from a pair of switches, follow cables that leave and arrive on
//! the same port numbers in both fabrics (the best seed wins), and if that explains less
//! than half of the plan, map both fabrics onto the family's canonical layout
//! (recognition) and pair nodes by role. Hosts without GUID or description are
//! interchangeable, so structural matching may pair them arbitrarily.

use super::MatchedBy;
use crate::recognize::{recognize, Recognition};
use crate::topology::{Fabric, Layout, NodeId, NodeKind};
use std::collections::{BTreeMap, HashMap};

/// An unpaired node.
pub(super) const NONE: u32 = u32::MAX;

/// The pairing and how it was found, with what the explanation step needs to remark on.
pub(super) struct Matched {
    /// The node pairing.
    pub(super) nodes: Matching,
    /// Which of the three ways paired them.
    pub(super) by: MatchedBy,
    /// Plan/dump nodes paired by description although GUIDs were used (replaced hardware?).
    pub(super) by_description: Vec<(u32, u32)>,
}

/// Pair the nodes of the plan and the dump: by GUID if that pairs at least half of the
/// smaller fabric (the rest by description), else by description, else by structure.
pub(super) fn match_nodes(plan: &Fabric, plan_layout: Option<&Layout>, found: &Fabric) -> Matched {
    let enough = |m: &Matching| m.count() * 2 >= found.len().min(plan.len()).max(1);
    let mut m = by_guid(plan, found);
    if enough(&m) {
        let by_description = by_description(plan, found, &mut m);
        return Matched {
            nodes: m,
            by: MatchedBy::Guid,
            by_description,
        };
    }
    let mut m = Matching::new(plan.len(), found.len());
    by_description(plan, found, &mut m);
    if enough(&m) {
        return Matched {
            nodes: m,
            by: MatchedBy::Description,
            by_description: Vec::new(),
        };
    }
    Matched {
        nodes: structural(plan, plan_layout, found),
        by: MatchedBy::Structure,
        by_description: Vec::new(),
    }
}

/// Node pairing between plan and dump: the pipeline's first result, which every later
/// step reads to put the dump's cables in plan terms.
pub(super) struct Matching {
    /// Dump node of each plan node ([`NONE`] when unpaired).
    pub(super) p2d: Vec<u32>,
    /// Plan node of each dump node ([`NONE`] when unpaired).
    pub(super) d2p: Vec<u32>,
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

/// Pair nodes whose GUIDs (and kinds) agree.
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
    let Recognition::Recognized { layout: dl, .. } = recognize(found, Some(pl.family())) else {
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

/// Pair nodes by structure: the best seed's propagation, extended; by roles when that
/// explains less than half of the plan.
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
