//! Emptying appended phases by moving one flow aside (the second stage of [`super::repair`]).
//!
//! Why: first fit keeps every flow of the original phases in place, and a moved flow
//! (r → d) fits an original phase only where r sends nothing and d receives nothing —
//! where both of their own flows were moved too. So moved flows mostly pile into the
//! appended phases, and on well-spread tables the schedule ends ~10 % above the bound the
//! busiest link sets (LSFT(5) with 3 cut cables: 241 phases where 216 flows cross one
//! link). A flow of an appended phase can often go to an earlier phase where exactly one
//! flow is in its way (same sender, same receiver, or a shared link) and that flow fits
//! some third phase: both move, and once every flow of an appended phase has moved, the
//! phase is gone.
//!
//! Every move keeps each phase a conflict-free partial permutation (a flow is placed only
//! where its sender, receiver and every link are free), so the result stays as checked.
//! The work is bounded ([`BUDGET`] phase tests) and done in a fixed order: deterministic.

use crate::check::CompiledRoutes;
use crate::schedule::IDLE;

/// Phase tests the stage may spend (each reads one route's links in one phase): at most
/// this, and [`PER_FLOW`] per flow of the schedule — the stage runs inside the plugin's
/// routing pass, where a small fabric must not wait on it (MOLS(5): 3 s in a debug build
/// at the full budget, for 6 phases of 224).
const BUDGET: u64 = 20_000_000;
const PER_FLOW: u64 = 200;

/// Who occupies each sender, receiver and link of every phase: the arrays the stage needs
/// to name the flow in the way. Built only when they fit [`MAX_BYTES`].
pub(super) const MAX_BYTES: usize = 512 << 20;

pub(super) struct Phases<'a> {
    routes: &'a CompiledRoutes,
    /// `dest[p][r]`: r's receiver in phase p
    dest: Vec<Vec<u32>>,
    /// `from[p][d]`: d's sender in phase p
    from: Vec<Vec<u32>>,
    /// `on[p][c]`: the sender whose flow crosses link c in phase p
    on: Vec<Vec<u32>>,
    /// `sends[r]`, `gets[r]`: bit p set where r sends (receives) in phase p — the phases
    /// a flow can go to are found word by word, not phase by phase (a rank of an original
    /// phase is idle only where its own flow was moved)
    sends: Vec<Vec<u64>>,
    gets: Vec<Vec<u64>>,
    /// bit p set for a phase being emptied or gone: no flow goes there
    closed: Vec<u64>,
    /// bit p set for a phase emptied
    gone: Vec<u64>,
    /// phases whose flows stay (appended phases are not)
    pinned: Vec<bool>,
    tests: u64,
    /// the phase tests the emptying stage may spend
    budget: u64,
}

/// The set bits of `word` (its index `w`) as phase numbers.
fn bits(w: usize, mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let b = word.trailing_zeros() as usize;
            word &= word - 1;
            w * 64 + b
        })
    })
}

