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
use crate::families::lsft::model_holes::LsftHoles;
use rayon::prelude::*;

/// (spine, destination leaf, slot) → the relay leaf it hands that slot's detours to
/// (sorted, for binary search).
#[derive(Default)]
pub(super) struct Relays(Vec<((u32, u32, u32), u32)>);

impl Relays {
    /// The relay spine l hands slot j of leaf d to, when the balance chose one.
    pub(super) fn get(&self, l: u32, d: u32, j: u32) -> Option<u32> {
        self.0
            .binary_search_by_key(&(l, d, j), |x| x.0)
            .ok()
            .map(|i| self.0[i].1)
    }
}

/// A relay candidate: the leaf, and the places in [`Loads`] of its three links (spine →
/// relay, relay → join, join → destination).
type Candidate = [u32; 4];

/// A relay candidate's link places that depend on the slot (the destination's twin).
const TWIN: u32 = u32::MAX;

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
    /// survive put on every link: x's hosts send to (and receive from) the hosts
    /// `family` counts behind each of its links.
    fn family(r: &Router<'_>, hosts: &[u32], family: &Family) -> Loads {
        let h = r.h;
        let nl = h.leaf_count() as usize;
        let (up, down): (Vec<u32>, Vec<u32>) = family
            .0
            .iter()
            .enumerate()
            .map(|(i, &reached)| {
                let flows = hosts[i % nl] * reached;
                (flows, flows)
            })
            .unzip();
        Loads { nl, down, up }
    }

    fn at(&self, l: u32, x: u32) -> usize {
        l as usize * self.nl + x as usize
    }
}

/// Per (line, leaf on it): the hosts the leaf's surviving family routes reach over that
/// line — every leaf of another point on it whose route with the leaf survives. Counted
/// once for the sources' up links ([`UpLinks`]) and the relays' loads ([`relays`]).
pub(super) struct Family(Vec<u32>);

impl Family {
    pub(super) fn new(r: &Router<'_>, hosts: &[u32]) -> Family {
        let h = r.h;
        let nl = h.leaf_count() as usize;
        let mut reached = vec![0u32; h.plane.size() as usize * nl];
        reached.par_chunks_mut(nl.max(1)).enumerate().for_each(|(l, row)| {
            let on = &r.near.by_line[l];
            for &x in on {
                row[x as usize] = on
                    .iter()
                    .filter(|&&y| h.point(y) != h.point(x) && r.near.intact(x, y))
                    .map(|&y| hosts[y as usize])
                    .sum();
            }
        });
        Family(reached)
    }

    fn reached(&self, r: &Router<'_>, l: u32, x: u32) -> u32 {
        self.0[l as usize * r.h.leaf_count() as usize + x as usize]
    }
}

/// A source leaf's up links, each with the destination host slots routed over it (family
/// routes, then the detours picked so far), by up port.
pub(super) struct UpLinks {
    /// slots per up port (`u32::MAX`: not a surviving up link)
    load: [u32; 256],
}

impl UpLinks {
    /// Leaf s's up links with the hosts its family routes reach over each ([`Family`]).
    pub(super) fn new(r: &Router<'_>, s: u32, family: &Family) -> UpLinks {
        let h = r.h;
        let dd = h.plane.degree() as usize;
        let mut load = [u32::MAX; 256];
        for (k, &l) in h.plane.lines_through(h.point(s)).iter().enumerate() {
            let port = h.leaf_up[s as usize * dd + k];
            if port != 0 {
                load[port as usize] = family.reached(r, l, s);
            }
        }
        UpLinks { load }
    }

    /// The candidate (up port, relay, spine) slot j of d goes up: the least loaded, the
    /// first from (s + d + j) on among equals; counted on its link.
    pub(super) fn pick(&mut self, s: u32, d: u32, j: u32, cands: &[(u8, u32, u32)]) -> usize {
        let n = cands.len();
        let first = (s + d + j) as usize % n;
        let (mut best, mut at) = (u32::MAX, first);
        for k in 0..n {
            let i = (first + k) % n;
            let load = self.load[cands[i].0 as usize];
            if load < best {
                (best, at) = (load, i);
            }
        }
        if best != u32::MAX {
            self.load[cands[at].0 as usize] += 1;
        }
        at
    }
}

