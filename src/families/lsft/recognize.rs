//! Recognising a Latin-square fat-tree: leaves and spines, the order q, the sides, and
//! an incidence isomorphism onto the canonical PG(2,q).
//!
//! Steps, each with its own reason when it fails:
//! 1. the switches split into two levels (the switch graph is bipartite); the level with
//!    hosts is the leaf level;
//! 2. counts: q²+q+1 spines for a prime power q, as many leaves (one-sided) or twice as
//!    many (two-sided); every leaf has q+1 spines, every spine (q+1)·sides leaves;
//! 3. two-sided: leaves pair up by identical spine sets, one pair per point;
//! 4. any two points share exactly one spine (then leaves and spines form a projective
//!    plane of order q);
//! 5. the plane is mapped onto PG(2,q) ([`crate::families::lsft::recognize_plane`]);
//! 6. [`LsftLayout::resolve`] turns the mapping into the layout routing uses.

use crate::families::lsft::recognize_plane::{to_canonical, Collineation, Incidence, IsoFailure};
use crate::geometry::{is_prime_power, Plane};
use crate::recognize::graph::{SwitchGraph, NONE};
use crate::recognize::Fail;
use crate::topology::{Endpoint, Layout, LsftLayout, NodeId};

/// Search budget for the plane isomorphism: generous for Desarguesian planes (a handful
/// of branches), and a bound on the time spent proving a plane non-Desarguesian.
const ISO_BUDGET: u64 = 200_000;

/// The order q with q²+q+1 = n, if any.
fn order_of(n: usize) -> Option<u32> {
    let q = ((4.0 * n as f64 - 3.0).sqrt() as u64).saturating_sub(1) / 2;
    (q.saturating_sub(1)..=q + 1)
        .find(|&q| q >= 2 && q * q + q + 1 == n as u64)
        .map(|q| q as u32)
}

/// Recognise an LSFT in a switch graph: one function per step of the module doc.
pub(crate) fn recognize(g: &SwitchGraph<'_>) -> Result<Layout, Fail> {
    refuse_by_count(g)?;
    let (leaves, spines) = split_levels(g)?;
    let (q, sides) = check_counts(g, &leaves, &spines)?;
    let (points, inc) = pair_points(g, &leaves, &spines, q, sides)?;
    check_one_shared_spine(g, &spines, &points, &inc)?;
    let (plane, iso) = map_onto_pg(&inc)?;
    resolve_layout(g, plane, sides, &points, &spines, &iso)
}

/// Without names ([`SwitchGraph::quietly`]): refuse at once a switch count no LSFT has
/// (q²+q+1 spines and as many leaves, or twice as many), before the levels are split.
fn refuse_by_count(g: &SwitchGraph<'_>) -> Result<(), Fail> {
    let n = g.len();
    let fits = |sides: usize| n % (sides + 1) == 0 && order_of(n / (sides + 1)).is_some();
    if !g.is_quiet() || fits(1) || fits(2) {
        return Ok(());
    }
    g.inexact();
    Err(Fail::counts(String::new()))
}

/// Step 1: two-colour the switch graph (it must be connected and bipartite) and return
/// (leaves, spines): the level with hosts is the leaf level.
pub(crate) fn split_levels(g: &SwitchGraph<'_>) -> Result<(Vec<u32>, Vec<u32>), Fail> {
    let s = g.len();
    let colour = two_colour(g)?;
    let with_hosts: Vec<u32> = (0..s as u32).filter(|&a| !g.hosts_of(a).is_empty()).collect();
    let leaf_colour = match with_hosts
        .iter()
        .find(|&&a| colour[a as usize] != colour[with_hosts[0] as usize])
    {
        Some(&b) => {
            return Err(Fail::structure(format!(
                "switches {} and {} both have hosts but lie on different levels (hosts attach to leaves only)",
                g.name(with_hosts[0]),
                g.name(b)
            )))
        }
        None if !with_hosts.is_empty() => colour[with_hosts[0] as usize],
        None => {
            // no hosts at all: the larger level (two-sided) or the level of the first switch
            let ones = colour.iter().filter(|&&c| c == 1).count();
            if ones * 2 > s {
                1
            } else if ones * 2 < s {
                0
            } else {
                colour[0]
            }
        }
    };
    let leaves: Vec<u32> = (0..s as u32).filter(|&a| colour[a as usize] == leaf_colour).collect();
    let spines: Vec<u32> = (0..s as u32).filter(|&a| colour[a as usize] != leaf_colour).collect();
    Ok((leaves, spines))
}

