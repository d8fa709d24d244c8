//! Recognising the MOLS proximity 3-level tree: arity n, which switch is which bottom
//! (pod, colour), middle (plane, row) and top (plane, index), and the kind of wiring.
//!
//! * 3n² switches; bottoms and tops have n switch cables, middles 2n.
//! * Tops: the n tops of a plane are cabled to the same n middles, so tops come in
//!   groups of n "twins". Bottoms are twins only in a standard wiring, where the fabric
//!   is a plain 3-level tree and turns upside down: then the groups are 2-coloured (a top
//!   group and a bottom group share exactly one middle) and hosts say which colour is
//!   the bottom.
//! * Planes: a top group and its n middles. Pods: the rows of the first plane (in GUID
//!   order); every bottom meets exactly one middle per plane.
//! * Colours: an assignment of n colours to bottoms such that every middle meets every
//!   colour once (a proper colouring of the "share a middle" graph), found by a
//!   backtracking DSatur search; pods are rainbow because plane 0 is a plane too.
//! * Wiring kind: compared with the builder's tables through their proximity profile,
//!   the sorted list of proximity counts per bottom and the histogram of how many
//!   middles two bottoms share. Equal profiles are necessary for the wirings to be
//!   relabellings of each other, not sufficient: a custom wiring with the same profile as
//!   `basic` is reported as `basic`. `standard` and `mols` profiles are exact
//!   characterisations (proximity n, resp. n(n−1)+1 for every bottom, and every pair of
//!   bottoms sharing at most one middle). For prime n the `basic` and `mols` tables are
//!   identical and the wiring is reported as `mols`, like `ibfat build mols --wiring auto`.

use crate::families::mols::model::wiring_table;
use crate::geometry::is_prime_power;
use crate::recognize::graph::{group_by_key, SwitchGraph, NONE};
use crate::recognize::Fail;
use crate::topology::{Endpoint, Layout, MolsLayout, NodeId, Wiring};

/// Budget for the colouring search (assignments tried).
const COLOUR_BUDGET: u64 = 2_000_000;

/// Proximity profile of a wiring table: (sorted proximity per bottom, histogram of the
/// number of middles shared by two distinct bottoms).
pub(crate) fn profile(n: u32, g: &[u32]) -> (Vec<u32>, Vec<u64>) {
    let nb = (n * n) as usize;
    let mut mids: Vec<Vec<usize>> = vec![Vec::new(); n as usize * n as usize];
    for m in 0..(n * n) as usize {
        for c in 0..n as usize {
            mids[m].push(g[m * n as usize + c] as usize * n as usize + c);
        }
    }
    let mut shared = vec![0u8; nb * nb];
    for bs in &mids {
        for &a in bs {
            for &b in bs {
                if a != b {
                    shared[a * nb + b] = shared[a * nb + b].saturating_add(1);
                }
            }
        }
    }
    let mut prox: Vec<u32> = (0..nb)
        .map(|a| 1 + (0..nb).filter(|&b| b != a && shared[a * nb + b] > 0).count() as u32)
        .collect();
    prox.sort_unstable();
    let mut hist = vec![0u64; n as usize + 1];
    for a in 0..nb {
        for b in a + 1..nb {
            hist[(shared[a * nb + b] as usize).min(n as usize)] += 1;
        }
    }
    (prox, hist)
}

/// Which of the builder's wirings a table matches (by proximity profile), else `Custom`.
pub(crate) fn classify(n: u32, g: &[u32]) -> Wiring {
    let mine = profile(n, g);
    let mut candidates = vec![Wiring::Standard];
    if is_prime_power(n) {
        candidates.push(Wiring::Mols);
    }
    candidates.push(Wiring::Basic);
    candidates
        .into_iter()
        .find(|&w| profile(n, &wiring_table(n, w)) == mine)
        .unwrap_or(Wiring::Custom)
}

