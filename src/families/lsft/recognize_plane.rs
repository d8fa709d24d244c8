//! Find an isomorphism from a projective plane given by its incidences onto the
//! canonical PG(2,q) of [`Plane`].
//!
//! Why this works: the collineation group of PG(2,q) is transitive on ordered
//! quadrangles (four points, no three collinear), so if any isomorphism exists, one maps
//! a chosen quadrangle of the discovered plane onto a fixed quadrangle of PG(2,q) (both
//! picked by the same greedy rule, [`greedy_quadrangle`]). From there joins and meets force further images
//! (the closure of a quadrangle is the subplane over the prime field); where the
//! closure stalls (q = p^e with e > 1) we branch on the image of one more point on an
//! already mapped line and backtrack on contradiction. Wrong branches die quickly; only
//! the e field automorphisms survive. A plane that is not Desarguesian (possible from
//! order 9 on) exhausts the search: every branch ends in a contradiction.
//!
//! Cost: processing a newly mapped point or line scans its q+1 incidences and, for
//! each unmapped one, q+1 more: O(q²) per element, O(q⁴) per full propagation, with
//! no hashing (flat arrays of indices).

use crate::geometry::Plane;
use crate::recognize::graph::NONE;

/// A projective plane of order q given by incidences, points and lines numbered 0..n.
pub(crate) struct Incidence {
    pub q: u32,
    pub n: u32,
    /// `pt_lines[p*(q+1)..]`: the q+1 lines through point p.
    pub pt_lines: Vec<u32>,
    /// `ln_pts[l*(q+1)..]`: the q+1 points on line l.
    pub ln_pts: Vec<u32>,
}

impl Incidence {
    fn d(&self) -> usize {
        self.q as usize + 1
    }
    fn lines_of(&self, p: u32) -> &[u32] {
        &self.pt_lines[p as usize * self.d()..(p as usize + 1) * self.d()]
    }
    fn points_of(&self, l: u32) -> &[u32] {
        &self.ln_pts[l as usize * self.d()..(l as usize + 1) * self.d()]
    }
    /// The common line of two distinct points (O(q) merge of the sorted line lists is
    /// not needed: a marker pass is as fast for these sizes).
    fn join(&self, a: u32, b: u32) -> Option<u32> {
        let la = self.lines_of(a);
        self.lines_of(b).iter().copied().find(|l| la.contains(l))
    }
}

/// Why no isomorphism was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IsoFailure {
    /// The search was exhausted: the plane is not isomorphic to PG(2,q).
    NotDesarguesian,
    /// The branch budget ran out before the search finished.
    Budget,
    /// No four points in general position (cannot happen in a projective plane).
    NoQuadrangle,
}

/// Maps found: `phi[discovered point] = canonical point`, `psi[discovered line] = canonical line`.
pub(crate) struct Collineation {
    pub phi: Vec<u32>,
    pub psi: Vec<u32>,
    /// Search nodes used (for tests and diagnostics).
    #[allow(dead_code)]
    pub nodes: u64,
}

struct Search<'a> {
    d: &'a Incidence,
    c: &'a Plane,
    phi: Vec<u32>,
    psi: Vec<u32>,
    phi_inv: Vec<u32>,
    psi_inv: Vec<u32>,
    /// (is point, element) in assignment order, for undo.
    trail: Vec<(bool, u32)>,
    queue: Vec<(bool, u32)>,
    nodes: u64,
    budget: u64,
}

