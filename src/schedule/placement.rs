//! Where a job sits on an LSFT block (docs/schedules.md §2.4): the pure geometry of placements.
//!
//! [`fixed_block`] places a job on the block the user names (`--block K --per-leaf M`):
//! columns 0..K−1 of side 0, host slots 0..M−1. Choosing a block for a job of D hosts
//! (`--job-size D`) compares candidates by measuring them on routing tables, which is
//! the checker's business: that chooser lives above both, in the `select` module.

use super::partial::{BlockPos, BlockShape};
use super::{Job, IDLE};
use crate::error::{Error, Result};
use crate::geometry::Point;
use crate::topology::{Layout, LsftLayout, Topology};

/// Ranks of a job placed in a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Placement {
    /// Side of the LSFT whose grid leaves form the block.
    pub side: u32,
    /// The block: all q rows of the grid, its columns, and hosts per leaf.
    pub shape: BlockShape,
    /// The placed hosts as a job (rank order of the schedule).
    pub job: Job,
    /// Block position of every rank of `job`.
    pub positions: Vec<BlockPos>,
}

impl Placement {
    /// Phases of the block schedule, q·k·m.
    pub(crate) fn phases(&self) -> usize {
        self.shape.size()
    }
    /// Fraction of (rank, phase) slots that are idle: 1 − D / (q·k·m).
    pub(crate) fn idle_fraction(&self) -> f64 {
        1.0 - self.job.len() as f64 / self.phases() as f64
    }
}

/// Leaf index (side·npts + point) of a block leaf.
pub(crate) fn grid_leaf(layout: &LsftLayout, side: u32, x: u32, y: u32) -> u32 {
    side * layout.npts() + layout.plane.point_index(Point::Grid(x, y))
}

/// (leaf, slot) of every fabric rank.
pub(crate) fn fabric_slots(layout: &LsftLayout) -> Vec<(u32, u32)> {
    let d = layout.degree();
    let mut v = vec![(u32::MAX, 0); layout.hosts.len()];
    for (i, &r) in layout.slot_rank.iter().enumerate() {
        if r != IDLE {
            v[r as usize] = (i as u32 / d, i as u32 % d);
        }
    }
    v
}

/// The LSFT layout of `plan`, or an input error naming `what` needs one.
pub(crate) fn lsft_layout<'a>(plan: &'a Topology, what: &str) -> Result<&'a LsftLayout> {
    match &plan.layout {
        Layout::Lsft(l) => Ok(l),
        other => Err(Error::input(
            "pattern",
            format!(
                "{what} places jobs on a Latin-square fat-tree; this topology is {}",
                other.describe()
            ),
            Some("use shift, kary-shift or mols-shift on trees".into()),
        )),
    }
}

/// The block of columns 0..k−1 of side 0 with host slots 0..m−1 (host index = slot).
/// Without `job` every slot of the block must hold a host and the ranks are the block
/// in (column, row, slot) order; with `job` the job's hosts must lie in the block (its
/// other positions are idle) and keep their job order.
pub(crate) fn fixed_block(plan: &Topology, job: Option<&Job>, k: u32, m: u32) -> Result<Placement> {
    let layout = lsft_layout(plan, "--block")?;
    let q = layout.q;
    // the columns are listed: a k beyond q is refused before anything is allocated for it
    if k == 0 || k > q {
        return Err(Error::input(
            "block",
            format!("a block has 1..=q = 1..={q} columns, not {k}"),
            None,
        ));
    }
    let shape = BlockShape::first_columns(q, k, m);
    shape.validate()?;
    let d = layout.degree();
    let (job, positions) = match job {
        None => {
            let mut ranks = Vec::with_capacity(shape.size());
            for pos in shape.positions() {
                let leaf = grid_leaf(layout, 0, pos.column, pos.row);
                let r = layout.slot_rank[(leaf * d + pos.index) as usize];
                if r == IDLE {
                    return Err(Error::input(
                        "block",
                        format!(
                            "leaf {} has no host in slot {} (the fabric has {} hosts per leaf)",
                            plan.fabric.node(layout.leaves[leaf as usize]).name,
                            pos.index,
                            layout.hosts_per_leaf
                        ),
                        Some("use --job-size to place the job on the hosts that exist".into()),
                    ));
                }
                ranks.push(r);
            }
            (
                Job::from_fabric_ranks(plan.layout.hosts(), ranks)?,
                shape.positions().collect(),
            )
        }
        Some(job) => {
            let slots = fabric_slots(layout);
            let mut positions = Vec::with_capacity(job.len());
            for (jr, &fr) in job.fabric_ranks().iter().enumerate() {
                let (leaf, slot) = slots[fr as usize];
                let (side, point) = (leaf / layout.npts(), leaf % layout.npts());
                let inside = match layout.plane.point(point) {
                    Point::Grid(x, y) if side == 0 && x < k && slot < m => Some(BlockPos {
                        column: x,
                        row: y,
                        index: slot,
                    }),
                    _ => None,
                };
                let Some(pos) = inside else {
                    let e = job.hosts()[jr];
                    return Err(Error::input(
                        "job",
                        format!(
                            "job rank {jr} ({} slot {slot} on leaf {}) is outside the block of columns 0..{k}, \
                             host slots 0..{m} of side 0",
                            plan.fabric.node(e.node).name,
                            plan.fabric.node(layout.leaves[leaf as usize]).name
                        ),
                        Some("use --job-size to let ibfat place the job".into()),
                    ));
                };
                positions.push(pos);
            }
            (job.clone(), positions)
        }
    };
    Ok(Placement {
        side: 0,
        shape,
        job,
        positions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::{FamilySpec, Spec};

    use crate::schedule::testutil::lsft_plan as plan;

    #[test]
    fn fixed_block_checks_hosts() {
        let p = plan(5, false, Some(2));
        let b = fixed_block(&p, None, 3, 2).unwrap();
        assert_eq!(b.job.len(), 30);
        let e = fixed_block(&p, None, 3, 3).unwrap_err().to_string();
        assert!(e.contains("has no host in slot 2") && e.contains("--job-size"), "{e}");
        let inside = Job::from_fabric_ranks(p.layout.hosts(), b.job.fabric_ranks()[..5].to_vec()).unwrap();
        assert_eq!(fixed_block(&p, Some(&inside), 3, 2).unwrap().positions.len(), 5);
        let outside = Job::from_fabric_ranks(p.layout.hosts(), vec![0]).unwrap(); // host of point P
        let e = fixed_block(&p, Some(&outside), 3, 2).unwrap_err().to_string();
        assert!(e.contains("job rank 0") && e.contains("outside the block"), "{e}");
        let tree = Spec::new(FamilySpec::Kary(crate::families::kary::model::KaryParams {
            arity: 2,
            levels: 2,
        }))
        .build()
        .unwrap();
        assert!(fixed_block(&tree, None, 1, 1)
            .unwrap_err()
            .to_string()
            .contains("Latin-square"));
    }
}
