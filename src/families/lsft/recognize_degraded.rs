//! Recognising a degraded fabric: a known family minus some cables or switches.
//!
//! Large fabrics always have something down, and an operator needs to hear "LSFT(13)
//! with 3 cables missing, at these coordinates", not "unrecognised". This module covers
//! the LSFT, one- and two-sided (trees: [`crate::families::pgft::recognize_degraded`]); the structure it hands
//! on ([`LsftHoles`]) is what the degraded router needs (`docs/recognition.md`, issue 12).
//!
//! LSFT(q): leaves are points and spines lines of a projective plane; with
//! cables cut the incidence has holes, with a switch dead a whole point or line is gone.
//! The plane is completed from what survives:
//! 1. **Cut cables.** A leaf P that is truly on spine L but lost the cable shares no other
//!    spine with any leaf L still reaches (every other line through P meets L only at P),
//!    while a leaf off L shares a spine with each of them (the lines joining it to L's
//!    points) unless those cables are cut too. So (P, L) is restored when P has fewer
//!    than q+1 spines, L reaches at least two leaves, and P is joined to none of them —
//!    unambiguous restorations first ([`cut_cables`]), repeated until nothing changes.
//!    A spine with a single cable left (to P) is completed by the group of pairwise
//!    unjoined leaves that P is unjoined with (step 1b, [`complete_single`]).
//! 2. **Dead spines.** Leaves still pairwise unjoined lie on a line whose spine is gone: P
//!    and every leaf unjoined with P form it (checked pairwise).
//! 3. **Dead leaves.** Spines reaching only q leaves meet, q+1 at a time, at a point whose
//!    leaf is gone: groups of such spines sharing no surviving leaf.
//!
//! **Two-sided.** Both leaves of a point are on the point's q+1 lines, so two leaves
//! sharing two or more spines are the two copies of one point (leaves of different points
//! share at most one spine); such pairs make the LSFT two-sided ([`point_classes`], the
//! lower GUID is side a as in the intact recogniser). The completion then runs on points,
//! not leaves — a point's lines are the union of its leaves' spines, so it lacks a line
//! only when both leaves lost that spine or the spine is dead — and every leaf's missing
//! cables are read against its point's completed lines. A point with one leaf left names
//! that leaf side a and reports side b dead. Faults name the side after the point
//! (`P(1,2)a`, `P(1,2)b`). Two leaves of a point that keep at most one common spine are
//! paired afterwards, when there are more points than the plane has, if their spines fit
//! on one point and no other lone leaf's do ([`pair_lone_leaves`]); outside the bound: two
//! such pairs that could swap partners.
//!
//! The completion must then be a projective plane of order q (any two points on exactly
//! one line) and map onto PG(2,q) like an intact fabric; otherwise the fabric is too far
//! from an LSFT and recognition reports the intact recogniser's reason. At most q dead
//! switches per level are considered.

use crate::families::lsft::model_holes::LsftHoles;
use crate::families::lsft::recognize_plane::Incidence;
use crate::families::Family;
use crate::geometry::is_prime_power;
use crate::recognize::graph::{SwitchGraph, NONE};
use crate::recognize::{Degraded, Fail, Fault};
use crate::topology::degraded::{Holes, DEAD};

/// Lines through each point and points on each line, growable.
struct Partial {
    pl: Vec<Vec<u32>>,
    lp: Vec<Vec<u32>>,
    /// `joined[p * np + r]`: lines p and r share
    joined: Vec<u8>,
    np: usize,
}

impl Partial {
    fn add(&mut self, p: u32, l: u32) {
        for &r in &self.lp[l as usize] {
            self.joined[p as usize * self.np + r as usize] += 1;
            self.joined[r as usize * self.np + p as usize] += 1;
        }
        self.pl[p as usize].push(l);
        self.lp[l as usize].push(p);
    }
    fn unjoined(&self, p: u32, r: u32) -> bool {
        p != r && self.joined[p as usize * self.np + r as usize] == 0
    }
}

/// Leaf `p` may take spine `l`: both short of q+1, `l` reaching at least two leaves, none
/// joined with `p` (a leaf off the line shares a spine with each of them).
fn fits(part: &Partial, p: u32, l: u32, d: usize) -> bool {
    let on = &part.lp[l as usize];
    on.len() >= 2
        && on.len() < d
        && part.pl[p as usize].len() < d
        && !on.contains(&p)
        && on.iter().all(|&r| part.unjoined(p, r))
}

