//! The conflict-free all-to-all for a job on a q×k block of an LSFT (docs/schedules.md §2.4).
//!
//! The block is k grid columns (field elements, by default 0..k−1) times all q rows of
//! the grid leaves P(x, y) of one side, with m ≤ k hosts on each leaf: D = q·k·m ranks,
//! q·k groups of m phases, D phases in all. A host is addressed by its [`BlockPos`]:
//! column index i (the i-th block column), row y (a field element) and host index j < m.
//!
//! Vectors move a leaf: the zero vector stays; slope ∞ with hop h ∈ 1..q−1 adds the field
//! element h to y; slope s with hop h ∈ 1..k−1 moves to column index i' = (i + h) mod k
//! and row y' = y ⊕ s ⊗ (x' ⊖ x), where x, x' are the two columns' field elements and ⊕,
//! ⊗, ⊖ are GF(q) operations — so the target lies on the line of slope s through the
//! source, and the k block leaves of that line are permuted. (The paper's shortcut, docs/schedules.md §2.4, uses
//! y + s·h instead, which leaves the line when the hop wraps and conflicts e.g. for
//! (q,k,m) = (5,3,3): see the tests.)
//!
//! Vector table (q·k rows, m columns): column 0 lists the q−1 slope-∞ vectors (h
//! ascending), then for s = 0..q−1 the k−1 slope-s vectors (h ascending), then zero.
//! Column j is column j−1 rotated down by q−1 rows. In group g, host j of every block leaf
//! moves along entry (g, j); in phase i of the group it sends to host (i + j) mod m of
//! the target leaf. Rows of one table line have pairwise different slopes, so the m
//! flows of a leaf climb to m different spines, each spine permutes the block leaves on
//! its line, and each leaf receives one flow per spine and per host index.
//!
//! Positions without a rank in the job are idle (a restriction of a conflict-free
//! schedule is conflict-free).

use super::{Pattern, IDLE};
use crate::error::{Error, Result};
use crate::geometry::Field;

/// A vector between grid leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Vector {
    /// `[*]`: stay on the leaf.
    Zero,
    /// Slope ∞: row y ⊕ h, same column.
    Vertical {
        /// Hop: the nonzero field element added to the row, 1..=q−1.
        h: u32,
    },
    /// Slope s: column index + h (mod k), along the line of slope s.
    Slope {
        /// Slope: a field element 0..q.
        s: u32,
        /// Hop in block columns, 1..=k−1.
        h: u32,
    },
}

/// Column 0 of the vector table (q·k rows).
pub(crate) fn column0(q: u32, k: u32) -> Vec<Vector> {
    let mut v = Vec::with_capacity((q * k) as usize);
    v.extend((1..q).map(|h| Vector::Vertical { h }));
    for s in 0..q {
        v.extend((1..k).map(|h| Vector::Slope { s, h }));
    }
    v.push(Vector::Zero);
    v
}

/// Where a rank sits in the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct BlockPos {
    /// Index into the block's columns, 0..k.
    pub column: u32,
    /// Row: a field element 0..q.
    pub row: u32,
    /// Host index on the leaf, 0..m.
    pub index: u32,
}

/// The block geometry: order, chosen columns and hosts per leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BlockShape {
    /// Order q of the LSFT's plane: the block has all q rows of the grid.
    pub q: u32,
    /// Field elements of the k block columns, distinct.
    pub columns: Vec<u32>,
    /// Hosts per leaf m, 1..=k.
    pub m: u32,
}

impl BlockShape {
    /// The block of columns 0..k−1.
    pub(crate) fn first_columns(q: u32, k: u32, m: u32) -> BlockShape {
        BlockShape {
            q,
            columns: (0..k).collect(),
            m,
        }
    }
    /// Number of block columns k.
    pub(crate) fn k(&self) -> u32 {
        self.columns.len() as u32
    }
    /// Positions (= phases) of the block, q·k·m.
    pub(crate) fn size(&self) -> usize {
        (self.q * self.k() * self.m) as usize
    }
    /// Check 1 ≤ m ≤ k ≤ q and distinct columns in 0..q.
    pub(crate) fn validate(&self) -> Result<()> {
        let (q, k, m) = (self.q, self.k(), self.m);
        if k == 0 || k > q {
            return Err(Error::input(
                "block",
                format!("a block has 1..=q = 1..={q} columns, not {k}"),
                None,
            ));
        }
        if m == 0 || m > k {
            return Err(Error::input(
                "per_leaf",
                format!("{m} hosts per leaf do not fit a {k}-column block: the construction needs 1 <= m <= k"),
                Some(format!("1..={k}")),
            ));
        }
        let mut seen = vec![false; q as usize];
        for &c in &self.columns {
            if c >= q || std::mem::replace(&mut seen[c as usize], true) {
                return Err(Error::input(
                    "block",
                    format!("columns {:?} are not distinct field elements of GF({q})", self.columns),
                    None,
                ));
            }
        }
        Ok(())
    }
    /// Flat index of a position.
    #[inline]
    pub(crate) fn index(&self, p: BlockPos) -> usize {
        ((p.column * self.q + p.row) * self.m + p.index) as usize
    }
    /// Every position, in flat-index order (column, row, host index).
    pub(crate) fn positions(&self) -> impl Iterator<Item = BlockPos> + '_ {
        (0..self.k()).flat_map(move |column| {
            (0..self.q).flat_map(move |row| (0..self.m).map(move |index| BlockPos { column, row, index }))
        })
    }
}

