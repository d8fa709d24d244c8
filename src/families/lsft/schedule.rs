//! The conflict-free all-to-all of the Latin-square fat-tree (docs/schedules.md §2.1, §2.2), one- and
//! two-sided.
//!
//! Canonical port numbers (never the physical ones): on a leaf, host slot j and up
//! position u (the u-th line through its point, ascending); on a spine, X = s·(q+1) + x
//! for the x-th point of its line (ascending) on side s. Unfold host → leaf → spine →
//! leaf → host; a phase is a triple (a, b, c) of shifts applied by every switch of a
//! layer. A flow from slot j of leaf (s, p) leaves on up position u = (j+a) mod d
//! (d = q+1) to the spine ℓ of that line, arrives on X, leaves on X' = (X+b) mod (S·d)
//! (S sides) to leaf (s', p') = (X' div d, x'-th point of ℓ), arrives on its up position
//! y (the position of ℓ among the lines through p') and goes to slot (y+c) mod d.
//!
//! Executed triples: one-sided b ∈ Z_d with b ≠ 0, or b = 0 and c = 0; two-sided
//! b ∈ Z_2d with b ∉ {0, d}, or b ∈ {0, d} and c = 0. That is S·d·(q²+q+1) phases, the
//! number of host slots, and every ordered pair of slots (a slot to itself included)
//! exactly once: between different points the line through both fixes u, x, x' and y,
//! hence (a, b, c); on the same point b ∈ {0, d} selects the side and a the slot. Each
//! layer shifts its inputs by a constant, so every switch permutes its inputs in every
//! phase: no directed link carries two flows (proved for q ≤ 13 in the tests below).
//!
//! Phase order: the S·d "turn" phases first (b ∈ {0, d}, c = 0, a = phase mod d), so
//! phase 0 = (0,0,0) is every host's local copy, like phase 0 of `shift`; then the other
//! b in ascending order, a and c ascending within.
//!
//! Routing assumption for the two-sided turn phases (b = d): a flow from leaf (s, p) to
//! the twin leaf (1−s, p) slot j' climbs to the spine of the j'-th line through p. Routing
//! that sends the d hosts of the twin leaf over d different spines (any bijection) keeps
//! these phases conflict-free; all other flows have a unique minimal path.
//!
//! Empty host slots (hosts_per_leaf < q+1, hosts missing) and hosts outside the job are
//! idle: a flow from or to them is dropped, which removes load and keeps every phase
//! conflict-free. Such a restriction can leave phases empty; [`crate::schedule::Compact`] drops them.

use crate::error::{Error, Result};
use crate::schedule::{Job, Pattern, IDLE};
use crate::topology::LsftLayout;

/// Source slot of a job rank, pre-split to keep the phase loop free of divisions.
#[derive(Clone, Copy, Debug)]
struct Src {
    /// point · d
    point_d: u32,
    /// side · d
    side_d: u32,
    /// host slot j
    slot: u32,
}

/// The shift-triple schedule (docs/schedules.md §2.1) over a job on a Latin-square fat-tree.
#[derive(Clone, Debug)]
pub struct LsftAllToAll {
    d: u32,
    sides: u32,
    npts: u32,
    /// (line·d, the point's position on the line), per (point, up position): `[p·d + u]`.
    up: Vec<(u32, u32)>,
    /// (point·d, the line's position at the point), per (line, position): `[ℓ·d + x]`.
    down: Vec<(u32, u32)>,
    /// Job rank in slot `(side·npts + point)·d + j`, or IDLE.
    slot_rank: Vec<u32>,
    src: Vec<Src>,
}

impl LsftAllToAll {
    /// The schedule over `job` (any subset of the layout's hosts, in any order).
    pub fn new(layout: &LsftLayout, job: &Job) -> LsftAllToAll {
        Self::over(layout, job, None).expect("every host of an LSFT layout has a slot")
    }

