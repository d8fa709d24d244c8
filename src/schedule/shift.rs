//! Shift all-to-all: in phase i rank r sends to rank (r + i) mod N (phase 0 is every
//! rank's local copy), N phases, every ordered pair exactly once.
//!
//! [`Shift`] shifts in job-rank order. [`TreeShift`] (`kary-shift`, `mols-shift`) shifts
//! in *tree order*, the order d-mod-k routing is built for (docs/routing.md §3, §4): job ranks
//! are sorted by their tree position d (host d on leaf/bottom d / k, slot d mod k) and the
//! shift runs over that sorted list, whatever order the job lists its hosts in. For the
//! planned fabrics the topology's rank order *is* tree order (tested below), so on the
//! whole fabric `kary-shift` = `mols-shift` = `shift`.
//!
//! What is guaranteed (d-mod-k: up port ⌊d / k^(l−1)⌋ mod k at level l; on the MOLS tree
//! plane d mod n from a bottom, top ⌊d/n⌋ mod n from a middle). With d-mod-k every
//! downward link carries traffic for one destination only, so a partial permutation can
//! only collide on upward links, and the up link a flow takes from level l depends on
//! its source's level-l subtree and d mod k^l (on the MOLS tree: the bottom and d mod n,
//! then the middle and ⌊d/n⌋ mod n). Let the job's hosts, in tree order, be at positions
//! p(0) < … < p(D−1), and let B = k^(L−1) where L is the lowest level whose single
//! subtree holds the whole job (B = n² on the MOLS tree unless the job sits on one bottom
//! switch, B = 1 then). **If B divides D and p(r) ≡ r (mod B) for every r, the tree-order
//! shift is conflict-free**: destinations of sources that share an up link differ mod B.
//! This holds for the whole fabric, for any set of whole pods (level-(n−1) subtrees) and
//! for any job on one leaf. Other jobs get the tree-order shift without that guarantee
//! (wrap-around at D breaks it in general); the checker measures them.

use super::{Job, Pattern};
use crate::error::{Error, Result};
use crate::topology::{KaryLayout, Layout, MolsLayout, PgftLayout};

/// Phase i: r → (r + i) mod N.
#[derive(Clone, Debug)]
pub struct Shift {
    n: usize,
}

impl Shift {
    /// Shift over `ranks` ranks in job-rank order: N phases, phase 0 the local copies.
    pub fn new(ranks: usize) -> Shift {
        Shift { n: ranks }
    }
}

impl Pattern for Shift {
    fn name(&self) -> String {
        "shift".into()
    }
    fn ranks(&self) -> usize {
        self.n
    }
    fn phases(&self) -> usize {
        self.n
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        let n = self.n;
        for (r, o) in out.iter_mut().enumerate() {
            let d = r + p;
            *o = (if d >= n { d - n } else { d }) as u32;
        }
    }
    fn peer(&self, p: usize, r: usize) -> u32 {
        ((r + p) % self.n) as u32
    }
}

/// Shift in tree order over a job: `order[t]` is the job rank at tree index t.
#[derive(Clone, Debug)]
pub struct TreeShift {
    name: &'static str,
    order: Vec<u32>,
    /// Tree position of each tree index (sorted ascending).
    positions: Vec<u32>,
    /// The guarantee's modulus B (see the module documentation).
    modulus: u64,
    /// Tree index of each job rank (the inverse of `order`), for O(1) peers.
    index_of: Vec<u32>,
}

fn inverse(order: &[u32]) -> Vec<u32> {
    let mut v = vec![0; order.len()];
    for (t, &r) in order.iter().enumerate() {
        v[r as usize] = t as u32;
    }
    v
}

impl TreeShift {
    /// `kary-shift` on a k-ary n-tree.
    pub(crate) fn kary(layout: &KaryLayout, job: &Job) -> TreeShift {
        let (order, positions) = tree_order(&layout.host_pos, job);
        let k = layout.k as u64;
        // L: lowest level whose subtree (k^L hosts) holds the whole job
        let (first, last) = (positions[0] as u64, *positions.last().expect("non-empty job") as u64);
        let mut level = 0;
        while first / k.pow(level) != last / k.pow(level) {
            level += 1;
        }
        let modulus = if level <= 1 { 1 } else { k.pow(level - 1) };
        TreeShift {
            name: "kary-shift",
            index_of: inverse(&order),
            order,
            positions,
            modulus,
        }
    }

