//! The spreading objective for an LSFT, intact or degraded (`route --objective spread`,
//! the plugin's `objective=spread`): every host slot of a leaf is entered through its own
//! spine, and every other leaf reaches it through a different one of its own up links, so
//! traffic a pattern does not arrange for the plane (a shift, a random permutation, a job
//! placed without regard to points) spreads over all q + 1 up links of a leaf instead of
//! piling onto the one spine two points share.
//!
//! The family routes give each leaf pair exactly one path: a leaf's q + 1 hosts sending to
//! the q + 1 hosts of one other leaf all cross one spine, so every minimal engine (the
//! family's, minhop, dfsssp, up*/down*) delivers a shift at about 1/(q + 1) of the link
//! rate. The family's own all-to-all (`--pattern lsft`) is conflict-free on those routes
//! and stays the right choice for applications that use it; this objective is for the
//! rest, at the price of that schedule's conflict-freedom and of detours of four hops.
//!
//! Host slot j of leaf d (at point P):
//! * its entry spine e(d, j) is the (j mod (q+1))-th line through P while its cable to d
//!   survives, else one of the lines through P that still reach d, by (d + j);
//! * a leaf on e (cable there) goes up to e: the one-turn-free route, SL 0;
//! * every other leaf s goes up to a spine l through it that does not pass P, whose relay
//!   r(l, d, j) — the leaf at the point where l meets e, with both its cables (to l and
//!   to e), that some partition of the SLs puts off d's side ([`relay_sl`]: any leaf up
//!   to 2^7 leaves) — exists; the candidates are spread by a hash of (s, d) plus j, so the
//!   slots of d leave s over different up links; SL relay_sl(r, d);
//! * without such a spine, s takes a surviving spine through P (up, then down, SL 0);
//! * a spine through P goes down to d; any other spine l down to r(l, d, j).
//!
//! A detour s → l → r → e → d is loop-free and turns once, at r, whose own entry for the
//! slot is the direct one (r is on e). The SLs and VLs are the degraded LSFT's
//! ([`crate::routing::lanes`]): the SL's partition has the relay off d's side, so the spine
//! before the turn hands over on VL 0 and e after it on VL 1, and the proof of [`super`]
//! applies as written — VL 0 carries paths up, then down by rank, VL 1 only the part
//! after the one physical turn. Switch LIDs are routed as in [`super`].
//!
//! Why any relay the partitions allow, not only those of the other colour (partition 0,
//! as the first version had): a line whose points are mostly of d's colour then offers a
//! single relay, whose up link to the entry spine carries every source's traffic for
//! every such slot — on LSFT(13), 32,662 of uniform all-to-all's flows on each of three
//! links, twelve times the mean (`IBFAT_BENCH_FABRIC=load cargo bench --bench reroute`).

use super::columns::{sl_rows, Columns, Dest};
use super::switch_lids;
use super::{partitions, relay_sl, DegradedRoutes};
use crate::error::{Error, Result};
use crate::families::lsft::model_holes::LsftHoles;
use crate::routing::lft::{LftSet, NO_ROUTE};
use crate::routing::lids::Lids;
use crate::topology::degraded::DEAD;
use crate::topology::Fabric;
use rayon::prelude::*;

