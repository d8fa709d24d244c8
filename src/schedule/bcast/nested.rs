//! Placement by the fabric's subtrees: multi-lane trees whose steady state is
//! conflict-free on tree fabrics (issue 14 item 3; docs/schedules.md §6.5).
//!
//! Take the job's hosts in nested groups that follow the fabric: the hosts behind one leaf
//! switch, then (trees) the hosts below one switch a level up, and so on. Build the plan so
//! that **every group, at every level, receives from outside through one rank (its entry)
//! and sends outside through one rank (its exit)**. A rank sends and receives at most one
//! flow per lane, so every group then has at most one flow per lane leaving it and one
//! entering it. Under up*/down* routing on a tree (LSFT, k-ary, PGFT, two-level) a link
//! from a switch to one above it carries only flows leaving the hosts below that switch,
//! and a link down only flows entering them: every link carries at most one flow per lane.
//! The steady state of every lane is conflict-free whatever the tables' up-port choices.
//!
//! The construction, recursively, for a group G with entry e (and an exit when G's parent
//! needs one): G's children (subgroups, or ranks at the bottom) are "super-ranks" of L
//! units of send capacity each, which receive at their entry and send from their exit. G
//! runs the ordinary multi-lane construction (module text of `bcast`, step 2) over them,
//! rooted at the child holding e; the child chosen as G's exit gets no capacity inside G
//! (its L units leave G) and is placed as early as the capacity argument allows, so the
//! way from e to the exit stays short. A flow between children is a flow from the sender's
//! exit to the receiver's entry. Capacity: every child but the exit needs L entries and
//! has L units, the exit's units leave G, so inside G exactly the units needed are there
//! (the breadth-first pass never gets stuck: the argument of step 2, with the exit's zero
//! sorted last or moved only when the pass still places everyone).
//!
//! Depth: a part crosses a group from its entry to its exit along the group's own plan,
//! so with levels of groups the depth is the product of the per-level depths (each
//! O(log) of the group count at that level): O(log N) for a fixed number of levels, in
//! exchange for no link shared within a lane. The report's cost model (`compare`) says
//! which placement is faster for a message size.

use super::{grow_with, Bcast};
use crate::error::{Error, Result};
use crate::topology::{Endpoint, Fabric, NodeKind};

/// Nested groups of the job's hosts by the fabric's subtrees, finest first: `levels[0][r]`
/// labels rank r's leaf switch (the switch its cable goes to), `levels[i + 1]` the hosts
/// below one switch one hop further from the leaves, kept while those host sets partition
/// the fabric's hosts and refine the level below (a k-ary tree's pods; an LSFT stops at
/// its leaves, as two spines always share a leaf). The groups are the fabric's, whatever
/// the job: a job's share of two spines of an LSFT may happen to be disjoint, but they are
/// no subtree. Switches are taken by distance from the leaf switches; among overlapping
/// host sets of one level the lexicographically first disjoint ones are tried (MOLS: its
/// first plane's pods). Levels that do not split the job further are left out.
pub fn subtree_levels(fabric: &Fabric, hosts: &[Endpoint]) -> Vec<Vec<u32>> {
    let all = fabric.endpoints();
    let index: std::collections::HashMap<Endpoint, usize> = all.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    let fabric_levels = fabric_subtrees(fabric, &all);
    let mut levels: Vec<Vec<u32>> = Vec::new();
    for (i, labels) in fabric_levels.iter().enumerate() {
        let mine: Vec<u32> = hosts
            .iter()
            .enumerate()
            .map(|(r, e)| match index.get(e) {
                Some(&at) => labels[at],
                // not a cabled host of the fabric: a group of its own
                None => u32::MAX - r as u32,
            })
            .collect();
        let mut distinct = mine.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let same_as_below = levels.last().is_some_and(|l| refines(&mine, l));
        if i > 0 && (distinct.len() <= 1 || same_as_below) {
            if distinct.len() <= 1 {
                break;
            }
            continue;
        }
        levels.push(mine);
    }
    levels
}

