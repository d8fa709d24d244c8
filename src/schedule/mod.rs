//! All-to-all schedules: which rank sends to which in every phase.
//!
//! A [`Pattern`] is computed phase by phase into a caller's buffer, never materialised:
//! an all-to-all on LSFT(31) has 31,776 ranks and about a billion flows, so the checker
//! and the file writer stream it one phase at a time (O(ranks) work and memory per
//! phase, no per-flow allocation or hashing). [`Schedule`] is the explicit form, read
//! from or written to a schedule file ([`file`](mod@file)).
//!
//! Ranks are the hosts of a [`Job`]: the whole fabric in rank order
//! ([`crate::topology::Layout::hosts`]) or a subset. A rank may be [`IDLE`] in a phase,
//! and a rank may send to itself (the local copy of an all-to-all; checkers ignore such
//! flows). Every phase of every pattern is a *partial permutation*: no two ranks send to
//! the same rank.
//!
//! Generators: [`shift`] (plain and in tree order), [`lsft`] (docs/schedules.md §2.1–§2.2,
//! one- and two-sided), [`partial`] (blocks, §2.4) placed by [`placement`], and the
//! comparison patterns of [`compare`]. [`generate()`](generate::generate) turns a
//! [`Request`] into a pattern by construction; choosing a placement by measuring (§2.5) is
//! the `select` module's, above this layer and the checker (nothing here imports `check` or
//! `select`).

pub(crate) mod alltoall;
pub mod bcast;
pub mod bcast_file;
pub mod compare;
pub mod file;
pub mod generate;
pub mod job;
use crate::families::lsft::schedule as lsft;
pub(crate) mod partial;
pub(crate) mod placement;
use crate::families::railopt::schedule as rail_traffic;
pub mod shift;

pub use file::Format;
pub use generate::{PatternKind, Request};
pub use job::Job;

use crate::error::{Error, Result};
use rayon::prelude::*;
use std::fmt;

/// Destination of a rank that does not send in a phase.
pub const IDLE: u32 = u32::MAX;

/// A communication pattern over `ranks()` ranks in `phases()` phases.
pub trait Pattern: Sync {
    /// Short name (`shift`, `lsft`, `lsft-partial`, ...).
    fn name(&self) -> String;
    /// Number of ranks (hosts in the job).
    fn ranks(&self) -> usize;
    /// Number of phases.
    fn phases(&self) -> usize;
    /// Destination rank of every rank in phase `p` ([`IDLE`] = idle); `out.len() == ranks()`.
    fn phase(&self, p: usize, out: &mut [u32]);
    /// Destination of rank `r` in phase `p` ([`IDLE`] = idle). The default computes the
    /// whole phase; patterns with a closed form answer in O(1) (an MPI rank asking for its
    /// own peers through the C ABI must not pay O(ranks) per question).
    fn peer(&self, p: usize, r: usize) -> u32 {
        let mut v = vec![IDLE; self.ranks()];
        self.phase(p, &mut v);
        v[r]
    }
}

impl<P: Pattern + ?Sized> Pattern for &P {
    fn name(&self) -> String {
        (**self).name()
    }
    fn ranks(&self) -> usize {
        (**self).ranks()
    }
    fn phases(&self) -> usize {
        (**self).phases()
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        (**self).phase(p, out)
    }
    fn peer(&self, p: usize, r: usize) -> u32 {
        (**self).peer(p, r)
    }
}

impl<P: Pattern + ?Sized> Pattern for Box<P> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn ranks(&self) -> usize {
        (**self).ranks()
    }
    fn phases(&self) -> usize {
        (**self).phases()
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        (**self).phase(p, out)
    }
    fn peer(&self, p: usize, r: usize) -> u32 {
        (**self).peer(p, r)
    }
}

/// An explicit schedule, as stored in a schedule file: the port GUID of every rank and
/// the destination of every rank in every phase ([`IDLE`] = idle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Port GUID of every rank; rank r is `hosts[r]`.
    pub hosts: Vec<u64>,
    /// `phases[p][r]`: the rank that rank r sends to in phase p, or [`IDLE`].
    pub phases: Vec<Vec<u32>>,
    /// The fabric and tables the file says it was computed for (`None`: not recorded).
    pub computed_for: Option<crate::fingerprint::ComputedFor>,
}

