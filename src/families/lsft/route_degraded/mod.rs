//! Routing a degraded LSFT ([`LsftHoles`]): the family's routes where they survive, one
//! detour through another leaf where they do not, a detour through a relay whose own route
//! is a detour where no single one exists, switch LIDs by the intact rule over the
//! surviving cables, and the service levels that keep every virtual lane's channel
//! dependency graph acyclic with two data VLs — three when some route turns twice, one more
//! for the escape lane when some pair has no path the rule serves.
//!
//! Host destination at point d, at switch x:
//! * leaf s = d: the host's port;
//! * leaf s whose family route survives (spine join(s,d) alive, both cables there): up to
//!   it — unchanged from the intact tables, so every intact pair keeps its route and the
//!   rest of the fabric its conflict-free schedule;
//! * other leaves: up to a surviving spine l1 through s whose own entry for d leads on,
//!   chosen per host slot j of d by load: the least loaded of s's up links, family routes
//!   counted ([`balance::UpLinks`]) — LFTs route by destination, so spreading a leaf
//!   pair's detours over the destination's hosts is the most a table can do, and then no
//!   more flows share a detour than the destination host can receive anyway;
//! * spine l with d on it and the cable there: down to d; otherwise down to a relay leaf
//!   m on l (cable there, m's family route to d intact, m ≠ d — any leaf up to 2^7 leaves,
//!   else one that differs from d in the low 7 bits of its index), the one whose links
//!   l → m → join(m,d) → d carry least, heaviest (spine, d, slot) entries first
//!   ([`balance::relays`]; `near::relay_index` for entries no detour uses). A detour is
//!   s → l1 → m → join(m,d) → d: the shortest there is when the direct spine is gone, and
//!   loop-free because m's route is the family's;
//! * a slot no such detour serves ([`two_turn`]): up to a spine l1 without a one-turn relay
//!   for the slot, down to a leaf m1 whose own route (family, or a one-turn detour through
//!   m2) leads on: s → l1 → m1 → l2 → m2 → l3 → d, turning at m1 and m2.
//!
//! Switch destinations (leaf and spine LIDs, `switch_lids`): up*/down* by the family's
//! ranks — the intact router's rule (`routing::updown`: the root spine (line 0) rank 0, the
//! side-0 leaves of line 0's points rank 1, the other spines 2, the other leaves 3) — over
//! the surviving cables, so a fault changes only the columns whose routes crossed it. Where
//! up*/down* finds no legal path it steps sideways; such a path is kept when it turns once
//! or twice in an order some SL's VLs follow (a spine without a legal route hands a leaf
//! destination d to a relay next to d, a leaf tries its other up ports, fewest turns
//! first), else the leaf's entry is removed and counted
//! ([`DegradedRoutes::unrouted_switch_lids`]). One-sided, a rank-1 leaf cut from the root
//! spine turns twice to reach it: every other spine through it meets line 0 at the leaf
//! itself (a leaf of rank 3 cut from a spine t still goes up to the root and down through
//! t's rank-1 leaf).
//!
//! **Virtual lanes** ([`crate::routing::lanes`]). An SL-to-VL table maps by (SL, input port, output
//! port) at every hop, so the VL of a hop cannot depend on the VL the packet came in on.
//! The rule names J = min(7, bits of the largest leaf index) bipartitions of the leaves:
//! partition j (j < J) splits them by bit j of the leaf index; the partitions J..6 by the
//! parity of two (or all J) of those bits ([`super::lanes::pattern`]), for routes that turn
//! twice. SL 1 + 2j + b names partition j with *destination side* b:
//! * SL 0 (a route without a turn, or any path up, then down by rank): VL 0 everywhere;
//! * at a leaf: input from a host (or the leaf itself) → VL 0; input from a spine, output
//!   to a spine (a turn) → VL 1 at a leaf off the destination side, VL 2 at one on it;
//!   input from a spine, output to a host → VL 2;
//! * at a spine: output to a leaf off the destination side → VL 0; to a leaf on it → VL 1,
//!   or VL 2 when the input leaf is on it too;
//! * with two data VLs (no route turns twice: [`DegradedRoutes::data_vls`]) VL 2 reads VL
//!   1 — on paths that turn once no hop gets VL 2 but the last one, to a host.
//!
//! A one-turn detour s → l1 → m → l2 → d takes the lowest partition with m off d's side
//! and b = d's side ([`relay_sl`]; any two distinct indices below 2^J differ in one of
//! the J bits, so every relay m ≠ d qualifies up to 2^7 leaves): l1 → m is VL 0, the turn
//! at m and l2 → d VL 1. A two-turn route s → l1 → m1 → l2 → m2 → l3 → d takes a
//! partition with m1 off d's side and m2 on it ([`two_turn_sl`]): l1 → m1 VL 0; the turn
//! at m1 and l2 → m2 (in from off the side, out to it) VL 1; the turn at m2 and l3 → d (in
//! from the side, out to it) VL 2. Each hop's VL is computed from what its switch sees —
//! the SL, its own leaf index, and the leaves at its input and output ports.
//!
//! **Proof (per VL).** Call a path rank-legal when it goes up by the family's ranks, then
//! down, never up again after a down hop. No cable joins two switches of one rank, so
//! every up*/down* argument applies: on one VL, a set of rank-legal paths has an acyclic
//! CDG (a cycle of channels would need a dependency from a down hop to an up hop).
//! * Every physical leaf → spine → leaf path is rank-legal: going down then up there
//!   would need two rank-1 leaves on a rank-2 spine — two points of line 0 (side 0) joined
//!   by a line other than line 0, which a projective plane does not have (a point's two
//!   leaves, two-sided, are rank 1 and 3: down, then down). So the family routes, the twin
//!   alternatives and every route's part before its first turn are rank-legal, and so are
//!   the switch-LID paths on SL 0 by construction — with up to two physical turns, at
//!   rank-1 leaves, which the ranks allow.
//! * VL 0 carries exactly those: SL 0 paths whole, and the other paths up to their first
//!   turn (checked hop by hop with [`vl`] for every switch-LID path). Its CDG is acyclic.
//! * VL 1 carries, of every path on SL ≠ 0, the part from its first physical turn to its
//!   second (or to its end): up to a spine, then down. A dependency on VL 1 from a down
//!   hop to an up hop would be a turn at a leaf x whose incoming hop is on VL 1 — a spine
//!   hop to x on VL 1 means x is on the destination side of the path's partition, and a
//!   turn there is VL 2. Hops of different SLs (different partitions) share VL 1 but each
//!   dependency is between two consecutive hops of one path, under one SL, so this holds
//!   for all of them: VL 1 has no down → up dependency, and a cycle in the two-level
//!   graph (every cable joins a leaf and a spine) needs one. Its CDG is acyclic.
//! * VL 2 carries the part of a two-turn path after its second turn (up to a spine, then
//!   down to d, then to the host) and the last hop to a host of the other paths (a host
//!   channel has no dependency onward). No path turns a third time, so again no down → up
//!   dependency: acyclic.
//! * VLs never decrease along a path (0 before the first turn, 1 from it, 2 from the
//!   second), so no dependency runs from a higher VL to a lower one and a cycle would lie
//!   within one VL.
//!
//! The bound: 2 data VLs when no route turns twice, 3 otherwise, whatever the faults; the
//! SLs 1 ..= 14. Pairs that no such path serves (a pair of a connected fabric whose every
//! path turns three times, or whose two-turn relays all fail the partitions: m1 on d's
//! side of every partition that has m2 there) go on the escape lane
//! ([`crate::routing::escape`]: SL 15 and one more VL, on which they run whole); only what the lane
//! refuses, or the faults disconnect, is left unrouted and counted. Spines' own routes to switch LIDs are management traffic
//! (VL 15) and not part of the proof; as hops of leaves' paths they are.
//!
//! **Two-sided LSFT.** Every point has two leaves (leaf index side·n + point), both on the
//! point's q+1 lines; a spine has a cable to each leaf of each of its points. Everything
//! above is stated per leaf and holds as written: a spine reaches leaf d when its cable to
//! that leaf survives, a relay m is any leaf of either side on l1 (the other leaf of s
//! included) whose family route to d survives. New: the two leaves of one point. The
//! family route of host slot j goes over the (j mod (q+1))-th line through the point (as
//! on the intact fabric); when that spine or one of its two cables is gone, the slot goes
//! over another line through the point with both cables, spread by (s + d + j) — up, then
//! down, SL 0, no turn. With every line of the point broken for one of the two leaves the
//! pair takes a detour through a relay whose route is a detour, where one exists. A leaf
//! cut from a spine reaches it through its twin when up*/down* has no legal path
//! (s → l1 → twin(s) → t: one turn). The VL rule reads only what a hop sees — SL, the
//! leaf index of the switch and of the leaves at its ports — so the proof holds unchanged
//! (`tests/cli/degraded_twosided.rs` checks it on the tables).

