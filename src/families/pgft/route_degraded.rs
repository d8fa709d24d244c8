//! Routing a degraded PGFT (k-ary n-tree, two-level fat-tree: [`PgftHoles`]) up*/down*
//! around its holes, deadlock-free on one VL — in the spirit of Dmodc (Gliksberg et al.,
//! IEEE Micro 2020): a cheap preprocessing of what every switch still reaches, then a
//! closed-form modulo choice per entry.
//!
//! **Preprocessing**, one bitset over the leaves per switch:
//! * `down[s]`: the leaves s reaches going down only — a leaf itself, then level by level
//!   the union over the children a surviving cable leads to;
//! * `reach[s]`: the leaves s reaches by up*/down* — `down[s]` or `reach` of any parent a
//!   surviving cable leads to (the top level: `down`).
//!
//! **Entry of switch s (level l) for a host at balance index d on leaf λ** ([`crate::families::pgft::route`];
//! its slot for the leaf's own down port):
//! * s is λ: the host's port;
//! * s reaches λ going down: the intact d-mod-k cable towards child a_l(d) (the only child
//!   whose subtree holds λ) when it survives, else the surviving cables to that child,
//!   chosen by d modulo their number;
//! * otherwise up: the candidates are the surviving up cables to parents that reach λ going
//!   down (the turn is there: shortest), or, when there are none, to parents that reach λ
//!   at all; the intact up port u_{l+1}(d) when it is a candidate (so every route the faults
//!   do not touch is the intact one), else the candidates by d modulo their number (spread).
//!
//! * a switch above the leaves that reaches λ by no up*/down* path (a top switch whose only
//!   child in λ's subtree lost its cable to λ; no host route passes it) sends a packet that
//!   starts there (management) down towards a child that reaches λ by going down first and
//!   then up*/down* (`any`, bottom-up), by d modulo their number: down until a switch with
//!   an up*/down* path, then that path — no loop, and no host route has such a turn.
//!
//! Every path climbs through switches that reach λ and turns down at the first that reaches
//! it going down, then only descends through switches that reach it going down: up, then
//! down, never a loop, and the channel dependency graph of all such paths is acyclic on one
//! VL (the levels rank the channels). A leaf that reaches λ by no up*/down* path gets no
//! route for λ's hosts; those (leaf, LID) pairs are counted and named, never a panic.
//!
//! Switch LIDs are routed up*/down* over the surviving cables by level ([`crate::routing::updown`],
//! the intact families' rule), so their entries too stay as they were away from the faults.
//! A leaf whose cable into the destination switch's copy class is cut has no up*/down* path
//! to it (k-ary n-tree: the top switches above a middle switch are reached only through the
//! middle switches of its class). On one VL a route that turns up again would put a cycle
//! into the host-sourced channel dependency graph; a detour turning once at a relay leaf
//! or a level-2 switch is kept on SL 1 or 2 with a second VL ([`crate::families::tree::lanes`],
//! [`PgftDegradedRoutes::detours`]; [`PgftDegradedRoutes::drop_detours`] for one VL), any
//! other goes on the escape lane ([`PgftDegradedRoutes::escape`]), and only what that
//! cannot serve is left unrouted and counted ([`PgftDegradedRoutes::unrouted_switch_lids`]).

use crate::error::{Error, Result};
use crate::families::pgft::model_holes::PgftHoles;
use crate::families::tree::route_degraded::{name_pairs, route_switch_lids, Div, TreeRoutes, NAMED};
use crate::routing::lft::{LftSet, NO_ROUTE};
use crate::routing::lids::{positioned_host_lids, Lids};
use crate::routing::pipeline::{Around, Refusal, Routed, RoutedHoles};
use crate::topology::degraded::DEAD;
use crate::topology::{Fabric, NodeId};
use rayon::prelude::*;

/// The tables of a degraded PGFT and the pairs they cannot serve (the shape every
/// degraded tree's up*/down* routes share).
pub(crate) type PgftDegradedRoutes = TreeRoutes;