/// The level (0 or 1) of every switch, from switch 0; fails when the switches are not
/// one connected group or two cabled switches would share a level.
fn two_colour(g: &SwitchGraph<'_>) -> Result<Vec<u32>, Fail> {
    let s = g.len();
    let mut colour = vec![NONE; s];
    for start in 0..s as u32 {
        if colour[start as usize] != NONE {
            continue;
        }
        if start != 0 {
            return Err(Fail::counts(format!(
                "the switches form more than one connected group ({} is not connected to {})",
                g.name(start),
                g.name(0)
            )));
        }
        colour[start as usize] = 0;
        let mut stack = vec![start];
        while let Some(a) = stack.pop() {
            for &b in g.neighbours(a) {
                if colour[b as usize] == NONE {
                    colour[b as usize] = 1 - colour[a as usize];
                    stack.push(b);
                } else if colour[b as usize] == colour[a as usize] {
                    return Err(Fail::structure(format!(
                        "switches {} and {} are cabled to each other but lie on the same level (an LSFT cables leaves only to spines)",
                        g.name(a),
                        g.name(b)
                    )));
                }
            }
        }
    }
    Ok(colour)
}

/// Step 2: the order q and the number of sides from the counts, then the degrees every
/// leaf and spine of LSFT(q) has.
fn check_counts(g: &SwitchGraph<'_>, leaves: &[u32], spines: &[u32]) -> Result<(u32, usize), Fail> {
    let n = spines.len();
    let Some(q) = order_of(n) else {
        return Err(Fail::counts(format!(
            "{n} spines and {} leaves: an LSFT of order q has q²+q+1 spines (7, 13, 21, 31, 57, 73, 91, ...)",
            leaves.len()
        )));
    };
    let sides = match leaves.len() {
        l if l == n => 1,
        l if l == 2 * n => 2,
        l => {
            return Err(Fail::counts(format!(
                "{l} leaves for {n} spines: LSFT({q}) has {n} leaves (one-sided) or {} (two-sided)",
                2 * n
            )))
        }
    };
    if !is_prime_power(q) {
        return Err(Fail::counts(format!(
            "{n} spines would make an LSFT of order {q}, which is not a prime power: there is no PG(2,{q}) to map it to"
        )));
    }
    let d = q as usize + 1;
    g.require_single_cables()?;
    for &a in leaves {
        if g.degree(a) != d {
            return Err(Fail::structure(format!(
                "leaf {} has {} spines, expected q+1 = {d}",
                g.name(a),
                g.degree(a)
            )));
        }
        if g.hosts_of(a).len() > d {
            return Err(Fail::structure(format!(
                "leaf {} has {} hosts, at most q+1 = {d}",
                g.name(a),
                g.hosts_of(a).len()
            )));
        }
    }
    for &b in spines {
        if g.degree(b) != d * sides {
            return Err(Fail::structure(format!(
                "spine {} has {} leaves, expected {}",
                g.name(b),
                g.degree(b),
                d * sides
            )));
        }
    }
    Ok((q, sides))
}

/// Step 3: the points, classes of leaves with the same spines (pairs when two-sided, in
/// GUID order), and the point-line incidence with spines as lines.
fn pair_points(
    g: &SwitchGraph<'_>,
    leaves: &[u32],
    spines: &[u32],
    q: u32,
    sides: usize,
) -> Result<(Vec<Vec<u32>>, Incidence), Fail> {
    let s = g.len();
    let d = q as usize + 1;
    let mut line_of = vec![NONE; s];
    for (i, &b) in spines.iter().enumerate() {
        line_of[b as usize] = i as u32;
    }
    let keyed: Vec<(u32, Vec<u32>)> = leaves
        .iter()
        .map(|&a| {
            let mut v: Vec<u32> = g.neighbours(a).iter().map(|&b| line_of[b as usize]).collect();
            v.sort_unstable();
            (a, v)
        })
        .collect();
    let classes = crate::recognize::graph::group_by_key(&keyed);
    if let Some(c) = classes.iter().find(|c| c.len() != sides) {
        let names = g.names(c);
        return Err(Fail::structure(if sides == 1 {
            format!("leaves {} have the same {d} spines", names.join(" and "))
        } else if c.len() == 1 {
            format!(
                "leaf {} has no twin: a two-sided LSFT has two leaves with the same spines at every point",
                names[0]
            )
        } else {
            format!(
                "leaves {} have the same spines: a two-sided LSFT pairs exactly two leaves per point",
                names.join(", ")
            )
        }));
    }
    let npts = spines.len();
    let mut pt_lines = vec![0u32; npts * d];
    let mut point_of = vec![NONE; s];
    let mut key_of = vec![NONE; s];
    for (i, k) in keyed.iter().enumerate() {
        key_of[k.0 as usize] = i as u32;
    }
    for (p, c) in classes.iter().enumerate() {
        let v = &keyed[key_of[c[0] as usize] as usize].1;
        pt_lines[p * d..(p + 1) * d].copy_from_slice(v);
        for &x in c {
            point_of[x as usize] = p as u32;
        }
    }
    let mut ln_pts = vec![0u32; npts * d];
    for (l, &b) in spines.iter().enumerate() {
        let mut v: Vec<u32> = g.neighbours(b).iter().map(|&a| point_of[a as usize]).collect();
        v.sort_unstable();
        v.dedup();
        if v.len() != d {
            return Err(Fail::structure(format!(
                "spine {} reaches {} points (leaf pairs), expected {d}",
                g.name(b),
                v.len()
            )));
        }
        ln_pts[l * d..(l + 1) * d].copy_from_slice(&v);
    }
    let inc = Incidence {
        q,
        n: npts as u32,
        pt_lines,
        ln_pts,
    };
    Ok((classes, inc))
}