use crate::error::{Error, Result};
use crate::families::lsft::model_holes::LsftHoles;
use crate::routing::escape::{self, Escape, ESCAPE_SL};
use crate::routing::lft::{LftSet, NO_ROUTE};
use crate::routing::lids::Lids;
use crate::routing::pipeline::{lsft_lanes, Around, Refusal, Routed, RoutedHoles};
use crate::topology::degraded::DEAD;
use crate::topology::{Fabric, NodeId};
use rayon::prelude::*;

mod balance;
mod columns;
mod near;
mod spread;
mod switch_lids;
mod two_turn;
use columns::{sl_rows, Columns, Dest};
use near::{Near, SpineOptions};
pub(crate) use spread::route_lsft_spread;
use two_turn::{Choice, Choices};

pub(crate) use super::lanes::{partitions, relay_sl, two_turn_sl, vl, End, DATA_VLS, MAX_DATA_VLS};

/// Routes of a degraded LSFT: the tables and the SL of every (source point, destination
/// LID) pair.
#[derive(Clone, Debug)]
pub(crate) struct DegradedRoutes {
    /// Forwarding tables of every switch.
    pub(crate) lfts: LftSet,
    /// `sl[i * stride + lid]`: the SL a host on the leaf with leaf index i (side·n + point)
    /// uses towards `lid`.
    pub(crate) sl: Vec<u8>,
    /// LIDs per row of `sl` (as in the tables).
    pub(crate) stride: usize,
    /// (Source leaf, host LID) pairs left without a route.
    pub(crate) unrouted: u64,
    /// (Source leaf, switch LID) pairs left without a route: up*/down* by the family's
    /// ranks has no legal path, every other path the tables allow turns more than twice
    /// or in an order no SL's VLs follow, and the escape lane cannot take it (no surviving
    /// path, or one closing a cycle on its VL). Management traffic to that switch goes
    /// directed-route.
    pub(crate) unrouted_switch_lids: u64,
    /// (Source leaf, host LID) pairs whose route turns twice (the third data VL).
    pub(crate) two_turn: u64,
    /// (Source leaf, switch LID) pairs whose route turns twice (the third data VL).
    pub(crate) two_turn_switch_lids: u64,
    /// Data VLs the routes need: [`DATA_VLS`] (2), or [`MAX_DATA_VLS`] (3) when some route
    /// turns twice — the rule's bound; one more when the escape lane carries a pair.
    pub(crate) data_vls: u8,
    /// The pairs the rule could not route, on the escape lane ([`crate::routing::escape`]: SL 15,
    /// a VL of its own); they are not counted in `unrouted` or `unrouted_switch_lids`.
    pub(crate) escape: Escape,
}

