//! Recognising a tree as found ([`TreeLayout`]): the fat-tree a site has when no family
//! fits it exactly. Tried last, after the exact families and their degraded forms.
//!
//! The leaves are the switches that carry the compute hosts. A switch above the leaves
//! may carry hosts too (login, storage), so the leaves are chosen as a set of host-bearing
//! switches no two of which are cabled together, most hosts first: a spine with three
//! hosts loses to the leaves of twenty it is cabled to. Two cabled switches with equally
//! many hosts leave no way to say which is the leaf: not a fat-tree (a ring or a torus
//! with hosts everywhere ends here). Levels are then the distance from the leaves; a
//! switch without hosts whose every neighbour is one level below it is a switch with
//! nothing below it (an empty leaf, a director's unused leaf chip) when the leaves do not
//! need it to reach one another, and a top switch otherwise. Every cable must then join
//! neighbouring levels.

use crate::families::tree::model::{Irregularity, LeafReach, TreeLayout, MAX_LEVELS};
use crate::recognize::graph::{SwitchGraph, NONE};
use crate::recognize::Fail;
use crate::topology::{Endpoint, Layout, NodeId};
use std::collections::BTreeMap;

/// Recognise `g` as a tree of its own.
pub(crate) fn recognize(g: &SwitchGraph<'_>) -> Result<Layout, Fail> {
    let leaves = choose_leaves(g)?;
    let mut level = levels_from(g, &leaves);
    for s in childless(g, &level, &leaves) {
        level[s as usize] -= 2;
    }
    check_levels(g, &level)?;
    let order = leaf_order(g, &level);
    Ok(Layout::Tree(build(g, &level, &order)))
}

/// The host-bearing switches no two of which are cabled together, most hosts first (ties
/// by GUID); refused when a skipped switch carries as many hosts as the leaf beside it.
fn choose_leaves(g: &SwitchGraph<'_>) -> Result<Vec<u32>, Fail> {
    let hosts = |s: u32| g.hosts_of(s).len();
    let mut cand: Vec<u32> = (0..g.len() as u32).filter(|&s| hosts(s) > 0).collect();
    if cand.is_empty() {
        return Err(Fail::counts(
            "no switch has hosts: a fat-tree has hosts on its leaves".into(),
        ));
    }
    cand.sort_by_key(|&s| (std::cmp::Reverse(hosts(s)), s));
    let mut chosen = vec![false; g.len()];
    let mut leaves = Vec::new();
    for s in cand {
        let beside = g.neighbours(s).iter().copied().filter(|&t| chosen[t as usize]);
        match beside.max_by_key(|&t| hosts(t)) {
            None => {
                chosen[s as usize] = true;
                leaves.push(s);
            }
            Some(t) if hosts(t) == hosts(s) => {
                return Err(Fail::structure(format!(
                    "{} and {} are cabled together and carry {} hosts each: no way to say which is the leaf (a fat-tree's leaves are not cabled to each other)",
                    g.name(t),
                    g.name(s),
                    hosts(s)
                )))
            }
            Some(_) => {} // a switch above the leaves with a few hosts
        }
    }
    Ok(leaves)
}

/// Level of every switch: 1 + its distance from the nearest source (`NONE` = unreachable).
fn levels_from(g: &SwitchGraph<'_>, sources: &[u32]) -> Vec<u32> {
    g.distances(sources)
        .into_iter()
        .map(|d| if d == NONE { NONE } else { d + 1 })
        .collect()
}

/// Switches without hosts whose every neighbour is one level below them (level 2 or
/// more), that use at most half their ports (a switch keeps the other half for what is
/// below it; a top switch uses more), when the leaves reach one another without them:
/// switches with nothing below them (an empty leaf; a director's leaf chip without edge
/// switches), whose place is a level below their neighbours, not above.
fn childless(g: &SwitchGraph<'_>, level: &[u32], leaves: &[u32]) -> Vec<u32> {
    let cand: Vec<u32> = (0..g.len() as u32)
        .filter(|&s| {
            let l = level[s as usize];
            l != NONE
                && l >= 3
                && g.hosts_of(s).is_empty()
                && g.degree(s) * 2 <= g.fabric.node(g.switches[s as usize]).nports as usize
                && g.neighbours(s).iter().all(|&t| level[t as usize] + 1 == l)
        })
        .collect();
    if cand.is_empty() {
        return cand;
    }
    let mut without: Vec<u32> = level.iter().map(|&l| if l == NONE { 0 } else { l }).collect();
    cand.iter().for_each(|&s| without[s as usize] = 0);
    let mut leaf = vec![u32::MAX; g.len()];
    for (i, &s) in leaves.iter().enumerate() {
        leaf[s as usize] = i as u32;
    }
    let reach = LeafReach::new(&without, |s| g.neighbours(s as u32), &leaf, leaves.len());
    let all = leaves
        .iter()
        .all(|&s| reach.reach_count(s as usize) == leaves.len() as u32);
    if all {
        cand
    } else {
        Vec::new()
    }
}

