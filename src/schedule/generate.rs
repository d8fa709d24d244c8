//! From a request (pattern name, job, block, seed) to a pattern over a job, with what the
//! construction guarantees. Everything here is construction, nothing is measured: a
//! `lsft-partial` job placed by size (`--job-size`, or no `--block`) is chosen by
//! measuring candidates on routing tables, in `select::generate` (the layer above), which the CLI
//! calls and which hands every other request to [`generate`].

use super::compare::{Bisection, Bruck, RandomPermutations, RecursiveDoubling, Ring};
use super::lsft::LsftAllToAll;
use super::partial::LsftPartial;
use super::placement::{self, Placement};
use super::rail_traffic::{RailCollective, RailTraffic};
use super::shift::{Shift, TreeShift};
use super::{Compact, Job, Pattern};
use crate::error::{Error, Result};
use crate::topology::{Layout, Topology};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// The patterns ibfat generates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternKind {
    /// `shift`: phase i sends r → (r+i) mod N in job-rank order; complete, N phases.
    Shift,
    /// `kary-shift`: shift in tree order on a k-ary n-tree, what d-mod-k routing expects.
    KaryShift,
    /// `mols-shift`: shift in tree order on a proximity 3-level (MOLS) tree.
    MolsShift,
    /// `lsft`: the conflict-free all-to-all of a Latin-square fat-tree (docs/schedules.md §2.1).
    Lsft,
    /// `lsft-partial`: the conflict-free all-to-all of a job on a q×k LSFT block (docs/schedules.md §2.4).
    LsftPartial,
    /// `ring`: N−1 steps of r → r+1, for comparison (not complete).
    Ring,
    /// `recursive-doubling`: ⌈log₂N⌉ hypercube exchanges r ↔ r XOR 2^i, for comparison.
    RecursiveDoubling,
    /// `bruck`: ⌈log₂N⌉ steps r → r + 2^i, for comparison.
    Bruck,
    /// `random`: an independent random permutation per phase (seed and phase count from
    /// the request).
    Random,
    /// `bisection`: every cross-half pair in both directions, ⌊N/2⌋ phases.
    Bisection,
    /// `rail-alltoall`: an all-to-all per rail of a rail-optimised fabric, all rails at
    /// once (NCCL's PXN all-to-all).
    RailAlltoall,
    /// `rail-ring`: a ring per rail, all rails at once (NCCL's ring all-reduce).
    RailRing,
}

impl PatternKind {
    /// Every pattern, in the order `--help` and error hints list them.
    pub const ALL: [PatternKind; 12] = [
        PatternKind::Shift,
        PatternKind::KaryShift,
        PatternKind::MolsShift,
        PatternKind::Lsft,
        PatternKind::LsftPartial,
        PatternKind::Ring,
        PatternKind::RecursiveDoubling,
        PatternKind::Bruck,
        PatternKind::Random,
        PatternKind::Bisection,
        PatternKind::RailAlltoall,
        PatternKind::RailRing,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            PatternKind::Shift => "shift",
            PatternKind::KaryShift => "kary-shift",
            PatternKind::MolsShift => "mols-shift",
            PatternKind::Lsft => "lsft",
            PatternKind::LsftPartial => "lsft-partial",
            PatternKind::Ring => "ring",
            PatternKind::RecursiveDoubling => "recursive-doubling",
            PatternKind::Bruck => "bruck",
            PatternKind::Random => "random",
            PatternKind::Bisection => "bisection",
            PatternKind::RailAlltoall => "rail-alltoall",
            PatternKind::RailRing => "rail-ring",
        }
    }

    /// The collective of a rail pattern; `None` for the others.
    pub fn rail_collective(self) -> Option<RailCollective> {
        match self {
            PatternKind::RailAlltoall => Some(RailCollective::AllToAll),
            PatternKind::RailRing => Some(RailCollective::Ring),
            _ => None,
        }
    }
}

impl fmt::Display for PatternKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl PatternKind {
    /// The family's own all-to-all (the LSFT's, a tree's shift in d-mod-k order); plain
    /// shift for a family without one.
    pub fn native(layout: &Layout) -> PatternKind {
        layout.ops().native_pattern().parse().unwrap_or(PatternKind::Shift)
    }
}