struct Router<'a> {
    h: &'a LsftHoles,
    near: Near,
    /// J, the leaf bipartitions the SLs name ([`partitions`]).
    parts: u32,
}

impl Router<'_> {
    /// Spine l's next hop towards host slot j of point d (j = 0 for the leaf itself): (down
    /// port, intermediate leaf or d), or none.
    fn spine_to_point(&self, l: u32, d: u32, j: u32) -> Option<(u8, u32)> {
        self.near.spine_to_point(self.h, l, d, j)
    }

    /// For the tables' completeness only (no detour uses it: leaves pick their first spine
    /// by [`Router::spine_to_point`]): a spine without a relay for d still hands traffic
    /// for d to any leaf on it whose family route to d survives.
    fn spine_fallback(&self, l: u32, d: u32, j: u32) -> Option<u8> {
        let h = self.h;
        let n = h.plane.size();
        let cands: Vec<u32> = (0..h.sides)
            .flat_map(|side| h.plane.points_on(l).iter().map(move |&m| side * n + m))
            .filter(|&m| h.point(m) != h.point(d) && h.down(l, m) != 0 && h.intact(m, d))
            .collect();
        (!cands.is_empty()).then(|| h.down(l, cands[near::relay_index(l, d, j, cands.len() as u32) as usize]))
    }

    /// Leaf s's next hop towards host slot j of point d (s ≠ d): (up port, SL).
    fn leaf_to_point(&self, s: u32, d: u32, j: u32) -> Option<(u8, u8)> {
        self.leaf_choices(s, d, j + 1)[j as usize].map(|(port, sl, _, _)| (port, sl))
    }

    /// Leaf s's next hop towards each host slot 0..slots of leaf d (s ≠ d): (up port, SL,
    /// the spine it goes up to, the leaf that spine hands it to: d or the relay) — the family's spine while that route survives, else a
    /// surviving spine whose own entry leads on, picked by (s + d + j) (by load in
    /// [`Router::leaf_choices_by`]); the spines' options
    /// are searched once per (s, d), not once per slot. The two leaves of one point
    /// (two-sided) share all q+1 spines: a slot whose family spine is broken goes over
    /// another spine with both cables, spread by (s + d + j), without a turn.
    fn leaf_choices(&self, s: u32, d: u32, slots: u32) -> Vec<Option<Choice>> {
        self.leaf_choices_by(s, d, slots, &mut |j, cands| ((s + d + j) % cands.len() as u32) as usize)
    }

    /// [`Router::leaf_choices`], the detours' first spine picked by `pick(j, candidates)`
    /// among (up port, the leaf that spine hands slot j to, the spine) — by load in
    /// [`balance::UpLinks`].
    fn leaf_choices_by(&self, s: u32, d: u32, slots: u32, pick: Pick<'_>) -> Vec<Option<Choice>> {
        let h = self.h;
        if h.point(s) == h.point(d) {
            let lines = h.plane.lines_through(h.point(s));
            let both: Vec<u32> = lines
                .iter()
                .copied()
                .filter(|&l| h.up(s, l) != 0 && h.down(l, d) != 0)
                .collect();
            return (0..slots)
                .map(|j| {
                    let l = match h.intact_slot(s, d, j) {
                        true => h.family_line(s, d, j),
                        false if both.is_empty() => return None,
                        false => both[((s + d + j) % both.len() as u32) as usize],
                    };
                    Some((h.up(s, l), 0, l, d))
                })
                .collect();
        }
        if h.intact(s, d) {
            let l = h.family_line(s, d, 0);
            return vec![Some((h.up(s, l), 0, l, d)); slots as usize];
        }
        let base = s as usize * h.plane.degree() as usize;
        let options: Vec<(u8, u32, SpineOptions)> = h
            .plane
            .lines_through(h.point(s))
            .iter()
            .enumerate()
            .filter(|&(k, _)| h.leaf_up[base + k] != 0)
            .map(|(k, &l)| (h.leaf_up[base + k], l, self.near.spine_options(h, l, d)))
            .collect();
        let mut cands: Vec<(u8, u32, u32)> = Vec::with_capacity(options.len());
        (0..slots)
            .map(|j| {
                cands.clear();
                cands.extend(
                    options
                        .iter()
                        .filter_map(|(port, l, o)| o.pick_point(*l, d, j).map(|m| (*port, m, *l)))
                        .filter(|&(_, m, _)| m != s),
                );
                (!cands.is_empty()).then(|| {
                    let (port, m, l) = cands[pick(j, &cands)];
                    // m == d: the spine reached d after all (no turn); else the spine's
                    // candidates are relays for d (`Near::relay_ok`): the SL exists
                    (
                        port,
                        if m == d {
                            0
                        } else {
                            relay_sl(m, d, self.parts).unwrap_or(0)
                        },
                        l,
                        m,
                    )
                })
            })
            .collect()
    }
}

