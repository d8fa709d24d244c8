//! Routing a degraded MOLS proximity 3-level tree ([`MolsHoles`]) up*/down* around its
//! holes, deadlock-free on one VL, with both LMC routes of the intact family kept wherever
//! they survive (base LID: d-mod-k bandwidth route; base+1 with LMC 1: latency route
//! through a middle the two bottoms share; [`crate::routing::hosts`]).
//!
//! **Preprocessing**, one bitset over the n² bottoms per switch:
//! * `down[m]` (middle): the bottoms m still has a cable to; `down[t]` (top): the union of
//!   `down` of the middles t still has a cable to;
//! * `reach[m]`: `down[m]` or `down` of a top m still has a cable to — the bottoms m
//!   reaches by up*/down*;
//! * `any` (management only): bottoms reached going down first, then up*/down*.
//!
//! **Entry of a switch for a host at tree position d on bottom λ** (colour c = λ mod n,
//! pod λ / n, slot j = d mod n):
//! * bottom λ itself: the host's port;
//! * another bottom b: the intact plane u₀ (j, or for the latency offset the plane of the
//!   middle b and λ share) when its cable survives and its middle reaches λ as the intact
//!   route does — going down if that middle is λ's own in the plane, else by any surviving
//!   path; otherwise the planes whose middle reaches λ going down (two hops: shortest), or
//!   failing those, that reach it at all, chosen by d modulo their number;
//! * a middle that still has its cable to λ: that cable (the intact entry when the middle
//!   is λ's; the only middles that reach λ going down);
//! * a middle that reaches λ over a top: the intact top (index c of its plane) when its
//!   cable survives and the top reaches λ going down, else such tops by d modulo their
//!   number;
//! * a top that reaches λ going down: the intact row (the middle of λ in its plane) when
//!   that cable and the middle's cable to λ survive, else such rows by d modulo their
//!   number;
//! * a middle or top that reaches λ by no up*/down* path (no host route passes it) sends a
//!   packet that starts there (management) down to a switch that reaches λ down first and
//!   then up*/down* (`any`), by d modulo their number; that switch's own rule takes over
//!   and never sends it back (the sender does not reach λ), so there is no loop.
//!
//! **One VL suffices.** Rank the levels bottom < middle < top. A host route starts at a
//! bottom; it goes up only to a middle that reaches λ; such a middle goes down to λ or up
//! to a top that reaches λ going down; that top goes down to a middle that reaches λ going
//! down, which goes down to λ. So every host route is up* then down* (B↑M↓B or
//! B↑M↑T↓M↓B). Order the channels: up channels by the level they leave, lowest first, then
//! all down channels by the level they leave, highest first. Two consecutive channels of
//! one route always go from an earlier channel to a later one in this order (a route never
//! turns up after going down), so every dependency of the channel dependency graph points
//! forward and it has no cycle: one VL, no SL or SL-to-VL table (checked with
//! [`crate::check::lfts::validate`] in the tests). The management fallback above is taken
//! only by packets a middle or top switch sends itself, never by a host route. A bottom with
//! no middle that reaches λ has no up*/down* path to λ: its (bottom, LID) entries are
//! counted and named, never a panic.
//!
//! **Intact entries stay.** When the intact route from a switch survives, every switch on
//! it passes the test of its rule above, so its entry is the intact one (the tests compare
//! with the intact routing of the complete fabric). Switch LIDs are routed up*/down* by
//! level over the surviving cables as in [`crate::families::pgft::route_degraded`] ([`crate::families::tree::route_degraded`]),
//! with the same detours on a second VL ([`crate::families::tree::lanes`]: bottoms are its leaves,
//! middles its level 2).

use crate::error::{Error, Result};
use crate::families::mols::model_holes::MolsHoles;
use crate::families::tree::route_degraded::{name_pairs, route_switch_lids, Div, TreeRoutes};
use crate::routing::lft::{LftSet, NO_ROUTE};
use crate::routing::lids::{positioned_host_lids, Lids};
use crate::routing::pipeline::{Around, Refusal, Routed, RoutedHoles};
use crate::topology::degraded::DEAD;
use crate::topology::{Fabric, NodeId};
use rayon::prelude::*;

/// Rows of bits over the bottoms, one row per switch of a level.
struct Rows {
    words: usize,
    v: Vec<u64>,
}

