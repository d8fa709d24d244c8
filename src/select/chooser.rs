//! The `--job-size` chooser: placing D hosts of an LSFT so that their all-to-all runs
//! fastest (docs/schedules.md §2.5), by measuring the candidates.
//!
//! [`choose`] places D hosts taken from a pool (the whole fabric, or the hosts of `--job`);
//! the candidates are:
//!
//! 1. every q×k block with m hosts per leaf (1 ≤ m ≤ k ≤ q) on every side, with its
//!    best k columns (the ones holding the most pool hosts, at most m per leaf counted),
//!    whose capacity reaches D; the one with the fewest phases q·k·m wins (then fewer
//!    leaves, then side 0, then lower columns). When the pool has a full block of exactly
//!    D = q·k·m hosts that block is chosen and nothing is idle; otherwise D hosts of the
//!    smallest sufficient block are used and the remaining positions are idle;
//! 2. on a two-sided LSFT, for each side holding at least D pool hosts, the one-sided
//!    lsft schedule (docs/schedules.md §2.1) of that side over its first D pool hosts,
//!    empty phases dropped: at most (q+1)(q²+q+1) phases, half the two-sided schedule's;
//! 3. the whole-fabric lsft schedule (docs/schedules.md §2.3) restricted to the first D pool hosts, empty phases
//!    dropped (always possible; the only option when D > q³ or the grid is too sparse);
//! 4. `shift` over the first D pool hosts: D phases, no idle slot, but conflicts.
//!
//! Every candidate is measured with the link-conflict checker ([`crate::check`]) on the
//! plan's own routing tables ([`crate::routing::route`]) when that is cheap (at most
//! [`MEASURE_LIMIT`] flows); otherwise the conflict-free candidates keep their ratio 1.0
//! by construction and `shift` stays unmeasured. The estimated duration of a candidate
//! is phases / throughput ratio (a phase at ratio r moves its data at r of the link rate
//! on average); the lowest estimate wins, ties to the earlier candidate (block,
//! one side, lsft, shift). An unmeasured `shift` is never chosen.
//!
//! What is guaranteed: the chosen schedule is complete over the D chosen hosts (every
//! ordered pair exactly once); when it is a block or the restricted lsft schedule it is
//! conflict-free under the canonical LSFT routing (unique minimal paths between different
//! leaves), which the checker confirms on ibfat's tables, and it has the fewest phases
//! among those conflict-free candidates. `shift` is chosen only when its measured ratio
//! makes it faster by that estimate — never when a block of exactly D hosts exists.

use crate::check::{check, CompiledRoutes};
use crate::error::{Error, Result};
use crate::families::lsft::schedule::LsftAllToAll;
use crate::geometry::Point;
use crate::routing::{route, LftSet, Lids};
use crate::schedule::partial::{BlockPos, BlockShape, LsftPartial};
use crate::schedule::placement::{fabric_slots, lsft_layout, Placement};
use crate::schedule::shift::Shift;
use crate::schedule::{Compact, Job, Pattern};
use crate::topology::{LsftLayout, Topology};
use serde::Serialize;

/// One way of running the all-to-all of D hosts, as the chooser compares them.
#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    /// `lsft-partial`, `lsft` or `shift`.
    pub pattern: String,
    /// The placement in words (block, side, columns, hosts per leaf).
    pub description: String,
    /// Phases of the candidate's schedule.
    pub phases: usize,
    /// Fraction of rank-phase slots left idle (0 for an exact block).
    pub idle_fraction: f64,
    /// Conflict-free by construction (canonical LSFT routing).
    pub conflict_free: bool,
    /// Throughput ratio: the checker's figure on the plan's own tables, else 1.0 for a
    /// conflict-free construction, else unknown.
    pub ratio: Option<f64>,
    /// True when `ratio` was measured by the checker.
    pub measured: bool,
    /// Idle slots, or why the ratio was not measured, when either applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What the chooser picked.
