//! Recognising a k-ary n-tree: arity, levels, and a (level, subtree, lane) label for
//! every switch that [`KaryLayout::resolve`] accepts.
//!
//! Levels: every switch has k switch cables (leaves and tops) or 2k (the levels in
//! between), and n·k^(n−1) switches fix n. Leaves and tops look alike, and the switch
//! graph of a k-ary n-tree has an automorphism that turns it upside down, so hosts
//! decide the orientation: from a leaf h, every top is at distance exactly n−1, and so
//! is every top from a leaf h' in another top-level subtree (at distance 2(n−1) from h),
//! while no leaf is at distance n−1 from both. Levels are then distances from the leaves.
//!
//! Labels: a switch's lane is fixed by the tops above it (level-l lane λ reaches the tops
//! t ≡ λ mod k^(l−1)), its subtree by the leaves below it. So the up-cones form a tree of
//! classes (tops grouped by the level-(n−1) switch they share, those groups by the
//! level-(n−2) switch, ...), and numbering the children of every class 0..k−1 gives
//! lanes that agree across pods automatically; the down-cones give the subtrees the same
//! way. Children are numbered in GUID order, so the labelling is deterministic.

use crate::recognize::graph::{SwitchGraph, NONE};
use crate::recognize::Fail;
use crate::topology::{Endpoint, KaryLayout, Layout, NodeId};
use std::collections::HashMap;

/// The class tree of cones in one direction.
struct Cones {
    /// Class of each switch (its own class on the far level).
    class_of: Vec<u32>,
    /// Per class: parent class (NONE for the root), position among the parent's children, level.
    parent: Vec<u32>,
    pos: Vec<u32>,
    level: Vec<u32>,
}

/// Build the cone classes. `up`: cones of tops (from level n down to 1); otherwise cones
/// of leaves (from level 1 up to n).
fn cones(g: &SwitchGraph<'_>, level: &[u32], n: u32, k: u32, up: bool) -> Result<Cones, Fail> {
    let s = g.len();
    let mut c = Cones {
        class_of: vec![NONE; s],
        parent: Vec::new(),
        pos: Vec::new(),
        level: Vec::new(),
    };
    let (far, step): (u32, i64) = if up { (n, -1) } else { (1, 1) };
    let at = |l: u32| (0..s as u32).filter(move |&a| level[a as usize] == l);
    for a in at(far) {
        c.class_of[a as usize] = c.parent.len() as u32;
        c.parent.push(NONE);
        c.pos.push(0);
        c.level.push(far);
    }
    let mut l = far as i64 + step;
    while (1..=n as i64).contains(&l) {
        let lv = l as u32;
        let toward = (l - step) as u32;
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
        for a in at(lv) {
            let mut key: Vec<u32> = g
                .neighbours(a)
                .iter()
                .filter(|&&b| level[b as usize] == toward)
                .map(|&b| c.class_of[b as usize])
                .collect();
            key.sort_unstable();
            if key.windows(2).any(|w| w[0] == w[1]) || key.len() != k as usize {
                return Err(Fail::structure(format!(
                    "switch {} (level {lv}) reaches the same {} twice through its {} cables: not a k-ary tree",
                    g.name(a),
                    if up { "tops" } else { "leaves" },
                    if up { "up" } else { "down" }
                )));
            }
            let next = c.parent.len() as u32;
            let id = *ids.entry(key.clone()).or_insert(next);
            if id == next {
                c.parent.push(NONE);
                c.pos.push(0);
                c.level.push(lv);
                for (i, &child) in key.iter().enumerate() {
                    if c.parent[child as usize] != NONE {
                        return Err(Fail::structure(format!(
                            "switch {} (level {lv}) overlaps two subtrees of the level below: the {} of a k-ary tree nest",
                            g.name(a),
                            if up { "up-cones" } else { "subtrees" }
                        )));
                    }
                    c.parent[child as usize] = id;
                    c.pos[child as usize] = i as u32;
                }
            }
            c.class_of[a as usize] = id;
        }
        l += step;
    }
    let roots = (0..c.parent.len()).filter(|&i| c.parent[i] == NONE).count();
    if roots != 1 {
        return Err(Fail::structure(format!(
            "the {} do not nest into one tree ({roots} separate groups at the {} level)",
            if up { "up-cones" } else { "subtrees" },
            if up { "leaf" } else { "top" }
        )));
    }
    Ok(c)
}