/// Every switch on a level, at most [`MAX_LEVELS`], and every cable between neighbouring
/// levels; the first cable that is not is named with its ports.
fn check_levels(g: &SwitchGraph<'_>, level: &[u32]) -> Result<(), Fail> {
    if let Some(s) = (0..g.len()).find(|&s| level[s] == NONE) {
        return Err(Fail::structure(format!(
            "{} is not connected to any switch with hosts",
            g.name(s as u32)
        )));
    }
    let top = level.iter().copied().max().unwrap_or(1);
    if top as usize > MAX_LEVELS {
        return Err(Fail::counts(format!(
            "{top} levels of switches above the hosts; a fat-tree has at most {MAX_LEVELS}"
        )));
    }
    let f = g.fabric;
    for (s, &n) in g.switches.iter().enumerate() {
        for p in 1..=f.node(n).nports {
            let Some((peer, pp)) = f.peer(n, p) else { continue };
            let t = g.sw_of[peer as usize];
            if t == NONE || level[t as usize].abs_diff(level[s]) == 1 {
                continue;
            }
            return Err(Fail::structure(format!(
                "the cable {} port {p} - {} port {pp} joins two switches of level {}: not a tree (a cycle of switches closes there; a fat-tree's cables join neighbouring levels)",
                g.name(s as u32),
                g.name(t),
                level[s]
            )));
        }
    }
    Ok(())
}

/// The leaves (level 1, hosts or not) in rank order: by the set of switches they are
/// cabled to (so leaves that share their parents, a pod, are neighbours), then by GUID.
fn leaf_order(g: &SwitchGraph<'_>, level: &[u32]) -> Vec<u32> {
    let mut leaves: Vec<(Vec<u32>, u32)> = (0..g.len() as u32)
        .filter(|&s| level[s as usize] == 1)
        .map(|s| (g.neighbour_set(s), s))
        .collect();
    leaves.sort();
    leaves.into_iter().map(|(_, s)| s).collect()
}

/// The layout: switches by level, host lists, irregularities.
fn build(g: &SwitchGraph<'_>, level: &[u32], leaf_order: &[u32]) -> TreeLayout {
    let f = g.fabric;
    let top = level.iter().copied().max().unwrap_or(1);
    let mut switches: Vec<NodeId> = leaf_order.iter().map(|&s| g.switches[s as usize]).collect();
    let mut offset = vec![0, switches.len() as u32];
    for l in 2..=top {
        // switch indices are in GUID order already
        switches.extend((0..g.len()).filter(|&s| level[s] == l).map(|s| g.switches[s]));
        offset.push(switches.len() as u32);
    }
    let mut node_level = vec![0u8; f.len()];
    for (s, &n) in g.switches.iter().enumerate() {
        node_level[n as usize] = level[s] as u8;
    }
    let hosts: Vec<Endpoint> = leaf_order
        .iter()
        .flat_map(|&s| g.hosts_of(s).iter().map(|&(_, ep)| ep))
        .collect();
    let others: Vec<Endpoint> = switches[offset[1] as usize..]
        .iter()
        .flat_map(|&n| g.hosts_of(g.sw_of[n as usize]).iter().map(|&(_, ep)| ep))
        .collect();
    let mut layout = TreeLayout {
        switches,
        offset,
        level: node_level,
        hosts,
        others,
        irregular: Vec::new(),
        role_warnings: Vec::new(),
    };
    layout.irregular = irregularities(g, &layout);
    layout
}

/// The most common value (ties: the smallest).
fn mode(values: impl Iterator<Item = usize>) -> usize {
    let mut count: BTreeMap<usize, usize> = BTreeMap::new();
    values.for_each(|v| *count.entry(v).or_default() += 1);
    count
        .into_iter()
        .max_by_key(|&(v, c)| (c, std::cmp::Reverse(v)))
        .map_or(0, |(v, _)| v)
}

/// What one switch has towards the level above: (cables, distinct parents, cables per
/// parent in parent order).
fn up_profile(g: &SwitchGraph<'_>, level: &[u8], n: NodeId) -> (usize, usize, Vec<usize>) {
    let s = g.sw_of[n as usize];
    let me = level[n as usize];
    let mut per: BTreeMap<u32, usize> = BTreeMap::new();
    for &t in g.neighbours(s) {
        if level[g.switches[t as usize] as usize] == me + 1 {
            *per.entry(t).or_default() += 1;
        }
    }
    let groups: Vec<usize> = per.values().copied().collect();
    (groups.iter().sum(), groups.len(), groups)
}