impl Search<'_> {
    fn set_point(&mut self, p: u32, x: u32) -> bool {
        if self.phi[p as usize] == x {
            return true;
        }
        if self.phi[p as usize] != NONE || self.phi_inv[x as usize] != NONE {
            return false;
        }
        self.phi[p as usize] = x;
        self.phi_inv[x as usize] = p;
        self.trail.push((true, p));
        self.queue.push((true, p));
        true
    }

    fn set_line(&mut self, l: u32, y: u32) -> bool {
        if self.psi[l as usize] == y {
            return true;
        }
        if self.psi[l as usize] != NONE || self.psi_inv[y as usize] != NONE {
            return false;
        }
        self.psi[l as usize] = y;
        self.psi_inv[y as usize] = l;
        self.trail.push((false, l));
        self.queue.push((false, l));
        true
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (is_pt, v) = self.trail.pop().expect("trail longer than mark");
            if is_pt {
                let x = self.phi[v as usize];
                self.phi_inv[x as usize] = NONE;
                self.phi[v as usize] = NONE;
            } else {
                let y = self.psi[v as usize];
                self.psi_inv[y as usize] = NONE;
                self.psi[v as usize] = NONE;
            }
        }
        self.queue.clear();
    }

    /// Apply every forced consequence; false on contradiction.
    fn propagate(&mut self) -> bool {
        while let Some((is_pt, v)) = self.queue.pop() {
            let ok = if is_pt {
                self.point_mapped(v)
            } else {
                self.line_mapped(v)
            };
            if !ok {
                self.queue.clear();
                return false;
            }
        }
        true
    }

    fn point_mapped(&mut self, p: u32) -> bool {
        let x = self.phi[p as usize];
        for &l in self.d.lines_of(p) {
            let y = self.psi[l as usize];
            if y != NONE {
                if !self.c.incident(x, y) {
                    return false;
                }
            } else if let Some(&a) = self
                .d
                .points_of(l)
                .iter()
                .find(|&&a| a != p && self.phi[a as usize] != NONE)
            {
                let xa = self.phi[a as usize];
                if !self.set_line(l, self.c.join(x, xa)) {
                    return false;
                }
            }
        }
        true
    }

    fn line_mapped(&mut self, l: u32) -> bool {
        let y = self.psi[l as usize];
        for &p in self.d.points_of(l) {
            let x = self.phi[p as usize];
            if x != NONE {
                if !self.c.incident(x, y) {
                    return false;
                }
            } else if let Some(&m) = self
                .d
                .lines_of(p)
                .iter()
                .find(|&&m| m != l && self.psi[m as usize] != NONE)
            {
                let ym = self.psi[m as usize];
                if !self.set_point(p, self.c.meet(y, ym)) {
                    return false;
                }
            }
        }
        true
    }

    /// Depth-first search; Ok(true) when every point and line is mapped.
    fn solve(&mut self) -> Result<bool, IsoFailure> {
        if !self.propagate() {
            return Ok(false);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(IsoFailure::Budget);
        }
        // branch on an unmapped point of a mapped line (the closure is a subplane whose
        // lines have unmapped points as long as anything is unmapped)
        let mut pick = None;
        for l in 0..self.d.n {
            if self.psi[l as usize] == NONE {
                continue;
            }
            if let Some(&p) = self.d.points_of(l).iter().find(|&&p| self.phi[p as usize] == NONE) {
                pick = Some((p, Some(self.psi[l as usize])));
                break;
            }
        }
        if pick.is_none() {
            pick = (0..self.d.n).find(|&p| self.phi[p as usize] == NONE).map(|p| (p, None));
        }
        let Some((p, line)) = pick else {
            return Ok(true);
        };
        let candidates: Vec<u32> = match line {
            Some(y) => self
                .c
                .points_on(y)
                .iter()
                .copied()
                .filter(|&x| self.phi_inv[x as usize] == NONE)
                .collect(),
            None => (0..self.d.n).filter(|&x| self.phi_inv[x as usize] == NONE).collect(),
        };
        for x in candidates {
            let mark = self.trail.len();
            if self.set_point(p, x) && self.solve()? {
                return Ok(true);
            }
            self.undo(mark);
        }
        Ok(false)
    }
}

/// The first four points (by index) in general position, for a plane given by its
/// point count, a join and an incidence test. The same greedy rule on both planes means
/// that a fabric whose GUIDs follow the canonical point order (an unshuffled plan) is
/// mapped onto exactly the planned coordinates.
fn greedy_quadrangle(
    n: u32,
    join: impl Fn(u32, u32) -> Option<u32>,
    on: impl Fn(u32, u32) -> bool,
) -> Option<[u32; 4]> {
    if n < 4 {
        return None;
    }
    let (a, b) = (0, 1);
    let lab = join(a, b)?;
    let c = (2..n).find(|&p| !on(lab, p))?;
    let lac = join(a, c)?;
    let lbc = join(b, c)?;
    let e = (2..n).find(|&p| p != c && !on(lab, p) && !on(lac, p) && !on(lbc, p))?;
    Some([a, b, c, e])
}

