//! Finite fields GF(q) for every prime power q <= 256.
//!
//! Elements are numbered 0..q-1. For a prime q the number is the residue; for q = p^e
//! the number is the coefficient vector of a polynomial of degree < e written in base p
//! (element `c0 + c1·p + c2·p² ...` is `c0 + c1·x + c2·x² ...`), reduced modulo the
//! lexicographically smallest monic irreducible polynomial of degree e. So 0 is zero,
//! 1 is one, and for a prime field the numbering is ordinary arithmetic mod q.
//! All operations are table lookups: the hot loops of the schedules use them.

use super::primes::{prime_power, prime_power_hint};
use crate::error::{Error, Result};

/// Largest order supported (elements are stored as `u8`).
pub(crate) const MAX_ORDER: u32 = 256;

/// The finite field GF(q) with addition and multiplication tables.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    q: u32,
    add: Vec<u8>,
    mul: Vec<u8>,
    neg: Vec<u8>,
    inv: Vec<u8>,
}

impl Field {
    /// GF(q); an error naming the nearest prime powers when q is not one.
    pub(crate) fn new(q: u32) -> Result<Field> {
        if q > MAX_ORDER {
            return Err(Error::input(
                "order",
                format!("{q} is larger than the supported maximum {MAX_ORDER}"),
                None,
            ));
        }
        let Some((p, e)) = prime_power(q) else {
            return Err(Error::input(
                "order",
                format!("{q} is not a prime power, so GF({q}) does not exist"),
                Some(prime_power_hint(q)),
            ));
        };
        let n = q as usize;
        let mut add = vec![0u8; n * n];
        for a in 0..q {
            for b in 0..q {
                add[(a * q + b) as usize] = digit_add(a, b, p, e) as u8;
            }
        }
        let mul = if e == 1 {
            let mut mul = vec![0u8; n * n];
            for a in 0..q {
                for b in 0..q {
                    mul[(a * q + b) as usize] = ((a * b) % q) as u8;
                }
            }
            mul
        } else {
            find_extension(p, e).0
        };
        let mut neg = vec![0u8; n];
        let mut inv = vec![0u8; n];
        for a in 0..q {
            for b in 0..q {
                if add[(a * q + b) as usize] == 0 {
                    neg[a as usize] = b as u8;
                }
                if mul[(a * q + b) as usize] == 1 {
                    inv[a as usize] = b as u8;
                }
            }
        }
        Ok(Field { q, add, mul, neg, inv })
    }

    #[cfg(test)]
    /// Characteristic p.
    pub(crate) fn characteristic(&self) -> u32 {
        prime_power(self.q).expect("a field's order is a prime power").0
    }
    #[cfg(test)]
    /// Degree e of the extension (q = p^e).
    pub(crate) fn degree(&self) -> u32 {
        prime_power(self.q).expect("a field's order is a prime power").1
    }
    #[cfg(test)]
    /// Coefficients c0..c(e-1) of the reduction polynomial x^e + c(e-1)x^(e-1) + ... + c0
    /// (empty for prime fields): the one [`Field::new`] found.
    pub(crate) fn modulus(&self) -> Vec<u32> {
        match prime_power(self.q).expect("a field's order is a prime power") {
            (_, 1) => Vec::new(),
            (p, e) => find_extension(p, e).1,
        }
    }

    /// a + b in GF(q) (digit-wise mod p, not integer addition unless q is prime); a and b
    /// must be elements, 0..q.
    #[inline]
    pub(crate) fn add(&self, a: u32, b: u32) -> u32 {
        self.add[(a * self.q + b) as usize] as u32
    }
    /// a − b in GF(q): a plus the additive inverse of b.
    #[inline]
    pub(crate) fn sub(&self, a: u32, b: u32) -> u32 {
        self.add(a, self.neg(b))
    }
    /// a · b in GF(q) (polynomial product reduced by the modulus `new` found when q is not prime).
    #[inline]
    pub(crate) fn mul(&self, a: u32, b: u32) -> u32 {
        self.mul[(a * self.q + b) as usize] as u32
    }
    /// The additive inverse −a (a itself in characteristic 2).
    #[inline]
    pub(crate) fn neg(&self, a: u32) -> u32 {
        self.neg[a as usize] as u32
    }
    /// Multiplicative inverse; `None` for zero.
    #[inline]
    pub(crate) fn inv(&self, a: u32) -> Option<u32> {
        (a != 0).then(|| self.inv[a as usize] as u32)
    }
    /// a / b; `None` when b is zero.
    #[inline]
    pub(crate) fn div(&self, a: u32, b: u32) -> Option<u32> {
        self.inv(b).map(|ib| self.mul(a, ib))
    }
}

fn digits(mut a: u32, p: u32, e: u32) -> Vec<u32> {
    (0..e)
        .map(|_| {
            let d = a % p;
            a /= p;
            d
        })
        .collect()
}

fn undigits(d: &[u32], p: u32) -> u32 {
    d.iter().rev().fold(0, |acc, &x| acc * p + x)
}