/// [`subtree_levels`] of every host of the fabric (`hosts` = its endpoints).
fn fabric_subtrees(fabric: &Fabric, hosts: &[Endpoint]) -> Vec<Vec<u32>> {
    let n = fabric.len();
    let unattached = u32::MAX;
    let leaf_of: Vec<u32> = hosts
        .iter()
        .map(|e| fabric.peer(e.node, e.port).map_or(unattached, |(s, _)| s))
        .collect();
    // a host without a cable is a group of its own (it cannot share a link anyway)
    let level0: Vec<u32> = leaf_of
        .iter()
        .enumerate()
        .map(|(r, &s)| if s == unattached { n as u32 + r as u32 } else { s })
        .collect();
    let mut levels = vec![level0];
    let mut dist = vec![u32::MAX; n];
    let mut below: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut frontier: Vec<u32> = fabric.switches_with_hosts().collect();
    for &s in &frontier {
        dist[s as usize] = 0;
    }
    for (r, &s) in leaf_of.iter().enumerate() {
        if s != unattached {
            below[s as usize].push(r as u32);
        }
    }
    for d in 0u32.. {
        let mut next: Vec<u32> = Vec::new();
        for &s in &frontier {
            for p in 1..=fabric.node(s).nports {
                if let Some((t, _)) = fabric.peer(s, p) {
                    if fabric.node(t).kind == NodeKind::Switch && dist[t as usize] == u32::MAX {
                        dist[t as usize] = d + 1;
                        next.push(t);
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        next.sort_unstable();
        for &t in &next {
            let mut v: Vec<u32> = Vec::new();
            for p in 1..=fabric.node(t).nports {
                if let Some((u, _)) = fabric.peer(t, p) {
                    if dist[u as usize] == d {
                        v.extend_from_slice(&below[u as usize]);
                    }
                }
            }
            v.sort_unstable();
            v.dedup();
            below[t as usize] = v;
        }
        let mut sets: Vec<&Vec<u32>> = next
            .iter()
            .map(|&t| &below[t as usize])
            .filter(|v| !v.is_empty())
            .collect();
        sets.sort();
        sets.dedup();
        let mut owner = vec![u32::MAX; hosts.len()];
        let mut groups = 0u32;
        for set in sets {
            if set.iter().all(|&r| owner[r as usize] == u32::MAX) {
                set.iter().for_each(|&r| owner[r as usize] = groups);
                groups += 1;
            }
        }
        let prev = levels.last().expect("level 0 is there");
        if groups <= 1 || owner.contains(&u32::MAX) || !refines(prev, &owner) {
            break;
        }
        levels.push(owner);
        frontier = next;
    }
    levels
}

/// Whether ranks with one label in `fine` always have one label in `coarse`.
fn refines(fine: &[u32], coarse: &[u32]) -> bool {
    let mut seen: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    fine.iter().zip(coarse).all(|(&f, &c)| *seen.entry(f).or_insert(c) == c)
}

/// The groups as a tree: nodes `0..ranks` are the ranks, then the groups level by level,
/// the last node the whole job.
struct Groups {
    kids: Vec<Vec<usize>>,
    first: Vec<u32>,
    /// `at[i][r]`: the node of level i holding rank r (level 0: the rank itself).
    at: Vec<Vec<usize>>,
    level: Vec<usize>,
}

impl Groups {
    fn new(ranks: u32, levels: &[Vec<u32>]) -> Groups {
        let n = ranks as usize;
        let mut g = Groups {
            kids: vec![Vec::new(); n],
            first: (0..ranks).collect(),
            at: vec![(0..n).collect()],
            level: vec![0; n],
        };
        let top = vec![0u32; n];
        for (i, labels) in levels.iter().chain(std::iter::once(&top)).enumerate() {
            let below = &g.at[i];
            let mut node_of: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
            let mut at = vec![0usize; n];
            let mut added = std::collections::HashSet::new();
            for r in 0..n {
                let id = *node_of.entry(labels[r]).or_insert_with(|| {
                    g.kids.push(Vec::new());
                    g.first.push(r as u32);
                    g.level.push(i + 1);
                    g.kids.len() - 1
                });
                at[r] = id;
                let child = below[r];
                if added.insert(child) {
                    g.kids[id].push(child);
                }
            }
            g.at.push(at);
        }
        g
    }

    fn holds(&self, node: usize, rank: u32) -> bool {
        self.at[self.level[node]][rank as usize] == node
    }

    /// Place the plan of `node` entered at `entry`; push its flows (from, to, part) and
    /// return its exit when `need_exit` (module text).
    fn place(
        &self,
        node: usize,
        entry: u32,
        need_exit: bool,
        lanes: u32,
        edges: &mut Vec<(u32, u32, u32)>,
    ) -> Option<u32> {
        let kids = &self.kids[node];
        match kids.len() {
            0 => return need_exit.then_some(entry),
            1 => return self.place(kids[0], entry, need_exit, lanes, edges),
            _ => {}
        }
        let j = kids.len();
        let e = kids
            .iter()
            .position(|&k| self.holds(k, entry))
            .expect("the entry is in the group");
        let x = need_exit.then_some((e + 1) % j);
        let entries: Vec<u32> = kids
            .iter()
            .enumerate()
            .map(|(i, &k)| if i == e { entry } else { self.first[k] })
            .collect();
        let exits: Vec<u32> = kids
            .iter()
            .zip(&entries)
            .map(|(&k, &en)| self.place(k, en, true, lanes, edges).expect("an exit was asked for"))
            .collect();
        let mut cap = vec![lanes; j];
        if let Some(x) = x {
            cap[x] = 0;
        }
        let members: Vec<u32> = (0..j as u32).filter(|&i| i as usize != e).collect();
        let feeders = vec![e as u32; lanes as usize];
        let mut local = Vec::new();
        grow_with(&members, &feeders, lanes, &mut cap, &mut local, x.map(|x| x as u32));
        edges.extend(
            local
                .iter()
                .map(|&(a, b, h)| (exits[a as usize], entries[b as usize], h)),
        );
        x.map(|x| exits[x])
    }
}

/// Every part's flows breadth first from the root (the order [`Bcast::depths`] and the
/// file rely on: a rank is reached before it sends).
fn breadth_first(ranks: u32, root: u32, lanes: u32, edges: &[(u32, u32, u32)]) -> Vec<(u32, u32, u32)> {
    let mut out = Vec::with_capacity(edges.len());
    for part in 0..lanes {
        let mut kids: Vec<Vec<u32>> = vec![Vec::new(); ranks as usize];
        for &(a, b, h) in edges {
            if h == part {
                kids[a as usize].push(b);
            }
        }
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(a) = queue.pop_front() {
            for &b in &kids[a as usize] {
                out.push((a, b, part));
                queue.push_back(b);
            }
        }
    }
    out
}

impl Bcast {
    /// The plan placed by nested groups (module text): `levels[i][r]` labels rank r's group
    /// at level i, finest first, each level refining the next ([`subtree_levels`] gives
    /// them for a fabric). Every group then has one entry and one exit rank.
    pub fn build_nested(ranks: u32, root: u32, lanes: u32, levels: &[Vec<u32>]) -> Result<Bcast> {
        super::check_request(ranks, root, lanes)?;
        for (i, l) in levels.iter().enumerate() {
            if l.len() != ranks as usize {
                return Err(Error::input(
                    "levels",
                    format!("level {i}: one group label per rank"),
                    None,
                ));
            }
            if i > 0 && !refines(&levels[i - 1], l) {
                return Err(Error::input(
                    "levels",
                    format!("level {i} does not contain every group of level {}", i - 1),
                    Some("groups must nest: finest level first".into()),
                ));
            }
        }
        let g = Groups::new(ranks, levels);
        let mut edges = Vec::new();
        g.place(g.kids.len() - 1, root, false, lanes, &mut edges);
        let edges = breadth_first(ranks, root, lanes, &edges);
        debug_assert_eq!(edges.len(), (lanes * (ranks - 1)) as usize);
        Ok(Bcast::coloured(ranks, root, lanes, &edges))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::prove;
    use super::*;
    use crate::families::kary::model::KaryParams;
    use crate::families::lsft::model::LsftParams;
    use crate::topology::{FamilySpec, Spec};

    /// Flows leaving and entering every group of every level, per lane: at most one.
    fn one_per_lane_across_every_group(b: &Bcast, levels: &[Vec<u32>]) {
        for (i, labels) in levels.iter().enumerate() {
            for k in 0..b.lanes {
                let mut out: std::collections::HashMap<u32, u32> = Default::default();
                let mut into: std::collections::HashMap<u32, u32> = Default::default();
                for f in b.flows.iter().filter(|f| f.lane == k) {
                    let (a, c) = (labels[f.from as usize], labels[f.to as usize]);
                    if a != c {
                        *out.entry(a).or_default() += 1;
                        *into.entry(c).or_default() += 1;
                    }
                }
                assert!(
                    out.values().chain(into.values()).all(|&n| n <= 1),
                    "level {i} lane {k}: {out:?} {into:?}"
                );
            }
        }
    }

    #[test]
    fn nested_plans_meet_the_contract_and_cross_groups_once_per_lane() {
        for lanes in 1..=3u32 {
            for (n, per, pod) in [
                (52u32, 4u32, 0u32),
                (64, 4, 16),
                (456, 8, 0),
                (30, 4, 12),
                (7, 7, 0),
                (9, 1, 3),
                (1, 1, 0),
            ] {
                let mut levels = vec![(0..n).map(|r| r / per).collect::<Vec<u32>>()];
                if pod > 0 {
                    levels.push((0..n).map(|r| r / pod).collect());
                }
                for root in [0, n / 2, n - 1] {
                    let b = Bcast::build_nested(n, root, lanes, &levels).unwrap();
                    prove(&b);
                    assert_eq!(b.flows.len(), (lanes * (n - 1)) as usize);
                    one_per_lane_across_every_group(&b, &levels);
                }
            }
        }
        // depth: a product of logarithms (456 ranks in 57 groups of 8, two lanes)
        let levels = vec![(0..456u32).map(|r| r / 8).collect::<Vec<u32>>()];
        let d = Bcast::build_nested(456, 0, 2, &levels)
            .unwrap()
            .depths()
            .into_iter()
            .max()
            .unwrap();
        assert!(d <= 40, "depth {d}");
    }

    /// The groups are the fabric's subtrees, not whatever a job's share of switches
    /// happens to partition: an LSFT job keeps its leaves only, a tree job its pods.
    #[test]
    fn subtree_levels_are_the_fabrics() {
        let t = Spec::new(FamilySpec::Lsft(LsftParams::new(2, false))).build().unwrap();
        let hosts = &t.layout.hosts()[3..18];
        let levels = subtree_levels(&t.fabric, hosts);
        assert_eq!(levels.len(), 1, "{levels:?}");
        let t = Spec::new(FamilySpec::Kary(KaryParams { arity: 4, levels: 3 }))
            .build()
            .unwrap();
        let hosts = &t.layout.hosts()[5..40];
        let levels = subtree_levels(&t.fabric, hosts);
        assert_eq!(levels.len(), 2, "leaves and pods");
        // 4 hosts per leaf, 16 per pod, in tree order
        assert!((0..35).all(|r| (levels[0][r] == levels[0][0]) == ((r + 5) / 4 == 1)));
        assert!((0..35).all(|r| (levels[1][r] == levels[1][0]) == ((r + 5) / 16 == 0)));
        // a job inside one pod: the pod level splits nothing and is left out
        let levels = subtree_levels(&t.fabric, &t.layout.hosts()[16..32]);
        assert_eq!(levels.len(), 1);
    }

    #[test]
    fn levels_that_do_not_nest_are_refused() {
        let levels = vec![vec![0, 0, 1, 1], vec![0, 1, 1, 1]];
        assert!(Bcast::build_nested(4, 0, 2, &levels)
            .unwrap_err()
            .to_string()
            .contains("level 1"));
        assert!(Bcast::build_nested(4, 0, 2, &[vec![0, 0]]).is_err());
    }
}