/// A fixed mix of a leaf pair, so that the slots of one destination leave a source over
/// different up links and different sources start at different ones.
fn mix(s: u32, d: u32) -> u32 {
    let x = (s as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (d as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (x >> 33) as u32
}

struct Spread<'a> {
    h: &'a LsftHoles,
    /// Entry spine of (leaf index d, slot key k = j mod (q+1)), `u32::MAX`: none survives.
    entry: Vec<u32>,
    /// `meet[l1 * n + l2]`: the point of two distinct lines (the relays' points; computed
    /// once, not per (leaf, slot, line) from coordinates).
    meet: Vec<u32>,
    /// J, the leaf bipartitions the SLs name ([`partitions`]).
    parts: u32,
}

impl Spread<'_> {
    fn new(h: &LsftHoles) -> Spread<'_> {
        let dd = h.degree();
        let mut entry = vec![u32::MAX; h.leaf_count() as usize * dd];
        for d in 0..h.leaf_count() {
            if h.leaves[d as usize] == DEAD {
                continue;
            }
            let lines = h.plane.lines_through(h.point(d));
            let live: Vec<u32> = lines.iter().copied().filter(|&l| h.down(l, d) != 0).collect();
            for k in 0..dd as u32 {
                let own = lines[k as usize];
                entry[d as usize * dd + k as usize] = if h.down(own, d) != 0 {
                    own
                } else if live.is_empty() {
                    u32::MAX
                } else {
                    live[((d + k) % live.len() as u32) as usize]
                };
            }
        }
        let n = h.plane.size() as usize;
        let mut meet = vec![u32::MAX; n * n];
        meet.par_chunks_mut(n).enumerate().for_each(|(a, row)| {
            for (b, x) in row.iter_mut().enumerate() {
                if a != b {
                    *x = h.plane.meet(a as u32, b as u32);
                }
            }
        });
        Spread {
            h,
            entry,
            meet,
            parts: partitions(h.leaf_count()),
        }
    }

    fn entry(&self, d: u32, j: u32) -> Option<u32> {
        let dd = self.h.degree() as u32;
        Some(self.entry[(d * dd + j % dd) as usize]).filter(|&e| e != u32::MAX)
    }

    /// The relay of spine l (not through d's point) for slot j of leaf d, and the SL of a
    /// route turning there: the leaf where l meets the slot's entry spine, with both cables,
    /// that a partition puts off d's side (two-sided: one of the point's two leaves).
    fn relay(&self, l: u32, d: u32, j: u32) -> Option<(u32, u8)> {
        let h = self.h;
        let e = self.entry(d, j)?;
        let x = self.meet[l as usize * h.plane.size() as usize + e as usize];
        // two-sided, the point's two leaves take turns by (d + j), so that neither side
        // relays for every slot
        let mut two = h
            .leaves_at(x)
            .filter(|&m| h.down(l, m) != 0 && h.up(m, e) != 0)
            .filter_map(|m| relay_sl(m, d, self.parts).map(|sl| (m, sl)));
        let (first, second) = (two.next(), two.next());
        match second {
            Some(other) if (d + j) % 2 == 1 => Some(other),
            _ => first,
        }
    }

    /// Leaf s's hops towards slots 0..slots of leaf d (s ≠ d), into `out`: (up port, SL),
    /// or none. A slot whose entry spine s is on goes up to it; every other slot takes a
    /// spine through s whose relay serves it, the slots in an order and from a candidate
    /// both set by a hash of (s, d), each taking an up link no earlier slot of d took while
    /// one is left — so the slots of one destination leaf leave s over different up links.
    fn leaf_choices(&self, s: u32, d: u32, slots: u32, out: &mut Vec<Option<(u8, u8)>>) {
        let h = self.h;
        out.clear();
        out.resize(slots as usize, None);
        let pd = h.point(d);
        let lines = h.plane.lines_through(h.point(s));
        // up links (by their index at s) some slot of d already takes
        let mut used = [false; 256];
        let mut direct = vec![false; slots as usize];
        for j in 0..slots {
            if let Some(e) = self.entry(d, j).filter(|&e| h.up(s, e) != 0) {
                out[j as usize] = Some((h.up(s, e), 0));
                direct[j as usize] = true;
                if let Some(k) = h.plane.position_at_point(h.point(s), e) {
                    used[k as usize] = true;
                }
            }
        }
        let hash = mix(s, d) as u64;
        let mut cands = [0u8; 256];
        for t in 0..slots {
            let j = ((hash + t as u64) % slots as u64) as u32;
            if direct[j as usize] || self.entry(d, j).is_none() {
                continue;
            }
            let mut n = 0;
            for (k, &l) in lines.iter().enumerate() {
                if h.up(s, l) != 0 && !h.plane.incident(pd, l) && self.relay(l, d, j).is_some() {
                    cands[n] = k as u8;
                    n += 1;
                }
            }
            if n > 0 {
                let first = ((hash >> 16) + j as u64) as usize;
                let k = (0..n)
                    .map(|i| cands[(first + i) % n] as usize)
                    .find(|&k| !used[k])
                    .unwrap_or(cands[first % n] as usize);
                used[k] = true;
                let sl = self.relay(lines[k], d, j).map_or(0, |(_, sl)| sl);
                out[j as usize] = Some((h.up(s, lines[k]), sl));
                continue;
            }
            for (k, &l) in lines.iter().enumerate() {
                if h.up(s, l) != 0 && h.plane.incident(pd, l) && h.down(l, d) != 0 {
                    cands[n] = k as u8;
                    n += 1;
                }
            }
            if n > 0 {
                let k = cands[((s + d + j) % n as u32) as usize] as usize;
                out[j as usize] = Some((h.up(s, lines[k]), 0));
            }
        }
    }

    /// Route leaf s's entry for host `lid` (slot j of leaf d), which no spine's relay
    /// serves, through a leaf m next to s that is made to take its direct route to d (up,
    /// down, SL 0): spine l through s, not through d's point, with no relay for the slot
    /// yet, hands the slot to m (off d's side of some partition, with its cable to l). Nothing
    /// went through m for the slot before (only relays are passed through, and they are
    /// direct already) nor through l (it had no entry), so no other path changes; the SL
    /// is that of a turn at m. False when no such m exists.
    fn hand_over(&self, lfts: &mut LftSet, sl: &mut [u8], cols: &Columns, s: u32, lid: usize) -> bool {
        let h = self.h;
        let Dest::Host(d, _) = cols.dest[lid] else {
            return false;
        };
        let (stride, pd) = (lfts.stride, h.point(d));
        let row = |lfts: &LftSet, node: u32| lfts.row_of[node as usize] as usize * stride + lid;
        for &l in h.plane.lines_through(h.point(s)) {
            if h.up(s, l) == 0 || h.plane.incident(pd, l) {
                continue;
            }
            let at_spine = row(lfts, h.spines[l as usize]);
            let on_l = || h.plane.points_on(l).iter().flat_map(|&x| h.leaves_at(x));
            let relay = match lfts.ports[at_spine] {
                NO_ROUTE => on_l().find_map(|m| {
                    if m == s || h.down(l, m) == 0 {
                        return None;
                    }
                    let sl = relay_sl(m, d, self.parts)?;
                    let t = h
                        .plane
                        .lines_through(h.point(m))
                        .iter()
                        .copied()
                        .find(|&t| h.plane.incident(pd, t) && h.up(m, t) != 0 && h.down(t, d) != 0)?;
                    Some((m, t, sl))
                }),
                // handed over before, to a leaf that now goes direct
                port => on_l()
                    .find(|&m| h.down(l, m) == port)
                    .and_then(|m| relay_sl(m, d, self.parts))
                    .map(|sl| (u32::MAX, 0, sl)),
            };
            let Some((m, t, relay_sl)) = relay else { continue };
            if m != u32::MAX {
                lfts.ports[at_spine] = h.down(l, m);
                let at_m = row(lfts, h.leaves[m as usize]);
                lfts.ports[at_m] = h.up(m, t);
                sl[m as usize * stride + lid] = 0;
            }
            let at_s = row(lfts, h.leaves[s as usize]);
            lfts.ports[at_s] = h.up(s, l);
            sl[s as usize * stride + lid] = relay_sl;
            return true;
        }
        false
    }

    /// Spine l's hop towards slot j of leaf d.
    fn spine_hop(&self, l: u32, d: u32, j: u32) -> u8 {
        let h = self.h;
        if h.plane.incident(h.point(d), l) {
            return match h.down(l, d) {
                0 => NO_ROUTE,
                p => p,
            };
        }
        self.relay(l, d, j).map_or(NO_ROUTE, |(m, _)| h.down(l, m))
    }
}

