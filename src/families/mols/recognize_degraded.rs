//! Recognising a degraded MOLS proximity 3-level tree: the intact family minus some
//! bottom–middle and middle–top cables and whole middle or top switches.
//!
//! The intact recogniser ([`crate::families::mols::recognize`]) finds planes from twin tops and pods from the
//! colouring of the "share a middle" structure; a cut cable or a dead switch breaks both.
//! Rather than a second labelling procedure, this one **completes** the fabric back to an
//! intact tree and hands the completion to the intact recogniser, so the labels are the
//! intact ones by construction:
//! 1. **Levels**: bottoms are the switches with hosts; middles are one cable from a bottom,
//!    tops two. Every cable joins neighbouring levels; n² bottoms give the arity n (a dead
//!    bottom is not recognised); each of the other levels has at most n² and at least half
//!    of them alive.
//! 2. **Planes**: middles that share a top are in one plane (union over every top's
//!    middles). There must be n planes, each with at most n middles and n tops and at
//!    least one top (a middle with every top cable cut cannot be placed).
//! 3. **Middle–top cables**: in a plane every middle is cabled to every top; the missing
//!    pairs are added back, and a plane short of tops or middles gets the dead ones as
//!    stand-in switches (GUIDs above every real one, so they sort last, as a switch that
//!    does not answer would).
//! 4. **Bottom–middle cables**: every bottom meets one middle per plane. Bottoms missing
//!    plane P are given to P's middles with free slots (a dead middle has n). When that
//!    choice is ambiguous (several such bottoms), each way is tried, in GUID order, and the
//!    first whose completion the intact recogniser accepts as a named wiring (standard,
//!    basic, mols) wins — a wrong pairing breaks the wiring's proximity profile; otherwise
//!    the first it accepts at all. At most [`MAX_COMPLETIONS`] ways are tried.
//!
//! The holes are then the canonical cables of the completed layout that the real fabric
//! does not have, and the stand-ins ([`crate::topology::degraded::DEAD`]). Faults reuse
//! [`Fault::MissingTreeCable`] and [`Fault::DeadSwitch`] with MOLS positions `B(pod,colour)`,
//! `M(plane,row)`, `T(plane,index)`. With cut cables only, the labels are the intact ones
//! exactly; a dead switch's stand-in takes the last GUID of its plane, which may renumber
//! the rows (or tops) after it.

use crate::families::mols::model_holes::MolsHoles;
use crate::families::Family;
use crate::recognize::graph::{SwitchGraph, NONE};
use crate::recognize::Fail;
use crate::recognize::{Degraded, Fault};
use crate::topology::degraded::{Holes, DEAD};
use crate::topology::{Fabric, Layout, MolsLayout, NodeId, NodeKind, Wiring};

/// Most ways of completing the bottom–middle cables tried (step 4 of the module doc).
pub(crate) const MAX_COMPLETIONS: usize = 256;

/// Levels, planes and what is missing: steps 1–3 of the module doc.
struct Shape {
    n: u32,
    /// Real middles and tops of every plane (graph indices, GUID order).
    mids: Vec<Vec<u32>>,
    tops: Vec<Vec<u32>>,
    /// Bottoms lacking a middle in every plane.
    missing: Vec<Vec<u32>>,
    /// Bottom cables of every middle (graph index).
    bottoms_of: Vec<u32>,
}