/// Step 4: any two points share exactly one line (spine), which makes the incidence a
/// projective plane of order q.
fn check_one_shared_spine(
    g: &SwitchGraph<'_>,
    spines: &[u32],
    classes: &[Vec<u32>],
    inc: &Incidence,
) -> Result<(), Fail> {
    let npts = inc.n as usize;
    let d = inc.q as usize + 1;
    let (pt_lines, ln_pts) = (&inc.pt_lines, &inc.ln_pts);
    let mut count = vec![0u32; npts];
    let mut stamp = vec![NONE; npts];
    for p in 0..npts {
        for &l in &pt_lines[p * d..(p + 1) * d] {
            for &r in &ln_pts[l as usize * d..(l as usize + 1) * d] {
                if stamp[r as usize] != p as u32 {
                    stamp[r as usize] = p as u32;
                    count[r as usize] = 0;
                }
                count[r as usize] += 1;
            }
        }
        for r in 0..npts {
            if r == p {
                continue;
            }
            let shared = if stamp[r] == p as u32 { count[r] } else { 0 };
            if shared != 1 {
                let (a, b) = (classes[p][0], classes[r][0]);
                let common: Vec<u32> = pt_lines[p * d..(p + 1) * d]
                    .iter()
                    .filter(|l| pt_lines[r * d..(r + 1) * d].contains(l))
                    .map(|&l| spines[l as usize])
                    .collect();
                let common = g.names(&common);
                return Err(Fail::structure(if shared == 0 {
                    format!(
                        "leaves {} and {} share no spine (in an LSFT any two leaves share exactly one)",
                        g.name(a),
                        g.name(b)
                    )
                } else {
                    format!(
                        "leaves {} and {} share {shared} spines ({}); in an LSFT any two leaves share exactly one",
                        g.name(a),
                        g.name(b),
                        common.join(", ")
                    )
                }));
            }
        }
    }
    Ok(())
}

/// Step 5: map the plane onto the canonical PG(2,q) ([`crate::families::lsft::recognize_plane`]).
pub(crate) fn map_onto_pg(inc: &Incidence) -> Result<(Plane, Collineation), Fail> {
    let q = inc.q;
    let plane = Plane::new(q).map_err(|e| Fail::counts(e.to_string()))?;
    let iso = match to_canonical(inc, &plane, ISO_BUDGET) {
        Ok(iso) => iso,
        Err(IsoFailure::NotDesarguesian) => {
            return Err(Fail::geometry(format!(
                "the leaves and spines form a projective plane of order {q} that is not isomorphic to PG(2,{q}) \
                 (a non-Desarguesian plane): no mapping onto the coordinates exists"
            )))
        }
        Err(IsoFailure::Budget) => {
            return Err(Fail::geometry(format!(
                "gave up mapping the projective plane of order {q} onto PG(2,{q}) after {ISO_BUDGET} search steps"
            )))
        }
        Err(IsoFailure::NoQuadrangle) => {
            return Err(Fail::geometry(format!(
                "the leaves and spines have no four points in general position: not a projective plane of order {q}"
            )))
        }
    };
    Ok((plane, iso))
}

/// Step 6: place leaves, spines and hosts at their canonical coordinates and let
/// [`LsftLayout::resolve`] build the layout routing uses.
fn resolve_layout(
    g: &SwitchGraph<'_>,
    plane: Plane,
    sides: usize,
    classes: &[Vec<u32>],
    spines: &[u32],
    iso: &Collineation,
) -> Result<Layout, Fail> {
    let npts = spines.len();
    let mut leaf_nodes: Vec<NodeId> = vec![0; sides * npts];
    for (p, c) in classes.iter().enumerate() {
        // classes list leaves in GUID order: the lower GUID is side 0 (`a`)
        for (side, &a) in c.iter().enumerate() {
            leaf_nodes[side * npts + iso.phi[p] as usize] = g.switches[a as usize];
        }
    }
    let mut spine_nodes: Vec<NodeId> = vec![0; npts];
    for (l, &b) in spines.iter().enumerate() {
        spine_nodes[iso.psi[l] as usize] = g.switches[b as usize];
    }
    let mut host_slots: Vec<(u32, u32, Endpoint)> = Vec::with_capacity(g.hosts.len());
    for (li, &node) in leaf_nodes.iter().enumerate() {
        let a = g.sw_of[node as usize];
        host_slots.extend(g.host_slots(a).map(|(j, ep)| (li as u32, j, ep)));
    }
    let layout = LsftLayout::resolve(g.fabric, plane, sides as u32, leaf_nodes, spine_nodes, &host_slots)
        .map_err(|e| Fail::layout(e.to_string()))?;
    Ok(Layout::Lsft(layout))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_from_counts() {
        assert_eq!(order_of(7), Some(2));
        assert_eq!(order_of(13), Some(3));
        assert_eq!(order_of(307), Some(17));
        assert_eq!(order_of(43), Some(6));
        assert_eq!(order_of(8), None);
        assert_eq!(order_of(3), None);
    }
}