/// The n >= 2 with n·k^(n−1) = s, if any.
fn levels_for(k: u32, s: usize) -> Option<u32> {
    let mut n = 2u32;
    loop {
        let count = (k as u64).checked_pow(n - 1)?.checked_mul(n as u64)?;
        if count == s as u64 {
            return Some(n);
        }
        if count > s as u64 {
            return None;
        }
        n += 1;
    }
}

/// Recognise a k-ary n-tree in a switch graph: arity and levels from the counts, the
/// degrees, the orientation, the levels, the labels, and the layout.
pub(crate) fn recognize(g: &SwitchGraph<'_>) -> Result<Layout, Fail> {
    let (k, n) = arity_and_levels(g)?;
    let ends = check_degrees(g, k, n)?;
    let leaves = find_leaves(g, &ends, k, n)?;
    let level = assign_levels(g, &leaves, k, n)?;
    let (switches, subtree) = label_switches(g, &level, k, n)?;
    resolve_layout(g, k, n, switches, &leaves, &subtree)
}

/// k and n from the degrees: ends have k switch cables, middle levels 2k. A broken cable
/// lowers one degree, so try every degree (and half of it) that makes n·k^(n−1)
/// switches, and keep the one most switches agree with.
fn arity_and_levels(g: &SwitchGraph<'_>) -> Result<(u32, u32), Fail> {
    let s = g.len();
    let degrees: Vec<u32> = (0..s as u32).map(|a| g.degree(a) as u32).collect();
    let mut cands: Vec<u32> = degrees.iter().flat_map(|&d| [d, d / 2]).filter(|&k| k >= 2).collect();
    cands.sort_unstable();
    cands.dedup();
    let fit = |k: u32, n: u32| degrees.iter().filter(|&&d| d == k || (n > 2 && d == 2 * k)).count();
    let best = cands
        .iter()
        .filter_map(|&k| levels_for(k, s).map(|n| (k, n)))
        .max_by_key(|&(k, n)| (fit(k, n), std::cmp::Reverse(k)));
    let Some((k, n)) = best else {
        let (kmin_at, kmin) = (0..s as u32)
            .map(|a| (a, degrees[a as usize]))
            .min_by_key(|&(a, d)| (d, a))
            .expect("a graph has switches");
        let k = kmin.max(2);
        return Err(Fail::counts(format!(
            "{s} switches: a k-ary n-tree has n·k^(n−1) switches, and no k from the switch degrees fits \
             (with k = {k}, the fewest switch cables of any switch, {}: {})",
            g.name(kmin_at),
            (2..6)
                .filter_map(|n| (k as u64)
                    .checked_pow(n - 1)
                    .map(|p| format!("{} for n = {n}", p * n as u64)))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    Ok((k, n))
}

/// Every switch has k or 2k switch cables and at most k hosts, k^(n−1) leaves plus as
/// many tops have k, and only those have hosts; returns the ends (leaves and tops).
fn check_degrees(g: &SwitchGraph<'_>, k: u32, n: u32) -> Result<Vec<u32>, Fail> {
    let s = g.len();
    let per = k.pow(n - 1);
    g.require_single_cables()?;
    for a in 0..s as u32 {
        let d = g.degree(a) as u32;
        if d != k && !(n > 2 && d == 2 * k) {
            return Err(Fail::structure(format!(
                "switch {} has {d} cables to switches; in a {k}-ary {n}-tree every switch has {k}{}",
                g.name(a),
                if n > 2 {
                    format!(" (leaves, tops) or {} (middle levels)", 2 * k)
                } else {
                    String::new()
                }
            )));
        }
        if g.hosts_of(a).len() > k as usize {
            return Err(Fail::structure(format!(
                "switch {} has {} hosts, at most k = {k}",
                g.name(a),
                g.hosts_of(a).len()
            )));
        }
    }
    let ends: Vec<u32> = (0..s as u32).filter(|&a| g.degree(a) as u32 == k).collect();
    if ends.len() != 2 * per as usize {
        return Err(Fail::structure(format!(
            "{} switches have {k} switch cables; a {k}-ary {n}-tree has {per} leaves and {per} tops",
            ends.len()
        )));
    }
    if let Some(&a) = (0..s as u32)
        .filter(|&a| g.degree(a) as u32 != k)
        .find(|&a| !g.hosts_of(a).is_empty())
        .as_ref()
    {
        return Err(Fail::structure(format!(
            "switch {} has hosts but {} switch cables (a middle-level switch)",
            g.name(a),
            g.degree(a)
        )));
    }
    Ok(ends)
}

/// Orientation: hosts mark the leaves. From a leaf h, every top is n−1 hops away, and so
/// from a leaf h' 2(n−1) hops from h; no leaf is n−1 hops from both.
fn find_leaves(g: &SwitchGraph<'_>, ends: &[u32], k: u32, n: u32) -> Result<Vec<u32>, Fail> {
    let per = k.pow(n - 1);
    let h = ends
        .iter()
        .copied()
        .find(|&a| !g.hosts_of(a).is_empty())
        .unwrap_or(ends[0]);
    let dh = g.distances(&[h]);
    let Some(h2) = ends.iter().copied().find(|&a| dh[a as usize] == 2 * (n - 1)) else {
        return Err(Fail::structure(format!(
            "no switch is {} hops from leaf {}: the levels of a {k}-ary {n}-tree are not there",
            2 * (n - 1),
            g.name(h)
        )));
    };
    let dh2 = g.distances(&[h2]);
    let is_top = |a: u32| dh[a as usize] == n - 1 && dh2[a as usize] == n - 1;
    let leaves: Vec<u32> = ends.iter().copied().filter(|&a| !is_top(a)).collect();
    let tops = ends.len() - leaves.len();
    if tops != per as usize {
        return Err(Fail::structure(format!(
            "{tops} switches are {} hops from both leaves {} and {}; a {k}-ary {n}-tree has {per} tops there",
            n - 1,
            g.name(h),
            g.name(h2)
        )));
    }
    if let Some(&a) = ends.iter().find(|&&a| is_top(a) && !g.hosts_of(a).is_empty()) {
        return Err(Fail::structure(format!(
            "switches {} and {} both have hosts but one is a leaf and the other a top switch",
            g.name(h),
            g.name(a)
        )));
    }
    Ok(leaves)
}

/// The level of every switch (1 for leaves), its distance from the leaves plus one; a
/// tree cables adjacent levels only, with k cables up below the top and k^(n−1) switches
/// per level.
fn assign_levels(g: &SwitchGraph<'_>, leaves: &[u32], k: u32, n: u32) -> Result<Vec<u32>, Fail> {
    let s = g.len();
    let per = k.pow(n - 1);
    let dist = g.distances(leaves);
    let level: Vec<u32> = dist.iter().map(|&d| d.saturating_add(1)).collect();
    let mut per_level = vec![0u32; n as usize + 2];
    for a in 0..s as u32 {
        let l = level[a as usize];
        if l == 0 || l > n {
            return Err(Fail::structure(format!(
                "switch {} is {} hops from the nearest leaf; a {n}-level tree has at most {}",
                g.name(a),
                dist[a as usize],
                n - 1
            )));
        }
        per_level[l as usize] += 1;
        for &b in g.neighbours(a) {
            if level[b as usize].abs_diff(l) != 1 {
                return Err(Fail::structure(format!(
                    "switches {} (level {l}) and {} (level {}) are cabled; a tree cables adjacent levels only",
                    g.name(a),
                    g.name(b),
                    level[b as usize]
                )));
            }
        }
        let up = g.neighbours(a).iter().filter(|&&b| level[b as usize] == l + 1).count() as u32;
        let want_up = if l < n { k } else { 0 };
        if up != want_up {
            return Err(Fail::structure(format!(
                "switch {} (level {l}) has {up} cables up, expected {want_up}",
                g.name(a)
            )));
        }
    }
    if let Some(l) = (1..=n).find(|&l| per_level[l as usize] != per) {
        return Err(Fail::structure(format!(
            "level {l} has {} switches; every level of a {k}-ary {n}-tree has {per}",
            per_level[l as usize]
        )));
    }
    Ok(level)
}

/// Labels: the lane of every switch from its up-cone, its subtree from its down-cone;
/// returns the switches in layout order and the subtree of every switch.
fn label_switches(g: &SwitchGraph<'_>, level: &[u32], k: u32, n: u32) -> Result<(Vec<NodeId>, Vec<u32>), Fail> {
    let s = g.len();
    let per = k.pow(n - 1);
    let upc = cones(g, level, n, k, true)?;
    let downc = cones(g, level, n, k, false)?;
    let mut lane = vec![0u32; upc.parent.len()];
    for c in (0..upc.parent.len()).rev() {
        let p = upc.parent[c];
        if p != NONE {
            lane[c] = lane[p as usize] + upc.pos[c] * k.pow(upc.level[c] - 2);
        }
    }
    let mut sub = vec![0u32; downc.parent.len()];
    for c in (0..downc.parent.len()).rev() {
        let p = downc.parent[c];
        if p != NONE {
            sub[c] = sub[p as usize] * k + downc.pos[c];
        }
    }
    let mut switches: Vec<NodeId> = vec![NodeId::MAX; (n * per) as usize];
    for a in 0..s as u32 {
        let l = level[a as usize];
        let (lam, gg) = (
            lane[upc.class_of[a as usize] as usize],
            sub[downc.class_of[a as usize] as usize],
        );
        let w = k.pow(l - 1);
        if lam >= w || gg >= per / w {
            return Err(Fail::structure(format!(
                "switch {} gets lane {lam} of subtree {gg} at level {l}, outside the tree",
                g.name(a)
            )));
        }
        let i = ((l - 1) * per + gg * w + lam) as usize;
        if switches[i] != NodeId::MAX {
            let other = g.sw_of[switches[i] as usize];
            return Err(Fail::structure(format!(
                "switches {} and {} both take level {l}, subtree {gg}, lane {lam}",
                g.name(other),
                g.name(a)
            )));
        }
        switches[i] = g.switches[a as usize];
    }
    let subtree = (0..s).map(|a| sub[downc.class_of[a] as usize]).collect();
    Ok((switches, subtree))
}

/// Hosts at (subtree·k + slot) of their leaf, and [`KaryLayout::resolve`].
fn resolve_layout(
    g: &SwitchGraph<'_>,
    k: u32,
    n: u32,
    switches: Vec<NodeId>,
    leaves: &[u32],
    subtree: &[u32],
) -> Result<Layout, Fail> {
    let mut hosts: Vec<(u32, Endpoint)> = Vec::with_capacity(g.hosts.len());
    for &a in leaves {
        let gg = subtree[a as usize];
        hosts.extend(g.host_slots(a).map(|(x, ep)| (gg * k + x, ep)));
    }
    let layout = KaryLayout::resolve(g.fabric, k, n, switches, hosts).map_err(|e| Fail::layout(e.to_string()))?;
    Ok(Layout::Kary(layout))
}