/// How a leaf picks a detour's first spine for slot j among (up port, relay, spine).
type Pick<'p> = &'p mut dyn FnMut(u32, &[(u8, u32, u32)]) -> usize;

/// A broken pair's choice for one host slot: (source point, destination point, slot,
/// (up port, SL, first spine, relay) or none).
type SlotChoice = (u32, u32, u32, Option<Choice>);

/// A leaf's entry: the port of `found` with its SL recorded, or no route counted in
/// `missing`.
fn leaf_hop(found: Option<(u8, u8)>, sl: &mut u8, missing: &mut u64) -> u8 {
    match found {
        Some((port, s)) => {
            *sl = s;
            port
        }
        None => {
            *missing += 1;
            NO_ROUTE
        }
    }
}

/// Route every LID of a degraded LSFT (module documentation). Pairs that no path of the
/// rule serves go on the escape lane ([`DegradedRoutes::escape`]); host pairs that neither
/// connects are counted in [`DegradedRoutes::unrouted`], switch-LID pairs in
/// [`DegradedRoutes::unrouted_switch_lids`] (their entries stay unrouted).
pub(crate) fn route_lsft(fabric: &Fabric, h: &LsftHoles, lids: &Lids) -> Result<DegradedRoutes> {
    lids.require_complete(fabric)?;
    if lids.lmc != 0 {
        return Err(Error::input("lmc", "a degraded LSFT is routed with LMC 0", None));
    }
    let nl = h.leaf_count();
    let mut lfts = LftSet::new(fabric, lids.max_lid());
    let stride = lfts.stride;
    let cols = Columns::new(fabric, h, lids, stride)?;
    let r = Router {
        h,
        near: Near::new(h),
        parts: partitions(nl),
    };
    // the hosts each leaf's family routes reach over each of its lines, for the load picks
    let family = balance::Family::new(&r, &cols.count);
    let mut slots = broken_pair_choices(&r, &cols.count, &family);
    // the spines' relays by load ([`balance`]): the choices' relays and SLs follow
    let relays = balance::relays(&r, &mut slots, &cols.count, &family);
    let mut needed = Needed::new(h);
    let mut choices = record_choices(slots, &mut needed);
    // the slots no one-turn detour serves: two turns where the fabric allows
    // (`two_turn`); their first spines' entries are set here, not by the one-turn rule
    let (second, host_two_turn) = two_turn::route(&r, &mut choices);
    for &((l, d, j), _) in &second {
        needed.mark(l, d, j);
    }
    let second: std::collections::HashMap<(u32, u32, u32), u8> = second.into_iter().collect();
    let mut sl = vec![0u8; nl as usize * stride];
    let host_columns = HostColumns {
        r: &r,
        cols: &cols,
        choices: &choices,
        relays: &relays,
        second: &second,
        needed: &needed,
    };
    let unrouted = host_columns.fill(&mut lfts, &mut sl);
    complete_spine_entries(&mut lfts, h, &cols.line_of, &cols.dest);
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
    let escape = escape_the_rest(fabric, h, (lids, left), &mut lfts, (&mut sl, stride), &cols.point_of);
    Ok(DegradedRoutes::assemble(
        lfts,
        (sl, stride),
        (unrouted, host_two_turn),
        switches,
        escape,
    ))
}