impl Rows {
    fn new(rows: usize, bits: usize) -> Rows {
        let words = bits.div_ceil(64);
        Rows {
            words,
            v: vec![0; rows * words],
        }
    }
    #[inline]
    fn get(&self, row: u32, bit: u32) -> bool {
        self.v[row as usize * self.words + bit as usize / 64] >> (bit % 64) & 1 == 1
    }
    fn set(&mut self, row: u32, bit: u32) {
        self.v[row as usize * self.words + bit as usize / 64] |= 1 << (bit % 64);
    }
    /// Row `dst` |= row `src` of `other`.
    fn or_from(&mut self, dst: u32, other: &Rows, src: u32) {
        let w = self.words;
        let (d, s) = (dst as usize * w, src as usize * w);
        for i in 0..w {
            self.v[d + i] |= other.v[s + i];
        }
    }
}

/// The reach bitsets of the module doc.
struct Reach {
    down_m: Rows,
    down_t: Rows,
    reach_m: Rows,
    any_b: Rows,
    any_m: Rows,
}

impl Reach {
    fn new(h: &MolsHoles) -> Reach {
        let l = &h.layout;
        let n = l.n;
        let nn = (n * n) as usize;
        let mut down_m = Rows::new(nn, nn);
        for m in 0..n * n {
            for c in 0..n {
                if l.m_down[(m * n + c) as usize] != 0 {
                    down_m.set(m, h.bottom_under(m, c));
                }
            }
        }
        let mut down_t = Rows::new(nn, nn);
        for t in 0..n * n {
            for r in 0..n {
                if l.t_down[(t * n + r) as usize] != 0 {
                    down_t.or_from(t, &down_m, (t / n) * n + r);
                }
            }
        }
        let mut reach_m = Rows::new(nn, nn);
        for m in 0..n * n {
            reach_m.or_from(m, &down_m, m);
            for t in 0..n {
                if l.m_up[(m * n + t) as usize] != 0 {
                    reach_m.or_from(m, &down_t, (m / n) * n + t);
                }
            }
        }
        let mut any_b = Rows::new(nn, nn);
        for b in 0..n * n {
            any_b.set(b, b);
            for u in 0..n {
                if l.b_up[(b * n + u) as usize] != 0 {
                    any_b.or_from(b, &reach_m, h.middle_of(b, u));
                }
            }
        }
        let mut any_m = Rows::new(nn, nn);
        for m in 0..n * n {
            any_m.or_from(m, &reach_m, m);
            for c in 0..n {
                if l.m_down[(m * n + c) as usize] != 0 {
                    any_m.or_from(m, &any_b, h.bottom_under(m, c));
                }
            }
        }
        Reach {
            down_m,
            down_t,
            reach_m,
            any_b,
            any_m,
        }
    }
}

/// A host destination: tree position, LID, LMC offset (0 bandwidth, 1 latency).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Dest {
    d: u32,
    lid: u32,
    offset: u16,
}

/// Route every LID of a degraded MOLS tree (module doc) with LMC 0 or 1.
pub(crate) fn route_mols(fabric: &Fabric, h: &MolsHoles, lids: &Lids) -> Result<TreeRoutes> {
    lids.require_complete(fabric)?;
    if lids.lmc > 1 {
        return Err(Error::input(
            "lmc",
            format!("a degraded MOLS tree is routed with LMC 0 or 1, not {}", lids.lmc),
            Some("--lmc 0 or --lmc 1".into()),
        ));
    }
    let role = switch_roles(fabric, h);
    let dests = host_dests(fabric, h, lids, &role)?;
    let plan = Plan::new(h, role, dests);
    let mut lfts = LftSet::new(fabric, lids.max_lid());
    let stride = lfts.stride;
    let switches = lfts.switches.clone();
    let unrouted: Vec<Vec<(u32, u32)>> = lfts
        .ports
        .par_chunks_mut(stride)
        .zip(switches.par_iter())
        .map(|(row, &node)| plan.route_row(row, node))
        .collect();
    let rank = plan.switch_rank(&switches);
    let (unrouted_switch_lids, detours) = route_switch_lids(fabric, &mut lfts, lids, &rank);
    let mut r = TreeRoutes {
        unrouted: unrouted.iter().map(|x| x.len() as u64).sum(),
        unrouted_named: name_pairs(fabric, lids, unrouted.iter().flatten()),
        unrouted_switch_lids,
        detours,
        rank,
        lfts,
        escape: Default::default(),
    };
    r.escape_the_rest(fabric, lids);
    Ok(r)
}

/// Fabric node -> (level: 0 bottom / 1 middle / 2 top, index) of every live switch
/// (`u8::MAX` elsewhere): the rows are walked by fabric node, the rules work by level.
fn switch_roles(fabric: &Fabric, h: &MolsHoles) -> Vec<(u8, u32)> {
    let l = &h.layout;
    // node -> (level 0 bottom / 1 middle / 2 top, index)
    let mut role = vec![(u8::MAX, u32::MAX); fabric.len()];
    for (k, list) in [&l.bottoms, &l.middles, &l.tops].into_iter().enumerate() {
        for (i, &node) in list.iter().enumerate() {
            if node != DEAD {
                role[node as usize] = (k as u8, i as u32);
            }
        }
    }
    role
}