    /// `mols-shift` on the MOLS proximity 3-level tree.
    pub(crate) fn mols(layout: &MolsLayout, job: &Job) -> TreeShift {
        let (order, positions) = tree_order(&layout.host_pos, job);
        let n = layout.n as u64;
        let one_bottom = positions[0] as u64 / n == *positions.last().expect("non-empty job") as u64 / n;
        TreeShift {
            name: "mols-shift",
            index_of: inverse(&order),
            order,
            positions,
            modulus: if one_bottom { 1 } else { n * n },
        }
    }

    /// `kary-shift` on a PGFT: shift in tree order (the order d-mod-k is built for). No
    /// guarantee is claimed by construction (oversubscription and empty slots change
    /// it); the checker measures it, and on a full-bisection PGFT the whole fabric in tree
    /// order measures conflict-free (tests in `routing::pgft`).
    pub fn pgft(layout: &PgftLayout, job: &Job) -> TreeShift {
        let (order, positions) = tree_order(&layout.host_pos, job);
        TreeShift {
            name: "kary-shift",
            index_of: inverse(&order),
            order,
            positions,
            modulus: u64::MAX,
        }
    }

    /// Build the tree-order shift the layout's family calls for (`kary-shift` on a k-ary
    /// tree, `mols-shift` on a MOLS tree); `wanted` names the pattern the user asked for.
    pub(crate) fn for_layout(layout: &Layout, job: &Job, wanted: &str) -> Result<TreeShift> {
        match (layout, wanted) {
            (Layout::Kary(l), "kary-shift") => Ok(TreeShift::kary(l, job)),
            (Layout::Pgft(l), "kary-shift") => Ok(TreeShift::pgft(l, job)),
            (Layout::Mols(l), "mols-shift") => Ok(TreeShift::mols(l, job)),
            _ => Err(Error::input(
                "pattern",
                format!(
                    "{wanted} shifts in the tree order of a {} fabric; this topology is {}",
                    if wanted == "kary-shift" {
                        "k-ary n-tree"
                    } else {
                        "MOLS 3-level"
                    },
                    layout.describe()
                ),
                Some(match layout.ops().native_pattern() {
                    tree @ ("kary-shift" | "mols-shift") => format!("use {tree}"),
                    "lsft" => "on an LSFT use lsft (conflict-free) or shift".into(),
                    _ => format!(
                        "on a {} use shift (its rank order is the routes' order)",
                        layout.family().long_name()
                    ),
                }),
            )),
        }
    }

    /// True when the guarantee of the module documentation holds for this job.
    pub(crate) fn conflict_free_by_construction(&self) -> bool {
        let b = self.modulus;
        self.positions.len() as u64 % b == 0
            && self
                .positions
                .iter()
                .enumerate()
                .all(|(r, &p)| p as u64 % b == r as u64 % b)
    }

    /// The modulus B of the guarantee.
    pub(crate) fn modulus(&self) -> u64 {
        self.modulus
    }
}

/// Job ranks sorted by tree position, and the sorted positions.
fn tree_order(host_pos: &[u32], job: &Job) -> (Vec<u32>, Vec<u32>) {
    let mut v: Vec<(u32, u32)> = job
        .fabric_ranks()
        .iter()
        .enumerate()
        .map(|(i, &r)| (host_pos[r as usize], i as u32))
        .collect();
    v.sort_unstable();
    (v.iter().map(|x| x.1).collect(), v.iter().map(|x| x.0).collect())
}

