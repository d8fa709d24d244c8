//! Recognising a full mesh of switches: every switch cabled to every other by the same
//! number W of cables, hosts on any switch.
//!
//! The switch graph alone decides: N ≥ 3 switches, W cables between every two of them and
//! none from a switch to itself. A mesh with cables missing (at most a quarter of the pairs
//! short of W, every switch still cabled) is recognised as that mesh with the missing
//! cables listed as faults ([`FullmeshLayout::cut`]); its routes go around them. A full mesh has every permutation of its
//! switches as an automorphism, so the canonical order is GUID order (the switch graph's
//! order) and a switch's hosts take its slots in ascending port order: deterministic,
//! whatever order the discovery listed the nodes in. H is the most hosts on any switch.

use crate::recognize::graph::SwitchGraph;
use crate::recognize::Fail;
use crate::topology::{FullmeshLayout, Layout};

/// Recognise a full mesh (see the module documentation).
pub(crate) fn recognize(g: &SwitchGraph<'_>) -> Result<Layout, Fail> {
    let n = g.len() as u32;
    if n < 3 {
        return Err(Fail::counts(format!("{n} switches; a full mesh has at least 3")));
    }
    // cables per pair; W = the most any pair has
    let mut count = vec![0u32; (n * n) as usize];
    for s in 0..n {
        for &t in g.neighbours(s) {
            if t == s {
                return Err(Fail::structure(format!("switch {} is cabled to itself", g.name(s))));
            }
            count[(s * n + t) as usize] += 1;
        }
    }
    let w = count.iter().copied().max().unwrap_or(0);
    if w == 0 {
        return Err(Fail::counts("no switch-to-switch cables".into()));
    }
    let pairs = (n * (n - 1) / 2) as usize;
    let mut short_pairs = 0usize;
    let mut first_short = None;
    for s in 0..n {
        for t in s + 1..n {
            let c = count[(s * n + t) as usize];
            if c < w {
                short_pairs += 1;
                first_short.get_or_insert((s, t, c));
            }
        }
    }
    // a degraded mesh: a few cables missing (at most a quarter of the pairs short, every
    // switch still cabled to some other); anything further is another family
    if let Some((s, t, c)) = first_short {
        let isolated = (0..n).find(|&s| g.degree(s) == 0);
        if short_pairs * 4 > pairs || isolated.is_some() {
            return Err(Fail::structure(match isolated {
                Some(i) => format!("switch {} has no switch cable", g.name(i)),
                None => format!(
                    "switches {} and {} are joined by {c} cables, most pairs by {w} ({short_pairs} of {pairs} pairs short): not a full mesh",
                    g.name(s),
                    g.name(t)
                ),
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
    FullmeshLayout::resolve_with(g.fabric, w, h, g.switches.clone(), hosts, first_short.is_some())
        .map(Layout::Fullmesh)
        .map_err(|e| Fail::layout(e.to_string()))
}