impl FromStr for PatternKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<PatternKind> {
        PatternKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            Error::input(
                "pattern",
                format!("unknown pattern `{s}`"),
                Some(format!("one of {}", PatternKind::ALL.map(|k| k.name()).join(", "))),
            )
        })
    }
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct Request {
    /// Which pattern to generate.
    pub kind: PatternKind,
    /// The job (default: the whole fabric in rank order); the pool for `--job-size`.
    pub job: Option<Job>,
    /// `--block K --per-leaf M` (lsft-partial).
    pub block: Option<(u32, u32)>,
    /// `--job-size D` (lsft-partial placement chooser).
    pub job_size: Option<usize>,
    /// Seed of `random`.
    pub seed: u64,
    /// Number of phases of `random` (default N).
    pub phases: Option<usize>,
}

impl Request {
    /// A request for `kind` on the whole fabric with defaults.
    pub fn new(kind: PatternKind) -> Request {
        Request {
            kind,
            job: None,
            block: None,
            job_size: None,
            seed: 0,
            phases: None,
        }
    }
}

/// Where an lsft-partial job sits.
#[derive(Clone, Debug, Serialize)]
pub struct BlockInfo {
    /// Side of the LSFT (0, or 1 on a two-sided LSFT) whose grid leaves hold the block.
    pub side: u32,
    /// Field elements of the block's grid columns.
    pub columns: Vec<u32>,
    /// Number of block columns k (1..=q).
    pub k: u32,
    /// Hosts used per leaf m (1..=k).
    pub per_leaf: u32,
    /// Block positions q·k·m: the number of phases of the block schedule.
    pub positions: usize,
    /// Positions that hold a rank of the job; the others are idle.
    pub placed: usize,
}

impl BlockInfo {
    fn of(p: &Placement) -> BlockInfo {
        BlockInfo {
            side: p.side,
            columns: p.shape.columns.clone(),
            k: p.shape.k(),
            per_leaf: p.shape.m,
            positions: p.shape.size(),
            placed: p.job.len(),
        }
    }
}

/// A generated pattern over its job, and what its construction guarantees.
pub struct Generated {
    /// The pattern, over ranks 0..job.len() of `job`.
    pub pattern: Box<dyn Pattern>,
    /// The hosts the pattern's ranks are, in rank order (for lsft-partial, the placed
    /// hosts, which may differ from the requested job).
    pub job: Job,
    /// Every ordered pair of ranks exactly once (by construction).
    pub complete: bool,
    /// Why the pattern is conflict-free, when its construction guarantees it.
    pub conflict_free: Option<String>,
    /// Caveats for the user: idle slots, missing guarantees, routing assumptions.
    pub notes: Vec<String>,
    /// Where an lsft-partial schedule's block sits; `None` for other patterns.
    pub block: Option<BlockInfo>,
}

impl fmt::Debug for Generated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generated")
            .field("pattern", &self.pattern.name())
            .field("ranks", &self.pattern.ranks())
            .field("phases", &self.pattern.phases())
            .field("complete", &self.complete)
            .field("conflict_free", &self.conflict_free)
            .field("notes", &self.notes)
            .finish_non_exhaustive()
    }
}

impl Generated {
    /// A pattern over its job with no guarantee or note yet (the constructions add them).
    pub(crate) fn new(pattern: Box<dyn Pattern>, job: Job, complete: bool) -> Generated {
        Generated {
            pattern,
            job,
            complete,
            conflict_free: None,
            notes: Vec::new(),
            block: None,
        }
    }

    /// The block schedule (docs/schedules.md §2.4) of a job placed in a block (named by `--block` or chosen by
    /// size), compacted when some block positions hold no rank.
    pub(crate) fn of_block(p: &Placement) -> Result<Generated> {
        let s = LsftPartial::new(p.shape.clone(), p.positions.clone())?;
        let idle = p.positions.len() < p.shape.size();
        let pattern: Box<dyn Pattern> = if idle { Box::new(Compact::new(s)) } else { Box::new(s) };
        let mut g = Generated::new(pattern, p.job.clone(), true);
        g.conflict_free = Some(PARTIAL_GUARANTEE.into());
        g.block = Some(BlockInfo::of(p));
        if idle {
            g.notes.push(format!(
                "{} of {} block positions hold no rank: their flows are dropped (idle), still conflict-free",
                p.shape.size() - p.positions.len(),
                p.shape.size()
            ));
        }
        Ok(g)
    }