/// Recognise a degraded MOLS 3-level tree (module doc); `Err` with the reason when the
/// fabric is too far from one, `Err("intact")` when nothing is missing.
pub(crate) fn mols(g: &SwitchGraph<'_>) -> Result<Degraded, Fail> {
    let shape = shape(g)?;
    let n = shape.n;
    // stand-ins and middle–top cables: the base every completion starts from
    let mut base = g.fabric.clone();
    let real = g.fabric.len();
    let mut guid = u64::MAX;
    let mut add = |f: &mut Fabric, what: &str, p: usize, k: u32| -> Result<NodeId, Fail> {
        guid -= 1;
        f.add_node(NodeKind::Switch, 2 * n, guid, format!("dead-{what}{p}-{k}"), "")
            .map_err(|e| Fail::layout(e.to_string()))
    };
    let mut mid_nodes: Vec<Vec<NodeId>> = Vec::new();
    for p in 0..n as usize {
        let mut ms: Vec<NodeId> = shape.mids[p].iter().map(|&m| g.switches[m as usize]).collect();
        let mut ts: Vec<NodeId> = shape.tops[p].iter().map(|&t| g.switches[t as usize]).collect();
        for k in ts.len() as u32..n {
            ts.push(add(&mut base, "top", p, k)?);
        }
        for k in ms.len() as u32..n {
            ms.push(add(&mut base, "middle", p, k)?);
        }
        for &m in &ms {
            for &t in &ts {
                if !cabled(&base, m, t) {
                    cable(&mut base, m, t)?;
                }
            }
        }
        mid_nodes.push(ms);
    }
    // bottom–middle completions: per plane, every way of giving the missing bottoms slots
    let mut ways: Vec<Vec<Vec<usize>>> = Vec::new();
    let mut bins_of: Vec<Vec<NodeId>> = Vec::new();
    for (p, plane_mids) in mid_nodes.iter().enumerate() {
        let mut bins = Vec::new();
        let mut caps = Vec::new();
        for (i, &node) in plane_mids.iter().enumerate() {
            let used = shape.mids[p].get(i).map_or(0, |&m| shape.bottoms_of[m as usize]);
            if used < n {
                bins.push(node);
                caps.push(n - used);
            }
        }
        let free: u32 = caps.iter().sum();
        if free as usize != shape.missing[p].len() {
            return Err(Fail::structure(format!(
                "plane {p}: its middles lack {free} bottom cables but {} bottoms lack a middle there",
                shape.missing[p].len()
            )));
        }
        let first_virtual = shape.mids[p].len();
        let virtual_from = bins.iter().position(|&b| b as usize >= real).unwrap_or(bins.len());
        debug_assert!(virtual_from <= first_virtual);
        let mut out = Vec::new();
        let mut cur = Vec::new();
        assign(&shape.missing[p], n, &mut caps, virtual_from, &mut cur, &mut out);
        if out.len() > MAX_COMPLETIONS {
            return Err(too_many());
        }
        ways.push(out);
        bins_of.push(bins);
    }
    let total = ways.iter().try_fold(1usize, |acc, w| acc.checked_mul(w.len().max(1)));
    if total.is_none() || total > Some(MAX_COMPLETIONS) {
        return Err(too_many());
    }
    let mut pick = vec![0usize; n as usize];
    let (mut fallback, mut last_fail): (Option<MolsLayout>, Option<Fail>) = (None, None);
    loop {
        let mut f = base.clone();
        for p in 0..n as usize {
            if let Some(way) = ways[p].get(pick[p]) {
                for (&b, &bin) in shape.missing[p].iter().zip(way) {
                    cable(&mut f, g.switches[b as usize], bins_of[p][bin])?;
                }
            }
        }
        let cg = SwitchGraph::new(&f).map_err(Fail::layout)?;
        match crate::families::mols::recognize::recognize(&cg) {
            Ok(Layout::Mols(l)) if l.wiring != Wiring::Custom => return holes(g.fabric, l),
            Ok(Layout::Mols(l)) => {
                fallback.get_or_insert(l);
            }
            Ok(_) => {}
            Err(e) => last_fail = Some(e),
        }
        // next way, mixed radix
        let mut p = 0;
        while p < n as usize {
            pick[p] += 1;
            if pick[p] < ways[p].len() {
                break;
            }
            pick[p] = 0;
            p += 1;
        }
        if p == n as usize {
            break;
        }
    }
    match fallback {
        Some(l) => holes(g.fabric, l),
        None => Err(last_fail.unwrap_or_else(|| Fail::structure("no completion to an intact tree".into()))),
    }
}

fn too_many() -> Fail {
    Fail::structure(format!(
        "more than {MAX_COMPLETIONS} ways to put back the missing bottom cables: too far from an intact tree"
    ))
}

/// Every way of giving `bottoms` (in order) a bin with capacity left; stand-in bins (from
/// `virtual_from` on) are interchangeable, so one is opened only after the one before it.
fn assign(
    bottoms: &[u32],
    n: u32,
    caps: &mut [u32],
    virtual_from: usize,
    cur: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if out.len() > MAX_COMPLETIONS {
        return;
    }
    if cur.len() == bottoms.len() {
        out.push(cur.clone());
        return;
    }
    for k in 0..caps.len() {
        if caps[k] == 0 || (k > virtual_from && caps[k - 1] == n) {
            continue;
        }
        caps[k] -= 1;
        cur.push(k);
        assign(bottoms, n, caps, virtual_from, cur, out);
        cur.pop();
        caps[k] += 1;
    }
}

fn cabled(f: &Fabric, a: NodeId, b: NodeId) -> bool {
    (1..=f.node(a).nports).any(|p| f.peer(a, p).is_some_and(|(x, _)| x == b))
}