impl Schedule {
    #[cfg(test)]
    /// Materialise a pattern (for small patterns and tests: ranks × phases words).
    pub(crate) fn from_pattern(pattern: &dyn Pattern, hosts: Vec<u64>) -> Schedule {
        assert_eq!(hosts.len(), pattern.ranks(), "one GUID per rank");
        let phases = (0..pattern.phases())
            .map(|p| {
                let mut v = vec![IDLE; pattern.ranks()];
                pattern.phase(p, &mut v);
                v
            })
            .collect();
        Schedule {
            hosts,
            phases,
            computed_for: None,
        }
    }
}

impl Pattern for Schedule {
    fn name(&self) -> String {
        "file".into()
    }
    fn ranks(&self) -> usize {
        self.hosts.len()
    }
    fn phases(&self) -> usize {
        self.phases.len()
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        out.copy_from_slice(&self.phases[p]);
    }
    fn peer(&self, p: usize, r: usize) -> u32 {
        self.phases[p][r]
    }
}

/// Why a phase is not a partial permutation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PhaseError {
    /// The phase lists a different number of ranks than the schedule has.
    Length {
        /// 0-based phase index.
        phase: usize,
        /// Entries the phase has.
        len: usize,
        /// Ranks the schedule has.
        ranks: usize,
    },
    /// A rank sends to a rank that does not exist.
    OutOfRange {
        /// 0-based phase index.
        phase: usize,
        /// The sending rank.
        rank: u32,
        /// The destination as written (wide enough for any number a file may hold).
        dest: u64,
        /// Ranks the schedule has; valid destinations are 0..ranks.
        ranks: usize,
    },
    /// Two ranks send to the same rank.
    Collision {
        /// 0-based phase index.
        phase: usize,
        /// The rank that would receive twice.
        dest: u32,
        /// The rank that sent to `dest` first (the lower rank when a phase is checked whole).
        first: u32,
        /// The sender that collided with it.
        second: u32,
    },
}

impl fmt::Display for PhaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PhaseError::Length { phase, len, ranks } => {
                write!(f, "phase {phase} lists {len} ranks; the schedule has {ranks} hosts")
            }
            PhaseError::OutOfRange {
                phase,
                rank,
                dest,
                ranks,
            } => write!(
                f,
                "phase {phase}: rank {rank} sends to rank {dest}, which does not exist (ranks are 0..={})",
                ranks.saturating_sub(1)
            ),
            PhaseError::Collision {
                phase,
                dest,
                first,
                second,
            } => write!(
                f,
                "phase {phase}: ranks {first} and {second} both send to rank {dest}; a phase must be a \
                 partial permutation (every rank receives at most once)"
            ),
        }
    }
}

impl From<PhaseError> for Error {
    fn from(e: PhaseError) -> Error {
        Error::input("phases", e.to_string(), None)
    }
}

/// Checks phases for being partial permutations without clearing a table per phase.
#[derive(Clone, Debug)]
pub(crate) struct PermutationCheck {
    /// Sender of each destination, valid when `stamp[dest] == generation`.
    sender: Vec<u32>,
    stamp: Vec<u32>,
    generation: u32,
}

impl PermutationCheck {
    /// A checker for phases over `ranks` ranks.
    pub(crate) fn new(ranks: usize) -> PermutationCheck {
        PermutationCheck {
            sender: vec![0; ranks],
            stamp: vec![0; ranks],
            generation: 0,
        }
    }

    /// Start a new phase.
    pub(crate) fn begin(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }

    /// Record that `rank` sends to `dest` in `phase` (IDLE is fine).
    #[inline]
    pub(crate) fn send(&mut self, phase: usize, rank: u32, dest: u64) -> Result<(), PhaseError> {
        if dest == IDLE as u64 {
            return Ok(());
        }
        let ranks = self.sender.len();
        if dest >= ranks as u64 {
            return Err(PhaseError::OutOfRange {
                phase,
                rank,
                dest,
                ranks,
            });
        }
        let d = dest as usize;
        if self.stamp[d] == self.generation {
            return Err(PhaseError::Collision {
                phase,
                dest: dest as u32,
                first: self.sender[d],
                second: rank,
            });
        }
        self.stamp[d] = self.generation;
        self.sender[d] = rank;
        Ok(())
    }

