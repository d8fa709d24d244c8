//! Latin squares and complete sets of mutually orthogonal Latin squares (MOLS).
//!
//! For a prime power q, `A_a[r][c] = r + a·c` over GF(q), a ≠ 0, are q−1 MOLS of side q:
//! the largest set that can exist. The proximity 3-level fat-tree wires its middle stage
//! with them (one square per plane of middle switches).

use super::field::Field;
use crate::error::Result;

/// A Latin square of side n stored row-major (`cell(r, c)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LatinSquare {
    n: u32,
    cells: Vec<u32>,
}

impl LatinSquare {
    /// Build from a cell function (not checked: the tests check the squares they build).
    pub(crate) fn from_fn(n: u32, f: impl Fn(u32, u32) -> u32) -> LatinSquare {
        let cells = (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .map(|(r, c)| f(r, c))
            .collect();
        LatinSquare { n, cells }
    }
    /// Entry in row r, column c.
    #[inline]
    pub(crate) fn cell(&self, r: u32, c: u32) -> u32 {
        self.cells[(r * self.n + c) as usize]
    }
    #[cfg(test)]
    /// Every symbol once in each row and each column.
    pub(crate) fn is_latin(&self) -> bool {
        let n = self.n as usize;
        let mut seen = vec![false; n];
        let line_ok = |get: &dyn Fn(u32) -> u32, seen: &mut Vec<bool>| {
            seen.iter_mut().for_each(|s| *s = false);
            (0..self.n).all(|i| {
                let v = get(i) as usize;
                v < n && !std::mem::replace(&mut seen[v], true)
            })
        };
        (0..self.n).all(|r| line_ok(&|c| self.cell(r, c), &mut seen))
            && (0..self.n).all(|c| line_ok(&|r| self.cell(r, c), &mut seen))
    }
    #[cfg(test)]
    /// Superimposing the two squares gives every ordered pair of symbols exactly once.
    pub(crate) fn is_orthogonal_to(&self, other: &LatinSquare) -> bool {
        if self.n != other.n {
            return false;
        }
        let n = self.n as usize;
        let mut seen = vec![false; n * n];
        self.cells.iter().zip(&other.cells).all(|(&a, &b)| {
            let k = a as usize * n + b as usize;
            !std::mem::replace(&mut seen[k], true)
        })
    }
}

/// The complete set of q−1 MOLS of side q: `A_a[r][c] = r + a·c`, a = 1..q−1
/// (field element numbering of [`Field`]).
pub(crate) fn complete_mols(q: u32) -> Result<Vec<LatinSquare>> {
    let f = Field::new(q)?;
    Ok((1..q)
        .map(|a| LatinSquare::from_fn(q, |r, c| f.add(r, f.mul(a, c))))
        .collect())
}

#[cfg(test)]
/// The "basic" cyclic squares `r + u·c mod n` for u = 1..n−1 (Latin only for u coprime to n;
/// returned anyway: the proximity wiring uses them as column maps for any n).
pub(crate) fn cyclic_squares(n: u32) -> Vec<LatinSquare> {
    (1..n)
        .map(|u| LatinSquare::from_fn(n, |r, c| (r + u * c) % n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::primes::is_prime_power;

    #[test]
    fn complete_mols_are_latin_and_pairwise_orthogonal_up_to_32() {
        for q in (2..=32).filter(|&q| is_prime_power(q)) {
            let squares = complete_mols(q).unwrap();
            assert_eq!(squares.len() as u32, q - 1);
            for (i, a) in squares.iter().enumerate() {
                assert!(a.is_latin(), "q={q} square {i}");
                for b in &squares[i + 1..] {
                    assert!(a.is_orthogonal_to(b), "q={q}");
                }
            }
        }
    }

    #[test]
    fn side_six_has_no_complete_set() {
        assert!(complete_mols(6).is_err());
        // the cyclic squares r + u·c mod 6 are Latin only for u coprime to 6
        let latin: Vec<bool> = cyclic_squares(6).iter().map(|s| s.is_latin()).collect();
        assert_eq!(latin, vec![true, false, false, false, true]);
        assert!(!cyclic_squares(6)[0].is_orthogonal_to(&cyclic_squares(6)[4]));
    }
}