/// Every broken pair's choice for every host slot, made once here and used again for its
/// entries: (source point, destination point, slot, choice), sources in parallel (rayon),
/// each source's pairs in order.
fn broken_pair_choices(r: &Router<'_>, count: &[u32], family: &balance::Family) -> Vec<SlotChoice> {
    let (h, near) = (r.h, &r.near);
    let nl = h.leaf_count();
    let touched_points: Vec<u32> = (0..nl).filter(|&p| near.point[p as usize]).collect();
    let per_source: Vec<Vec<SlotChoice>> = (0..nl)
        .into_par_iter()
        .map(|s| {
            let mut out = Vec::new();
            if h.leaves[s as usize] == DEAD {
                return out;
            }
            // a pair of untouched points is intact: only pairs with a touched end can be broken
            let all: Vec<u32>;
            let ds: &[u32] = if near.point[s as usize] {
                all = (0..nl).collect();
                &all
            } else {
                &touched_points
            };
            // the detours' first spines by load on s's up links ([`balance::UpLinks`])
            let mut up = balance::UpLinks::new(r, s, family);
            for &d in ds.iter().filter(|&&d| d != s && !h.intact(s, d)) {
                let slots = r.leaf_choices_by(s, d, count[d as usize].max(1), &mut |j, cands| up.pick(s, d, j, cands));
                out.extend(slots.into_iter().enumerate().map(|(j, c)| (s, d, j as u32, c)));
            }
            out
        })
        .collect();
    per_source.into_iter().flatten().collect()
}