/// Colour bottoms 0..n so that the bottoms of every middle get distinct colours.
/// `mid_bottoms[m]` lists bottom indices; `bottom_mids[b]` the middles of b.
fn colour(n: usize, mid_bottoms: &[Vec<u32>], bottom_mids: &[Vec<u32>], first: &[u32]) -> Option<Vec<u32>> {
    struct St<'a> {
        n: usize,
        bottom_mids: &'a [Vec<u32>],
        used: Vec<u128>,
        colour: Vec<u32>,
        steps: u64,
    }
    impl St<'_> {
        fn forbidden(&self, b: usize) -> u128 {
            self.bottom_mids[b]
                .iter()
                .fold(0, |acc, &m| acc | self.used[m as usize])
        }
        fn set(&mut self, b: usize, c: u32) {
            self.colour[b] = c;
            for &m in &self.bottom_mids[b] {
                self.used[m as usize] |= 1u128 << c;
            }
        }
        fn unset(&mut self, b: usize) {
            let c = self.colour[b];
            self.colour[b] = NONE;
            for &m in &self.bottom_mids[b] {
                self.used[m as usize] &= !(1u128 << c);
            }
        }
        fn solve(&mut self) -> Option<bool> {
            self.steps += 1;
            if self.steps > COLOUR_BUDGET {
                return None;
            }
            // DSatur: the uncoloured bottom with the fewest colours left
            let mut best: Option<(u32, usize)> = None;
            for b in 0..self.colour.len() {
                if self.colour[b] != NONE {
                    continue;
                }
                let free = self.n as u32 - self.forbidden(b).count_ones();
                if !matches!(best, Some((f, _)) if free >= f) {
                    best = Some((free, b));
                }
            }
            let Some((free, b)) = best else {
                return Some(true);
            };
            if free == 0 {
                return Some(false);
            }
            let forb = self.forbidden(b);
            for c in 0..self.n as u32 {
                if forb & (1u128 << c) != 0 {
                    continue;
                }
                self.set(b, c);
                if self.solve()? {
                    return Some(true);
                }
                self.unset(b);
            }
            Some(false)
        }
    }
    let mut st = St {
        n,
        bottom_mids,
        used: vec![0; mid_bottoms.len()],
        colour: vec![NONE; bottom_mids.len()],
        steps: 0,
    };
    // colours are interchangeable: fix those of the first middle's bottoms
    for (c, &b) in first.iter().enumerate() {
        st.set(b as usize, c as u32);
    }
    match st.solve() {
        Some(true) => Some(st.colour),
        _ => None,
    }
}

/// Recognise a MOLS 3-level tree in a switch graph: one function per step of the
/// module doc (counts, degrees, tops, planes, bottoms' middles, colours, layout).
pub(crate) fn recognize(g: &SwitchGraph<'_>) -> Result<Layout, Fail> {
    let n = arity(g)?;
    let ends = check_degrees(g, n)?;
    let top_blocks = find_tops(g, &ends, n)?;
    let mut is_top = vec![false; g.len()];
    for b in &top_blocks {
        for &a in b {
            is_top[a as usize] = true;
        }
    }
    let bottoms: Vec<u32> = ends.iter().copied().filter(|&a| !is_top[a as usize]).collect();
    let planes = map_planes(g, &top_blocks)?;
    let bottom_mids = bottom_middles(g, n, &bottoms, &planes)?;
    let (mid_list, colours) = colour_bottoms(g, n, &bottoms, &bottom_mids, &planes)?;
    let bottom_nodes = index_bottoms(g, n, &bottoms, &bottom_mids, &colours, &planes)?;
    resolve_layout(g, n, bottom_nodes, &mid_list, &top_blocks)
}

/// The arity n from the switch count, 3n².
fn arity(g: &SwitchGraph<'_>) -> Result<u32, Fail> {
    let s = g.len();
    let n = ((s as f64 / 3.0).sqrt().round()) as u32;
    if n < 2 || 3 * (n * n) as usize != s {
        return Err(Fail::counts(format!(
            "{s} switches: a 3-level proximity tree of arity n has 3n² switches (12, 27, 48, 75, 108, 147, ...)"
        )));
    }
    Ok(n)
}