/// Step 1, one round: the (leaf, spine) cables to restore. With several faults a weakly
/// cabled leaf can also fit a spine it is not on (that spine lost the leaf where the two
/// lines cross), so a round restores only what is unambiguous: a spine with no more fitting
/// leaves than it lacks, or a leaf with no more fitting spines than it lacks whose spines
/// reach disjoint leaves (true lines through a point meet only there; an impostor crosses
/// them). When nothing is unambiguous the first fit is taken, and the plane check at the
/// end judges the whole.
fn cut_cables(part: &Partial, nl: u32, ns: u32, d: usize) -> Vec<(u32, u32)> {
    let short_leaves: Vec<u32> = (0..nl).filter(|&p| part.pl[p as usize].len() < d).collect();
    let mut cand = Vec::new();
    for l in (0..ns).filter(|&l| (2..d).contains(&part.lp[l as usize].len())) {
        cand.extend(short_leaves.iter().filter(|&&p| fits(part, p, l, d)).map(|&p| (p, l)));
    }
    let (mut per_leaf, mut per_line) = (vec![0usize; part.np], vec![0usize; part.np]);
    for &(p, l) in &cand {
        per_leaf[p as usize] += 1;
        per_line[l as usize] += 1;
    }
    let lacks = |v: &Vec<Vec<u32>>, i: u32| d - v[i as usize].len();
    let disjoint = |p: u32| {
        let lines: Vec<u32> = cand.iter().filter(|c| c.0 == p).map(|c| c.1).collect();
        lines.iter().enumerate().all(|(i, &a)| {
            lines[i + 1..]
                .iter()
                .all(|&b| part.lp[a as usize].iter().all(|x| !part.lp[b as usize].contains(x)))
        })
    };
    let sure: Vec<(u32, u32)> = cand
        .iter()
        .copied()
        .filter(|&(p, l)| {
            per_line[l as usize] <= lacks(&part.lp, l) || (per_leaf[p as usize] <= lacks(&part.pl, p) && disjoint(p))
        })
        .collect();
    if sure.is_empty() {
        cand.truncate(1);
        cand
    } else {
        sure
    }
}

/// Step 1b: spine `l` reaches only leaf `r`. Its other leaves are among those unjoined
/// with `r`; those form one group of pairwise unjoined leaves per line through `r` that has
/// lost its spine or r's cable (cut cables restored by step 1 no longer count). Any group
/// is a consistent completion — the lines through `r` are interchangeable from what
/// survives — so the first one that fits on a line (at most q leaves) is taken; anything
/// else is left for step 2 to judge. Returns the leaves added to `l`.
fn complete_single(part: &mut Partial, l: u32, r: u32, nl: u32, d: usize) -> Vec<u32> {
    let open: Vec<u32> = (0..nl)
        .filter(|&p| part.pl[p as usize].len() < d && part.unjoined(r, p))
        .collect();
    let Some(&first) = open.first() else {
        return Vec::new();
    };
    let group: Vec<u32> = open
        .iter()
        .copied()
        .filter(|&p| p == first || part.unjoined(first, p))
        .collect();
    let pairwise = group
        .iter()
        .all(|&a| group.iter().all(|&b| a == b || part.unjoined(a, b)));
    if !pairwise || group.len() >= d {
        return Vec::new();
    }
    for &p in &group {
        part.add(p, l);
    }
    group
}

