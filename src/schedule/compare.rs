//! Patterns users compare the geometric schedules with. Each is the link-level traffic of
//! one step of a classic all-to-all algorithm; the algorithms relay data, so apart from
//! `random` and `bisection` these patterns do not cover every pair — what matters to the
//! checker is how the flows of each step share links.
//!
//! * `ring` — store-and-forward ring: N−1 steps, in every step each rank forwards to its
//!   right neighbour, r → (r+1) mod N (the message shrinks each step; the links used do not).
//! * `recursive-doubling` — hypercube exchange: ⌈log₂N⌉ steps, in step i rank r exchanges
//!   with r XOR 2^i (both directions in the same step); when N is not a power of two a
//!   rank whose partner does not exist is idle in that step.
//! * `bruck` — Bruck's algorithm: ⌈log₂N⌉ steps, in step i rank r sends to (r + 2^i) mod N.
//! * `random` — an independent uniformly random permutation in every phase (N phases
//!   unless told otherwise), drawn with [`SplitMix64`] from the seed and the phase number,
//!   so any phase can be regenerated alone. Fixed points are local copies.
//! * `bisection` — cross-half pairs in both directions: h = ⌊N/2⌋ phases, in phase i rank
//!   r < h exchanges with h + (r+i) mod h (each sends to the other); with N odd the last
//!   rank is idle. Every ordered pair across the halves occurs exactly once.

use super::{Pattern, IDLE};
use crate::rng::SplitMix64;

/// Ring all-to-all steps.
#[derive(Clone, Debug)]
pub(crate) struct Ring {
    n: usize,
}

impl Ring {
    /// Ring steps over `ranks` ranks: N−1 phases (none for a single rank).
    pub(crate) fn new(ranks: usize) -> Ring {
        Ring { n: ranks }
    }
}

impl Pattern for Ring {
    fn name(&self) -> String {
        "ring".into()
    }
    fn ranks(&self) -> usize {
        self.n
    }
    fn phases(&self) -> usize {
        self.n.saturating_sub(1)
    }
    fn phase(&self, _p: usize, out: &mut [u32]) {
        for (r, o) in out.iter_mut().enumerate() {
            *o = if r + 1 == self.n { 0 } else { r as u32 + 1 };
        }
    }
}

/// ⌈log₂ n⌉ (0 for n ≤ 1).
fn log2_ceil(n: usize) -> usize {
    if n <= 1 {
        0
    } else {
        (usize::BITS - (n - 1).leading_zeros()) as usize
    }
}

/// Recursive-doubling (XOR) exchange steps.
#[derive(Clone, Debug)]
pub(crate) struct RecursiveDoubling {
    n: usize,
}

impl RecursiveDoubling {
    /// XOR exchanges over `ranks` ranks: ⌈log₂N⌉ phases, partners beyond N idle.
    pub(crate) fn new(ranks: usize) -> RecursiveDoubling {
        RecursiveDoubling { n: ranks }
    }
}

impl Pattern for RecursiveDoubling {
    fn name(&self) -> String {
        "recursive-doubling".into()
    }
    fn ranks(&self) -> usize {
        self.n
    }
    fn phases(&self) -> usize {
        log2_ceil(self.n)
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        for (r, o) in out.iter_mut().enumerate() {
            let partner = r ^ (1 << p);
            *o = if partner < self.n { partner as u32 } else { IDLE };
        }
    }
}

/// Bruck's 2^i shifts.
#[derive(Clone, Debug)]
pub(crate) struct Bruck {
    n: usize,
}

impl Bruck {
    /// Bruck steps over `ranks` ranks: ⌈log₂N⌉ phases of r → (r + 2^i) mod N.
    pub(crate) fn new(ranks: usize) -> Bruck {
        Bruck { n: ranks }
    }
}

impl Pattern for Bruck {
    fn name(&self) -> String {
        "bruck".into()
    }
    fn ranks(&self) -> usize {
        self.n
    }
    fn phases(&self) -> usize {
        log2_ceil(self.n)
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        let step = 1usize << p;
        for (r, o) in out.iter_mut().enumerate() {
            *o = ((r + step) % self.n) as u32;
        }
    }
}

/// A random permutation per phase.
#[derive(Clone, Debug)]
pub struct RandomPermutations {
    n: usize,
    phases: usize,
    seed: u64,
}

impl RandomPermutations {
    /// `phases` independent permutations of `ranks` ranks from `seed`.
    pub fn new(ranks: usize, phases: usize, seed: u64) -> RandomPermutations {
        RandomPermutations { n: ranks, phases, seed }
    }
}

