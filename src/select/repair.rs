//! Repairing an all-to-all schedule for the tables a degraded fabric actually holds.
//!
//! A family's schedule is conflict-free on the family's routes. When cables fail, pairs
//! whose route survives keep it (the degraded routers promise that), and the pairs on a
//! detour take other links — so some phases now carry two flows on one link. Repair keeps
//! what still works and re-packs the rest, measured on the real tables:
//!
//! 1. every phase keeps its flows in order of route length (family routes are the short
//!    ones), dropping a flow whose route shares a link with one already kept; a phase
//!    that loses nothing is kept as it was;
//! 2. every dropped flow goes, first fit, into the earliest phase where its source is idle,
//!    its destination receives nothing and all its links are free — existing phases first,
//!    then new ones appended at the end.
//!
//! The result is conflict-free on those tables (every link carries at most one flow per
//! phase), every routed pair of the original is sent exactly once, and each phase stays a
//! partial permutation. Pairs without a route are dropped and counted. Deterministic.

mod kick;

use crate::check::CompiledRoutes;
use crate::schedule::{Pattern, IDLE};
use serde::Serialize;

/// What repair did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RepairReport {
    /// Phases of the original schedule.
    pub original_phases: usize,
    /// Phases of the repaired one.
    pub phases: usize,
    /// Phases appended for flows that fit nowhere else.
    pub added_phases: usize,
    /// Original phases that were conflict-free on these tables as they were.
    pub kept_phases: usize,
    /// Flows between different ranks in the original schedule.
    pub flows: u64,
    /// Flows moved to another phase.
    pub moved_flows: u64,
    /// Flows whose pair has no route (dropped).
    pub unrouted_flows: u64,
    /// The original schedule on these tables, each phase lasting as long as its most
    /// loaded link (in units of one conflict-free phase).
    pub original_time: u64,
    /// No conflict-free schedule of these flows on these tables has fewer phases: the
    /// most flows any one link carries in all (or any rank sends or receives).
    pub lower_bound_phases: u64,
}

impl RepairReport {
    /// All-to-all throughput against the intact fabric (original phases / phases): the
    /// repaired schedule's phases are conflict-free, so its time is its phase count.
    pub fn throughput_vs_intact(&self) -> f64 {
        if self.phases == 0 {
            1.0
        } else {
            self.original_phases as f64 / self.phases as f64
        }
    }

    /// The same for the original schedule left as it was on these tables.
    pub fn unrepaired_vs_intact(&self) -> f64 {
        if self.original_time == 0 {
            1.0
        } else {
            self.original_phases as f64 / self.original_time as f64
        }
    }
}

/// One phase under construction: destinations, receivers and busy links.
struct Phase {
    dest: Vec<u32>,
    receives: Vec<u64>,
    busy: Vec<u64>,
}

impl Phase {
    fn new(ranks: usize, channels: usize) -> Phase {
        Phase {
            dest: vec![IDLE; ranks],
            receives: vec![0; ranks.div_ceil(64)],
            busy: vec![0; channels.div_ceil(64)],
        }
    }

    fn test(bits: &[u64], i: usize) -> bool {
        bits[i / 64] >> (i % 64) & 1 == 1
    }

    fn fits(&self, src: usize, dst: usize, route: &[u32]) -> bool {
        self.dest[src] == IDLE
            && !Self::test(&self.receives, dst)
            && route.iter().all(|&c| !Self::test(&self.busy, c as usize))
    }

    fn place(&mut self, src: usize, dst: usize, route: &[u32]) {
        self.dest[src] = dst as u32;
        self.receives[dst / 64] |= 1 << (dst % 64);
        for &c in route {
            self.busy[c as usize / 64] |= 1 << (c % 64);
        }
    }
}

