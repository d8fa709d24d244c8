//! Entries no rule fills at switches no host hangs off (a leaf without hosts cabled to
//! some of the spines only, a spine that reaches a leaf by no up*/down* path): only
//! management traffic starts there, so they need no lane of their own, but tables with
//! holes are incomplete (OpenSM's own engines leave none).
//!
//! Per LID with such a hole, the switches whose walk on the tables arrives are found;
//! then, breadth-first from them over the switch-to-switch cables, each hole takes the
//! cable to a switch found before it. Every filled entry leads one step closer to an
//! arriving switch, so no walk loops. A hole that some other switch's entry leads into
//! stays: filling it would complete a route that a host may source, and such a route must
//! come from the family's rule, not from here. No host route changes: a walk that arrived
//! before never met a hole.

use super::escape::Links;
use super::lft::{LftSet, NO_ROUTE};
use super::lids::Lids;
use crate::topology::{Fabric, NO_PEER};

/// Walk states per row for one LID.
const UNKNOWN: u8 = 0;
const ARRIVES: u8 = 1;
const FAILS: u8 = 2;
const WALKING: u8 = 3;

/// Fill the holes of the rows that `hosted` marks false; returns the entries written.
pub(crate) fn fill(fabric: &Fabric, lids: &Lids, lfts: &mut LftSet, hosted: &[bool]) -> u64 {
    let (n, stride) = (lfts.switches.len(), lfts.stride);
    let target = lids.switch_of_each(fabric);
    // LIDs with a hole at a row without hosts (rows are contiguous: scanned as such)
    let mut gap = vec![false; stride];
    for r in (0..n).filter(|&r| !hosted[r]) {
        let row = &lfts.ports[r * stride..(r + 1) * stride];
        for (lid, &p) in row.iter().enumerate() {
            gap[lid] |= p == NO_ROUTE && target.get(lid).is_some_and(|&t| t != NO_PEER);
        }
    }
    if !gap.iter().any(|&g| g) {
        return 0;
    }
    let links = Links::new(fabric, lfts);
    let mut written = 0;
    let mut state = vec![UNKNOWN; n];
    let mut pointed = vec![false; n];
    let mut path = Vec::new();
    let mut queue = Vec::new();
    for lid in (0..stride).filter(|&l| gap[l]) {
        state.fill(UNKNOWN);
        pointed.fill(false);
        let owner = lids.owner[lid];
        for r in 0..n {
            walk(fabric, lfts, &links, lid, owner, r, &mut state, &mut path);
        }
        mark_host_holes(lfts, &links, lid, hosted, &mut pointed);
        // breadth-first from the arriving rows through the holes that nothing leads into
        queue.clear();
        queue.extend((0..n as u32).filter(|&r| state[r as usize] == ARRIVES));
        // by GUID, so that a hole two arriving switches reach takes the same one whatever
        // order the switches were discovered in (later rounds follow cables in port order)
        queue.sort_unstable_by_key(|&r| fabric.node(lfts.switches[r as usize]).guid);
        let mut head = 0;
        while head < queue.len() {
            let v = queue[head];
            head += 1;
            for &(_, u, _) in links.of(v) {
                let ui = u as usize;
                let hole = lfts.ports[ui * stride + lid] == NO_ROUTE;
                if state[ui] == FAILS && hole && !hosted[ui] && !pointed[ui] {
                    let back = links.of(u).iter().find(|l| l.1 == v).map(|l| l.0);
                    if let Some(p) = back {
                        lfts.ports[ui * stride + lid] = p;
                        state[ui] = ARRIVES;
                        written += 1;
                        queue.push(u);
                    }
                }
            }
        }
    }
    written
}

/// Mark the holes that a walk from a row with hosts runs into (`pointed`): filling one
/// would complete a route a host sources.
fn mark_host_holes(lfts: &LftSet, links: &Links, lid: usize, hosted: &[bool], pointed: &mut [bool]) {
    let mut seen = vec![false; hosted.len()];
    for r in (0..hosted.len()).filter(|&r| hosted[r]) {
        let mut at = r;
        while !seen[at] {
            seen[at] = true;
            let port = lfts.ports[at * lfts.stride + lid];
            if port == NO_ROUTE {
                pointed[at] = true;
                break;
            }
            match links.next(at as u32, port) {
                Some(next) => at = next as usize,
                None => break, // delivered here, or to a host
            }
        }
    }
}

/// Settle whether row `r`'s walk towards `lid` (owned by port `owner`) arrives, and every
/// row on its way.
#[allow(clippy::too_many_arguments)]
fn walk(
    fabric: &Fabric,
    lfts: &LftSet,
    links: &Links,
    lid: usize,
    owner: u32,
    r: usize,
    state: &mut [u8],
    path: &mut Vec<usize>,
) {
    path.clear();
    let mut at = r;
    let end = loop {
        match state[at] {
            ARRIVES | FAILS => break state[at],
            WALKING => break FAILS, // a loop
            _ => {}
        }
        state[at] = WALKING;
        path.push(at);
        let port = lfts.ports[at * lfts.stride + lid];
        if port == NO_ROUTE {
            break FAILS;
        }
        let sw = lfts.switches[at];
        if port == 0 {
            break if fabric.port_index(sw, 0) == owner {
                ARRIVES
            } else {
                FAILS
            };
        }
        match links.next(at as u32, port) {
            Some(next) => at = next as usize,
            None => {
                // a host (or nothing) behind the port: arrives when it is the LID's own
                let to_owner = fabric
                    .peer(sw, port)
                    .is_some_and(|(h, hp)| fabric.port_index(h, hp) == owner);
                break if to_owner { ARRIVES } else { FAILS };
            }
        }
    };
    for &row in path.iter() {
        state[row] = end;
    }
}