impl<'a> Phases<'a> {
    /// The phases `dest` (`dest[p][r]`: r's receiver in phase p, or [`IDLE`]) with who
    /// occupies what.
    /// Flows of the phases marked in `pinned` (those that stayed conflict-free: the
    /// repair keeps them) never move.
    pub(super) fn new(routes: &'a CompiledRoutes, dest: Vec<Vec<u32>>, ranks: usize, pinned: &[bool]) -> Phases<'a> {
        let channels = routes.channels();
        let words = dest.len().div_ceil(64);
        let mut ph = Phases {
            routes,
            from: vec![vec![IDLE; ranks]; dest.len()],
            on: vec![vec![IDLE; channels]; dest.len()],
            sends: vec![vec![0; words]; ranks],
            gets: vec![vec![0; words]; ranks],
            closed: vec![0; words],
            gone: vec![0; words],
            pinned: pinned.to_vec(),
            dest,
            tests: 0,
            budget: BUDGET,
        };
        for p in 0..ph.dest.len() {
            for r in 0..ranks as u32 {
                let d = ph.dest[p][r as usize];
                if d == r {
                    // a local copy: r's send slot is taken
                    ph.sends[r as usize][p / 64] |= 1 << (p % 64);
                } else if d != IDLE {
                    ph.set(p, r, d, r);
                }
            }
        }
        ph
    }

    /// The phases, emptied ones left out.
    pub(super) fn into_dest(self) -> Vec<Vec<u32>> {
        let gone = self.gone;
        self.dest
            .into_iter()
            .enumerate()
            .filter_map(|(p, d)| (gone[p / 64] >> (p % 64) & 1 == 0).then_some(d))
            .collect()
    }

    /// Append an empty phase.
    fn push_phase(&mut self) -> usize {
        let p = self.dest.len();
        let ranks = self.sends.len();
        if p % 64 == 0 {
            self.sends
                .iter_mut()
                .chain(self.gets.iter_mut())
                .for_each(|w| w.push(0));
            self.closed.push(0);
            self.gone.push(0);
        }
        self.dest.push(vec![IDLE; ranks]);
        self.from.push(vec![IDLE; ranks]);
        self.on.push(vec![IDLE; self.routes.channels()]);
        p
    }

    /// First fit: (r → d) into the first phase where its sender, receiver and links are
    /// free, else into a new phase.
    pub(super) fn first_fit(&mut self, r: u32, d: u32) {
        if !self.place_free(r, d) {
            let p = self.push_phase();
            self.set(p, r, d, r);
        }
    }

    /// The links of (r → d): borrowed from the routes, not from `self`, so a caller may
    /// change the phases while it holds them.
    fn route(&self, r: u32, d: u32) -> &'a [u32] {
        self.routes.route(r as usize, d as usize).unwrap_or(&[])
    }

    fn links_free(&mut self, p: usize, r: u32, d: u32) -> bool {
        self.tests += 1;
        self.route(r, d).iter().all(|&c| self.on[p][c as usize] == IDLE)
    }

    /// The open phases where r sends nothing and d receives nothing, ascending.
    fn idle_both(&self, r: u32, d: u32) -> Vec<usize> {
        let (s, g) = (&self.sends[r as usize], &self.gets[d as usize]);
        (0..s.len())
            .flat_map(|w| bits(w, !(s[w] | g[w] | self.closed[w])))
            .take_while(|&p| p < self.dest.len())
            .collect()
    }

    /// The open phases where r sends nothing or d receives nothing, ascending.
    fn idle_either(&self, r: u32, d: u32) -> Vec<usize> {
        let (s, g) = (&self.sends[r as usize], &self.gets[d as usize]);
        (0..s.len())
            .flat_map(|w| bits(w, !(s[w] & g[w]) & !self.closed[w]))
            .take_while(|&p| p < self.dest.len())
            .collect()
    }

    fn set(&mut self, p: usize, r: u32, d: u32, who: u32) {
        let (w, b) = (p / 64, 1u64 << (p % 64));
        if who == IDLE {
            self.dest[p][r as usize] = IDLE;
            self.sends[r as usize][w] &= !b;
            self.gets[d as usize][w] &= !b;
        } else {
            self.dest[p][r as usize] = d;
            self.sends[r as usize][w] |= b;
            self.gets[d as usize][w] |= b;
        }
        self.from[p][d as usize] = who;
        for &c in self.route(r, d) {
            self.on[p][c as usize] = who;
        }
    }

    fn close(&mut self, p: usize, closed: bool) {
        let (w, b) = (p / 64, 1u64 << (p % 64));
        match closed {
            true => self.closed[w] |= b,
            false => self.closed[w] &= !b,
        }
    }