/// The points of a degraded LSFT's leaf level: the leaves (switch-graph indices) that
/// serve each point, one per point one-sided, one or two (a twin pair) two-sided, and the
/// number of sides. Two leaves sharing two or more spines are the two copies of one point
/// (leaves of different points share at most one spine); without such a pair the LSFT is
/// one-sided. Fails when a leaf shares two spines with two other leaves.
fn point_classes(g: &SwitchGraph<'_>, leaves: &[u32], spines: &[u32]) -> Result<(Vec<Vec<u32>>, u32), Fail> {
    let mut idx = vec![NONE; g.len()];
    leaves.iter().enumerate().for_each(|(i, &a)| idx[a as usize] = i as u32);
    let mut shared = std::collections::HashMap::<(u32, u32), u32>::new();
    for &b in spines {
        let on: Vec<u32> = g.neighbours(b).iter().map(|&a| idx[a as usize]).collect();
        for (i, &x) in on.iter().enumerate() {
            for &y in &on[i + 1..] {
                *shared.entry((x.min(y), x.max(y))).or_default() += 1;
            }
        }
    }
    let mut twin = vec![NONE; leaves.len()];
    let mut pairs: Vec<(u32, u32)> = shared.into_iter().filter(|&(_, c)| c >= 2).map(|(k, _)| k).collect();
    pairs.sort_unstable();
    for (x, y) in pairs {
        if twin[x as usize] != NONE || twin[y as usize] != NONE {
            let z = if twin[x as usize] != NONE { x } else { y };
            return Err(Fail::structure(format!(
                "leaf {} shares two spines with two other leaves: not an LSFT with faults",
                g.name(leaves[z as usize])
            )));
        }
        twin[x as usize] = y;
        twin[y as usize] = x;
    }
    let sides = if twin.iter().any(|&t| t != NONE) { 2 } else { 1 };
    // classes in leaf order, each pair in leaf (GUID) order: the lower is side 0, as intact
    let classes = (0..leaves.len() as u32)
        .filter(|&i| twin[i as usize] == NONE || twin[i as usize] > i)
        .map(|i| {
            std::iter::once(i)
                .chain((twin[i as usize] != NONE).then_some(twin[i as usize]))
                .map(|x| leaves[x as usize])
                .collect()
        })
        .collect();
    Ok((classes, sides))
}

/// Two-sided, more points than n: the two leaves of a point that lost so many cables that
/// they share at most one spine were left apart. Pair lone leaves whose spines together
/// fit on one point (at most q+1 lines, sharing one), each with exactly one such partner,
/// until n points remain; anything else is left for the completion to judge.
fn pair_lone_leaves(g: &SwitchGraph<'_>, classes: &mut Vec<Vec<u32>>, n: usize, d: usize) {
    if classes.len() <= n {
        return;
    }
    let lone: Vec<usize> = (0..classes.len()).filter(|&c| classes[c].len() == 1).collect();
    let fits = |a: u32, b: u32| {
        let (x, y) = (g.neighbours(a), g.neighbours(b));
        let shared = x.iter().filter(|s| y.contains(s)).count();
        shared <= 1 && x.len() + y.len() - shared <= d
    };
    let partners = |c: usize| {
        lone.iter()
            .copied()
            .filter(|&o| o != c && fits(classes[c][0], classes[o][0]))
            .collect::<Vec<usize>>()
    };
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for &c in &lone {
        if let [o] = partners(c)[..] {
            if c < o && partners(o) == [c] {
                merged.push((c, o));
            }
        }
    }
    for &(c, o) in merged.iter().take(classes.len() - n) {
        let b = classes[o][0];
        classes[c].push(b);
        classes[c].sort_unstable();
    }
    let gone: Vec<usize> = merged.iter().take(classes.len() - n).map(|&(_, o)| o).collect();
    let mut i = 0;
    classes.retain(|_| {
        i += 1;
        !gone.contains(&(i - 1))
    });
}

