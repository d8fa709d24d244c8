//! The projective plane PG(2,q) in the coordinates of the Latin-square fat-tree papers.
//!
//! Points: `P`, `P(c)` for c in GF(q), and the grid `P(x,y)`. Lines: `L = {P} ∪ {P(c)}`,
//! `L(c) = {P} ∪ {P(c,y)}` (vertical line x = c) and `L(c,r) = {P(c)} ∪ {P(x, r + c·x)}`
//! (slope c, intercept r). Indices follow the papers' listing order:
//! `P = 0`, `P(c) = 1 + c`, `P(x,y) = 1 + q + x·q + y`, and the same for lines
//! (`L = 0`, `L(c) = 1 + c`, `L(c,r) = 1 + q + c·q + r`). Leaves and spines of a
//! Latin-square fat-tree are numbered by these indices, so "leaf 0" is always `P`.
//!
//! The incidence lists are sorted by index: "the k-th line through p" and "the k-th
//! point of ℓ" are the canonical port numberings the all-to-all schedules use.

use super::field::Field;
use crate::error::Result;
use std::fmt;

/// A point of PG(2,q) in paper coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Point {
    /// `P`, the point at infinity common to all vertical lines.
    Inf,
    /// `P(c)`, the point at infinity of slope c.
    Dir(u32),
    /// `P(x,y)`, a grid point.
    Grid(u32, u32),
}

/// A line of PG(2,q) in paper coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Line {
    /// `L`, the line at infinity.
    Inf,
    /// `L(c)`, the vertical line x = c.
    Vert(u32),
    /// `L(c,r)`, the line y = r + c·x.
    Slope(u32, u32),
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Point::Inf => write!(f, "P"),
            Point::Dir(c) => write!(f, "P({c})"),
            Point::Grid(x, y) => write!(f, "P({x},{y})"),
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Inf => write!(f, "L"),
            Line::Vert(c) => write!(f, "L({c})"),
            Line::Slope(c, r) => write!(f, "L({c},{r})"),
        }
    }
}

/// PG(2,q) with flat incidence tables.
#[derive(Clone, Debug)]
pub struct Plane {
    field: Field,
    q: u32,
    /// `line_points[l*(q+1) + k]`: k-th point of line l (ascending).
    line_points: Vec<u32>,
    /// `point_lines[p*(q+1) + k]`: k-th line through point p (ascending).
    point_lines: Vec<u32>,
}

impl Plane {
    /// PG(2,q); an error naming the nearest prime powers when q is not one.
    pub fn new(q: u32) -> Result<Plane> {
        let field = Field::new(q)?;
        let n = (q * q + q + 1) as usize;
        let d = (q + 1) as usize;
        let mut line_points = Vec::with_capacity(n * d);
        let mut point_lines = vec![Vec::with_capacity(d); n];
        let mut plane = Plane {
            field,
            q,
            line_points: Vec::new(),
            point_lines: Vec::new(),
        };
        for l in 0..n as u32 {
            let mut pts = plane.points_of(plane.line(l));
            pts.sort_unstable();
            for &p in &pts {
                point_lines[p as usize].push(l);
            }
            line_points.extend(pts);
        }
        plane.line_points = line_points;
        plane.point_lines = point_lines.into_iter().flatten().collect();
        Ok(plane)
    }

    /// The order q.
    pub(crate) fn order(&self) -> u32 {
        self.q
    }
    /// Number of points (= number of lines) q² + q + 1.
    pub(crate) fn size(&self) -> u32 {
        self.q * self.q + self.q + 1
    }
    /// Points per line (= lines per point) q + 1.
    pub(crate) fn degree(&self) -> u32 {
        self.q + 1
    }