    /// The one flow's sender in the way of (r → d) in phase p, or none (free: `Some(IDLE)`;
    /// two or more flows in the way: `None`).
    fn single_obstacle(&mut self, p: usize, r: u32, d: u32) -> Option<u32> {
        self.tests += 1;
        if self.pinned.get(p).copied().unwrap_or(false) {
            return None; // only a free place will do there
        }
        let mut who = IDLE;
        let mut note = |x: u32| {
            if x == IDLE || x == who {
                true
            } else if who == IDLE {
                who = x;
                true
            } else {
                false
            }
        };
        let sender = match self.dest[p][r as usize] {
            IDLE => IDLE,
            x if x == r => return None, // a local copy stays where it is
            _ => r,
        };
        if !note(sender) || !note(self.from[p][d as usize]) {
            return None;
        }
        for &c in self.routes.route(r as usize, d as usize).unwrap_or(&[]) {
            if !note(self.on[p][c as usize]) {
                return None;
            }
        }
        Some(who)
    }

    /// Place (r → d), which is in no phase, in an open phase where it fits.
    fn place_free(&mut self, r: u32, d: u32) -> bool {
        for p in self.idle_both(r, d) {
            if self.links_free(p, r, d) {
                self.set(p, r, d, r);
                return true;
            }
        }
        false
    }

    /// Place (r → d), which is in no phase, in an open phase: where it fits, or where one
    /// flow is in its way that can move (`depth` 1: to where it fits; 2: also one more
    /// such step). Phases are closed while a flow is out of them, so nothing comes back.
    fn place(&mut self, r: u32, d: u32, depth: u32) -> bool {
        if self.place_free(r, d) {
            return true;
        }
        if depth == 0 {
            return false;
        }
        for p in self.idle_either(r, d) {
            if self.tests > self.budget {
                return false;
            }
            let Some(g) = self.single_obstacle(p, r, d) else {
                continue;
            };
            if g == IDLE {
                continue; // fits: `place_free` would have taken it
            }
            let gd = self.dest[p][g as usize];
            self.set(p, g, gd, IDLE);
            self.close(p, true);
            let moved = self.place(g, gd, depth - 1);
            self.close(p, false);
            if moved {
                self.set(p, r, d, r);
                return true;
            }
            self.set(p, g, gd, g);
        }
        false
    }

    /// Empty as many of the phases from `first_added` on as moving one flow aside (two
    /// deep) allows, the emptiest first, in rounds until one empties nothing.
    pub(super) fn empty_added(&mut self, first_added: usize, flows: u64) {
        self.tests = 0;
        self.budget = BUDGET.min(PER_FLOW.saturating_mul(flows));
        let ranks = self.sends.len() as u32;
        let flows_of = |ph: &Phases<'_>, p: usize| -> Vec<(u32, u32)> {
            (0..ranks)
                .filter_map(|r| {
                    let d = ph.dest[p][r as usize];
                    (d != IDLE && d != r).then_some((r, d))
                })
                .collect()
        };
        loop {
            let mut order: Vec<(usize, usize)> = (first_added..self.dest.len())
                .filter(|&p| self.gone[p / 64] >> (p % 64) & 1 == 0)
                .map(|p| (flows_of(self, p).len(), p))
                .collect();
            order.sort_unstable();
            let mut emptied = false;
            for (_, p) in order {
                // the phase is closed while its flows look for room; a flow that finds
                // none goes back, and the phase stays
                self.close(p, true);
                let mut all = true;
                for (r, d) in flows_of(self, p) {
                    self.set(p, r, d, IDLE);
                    if !self.place(r, d, 2) {
                        self.set(p, r, d, r);
                        all = false;
                    }
                }
                if all {
                    self.gone[p / 64] |= 1 << (p % 64);
                    emptied = true;
                } else {
                    self.close(p, false);
                }
                if self.tests > self.budget {
                    break;
                }
            }
            if !emptied || self.tests > self.budget {
                break;
            }
        }
    }
}