    /// Notes that the pattern has no phase (e.g. one rank), so a caller does not mistake
    /// an empty schedule for a bug.
    pub(crate) fn note_if_empty(mut self, kind: PatternKind) -> Generated {
        if self.pattern.phases() == 0 {
            self.notes
                .push(format!("{kind} has no phase for {} rank(s)", self.job.len()));
        }
        self
    }
}

/// Why the LSFT schedule (docs/schedules.md §2.1) (also restricted to part of the hosts) is conflict-free.
pub(crate) const LSFT_GUARANTEE: &str =
    "by construction (docs/schedules.md §2.1): every switch permutes its inputs in every \
                              phase of the canonical LSFT model";
const PARTIAL_GUARANTEE: &str = "by construction (docs/schedules.md §2.4): the block's leaves on each spine are \
                                 permuted and each leaf's hosts use distinct spines";

/// Most phases `random` takes (`--phases`): more than the N−1 steps of an all-to-all over
/// the 49151 unicast LIDs of a subnet, small enough that a schedule is finite work.
pub(crate) const MAX_RANDOM_PHASES: usize = 1 << 16;

/// Most rank × phase entries of a `random` schedule (2^31: a 64-byte-per-entry file would
/// otherwise outgrow any disk); `--phases` beyond it for the job's ranks is refused.
pub(crate) const MAX_RANDOM_ENTRIES: u64 = 1 << 31;

/// Refuse options that do not belong to the requested pattern (the same checks whoever
/// generates it).
pub(crate) fn validate(req: &Request) -> Result<()> {
    let kind = req.kind;
    if kind != PatternKind::LsftPartial && (req.block.is_some() || req.job_size.is_some()) {
        return Err(Error::input(
            "pattern",
            format!("--block, --per-leaf and --job-size place lsft-partial jobs; {kind} takes --job only"),
            Some("--pattern lsft-partial --job-size D".into()),
        ));
    }
    if kind != PatternKind::Random && req.phases.is_some() {
        return Err(Error::input(
            "phases",
            format!("--phases sets the length of random; {kind} has a fixed number of phases"),
            None,
        ));
    }
    if let Some(p) = req.phases {
        if p == 0 || p > MAX_RANDOM_PHASES {
            return Err(Error::input(
                "phases",
                format!("{p} is out of range: valid 1..={MAX_RANDOM_PHASES} (a check of no phase would pass on nothing)"),
                Some(format!(
                    "an all-to-all over the most hosts a subnet can address (49151) has fewer phases; {MAX_RANDOM_PHASES} is the cap"
                )),
            ));
        }
    }
    if req.block.is_some() && req.job_size.is_some() {
        return Err(Error::input(
            "block",
            "give either --block K --per-leaf M or --job-size D",
            None,
        ));
    }
    Ok(())
}