/// Find a collineation from `d` onto `c` (same order), exploring at most `budget`
/// search nodes.
pub(crate) fn to_canonical(d: &Incidence, c: &Plane, budget: u64) -> Result<Collineation, IsoFailure> {
    debug_assert_eq!(d.q, c.order());
    let n = d.n as usize;
    let mut s = Search {
        d,
        c,
        phi: vec![NONE; n],
        psi: vec![NONE; n],
        phi_inv: vec![NONE; n],
        psi_inv: vec![NONE; n],
        trail: Vec::with_capacity(2 * n),
        queue: Vec::with_capacity(2 * n),
        nodes: 0,
        budget,
    };
    let quad = greedy_quadrangle(d.n, |a, b| d.join(a, b), |l, p| d.lines_of(p).contains(&l))
        .ok_or(IsoFailure::NoQuadrangle)?;
    let target = greedy_quadrangle(c.size(), |a, b| Some(c.join(a, b)), |l, p| c.incident(p, l))
        .ok_or(IsoFailure::NoQuadrangle)?;
    for (p, x) in quad.into_iter().zip(target) {
        if !s.set_point(p, x) {
            return Err(IsoFailure::NotDesarguesian);
        }
    }
    if s.solve()? {
        Ok(Collineation {
            phi: s.phi,
            psi: s.psi,
            nodes: s.nodes,
        })
    } else {
        Err(IsoFailure::NotDesarguesian)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// PG(2,q) relabelled by random permutations of points and lines.
    fn scrambled(q: u32, seed: u64) -> (Incidence, Vec<u32>, Vec<u32>) {
        let c = Plane::new(q).unwrap();
        let n = c.size();
        let mut rng = SplitMix64::new(seed);
        let mut pp: Vec<u32> = (0..n).collect();
        let mut lp: Vec<u32> = (0..n).collect();
        rng.shuffle(&mut pp);
        rng.shuffle(&mut lp);
        // discovered point i is canonical point pp[i]
        let mut inv_p = vec![0; n as usize];
        let mut inv_l = vec![0; n as usize];
        for i in 0..n as usize {
            inv_p[pp[i] as usize] = i as u32;
            inv_l[lp[i] as usize] = i as u32;
        }
        let d = q as usize + 1;
        let mut pt_lines = vec![0; n as usize * d];
        let mut ln_pts = vec![0; n as usize * d];
        for i in 0..n {
            let mut ls: Vec<u32> = c
                .lines_through(pp[i as usize])
                .iter()
                .map(|&l| inv_l[l as usize])
                .collect();
            ls.sort();
            pt_lines[i as usize * d..(i as usize + 1) * d].copy_from_slice(&ls);
            let mut ps: Vec<u32> = c.points_on(lp[i as usize]).iter().map(|&p| inv_p[p as usize]).collect();
            ps.sort();
            ln_pts[i as usize * d..(i as usize + 1) * d].copy_from_slice(&ps);
        }
        (Incidence { q, n, pt_lines, ln_pts }, pp, lp)
    }

    #[test]
    fn finds_an_incidence_isomorphism_for_every_small_order() {
        for q in [2u32, 3, 4, 5, 7, 8, 9, 11, 16] {
            let (d, _, _) = scrambled(q, 77 + q as u64);
            let c = Plane::new(q).unwrap();
            let iso = to_canonical(&d, &c, 10_000).unwrap();
            // a bijection that maps every flag to a flag
            let mut seen = vec![false; d.n as usize];
            for &x in &iso.phi {
                assert!(!seen[x as usize], "q={q}: phi is injective");
                seen[x as usize] = true;
            }
            for p in 0..d.n {
                for &l in d.lines_of(p) {
                    assert!(c.incident(iso.phi[p as usize], iso.psi[l as usize]), "q={q}");
                }
            }
        }
    }
}
