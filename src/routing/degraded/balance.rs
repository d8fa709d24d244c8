//! Load-aware detours for the family objective: which spine a leaf sends a detoured host
//! slot up to ([`UpLinks`]), and which relay leaf each spine hands it to ([`relays`]),
//! chosen by the flows already on the links they add to.
//!
//! A source leaf's up links carry only its own traffic, so each leaf balances them alone:
//! every up link starts with the destination hosts its family routes reach over it, and
//! each detoured slot goes up the least loaded spine that can pass it on (ties from the
//! (s + d + j) pick on). A leaf that lost a cable sends the hosts behind it over its
//! other spines evenly, where a fixed pick ignored that some of those spines lost family
//! traffic of their own.
//!
//! Why: a spine l1 without a cable to leaf d hands every packet for host slot j of d to
//! one relay leaf m on l1 (tables route by destination), so every source whose detour for
//! (d, j) goes up l1 shares the choice, and the detour then goes l1 → m → join(m, d) → d.
//! Picking m by a fixed formula spreads the entries but not their weight: several spines'
//! picks can meet on one final spine → d link, and one spine's picks for many
//! destinations on one l1 → m link. Here every needed entry (l1, d, j) carries the hosts
//! of the sources whose chosen first spine for (d, j) is l1, and the entries are assigned
//! heaviest first to the relay that keeps the worst of its three links — l1 → m, m →
//! join(m, d) and join(m, d) → d — lowest, ties broken from the formula's pick on so that
//! equal loads spread as before. Which relays qualify is unchanged ([`super::Near`]'s
//! candidates), so the SL rule, the proof and the sources' own choices (their first
//! spine) are too; only the relay, and with it the route's SL, changes.

use super::{relay_sl, Router, SlotChoice};
use crate::topology::degraded::LsftHoles;
use std::collections::HashMap;

/// (spine, destination leaf, slot) → the relay leaf it hands that slot's detours to.
pub(super) type Relays = HashMap<(u32, u32, u32), u32>;

/// Detour flows on the links a relay would add to, indexed by (spine, leaf).
struct Loads {
    nl: usize,
    /// spine → leaf
    down: Vec<u32>,
    /// leaf → spine
    up: Vec<u32>,
}

impl Loads {
    /// The flows of uniform all-to-all (one per pair of hosts) the family routes that
    /// survive put on every link: a leaf pair of two points routes over the line joining
    /// them.
    fn family(r: &Router<'_>, hosts: &[u32]) -> Loads {
        let h = r.h;
        let nl = h.leaf_count() as usize;
        let mut loads = Loads {
            nl,
            down: vec![0; h.plane.size() as usize * nl],
            up: vec![0; h.plane.size() as usize * nl],
        };
        for (l, on) in r.near.by_line.iter().enumerate() {
            for &x in on {
                let reached: u32 = on
                    .iter()
                    .filter(|&&y| h.point(y) != h.point(x) && r.near.intact(x, y))
                    .map(|&y| hosts[y as usize])
                    .sum();
                let at = loads.at(l as u32, x);
                // x sends its hosts' flows to those hosts up this link, and receives theirs
                loads.up[at] = hosts[x as usize] * reached;
                loads.down[at] = hosts[x as usize] * reached;
            }
        }
        loads
    }

    fn at(&self, l: u32, x: u32) -> usize {
        l as usize * self.nl + x as usize
    }
}

/// A source leaf's up links, each with the destination host slots routed over it (family
/// routes, then the detours picked so far).
pub(super) struct UpLinks {
    /// (spine, slots) per surviving up link
    load: Vec<(u32, u32)>,
}

impl UpLinks {
    /// Leaf s's up links with the hosts its family routes reach over each: every leaf of
    /// another point on the spine's line whose route with s survives.
    pub(super) fn new(r: &Router<'_>, s: u32, hosts: &[u32]) -> UpLinks {
        let h = r.h;
        let dd = h.plane.degree() as usize;
        let load = h
            .plane
            .lines_through(h.point(s))
            .iter()
            .enumerate()
            .filter(|&(k, _)| h.leaf_up[s as usize * dd + k] != 0)
            .map(|(_, &l)| {
                let family = r.near.by_line[l as usize]
                    .iter()
                    .filter(|&&x| h.point(x) != h.point(s) && r.near.intact(s, x))
                    .map(|&x| hosts[x as usize])
                    .sum();
                (l, family)
            })
            .collect();
        UpLinks { load }
    }

