//! The MPI all-to-all algorithms of seed 001's Table 1 as sequences of steps over ranks,
//! so that a performance model ([`crate::select::model`], a layer up) can measure every
//! step on the routing tables.
//!
//! An all-to-all of P ranks moves one block of M bytes from every rank to every other.
//! The algorithms differ in how they group those P(P−1) messages into steps:
//!
//! - **simple spread**: every rank posts all P−1 sends at once: one step of P(P−1)
//!   flows, P−1 messages per rank;
//! - **ring**: step k = 1..P−1 sends r → (r+k) mod P (receiving from r−k);
//! - **pair** (pairwise exchange): step k exchanges r ↔ r XOR k when P is a power of two;
//!   for other P it is the ring's order (what MPI libraries fall back to);
//! - **Bruck**: ⌈log₂P⌉ steps; step k sends r → (r + 2^k) mod P one message combining the
//!   blocks whose (rotated) index j ∈ [1, P) has bit k set — [`bruck_blocks`] of them, so
//!   P/2 blocks per step when P is a power of two. The local rotations before and after
//!   are memory copies, not messages, and are not counted (as in Table 1).
//!
//! Ring and pair also come with the seed's synchronisation variants, which add latency
//! only ([`barrier_latencies`]): one barrier (L·log₂P), an MPI barrier per step
//! (L·(P−1)·log₂P), a light barrier per step (L·(P−1)).

use super::Pattern;
use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// How an algorithm groups the messages of the all-to-all into steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Base {
    /// One step with every message.
    Spread,
    /// Step k: r → r+k.
    Ring,
    /// Step k: r ↔ r XOR k (power-of-two P), else the ring's order.
    Pair,
    /// ⌈log₂P⌉ combined steps r → r + 2^k.
    Bruck,
}

/// The synchronisation an algorithm adds between its steps (latency only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Barrier {
    /// None.
    None,
    /// One barrier before the exchange: L·log₂P.
    One,
    /// An MPI barrier after every step: L·(P−1)·log₂P.
    Mpi,
    /// A light (pairwise) barrier after every step: L·(P−1).
    Light,
}

/// An algorithm of seed 001's Table 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Algorithm {
    /// How messages are grouped into steps.
    pub base: Base,
    /// What synchronisation is added.
    pub barrier: Barrier,
}

impl Algorithm {
    /// Every algorithm of Table 1, in its order.
    pub(crate) const ALL: [Algorithm; 10] = [
        Algorithm::new(Base::Spread, Barrier::None),
        Algorithm::new(Base::Ring, Barrier::None),
        Algorithm::new(Base::Ring, Barrier::One),
        Algorithm::new(Base::Ring, Barrier::Mpi),
        Algorithm::new(Base::Ring, Barrier::Light),
        Algorithm::new(Base::Pair, Barrier::None),
        Algorithm::new(Base::Pair, Barrier::One),
        Algorithm::new(Base::Pair, Barrier::Mpi),
        Algorithm::new(Base::Pair, Barrier::Light),
        Algorithm::new(Base::Bruck, Barrier::None),
    ];

    /// The algorithm with these steps and synchronisation.
    pub(crate) const fn new(base: Base, barrier: Barrier) -> Algorithm {
        Algorithm { base, barrier }
    }

    /// `spread`, `ring`, `ring-one-barrier`, `ring-mpi-barrier`, `ring-light-barrier`,
    /// `pair` …, `bruck`: the names `predict` and the selector use.
    pub(crate) fn name(&self) -> String {
        let base = match self.base {
            Base::Spread => "spread",
            Base::Ring => "ring",
            Base::Pair => "pair",
            Base::Bruck => "bruck",
        };
        match self.barrier {
            Barrier::None => base.to_string(),
            Barrier::One => format!("{base}-one-barrier"),
            Barrier::Mpi => format!("{base}-mpi-barrier"),
            Barrier::Light => format!("{base}-light-barrier"),
        }
    }

    /// The steps of this algorithm over `ranks` ranks.
    pub(crate) fn steps(&self, ranks: usize) -> Steps {
        Steps { base: self.base, ranks }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;
    fn from_str(s: &str) -> Result<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| {
            Error::input(
                "algorithm",
                format!("unknown algorithm `{s}`"),
                Some(format!(
                    "one of {}",
                    Algorithm::ALL.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ")
                )),
            )
        })
    }
}

/// ⌈log₂ n⌉ (0 for n ≤ 1).
pub(crate) fn log2_ceil(n: usize) -> usize {
    if n <= 1 {
        0
    } else {
        (usize::BITS - (n - 1).leading_zeros()) as usize
    }
}

/// Latencies a synchronisation variant adds to the exchange of `ranks` ranks (Table 1:
/// log₂P for one barrier, (P−1)·log₂P for an MPI barrier per step, P−1 for a light one).
pub(crate) fn barrier_latencies(barrier: Barrier, ranks: usize) -> f64 {
    let p = ranks as f64;
    let lg = if ranks > 1 { p.log2() } else { 0.0 };
    match barrier {
        Barrier::None => 0.0,
        Barrier::One => lg,
        Barrier::Mpi => (p - 1.0).max(0.0) * lg,
        Barrier::Light => (p - 1.0).max(0.0),
    }
}