/// Route every LID of an LSFT (intact or degraded) for spreading (module documentation).
/// Host pairs without a route are counted in [`DegradedRoutes::unrouted`], switch-LID
/// pairs as by [`super::route_lsft`].
pub(crate) fn route_lsft_spread(fabric: &Fabric, h: &LsftHoles, lids: &Lids) -> Result<DegradedRoutes> {
    lids.require_complete(fabric)?;
    if lids.lmc != 0 {
        return Err(Error::input("lmc", "an LSFT is spread with LMC 0", None));
    }
    if h.degree() > 256 {
        return Err(Error::input(
            "topology",
            "an LSFT of order above 255 cannot be spread",
            None,
        ));
    }
    let nl = h.leaf_count() as usize;
    let mut lfts = LftSet::new(fabric, lids.max_lid());
    let stride = lfts.stride;
    let cols = Columns::new(fabric, h, lids, stride)?;
    let sp = Spread::new(h);
    // where each leaf's slots start in a row of choices
    let mut first_slot = vec![0usize; nl + 1];
    for d in 0..nl {
        first_slot[d + 1] = first_slot[d] + cols.count[d].max(1) as usize;
    }
    let mut sl = vec![0u8; nl * stride];
    let sl_rows = sl_rows(&mut sl, &lfts, h);
    let switches = lfts.switches.clone();
    let missed: Vec<(u32, usize)> = lfts
        .ports
        .par_chunks_mut(stride)
        .zip(sl_rows.into_par_iter())
        .zip(switches.par_iter())
        .map_init(Vec::new, |buf, ((ports, sl_row), &sw)| {
            let (s, l) = (cols.point_of[sw as usize], cols.line_of[sw as usize]);
            let mut missing = Vec::new();
            // a leaf's choices for every slot of every other leaf, made per destination leaf
            let mut choice: Vec<Option<(u8, u8)>> = Vec::new();
            if s != u32::MAX {
                choice.resize(first_slot[nl], None);
                for d in (0..nl as u32).filter(|&d| d != s && h.leaves[d as usize] != DEAD) {
                    let (a, b) = (first_slot[d as usize], first_slot[d as usize + 1]);
                    sp.leaf_choices(s, d, (b - a) as u32, buf);
                    choice[a..b].copy_from_slice(buf);
                }
            }
            for (lid, &dest) in cols.dest.iter().enumerate() {
                let Dest::Host(d, port) = dest else {
                    continue; // switch LIDs: up*/down* below
                };
                let j = cols.host_slot[lid];
                ports[lid] = if s == d {
                    port
                } else if s != u32::MAX {
                    match choice[first_slot[d as usize] + j as usize] {
                        Some((p, x)) => {
                            sl_row[lid] = x;
                            p
                        }
                        None => {
                            missing.push((s, lid));
                            NO_ROUTE
                        }
                    }
                } else {
                    sp.spine_hop(l, d, j)
                };
            }
            missing
        })
        .flatten()
        .collect();
    let unrouted = missed
        .iter()
        .filter(|&&(s, lid)| !sp.hand_over(&mut lfts, &mut sl, &cols, s, lid))
        .count() as u64;
    super::complete_spine_entries(&mut lfts, h, &cols.line_of, &cols.dest);
    let switches = switch_lids::route(
        fabric,
        h,
        lids,
        &mut lfts,
        (&cols.point_of, &cols.line_of),
        &mut sl,
        stride,
    );
    let left = unrouted + switches.0;
    let escape = super::escape_the_rest(fabric, h, (lids, left), &mut lfts, (&mut sl, stride), &cols.point_of);
    // host routes here turn at most once; a switch-LID route may turn twice (third VL)
    Ok(DegradedRoutes::assemble(
        lfts,
        (sl, stride),
        (unrouted, 0),
        switches,
        escape,
    ))
}