/// Recognise an LSFT, one- or two-sided, with cut cables, dead spines or dead leaves
/// (module doc). Two-sided, both leaves of a point share its lines: the completion runs on
/// the points (a point lacks a line when both its leaves lost that spine, or the spine
/// died), and each leaf's missing cables are then read against its point's completed lines.
pub(crate) fn lsft(g: &SwitchGraph<'_>) -> Result<Degraded, Fail> {
    let (leaves, spines) = crate::families::lsft::recognize::split_levels(g)?;
    g.require_single_cables()?;
    let (mut classes, sides) = point_classes(g, &leaves, &spines)?;
    let ns = spines.len();
    // two-sided, the order comes from the spines (at most q dead: more than the previous
    // order's count), then leaves left alone pair up if there are more points than that
    let least = if sides == 2 { ns } else { classes.len().max(ns) };
    let q = (2..=256u32)
        .filter(|&q| is_prime_power(q))
        .find(|&q| (q * q + q + 1) as usize >= least)
        .ok_or_else(|| Fail::counts(format!("{ns} spines and {} points: no LSFT order fits", classes.len())))?;
    let (n, d) = ((q * q + q + 1) as usize, q as usize + 1);
    if sides == 2 {
        pair_lone_leaves(g, &mut classes, n, d);
    }
    let nl = classes.len();
    // two-sided, the order comes from the spines alone: the points may be more than it has
    if nl > n || n - ns > q as usize || n - nl > q as usize {
        return Err(Fail::counts(format!(
            "{ns} spines and {nl} points: LSFT({q}) has {n} of each and at most {q} missing"
        )));
    }
    let too_many = |s: u32| g.degree(s) > if leaves.contains(&s) { d } else { d * sides as usize };
    if let Some(&s) = leaves.iter().chain(&spines).find(|&&s| too_many(s)) {
        return Err(Fail::structure(format!(
            "switch {} has {} neighbours, more than LSFT({q}) gives it ({d} per side)",
            g.name(s),
            g.degree(s)
        )));
    }
    let mut point_of = vec![NONE; g.len()];
    for (p, c) in classes.iter().enumerate() {
        c.iter().for_each(|&a| point_of[a as usize] = p as u32);
    }
    let mut part = Partial {
        pl: vec![Vec::new(); n],
        lp: vec![Vec::new(); n],
        joined: vec![0; n * n],
        np: n,
    };
    for (l, &b) in spines.iter().enumerate() {
        let mut pts: Vec<u32> = g.neighbours(b).iter().map(|&a| point_of[a as usize]).collect();
        pts.sort_unstable();
        pts.dedup();
        for p in pts {
            part.add(p, l as u32);
        }
    }
    if part.joined.iter().any(|&c| c > 1) {
        return Err(Fail::structure(
            "two leaves share two spines: not an LSFT with faults".into(),
        ));
    }
    let restored = complete(g, &mut part, &classes, &spines, q)?;
    let sorted = |v: &Vec<Vec<u32>>| -> Vec<u32> {
        v.iter()
            .flat_map(|x| {
                let mut x = x.clone();
                x.sort_unstable();
                x
            })
            .collect()
    };
    let inc = Incidence {
        q,
        n: n as u32,
        pt_lines: sorted(&part.pl),
        ln_pts: sorted(&part.lp),
    };
    let (plane, iso) = crate::families::lsft::recognize::map_onto_pg(&inc)?;
    let pname = |p: u32, side: usize| {
        let suffix = match sides {
            1 => "",
            _ => ["a", "b"][side],
        };
        format!("{}{suffix}", plane.point(iso.phi[p as usize]))
    };
    let lname = |l: u32| plane.line(iso.psi[l as usize]).to_string();
    let missing = |p: u32, side: usize, l: u32| Fault::MissingCable {
        leaf: g.switches[classes[p as usize][side] as usize],
        point: pname(p, side),
        spine: g.switches[spines[l as usize] as usize],
        line: lname(l),
    };
    let mut faults: Vec<Fault> = Vec::new();
    if sides == 1 {
        faults.extend(restored.iter().map(|&(p, l)| missing(p, 0, l)));
    } else {
        // every leaf against its point's completed lines (surviving spines only)
        for (p, c) in classes.iter().enumerate() {
            for (side, &a) in c.iter().enumerate() {
                let mut lost: Vec<u32> = part.pl[p]
                    .iter()
                    .copied()
                    .filter(|&l| (l as usize) < ns && !g.neighbours(a).contains(&spines[l as usize]))
                    .collect();
                lost.sort_unstable();
                faults.extend(lost.into_iter().map(|l| missing(p as u32, side, l)));
            }
        }
    }
    let cables = faults.len();
    faults.extend((ns as u32..n as u32).map(|l| Fault::DeadSpine { line: lname(l) }));
    // a point with one leaf left: that leaf is side a, the lost one side b (the sides of a
    // point are interchangeable; the intact recogniser orders them by GUID)
    let dead_leaves: Vec<(u32, usize)> = (0..n as u32)
        .flat_map(|p| {
            let alive = classes.get(p as usize).map_or(0, |c| c.len());
            (alive..sides as usize).map(move |side| (p, side))
        })
        .collect();
    faults.extend(
        dead_leaves
            .iter()
            .map(|&(p, side)| Fault::DeadLeaf { point: pname(p, side) }),
    );
    if faults.is_empty() {
        return Err(Fail::structure("intact".into()));
    }
    let description = format!(
        "Latin-square fat-tree LSFT({q}) {}, degraded: {cables} missing cables, {} dead spines, {} dead leaves",
        if sides == 1 { "one-sided" } else { "two-sided" },
        n - ns,
        dead_leaves.len()
    );
    let (mut leaf_nodes, mut spine_nodes) = (vec![DEAD; sides as usize * n], vec![DEAD; n]);
    for (p, c) in classes.iter().enumerate() {
        for (side, &a) in c.iter().enumerate() {
            leaf_nodes[side * n + iso.phi[p] as usize] = g.switches[a as usize];
        }
    }
    for (l, &b) in spines.iter().enumerate() {
        spine_nodes[iso.psi[l] as usize] = g.switches[b as usize];
    }
    let holes = LsftHoles::new(g.fabric, plane.clone(), sides, leaf_nodes, spine_nodes);
    Ok(Degraded {
        family: Family::Lsft,
        order: q,
        description,
        faults,
        holes: Holes::Lsft(holes),
    })
}