/// The host LIDs with their tree position and LMC offset, sorted so each bottom's hosts
/// are contiguous; a LID on anything but a host or a live switch of the layout is
/// refused before any table is filled.
fn host_dests(fabric: &Fabric, h: &MolsHoles, lids: &Lids, role: &[(u8, u32)]) -> Result<Vec<Dest>> {
    let l = &h.layout;
    let placed = l.hosts.iter().zip(&l.host_pos).chain(l.others.iter().zip(&l.other_pos));
    let in_layout = |n: NodeId| role[n as usize].0 != u8::MAX;
    let family = || format!("{}-ary MOLS tree", l.n);
    let dests = positioned_host_lids(fabric, lids, placed, in_layout, family)?;
    let dest = |(d, lid, owner): (u32, u32, u32)| Dest {
        d,
        lid,
        offset: lid as u16 - lids.base[owner as usize],
    };
    Ok(dests.into_iter().map(dest).collect())
}

/// What every switch row reads, worked out once before the rows are filled in parallel.
struct Plan<'a> {
    h: &'a MolsHoles,
    role: Vec<(u8, u32)>,
    dests: Vec<Dest>,
    /// Per bottom: the start of its hosts in `dests` (and one past the last one's end).
    first: Vec<usize>,
    reach: Reach,
    by_n: Div,
}

