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
use crate::routing::lids::Lids;
use crate::routing::pipeline::{Around, Refusal, Routed, RoutedHoles};
use crate::topology::degraded::DEAD;
use crate::topology::{Fabric, NodeKind, NO_PEER};
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
    let l = &h.layout;
    let p = &l.params;
    let hl = p.levels;
    let mut slot_of = vec![u32::MAX; fabric.len()];
    for (s, &n) in l.switches.iter().enumerate() {
        if n != DEAD {
            slot_of[n as usize] = s as u32;
        }
    }
    let mut pos_of = vec![u32::MAX; fabric.ports.len()];
    for (ep, &d) in l.hosts.iter().zip(&l.host_pos) {
        pos_of[fabric.port_index(ep.node, ep.port) as usize] = d;
    }
    let mut lfts = LftSet::new(fabric, lids.max_lid());
    // host LIDs by tree position; switches must all be in the layout
    let mut dests: Vec<(u32, u32)> = Vec::new(); // (d, lid)
    for (lid, &owner) in lids.owner.iter().enumerate() {
        if owner == NO_PEER || lid == 0 {
            continue;
        }
        let node = fabric.ports[owner as usize].node;
        match fabric.node(node).kind {
            NodeKind::Switch if slot_of[node as usize] != u32::MAX => {}
            _ if pos_of[owner as usize] != u32::MAX => dests.push((pos_of[owner as usize], lid as u32)),
            _ => {
                return Err(Error::input(
                    "topology",
                    format!(
                        "{} is not a switch or host of the degraded {}",
                        crate::routing::lids::describe_port(fabric, owner),
                        p.describe()
                    ),
                    None,
                ))
            }
        }
    }
    dests.sort_unstable();
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
    let stride = lfts.stride;
    let switches = lfts.switches.clone();
    let unrouted: Vec<(u64, Vec<(u32, u32)>)> = lfts
        .ports
        .par_chunks_mut(stride)
        .zip(switches.par_iter())
        .map(|(row, &node)| {
            let s = slot_of[node as usize];
            let mut missing = (0u64, Vec::new());
            if s == u32::MAX {
                return missing;
            }
            let (lv, a, b) = l.coords(s);
            let mut cands: Vec<u32> = Vec::new();
            // this switch's up ports and the parents they lead to (port 0: cable missing)
            let w = p.w(lv + 1);
            let up_port: Vec<u8> = (0..p.up_ports(lv)).map(|u| h.up(s, u)).collect();
            let up_to: Vec<u32> = (0..p.up_ports(lv))
                .map(|u| match up_port[u as usize] {
                    0 => 0,
                    _ => h.slot(lv + 1, a / p.m(lv + 1), b + (u % w) * wprod[lv as usize]),
                })
                .collect();
            let mut okv = vec![false; up_port.len()];
            // the divisors of this row's closed forms, each position divided by multiplication
            let by_w = Div::new(wprod[lv as usize]);
            let by_ups = Div::new(up_port.len() as u32);
            let by_wb = Div::new(wprod[lv as usize - 1]);
            let by_wpp = Div::new(p.w(lv) * p.p(lv));
            let by_wl = Div::new(p.w(lv));
            for lam in 0..nl as u32 {
                let range = &dests[first[lam as usize] as usize..first[lam as usize + 1] as usize];
                if range.is_empty() {
                    continue;
                }
                if lv == 1 && a == lam {
                    for &(d, lid) in range {
                        row[lid as usize] = h.down(s, d % m1);
                    }
                } else if reach.down(s, lam) {
                    // the child whose subtree holds λ, on the cables that survive
                    let (m, pp) = (p.m(lv), p.p(lv));
                    let k = (lam / mbelow[lv as usize]) % m;
                    cands.clear();
                    cands.extend((0..pp).filter(|&c| h.down(s, k * pp + c) != 0));
                    for (b, &(_, lid)) in (lam * m1..).zip(range) {
                        let c = by_wl.div(by_wpp.rem(by_wb.div(b)));
                        let port = h.down(s, k * pp + c);
                        row[lid as usize] = match port {
                            0 if cands.is_empty() => NO_ROUTE,
                            0 => h.down(s, k * pp + cands[(b % cands.len() as u32) as usize]),
                            port => port,
                        };
                    }
                } else if !reach.reach(s, lam) && lv > 1 {
                    // no up*/down* path from here: no host route passes this switch, but a
                    // packet that starts here (management) goes down to a child that has one
                    let (m, pp) = (p.m(lv), p.p(lv));
                    let wb = wprod[lv as usize - 1];
                    cands.clear();
                    cands.extend(
                        (0..m * pp)
                            .filter(|&k| h.down(s, k) != 0 && reach.any(h.slot(lv - 1, a * m + k / pp, b % wb), lam)),
                    );
                    for (b, &(_, lid)) in (lam * m1..).zip(range) {
                        row[lid as usize] = match cands.len() {
                            0 => NO_ROUTE,
                            n => h.down(s, cands[(b % n as u32) as usize]),
                        };
                    }
                } else {
                    let ups = up_port.len();
                    let turning = (0..ups).any(|u| up_port[u] != 0 && reach.down(up_to[u], lam));
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
                    for (b, &(_, lid)) in (lam * m1..).zip(range) {
                        let u = by_ups.rem(by_w.div(b)) as usize;
                        row[lid as usize] = if cands.is_empty() {
                            if lv == 1 {
                                missing.0 += 1;
                                if missing.1.len() < NAMED {
                                    missing.1.push((node, lid));
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
            missing
        })
        .collect();
    // switch LIDs: up*/down* by level over the surviving cables
    let rank: Vec<u32> = switches
        .iter()
        .map(|&n| match slot_of[n as usize] {
            u32::MAX => u32::MAX,
            s => hl - l.coords(s).0,
        })
        .collect();
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
    Ok(r)
}

impl RoutedHoles for PgftHoles {
    /// Up*/down* around the holes on one VL.
    fn route(&self, at: &Around<'_>) -> std::result::Result<Routed, Refusal> {
        at.up_down(|| route_pgft(at.fabric, self, at.lids))
    }
}