    /// Index of a point.
    pub(crate) fn point_index(&self, p: Point) -> u32 {
        match p {
            Point::Inf => 0,
            Point::Dir(c) => 1 + c,
            Point::Grid(x, y) => 1 + self.q + x * self.q + y,
        }
    }
    /// Point of an index.
    pub fn point(&self, i: u32) -> Point {
        let q = self.q;
        match i {
            0 => Point::Inf,
            i if i <= q => Point::Dir(i - 1),
            i => Point::Grid((i - 1 - q) / q, (i - 1 - q) % q),
        }
    }
    /// Index of a line.
    pub(crate) fn line_index(&self, l: Line) -> u32 {
        match l {
            Line::Inf => 0,
            Line::Vert(c) => 1 + c,
            Line::Slope(c, r) => 1 + self.q + c * self.q + r,
        }
    }
    /// Line of an index.
    pub(crate) fn line(&self, i: u32) -> Line {
        let q = self.q;
        match i {
            0 => Line::Inf,
            i if i <= q => Line::Vert(i - 1),
            i => Line::Slope((i - 1 - q) / q, (i - 1 - q) % q),
        }
    }

    /// The points of a line, computed from the definition (unsorted).
    fn points_of(&self, l: Line) -> Vec<u32> {
        let (q, f) = (self.q, &self.field);
        let mut v = Vec::with_capacity(q as usize + 1);
        match l {
            Line::Inf => {
                v.push(self.point_index(Point::Inf));
                v.extend((0..q).map(|c| self.point_index(Point::Dir(c))));
            }
            Line::Vert(c) => {
                v.push(self.point_index(Point::Inf));
                v.extend((0..q).map(|y| self.point_index(Point::Grid(c, y))));
            }
            Line::Slope(c, r) => {
                v.push(self.point_index(Point::Dir(c)));
                v.extend((0..q).map(|x| self.point_index(Point::Grid(x, f.add(r, f.mul(c, x))))));
            }
        }
        v
    }

    /// The q+1 points of line `l`, ascending.
    #[inline]
    pub fn points_on(&self, l: u32) -> &[u32] {
        let d = self.degree() as usize;
        &self.line_points[l as usize * d..(l as usize + 1) * d]
    }
    /// The q+1 lines through point `p`, ascending.
    #[inline]
    pub fn lines_through(&self, p: u32) -> &[u32] {
        let d = self.degree() as usize;
        &self.point_lines[p as usize * d..(p as usize + 1) * d]
    }
    /// Position of point `p` on line `l` (its canonical port number), if incident.
    pub(crate) fn position_on_line(&self, l: u32, p: u32) -> Option<u32> {
        self.points_on(l).binary_search(&p).ok().map(|k| k as u32)
    }
    /// Position of line `l` among the lines through `p`, if incident.
    pub fn position_at_point(&self, p: u32, l: u32) -> Option<u32> {
        self.lines_through(p).binary_search(&l).ok().map(|k| k as u32)
    }
    /// True when point `p` lies on line `l`.
    pub fn incident(&self, p: u32, l: u32) -> bool {
        self.position_on_line(l, p).is_some()
    }

    /// The unique line through two distinct points (O(1), from coordinates).
    pub fn join(&self, a: u32, b: u32) -> u32 {
        debug_assert_ne!(a, b);
        let f = &self.field;
        let line = match (self.point(a), self.point(b)) {
            (Point::Grid(x1, y1), Point::Grid(x2, y2)) => {
                if x1 == x2 {
                    Line::Vert(x1)
                } else {
                    let c = f.div(f.sub(y2, y1), f.sub(x2, x1)).expect("x1 != x2");
                    Line::Slope(c, f.sub(y1, f.mul(c, x1)))
                }
            }
            (Point::Grid(x, y), Point::Dir(c)) | (Point::Dir(c), Point::Grid(x, y)) => {
                Line::Slope(c, f.sub(y, f.mul(c, x)))
            }
            (Point::Grid(x, _), Point::Inf) | (Point::Inf, Point::Grid(x, _)) => Line::Vert(x),
            _ => Line::Inf, // two points at infinity
        };
        self.line_index(line)
    }