/// Steps 1–3 of the module doc on the points' incidence `part` (points 0..classes.len()
/// and lines 0..ns survive): restore cut cables, then add the dead spines and leaves as
/// virtual lines and points, and check the result is a projective plane of order q.
/// Returns the restored (point, line) incidences.
fn complete(
    g: &SwitchGraph<'_>,
    part: &mut Partial,
    classes: &[Vec<u32>],
    spines: &[u32],
    q: u32,
) -> Result<Vec<(u32, u32)>, Fail> {
    let (nl, ns, n, d) = (classes.len(), spines.len(), part.np, q as usize + 1);
    let leaf_name = |p: u32| g.name(classes[p as usize][0]);
    // 1. cut cables
    let mut restored: Vec<(u32, u32)> = Vec::new();
    loop {
        let pick = cut_cables(part, nl as u32, ns as u32, d);
        if pick.is_empty() {
            break;
        }
        for (p, l) in pick {
            if fits(part, p, l, d) {
                part.add(p, l);
                restored.push((p, l));
            }
        }
    }
    // 1b. spines with one cable left (a dead spine coming back cable by cable)
    for l in 0..ns as u32 {
        if let [r] = part.lp[l as usize][..] {
            restored.extend(complete_single(part, l, r, nl as u32, d).into_iter().map(|p| (p, l)));
        }
    }
    // 2. dead spines: virtual lines ns.. through pairwise unjoined leaves
    let mut next_line = ns as u32;
    for p in 0..nl as u32 {
        while part.pl[p as usize].len() < d {
            let set: Vec<u32> = std::iter::once(p)
                .chain((0..nl as u32).filter(|&r| part.unjoined(p, r)))
                .collect();
            if set.len() < 2 {
                break;
            }
            let pairwise = set.iter().all(|&a| set.iter().all(|&b| a == b || part.unjoined(a, b)));
            if !pairwise || set.len() > d || next_line as usize >= n {
                return Err(Fail::structure(format!(
                    "leaf {} lacks spines in a way no set of missing cables or spines explains",
                    leaf_name(p)
                )));
            }
            for &a in &set {
                part.add(a, next_line);
            }
            next_line += 1;
        }
    }
    // 3. dead leaves: virtual points nl.. on groups of q+1 deficient lines sharing no leaf
    let mut next_point = nl as u32;
    let mut open: Vec<u32> = (0..next_line).filter(|&l| part.lp[l as usize].len() < d).collect();
    while let Some(&first) = open.first() {
        let mut group = vec![first];
        for &m in &open[1..] {
            let meets = |a: u32, b: u32| part.lp[a as usize].iter().any(|x| part.lp[b as usize].contains(x));
            if group.iter().all(|&x| !meets(x, m)) {
                group.push(m);
            }
        }
        if group.len() != d || next_point as usize >= n {
            return Err(Fail::structure(format!(
                "spine {} reaches {} points, and no missing leaf explains it",
                spines.get(first as usize).map_or("(missing)".into(), |&b| g.name(b)),
                part.lp[first as usize].len()
            )));
        }
        for &l in &group {
            part.add(next_point, l);
        }
        next_point += 1;
        open.retain(|&l| part.lp[l as usize].len() < d);
    }
    // the completion must be a projective plane of order q
    if next_point as usize != n || next_line as usize != n {
        return Err(Fail::counts(format!(
            "completed to {next_point} points and {next_line} lines; LSFT({q}) has {n} of each"
        )));
    }
    for p in 0..n {
        if part.pl[p].len() != d || (0..n).any(|r| r != p && part.joined[p * n + r] != 1) {
            return Err(Fail::structure(format!(
                "after restoring {} cables, {} spines and {} leaves the leaves and spines are still not a projective plane of order {q}",
                restored.len(),
                n - ns,
                n - nl
            )));
        }
    }
    Ok(restored)
}
