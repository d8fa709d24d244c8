//! Finite geometry: GF(q), the projective plane PG(2,q) and mutually orthogonal Latin
//! squares. Everything the fabric families are built from.

pub(crate) mod field;
// only its tests use it: nothing else builds these squares
#[cfg(test)]
pub(crate) mod mols;
pub(crate) mod plane;
pub(crate) mod primes;

pub(crate) use field::Field;
pub use plane::{Plane, Point};
pub use primes::is_prime_power;
pub(crate) use primes::prime_power_hint;