    /// The unique point on two distinct lines (O(1), from coordinates).
    pub(crate) fn meet(&self, l1: u32, l2: u32) -> u32 {
        debug_assert_ne!(l1, l2);
        let f = &self.field;
        let point = match (self.line(l1), self.line(l2)) {
            (Line::Slope(c1, r1), Line::Slope(c2, r2)) => {
                if c1 == c2 {
                    Point::Dir(c1)
                } else {
                    // r1 + c1 x = r2 + c2 x  =>  x = (r2 - r1) / (c1 - c2)
                    let x = f.div(f.sub(r2, r1), f.sub(c1, c2)).expect("c1 != c2");
                    Point::Grid(x, f.add(r1, f.mul(c1, x)))
                }
            }
            (Line::Slope(c, r), Line::Vert(x)) | (Line::Vert(x), Line::Slope(c, r)) => {
                Point::Grid(x, f.add(r, f.mul(c, x)))
            }
            (Line::Slope(c, _), Line::Inf) | (Line::Inf, Line::Slope(c, _)) => Point::Dir(c),
            _ => Point::Inf, // two vertical lines, or a vertical line and L
        };
        self.point_index(point)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::primes::is_prime_power;

    /// The axioms of a projective plane, exhaustively, for every prime power q <= 32.
    #[test]
    fn projective_plane_axioms_for_every_prime_power_up_to_32() {
        for q in (2..=32).filter(|&q| is_prime_power(q)) {
            let pl = Plane::new(q).unwrap();
            let n = pl.size();
            let d = pl.degree() as usize;
            for l in 0..n {
                let pts = pl.points_on(l);
                assert_eq!(pts.len(), d);
                assert!(pts.windows(2).all(|w| w[0] < w[1]), "q={q}: distinct points");
                assert_eq!(pl.line_index(pl.line(l)), l);
            }
            for p in 0..n {
                assert_eq!(pl.lines_through(p).len(), d, "q={q}: q+1 lines per point");
                assert_eq!(pl.point_index(pl.point(p)), p);
            }
            // two points share exactly one line, two lines share exactly one point
            let mut count = vec![0u8; n as usize];
            for a in 0..n {
                count.iter_mut().for_each(|c| *c = 0);
                for &l in pl.lines_through(a) {
                    for &b in pl.points_on(l) {
                        count[b as usize] += 1;
                    }
                }
                for b in 0..n {
                    if b != a {
                        assert_eq!(count[b as usize], 1, "q={q}: points {a},{b} share one line");
                        let l = pl.join(a, b);
                        assert!(pl.incident(a, l) && pl.incident(b, l));
                    }
                }
                count.iter_mut().for_each(|c| *c = 0);
                for &p in pl.points_on(a) {
                    for &l in pl.lines_through(p) {
                        count[l as usize] += 1;
                    }
                }
                for m in 0..n {
                    if m != a {
                        assert_eq!(count[m as usize], 1, "q={q}: lines {a},{m} share one point");
                        let p = pl.meet(a, m);
                        assert!(pl.incident(p, a) && pl.incident(p, m));
                    }
                }
            }
            // four points, no three collinear: P(0,0), P(1,0), P(0,1), P(1,1)
            let quad = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(x, y)| pl.point_index(Point::Grid(x, y)));
            for i in 0..4 {
                for j in i + 1..4 {
                    for k in j + 1..4 {
                        let l = pl.join(quad[i], quad[j]);
                        assert!(!pl.incident(quad[k], l), "q={q}: quadrangle");
                    }
                }
            }
        }
    }

    #[test]
    fn paper_coordinates() {
        let pl = Plane::new(3).unwrap();
        // L = {P, P(0), P(1), P(2)}
        assert_eq!(pl.points_on(0), &[0, 1, 2, 3]);
        // L(1) = {P} ∪ {P(1,y)}
        let v: Vec<u32> = (0..3).map(|y| pl.point_index(Point::Grid(1, y))).collect();
        assert_eq!(pl.points_on(pl.line_index(Line::Vert(1))), &[0, v[0], v[1], v[2]]);
        // L(2,1) = {P(2)} ∪ {P(x, 1+2x mod 3)}
        let l = pl.line_index(Line::Slope(2, 1));
        let mut want = vec![pl.point_index(Point::Dir(2))];
        want.extend((0..3).map(|x| pl.point_index(Point::Grid(x, (1 + 2 * x) % 3))));
        want.sort();
        assert_eq!(pl.points_on(l), want.as_slice());
        assert_eq!(Point::Grid(1, 2).to_string(), "P(1,2)");
        assert_eq!(pl.line(l).to_string(), "L(2,1)");
    }
}