/// Choose the relay of every spine entry the one-turn choices in `slots` go through, and
/// rewrite those choices (relay and SL) to match. `hosts[s]`: the hosts of leaf s (the
/// flows one of its slots sends).
pub(super) fn relays(r: &Router<'_>, slots: &mut [SlotChoice], hosts: &[u32], family: &Family) -> Relays {
    let h = r.h;
    // the weight of each needed entry: hosts of the sources that go up to it
    let mut needed: Vec<((u32, u32, u32), u32)> = slots
        .iter()
        .filter_map(|&(s, d, j, c)| {
            let (_, _, l1, m) = c?;
            (m != d).then_some(((l1, d, j), hosts[s as usize].max(1)))
        })
        .collect();
    if needed.is_empty() {
        return Relays::default();
    }
    needed.sort_unstable();
    let mut entries: Vec<((u32, u32, u32), u32)> = Vec::with_capacity(needed.len());
    for (key, w) in needed {
        match entries.last_mut() {
            Some((k, sum)) if *k == key => *sum += w,
            _ => entries.push((key, w)),
        }
    }
    let mut loads = Loads::family(r, hosts, family);
    // the detours' first hops, as the sources chose them
    for &(s, _, _, c) in slots.iter() {
        if let Some((_, _, l1, _)) = c {
            let at = loads.at(l1, s);
            loads.up[at] += hosts[s as usize];
        }
    }
    // the candidates of each (spine, destination), in the entries' order, each with its
    // three links' places in `loads` (the last two depend on the slot only for the
    // destination's twin, two-sided: `TWIN`)
    let mut options: Vec<((u32, u32), Vec<Candidate>)> = Vec::new();
    for &((l1, d, _), _) in &entries {
        if options.last().map_or(true, |o| o.0 != (l1, d)) {
            let links = via(r, h, l1, d)
                .into_iter()
                .map(|m| match h.point(m) == h.point(d) {
                    true => [m, loads.at(l1, m) as u32, TWIN, TWIN],
                    false => {
                        let line = h.family_line(m, d, 0);
                        [
                            m,
                            loads.at(l1, m) as u32,
                            loads.at(line, m) as u32,
                            loads.at(line, d) as u32,
                        ]
                    }
                })
                .collect();
            options.push(((l1, d), links));
        }
    }
    // heaviest first; equal weights in the entries' (spine, destination, slot) order
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(entries[i].1));
    let mut chosen: Vec<((u32, u32, u32), u32)> = Vec::with_capacity(entries.len());
    for i in order {
        let ((l1, d, j), w) = entries[i];
        let o = options
            .binary_search_by_key(&(l1, d), |x| x.0)
            .expect("an option list per entry");
        let cands = &options[o].1;
        if cands.is_empty() {
            continue;
        }
        let n = cands.len() as u32;
        let first = super::near::relay_index(l1, d, j, n);
        let places = |[m, a, b, c]: Candidate| match b {
            TWIN => {
                let line = h.family_line(m, d, j);
                [a as usize, loads.at(line, m), loads.at(line, d)]
            }
            _ => [a as usize, b as usize, c as usize],
        };
        let mut best: Option<(u32, u32, [usize; 3])> = None;
        for k in 0..n {
            let cand = cands[((first + k) % n) as usize];
            let [a, b, c] = places(cand);
            let worst = loads.down[a].max(loads.up[b]).max(loads.down[c]);
            if best.map_or(true, |(x, _, _)| worst < x) {
                best = Some((worst, cand[0], [a, b, c]));
            }
        }
        let Some((_, m, [a, b, c])) = best else { continue };
        loads.down[a] += w;
        loads.up[b] += w;
        loads.down[c] += w;
        chosen.push(((l1, d, j), m));
    }
    chosen.sort_unstable();
    let relays = Relays(chosen);
    for (_, d, j, c) in slots.iter_mut() {
        if let Some((_, sl, l1, m)) = c {
            if let Some(relay) = relays.get(*l1, *d, *j) {
                *m = relay;
                *sl = relay_sl(relay, *d, r.parts).unwrap_or(0);
            }
        }
    }
    relays
}

/// The relays spine l may hand leaf d's slots to (the one-turn rule's candidates).
fn via(r: &Router<'_>, h: &LsftHoles, l: u32, d: u32) -> Vec<u32> {
    match r.near.spine_options(h, l, d) {
        super::SpineOptions::Via(v) => v,
        super::SpineOptions::Down => Vec::new(),
    }
}
