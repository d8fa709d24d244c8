//! Recognising a full mesh of switches: every switch cabled to every other by the same
//! number W of cables, hosts on any switch.
//!
//! The switch graph alone decides: N ≥ 3 switches, each with W(N−1) switch cables, W to
//! each other switch and none to itself. A full mesh has every permutation of its
//! switches as an automorphism, so the canonical order is GUID order (the switch graph's
//! order) and a switch's hosts take its slots in ascending port order: deterministic,
//! whatever order the discovery listed the nodes in. H is the most hosts on any switch.

use super::graph::SwitchGraph;
use super::Fail;
use crate::topology::{FullmeshLayout, Layout};

/// Recognise a full mesh (see the module documentation).
pub(super) fn recognize(g: &SwitchGraph<'_>) -> Result<Layout, Fail> {
    let n = g.len() as u32;
    if n < 3 {
        return Err(Fail::counts(format!("{n} switches; a full mesh has at least 3")));
    }
    let d0 = g.degree(0) as u32;
    if d0 == 0 || d0 % (n - 1) != 0 {
        return Err(Fail::counts(format!(
            "switch {} has {d0} switch cables, not a multiple of the {} other switches",
            g.name(0),
            n - 1
        )));
    }
    let w = d0 / (n - 1);
    if let Some(s) = (0..n).find(|&s| g.degree(s) as u32 != d0) {
        return Err(Fail::counts(format!(
            "switch {} has {} switch cables, switch {} has {d0}: a full mesh cables every switch alike",
            g.name(s),
            g.degree(s),
            g.name(0)
        )));
    }
    let mut count = vec![0u32; n as usize];
    for s in 0..n {
        count.iter_mut().for_each(|c| *c = 0);
        for &t in g.neighbours(s) {
            count[t as usize] += 1;
        }
        if let Some(t) = (0..n).find(|&t| count[t as usize] != if t == s { 0 } else { w }) {
            return Err(Fail::structure(if t == s {
                format!("switch {} is cabled to itself", g.name(s))
            } else {
                format!(
                    "switches {} and {} are joined by {} cables, the other pairs by {w}",
                    g.name(s),
                    g.name(t),
                    count[t as usize]
                )
            }));
        }
    }
    let h = (0..n).map(|s| g.hosts_of(s).len() as u32).max().unwrap_or(0);
    if h == 0 {
        return Err(Fail::counts("no switch has hosts".into()));
    }
    let hosts = (0..n)
        .flat_map(|s| g.host_slots(s).map(move |(x, ep)| (s * h + x, ep)))
        .collect();
    FullmeshLayout::resolve(g.fabric, w, h, g.switches.clone(), hosts)
        .map(Layout::Fullmesh)
        .map_err(|e| Fail::layout(e.to_string()))
}