/// Bottoms and tops have n switch cables, middles 2n and no hosts, cables join a middle
/// to an outer switch, 2n² switches are outer; returns the outer switches.
fn check_degrees(g: &SwitchGraph<'_>, n: u32) -> Result<Vec<u32>, Fail> {
    let s = g.len();
    let nu = n as usize;
    g.require_single_cables()?;
    for a in 0..s as u32 {
        let d = g.degree(a);
        if d != nu && d != 2 * nu {
            return Err(Fail::structure(format!(
                "switch {} has {d} cables to switches; in an {n}-ary 3-level tree every switch has {n} (bottoms, tops) or {} (middles)",
                g.name(a),
                2 * n
            )));
        }
        if g.hosts_of(a).len() > nu {
            return Err(Fail::structure(format!(
                "switch {} has {} hosts, at most n = {n}",
                g.name(a),
                g.hosts_of(a).len()
            )));
        }
        if d == 2 * nu && !g.hosts_of(a).is_empty() {
            return Err(Fail::structure(format!(
                "switch {} has hosts but {d} switch cables (a middle switch)",
                g.name(a)
            )));
        }
        for &b in g.neighbours(a) {
            if (g.degree(b) == 2 * nu) == (d == 2 * nu) {
                return Err(Fail::structure(format!(
                    "switches {} and {} are cabled but lie on the same level",
                    g.name(a),
                    g.name(b)
                )));
            }
        }
    }
    let ends: Vec<u32> = (0..s as u32).filter(|&a| g.degree(a) == nu).collect();
    if ends.len() != 2 * nu * nu {
        return Err(Fail::structure(format!(
            "{} switches have {n} switch cables; an {n}-ary 3-level tree has {} bottoms and {} tops",
            ends.len(),
            n * n,
            n * n
        )));
    }
    Ok(ends)
}

/// The tops, in groups of n twins (the tops of one plane share their n middles). In a
/// standard wiring bottoms are twins too and the hosts decide which groups are tops.
fn find_tops(g: &SwitchGraph<'_>, ends: &[u32], n: u32) -> Result<Vec<Vec<u32>>, Fail> {
    let nu = n as usize;
    let keyed: Vec<(u32, Vec<u32>)> = ends.iter().map(|&a| (a, g.neighbour_set(a))).collect();
    let groups = group_by_key(&keyed);
    let blocks: Vec<&Vec<u32>> = groups.iter().filter(|gr| gr.len() == nu).collect();
    let in_blocks: usize = blocks.iter().map(|b| b.len()).sum();
    let has_hosts = |gr: &[u32]| gr.iter().any(|&a| !g.hosts_of(a).is_empty());
    if in_blocks == 2 * nu * nu {
        standard_tops(g, &blocks, nu)
    } else if in_blocks == nu * nu {
        if let Some(b) = blocks.iter().find(|b| has_hosts(b)) {
            let a = b.iter().find(|&&a| !g.hosts_of(a).is_empty()).copied().unwrap_or(b[0]);
            return Err(Fail::structure(format!(
                "switch {} has hosts but shares all its middles with {} other switches, like the tops of a plane",
                g.name(a),
                n - 1
            )));
        }
        Ok(blocks.iter().map(|b| (*b).clone()).collect())
    } else {
        Err(Fail::structure(format!(
            "the tops of a 3-level tree come in {n} groups of {n} switches with the same middles; \
             {in_blocks} of the {} outer switches are in such groups",
            2 * n * n
        )))
    }
}

/// Standard wiring: top groups and bottom groups, each middle joins one of each; the
/// groups 2-colour and the colour without hosts is the top level.
fn standard_tops(g: &SwitchGraph<'_>, blocks: &[&Vec<u32>], nu: usize) -> Result<Vec<Vec<u32>>, Fail> {
    let s = g.len();
    let has_hosts = |gr: &[u32]| gr.iter().any(|&a| !g.hosts_of(a).is_empty());
    let mut block_of = vec![NONE; s];
    for (i, b) in blocks.iter().enumerate() {
        for &a in b.iter() {
            block_of[a as usize] = i as u32;
        }
    }
    let mut colour = vec![NONE; blocks.len()];
    let mut edges: Vec<Vec<u32>> = vec![Vec::new(); blocks.len()];
    for m in (0..s as u32).filter(|&a| g.degree(a) == 2 * nu) {
        let mut bs: Vec<u32> = g.neighbours(m).iter().map(|&a| block_of[a as usize]).collect();
        bs.sort_unstable();
        bs.dedup();
        if bs.len() != 2 {
            return Err(Fail::structure(format!(
                "middle {} is cabled to {} groups of twin switches, expected one group of tops and one of bottoms",
                g.name(m),
                bs.len()
            )));
        }
        edges[bs[0] as usize].push(bs[1]);
        edges[bs[1] as usize].push(bs[0]);
    }
    colour[0] = 0;
    let mut stack = vec![0u32];
    while let Some(x) = stack.pop() {
        for &y in &edges[x as usize] {
            if colour[y as usize] == NONE {
                colour[y as usize] = 1 - colour[x as usize];
                stack.push(y);
            } else if colour[y as usize] == colour[x as usize] {
                return Err(Fail::structure(format!(
                    "switch groups of {} and {} share middles but lie on the same level",
                    g.name(blocks[x as usize][0]),
                    g.name(blocks[y as usize][0])
                )));
            }
        }
    }
    if colour.contains(&NONE) {
        return Err(Fail::structure(
            "the switch groups are not all connected through middles".into(),
        ));
    }
    let hosts_in = |c: u32| (0..blocks.len()).any(|i| colour[i] == c && has_hosts(blocks[i]));
    let bottom_colour = match (hosts_in(0), hosts_in(1)) {
        (true, true) => {
            return Err(Fail::structure(
                "switches on both the bottom and the top level have hosts".to_string(),
            ))
        }
        (false, true) => 1,
        _ => 0,
    };
    Ok((0..blocks.len())
        .filter(|&i| colour[i] != bottom_colour)
        .map(|i| blocks[i].clone())
        .collect())
}