    /// The candidate (up port, relay, spine) slot j of d goes up: the least loaded, the
    /// first from (s + d + j) on among equals; counted on its link.
    pub(super) fn pick(&mut self, s: u32, d: u32, j: u32, cands: &[(u8, u32, u32)]) -> usize {
        let n = cands.len();
        let first = (s + d + j) as usize % n;
        let load_of = |l: u32, load: &[(u32, u32)]| load.iter().position(|&(x, _)| x == l);
        let mut best = (u32::MAX, first, usize::MAX);
        for k in 0..n {
            let i = (first + k) % n;
            if let Some(at) = load_of(cands[i].2, &self.load) {
                if self.load[at].1 < best.0 {
                    best = (self.load[at].1, i, at);
                }
            }
        }
        if best.2 != usize::MAX {
            self.load[best.2].1 += 1;
        }
        best.1
    }
}

/// Choose the relay of every spine entry the one-turn choices in `slots` go through, and
/// rewrite those choices (relay and SL) to match. `hosts[s]`: the hosts of leaf s (the
/// flows one of its slots sends).
pub(super) fn relays(r: &Router<'_>, slots: &mut [SlotChoice], hosts: &[u32]) -> Relays {
    let h = r.h;
    // the weight of each needed entry: hosts of the sources that go up to it
    let mut weight: HashMap<(u32, u32, u32), u32> = HashMap::new();
    for &(s, d, j, c) in slots.iter() {
        if let Some((_, _, l1, m)) = c {
            if m != d {
                *weight.entry((l1, d, j)).or_default() += hosts[s as usize].max(1);
            }
        }
    }
    if weight.is_empty() {
        return Relays::new();
    }
    let mut entries: Vec<((u32, u32, u32), u32)> = weight.into_iter().collect();
    // heaviest first; equal weights in a fixed order (the map's is not)
    entries.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut loads = Loads::family(r, hosts);
    // the detours' first hops, as the sources chose them
    for &(s, _, _, c) in slots.iter() {
        if let Some((_, _, l1, _)) = c {
            let at = loads.at(l1, s);
            loads.up[at] += hosts[s as usize];
        }
    }
    let mut options: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    let mut chosen = Relays::with_capacity(entries.len());
    for ((l1, d, j), w) in entries {
        let cands = options.entry((l1, d)).or_insert_with(|| via(r, h, l1, d));
        if cands.is_empty() {
            continue;
        }
        let n = cands.len() as u32;
        let first = super::near::relay_index(l1, d, j, n);
        let mut best: Option<(u32, u32)> = None;
        for k in 0..n {
            let m = cands[((first + k) % n) as usize];
            let line = h.family_line(m, d, j);
            let worst = loads.down[loads.at(l1, m)]
                .max(loads.up[loads.at(line, m)])
                .max(loads.down[loads.at(line, d)]);
            if best.map_or(true, |(b, _)| worst < b) {
                best = Some((worst, m));
            }
        }
        let Some((_, m)) = best else { continue };
        let line = h.family_line(m, d, j);
        let (a, b, c) = (loads.at(l1, m), loads.at(line, m), loads.at(line, d));
        loads.down[a] += w;
        loads.up[b] += w;
        loads.down[c] += w;
        chosen.insert((l1, d, j), m);
    }
    for (_, d, j, c) in slots.iter_mut() {
        if let Some((_, sl, l1, m)) = c {
            if let Some(&relay) = chosen.get(&(*l1, *d, *j)) {
                *m = relay;
                *sl = relay_sl(relay, *d, r.parts).unwrap_or(0);
            }
        }
    }
    chosen
}

/// The relays spine l may hand leaf d's slots to (the one-turn rule's candidates).
fn via(r: &Router<'_>, h: &LsftHoles, l: u32, d: u32) -> Vec<u32> {
    match r.near.spine_options(h, l, d) {
        super::SpineOptions::Via(v) => v,
        super::SpineOptions::Down => Vec::new(),
    }
}