/// Repair `pattern` for the tables `routes` was compiled from (module documentation):
/// the repaired phases (`phases[p][r]`: destination of rank r, or [`IDLE`]) and the report.
pub(crate) fn repair(routes: &CompiledRoutes, pattern: &dyn Pattern) -> (Vec<Vec<u32>>, RepairReport) {
    let ranks = pattern.ranks();
    let channels = routes.channels();
    let mut report = RepairReport {
        original_phases: pattern.phases(),
        ..Default::default()
    };
    let mut keep = Keep::new(routes, ranks, channels, pattern.phases());
    for p in 0..pattern.phases() {
        keep.phase(pattern, p, &mut report);
    }
    let Keep {
        phases,
        kept,
        mut dropped,
        mut dest,
        ..
    } = keep;
    report.moved_flows = dropped.len() as u64;
    let total = lower_bound(routes, &phases, &dropped, ranks, channels, &mut report);
    order_moved(routes, &mut dropped, &total);
    let dests = pack(routes, phases, &kept, dropped, ranks, channels, &report);
    report.added_phases = dests.len().saturating_sub(report.original_phases);
    count_moved(pattern, &dests, &mut dest, &mut report);
    report.phases = dests.len();
    (dests, report)
}

/// Stage 1 across the original phases: what is built, and the scratch every phase reuses
/// (plus how many flows each rank lost so far, which orders the next phase's flows).
struct Keep<'a> {
    routes: &'a CompiledRoutes,
    ranks: usize,
    channels: usize,
    phases: Vec<Phase>,
    /// The phases that stayed conflict-free: their flows stay where they are.
    kept: Vec<bool>,
    dropped: Vec<(u32, u32)>,
    dest: Vec<u32>,
    load: Vec<u32>,
    flows: Vec<(usize, u32, u32)>,
    moved_of: Vec<u32>,
    moved_to: Vec<u32>,
}