/// The middles of every plane (the shared middles of a top group, in GUID order: their
/// rows), and the plane and row of every middle.
struct Planes {
    plane_of: Vec<u32>,
    row_of: Vec<u32>,
    plane_mids: Vec<Vec<u32>>,
}

/// Planes: a top group and its n middles; a middle belongs to one plane.
fn map_planes(g: &SwitchGraph<'_>, top_blocks: &[Vec<u32>]) -> Result<Planes, Fail> {
    let s = g.len();
    let mut plane_of = vec![NONE; s];
    let mut row_of = vec![NONE; s];
    let mut plane_mids: Vec<Vec<u32>> = Vec::with_capacity(top_blocks.len());
    for (u, b) in top_blocks.iter().enumerate() {
        let mids = g.neighbour_set(b[0]);
        for (r, &m) in mids.iter().enumerate() {
            if plane_of[m as usize] != NONE {
                return Err(Fail::structure(format!(
                    "middle {} is cabled to the tops of two planes",
                    g.name(m)
                )));
            }
            plane_of[m as usize] = u as u32;
            row_of[m as usize] = r as u32;
        }
        plane_mids.push(mids);
    }
    Ok(Planes {
        plane_of,
        row_of,
        plane_mids,
    })
}

/// Every bottom meets exactly one middle per plane: `result[i][u]` is the middle of
/// bottom i in plane u.
fn bottom_middles(g: &SwitchGraph<'_>, n: u32, bottoms: &[u32], planes: &Planes) -> Result<Vec<Vec<u32>>, Fail> {
    let plane_of = &planes.plane_of;
    let nu = n as usize;
    let mut bottom_mids: Vec<Vec<u32>> = vec![vec![NONE; nu]; bottoms.len()];
    for (i, &b) in bottoms.iter().enumerate() {
        for &m in g.neighbours(b) {
            let u = plane_of[m as usize] as usize;
            if bottom_mids[i][u] != NONE {
                return Err(Fail::structure(format!(
                    "bottom {} has two middles in plane {u} ({} and {}): every bottom meets one middle per plane",
                    g.name(b),
                    g.name(bottom_mids[i][u]),
                    g.name(m)
                )));
            }
            bottom_mids[i][u] = m;
        }
    }
    Ok(bottom_mids)
}

/// Colours: n colours for the bottoms such that every middle meets each colour once;
/// returns the middles in plane order and the colour of every bottom.
fn colour_bottoms(
    g: &SwitchGraph<'_>,
    n: u32,
    bottoms: &[u32],
    bottom_mids: &[Vec<u32>],
    planes: &Planes,
) -> Result<(Vec<u32>, Vec<u32>), Fail> {
    let s = g.len();
    let nu = n as usize;
    let mut bottom_index = vec![NONE; s];
    for (i, &b) in bottoms.iter().enumerate() {
        bottom_index[b as usize] = i as u32;
    }
    let mid_list: Vec<u32> = planes.plane_mids.iter().flatten().copied().collect();
    let mut mid_index = vec![NONE; s];
    for (i, &m) in mid_list.iter().enumerate() {
        mid_index[m as usize] = i as u32;
    }
    let mid_bottoms: Vec<Vec<u32>> = mid_list
        .iter()
        .map(|&m| {
            g.neighbours(m)
                .iter()
                .filter(|&&a| bottom_index[a as usize] != NONE)
                .map(|&a| bottom_index[a as usize])
                .collect()
        })
        .collect();
    let bm: Vec<Vec<u32>> = bottom_mids
        .iter()
        .map(|ms| ms.iter().map(|&m| mid_index[m as usize]).collect())
        .collect();
    let Some(colours) = colour(nu, &mid_bottoms, &bm, &mid_bottoms[0]) else {
        return Err(Fail::structure(format!(
            "no assignment of {n} colours to the bottoms gives every middle one bottom of each colour"
        )));
    };
    Ok((mid_list, colours))
}

