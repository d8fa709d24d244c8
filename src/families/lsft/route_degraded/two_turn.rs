//! Host routes that turn twice: the slots no one-turn detour serves (every spine above the
//! source leaf lacks a relay whose family route to the destination survives), routed
//! s → l1 → m1 → (m1's own route to d) when m1's route turns at most once — a detour
//! through a relay whose route is itself a detour. The route then turns at m1 and, when
//! m1's route turns at m2, again there: VL 0 to m1, VL 1 to m2, VL 2 from m2 on (the SL's
//! partition puts m1 off d's side and m2 on it, [`super::two_turn_sl`]). When m1's route
//! goes straight to d (a spine other than the family's reaches d) the route turns once,
//! at m1, like any detour ([`super::relay_sl`]).
//!
//! The first spine's entry for (d, slot) is set to m1: only spines that the one-turn rule
//! gives no relay for that slot are used, so no one-turn detour crosses that entry, and m1
//! is a function of (spine, d, slot) alone — every source that turns twice through the
//! same spine agrees with it. m1's route is the one the one-turn pass chose, never a route
//! chosen here, so no route turns three times.

use super::{relay_sl, two_turn_sl, Router};
use crate::topology::degraded::DEAD;
use rayon::prelude::*;
use std::collections::HashMap;

/// A leaf's choice for one host slot: (up port, SL, first spine, the leaf that spine hands
/// the packet to — the destination itself, or a relay).
pub(super) type Choice = (u8, u8, u32, u32);

/// (Source leaf, destination leaf, host slot) — or (spine, destination leaf, slot).
pub(super) type Slot = (u32, u32, u32);

/// Every broken (source leaf, destination leaf, slot) triple's choice, or none.
pub(super) type Choices = HashMap<Slot, Option<Choice>>;

/// Leaf m's route to slot j of leaf d as the one-turn pass left it: (first spine, the leaf
/// that spine hands the packet to); none without a route.
fn route_of(r: &Router<'_>, choices: &Choices, m: u32, d: u32, j: u32) -> Option<(u32, u32)> {
    let h = r.h;
    if m == d || h.leaves[m as usize] == DEAD {
        return None;
    }
    match choices.get(&(m, d, j)) {
        Some(c) => c.map(|(_, _, l, x)| (l, x)),
        // not broken: the family route (both ends touched or not, every broken pair with a
        // touched end is in `choices`)
        None if h.intact(m, d) => Some((h.family_line(m, d, j), d)),
        None => None,
    }
}

/// The relay spine l1 hands slot j of leaf d to when l1 has no one-turn relay for it:
/// (m1, the leaf m1's first spine hands the packet to, the SL), spread as one-turn relays are
/// ([`super::near::relay_index`]).
fn relay_of(r: &Router<'_>, choices: &Choices, l1: u32, d: u32, j: u32) -> Option<(u32, u32, u8)> {
    let h = r.h;
    let cands: Vec<(u32, u32, u8)> = r.near.by_line[l1 as usize]
        .iter()
        .filter(|&&m| h.down(l1, m) != 0)
        .filter_map(|&m| {
            let (l2, m2) = route_of(r, choices, m, d, j)?;
            if l2 == l1 {
                return None; // back up the spine it came down: a loop
            }
            let sl = match m2 == d {
                true => relay_sl(m, d, r.parts)?,
                false => two_turn_sl(m, m2, d, r.parts)?,
            };
            Some((m, m2, sl))
        })
        .collect();
    (!cands.is_empty()).then(|| cands[super::near::relay_index(l1, d, j, cands.len() as u32) as usize])
}

/// Leaf s's route to slot j of leaf d through a relay whose route is a detour: (its choice,
/// true when it turns twice), spread over the spines above s by (s + d + j).
fn find(r: &Router<'_>, choices: &Choices, s: u32, d: u32, j: u32) -> Option<(Choice, bool)> {
    let h = r.h;
    let dd = h.plane.degree() as usize;
    let cands: Vec<(Choice, bool)> = h
        .plane
        .lines_through(h.point(s))
        .iter()
        .enumerate()
        .filter(|&(k, _)| h.leaf_up[s as usize * dd + k] != 0)
        // a spine with a one-turn relay keeps it (its entry is the one-turn rule's)
        .filter(|&(_, &l1)| h.spines[l1 as usize] != DEAD && r.spine_to_point(l1, d, j).is_none())
        .filter_map(|(k, &l1)| {
            let (m1, m2, sl) = relay_of(r, choices, l1, d, j)?;
            Some(((h.leaf_up[s as usize * dd + k], sl, l1, m1), m2 != d))
        })
        .collect();
    (!cands.is_empty()).then(|| cands[((s + d + j) % cands.len() as u32) as usize])
}

/// Route every slot of `choices` that has none through a relay whose route is a detour,
/// where one exists; returns the first spines' entries to set ((spine, d, slot), down port
/// to m1) and how many of the slots turn twice.
pub(super) fn route(r: &Router<'_>, choices: &mut Choices) -> (Vec<(Slot, u8)>, u64) {
    let mut missing: Vec<Slot> = choices.iter().filter(|(_, c)| c.is_none()).map(|(&k, _)| k).collect();
    if missing.is_empty() {
        return (Vec::new(), 0);
    }
    missing.sort_unstable();
    let snapshot: &Choices = choices;
    let found: Vec<(Slot, (Choice, bool))> = missing
        .par_iter()
        .filter_map(|&(s, d, j)| find(r, snapshot, s, d, j).map(|c| ((s, d, j), c)))
        .collect();
    let mut spines = Vec::with_capacity(found.len());
    let mut twice = 0;
    for ((s, d, j), (choice, two)) in found {
        let (_, _, l1, m1) = choice;
        spines.push(((l1, d, j), r.h.down(l1, m1)));
        choices.insert((s, d, j), Some(choice));
        twice += two as u64;
    }
    (spines, twice)
}