#[derive(Clone, Debug)]
pub(crate) enum Choice {
    /// A block (docs/schedules.md §2.4).
    Block(Placement),
    /// The lsft schedule (docs/schedules.md §2.3) restricted to these hosts, empty phases dropped.
    Full(Job, Compact<LsftAllToAll>),
    /// The one-sided lsft schedule (§2.1) on this side of a two-sided LSFT, restricted to
    /// these hosts (all on that side), empty phases dropped.
    Side(u32, Job, Compact<LsftAllToAll>),
    /// Shift over these hosts.
    Shift(Job),
}

/// The chooser's comparison.
#[derive(Clone, Debug, Serialize)]
pub struct ChoiceReport {
    /// D, the number of hosts asked for (`--job-size`).
    pub job_size: usize,
    /// Hosts the job could be placed on.
    pub pool: usize,
    /// Index of the chosen candidate.
    pub chosen: usize,
    /// True when a block of exactly D hosts was found (no idle slot).
    pub exact: bool,
    /// Every candidate considered, in the order compared.
    pub candidates: Vec<Candidate>,
}

/// Largest number of flows (phases × ranks) the chooser measures with the checker.
pub(crate) const MEASURE_LIMIT: u64 = 50_000_000;

/// The checker on the plan's own tables, built on first use.
struct Checker<'a> {
    plan: &'a Topology,
    tables: Option<(Lids, LftSet)>,
}

impl Checker<'_> {
    /// Throughput ratio of `pattern` over `job`, or `None` when too big to measure here.
    fn ratio(&mut self, job: &Job, pattern: &dyn Pattern) -> Result<Option<f64>> {
        if pattern.phases() as u64 * job.len() as u64 > MEASURE_LIMIT {
            return Ok(None);
        }
        if self.tables.is_none() {
            let lids = Lids::plan(&self.plan.fabric, self.plan.layout.hosts(), 0)?;
            let lfts = route(&self.plan.fabric, &self.plan.layout, &lids)?;
            self.tables = Some((lids, lfts));
        }
        let (lids, lfts) = self.tables.as_ref().expect("built above");
        let routes = CompiledRoutes::compile(&self.plan.fabric, lids, lfts, job.hosts(), 0)?;
        let report = check(
            &self.plan.fabric,
            job.hosts(),
            &routes,
            pattern,
            0..pattern.phases(),
            &|| {},
        )?;
        Ok(Some(report.throughput_ratio))
    }
}

/// Best block (fewest phases) of capacity ≥ d among the pool's hosts.
struct BlockPick {
    side: u32,
    m: u32,
    columns: Vec<u32>,
}

/// Place `d` hosts of `pool` (see the module documentation).
pub(crate) fn choose(plan: &Topology, pool: &Job, d: usize) -> Result<(Choice, ChoiceReport)> {
    let layout = lsft_layout(plan, "the placement chooser (--job-size)")?;
    if d == 0 || d > pool.len() {
        return Err(Error::input(
            "job_size",
            format!("cannot place {d} hosts: {} hosts are available", pool.len()),
            Some(format!("1..={}", pool.len())),
        ));
    }
    let slots = fabric_slots(layout);
    let grid = PoolGrid::new(layout, &slots, pool);
    let block = grid.best_block(d).map(|pick| grid.place(&pick, pool, d));
    let exact = block.as_ref().is_some_and(|b| b.phases() == d);
    let mut c = Candidates {
        checker: Checker { plan, tables: None },
        layout,
        d,
        candidates: Vec::new(),
        choices: Vec::new(),
    };
    if let Some(b) = &block {
        c.block(b, exact)?;
    }
    if !exact && layout.sides == 2 {
        c.one_sided(pool, &slots)?;
    }
    let first: Vec<u32> = (0..d as u32).collect();
    let sub = pool.select(&first);
    if !exact {
        c.whole_fabric(&sub)?;
    }
    c.shift(sub)?;
    Ok(c.pick(pool.len(), exact))
}