/// The choices by (source, destination, slot), each detour's first spine entry marked
/// needed.
fn record_choices(slots: Vec<SlotChoice>, needed: &mut Needed) -> Choices {
    let mut choices: Choices = std::collections::HashMap::new();
    for (s, d, j, choice) in slots {
        if let Some((_, _, l, _)) = choice {
            needed.mark(l, d, j);
        }
        choices.insert((s, d, j), choice);
    }
    choices
}

/// Spine entries (spine l, host slot j of point d) some detour goes through: these follow
/// the VL rule; the others keep the intact tables' hand-over (a bit per entry).
struct Needed {
    nl: u32,
    /// Host slots per point (slots beyond share the last bit).
    dd: usize,
    needed: Vec<u64>,
    /// One bit per (spine l, point d): some slot of d is needed (a spine row's bits are
    /// 132 bytes at LSFT(32), where the per-slot bits are 4 KB: the hot loop reads these).
    any_needed: Vec<u64>,
}

impl Needed {
    fn new(h: &LsftHoles) -> Needed {
        let (n, nl, dd) = (h.plane.size(), h.leaf_count(), h.plane.degree() as usize);
        Needed {
            nl,
            dd,
            needed: vec![0u64; ((n * nl) as usize * dd).div_ceil(64)],
            any_needed: vec![0u64; ((n * nl) as usize).div_ceil(64)],
        }
    }

    #[inline]
    fn bit(&self, l: u32, d: u32, j: u32) -> usize {
        ((l * self.nl + d) as usize) * self.dd + (j as usize).min(self.dd - 1)
    }

    fn mark(&mut self, l: u32, d: u32, j: u32) {
        let b = self.bit(l, d, j);
        self.needed[b / 64] |= 1 << (b % 64);
        let a = (l * self.nl + d) as usize;
        self.any_needed[a / 64] |= 1 << (a % 64);
    }

    #[inline]
    fn is_needed(&self, l: u32, d: u32, j: u32) -> bool {
        let a = (l * self.nl + d) as usize;
        if self.any_needed[a / 64] >> (a % 64) & 1 == 0 {
            return false;
        }
        let b = self.bit(l, d, j);
        self.needed[b / 64] >> (b % 64) & 1 == 1
    }
}

/// What filling the host-LID columns reads: the LIDs, the detours chosen, the spines'
/// relays and second turns.
struct HostColumns<'a> {
    r: &'a Router<'a>,
    cols: &'a Columns,
    choices: &'a Choices,
    relays: &'a balance::Relays,
    second: &'a std::collections::HashMap<(u32, u32, u32), u8>,
    needed: &'a Needed,
}

