//! Choosing the all-to-all algorithm for a job's placement by measuring candidates on
//! the routing tables.
//!
//! This layer sits above both [`crate::schedule`] (which constructs patterns and knows
//! nothing of routing) and [`crate::check`] (which measures any pattern on LFTs): a
//! choice is made by constructing the candidates and measuring them: the `--job-size`
//! placement [`chooser`] of `lsft-partial`, the performance [`model`] that predicts every
//! all-to-all algorithm's time on a placement (seed 001, `ibfat predict`), and the
//! [`runtime`] selector that learns among the predicted shortlist while a job runs.
//!
//! [`generate`] is the entry point for turning a [`Request`] into a pattern: it runs the
//! chooser where a request needs one and hands every other request to
//! [`crate::schedule::generate::generate()`].

pub mod bcast;
pub(crate) mod chooser;
pub mod model;
pub mod repair;
pub mod runtime;

pub(crate) use chooser::{choose, Choice};
pub use chooser::{Candidate, ChoiceReport};

use crate::error::Result;
use crate::schedule::generate::{self as construct, Generated, PatternKind, Request, LSFT_GUARANTEE};
use crate::schedule::shift::Shift;
use crate::schedule::Job;
use crate::topology::{Layout, Topology};

/// Generate the requested pattern on a plan, with the chooser's comparison when the
/// placement was chosen by measuring (`lsft-partial` without `--block`).
pub fn generate(plan: &Topology, req: &Request) -> Result<(Generated, Option<ChoiceReport>)> {
    if req.kind != PatternKind::LsftPartial || req.block.is_some() {
        return Ok((construct::generate(plan, req)?, None));
    }
    construct::validate(req)?;
    let job = req.job.clone().unwrap_or_else(|| Job::whole(plan.layout.hosts()));
    let d = req.job_size.unwrap_or(job.len());
    let (choice, report) = choose(plan, &job, d)?;
    let q = match &plan.layout {
        Layout::Lsft(l) => l.q,
        _ => unreachable!("choose() checks the family"),
    };
    let g = match choice {
        Choice::Block(p) => Generated::of_block(&p)?,
        Choice::Full(sub, pattern) => {
            let mut g = Generated::new(Box::new(pattern), sub, true);
            g.conflict_free = Some(LSFT_GUARANTEE.into());
            g.notes.push(format!(
                "no {q}x k block holds {d} hosts of the pool: using the whole-fabric lsft schedule restricted to them"
            ));
            g
        }
        Choice::Side(side, sub, pattern) => {
            let mut g = Generated::new(Box::new(pattern), sub, true);
            g.conflict_free = Some(LSFT_GUARANTEE.into());
            g.notes.push(format!(
                "no {q}x k block holds {d} hosts of the pool: using the one-sided lsft schedule of side {side} \
                 (its hosts only, half the phases of the two-sided schedule)"
            ));
            g
        }
        Choice::Shift(sub) => {
            let ratio = report.candidates[report.chosen].ratio.unwrap_or(0.0);
            let mut g = Generated::new(Box::new(Shift::new(sub.len())), sub, true);
            g.notes.push(format!(
                "shift measures throughput ratio {ratio:.4} on ibfat's own tables, which beats the conflict-free \
                 placements by phases / ratio"
            ));
            g
        }
    };
    Ok((g.note_if_empty(req.kind), Some(report)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::testutil::assert_complete;
    use crate::schedule::verify;

    use crate::schedule::testutil::lsft_plan as lsft;

    #[test]
    fn every_pattern_generates_on_an_lsft() {
        let plan = lsft(3, false, None);
        for kind in PatternKind::ALL {
            let mut req = Request::new(kind);
            if kind == PatternKind::LsftPartial {
                req.job_size = Some(12);
            }
            match generate(&plan, &req) {
                Ok((g, _)) => {
                    let c = verify(g.pattern.as_ref()).unwrap();
                    assert_eq!(c.ranks, g.job.len());
                    if g.complete {
                        assert_complete(g.pattern.as_ref(), true);
                    }
                    assert_eq!(
                        g.conflict_free.is_some(),
                        matches!(kind, PatternKind::Lsft | PatternKind::LsftPartial),
                        "{kind}"
                    );
                }
                Err(e) => assert!(
                    matches!(
                        kind,
                        PatternKind::KaryShift
                            | PatternKind::MolsShift
                            | PatternKind::RailAlltoall
                            | PatternKind::RailRing
                    ),
                    "{kind}: {e}"
                ),
            }
        }
    }

    #[test]
    fn partial_with_block_job_size_or_job() {
        let plan = lsft(4, false, None);
        let mut req = Request::new(PatternKind::LsftPartial);
        req.block = Some((3, 2));
        let (g, _) = generate(&plan, &req).unwrap();
        assert_eq!((g.pattern.ranks(), g.pattern.phases()), (24, 24));
        assert_complete(g.pattern.as_ref(), true);
        req.block = None;
        req.job_size = Some(23);
        let (g, choice) = generate(&plan, &req).unwrap();
        let report = choice.as_ref().unwrap();
        assert!(!report.exact);
        assert_eq!(g.pattern.ranks(), 23);
        assert_complete(g.pattern.as_ref(), true);
        // a job given as a pool, its size the job size
        let mut req = Request::new(PatternKind::LsftPartial);
        req.job = Some(Job::from_fabric_ranks(plan.layout.hosts(), (30..70).collect()).unwrap());
        let (g, _) = generate(&plan, &req).unwrap();
        assert_eq!(g.pattern.ranks(), 40);
        assert_complete(g.pattern.as_ref(), true);
    }

    #[test]
    fn construction_alone_refuses_a_placement_by_size() {
        let plan = lsft(3, false, None);
        let mut req = Request::new(PatternKind::LsftPartial);
        req.job_size = Some(12);
        let e = construct::generate(&plan, &req).unwrap_err().to_string();
        assert!(e.contains("select::generate"), "{e}");
    }
}