/// The pool's hosts on the grid leaves of an LSFT: job ranks per leaf by (side, x, y),
/// in slot order, as (slot, job rank).
struct PoolGrid {
    q: u32,
    sides: u32,
    on_leaf: Vec<Vec<(u32, u32)>>,
}

impl PoolGrid {
    fn new(layout: &LsftLayout, slots: &[(u32, u32)], pool: &Job) -> PoolGrid {
        let q = layout.q;
        let mut g = PoolGrid {
            q,
            sides: layout.sides,
            on_leaf: vec![Vec::new(); (layout.sides * q * q) as usize],
        };
        for (jr, &fr) in pool.fabric_ranks().iter().enumerate() {
            let (leaf, slot) = slots[fr as usize];
            let (side, point) = (leaf / layout.npts(), leaf % layout.npts());
            if let Point::Grid(x, y) = layout.plane.point(point) {
                let i = g.cell(side, x, y);
                g.on_leaf[i].push((slot, jr as u32));
            }
        }
        g.on_leaf.iter_mut().for_each(|v| v.sort_unstable());
        g
    }

    fn cell(&self, side: u32, x: u32, y: u32) -> usize {
        ((side * self.q + x) * self.q + y) as usize
    }

    /// The block of capacity ≥ d with the fewest phases (then fewer leaves, then side 0,
    /// then fewer hosts per leaf), on its fullest columns.
    fn best_block(&self, d: usize) -> Option<BlockPick> {
        let q = self.q;
        let mut best: Option<(u32, u32, BlockPick)> = None; // (phases, leaves, pick)
        for side in 0..self.sides {
            for m in 1..=q {
                let mut caps: Vec<(u32, u32)> = (0..q)
                    .map(|x| {
                        let c: u32 = (0..q)
                            .map(|y| (self.on_leaf[self.cell(side, x, y)].len() as u32).min(m))
                            .sum();
                        (c, x)
                    })
                    .collect();
                caps.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                let mut cap = 0usize;
                for k in 1..=q {
                    cap += caps[k as usize - 1].0 as usize;
                    if k < m || cap < d {
                        continue;
                    }
                    let key = (q * k * m, q * k);
                    let better = match &best {
                        None => true,
                        Some(b) => key < (b.0, b.1),
                    };
                    if better {
                        let mut columns: Vec<u32> = caps[..k as usize].iter().map(|c| c.1).collect();
                        columns.sort_unstable();
                        best = Some((key.0, key.1, BlockPick { side, m, columns }));
                    }
                    break;
                }
            }
        }
        best.map(|(_, _, pick)| pick)
    }

    /// The first `d` pool hosts of the block, column by column, at most m per leaf.
    fn place(&self, pick: &BlockPick, pool: &Job, d: usize) -> Placement {
        let shape = BlockShape {
            q: self.q,
            columns: pick.columns.clone(),
            m: pick.m,
        };
        let mut placed: Vec<(u32, BlockPos)> = Vec::with_capacity(d);
        'fill: for (ci, &x) in pick.columns.iter().enumerate() {
            for y in 0..self.q {
                for (i, &(_, jr)) in self.on_leaf[self.cell(pick.side, x, y)]
                    .iter()
                    .take(pick.m as usize)
                    .enumerate()
                {
                    if placed.len() == d {
                        break 'fill;
                    }
                    placed.push((
                        jr,
                        BlockPos {
                            column: ci as u32,
                            row: y,
                            index: i as u32,
                        },
                    ));
                }
            }
        }
        placed.sort_unstable_by_key(|p| p.0);
        let job_ranks: Vec<u32> = placed.iter().map(|p| p.0).collect();
        Placement {
            side: pick.side,
            shape,
            job: pool.select(&job_ranks),
            positions: placed.iter().map(|p| p.1).collect(),
        }
    }
}

/// Why a candidate's ratio is a guess, when it is.
fn measured_note(m: &Option<f64>) -> Option<String> {
    m.is_none()
        .then(|| format!("not measured: more than {MEASURE_LIMIT} flows for the chooser"))
}