/// The block schedule (docs/schedules.md §2.4) over the ranks placed in a block.
#[derive(Clone, Debug)]
pub(crate) struct LsftPartial {
    field: Field,
    shape: BlockShape,
    col0: Vec<Vector>,
    /// `diff[i·k + i2]` = `columns[i2] ⊖ columns[i]`.
    diff: Vec<u32>,
    /// Rank at each flat position, or IDLE.
    at: Vec<u32>,
    /// Position of each rank.
    pos: Vec<BlockPos>,
}

impl LsftPartial {
    /// The schedule for ranks 0..positions.len() placed at `positions` (distinct).
    pub(crate) fn new(shape: BlockShape, positions: Vec<BlockPos>) -> Result<LsftPartial> {
        shape.validate()?;
        let field = Field::new(shape.q)?;
        let k = shape.k();
        let mut at = vec![IDLE; shape.size()];
        for (r, &p) in positions.iter().enumerate() {
            if p.column >= k || p.row >= shape.q || p.index >= shape.m {
                return Err(Error::input(
                    "placement",
                    format!("rank {r} is placed at {p:?}, outside the {}x{k} block", shape.q),
                    None,
                ));
            }
            let slot = &mut at[shape.index(p)];
            if *slot != IDLE {
                return Err(Error::input(
                    "placement",
                    format!("ranks {} and {r} are placed at the same position {p:?}", *slot),
                    None,
                ));
            }
            *slot = r as u32;
        }
        let mut diff = Vec::with_capacity((k * k) as usize);
        for &a in &shape.columns {
            for &b in &shape.columns {
                diff.push(field.sub(b, a));
            }
        }
        Ok(LsftPartial {
            col0: column0(shape.q, k),
            field,
            shape,
            diff,
            at,
            pos: positions,
        })
    }

    #[cfg(test)]
    /// The whole block, ranks in flat-index order (column, row, host index).
    pub(crate) fn full(shape: BlockShape) -> Result<LsftPartial> {
        let positions = shape.positions().collect();
        LsftPartial::new(shape, positions)
    }

    #[cfg(test)]
    /// The block this schedule runs on.
    pub(crate) fn shape(&self) -> &BlockShape {
        &self.shape
    }
    #[cfg(test)]
    /// Position of a rank.
    pub(crate) fn position(&self, rank: u32) -> BlockPos {
        self.pos[rank as usize]
    }

    /// Table entry of host index j in group g.
    pub(crate) fn vector(&self, g: u32, j: u32) -> Vector {
        let n = self.col0.len() as u32;
        let shift = (j * (self.shape.q - 1)) % n;
        self.col0[((g + n - shift) % n) as usize]
    }

    /// (column index, row) of the leaf that `v` leads to from (column, row).
    #[inline]
    pub(crate) fn target(&self, v: Vector, column: u32, row: u32) -> (u32, u32) {
        match v {
            Vector::Zero => (column, row),
            Vector::Vertical { h } => (column, self.field.add(row, h)),
            Vector::Slope { s, h } => {
                let k = self.shape.k();
                let mut c2 = column + h;
                if c2 >= k {
                    c2 -= k;
                }
                let dx = self.diff[(column * k + c2) as usize];
                (c2, self.field.add(row, self.field.mul(s, dx)))
            }
        }
    }
}