    /// The one-sided schedule (docs/schedules.md §2.1) over the hosts of one side of a
    /// two-sided LSFT, as if that side were a one-sided LSFT: flows between different
    /// points of the side climb to the spine of their line and come back down on the same
    /// side, which the two-sided routing does too, so it stays conflict-free with
    /// (q+1)(q²+q+1) phases instead of twice that. Every host of `job` must be on `side`.
    pub(crate) fn on_side(layout: &LsftLayout, job: &Job, side: u32) -> Result<LsftAllToAll> {
        if side >= layout.sides {
            return Err(Error::input(
                "side",
                format!("side {side} does not exist: the fabric has {} side(s)", layout.sides),
                None,
            ));
        }
        Self::over(layout, job, Some(side))
    }

    fn over(layout: &LsftLayout, job: &Job, only: Option<u32>) -> Result<LsftAllToAll> {
        let plane = &layout.plane;
        let d = layout.degree();
        let npts = layout.npts();
        let mut up = Vec::with_capacity((npts * d) as usize);
        let mut down = Vec::with_capacity((npts * d) as usize);
        for p in 0..npts {
            for &l in plane.lines_through(p) {
                up.push((l * d, plane.position_on_line(l, p).expect("incident")));
            }
        }
        for l in 0..npts {
            for &p in plane.points_on(l) {
                down.push((p * d, plane.position_at_point(p, l).expect("incident")));
            }
        }
        let job_rank = job.rank_of_fabric(layout.hosts.len());
        let span = (npts * d) as usize;
        let (slots, sides) = match only {
            None => (&layout.slot_rank[..], layout.sides),
            Some(s) => (&layout.slot_rank[s as usize * span..(s as usize + 1) * span], 1),
        };
        let slot_rank: Vec<u32> = slots
            .iter()
            .map(|&fr| if fr == IDLE { IDLE } else { job_rank[fr as usize] })
            .collect();
        let mut src = vec![None; job.len()];
        for (slot, &r) in slot_rank.iter().enumerate() {
            if r != IDLE {
                let (leaf, j) = (slot as u32 / d, slot as u32 % d);
                src[r as usize] = Some(Src {
                    point_d: (leaf % npts) * d,
                    side_d: (leaf / npts) * d,
                    slot: j,
                });
            }
        }
        let src = src
            .into_iter()
            .enumerate()
            .map(|(r, s)| {
                s.ok_or_else(|| {
                    Error::input(
                        "job",
                        format!("job rank {r} is not on side {} of the fabric", only.unwrap_or_default()),
                        Some("the one-sided schedule runs over the hosts of one side only".into()),
                    )
                })
            })
            .collect::<Result<Vec<Src>>>()?;
        Ok(LsftAllToAll {
            d,
            sides,
            npts,
            up,
            down,
            slot_rank,
            src,
        })
    }

    /// Number of "turn" phases (b ∈ {0, d}, c = 0).
    fn turns(&self) -> usize {
        (self.sides * self.d) as usize
    }

    /// Where the flow of source `s` ends under shifts (a, b, c): up port (slot + a), spine
    /// port (arrival + b), host (arrival + c), all in the canonical numbering.
    #[inline]
    fn follow(&self, s: &Src, (a, b, c): (u32, u32, u32)) -> u32 {
        let d = self.d;
        let spine_ports = self.sides * d;
        let side_span = self.npts * d;
        let mut u = s.slot + a;
        if u >= d {
            u -= d;
        }
        let (line_d, x) = self.up[(s.point_d + u) as usize];
        let mut x = s.side_d + x + b;
        if x >= spine_ports {
            x -= spine_ports;
        }
        let (side_base, x2) = if x >= d { (side_span, x - d) } else { (0, x) };
        let (point_d, y) = self.down[(line_d + x2) as usize];
        let mut j = y + c;
        if j >= d {
            j -= d;
        }
        self.slot_rank[(side_base + point_d + j) as usize]
    }

    /// The shift triple (a, b, c) of phase `p`: up shift a ∈ Z_d, spine shift b ∈ Z_{S·d},
    /// host shift c ∈ Z_d; the S·d turn phases (b ∈ {0, d}, c = 0) come first.
    pub(crate) fn triple(&self, p: usize) -> (u32, u32, u32) {
        let d = self.d as usize;
        if p < self.turns() {
            return ((p % d) as u32, ((p / d) * d) as u32, 0);
        }
        let i = p - self.turns();
        let bi = (i / (d * d)) as u32 + 1; // 1.. skipping the multiples of d
        let b = if bi < self.d { bi } else { bi + 1 };
        (((i / d) % d) as u32, b, (i % d) as u32)
    }
}