fn digit_add(a: u32, b: u32, p: u32, e: u32) -> u32 {
    let (da, db) = (digits(a, p, e), digits(b, p, e));
    let sum: Vec<u32> = da.iter().zip(&db).map(|(x, y)| (x + y) % p).collect();
    undigits(&sum, p)
}

/// Multiply two polynomials of degree < e modulo the monic x^e + Σ m_i x^i.
fn poly_mulmod(a: &[u32], b: &[u32], m: &[u32], p: u32) -> Vec<u32> {
    let e = m.len();
    let mut prod = vec![0u32; 2 * e];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            prod[i + j] = (prod[i + j] + x * y) % p;
        }
    }
    for k in (e..2 * e).rev() {
        let c = prod[k];
        if c != 0 {
            prod[k] = 0;
            // x^k = x^(k-e) * x^e = x^(k-e) * (-Σ m_i x^i)
            for (i, &mi) in m.iter().enumerate() {
                prod[k - e + i] = (prod[k - e + i] + (p - c) * mi % p) % p;
            }
        }
    }
    prod.truncate(e);
    prod
}

/// Try the monic polynomials of degree e in lexicographic order; the first whose
/// multiplication table has no zero divisors is irreducible.
fn find_extension(p: u32, e: u32) -> (Vec<u8>, Vec<u32>) {
    let q = p.pow(e);
    let elems: Vec<Vec<u32>> = (0..q).map(|a| digits(a, p, e)).collect();
    for cand in 0..q {
        let m = digits(cand, p, e);
        if m[0] == 0 {
            continue; // divisible by x
        }
        let mut mul = vec![0u8; (q * q) as usize];
        let mut ok = true;
        'rows: for a in 1..q {
            for b in a..q {
                let r = undigits(&poly_mulmod(&elems[a as usize], &elems[b as usize], &m, p), p);
                if r == 0 {
                    ok = false;
                    break 'rows;
                }
                mul[(a * q + b) as usize] = r as u8;
                mul[(b * q + a) as usize] = r as u8;
            }
        }
        if ok {
            return (mul, m);
        }
    }
    unreachable!("an irreducible polynomial of every degree exists over GF(p)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::primes::is_prime_power;

    /// Every field axiom, exhaustively, for every prime power up to 32; for every prime
    /// power up to 256 the axioms on pairs (identities, inverses, commutativity, no zero
    /// divisors) and a cyclic multiplicative group, which together rule out a reducible
    /// modulus.
    #[test]
    fn field_axioms_hold_for_all_prime_powers_up_to_256() {
        let orders: Vec<u32> = (2..=256).filter(|&q| is_prime_power(q)).collect();
        assert_eq!(orders.len(), 54 + 16, "54 primes and 16 proper prime powers up to 256");
        for q in orders {
            let f = Field::new(q).unwrap();
            assert_eq!(f.characteristic().pow(f.degree()), q);
            for a in 0..q {
                assert_eq!(f.add(a, 0), a, "q={q}: 0 is the additive identity");
                assert_eq!(f.mul(a, 1), a, "q={q}: 1 is the multiplicative identity");
                assert_eq!(f.add(a, f.neg(a)), 0);
                if a != 0 {
                    assert_eq!(f.mul(a, f.inv(a).unwrap()), 1, "q={q} a={a}");
                }
                for b in 0..q {
                    assert_eq!(f.add(a, b), f.add(b, a));
                    assert_eq!(f.mul(a, b), f.mul(b, a));
                    assert_eq!(f.sub(f.add(a, b), b), a);
                    if a != 0 && b != 0 {
                        assert_ne!(f.mul(a, b), 0, "q={q}: no zero divisors");
                    }
                    if q <= 32 {
                        for c in 0..q {
                            assert_eq!(f.add(f.add(a, b), c), f.add(a, f.add(b, c)));
                            assert_eq!(f.mul(f.mul(a, b), c), f.mul(a, f.mul(b, c)));
                            assert_eq!(f.mul(a, f.add(b, c)), f.add(f.mul(a, b), f.mul(a, c)));
                        }
                    }
                }
            }
            // the multiplicative group is cyclic: some element has order q-1
            let has_generator = (2..q.max(3)).any(|g| {
                let mut x = 1;
                let mut ord = 0;
                loop {
                    x = f.mul(x, g % q);
                    ord += 1;
                    if x == 1 || ord > q {
                        break;
                    }
                }
                ord == q - 1
            });
            assert!(has_generator || q == 2, "q={q}: cyclic multiplicative group");
        }
    }

    #[test]
    fn rejects_non_prime_powers_with_a_hint() {
        let err = Field::new(6).unwrap_err().to_string();
        assert!(err.contains("6 is not a prime power"), "{err}");
        assert!(err.contains("5, 7"), "{err}");
        assert!(Field::new(257).is_err());
    }

    #[test]
    fn gf4_matches_the_textbook_table() {
        // x^2 + x + 1 over GF(2): elements 0, 1, x=2, x+1=3; x·x = x+1
        let f = Field::new(4).unwrap();
        assert_eq!(f.modulus(), &[1, 1]);
        assert_eq!(f.mul(2, 2), 3);
        assert_eq!(f.mul(2, 3), 1);
        assert_eq!(f.add(2, 3), 1);
    }
}