impl<'a> Plan<'a> {
    fn new(h: &'a MolsHoles, role: Vec<(u8, u32)>, dests: Vec<Dest>) -> Plan<'a> {
        let n = h.layout.n;
        // per bottom λ: its range in `dests`
        let nb = (n * n) as usize;
        let mut first = vec![0usize; nb + 1];
        for x in &dests {
            first[(x.d / n) as usize + 1] += 1;
        }
        for i in 0..nb {
            first[i + 1] += first[i];
        }
        let reach = Reach::new(h);
        Plan {
            h,
            role,
            dests,
            first,
            reach,
            by_n: Div::new(n),
        }
    }

    /// Fill the host entries of one switch's row, bottom by bottom, by the rule of its
    /// level; returns the (bottom, LID) pairs it could not route.
    fn route_row(&self, row: &mut [u8], node: u32) -> Vec<(u32, u32)> {
        let n = self.h.layout.n;
        let mut missing = Vec::new();
        let (level, i) = self.role[node as usize];
        let mut cands: Vec<u32> = Vec::with_capacity(n as usize);
        for lam in 0..(self.first.len() - 1) as u32 {
            let range = &self.dests[self.first[lam as usize]..self.first[lam as usize + 1]];
            match level {
                0 => bottom_entries(self.h, &self.reach, i, lam, range, row, &mut missing, node, self.by_n),
                1 => self.middle_entries(i, lam, range, row, &mut cands),
                2 => self.top_entries(i, lam, range, row, &mut cands),
                _ => {}
            }
        }
        missing
    }

    /// The entries of middle m for the hosts of bottom λ: its own cable to λ when it has
    /// one (the only way down), else up to a top that reaches λ going down, or, with no
    /// up*/down* path at all, down to a bottom that has one (management only).
    fn middle_entries(&self, m: u32, lam: u32, range: &[Dest], row: &mut [u8], cands: &mut Vec<u32>) {
        let (h, reach) = (self.h, &self.reach);
        let l = &h.layout;
        let n = l.n;
        let col = lam % n;
        let u = m / n;
        let port_to = |c: u32| l.m_down[(m * n + c) as usize];
        if reach.down_m.get(m, lam) {
            range.iter().for_each(|x| row[x.lid as usize] = port_to(col));
            return;
        }
        cands.clear();
        let up = |t: u32| l.m_up[(m * n + t) as usize];
        let intact = if reach.reach_m.get(m, lam) {
            cands.extend((0..n).filter(|&t| up(t) != 0 && reach.down_t.get(u * n + t, lam)));
            (up(col) != 0 && reach.down_t.get(u * n + col, lam)).then(|| up(col))
        } else {
            // management: down to a bottom that reaches λ
            cands.extend((0..n).filter(|&c| port_to(c) != 0 && reach.any_b.get(h.bottom_under(m, c), lam)));
            cands.iter_mut().for_each(|c| *c += n); // mark: down ports
            None
        };
        for x in range {
            row[x.lid as usize] = match (intact, cands.len()) {
                (Some(p), _) => p,
                (None, 0) => NO_ROUTE,
                (None, k) => match cands[(x.d % k as u32) as usize] {
                    c if c >= n => port_to(c - n),
                    t => up(t),
                },
            };
        }
    }

    /// The entries of top t for the hosts of bottom λ: down to λ's row in its plane when
    /// that path survives (the intact entry), else to rows that still reach λ, going down
    /// or (management only) by any path.
    fn top_entries(&self, t: u32, lam: u32, range: &[Dest], row: &mut [u8], cands: &mut Vec<u32>) {
        let (h, reach) = (self.h, &self.reach);
        let l = &h.layout;
        let n = l.n;
        let u = t / n;
        let port_to = |r: u32| l.t_down[(t * n + r) as usize];
        cands.clear();
        let intact = if reach.down_t.get(t, lam) {
            let r0 = l.b_row[(lam * n + u) as usize];
            cands.extend((0..n).filter(|&r| port_to(r) != 0 && reach.down_m.get(u * n + r, lam)));
            (port_to(r0) != 0 && reach.down_m.get(u * n + r0, lam)).then(|| port_to(r0))
        } else {
            cands.extend((0..n).filter(|&r| port_to(r) != 0 && reach.any_m.get(u * n + r, lam)));
            None
        };
        for x in range {
            row[x.lid as usize] = match (intact, cands.len()) {
                (Some(p), _) => p,
                (None, 0) => NO_ROUTE,
                (None, k) => port_to(cands[(x.d % k as u32) as usize]),
            };
        }
    }

    /// The up*/down* rank of every switch by its level (top 0): the switch LIDs are
    /// routed by it, and a dead or foreign switch gets none.
    fn switch_rank(&self, switches: &[u32]) -> Vec<u32> {
        switches
            .iter()
            .map(|&s| match self.role[s as usize].0 {
                0 => 2,
                1 => 1,
                2 => 0,
                _ => u32::MAX,
            })
            .collect()
    }
}

/// The entries of bottom b for the hosts of bottom λ (`range`), module doc; unroutable
/// (bottom, LID) pairs are added to `missing`.
#[allow(clippy::too_many_arguments)]
fn bottom_entries(
    h: &MolsHoles,
    reach: &Reach,
    b: u32,
    lam: u32,
    range: &[Dest],
    row: &mut [u8],
    missing: &mut Vec<(u32, u32)>,
    node: u32,
    by_n: Div,
) {
    let l = &h.layout;
    let n = l.n;
    if b == lam {
        for x in range {
            row[x.lid as usize] = l.b_host[(b * n + by_n.rem(x.d)) as usize];
        }
        return;
    }
    let (pod, col) = (lam / n, lam % n);
    let up = |u: u32| l.b_up[(b * n + u) as usize];
    let row_of = |x: u32, u: u32| l.b_row[(x * n + u) as usize];
    // the intact route through plane u survives as far as this entry can tell
    let keeps = |u: u32| {
        let m = u * n + row_of(b, u);
        up(u) != 0 && (reach.down_m.get(m, lam) || (l.g[(m * n + col) as usize] != pod && reach.reach_m.get(m, lam)))
    };
    let shared = (0..n).find(|&u| row_of(b, u) == row_of(lam, u));
    let mut cands: Vec<u32> = (0..n)
        .filter(|&u| up(u) != 0 && reach.down_m.get(u * n + row_of(b, u), lam))
        .collect();
    if cands.is_empty() {
        cands.extend((0..n).filter(|&u| up(u) != 0 && reach.reach_m.get(u * n + row_of(b, u), lam)));
    }
    for x in range {
        let j = by_n.rem(x.d);
        let u0 = match shared {
            Some(u) if x.offset == 1 && row_of(b, j) != row_of(lam, j) => u,
            _ => j,
        };
        row[x.lid as usize] = if keeps(u0) {
            up(u0)
        } else if cands.is_empty() {
            missing.push((node, x.lid));
            NO_ROUTE
        } else {
            up(cands[(x.d % cands.len() as u32) as usize])
        };
    }
}

impl RoutedHoles for MolsHoles {
    /// Up*/down* around the holes on one VL, both LMC routes.
    fn route(&self, at: &Around<'_>) -> std::result::Result<Routed, Refusal> {
        at.up_down(|| route_mols(at.fabric, self, at.lids))
    }
}

#[cfg(test)]
mod tests {
    use super::Rows;

    #[test]
    fn bit_rows_set_get_and_or() {
        let mut a = Rows::new(3, 130);
        a.set(0, 0);
        a.set(0, 129);
        a.set(1, 64);
        let mut b = Rows::new(3, 130);
        b.or_from(2, &a, 0);
        b.or_from(2, &a, 1);
        assert!(b.get(2, 0) && b.get(2, 129) && b.get(2, 64));
        assert!(!b.get(2, 1) && !b.get(0, 0) && !a.get(1, 0));
    }
}