impl HostColumns<'_> {
    /// Every host-LID entry of every switch, every row on its own (rayon): a leaf row
    /// writes its own SL row and counts its own misses. Returns the (leaf, host LID) pairs
    /// without a route.
    fn fill(&self, lfts: &mut LftSet, sl: &mut [u8]) -> u64 {
        let h = self.r.h;
        let (stride, nl) = (lfts.stride, h.leaf_count());
        let sl_rows = sl_rows(sl, lfts, h);
        let switches = lfts.switches.clone();
        let missed: Vec<u64> = lfts
            .ports
            .par_chunks_mut(stride)
            .zip(sl_rows.into_par_iter())
            .zip(switches.par_iter())
            .map_init(
                || vec![0u8; nl as usize],
                |to_point, ((ports, sl_row), &sw)| self.fill_row(sw, ports, sl_row, to_point),
            )
            .collect();
        missed.iter().sum()
    }

    /// Switch `sw`'s host-LID entries (`ports`), with `to_point` as scratch; on a leaf its
    /// SLs into `sl_row`. Returns its entries without a route.
    fn fill_row(&self, sw: NodeId, ports: &mut [u8], sl_row: &mut [u8], to_point: &mut [u8]) -> u64 {
        let (h, r, cols) = (self.r.h, self.r, self.cols);
        let host_slot = &cols.host_slot;
        let mut unrouted = 0u64;
        let (p, l) = (cols.point_of[sw as usize], cols.line_of[sw as usize]);
        family_ports(h, (p, l), to_point);
        // the intact tables' hand-over at a spine that does not reach d: the point where it
        // meets the root line 0 (on line 0 itself, its j-th point) — kept where its cable
        // survives, so a fault changes only the entries detours need
        let via = (p == u32::MAX && l != 0).then(|| h.plane.meet(l, 0));
        for (lid, &d) in cols.dest.iter().enumerate() {
            let port = match (d, p != u32::MAX) {
                // switch LIDs: up*/down* below ([`switch_lids`])
                (Dest::None | Dest::Switch, _) => continue,
                // at a leaf
                (Dest::Host(dp, hp), true) if dp == p => hp,
                // the other leaf of the point (two-sided): the slot's family spine while
                // both its cables survive
                (Dest::Host(dp, _), true) if h.point(dp) == h.point(p) && h.intact_slot(p, dp, host_slot[lid]) => {
                    h.up(p, h.family_line(p, dp, host_slot[lid]))
                }
                (Dest::Host(dp, _), true) if to_point[dp as usize] != 0 => to_point[dp as usize],
                (Dest::Host(dp, _), true) => leaf_hop(
                    match self.choices.get(&(p, dp, host_slot[lid])) {
                        Some(&c) => c.map(|(port, sl, _, _)| (port, sl)),
                        None => r.leaf_to_point(p, dp, host_slot[lid]),
                    },
                    &mut sl_row[lid],
                    &mut unrouted,
                ),
                // at a spine
                (Dest::Host(dp, _), false) if to_point[dp as usize] != 0 => to_point[dp as usize],
                (Dest::Host(dp, _), false) => self.spine_entry((l, via), dp, host_slot[lid], to_point),
            };
            ports[lid] = port;
        }
        unrouted
    }

    /// Spine `l`'s entry towards slot `j` of point `dp` where its family cable does not
    /// reach it: the detour rule where a detour needs the entry, else the intact tables'
    /// hand-over (at `via`) where its cable survives.
    fn spine_entry(&self, (l, via): (u32, Option<u32>), dp: u32, j: u32, to_point: &[u8]) -> u8 {
        let (h, r) = (self.r.h, self.r);
        // the intact tables' hand-over, where its cable survives
        let handover = || {
            let via = via.unwrap_or_else(|| {
                let pts = h.plane.points_on(0);
                pts[j as usize % pts.len()]
            });
            Some(to_point[via as usize]).filter(|&port| port != 0 && via != dp)
        };
        let rule = || {
            self.relays
                .get(l, dp, j)
                .map(|m| (h.down(l, m), m))
                .or_else(|| r.spine_to_point(l, dp, j))
                .map(|x| x.0)
                .or_else(|| r.spine_fallback(l, dp, j))
        };
        match self.needed.is_needed(l, dp, j) {
            false => handover().or_else(rule),
            // the first spine of a route that turns twice; else the one-turn rule (a slot
            // sharing the needed bit without a route through here: the hand-over)
            true => match (!self.second.is_empty())
                .then(|| self.second.get(&(l, dp, j)))
                .flatten()
            {
                Some(&port) => Some(port),
                None => rule().or_else(handover),
            },
        }
        .unwrap_or(NO_ROUTE)
    }
}

/// The family's port towards every point (leaf index) from the switch at leaf `p` or
/// spine `l` (0: not intact, or not from here), into `to_point`.
fn family_ports(h: &LsftHoles, (p, l): (u32, u32), to_point: &mut [u8]) {
    let (n, dd) = (h.plane.size(), h.plane.degree() as usize);
    to_point.fill(0);
    let sd = h.sides as usize * dd;
    if p != u32::MAX {
        let pp = h.point(p);
        for (k, &line) in h.plane.lines_through(pp).iter().enumerate() {
            let up = h.leaf_up[p as usize * dd + k];
            for side in 0..h.sides {
                for (kk, &d) in h.plane.points_on(line).iter().enumerate() {
                    let down = h.spine_down[line as usize * sd + side as usize * dd + kk];
                    if d != pp && up != 0 && down != 0 {
                        to_point[(side * n + d) as usize] = up;
                    }
                }
            }
        }
    } else {
        for side in 0..h.sides {
            for (kk, &d) in h.plane.points_on(l).iter().enumerate() {
                to_point[(side * n + d) as usize] = h.spine_down[l as usize * sd + side as usize * dd + kk];
            }
        }
    }
}