/// Bottom-up over the switches above the leaves: OR into each switch's row of `bits`
/// (`words` per switch) the rows of the children it still has a cable to.
fn or_children(h: &PgftHoles, words: usize, bits: &mut [u64]) {
    let l = &h.layout;
    let p = &l.params;
    for s in p.switches_at(1) as usize..l.switches.len() {
        let (lv, a, b) = l.coords(s as u32);
        let (m, pp) = (p.m(lv), p.p(lv));
        let wb: u32 = (1..lv).map(|j| p.w(j)).product();
        let (lo, hi) = bits.split_at_mut(s * words);
        for k in 0..m {
            if (0..pp).any(|c| h.down(s as u32, k * pp + c) != 0) {
                let t = h.slot(lv - 1, a * m + k, b % wb) as usize;
                hi[..words]
                    .iter_mut()
                    .zip(&lo[t * words..(t + 1) * words])
                    .for_each(|(x, y)| *x |= y);
            }
        }
    }
}

/// The reach bitsets of the module doc.
struct Reach {
    words: usize,
    down: Vec<u64>,
    reach: Vec<u64>,
    /// `any[s]`: the leaves s reaches down first, then by up*/down* (management only).
    any: Vec<u64>,
}

impl Reach {
    fn new(h: &PgftHoles) -> Reach {
        let l = &h.layout;
        let p = &l.params;
        let ns = l.switches.len();
        let nl = p.switches_at(1) as usize;
        let words = nl.div_ceil(64);
        let mut down = vec![0u64; ns * words];
        for s in 0..nl {
            if l.switches[s] != DEAD {
                down[s * words + s / 64] |= 1 << (s % 64);
            }
        }
        or_children(h, words, &mut down);
        let mut reach = down.clone();
        for s in (0..l.offset[p.levels as usize - 1] as usize).rev() {
            let (lv, a, b) = l.coords(s as u32);
            let (w, wl) = (p.w(lv + 1), (1..=lv).map(|j| p.w(j)).product::<u32>());
            let (lo, hi) = reach.split_at_mut((s + 1) * words);
            for u in 0..p.up_ports(lv) {
                if h.up(s as u32, u) != 0 {
                    let t = h.slot(lv + 1, a / p.m(lv + 1), b + (u % w) * wl) as usize - s - 1;
                    lo[s * words..]
                        .iter_mut()
                        .zip(&hi[t * words..(t + 1) * words])
                        .for_each(|(x, y)| *x |= y);
                }
            }
        }
        // `any`: reach, or a child with any (down first, then up*/down*): bottom-up
        let mut any = reach.clone();
        or_children(h, words, &mut any);
        Reach {
            words,
            down,
            reach,
            any,
        }
    }

    #[inline]
    fn any(&self, s: u32, leaf: u32) -> bool {
        self.any[s as usize * self.words + leaf as usize / 64] >> (leaf % 64) & 1 == 1
    }

    #[inline]
    fn down(&self, s: u32, leaf: u32) -> bool {
        self.down[s as usize * self.words + leaf as usize / 64] >> (leaf % 64) & 1 == 1
    }

    #[inline]
    fn reach(&self, s: u32, leaf: u32) -> bool {
        self.reach[s as usize * self.words + leaf as usize / 64] >> (leaf % 64) & 1 == 1
    }
}

/// Route every LID of a degraded PGFT (module doc) with LMC 0.
pub(crate) fn route_pgft(fabric: &Fabric, h: &PgftHoles, lids: &Lids) -> Result<PgftDegradedRoutes> {
    lids.require_complete(fabric)?;
    if lids.lmc != 0 {
        return Err(Error::input("lmc", "a degraded PGFT is routed with LMC 0", None));
    }
    let slot_of = switch_slots(fabric, h);
    let mut lfts = LftSet::new(fabric, lids.max_lid());
    let dests = host_dests(fabric, h, lids, &slot_of)?;
    let plan = Plan::new(h, slot_of, dests);
    let stride = lfts.stride;
    let switches = lfts.switches.clone();
    let unrouted: Vec<(u64, Vec<(u32, u32)>)> = lfts
        .ports
        .par_chunks_mut(stride)
        .zip(switches.par_iter())
        .map(|(row, &node)| plan.route_row(row, node))
        .collect();
    Ok(finish(fabric, lids, &plan, lfts, &switches, &unrouted))
}