impl<'a> Keep<'a> {
    fn new(routes: &'a CompiledRoutes, ranks: usize, channels: usize, n: usize) -> Keep<'a> {
        Keep {
            routes,
            ranks,
            channels,
            phases: Vec::with_capacity(n),
            kept: Vec::with_capacity(n),
            dropped: Vec::new(),
            dest: vec![IDLE; ranks],
            load: vec![0u32; channels],
            flows: Vec::with_capacity(ranks),
            moved_of: vec![0u32; ranks],
            moved_to: vec![0u32; ranks],
        }
    }

    /// Stage 1 for original phase `p`: keep what fits, drop the rest for stage 2.
    fn phase(&mut self, pattern: &dyn Pattern, p: usize, report: &mut RepairReport) {
        let mut phase = Phase::new(self.ranks, self.channels);
        let worst = self.collect_flows(pattern, p, &mut phase, report);
        report.original_time += worst.max(1) as u64;
        let before = self.dropped.len();
        self.keep_or_drop(&mut phase);
        report.kept_phases += (self.dropped.len() == before) as usize;
        self.kept.push(self.dropped.len() == before);
        self.phases.push(phase);
    }

    /// The routed flows of phase `p` into `flows` (local copies straight into the phase),
    /// loading their links to tell how long the phase takes unrepaired (its busiest link).
    fn collect_flows(&mut self, pattern: &dyn Pattern, p: usize, phase: &mut Phase, report: &mut RepairReport) -> u32 {
        pattern.phase(p, &mut self.dest);
        self.flows.clear();
        let mut worst = 0u32;
        for (r, &d) in self.dest.iter().enumerate() {
            if d == IDLE {
                continue;
            }
            if d as usize == r {
                phase.dest[r] = d; // a local copy
                continue;
            }
            report.flows += 1;
            match self.routes.route(r, d as usize) {
                None => report.unrouted_flows += 1,
                Some(route) => {
                    for &c in route {
                        self.load[c as usize] += 1;
                        worst = worst.max(self.load[c as usize]);
                    }
                    self.flows.push((route.len(), r as u32, d));
                }
            }
        }
        worst
    }

    /// Keep the phase's flows in priority order while they fit, drop the others (and
    /// clear the link loads for the next phase on the way).
    fn keep_or_drop(&mut self, phase: &mut Phase) {
        let (moved_of, moved_to) = (&mut self.moved_of, &mut self.moved_to);
        // keep first the flows whose sender and receiver already lost the most flows of
        // their phases, and the long routes (detours, the flows that fit fewest phases):
        // the moved flows then spread over many ranks, each of which is idle in the
        // phases its own moved flows left — where another moved flow can go
        self.flows.sort_unstable_by_key(|&(len, r, d)| {
            (
                std::cmp::Reverse(moved_of[r as usize] + moved_to[d as usize] + 2 * len as u32),
                r,
                d,
            )
        });
        for &(_, r, d) in &self.flows {
            let route = self.routes.route(r as usize, d as usize).unwrap_or(&[]);
            for &c in route {
                self.load[c as usize] = 0;
            }
            if phase.fits(r as usize, d as usize, route) {
                phase.place(r as usize, d as usize, route);
            } else {
                moved_of[r as usize] += 1;
                moved_to[d as usize] += 1;
                self.dropped.push((r, d));
            }
        }
    }
}

/// Every flow's links in all, kept and dropped: sets the report's lower bound (busiest
/// link, or busiest sender or receiver) and returns the per-link totals that order stage 2.
fn lower_bound(
    routes: &CompiledRoutes,
    phases: &[Phase],
    dropped: &[(u32, u32)],
    ranks: usize,
    channels: usize,
    report: &mut RepairReport,
) -> Vec<u64> {
    let mut total = vec![0u64; channels];
    let (mut sends, mut gets) = (vec![0u64; ranks], vec![0u64; ranks]);
    for ph in phases {
        for (r, &d) in ph.dest.iter().enumerate() {
            if d != IDLE && d as usize != r {
                sends[r] += 1;
                gets[d as usize] += 1;
                routes
                    .route(r, d as usize)
                    .unwrap_or(&[])
                    .iter()
                    .for_each(|&c| total[c as usize] += 1);
            }
        }
    }
    for &(r, d) in dropped {
        sends[r as usize] += 1;
        gets[d as usize] += 1;
        routes
            .route(r as usize, d as usize)
            .unwrap_or(&[])
            .iter()
            .for_each(|&c| total[c as usize] += 1);
    }
    report.lower_bound_phases = total.iter().chain(&sends).chain(&gets).copied().max().unwrap_or(0);
    total
}

/// The moved flows on the busiest links first, as a greedy edge colouring does: they have
/// the fewest phases to choose from.
fn order_moved(routes: &CompiledRoutes, dropped: &mut [(u32, u32)], total: &[u64]) {
    let busiest = |&(r, d): &(u32, u32)| {
        routes
            .route(r as usize, d as usize)
            .unwrap_or(&[])
            .iter()
            .map(|&c| total[c as usize])
            .max()
            .unwrap_or(0)
    };
    dropped.sort_by_key(|f| (std::cmp::Reverse(busiest(f)), f.0, f.1));
}

/// Stage 2: the moved flows first fit into the phases. Where the occupancy of every phase
/// fits in memory, [`kick`] finds idle senders and receivers word by word and then empties
/// appended phases where one flow can move aside; else plain first fit phase by phase.
fn pack(
    routes: &CompiledRoutes,
    mut phases: Vec<Phase>,
    kept: &[bool],
    dropped: Vec<(u32, u32)>,
    ranks: usize,
    channels: usize,
    report: &RepairReport,
) -> Vec<Vec<u32>> {
    let expect = (report.lower_bound_phases as usize).max(phases.len()) * 5 / 4;
    if expect * (2 * ranks + channels) * 4 <= kick::MAX_BYTES {
        let mut packing = kick::Phases::new(routes, phases.into_iter().map(|p| p.dest).collect(), ranks, kept);
        for (r, d) in dropped {
            packing.first_fit(r, d);
        }
        packing.empty_added(report.original_phases, report.flows);
        packing.into_dest()
    } else {
        for (r, d) in dropped {
            let route = routes.route(r as usize, d as usize).unwrap_or(&[]);
            let (r, d) = (r as usize, d as usize);
            match phases.iter_mut().find(|ph| ph.fits(r, d, route)) {
                Some(ph) => ph.place(r, d, route),
                None => {
                    let mut ph = Phase::new(ranks, channels);
                    ph.place(r, d, route);
                    phases.push(ph);
                }
            }
        }
        phases.into_iter().map(|p| p.dest).collect()
    }
}

/// Moved: every flow not in its original phase any more — stage 2 may move flows of the
/// original phases too, so this is counted against the pattern, not from the drops.
fn count_moved(pattern: &dyn Pattern, dests: &[Vec<u32>], dest: &mut [u32], report: &mut RepairReport) {
    let ranks = pattern.ranks();
    let mut stayed = 0u64;
    for (p, now) in dests.iter().enumerate().take(pattern.phases()) {
        pattern.phase(p, dest);
        stayed += (0..ranks)
            .filter(|&r| dest[r] != IDLE && dest[r] as usize != r && now[r] == dest[r])
            .count() as u64;
    }
    report.moved_flows = report.flows - report.unrouted_flows - stayed;
}

/// The family's all-to-all of a degraded LSFT (every host that is there, in (point, slot)
/// order), repaired for `lfts`: the schedule, with the fingerprint of the tables, and the
/// report.
pub fn repair_lsft(
    fabric: &crate::topology::Fabric,
    holes: &crate::families::lsft::model_holes::LsftHoles,
    lids: &crate::routing::Lids,
    lfts: &crate::routing::LftSet,
) -> crate::Result<(crate::schedule::Schedule, RepairReport)> {
    use crate::families::lsft::schedule::LsftAllToAll;
    use crate::schedule::Job;
    let layout = holes.schedule_layout();
    let job = Job::whole(&layout.hosts);
    let pattern = LsftAllToAll::new(&layout, &job);
    repaired_for(fabric, lids, lfts, &job, &pattern)
}

/// [`repair`] of `pattern` over `job`'s hosts on `lfts`: the schedule, recording the
/// tables it was computed for, and the report.
fn repaired_for(
    fabric: &crate::topology::Fabric,
    lids: &crate::routing::Lids,
    lfts: &crate::routing::LftSet,
    job: &crate::schedule::Job,
    pattern: &dyn Pattern,
) -> crate::Result<(crate::schedule::Schedule, RepairReport)> {
    let routes = CompiledRoutes::compile(fabric, lids, lfts, job.hosts(), 0)?;
    let (phases, report) = repair(&routes, pattern);
    let schedule = crate::schedule::Schedule {
        hosts: job.port_guids(fabric),
        phases,
        computed_for: Some(lfts.computed_for(fabric, lids)),
    };
    Ok((schedule, report))
}

/// The family schedule of any degraded fabric repaired for `lfts`: LSFT → `lsft`
/// ([`repair_lsft`]); k-ary/PGFT/two-level tree → `kary-shift` and MOLS 3-level tree →
/// `mols-shift`, the shift in tree order (what d-mod-k routing makes conflict-free on the
/// intact tree; a MOLS tree's bandwidth routes are on the base LID, which the repair uses:
/// base+1's latency routes are for small messages) over every host that is there. The
/// schedule, the report, and the pattern ([`repaired_pattern`]).
pub fn repair_degraded(
    fabric: &crate::topology::Fabric,
    d: &crate::recognize::Degraded,
    lids: &crate::routing::Lids,
    lfts: &crate::routing::LftSet,
) -> crate::Result<(crate::schedule::Schedule, RepairReport, crate::schedule::PatternKind)> {
    use crate::schedule::shift::Shift;
    use crate::schedule::Job;
    if let Some(h) = d.lsft() {
        let (sched, rep) = repair_lsft(fabric, h, lids, lfts)?;
        return Ok((sched, rep, repaired_pattern(d)));
    }
    let job = Job::whole(&d.holes.ops().hosts());
    let (sched, rep) = repaired_for(fabric, lids, lfts, &job, &Shift::new(job.len()))?;
    Ok((sched, rep, repaired_pattern(d)))
}

/// The pattern [`repair_degraded`] repairs for this fabric.
pub fn repaired_pattern(d: &crate::recognize::Degraded) -> crate::schedule::PatternKind {
    use crate::schedule::PatternKind;
    d.holes.ops().native_pattern().parse().unwrap_or(PatternKind::Shift)
}