impl Pattern for LsftAllToAll {
    fn name(&self) -> String {
        "lsft".into()
    }
    fn ranks(&self) -> usize {
        self.src.len()
    }
    fn phases(&self) -> usize {
        (self.sides * self.d * self.npts) as usize
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        let abc = self.triple(p);
        for (o, s) in out.iter_mut().zip(&self.src) {
            *o = self.follow(s, abc);
        }
    }
    fn peer(&self, p: usize, r: usize) -> u32 {
        self.follow(&self.src[r], self.triple(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::lsft::model::{build, LsftParams};
    use crate::geometry::is_prime_power;
    use crate::schedule::testutil::{assert_complete, partial_permutations};
    use crate::schedule::{Compact, Schedule};
    use crate::topology::{BuildOptions, Layout};

    fn layout(q: u32, two_sided: bool, m: Option<u32>, shuffle: Option<u64>) -> LsftLayout {
        let opts = BuildOptions {
            shuffle,
            ..Default::default()
        };
        let (_, l) = build(
            &LsftParams {
                order: q,
                two_sided,
                hosts_per_leaf: m,
            },
            &opts,
        )
        .unwrap();
        let Layout::Lsft(l) = l else { unreachable!() };
        l
    }

    /// Directed links of the canonical model, as indices into a per-phase load table.
    struct LinkModel<'a> {
        l: &'a LsftLayout,
        /// (leaf, slot) of each fabric rank
        slot_of: Vec<(u32, u32)>,
        /// `join[a·npts + b]`: the line through points a ≠ b (a table, to keep tests fast).
        join: Vec<u32>,
        /// `at_point[p·npts + ℓ]`, `on_line[ℓ·npts + p]`: canonical positions (incident pairs).
        at_point: Vec<u8>,
        on_line: Vec<u8>,
    }

    impl<'a> LinkModel<'a> {
        fn new(l: &'a LsftLayout) -> Self {
            let d = l.degree();
            let mut slot_of = vec![(0, 0); l.hosts.len()];
            for (i, &r) in l.slot_rank.iter().enumerate() {
                if r != IDLE {
                    slot_of[r as usize] = (i as u32 / d, i as u32 % d);
                }
            }
            let n = l.npts();
            let mut join = vec![0; (n * n) as usize];
            let mut at_point = vec![u8::MAX; (n * n) as usize];
            let mut on_line = vec![u8::MAX; (n * n) as usize];
            for a in 0..n {
                for b in (0..n).filter(|&b| b != a) {
                    join[(a * n + b) as usize] = l.plane.join(a, b);
                }
                for (k, &line) in l.plane.lines_through(a).iter().enumerate() {
                    at_point[(a * n + line) as usize] = k as u8;
                }
                for (k, &p) in l.plane.points_on(a).iter().enumerate() {
                    on_line[(a * n + p) as usize] = k as u8;
                }
            }
            LinkModel {
                l,
                slot_of,
                join,
                at_point,
                on_line,
            }
        }
        fn nlinks(&self) -> usize {
            // per leaf: d host->leaf, d leaf->host, d up; per spine: sides·d down
            let d = self.l.degree() as usize;
            let leaves = self.l.leaves.len();
            leaves * 3 * d + self.l.npts() as usize * self.l.sides as usize * d
        }
        /// The links of the flow src -> dst, routed by the geometry (not by the phase
        /// triple): the unique line through two different points, a turn at the leaf for
        /// the same leaf, and for the twin leaf of a two-sided fabric the spine of the
        /// destination slot's line (the documented routing assumption).
        fn links(&self, src: u32, dst: u32) -> ([usize; 4], usize) {
            let (l, d) = (self.l, self.l.degree() as usize);
            let npts = l.npts();
            let leaves = l.leaves.len();
            let (la, ja) = self.slot_of[src as usize];
            let (lb, jb) = self.slot_of[dst as usize];
            let pa = la % npts;
            let (sb, pb) = (lb / npts, lb % npts);
            let host_in = la as usize * d + ja as usize;
            let host_out = leaves * d + lb as usize * d + jb as usize;
            if la == lb {
                return ([host_in, host_out, 0, 0], 2);
            }
            let line = if pa != pb {
                self.join[(pa * npts + pb) as usize]
            } else {
                l.plane.lines_through(pa)[jb as usize]
            };
            let u = self.at_point[(pa * npts + line) as usize] as usize;
            let xb = self.on_line[(line * npts + pb) as usize] as usize;
            assert!(u < d && xb < d, "the route's line passes through both points");
            let up = 2 * leaves * d + la as usize * d + u;
            let down = 3 * leaves * d + line as usize * l.sides as usize * d + sb as usize * d + xb;
            ([host_in, up, down, host_out], 4)
        }
    }

    /// Every phase: every directed link of the canonical model carries at most one flow,
    /// i.e. every switch receives at most one flow per input and sends at most one per
    /// output.
    fn assert_switches_permute(l: &LsftLayout, pattern: &dyn Pattern, job: &Job) {
        let model = LinkModel::new(l);
        let mut load = vec![u32::MAX; model.nlinks()];
        let mut out = vec![IDLE; pattern.ranks()];
        let fr = job.fabric_ranks();
        for p in 0..pattern.phases() {
            pattern.phase(p, &mut out);
            for (r, &dst) in out.iter().enumerate() {
                if dst == IDLE || dst as usize == r {
                    continue;
                }
                let (links, len) = model.links(fr[r], fr[dst as usize]);
                for &link in &links[..len] {
                    assert_ne!(
                        load[link], p as u32,
                        "q={} sides={}: phase {p} puts two flows on link {link}",
                        l.q, l.sides
                    );
                    load[link] = p as u32;
                }
            }
        }
    }

    #[test]
    fn complete_and_link_disjoint_for_every_prime_power_up_to_13() {
        use rayon::prelude::*;
        let configs: Vec<(u32, bool)> = (2..=13)
            .rev()
            .filter(|&q| is_prime_power(q))
            .flat_map(|q| [(q, true), (q, false)])
            .collect();
        assert_eq!(configs.len(), 18, "q = 2, 3, 4, 5, 7, 8, 9, 11, 13, both sidednesses");
        configs.into_par_iter().for_each(|(q, two)| {
            {
                let l = layout(q, two, None, None);
                let job = Job::from_fabric_ranks(&l.hosts, (0..l.hosts.len() as u32).collect()).unwrap();
                let s = LsftAllToAll::new(&l, &job);
                let sides = if two { 2 } else { 1 };
                assert_eq!(s.phases(), (sides * (q + 1) * (q * q + q + 1)) as usize);
                assert_eq!(s.phases(), s.ranks(), "phases = hosts");
                assert_complete(&s, true);
                assert_switches_permute(&l, &s, &job);
                // phase 0 is the local copy, like shift's
                let mut out = vec![0; s.ranks()];
                s.phase(0, &mut out);
                assert!(out.iter().enumerate().all(|(r, &d)| d as usize == r));
            }
        });
    }

    #[test]
    fn one_side_of_a_two_sided_fabric_runs_the_one_sided_schedule() {
        for (q, m) in [(3u32, None), (4, None), (5, None), (5, Some(4))] {
            let l = layout(q, true, m, Some(u64::from(q)));
            let span = (l.npts() * l.degree()) as usize;
            for side in 0..2usize {
                let ranks: Vec<u32> = l.slot_rank[side * span..(side + 1) * span]
                    .iter()
                    .copied()
                    .filter(|&r| r != IDLE)
                    .collect();
                let job = Job::from_fabric_ranks(&l.hosts, ranks).unwrap();
                let s = LsftAllToAll::on_side(&l, &job, side as u32).unwrap();
                assert_eq!(s.phases(), ((q + 1) * (q * q + q + 1)) as usize, "one side's slots");
                assert_complete(&Compact::new(&s), true);
                assert_switches_permute(&l, &s, &job);
                if m.is_none() {
                    assert_eq!(s.phases(), job.len(), "a full side: phases = hosts of the side");
                }
            }
        }
        let l = layout(3, true, None, None);
        let e = LsftAllToAll::on_side(&l, &Job::whole(&l.hosts), 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not on side 0"), "{e}");
        let one = layout(3, false, None, None);
        assert!(LsftAllToAll::on_side(&one, &Job::whole(&one.hosts), 1).is_err());
    }

    #[test]
    fn triples_are_the_executed_ones_each_once() {
        for (q, two) in [(3u32, false), (4, true)] {
            let l = layout(q, two, None, None);
            let s = LsftAllToAll::new(&l, &Job::whole(&l.hosts));
            let d = q + 1;
            let bmod = if two { 2 * d } else { d };
            let mut seen = std::collections::HashSet::new();
            for p in 0..s.phases() {
                let (a, b, c) = s.triple(p);
                assert!(a < d && b < bmod && c < d);
                assert!(b % d != 0 || c == 0, "b in {{0, d}} only with c = 0");
                assert!(seen.insert((a, b, c)));
            }
        }
    }

    #[test]
    fn shuffled_ports_do_not_change_the_canonical_schedule() {
        let plain = layout(4, true, None, None);
        let shuffled = layout(4, true, None, Some(3));
        let a = LsftAllToAll::new(&plain, &Job::whole(&plain.hosts));
        let b = LsftAllToAll::new(&shuffled, &Job::whole(&shuffled.hosts));
        let g = vec![0; a.ranks()];
        assert_eq!(Schedule::from_pattern(&a, g.clone()), Schedule::from_pattern(&b, g));
    }

    #[test]
    fn empty_slots_and_job_subsets_are_idle_and_still_disjoint() {
        // fewer hosts per leaf: flows to empty slots are dropped
        for two in [false, true] {
            let l = layout(3, two, Some(2), None);
            let whole = Job::whole(&l.hosts);
            let s = LsftAllToAll::new(&l, &whole);
            let counts = partial_permutations(&s);
            assert!(counts.idle > 0);
            assert_switches_permute(&l, &s, &whole);
            let c = Compact::new(&s);
            assert!(c.phases() < s.phases());
            assert_complete(&c, true);
        }
        // a job of every third host, listed backwards
        let l = layout(5, false, None, None);
        let ranks: Vec<u32> = (0..l.hosts.len() as u32).rev().filter(|r| r % 3 == 0).collect();
        let job = Job::from_fabric_ranks(&l.hosts, ranks).unwrap();
        let s = LsftAllToAll::new(&l, &job);
        assert_eq!(s.ranks(), job.len());
        assert_switches_permute(&l, &s, &job);
        assert_complete(&Compact::new(&s), true);
    }

    /// With M < q+1 hosts per leaf only the turn phases whose slot shift a has no
    /// occupied source j < M with (j + a) mod d < M empty out: the schedule keeps
    /// S·(d·(q²+q+1) − max(0, q+2−2M)) phases (the README quotes this).
    #[test]
    fn fewer_hosts_per_leaf_keep_almost_every_phase() {
        for (q, two) in [(3u32, false), (3, true), (5, false), (4, true)] {
            for m in 1..=q + 1 {
                let l = layout(q, two, Some(m), None);
                let c = Compact::new(LsftAllToAll::new(&l, &Job::whole(&l.hosts)));
                let sides = if two { 2 } else { 1 };
                let expect = sides * ((q + 1) * (q * q + q + 1) - (q + 2).saturating_sub(2 * m));
                assert_eq!(c.phases(), expect as usize, "q={q} two-sided={two} M={m}");
            }
        }
    }

    #[test]
    fn lsft31_phases_are_generated_in_place() {
        let l = layout(31, false, None, None);
        let s = LsftAllToAll::new(&l, &Job::whole(&l.hosts));
        assert_eq!(s.ranks(), 31_776);
        let mut out = vec![IDLE; s.ranks()];
        let mut check = crate::schedule::PermutationCheck::new(s.ranks());
        for p in [0, 1, 31, 32, 5000, 31_775] {
            s.phase(p, &mut out);
            check.check(p, &out).unwrap();
            assert!(out.iter().all(|&d| d != IDLE), "a full fabric has no idle rank");
        }
    }
}