impl Pattern for TreeShift {
    fn name(&self) -> String {
        self.name.into()
    }
    fn ranks(&self) -> usize {
        self.order.len()
    }
    fn phases(&self) -> usize {
        self.order.len()
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        let n = self.order.len();
        for (t, &src) in self.order.iter().enumerate() {
            let d = t + p;
            out[src as usize] = self.order[if d >= n { d - n } else { d }];
        }
    }
    fn peer(&self, p: usize, r: usize) -> u32 {
        let n = self.order.len();
        self.order[(self.index_of[r] as usize + p) % n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kary::model::KaryParams;
    use crate::families::mols::model::{MolsParams, WiringChoice};
    use crate::schedule::testutil::assert_complete;
    use crate::schedule::Schedule;
    use crate::topology::{FamilySpec, Spec};

    #[test]
    fn shift_is_complete() {
        for n in [1, 2, 3, 7, 64] {
            assert_complete(&Shift::new(n), true);
        }
    }

    fn kary(k: u32, n: u32) -> crate::topology::Topology {
        Spec::new(FamilySpec::Kary(KaryParams { arity: k, levels: n }))
            .build()
            .unwrap()
    }

    #[test]
    fn planned_rank_order_is_tree_order() {
        for plan in [
            kary(3, 3),
            kary(2, 4),
            Spec::new(FamilySpec::Mols(MolsParams {
                arity: 4,
                wiring: WiringChoice::Mols,
            }))
            .build()
            .unwrap(),
        ] {
            let pos = match &plan.layout {
                Layout::Kary(l) => l.host_pos.clone(),
                Layout::Mols(l) => l.host_pos.clone(),
                _ => unreachable!("built as a k-ary or MOLS tree"),
            };
            assert!(pos.iter().enumerate().all(|(r, &p)| p as usize == r));
            let job = Job::whole(plan.layout.hosts());
            let wanted = if matches!(plan.layout, Layout::Kary(_)) {
                "kary-shift"
            } else {
                "mols-shift"
            };
            let t = TreeShift::for_layout(&plan.layout, &job, wanted).unwrap();
            assert!(t.conflict_free_by_construction());
            let n = job.len();
            let g = vec![0; n];
            assert_eq!(
                Schedule::from_pattern(&t, g.clone()),
                Schedule::from_pattern(&Shift::new(n), g),
                "on the whole fabric the tree-order shift is the shift"
            );
        }
    }

    #[test]
    fn tree_shift_sorts_a_shuffled_job() {
        let plan = kary(2, 3);
        // the job lists hosts 6, 1, 4, 3 in this order; tree order is 1, 3, 4, 6
        let job = Job::from_fabric_ranks(plan.layout.hosts(), vec![6, 1, 4, 3]).unwrap();
        let t = TreeShift::for_layout(&plan.layout, &job, "kary-shift").unwrap();
        assert_complete(&t, true);
        let mut out = vec![0; 4];
        t.phase(1, &mut out);
        // job rank 1 (host 1) -> host 3 = job rank 3; host 3 -> host 4 (job rank 2); ...
        assert_eq!(out, vec![1, 3, 0, 2]);
        assert!(
            !t.conflict_free_by_construction(),
            "4 hosts over two pods, positions 1,3,4,6"
        );
    }

    #[test]
    fn guarantee_follows_the_residues() {
        let plan = kary(2, 3); // 8 hosts, pods of 4
        let t = |ranks: Vec<u32>| {
            TreeShift::for_layout(
                &plan.layout,
                &Job::from_fabric_ranks(plan.layout.hosts(), ranks).unwrap(),
                "kary-shift",
            )
            .unwrap()
        };
        assert!(t(vec![0, 1]).conflict_free_by_construction(), "one leaf");
        assert_eq!(t(vec![0, 1]).modulus(), 1);
        assert!(t(vec![4, 5, 6, 7]).conflict_free_by_construction(), "one pod: B = 2");
        assert!(
            t(vec![0, 1, 6, 7]).conflict_free_by_construction(),
            "residues mod 4 match"
        );
        assert!(
            !t(vec![0, 1, 2]).conflict_free_by_construction(),
            "3 hosts in a pod of 4"
        );
        assert!(!t(vec![0, 1, 2, 3, 4]).conflict_free_by_construction());
        let e = TreeShift::for_layout(&plan.layout, &Job::whole(plan.layout.hosts()), "mols-shift")
            .unwrap_err()
            .to_string();
        assert!(e.contains("use kary-shift"), "{e}");
    }
}