/// Blocks Bruck's step k carries over `ranks` ranks: the indices j in [1, P) with bit k
/// set (exactly P/2 when P is a power of two).
pub(crate) fn bruck_blocks(ranks: usize, k: usize) -> u64 {
    // count of j in [0, P) with bit k set: full periods of 2^(k+1), then the remainder
    let period = 1u64 << (k + 1);
    let half = 1u64 << k;
    let p = ranks as u64;
    (p / period) * half + (p % period).saturating_sub(half)
}

/// The steps of one algorithm over P ranks: who sends to whom, how many messages each
/// rank posts, and how many blocks a message carries.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Steps {
    base: Base,
    ranks: usize,
}

impl Steps {
    /// Number of steps.
    pub(crate) fn len(&self) -> usize {
        let p = self.ranks;
        match self.base {
            Base::Spread => usize::from(p > 1),
            Base::Ring | Base::Pair => p.saturating_sub(1),
            Base::Bruck => log2_ceil(p),
        }
    }

    /// Messages every rank posts in step k.
    pub(crate) fn messages(&self, _k: usize) -> u64 {
        match self.base {
            Base::Spread => self.ranks as u64 - 1,
            _ => 1,
        }
    }

    /// Blocks of M bytes one message of step k carries.
    pub(crate) fn blocks(&self, k: usize) -> u64 {
        match self.base {
            Base::Bruck => bruck_blocks(self.ranks, k),
            _ => 1,
        }
    }

    /// Call `f(source, destination)` for every message of step k.
    pub(crate) fn for_each_flow(&self, k: usize, f: &mut dyn FnMut(u32, u32)) {
        let p = self.ranks;
        match self.base {
            Base::Spread => {
                for r in 0..p {
                    for d in (0..p).filter(|&d| d != r) {
                        f(r as u32, d as u32);
                    }
                }
            }
            Base::Ring => (0..p).for_each(|r| f(r as u32, ((r + k + 1) % p) as u32)),
            Base::Pair => {
                let pair = Pairwise::new(p);
                (0..p).for_each(|r| f(r as u32, pair.peer(k + 1, r)))
            }
            Base::Bruck => (0..p).for_each(|r| f(r as u32, ((r + (1 << k)) % p) as u32)),
        }
    }
}

/// Pairwise exchange as a pattern: phase k (1..P) pairs r with r XOR k when P is a power
/// of two, else sends r → (r+k) mod P; phase 0 is every rank to itself.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pairwise {
    n: usize,
}

impl Pairwise {
    /// Over `ranks` ranks.
    pub(crate) fn new(ranks: usize) -> Pairwise {
        Pairwise { n: ranks }
    }
}

impl Pattern for Pairwise {
    fn name(&self) -> String {
        "pair".into()
    }
    fn ranks(&self) -> usize {
        self.n
    }
    fn phases(&self) -> usize {
        self.n
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        for (r, o) in out.iter_mut().enumerate() {
            *o = self.peer(p, r);
        }
    }
    fn peer(&self, p: usize, r: usize) -> u32 {
        if self.n.is_power_of_two() {
            (r ^ p) as u32
        } else {
            ((r + p) % self.n) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::testutil::assert_complete;

    #[test]
    fn every_algorithm_delivers_every_block_exactly_once() {
        for p in [1usize, 2, 3, 5, 8, 12, 16, 33] {
            for a in Algorithm::ALL {
                let s = a.steps(p);
                let mut got = vec![0u64; p * p];
                for k in 0..s.len() {
                    if a.base == Base::Bruck {
                        continue; // combined blocks: counted below
                    }
                    s.for_each_flow(k, &mut |r, d| got[r as usize * p + d as usize] += s.blocks(k));
                }
                if a.base != Base::Bruck {
                    for (i, &g) in got.iter().enumerate() {
                        assert_eq!(g, u64::from(i / p != i % p), "{a} P={p} pair {i}");
                    }
                }
            }
            // Bruck: block j travels over the steps of j's set bits, P−1 blocks in all
            let total: u64 = (0..log2_ceil(p)).map(|k| bruck_blocks(p, k)).sum();
            let want: u64 = (1..p as u64).map(|j| j.count_ones() as u64).sum();
            assert_eq!(total, want, "P={p}");
        }
        assert_eq!(bruck_blocks(128, 3), 64);
        assert_eq!(bruck_blocks(5, 2), 1);
        assert_complete(&Pairwise::new(8), true);
        assert_complete(&Pairwise::new(6), true);
    }

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        for a in Algorithm::ALL {
            assert_eq!(a.name().parse::<Algorithm>().unwrap(), a);
        }
        let e = "bruk".parse::<Algorithm>().unwrap_err().to_string();
        assert!(e.contains("unknown algorithm `bruk`"), "{e}");
        assert_eq!(barrier_latencies(Barrier::Mpi, 8), 21.0);
        assert_eq!(barrier_latencies(Barrier::Light, 8), 7.0);
    }
}