/// Every irregularity, level by level.
fn irregularities(g: &SwitchGraph<'_>, t: &TreeLayout) -> Vec<Irregularity> {
    let f = g.fabric;
    let mut out = Vec::new();
    let mut push = |kind, switch, detail: String| out.push(Irregularity { kind, switch, detail });
    let hosts = |n: NodeId| g.hosts_of(g.sw_of[n as usize]).len();
    let has_down = |n: NodeId| {
        let lv = t.level[n as usize];
        g.neighbours(g.sw_of[n as usize])
            .iter()
            .any(|&x| t.level[g.switches[x as usize] as usize] + 1 == lv)
    };
    let leaf_hosts = mode(t.leaves().iter().map(|&n| hosts(n)).filter(|&h| h > 0));
    for &n in t.leaves() {
        match hosts(n) {
            0 => push("empty-leaf", n, "a leaf without hosts".into()),
            h if h != leaf_hosts => push("uneven-hosts", n, format!("{h} hosts (leaves mostly {leaf_hosts})")),
            _ => {}
        }
    }
    for l in 1..=t.levels() {
        let at = t.at(l);
        let radix = mode(at.iter().map(|&n| f.node(n).nports as usize));
        let profiles: Vec<_> = at.iter().map(|&n| up_profile(g, &t.level, n)).collect();
        let (cables, parents) = (
            mode(profiles.iter().map(|p| p.0).filter(|&c| c > 0)),
            mode(profiles.iter().map(|p| p.1).filter(|&c| c > 0)),
        );
        let per_pair = mode(profiles.iter().flat_map(|p| p.2.iter().copied()));
        for (&n, (c, p, groups)) in at.iter().zip(&profiles) {
            if l > 1 && !has_down(n) {
                push("no-down-cables", n, format!("nothing below it on level {}", l - 1));
            }
            if l > 1 && hosts(n) > 0 {
                push(
                    "hosts-above-leaves",
                    n,
                    format!(
                        "{} hosts on level {l} (non-compute unless the role options say otherwise)",
                        hosts(n)
                    ),
                );
            }
            if f.node(n).nports as usize != radix {
                push(
                    "radix",
                    n,
                    format!("{} ports (level {l} mostly {radix})", f.node(n).nports),
                );
            }
            if l == t.levels() {
                continue;
            }
            if *c == 0 {
                push("no-up-cables", n, format!("no cable to level {}", l + 1));
                continue;
            }
            if *c != cables {
                push(
                    "uneven-up-cables",
                    n,
                    format!("{c} cables up (level {l} mostly {cables})"),
                );
            }
            if *p != parents {
                push(
                    "partial-parents",
                    n,
                    format!("cabled to {p} switches of level {} (level {l} mostly {parents})", l + 1),
                );
            }
            if groups.iter().any(|&k| k != per_pair) {
                let list: Vec<String> = groups.iter().map(|k| k.to_string()).collect();
                push(
                    "uneven-parallel-cables",
                    n,
                    format!(
                        "{} cables to its parents (level {l} mostly {per_pair} per pair)",
                        list.join(",")
                    ),
                );
            }
        }
    }
    out.extend(unreachable_leaves(g, t));
    out
}

/// Leaves with hosts that cannot reach every other leaf with hosts by up*/down*.
fn unreachable_leaves(g: &SwitchGraph<'_>, t: &TreeLayout) -> Vec<Irregularity> {
    let level: Vec<u32> = g.switches.iter().map(|&n| t.level[n as usize] as u32).collect();
    let mut leaf = vec![u32::MAX; g.len()];
    for (i, &n) in t.leaves().iter().enumerate() {
        leaf[g.sw_of[n as usize] as usize] = i as u32;
    }
    let reach = LeafReach::new(&level, |s| g.neighbours(s as u32), &leaf, t.leaves().len());
    let with_hosts: Vec<u32> = (0..t.leaves().len() as u32)
        .filter(|&i| !g.hosts_of(g.sw_of[t.leaves()[i as usize] as usize]).is_empty())
        .collect();
    t.leaves()
        .iter()
        .filter(|&&n| !g.hosts_of(g.sw_of[n as usize]).is_empty())
        .filter_map(|&n| {
            let s = g.sw_of[n as usize] as usize;
            let missing = with_hosts.iter().filter(|&&i| !reach.reaches(s, i)).count();
            (missing > 0).then(|| Irregularity {
                kind: "unreachable-leaves",
                switch: n,
                detail: format!(
                    "no up*/down* path to {missing} of the {} leaves with hosts",
                    with_hosts.len()
                ),
            })
        })
        .collect()
}