impl Pattern for LsftPartial {
    fn name(&self) -> String {
        "lsft-partial".into()
    }
    fn ranks(&self) -> usize {
        self.pos.len()
    }
    fn phases(&self) -> usize {
        self.shape.size()
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        let m = self.shape.m;
        let (g, i) = ((p / m as usize) as u32, (p % m as usize) as u32);
        let vectors: Vec<Vector> = (0..m).map(|j| self.vector(g, j)).collect();
        for (o, pos) in out.iter_mut().zip(&self.pos) {
            let (c2, y2) = self.target(vectors[pos.index as usize], pos.column, pos.row);
            let mut j2 = pos.index + i;
            if j2 >= m {
                j2 -= m;
            }
            *o = self.at[self.shape.index(BlockPos {
                column: c2,
                row: y2,
                index: j2,
            })];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{is_prime_power, Plane, Point};
    use crate::schedule::testutil::{assert_complete, partial_permutations};
    use crate::schedule::Schedule;

    /// Links of the canonical LSFT model restricted to grid leaves of one side:
    /// host→leaf, leaf→host per (point, host index), leaf→spine and spine→leaf per
    /// (point, line). Routed by the geometry: the line through two points, or a turn at
    /// the leaf for the same leaf. False when a phase puts two flows on one link.
    fn link_disjoint(plane: &Plane, pattern: &dyn Pattern, place: &dyn Fn(u32) -> (u32, u32)) -> bool {
        let n = plane.size() as usize;
        let m = 256;
        let mut load = vec![u32::MAX; 2 * n * m + 2 * n * n];
        let mut out = vec![IDLE; pattern.ranks()];
        for p in 0..pattern.phases() {
            pattern.phase(p, &mut out);
            for (r, &dst) in out.iter().enumerate() {
                if dst == IDLE || dst as usize == r {
                    continue;
                }
                let (pa, ja) = place(r as u32);
                let (pb, jb) = place(dst);
                let mut links = [
                    pa as usize * m + ja as usize,
                    n * m + pb as usize * m + jb as usize,
                    0,
                    0,
                ];
                let mut len = 2;
                if pa != pb {
                    let l = plane.join(pa, pb) as usize;
                    links[2] = 2 * n * m + pa as usize * n + l;
                    links[3] = 2 * n * m + n * n + l * n + pb as usize;
                    len = 4;
                }
                for &link in &links[..len] {
                    if load[link] == p as u32 {
                        return false;
                    }
                    load[link] = p as u32;
                }
            }
        }
        true
    }

    fn placer<'a>(plane: &'a Plane, s: &'a LsftPartial) -> impl Fn(u32) -> (u32, u32) + 'a {
        move |r| {
            let p = s.position(r);
            let x = s.shape().columns[p.column as usize];
            (plane.point_index(Point::Grid(x, p.row)), p.index)
        }
    }

    #[test]
    fn complete_and_link_disjoint_for_every_valid_block_up_to_q11() {
        use rayon::prelude::*;
        let configs: Vec<(u32, u32, u32)> = (2..=11u32)
            .rev()
            .filter(|&q| is_prime_power(q))
            .flat_map(|q| (1..=q).flat_map(move |k| (1..=k).map(move |m| (q, k, m))))
            .collect();
        configs.par_iter().for_each(|&(q, k, m)| {
            let plane = Plane::new(q).unwrap();
            let s = LsftPartial::full(BlockShape::first_columns(q, k, m)).unwrap();
            assert_eq!(s.phases(), (q * k * m) as usize);
            assert_eq!(s.ranks(), s.phases());
            assert_complete(&s, true);
            assert!(
                link_disjoint(&plane, &s, &placer(&plane, &s)),
                "(q,k,m) = ({q},{k},{m}): two flows share a link"
            );
        });
        assert_eq!(
            configs.len() as u32,
            [2u32, 3, 4, 5, 7, 8, 9, 11]
                .iter()
                .map(|q| q * (q + 1) / 2)
                .sum::<u32>()
        );
    }

    #[test]
    fn table_rows_have_distinct_slopes() {
        for (q, k, m) in [(5, 3, 3), (7, 7, 7), (8, 5, 2), (9, 9, 9)] {
            let s = LsftPartial::full(BlockShape::first_columns(q, k, m)).unwrap();
            let col0 = column0(q, k);
            assert_eq!(col0.len() as u32, q * k);
            for g in 0..q * k {
                let slope = |v: Vector| match v {
                    Vector::Zero => u32::MAX,
                    Vector::Vertical { .. } => q,
                    Vector::Slope { s, .. } => s,
                };
                let mut slopes: Vec<u32> = (0..m).map(|j| slope(s.vector(g, j))).collect();
                slopes.sort();
                slopes.dedup();
                assert_eq!(slopes.len() as u32, m, "(q,k,m)=({q},{k},{m}) group {g}");
                // column j is column j-1 rotated down by q-1 rows
                for j in 1..m {
                    assert_eq!(s.vector((g + q - 1) % (q * k), j), s.vector(g, j - 1));
                }
            }
        }
    }

    /// The block rows computed with the paper's shortcut y + s·h (docs/schedules.md §2.4).
    struct Shortcut<'a>(&'a LsftPartial);
    impl Pattern for Shortcut<'_> {
        fn name(&self) -> String {
            "shortcut".into()
        }
        fn ranks(&self) -> usize {
            self.0.ranks()
        }
        fn phases(&self) -> usize {
            self.0.phases()
        }
        fn phase(&self, p: usize, out: &mut [u32]) {
            let s = self.0;
            let (q, k, m) = (s.shape.q, s.shape.k(), s.shape.m);
            let (g, i) = (p as u32 / m, p as u32 % m);
            for (r, o) in out.iter_mut().enumerate() {
                let a = s.position(r as u32);
                let (c2, y2) = match s.vector(g, a.index) {
                    Vector::Slope { s: sl, h } => ((a.column + h) % k, s.field.add(a.row, s.field.mul(sl, h % q))),
                    v => s.target(v, a.column, a.row),
                };
                let pos = BlockPos {
                    column: c2,
                    row: y2,
                    index: (a.index + i) % m,
                };
                *o = s.at[s.shape.index(pos)];
            }
        }
    }