/// Fabric node -> layout slot of every live switch (`u32::MAX` elsewhere): the rows are
/// walked by fabric node, the closed forms work on slots.
fn switch_slots(fabric: &Fabric, h: &PgftHoles) -> Vec<u32> {
    let mut slot_of = vec![u32::MAX; fabric.len()];
    for (s, &n) in h.layout.switches.iter().enumerate() {
        if n != DEAD {
            slot_of[n as usize] = s as u32;
        }
    }
    slot_of
}

/// The host LIDs as (tree position, LID), sorted so each leaf's hosts are contiguous; a
/// LID on anything but a host or a live switch of the layout is refused before any
/// table is filled.
fn host_dests(fabric: &Fabric, h: &PgftHoles, lids: &Lids, slot_of: &[u32]) -> Result<Vec<(u32, u32)>> {
    let l = &h.layout;
    let placed = l.hosts.iter().zip(&l.host_pos);
    let in_layout = |n: NodeId| slot_of[n as usize] != u32::MAX;
    let dests = positioned_host_lids(fabric, lids, placed, in_layout, || l.params.describe())?;
    Ok(dests.into_iter().map(|(d, lid, _)| (d, lid)).collect())
}

/// What every switch row reads, worked out once before the rows are filled in parallel.
struct Plan<'a> {
    h: &'a PgftHoles,
    slot_of: Vec<u32>,
    /// (tree position, LID) of every host LID, sorted.
    dests: Vec<(u32, u32)>,
    /// Per leaf: the start of its hosts in `dests` (and one past the last leaf's end).
    first: Vec<u32>,
    reach: Reach,
    /// W_l per level.
    wprod: Vec<u32>,
    /// Π_{2≤j<l} m_j per level.
    mbelow: Vec<u32>,
    m1: u32,
}

impl<'a> Plan<'a> {
    fn new(h: &'a PgftHoles, slot_of: Vec<u32>, dests: Vec<(u32, u32)>) -> Plan<'a> {
        let p = &h.layout.params;
        let hl = p.levels;
        // the closed forms take a host's balance index (its leaf's first slot plus its count
        // among that leaf's hosts: [`crate::families::pgft::route`]), the leaf's own down port its slot
        let m1 = p.m(1);
        // per leaf: its range in `dests`
        let nl = p.switches_at(1) as usize;
        let mut first = vec![0u32; nl + 1];
        for &(d, _) in &dests {
            first[(d / m1) as usize + 1] += 1;
        }
        for i in 0..nl {
            first[i + 1] += first[i];
        }
        let reach = Reach::new(h);
        // W_l and Π_{2≤j<l} m_j per level
        let mut wprod = vec![1u32; hl as usize + 2];
        let mut mbelow = vec![1u32; hl as usize + 2];
        for lv in 1..=hl as usize {
            wprod[lv] = wprod[lv - 1] * p.w(lv as u32);
            mbelow[lv + 1] = if lv >= 2 { mbelow[lv] * p.m(lv as u32) } else { 1 };
        }
        Plan {
            h,
            slot_of,
            dests,
            first,
            reach,
            wprod,
            mbelow,
            m1,
        }
    }

    /// Fill the host entries of one switch's row, leaf by leaf; returns the (leaf, LID)
    /// pairs it could not route, counted and the first few named.
    fn route_row(&self, row: &mut [u8], node: u32) -> (u64, Vec<(u32, u32)>) {
        let s = self.slot_of[node as usize];
        if s == u32::MAX {
            return (0, Vec::new());
        }
        let mut r = Row::new(self, node, s);
        for lam in 0..self.first.len() as u32 - 1 {
            let range = &self.dests[self.first[lam as usize] as usize..self.first[lam as usize + 1] as usize];
            if range.is_empty() {
                continue;
            }
            r.leaf_entries(lam, range, row);
        }
        r.missing
    }

    /// The up*/down* rank of every switch by its level (top 0): the switch LIDs are
    /// routed by it, and a dead or foreign switch gets none.
    fn switch_rank(&self, switches: &[u32]) -> Vec<u32> {
        let l = &self.h.layout;
        let hl = l.params.levels;
        switches
            .iter()
            .map(|&n| match self.slot_of[n as usize] {
                u32::MAX => u32::MAX,
                s => hl - l.coords(s).0,
            })
            .collect()
    }
}

/// One switch's row being filled: its coordinates, its up cables and the divisors of its
/// closed forms, worked out once per row rather than once per entry.
struct Row<'p> {
    plan: &'p Plan<'p>,
    node: u32,
    s: u32,
    lv: u32,
    a: u32,
    b: u32,
    /// Its up ports (0: cable missing) and the parents they lead to.
    up_port: Vec<u8>,
    up_to: Vec<u32>,
    by_w: Div,
    by_ups: Div,
    by_wb: Div,
    by_wpp: Div,
    by_wl: Div,
    /// Scratch for the leaf at hand: candidate ports, and which up ports qualify.
    cands: Vec<u32>,
    okv: Vec<bool>,
    /// Unroutable (leaf, LID) pairs: their count and the first few.
    missing: (u64, Vec<(u32, u32)>),
}