/// Cable `a` to `b` on the lowest free port of each.
fn cable(f: &mut Fabric, a: NodeId, b: NodeId) -> Result<(), Fail> {
    let free = |f: &Fabric, x: NodeId| {
        (1..=f.node(x).nports)
            .find(|&p| f.peer(x, p).is_none())
            .ok_or_else(|| Fail::structure(format!("{} has no free port for a missing cable", f.node(x).name)))
    };
    let (pa, pb) = (free(f, a)?, free(f, b)?);
    f.connect(a, pa as u32, b, pb as u32)
        .map_err(|e| Fail::layout(e.to_string()))
}

/// Steps 1 and 2 of the module doc.
fn shape(g: &SwitchGraph<'_>) -> Result<Shape, Fail> {
    let s = g.len();
    let bottoms: Vec<u32> = (0..s as u32).filter(|&a| !g.hosts_of(a).is_empty()).collect();
    if bottoms.is_empty() {
        return Err(Fail::counts("no switch has hosts".into()));
    }
    let nb = bottoms.len() as u32;
    let n = (nb as f64).sqrt().round() as u32;
    if n < 2 || n * n != nb {
        return Err(Fail::counts(format!(
            "{nb} switches have hosts; a MOLS 3-level tree of arity n has n² bottoms (4, 9, 16, 25, ...)"
        )));
    }
    let dist = g.distances(&bottoms);
    let mut level = vec![0u32; s];
    for a in 0..s {
        if dist[a] > 2 {
            return Err(Fail::structure(format!(
                "switch {} is {} from the bottoms; a 3-level tree has middles one cable away and tops two",
                g.name(a as u32),
                if dist[a] == NONE {
                    "not connected".to_string()
                } else {
                    format!("{} cables", dist[a])
                }
            )));
        }
        level[a] = dist[a] + 1;
    }
    crate::families::pgft::recognize::check_adjacent_levels(g, &level)?;
    g.require_single_cables()?;
    let at = |l: u32| -> Vec<u32> { (0..s as u32).filter(|&a| level[a as usize] == l).collect() };
    let (middles, tops) = (at(2), at(3));
    for (what, count) in [("middle", middles.len() as u32), ("top", tops.len() as u32)] {
        if count > n * n || 2 * count < n * n {
            return Err(Fail::counts(format!(
                "{count} {what} switches; a {n}-ary MOLS 3-level tree has {} (at least half must be alive)",
                n * n
            )));
        }
    }
    let up = |a: u32, l: u32| g.neighbours(a).iter().filter(|&&x| level[x as usize] == l).count() as u32;
    for &b in &bottoms {
        if g.hosts_of(b).len() as u32 > n || up(b, 2) > n {
            return Err(Fail::structure(format!(
                "bottom {} has {} hosts and {} middles; at most {n} each",
                g.name(b),
                g.hosts_of(b).len(),
                up(b, 2)
            )));
        }
    }
    let mut bottoms_of = vec![0u32; s];
    for &m in &middles {
        bottoms_of[m as usize] = up(m, 1);
        if up(m, 1) > n || up(m, 3) > n {
            return Err(Fail::structure(format!(
                "middle {} has {} bottoms and {} tops; at most {n} each",
                g.name(m),
                up(m, 1),
                up(m, 3)
            )));
        }
    }
    // planes: middles sharing a top
    let mut root: Vec<u32> = (0..s as u32).collect();
    fn find(root: &mut [u32], mut x: u32) -> u32 {
        while root[x as usize] != x {
            root[x as usize] = root[root[x as usize] as usize];
            x = root[x as usize];
        }
        x
    }
    for &t in &tops {
        let ms = g.neighbours(t);
        for &m in &ms[1..] {
            let (a, b) = (find(&mut root, ms[0]), find(&mut root, m));
            root[a.max(b) as usize] = a.min(b);
        }
    }
    let mut plane_of = vec![NONE; s];
    let mut mids: Vec<Vec<u32>> = Vec::new();
    let mut roots: Vec<u32> = Vec::new();
    for &m in &middles {
        let r = find(&mut root, m);
        let p = match roots.iter().position(|&x| x == r) {
            Some(p) => p,
            None => {
                roots.push(r);
                mids.push(Vec::new());
                roots.len() - 1
            }
        };
        plane_of[m as usize] = p as u32;
        mids[p].push(m);
    }
    let mut tops_of: Vec<Vec<u32>> = vec![Vec::new(); mids.len()];
    for &t in &tops {
        tops_of[plane_of[g.neighbours(t)[0] as usize] as usize].push(t);
    }
    if let Some(p) = (0..mids.len()).find(|&p| tops_of[p].is_empty()) {
        return Err(Fail::structure(format!(
            "middle {} shares no top with another middle: its plane cannot be told",
            g.name(mids[p][0])
        )));
    }
    if mids.len() as u32 != n || mids.iter().chain(&tops_of).any(|x| x.len() as u32 > n) {
        return Err(Fail::structure(format!(
            "the middles fall into {} planes by their tops (sizes {:?}); a {n}-ary tree has {n} planes of at most {n} middles and {n} tops",
            mids.len(),
            mids.iter().map(|x| x.len()).collect::<Vec<_>>()
        )));
    }
    let mut missing: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
    for &b in &bottoms {
        let mut seen = vec![false; n as usize];
        for &m in g.neighbours(b) {
            let p = plane_of[m as usize] as usize;
            if seen[p] {
                return Err(Fail::structure(format!(
                    "bottom {} has two middles in one plane (one is {}): every bottom meets one middle per plane",
                    g.name(b),
                    g.name(m)
                )));
            }
            seen[p] = true;
        }
        for (p, _) in seen.iter().enumerate().filter(|x| !*x.1) {
            missing[p].push(b);
        }
    }
    Ok(Shape {
        n,
        mids,
        tops: tops_of,
        missing,
        bottoms_of,
    })
}