    /// Check a whole phase.
    pub(crate) fn check(&mut self, phase: usize, out: &[u32]) -> Result<(), PhaseError> {
        if out.len() != self.sender.len() {
            return Err(PhaseError::Length {
                phase,
                len: out.len(),
                ranks: self.sender.len(),
            });
        }
        self.begin();
        for (r, &d) in out.iter().enumerate() {
            self.send(phase, r as u32, d as u64)?;
        }
        Ok(())
    }
}

/// Flow counts of a pattern (or of the part of it written so far).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Phases counted.
    pub phases: usize,
    /// Ranks of the pattern (every phase lists all of them).
    pub ranks: usize,
    /// Rank-to-rank transfers, self transfers included.
    pub flows: u64,
    /// Ranks sending to themselves (local copies; no link is used).
    pub self_flows: u64,
    /// (rank, phase) slots where the rank is idle.
    pub idle: u64,
}

impl Counts {
    /// Fraction of (rank, phase) slots that are idle.
    pub fn idle_fraction(&self) -> f64 {
        let slots = self.phases as u64 * self.ranks as u64;
        if slots == 0 {
            0.0
        } else {
            self.idle as f64 / slots as f64
        }
    }

    /// Count one phase.
    pub(crate) fn add_phase(&mut self, out: &[u32]) {
        self.phases += 1;
        for (r, &d) in out.iter().enumerate() {
            if d == IDLE {
                self.idle += 1;
            } else {
                self.flows += 1;
                self.self_flows += (d as usize == r) as u64;
            }
        }
    }
}

/// Check every phase of a pattern (in parallel) and count its flows.
pub fn verify(pattern: &dyn Pattern) -> Result<Counts> {
    let n = pattern.ranks();
    let per_phase: Vec<std::result::Result<Counts, PhaseError>> = (0..pattern.phases())
        .into_par_iter()
        .map_init(
            || (vec![IDLE; n], PermutationCheck::new(n)),
            |(buf, check), p| {
                pattern.phase(p, buf);
                check.check(p, buf)?;
                let mut c = Counts::default();
                c.add_phase(buf);
                Ok(c)
            },
        )
        .collect();
    let mut total = Counts {
        ranks: n,
        ..Counts::default()
    };
    for c in per_phase {
        let c = c?;
        total.phases += c.phases;
        total.flows += c.flows;
        total.self_flows += c.self_flows;
        total.idle += c.idle;
    }
    Ok(total)
}

/// A pattern without its phases in which every rank is idle.
///
/// Restricting a conflict-free schedule to part of its hosts keeps it conflict-free but
/// can leave whole phases empty; dropping them changes no link load and shortens the run.
#[derive(Clone, Debug)]
pub(crate) struct Compact<P> {
    inner: P,
    keep: Vec<u32>,
}

impl<P: Pattern> Compact<P> {
    /// Scan every phase of `inner` once (in parallel) and keep the non-empty ones.
    pub(crate) fn new(inner: P) -> Compact<P> {
        let n = inner.ranks();
        let keep = (0..inner.phases())
            .into_par_iter()
            .map_init(
                || vec![IDLE; n],
                |buf, p| {
                    inner.phase(p, buf);
                    buf.iter().any(|&d| d != IDLE).then_some(p as u32)
                },
            )
            .flatten()
            .collect();
        Compact { inner, keep }
    }

    #[cfg(test)]
    /// Phase of the inner pattern that phase `p` is.
    pub(crate) fn inner_phase(&self, p: usize) -> usize {
        self.keep[p] as usize
    }
}

