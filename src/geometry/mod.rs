//! Finite geometry: GF(q), the projective plane PG(2,q) and mutually orthogonal Latin
//! squares. Everything the fabric families are built from.

pub(crate) mod field;
pub(crate) mod mols;
pub(crate) mod plane;
pub(crate) mod primes;

pub use field::Field;
pub use mols::{complete_mols, LatinSquare};
pub use plane::{Line, Plane, Point};
pub use primes::{is_prime_power, nearest_prime_powers, prime_power, prime_power_hint};