impl<'p> Row<'p> {
    fn new(plan: &'p Plan<'p>, node: u32, s: u32) -> Row<'p> {
        let h = plan.h;
        let l = &h.layout;
        let p = &l.params;
        let (lv, a, b) = l.coords(s);
        let wprod = &plan.wprod;
        // this switch's up ports and the parents they lead to (port 0: cable missing)
        let w = p.w(lv + 1);
        let up_port: Vec<u8> = (0..p.up_ports(lv)).map(|u| h.up(s, u)).collect();
        let up_to: Vec<u32> = (0..p.up_ports(lv))
            .map(|u| match up_port[u as usize] {
                0 => 0,
                _ => h.slot(lv + 1, a / p.m(lv + 1), b + (u % w) * wprod[lv as usize]),
            })
            .collect();
        let okv = vec![false; up_port.len()];
        // the divisors of this row's closed forms, each position divided by multiplication
        Row {
            plan,
            node,
            s,
            lv,
            a,
            b,
            by_w: Div::new(wprod[lv as usize]),
            by_ups: Div::new(up_port.len() as u32),
            by_wb: Div::new(wprod[lv as usize - 1]),
            by_wpp: Div::new(p.w(lv) * p.p(lv)),
            by_wl: Div::new(p.w(lv)),
            up_port,
            up_to,
            cands: Vec::new(),
            okv,
            missing: (0, Vec::new()),
        }
    }

    /// The entries for the hosts of leaf λ (`range`): which rule of the module doc applies
    /// depends only on where this switch stands relative to λ.
    fn leaf_entries(&mut self, lam: u32, range: &[(u32, u32)], row: &mut [u8]) {
        let (h, reach) = (self.plan.h, &self.plan.reach);
        if self.lv == 1 && self.a == lam {
            for &(d, lid) in range {
                row[lid as usize] = h.down(self.s, d % self.plan.m1);
            }
        } else if reach.down(self.s, lam) {
            self.down_entries(lam, range, row);
        } else if !reach.reach(self.s, lam) && self.lv > 1 {
            self.stranded_entries(lam, range, row);
        } else {
            self.up_entries(lam, range, row);
        }
    }

    /// Going down to the child whose subtree holds λ: the intact cable where it survives,
    /// so untouched routes stay as they were, else the survivors to that child spread by d.
    fn down_entries(&mut self, lam: u32, range: &[(u32, u32)], row: &mut [u8]) {
        let (h, p, s) = (self.plan.h, &self.plan.h.layout.params, self.s);
        // the child whose subtree holds λ, on the cables that survive
        let (m, pp) = (p.m(self.lv), p.p(self.lv));
        let k = (lam / self.plan.mbelow[self.lv as usize]) % m;
        let cands = &mut self.cands;
        cands.clear();
        cands.extend((0..pp).filter(|&c| h.down(s, k * pp + c) != 0));
        for (b, &(_, lid)) in (lam * self.plan.m1..).zip(range) {
            let c = self.by_wl.div(self.by_wpp.rem(self.by_wb.div(b)));
            let port = h.down(s, k * pp + c);
            row[lid as usize] = match port {
                0 if cands.is_empty() => NO_ROUTE,
                0 => h.down(s, k * pp + cands[(b % cands.len() as u32) as usize]),
                port => port,
            };
        }
    }

    /// No up*/down* path from here: no host route passes this switch, but a packet that
    /// starts here (management) must still leave, down to a child that has one.
    fn stranded_entries(&mut self, lam: u32, range: &[(u32, u32)], row: &mut [u8]) {
        let (h, p, s) = (self.plan.h, &self.plan.h.layout.params, self.s);
        let (lv, a, sb) = (self.lv, self.a, self.b);
        let reach = &self.plan.reach;
        let (m, pp) = (p.m(lv), p.p(lv));
        let wb = self.plan.wprod[lv as usize - 1];
        let cands = &mut self.cands;
        cands.clear();
        cands.extend(
            (0..m * pp).filter(|&k| h.down(s, k) != 0 && reach.any(h.slot(lv - 1, a * m + k / pp, sb % wb), lam)),
        );
        for (b, &(_, lid)) in (lam * self.plan.m1..).zip(range) {
            row[lid as usize] = match cands.len() {
                0 => NO_ROUTE,
                n => h.down(s, cands[(b % n as u32) as usize]),
            };
        }
    }

    /// Going up: to parents where the route can turn down (shortest) or else that reach λ
    /// at all; the intact port when it qualifies, so the faults move only what they touch.
    fn up_entries(&mut self, lam: u32, range: &[(u32, u32)], row: &mut [u8]) {
        let reach = &self.plan.reach;
        let (up_port, up_to, okv) = (&self.up_port, &self.up_to, &mut self.okv);
        let ups = up_port.len();
        let turning = (0..ups).any(|u| up_port[u] != 0 && reach.down(up_to[u], lam));
        let cands = &mut self.cands;
        cands.clear();
        for u in 0..ups {
            okv[u] = up_port[u] != 0
                && if turning {
                    reach.down(up_to[u], lam)
                } else {
                    reach.reach(up_to[u], lam)
                };
            if okv[u] {
                cands.push(u as u32);
            }
        }
        for (b, &(_, lid)) in (lam * self.plan.m1..).zip(range) {
            let u = self.by_ups.rem(self.by_w.div(b)) as usize;
            row[lid as usize] = if cands.is_empty() {
                if self.lv == 1 {
                    self.missing.0 += 1;
                    if self.missing.1.len() < NAMED {
                        self.missing.1.push((self.node, lid));
                    }
                }
                NO_ROUTE
            } else if okv[u] {
                up_port[u]
            } else {
                up_port[cands[(b % cands.len() as u32) as usize] as usize]
            };
        }
    }
}