impl<P: Pattern> Pattern for Compact<P> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn ranks(&self) -> usize {
        self.inner.ranks()
    }
    fn phases(&self) -> usize {
        self.keep.len()
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        self.inner.phase(self.keep[p] as usize, out)
    }
    fn peer(&self, p: usize, r: usize) -> u32 {
        self.inner.peer(self.keep[p] as usize, r)
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Exhaustive properties of patterns, shared by the generator tests.
    use super::*;

    /// An LSFT plan of order `q` (one- or two-sided, `m` hosts per leaf or the full q+1).
    pub(crate) fn lsft_plan(q: u32, two_sided: bool, m: Option<u32>) -> crate::topology::Topology {
        use crate::families::lsft::model::LsftParams;
        use crate::topology::{FamilySpec, Spec};
        Spec::new(FamilySpec::Lsft(LsftParams {
            order: q,
            two_sided,
            hosts_per_leaf: m,
        }))
        .build()
        .unwrap()
    }

    /// Every phase is a partial permutation; returns the counts.
    pub(crate) fn partial_permutations(p: &dyn Pattern) -> Counts {
        verify(p).unwrap_or_else(|e| panic!("{}: {e}", p.name()))
    }

    /// How often each ordered pair (src, dst) occurs over all phases, as a flat N×N table.
    pub(crate) fn pair_counts(p: &dyn Pattern) -> Vec<u8> {
        let n = p.ranks();
        let mut seen = vec![0u8; n * n];
        let mut buf = vec![IDLE; n];
        for ph in 0..p.phases() {
            p.phase(ph, &mut buf);
            for (r, &d) in buf.iter().enumerate() {
                if d != IDLE {
                    let c = &mut seen[r * n + d as usize];
                    *c = c.saturating_add(1);
                }
            }
        }
        seen
    }

    /// Every ordered pair of distinct ranks exactly once, and every rank to itself at
    /// most once (`self_once`: exactly once).
    pub(crate) fn assert_complete(p: &dyn Pattern, self_once: bool) {
        partial_permutations(p);
        let n = p.ranks();
        let seen = pair_counts(p);
        for r in 0..n {
            for s in 0..n {
                let c = seen[r * n + s];
                if r == s {
                    assert!(
                        if self_once { c == 1 } else { c <= 1 },
                        "{}: rank {r} to itself {c} times",
                        p.name()
                    );
                } else {
                    assert_eq!(c, 1, "{}: pair {r} -> {s} occurs {c} times", p.name());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-made pattern: phase 0 a rotation, phase 1 all idle, phase 2 one flow.
    struct Toy;
    impl Pattern for Toy {
        fn name(&self) -> String {
            "toy".into()
        }
        fn ranks(&self) -> usize {
            3
        }
        fn phases(&self) -> usize {
            3
        }
        fn phase(&self, p: usize, out: &mut [u32]) {
            let v: [u32; 3] = match p {
                0 => [1, 2, 0],
                1 => [IDLE; 3],
                _ => [IDLE, IDLE, 2],
            };
            out.copy_from_slice(&v);
        }
    }

    #[test]
    fn permutation_check_names_phase_and_ranks() {
        let mut c = PermutationCheck::new(4);
        assert!(c.check(0, &[1, 2, 3, 0]).is_ok());
        assert!(c.check(1, &[IDLE, 0, IDLE, 1]).is_ok(), "state is reset per phase");
        let e = c.check(7, &[1, IDLE, 1, 0]).unwrap_err();
        assert_eq!(
            e,
            PhaseError::Collision {
                phase: 7,
                dest: 1,
                first: 0,
                second: 2
            }
        );
        assert!(e.to_string().contains("ranks 0 and 2 both send to rank 1"), "{e}");
        let e = c.check(3, &[4, 0, 1, 2]).unwrap_err().to_string();
        assert!(
            e.contains("phase 3: rank 0 sends to rank 4") && e.contains("0..=3"),
            "{e}"
        );
        let e = c.check(2, &[0, 1]).unwrap_err().to_string();
        assert!(e.contains("phase 2 lists 2 ranks; the schedule has 4"), "{e}");
    }

    #[test]
    fn compact_drops_only_empty_phases() {
        let c = Compact::new(Toy);
        assert_eq!(c.phases(), 2);
        assert_eq!(c.inner_phase(1), 2);
        let counts = verify(&c).unwrap();
        assert_eq!((counts.flows, counts.self_flows, counts.idle), (4, 1, 2));
        let s = Schedule::from_pattern(&c, vec![10, 11, 12]);
        assert_eq!(s.phases, vec![vec![1, 2, 0], vec![IDLE, IDLE, 2]]);
        assert_eq!(verify(&s).unwrap(), counts);
    }
}