/// The candidates measured so far, in the order compared, with what each would run.
struct Candidates<'a> {
    checker: Checker<'a>,
    layout: &'a LsftLayout,
    d: usize,
    candidates: Vec<Candidate>,
    choices: Vec<Choice>,
}

impl Candidates<'_> {
    /// Candidate 1: the block.
    fn block(&mut self, b: &Placement, exact: bool) -> Result<()> {
        let (q, d) = (self.layout.q, self.d);
        let measured = self
            .checker
            .ratio(&b.job, &LsftPartial::new(b.shape.clone(), b.positions.clone())?)?;
        let idle = (!exact).then(|| format!("{} of {} block positions idle", b.phases() - d, b.phases()));
        self.candidates.push(Candidate {
            pattern: "lsft-partial".into(),
            description: format!(
                "{q}x{} block{} columns {:?}, {} hosts per leaf",
                b.shape.k(),
                if self.layout.sides == 2 {
                    format!(" on side {},", b.side)
                } else {
                    ",".into()
                },
                b.shape.columns,
                b.shape.m
            ),
            phases: b.phases(),
            idle_fraction: b.idle_fraction(),
            conflict_free: true,
            ratio: Some(measured.unwrap_or(1.0)),
            measured: measured.is_some(),
            note: idle.or_else(|| measured_note(&measured)),
        });
        self.choices.push(Choice::Block(b.clone()));
        Ok(())
    }

    /// Candidate 2: the one-sided schedule on the hosts of each side that has d of them
    /// (docs/schedules.md §2.5, item 2).
    fn one_sided(&mut self, pool: &Job, slots: &[(u32, u32)]) -> Result<()> {
        let (layout, d) = (self.layout, self.d);
        for side in 0..layout.sides {
            let on_side: Vec<u32> = (0..pool.len() as u32)
                .filter(|&jr| slots[pool.fabric_ranks()[jr as usize] as usize].0 / layout.npts() == side)
                .take(d)
                .collect();
            if on_side.len() < d {
                continue;
            }
            let sub = pool.select(&on_side);
            let pattern = Compact::new(LsftAllToAll::on_side(layout, &sub, side)?);
            let measured = self.checker.ratio(&sub, &pattern)?;
            self.candidates.push(Candidate {
                pattern: "lsft".into(),
                description: format!(
                    "one-sided schedule on side {side}, over the first {d} hosts of that side, empty phases dropped"
                ),
                phases: pattern.phases(),
                idle_fraction: 1.0 - d as f64 / pattern.phases() as f64,
                conflict_free: true,
                ratio: Some(measured.unwrap_or(1.0)),
                measured: measured.is_some(),
                note: measured_note(&measured),
            });
            self.choices.push(Choice::Side(side, sub, pattern));
        }
        Ok(())
    }

    /// Candidate 3: the whole-fabric schedule restricted to the first d hosts `sub`.
    fn whole_fabric(&mut self, sub: &Job) -> Result<()> {
        let d = self.d;
        let full = Compact::new(LsftAllToAll::new(self.layout, sub));
        let measured = self.checker.ratio(sub, &full)?;
        self.candidates.push(Candidate {
            pattern: "lsft".into(),
            description: format!("whole-fabric schedule restricted to the first {d} hosts, empty phases dropped"),
            phases: full.phases(),
            idle_fraction: 1.0 - d as f64 / full.phases() as f64,
            conflict_free: true,
            ratio: Some(measured.unwrap_or(1.0)),
            measured: measured.is_some(),
            note: measured_note(&measured),
        });
        self.choices.push(Choice::Full(sub.clone(), full));
        Ok(())
    }

    /// Candidate 4: shift over the first d hosts `sub`.
    fn shift(&mut self, sub: Job) -> Result<()> {
        let d = self.d;
        let measured = self.checker.ratio(&sub, &Shift::new(d))?;
        self.candidates.push(Candidate {
            pattern: "shift".into(),
            description: format!("shift over the first {d} hosts"),
            phases: d,
            idle_fraction: 0.0,
            conflict_free: false,
            ratio: measured,
            measured: measured.is_some(),
            note: measured
                .is_none()
                .then(|| format!("ratio not measured (more than {MEASURE_LIMIT} flows); not chosen")),
        });
        self.choices.push(Choice::Shift(sub));
        Ok(())
    }

    /// The candidate with the lowest estimated duration (in conflict-free phase times;
    /// the first of equal ones wins) and the report of the comparison.
    fn pick(mut self, pool: usize, exact: bool) -> (Choice, ChoiceReport) {
        let cost = |c: &Candidate| c.ratio.filter(|&r| r > 0.0).map(|r| c.phases as f64 / r);
        let chosen = (0..self.candidates.len())
            .filter_map(|i| cost(&self.candidates[i]).map(|c| (i, c)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
            .expect("a conflict-free candidate always has a ratio");
        let report = ChoiceReport {
            job_size: self.d,
            pool,
            chosen,
            exact,
            candidates: self.candidates,
        };
        (self.choices.swap_remove(chosen), report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::testutil::assert_complete;

    use crate::schedule::testutil::lsft_plan as plan;

    #[test]
    fn exact_blocks_are_found_when_d_factors() {
        let p = plan(5, false, None);
        let pool = Job::whole(p.layout.hosts());
        for (k, m) in [(1, 1), (3, 2), (4, 4), (5, 5)] {
            let d = (5 * k * m) as usize;
            let (choice, report) = choose(&p, &pool, d).unwrap();
            assert!(report.exact, "D = {d}");
            assert_sound(&report);
            let Choice::Block(b) = choice else {
                panic!("D = {d}: expected a block")
            };
            assert_eq!(b.phases(), d);
            assert_eq!(b.idle_fraction(), 0.0);
            let s = LsftPartial::new(b.shape.clone(), b.positions.clone()).unwrap();
            assert_complete(&s, true);
        }
    }

    /// The chooser picked the candidate of least phases / ratio, every candidate was
    /// measured on the plan's own tables, and the conflict-free ones measure 1.0.
    fn assert_sound(report: &ChoiceReport) {
        assert!(report.candidates.iter().all(|c| c.measured), "{report:?}");
        for c in report.candidates.iter().filter(|c| c.conflict_free) {
            assert_eq!(c.ratio, Some(1.0), "{c:?}");
        }
        let cost = |c: &Candidate| c.phases as f64 / c.ratio.unwrap();
        let best = report.candidates.iter().map(cost).fold(f64::INFINITY, f64::min);
        assert_eq!(cost(&report.candidates[report.chosen]), best, "{report:?}");
    }

    /// Whatever was chosen covers every ordered pair of its d hosts once.
    fn assert_chosen_complete(choice: &Choice, d: usize) {
        match choice {
            Choice::Block(b) => {
                assert_eq!(b.job.len(), d);
                assert_complete(&LsftPartial::new(b.shape.clone(), b.positions.clone()).unwrap(), true);
            }
            Choice::Full(job, pattern) | Choice::Side(_, job, pattern) => {
                assert_eq!(job.len(), d);
                assert_complete(pattern, true);
            }
            Choice::Shift(job) => assert_eq!(job.len(), d),
        }
    }

    #[test]
    fn other_sizes_offer_the_smallest_block_and_pick_by_measured_ratio() {
        let p = plan(5, false, None);
        let pool = Job::whole(p.layout.hosts());
        for d in [7usize, 13, 29, 101, 124] {
            let (choice, report) = choose(&p, &pool, d).unwrap();
            assert!(!report.exact);
            let block = &report.candidates[0];
            assert_eq!(block.pattern, "lsft-partial");
            // no valid block with fewer positions reaches d; the spare positions idle
            assert_eq!(block.phases, smallest_block(5, d));
            assert!(block.idle_fraction > 0.0);
            assert!(report.candidates.iter().any(|c| c.pattern == "lsft"));
            assert_sound(&report);
            assert_chosen_complete(&choice, d);
        }
    }

    /// Smallest q·k·m ≥ d over 1 ≤ m ≤ k ≤ q (derived independently of the chooser).
    fn smallest_block(q: u32, d: usize) -> usize {
        (1..=q)
            .flat_map(|k| (1..=k).map(move |m| (q * k * m) as usize))
            .filter(|&s| s >= d)
            .min()
            .unwrap()
    }

    #[test]
    fn too_big_for_a_block_falls_back_to_the_full_schedule() {
        let p = plan(3, false, None); // 52 hosts, grid of 9 leaves holds at most 27 in a block
        let pool = Job::whole(p.layout.hosts());
        let (choice, report) = choose(&p, &pool, 40).unwrap();
        assert!(report.candidates.iter().all(|c| c.pattern != "lsft-partial"));
        assert_eq!(report.candidates[0].pattern, "lsft");
        assert_sound(&report);
        assert_chosen_complete(&choice, 40);
        let e = choose(&p, &pool, 53).unwrap_err().to_string();
        assert!(e.contains("52 hosts are available"), "{e}");
    }

    #[test]
    fn two_sided_jobs_up_to_one_side_run_the_one_sided_schedule_of_a_side() {
        // two-sided LSFT(5): 186 hosts per side; no 5xk block holds more than 125
        let p = plan(5, true, None);
        let pool = Job::whole(p.layout.hosts());
        let (choice, report) = choose(&p, &pool, 186).unwrap();
        assert_sound(&report);
        let c = &report.candidates[report.chosen];
        assert_eq!(
            (c.pattern.as_str(), c.phases, c.ratio),
            ("lsft", 186, Some(1.0)),
            "{report:?}"
        );
        assert!(c.description.contains("side 0"), "{c:?}");
        let whole = report
            .candidates
            .iter()
            .find(|c| c.description.starts_with("whole-fabric"))
            .unwrap();
        assert_eq!(whole.phases, 366, "the two-sided schedule over the first 186 hosts");
        let Choice::Side(0, job, _) = &choice else {
            panic!("expected the one-sided schedule of side 0")
        };
        assert!(
            job.fabric_ranks().iter().all(|&fr| fr < 186),
            "side 0 holds fabric ranks 0..186"
        );
        assert_chosen_complete(&choice, 186);
        // a pool whose side 0 is too small: side 1 is used
        let pool1 = Job::from_fabric_ranks(p.layout.hosts(), (100..372).collect()).unwrap();
        let (choice, report) = choose(&p, &pool1, 150).unwrap();
        assert_sound(&report);
        let Choice::Side(1, job, _) = &choice else {
            panic!("expected side 1: {report:?}")
        };
        assert!(job.fabric_ranks().iter().all(|&fr| fr >= 186));
        assert_chosen_complete(&choice, 150);
    }

    #[test]
    fn sparse_pools_are_placed_on_the_hosts_they_have() {
        // two-sided, 2 hosts per leaf, and the pool is the side-1 hosts with even rank
        let p = plan(4, true, Some(2));
        let ranks: Vec<u32> = (0..p.layout.hosts().len() as u32)
            .filter(|&r| r as usize >= p.layout.hosts().len() / 2 && r % 2 == 0)
            .collect();
        let pool = Job::from_fabric_ranks(p.layout.hosts(), ranks).unwrap();
        let (choice, _) = choose(&p, &pool, 12).unwrap();
        let Choice::Block(b) = choice else {
            panic!("expected a block")
        };
        assert_eq!(b.side, 1);
        assert!(b.job.fabric_ranks().iter().all(|r| pool.fabric_ranks().contains(r)));
        let s = LsftPartial::new(b.shape.clone(), b.positions.clone()).unwrap();
        assert_complete(&s, true);
    }
}
