//! Prime powers: the only orders for which the finite fields, projective planes and
//! complete MOLS sets that ibfat builds on are known to exist.

/// `Some((p, e))` when `q = p^e` for a prime `p` and `e >= 1`.
pub(crate) fn prime_power(q: u32) -> Option<(u32, u32)> {
    if q < 2 {
        return None;
    }
    let mut p = 2;
    while p <= q / p {
        if q % p == 0 {
            break;
        }
        p += 1;
    }
    if q % p != 0 {
        return Some((q, 1)); // q itself is prime
    }
    let (mut rest, mut e) = (q, 0);
    while rest % p == 0 {
        rest /= p;
        e += 1;
    }
    (rest == 1).then_some((p, e))
}

/// True when `q` is a prime power.
pub fn is_prime_power(q: u32) -> bool {
    prime_power(q).is_some()
}

#[cfg(test)]
/// True when `n` is prime.
pub(crate) fn is_prime(n: u32) -> bool {
    matches!(prime_power(n), Some((_, 1)))
}

/// The nearest prime powers below and above `q` (for error hints).
pub(crate) fn nearest_prime_powers(q: u32) -> (Option<u32>, Option<u32>) {
    let below = (2..q).rev().find(|&x| is_prime_power(x));
    let above = (q.saturating_add(1)..=q.saturating_mul(2).max(4)).find(|&x| is_prime_power(x));
    (below, above)
}

/// A human hint naming the nearest valid orders, e.g. "nearest prime powers: 5, 7".
pub(crate) fn prime_power_hint(q: u32) -> String {
    match nearest_prime_powers(q) {
        (Some(b), Some(a)) => format!("nearest prime powers: {b}, {a}"),
        (None, Some(a)) => format!("smallest prime power: {a}"),
        (Some(b), None) => format!("nearest prime power: {b}"),
        (None, None) => "orders must be prime powers (2, 3, 4, 5, 7, 8, 9, ...)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_small_numbers() {
        let pp: Vec<u32> = (0..=32).filter(|&q| is_prime_power(q)).collect();
        assert_eq!(
            pp,
            vec![2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32]
        );
        assert_eq!(prime_power(256), Some((2, 8)));
        assert_eq!(prime_power(243), Some((3, 5)));
        assert_eq!(prime_power(169), Some((13, 2)));
        assert_eq!(prime_power(6), None);
        assert!(is_prime(251) && !is_prime(249));
    }

    #[test]
    fn hints_name_neighbours() {
        assert_eq!(nearest_prime_powers(6), (Some(5), Some(7)));
        assert_eq!(nearest_prime_powers(1), (None, Some(2)));
        assert_eq!(prime_power_hint(10), "nearest prime powers: 9, 11");
    }
}