/// For the tables' completeness only: a spine's host-LID entry that is still empty (no
/// host path crosses it — a leaf whose route went there would have a broken route) hands
/// the packet to a leaf on the spine whose own entry for the LID is routed and does not
/// lead back up to this spine, so a packet that starts at the spine (management traffic,
/// not a data VL's) arrives.
fn complete_spine_entries(lfts: &mut LftSet, h: &LsftHoles, line_of: &[u32], dest: &[Dest]) {
    let stride = lfts.stride;
    let fixes: Vec<(usize, u8)> = lfts
        .switches
        .par_iter()
        .enumerate()
        .flat_map_iter(|(row, &sw)| {
            let l = line_of[sw as usize];
            let lfts = &*lfts;
            dest.iter().enumerate().filter_map(move |(lid, &d)| {
                if l == u32::MAX || !matches!(d, Dest::Host(..)) || lfts.ports[row * stride + lid] != NO_ROUTE {
                    return None;
                }
                let m = h.plane.points_on(l).iter().flat_map(|&x| h.leaves_at(x)).find(|&m| {
                    let at = h.leaves[m as usize];
                    h.down(l, m) != 0 && {
                        let port = lfts.ports[lfts.row_of[at as usize] as usize * stride + lid];
                        port != NO_ROUTE && port != h.up(m, l)
                    }
                })?;
                Some((row * stride + lid, h.down(l, m)))
            })
        })
        .collect();
    for (i, port) in fixes {
        lfts.ports[i] = port;
    }
}

/// What the rule left unrouted goes on the escape lane, where the fabric connects it: the
/// entries are written into `lfts`, the pairs' SL into `sl` (per leaf index, `point_of`).
/// `left` is what the rule counted unrouted ((leaf, host LID) plus (leaf, switch LID)
/// pairs): when it is 0 there is nothing to look for, and the fault response does not pay
/// the scan of every leaf's table (0.02–0.03 s on LSFT(32)).
fn escape_the_rest(
    fabric: &Fabric,
    h: &LsftHoles,
    (lids, left): (&Lids, u64),
    lfts: &mut LftSet,
    (sl, stride): (&mut [u8], usize),
    point_of: &[u32],
) -> Escape {
    if left == 0 {
        return Escape::default();
    }
    let leaves: Vec<NodeId> = h.leaves.iter().copied().filter(|&a| a != DEAD).collect();
    let escape = escape::route(fabric, lids, lfts, &leaves);
    for &(leaf, lid) in &escape.pairs {
        sl[point_of[leaf as usize] as usize * stride + lid as usize] = ESCAPE_SL;
    }
    escape
}

impl DegradedRoutes {
    /// The routes of tables whose host entries leave `unrouted` (leaf, host LID) pairs and
    /// turn twice `two_turn` times, and whose switch-LID columns left (unrouted, turning
    /// twice) pairs: three data VLs when any route turns twice, else two.
    fn assemble(
        lfts: LftSet,
        (sl, stride): (Vec<u8>, usize),
        (unrouted, two_turn): (u64, u64),
        (unrouted_switch_lids, two_turn_switch_lids): (u64, u64),
        escape: Escape,
    ) -> DegradedRoutes {
        let turn_twice = two_turn + two_turn_switch_lids > 0;
        DegradedRoutes {
            lfts,
            sl,
            stride,
            unrouted: unrouted.saturating_sub(escape.host_pairs),
            unrouted_switch_lids: unrouted_switch_lids.saturating_sub(escape.switch_pairs),
            two_turn,
            two_turn_switch_lids,
            data_vls: if turn_twice { MAX_DATA_VLS } else { DATA_VLS } + escape.used() as u8,
            escape,
        }
    }
}

impl RoutedHoles for LsftHoles {
    /// Detours through another leaf, with virtual lanes (or spread, as asked).
    fn route(&self, at: &Around<'_>) -> std::result::Result<Routed, Refusal> {
        lsft_lanes(at.fabric, self, at.lids, at.ask, at.description)
    }
}

#[cfg(test)]
mod tests;