/// Generate the requested pattern on a plan by construction. A `lsft-partial` request
/// without `--block` needs the measuring chooser: it is refused here (input error) and
/// served by `select::generate` (the layer above).
pub(crate) fn generate(plan: &Topology, req: &Request) -> Result<Generated> {
    validate(req)?;
    let kind = req.kind;
    let job = req.job.clone().unwrap_or_else(|| Job::whole(plan.layout.hosts()));
    let n = job.len();
    let g = match kind {
        PatternKind::Shift => {
            let mut g = Generated::new(Box::new(Shift::new(n)), job.clone(), true);
            let wanted = plan.layout.ops().native_pattern();
            if let (Some(pos), "kary-shift" | "mols-shift") = (plan.layout.ops().tree_positions(), wanted) {
                let t = TreeShift::for_layout(&plan.layout, &job, wanted)?;
                let positions: Vec<u32> = job.fabric_ranks().iter().map(|&r| pos[r as usize]).collect();
                if positions.windows(2).all(|w| w[0] < w[1]) && t.conflict_free_by_construction() {
                    g.conflict_free = Some(format!(
                        "the job is in tree order, so this is {wanted}, conflict-free under d-mod-k"
                    ));
                } else if !positions.windows(2).all(|w| w[0] < w[1]) {
                    g.notes.push(format!(
                        "the job is not in tree order; {wanted} shifts in the order d-mod-k expects"
                    ));
                }
            }
            g
        }
        PatternKind::KaryShift | PatternKind::MolsShift => {
            let t = TreeShift::for_layout(&plan.layout, &job, kind.name())?;
            let guaranteed = t.conflict_free_by_construction();
            let modulus = t.modulus();
            let mut g = Generated::new(Box::new(t), job, true);
            if guaranteed {
                g.conflict_free = Some(format!(
                    "under d-mod-k: the job size is a multiple of {modulus} and the r-th host in tree order sits \
                     at a position ≡ r (mod {modulus})"
                ));
            } else {
                g.notes.push(format!(
                    "no conflict-freedom guarantee: the job is not aligned to {modulus} hosts in tree order \
                     (whole pods are); measure it with the checker"
                ));
            }
            g
        }
        PatternKind::Lsft => {
            let Layout::Lsft(l) = &plan.layout else {
                return Err(Error::input(
                    "pattern",
                    format!(
                        "lsft is the schedule of a Latin-square fat-tree; this topology is {}",
                        plan.layout.describe()
                    ),
                    Some("use kary-shift or mols-shift on trees".into()),
                ));
            };
            let slots = (l.sides * l.npts() * l.degree()) as usize;
            let s = LsftAllToAll::new(l, &job);
            let mut g = if n < slots {
                let c = Compact::new(s);
                let mut g = Generated::new(Box::new(c), job, true);
                g.notes.push(format!(
                    "{} of {slots} host slots are not in the job: their flows are dropped (idle), which keeps every \
                     phase conflict-free; phases with no flow left are omitted",
                    slots - n
                ));
                g
            } else {
                Generated::new(Box::new(s), job, true)
            };
            g.conflict_free = Some(LSFT_GUARANTEE.into());
            if l.sides == 2 {
                g.notes.push(
                    "two-sided: flows between twin leaves (same point, other side) to host slot j climb the spine of \
                     the j-th line through the point; routing must give the twin leaf's hosts distinct spines"
                        .into(),
                );
            }
            g
        }
        PatternKind::LsftPartial => {
            let Some((k, m)) = req.block else {
                return Err(Error::input(
                    "pattern",
                    "lsft-partial without --block is placed by measuring candidates",
                    Some("call ibfat::select::generate, which chooses the placement".into()),
                ));
            };
            Generated::of_block(&placement::fixed_block(plan, req.job.as_ref(), k, m)?)?
        }
        PatternKind::Ring => Generated::new(Box::new(Ring::new(n)), job, false),
        PatternKind::RecursiveDoubling => Generated::new(Box::new(RecursiveDoubling::new(n)), job, false),
        PatternKind::Bruck => Generated::new(Box::new(Bruck::new(n)), job, false),
        PatternKind::Random => {
            let phases = req.phases.unwrap_or(n);
            if phases as u64 * n as u64 > MAX_RANDOM_ENTRIES {
                return Err(Error::input(
                    "phases",
                    format!(
                        "{phases} phases of {n} ranks are {} entries; valid: at most {MAX_RANDOM_ENTRIES} (0..={} phases for {n} ranks)",
                        phases as u64 * n as u64,
                        MAX_RANDOM_ENTRIES / (n.max(1) as u64)
                    ),
                    None,
                ));
            }
            Generated::new(Box::new(RandomPermutations::new(n, phases, req.seed)), job, false)
        }
        PatternKind::Bisection => Generated::new(Box::new(Bisection::new(n)), job, false),
        PatternKind::RailAlltoall | PatternKind::RailRing => {
            let collective = kind.rail_collective().unwrap_or(RailCollective::AllToAll);
            let t = RailTraffic::new(&plan.fabric, &job, collective)?;
            let mut g = Generated::new(Box::new(t), job, false);
            g.notes.push(
                "one collective per rail, all rails at once (inter-server traffic stays on the sender's rail); \
                 `ibfat check` gives each rail's figures"
                    .into(),
            );
            g
        }
    };
    Ok(g.note_if_empty(kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kary::model::KaryParams;
    use crate::schedule::testutil::assert_complete;
    use crate::topology::{FamilySpec, Spec};

    use crate::schedule::testutil::lsft_plan as lsft;

    #[test]
    fn every_family_names_an_all_to_all_that_exists() {
        use crate::families::fullmesh::model::FullmeshParams;
        use crate::families::mols::model::{MolsParams, WiringChoice};
        let fullmesh = FamilySpec::Fullmesh(FullmeshParams {
            switches: 4,
            hosts_per_switch: 2,
            cables_per_pair: 1,
        });
        let mols = FamilySpec::Mols(MolsParams {
            arity: 3,
            wiring: WiringChoice::Auto,
        });
        let kary = FamilySpec::Kary(KaryParams { arity: 2, levels: 3 });
        let mut plans = vec![lsft(3, false, None)];
        plans.extend([fullmesh, mols, kary].map(|f| Spec::new(f).build().unwrap()));
        let names: Vec<&str> = plans.iter().map(|p| p.layout.ops().native_pattern()).collect();
        assert_eq!(names, ["lsft", "shift", "mols-shift", "kary-shift"]);
        for (plan, name) in plans.iter().zip(names) {
            assert_eq!(Some(PatternKind::native(&plan.layout)), name.parse().ok(), "{name}");
        }
    }

    #[test]
    fn restricted_lsft_is_compacted_and_complete() {
        let plan = lsft(3, true, Some(2));
        let g = generate(&plan, &Request::new(PatternKind::Lsft)).unwrap();
        assert!(g.pattern.phases() < 2 * 4 * 13, "empty phases dropped");
        assert!(g.notes.iter().any(|n| n.contains("twin leaves")));
        assert_complete(g.pattern.as_ref(), true);
        let mut req = Request::new(PatternKind::Lsft);
        req.job = Some(Job::from_fabric_ranks(plan.layout.hosts(), vec![9, 4, 50, 1]).unwrap());
        let g = generate(&plan, &req).unwrap();
        assert_eq!(g.pattern.ranks(), 4);
        assert_complete(g.pattern.as_ref(), true);
    }

    #[test]
    fn shift_on_a_tree_reports_the_guarantee() {
        let plan = Spec::new(FamilySpec::Kary(KaryParams { arity: 3, levels: 3 }))
            .build()
            .unwrap();
        let g = generate(&plan, &Request::new(PatternKind::Shift)).unwrap();
        assert!(g.conflict_free.is_some());
        let g = generate(&plan, &Request::new(PatternKind::KaryShift)).unwrap();
        assert!(g.conflict_free.is_some());
        let mut req = Request::new(PatternKind::KaryShift);
        // hosts 0, 1 on leaf 0 and host 5 on leaf 1: aligned mod 3 (B = 3 within one pod)
        req.job = Some(Job::from_fabric_ranks(plan.layout.hosts(), vec![5, 0, 1]).unwrap());
        assert!(generate(&plan, &req).unwrap().conflict_free.is_some());
        req.job = Some(Job::from_fabric_ranks(plan.layout.hosts(), vec![5, 0, 1, 2]).unwrap());
        let g = generate(&plan, &req).unwrap();
        assert!(g.conflict_free.is_none() && !g.notes.is_empty());
    }

    #[test]
    fn misplaced_options_are_input_errors() {
        let plan = lsft(3, false, None);
        let mut req = Request::new(PatternKind::Shift);
        req.job_size = Some(3);
        let e = generate(&plan, &req).unwrap_err().to_string();
        assert!(e.contains("--job-size place lsft-partial jobs"), "{e}");
        let mut req = Request::new(PatternKind::Lsft);
        req.phases = Some(3);
        assert!(generate(&plan, &req).unwrap_err().to_string().contains("--phases"));
        let tree = Spec::new(FamilySpec::Kary(KaryParams { arity: 2, levels: 2 }))
            .build()
            .unwrap();
        let e = generate(&tree, &Request::new(PatternKind::Lsft))
            .unwrap_err()
            .to_string();
        assert!(e.contains("Latin-square") && e.contains("kary-shift"), "{e}");
        let e = "ringg".parse::<PatternKind>().unwrap_err().to_string();
        assert!(
            e.contains("unknown pattern `ringg`") && e.contains("lsft-partial"),
            "{e}"
        );
    }
}