    #[test]
    fn the_paper_shortcut_is_not_what_we_implement() {
        for (q, k, m) in [(5, 3, 3), (7, 4, 4), (7, 6, 6)] {
            let plane = Plane::new(q).unwrap();
            let ours = LsftPartial::full(BlockShape::first_columns(q, k, m)).unwrap();
            let g = vec![0; ours.ranks()];
            let a = Schedule::from_pattern(&ours, g.clone());
            let b = Schedule::from_pattern(&Shortcut(&ours), g);
            assert_ne!(a, b, "({q},{k},{m}): the shortcut must give other destinations");
            assert!(link_disjoint(&plane, &ours, &placer(&plane, &ours)));
            assert!(
                !link_disjoint(&plane, &b, &placer(&plane, &ours)),
                "({q},{k},{m}): the shortcut conflicts"
            );
        }
        // at the paper's example size the shortcut differs from docs/schedules.md §2.4 (a hop from column 1
        // to column 0 has x' ⊖ x = 2 ≠ h = 1 in GF(3)) and is conflict-free only by luck
        let plane = Plane::new(3).unwrap();
        let ours = LsftPartial::full(BlockShape::first_columns(3, 2, 2)).unwrap();
        let g = vec![0; ours.ranks()];
        let b = Schedule::from_pattern(&Shortcut(&ours), g.clone());
        assert_ne!(Schedule::from_pattern(&ours, g), b);
        assert!(link_disjoint(&plane, &b, &placer(&plane, &ours)));
    }

    #[test]
    fn any_columns_and_idle_positions() {
        let plane = Plane::new(7).unwrap();
        let shape = BlockShape {
            q: 7,
            columns: vec![5, 1, 6, 2],
            m: 3,
        };
        let s = LsftPartial::full(shape.clone()).unwrap();
        assert_complete(&s, true);
        assert!(link_disjoint(&plane, &s, &placer(&plane, &s)));
        // drop every fifth position: idle, still disjoint, every remaining pair once
        let kept: Vec<BlockPos> = shape
            .positions()
            .enumerate()
            .filter(|(i, _)| i % 5 != 0)
            .map(|x| x.1)
            .collect();
        let sub = LsftPartial::new(shape, kept).unwrap();
        let counts = partial_permutations(&sub);
        assert!(counts.idle > 0);
        assert_complete(&sub, true);
        assert!(link_disjoint(&plane, &sub, &placer(&plane, &sub)));
    }

    #[test]
    fn invalid_blocks_are_input_errors() {
        let e = BlockShape::first_columns(5, 6, 1).validate().unwrap_err().to_string();
        assert!(e.contains("1..=q = 1..=5 columns, not 6"), "{e}");
        let e = BlockShape::first_columns(5, 3, 4).validate().unwrap_err().to_string();
        assert!(
            e.starts_with("per_leaf: 4 hosts per leaf") && e.contains("1..=3"),
            "{e}"
        );
        let e = BlockShape {
            q: 5,
            columns: vec![1, 1],
            m: 1,
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(e.contains("not distinct"), "{e}");
        let e = LsftPartial::full(BlockShape::first_columns(6, 2, 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a prime power"), "{e}");
        let shape = BlockShape::first_columns(3, 2, 1);
        let p = BlockPos {
            column: 0,
            row: 0,
            index: 0,
        };
        let e = LsftPartial::new(shape, vec![p, p]).unwrap_err().to_string();
        assert!(e.contains("ranks 0 and 1 are placed at the same position"), "{e}");
    }
}