/// The holes of the real fabric in a completed layout (module doc, last paragraph).
fn holes(real: &Fabric, mut l: MolsLayout) -> Result<Degraded, Fail> {
    let n = l.n;
    let nu = n as usize;
    let len = real.len() as NodeId;
    for x in l.middles.iter_mut().chain(l.tops.iter_mut()) {
        if *x >= len {
            *x = DEAD;
        }
    }
    let has = |a: NodeId, port: u8, b: NodeId| a != DEAD && b != DEAD && real.peer(a, port).is_some_and(|x| x.0 == b);
    let mut faults = Vec::new();
    let mut dead = 0;
    let mut h = MolsHoles { layout: l.clone() };
    for m in 0..n * n {
        if l.middles[m as usize] == DEAD {
            dead += 1;
            faults.push(Fault::DeadSwitch {
                position: h.middle_pos(m),
            });
        }
    }
    for t in 0..n * n {
        if l.tops[t as usize] == DEAD {
            dead += 1;
            faults.push(Fault::DeadSwitch { position: h.top_pos(t) });
        }
    }
    let mut cables = Vec::new();
    for b in 0..n * n {
        for u in 0..n {
            let m = h.middle_of(b, u);
            let (bn, mn) = (l.bottoms[b as usize], l.middles[m as usize]);
            if !has(bn, l.b_up[(b * n + u) as usize], mn) {
                h.layout.b_up[(b * n + u) as usize] = 0;
                h.layout.m_down[(m * n + b % n) as usize] = 0;
                if mn != DEAD {
                    cables.push((bn, h.bottom_pos(b), mn, h.middle_pos(m)));
                }
            }
        }
    }
    for m in 0..n * n {
        let (u, r) = (m / n, m % n);
        for t in 0..n {
            let ti = u * n + t;
            let (mn, tn) = (l.middles[m as usize], l.tops[ti as usize]);
            if !has(mn, l.m_up[m as usize * nu + t as usize], tn) {
                h.layout.m_up[m as usize * nu + t as usize] = 0;
                h.layout.t_down[(ti * n + r) as usize] = 0;
                if mn != DEAD && tn != DEAD {
                    cables.push((mn, h.middle_pos(m), tn, h.top_pos(ti)));
                }
            }
        }
    }
    let cut = cables.len();
    faults.extend(
        cables
            .into_iter()
            .map(|(lower, lower_pos, upper, upper_pos)| Fault::MissingTreeCable {
                lower,
                lower_pos,
                upper,
                upper_pos,
            }),
    );
    if faults.is_empty() {
        return Err(Fail::structure("intact".into()));
    }
    l = h.layout;
    let wiring = l.wiring;
    Ok(Degraded {
        family: Family::Mols,
        order: n,
        description: format!(
            "{} arity {n} wiring {wiring}, degraded: {cut} missing cables, {dead} dead switches",
            Family::Mols.long_name()
        ),
        faults,
        holes: Holes::Mols(MolsHoles { layout: l }),
    })
}