/// Bottom indices pod·n + colour, the pod being the row of the bottom's plane-0 middle;
/// returns the bottoms in layout order.
fn index_bottoms(
    g: &SwitchGraph<'_>,
    n: u32,
    bottoms: &[u32],
    bottom_mids: &[Vec<u32>],
    colours: &[u32],
    planes: &Planes,
) -> Result<Vec<NodeId>, Fail> {
    let nu = n as usize;
    let row_of = &planes.row_of;
    let mut bottom_nodes: Vec<NodeId> = vec![NodeId::MAX; nu * nu];
    for (i, &b) in bottoms.iter().enumerate() {
        let pod = row_of[bottom_mids[i][0] as usize];
        let idx = (pod * n + colours[i]) as usize;
        if bottom_nodes[idx] != NodeId::MAX {
            return Err(Fail::structure(format!(
                "two bottoms of pod {pod} get colour {}, one of them {}",
                colours[i],
                g.name(b)
            )));
        }
        bottom_nodes[idx] = g.switches[b as usize];
    }
    Ok(bottom_nodes)
}

/// Middles and tops in plane order, hosts at (bottom·n + slot), [`MolsLayout::resolve`],
/// and the kind of wiring by proximity profile.
fn resolve_layout(
    g: &SwitchGraph<'_>,
    n: u32,
    bottom_nodes: Vec<NodeId>,
    mid_list: &[u32],
    top_blocks: &[Vec<u32>],
) -> Result<Layout, Fail> {
    let middle_nodes: Vec<NodeId> = mid_list.iter().map(|&m| g.switches[m as usize]).collect();
    let top_nodes: Vec<NodeId> = top_blocks.iter().flatten().map(|&t| g.switches[t as usize]).collect();
    let mut hosts: Vec<(u32, Endpoint)> = Vec::with_capacity(g.hosts.len());
    for (b, &node) in bottom_nodes.iter().enumerate() {
        let a = g.sw_of[node as usize];
        hosts.extend(g.host_slots(a).map(|(j, ep)| (b as u32 * n + j, ep)));
    }
    let mut layout = MolsLayout::resolve(
        g.fabric,
        n,
        Wiring::Custom,
        bottom_nodes,
        middle_nodes,
        top_nodes,
        hosts,
    )
    .map_err(|e| Fail::layout(e.to_string()))?;
    layout.wiring = classify(n, &layout.g);
    Ok(Layout::Mols(layout))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_tell_the_builder_wirings_apart() {
        for n in [2u32, 3, 4, 5, 6, 7, 8] {
            assert_eq!(
                classify(n, &wiring_table(n, Wiring::Standard)),
                Wiring::Standard,
                "n={n}"
            );
            if is_prime_power(n) {
                assert_eq!(classify(n, &wiring_table(n, Wiring::Mols)), Wiring::Mols, "n={n}");
            }
        }
        // basic differs from mols for proper prime powers and exists for any n
        assert_eq!(classify(4, &wiring_table(4, Wiring::Basic)), Wiring::Basic);
        assert_eq!(classify(6, &wiring_table(6, Wiring::Basic)), Wiring::Basic);
        // prime n: the basic table is the mols table
        assert_eq!(classify(5, &wiring_table(5, Wiring::Basic)), Wiring::Mols);
        // a table with plane 1 shifted by a non-Latin rule is custom
        let n = 5;
        let mut g = wiring_table(n, Wiring::Standard);
        for r in 0..n {
            for c in 0..n {
                // plane 1: column c rotated by c² mod n: each column a permutation of rows
                g[((n + r) * n + c) as usize] = (r + c * c) % n;
            }
        }
        assert_eq!(classify(n, &g), Wiring::Custom);
    }
}