impl Pattern for RandomPermutations {
    fn name(&self) -> String {
        "random".into()
    }
    fn ranks(&self) -> usize {
        self.n
    }
    fn phases(&self) -> usize {
        self.phases
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        // one generator per phase, seeded from (seed, phase) through a SplitMix step
        let mut mix = SplitMix64::new(self.seed ^ (p as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mut rng = SplitMix64::new(mix.next_u64());
        for (r, o) in out.iter_mut().enumerate() {
            *o = r as u32;
        }
        rng.shuffle(out);
    }
}

/// Cross-half exchanges.
#[derive(Clone, Debug)]
pub struct Bisection {
    n: usize,
}

impl Bisection {
    /// Cross-half exchanges over `ranks` ranks: ⌊N/2⌋ phases, the last rank idle when N is odd.
    pub fn new(ranks: usize) -> Bisection {
        Bisection { n: ranks }
    }
}

impl Pattern for Bisection {
    fn name(&self) -> String {
        "bisection".into()
    }
    fn ranks(&self) -> usize {
        self.n
    }
    fn phases(&self) -> usize {
        self.n / 2
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        let h = self.n / 2;
        out.iter_mut().for_each(|o| *o = IDLE);
        for r in 0..h {
            let partner = h + (r + p) % h;
            out[r] = partner as u32;
            out[partner] = r as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::testutil::{pair_counts, partial_permutations};
    use crate::schedule::Schedule;

    const SIZES: [usize; 8] = [1, 2, 3, 5, 8, 13, 16, 64];

    fn phase(p: &dyn Pattern, i: usize) -> Vec<u32> {
        let mut v = vec![IDLE; p.ranks()];
        p.phase(i, &mut v);
        v
    }

    #[test]
    fn every_phase_is_a_partial_permutation() {
        for n in SIZES {
            let patterns: Vec<Box<dyn Pattern>> = vec![
                Box::new(Ring::new(n)),
                Box::new(RecursiveDoubling::new(n)),
                Box::new(Bruck::new(n)),
                Box::new(RandomPermutations::new(n, n, 7)),
                Box::new(Bisection::new(n)),
            ];
            for p in &patterns {
                partial_permutations(p.as_ref());
            }
        }
    }

    #[test]
    fn ring_forwards_to_the_right_neighbour() {
        for n in SIZES {
            let r = Ring::new(n);
            assert_eq!(r.phases(), n - 1);
            for i in 0..r.phases() {
                let v = phase(&r, i);
                assert!(v.iter().enumerate().all(|(s, &d)| d as usize == (s + 1) % n));
            }
        }
    }

    #[test]
    fn doubling_steps_are_powers_of_two() {
        for n in SIZES {
            let (rd, br) = (RecursiveDoubling::new(n), Bruck::new(n));
            assert_eq!(rd.phases(), br.phases());
            assert!(1usize << rd.phases() >= n && (rd.phases() == 0 || 1usize << (rd.phases() - 1) < n));
            for i in 0..rd.phases() {
                let x = phase(&rd, i);
                for (s, &d) in x.iter().enumerate() {
                    if d == IDLE {
                        assert!(s ^ (1 << i) >= n);
                    } else {
                        assert_eq!(d as usize, s ^ (1 << i));
                        assert_eq!(x[d as usize] as usize, s, "exchange: both directions");
                    }
                }
                let b = phase(&br, i);
                assert!(b.iter().enumerate().all(|(s, &d)| d as usize == (s + (1 << i)) % n));
            }
            if n.is_power_of_two() {
                let c = partial_permutations(&rd);
                assert_eq!(c.idle, 0);
            }
        }
    }

    #[test]
    fn random_is_reproducible_and_seeded() {
        let g = vec![0; 50];
        let a = Schedule::from_pattern(&RandomPermutations::new(50, 10, 1), g.clone());
        let b = Schedule::from_pattern(&RandomPermutations::new(50, 10, 1), g.clone());
        let c = Schedule::from_pattern(&RandomPermutations::new(50, 10, 2), g);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a.phases[0], a.phases[1], "phases are independent");
        let counts = partial_permutations(&a);
        assert_eq!(counts.idle, 0, "every phase is a full permutation");
        // any phase regenerates alone
        let mut v = vec![0; 50];
        RandomPermutations::new(50, 10, 1).phase(7, &mut v);
        assert_eq!(v, a.phases[7]);
    }

    #[test]
    fn bisection_covers_every_cross_pair_once() {
        for n in SIZES {
            let b = Bisection::new(n);
            let h = n / 2;
            let seen = pair_counts(&b);
            for r in 0..n {
                for s in 0..n {
                    let cross = r < h && (h..2 * h).contains(&s) || s < h && (h..2 * h).contains(&r);
                    assert_eq!(seen[r * n + s], cross as u8, "n={n} {r}->{s}");
                }
            }
        }
    }
}