/// The switch LIDs and the assembled result: up*/down* by level over the surviving cables
/// (the intact families' rule), then the escape lane for whatever is still unrouted.
fn finish(
    fabric: &Fabric,
    lids: &Lids,
    plan: &Plan<'_>,
    mut lfts: LftSet,
    switches: &[u32],
    unrouted: &[(u64, Vec<(u32, u32)>)],
) -> PgftDegradedRoutes {
    // switch LIDs: up*/down* by level over the surviving cables
    let rank = plan.switch_rank(switches);
    let (unrouted_switch_lids, detours) = route_switch_lids(fabric, &mut lfts, lids, &rank);
    let named = name_pairs(fabric, lids, unrouted.iter().flat_map(|x| x.1.iter()));
    let mut r = TreeRoutes {
        lfts,
        unrouted: unrouted.iter().map(|x| x.0).sum(),
        unrouted_named: named,
        unrouted_switch_lids,
        detours,
        rank,
        escape: Default::default(),
    };
    r.escape_the_rest(fabric, lids);
    r
}

impl RoutedHoles for PgftHoles {
    /// Up*/down* around the holes on one VL.
    fn route(&self, at: &Around<'_>) -> std::result::Result<Routed, Refusal> {
        at.up_down(|| route_pgft(at.fabric, self, at.lids))
    }
}
