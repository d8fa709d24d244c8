//! One grammar for the GUIDs and hex numbers of every text ibfat reads (node-name maps,
//! guid2lid, role files, SL files, schedules, specs, fingerprints): `0x` and 1 to 16 hex
//! digits, nothing else. Rust's `from_str_radix` alone also takes a sign (`0x+1f`), so
//! readers that used it accepted what others refused; every reader goes through here.
//! GUIDs and node ids are also the hash keys of the readers and recognisers: [`FxMap`].

use std::hash::{BuildHasherDefault, Hasher};

/// `0x` (or `0X`) and 1..=16 hex digits.
pub(crate) fn hex(s: &str) -> Option<u64> {
    let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    digits_value(digits, 16)
}

/// [`hex`], or decimal digits alone (a GUID as `strtoull(s, 0)` reads it, which is what
/// infiniband-diags' readers of node-name maps and OpenSM's guid files do).
pub(crate) fn hex_or_decimal(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(digits) => digits_value(digits, 16),
        None if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
        None => None,
    }
}

/// `0x` and 1..=4 hex digits: a LID.
pub(crate) fn hex_u16(s: &str) -> Option<u16> {
    let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    if digits.len() > 4 {
        return None;
    }
    digits_value(digits, 4).map(|v| v as u16)
}

/// The value of 1..=`max` hex digits (and nothing else).
fn digits_value(digits: &str, max: usize) -> Option<u64> {
    if digits.is_empty() || digits.len() > max {
        return None;
    }
    // one pass; `from_str_radix` would also take a sign, hence no shortcut through it
    digits.bytes().try_fold(0u64, |v, b| {
        let d = (b as char).to_digit(16)?;
        v.checked_mul(16)?.checked_add(u64::from(d))
    })
}

/// FxHash, the multiply-rotate hash rustc uses, for GUIDs, node ids and the other keys a
/// fabric gives (switch sets, host names): they are not adversarial keys, and SipHash
/// took a tenth of a dump's parse and most of grouping a SuperPOD unit's servers.
#[derive(Default, Clone, Copy)]
pub(crate) struct Fx(u64);

impl Fx {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let mut tail = [0u8; 8];
        let rest = chunks.remainder();
        tail[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(tail) ^ ((rest.len() as u64) << 59));
    }
    fn write_u8(&mut self, v: u8) {
        self.add(v as u64);
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    fn finish(&self) -> u64 {
        // the product's low bits see only its inputs' low bits; the table indexes by them
        self.0.rotate_left(26)
    }
}

/// A hash map keyed by node ids or GUIDs (or other keys of the fabric, never adversarial).
pub(crate) type FxMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<Fx>>;

/// A hash set of such keys.
pub(crate) type FxSet<K> = std::collections::HashSet<K, BuildHasherDefault<Fx>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_grammar() {
        assert_eq!(hex("0x0002c90300a1b2c3"), Some(0x0002_c903_00a1_b2c3));
        assert_eq!(hex("0XfF"), Some(255));
        for bad in [
            "0x+1f",
            "0x-1",
            "0x",
            "1f",
            "0x1_0",
            "0x12345678901234567",
            " 0x1",
            "0x1 ",
        ] {
            assert_eq!(hex(bad), None, "{bad}");
        }
        assert_eq!(hex_or_decimal("42"), Some(42));
        assert_eq!(hex_or_decimal("0x2a"), Some(42));
        for bad in ["+42", "-1", "", "4a", "0x+2a"] {
            assert_eq!(hex_or_decimal(bad), None, "{bad}");
        }
        assert_eq!(hex_u16("0xbfff"), Some(0xbfff));
        assert_eq!(hex_u16("0x1ffff"), None);
        assert_eq!(hex_u16("0x+1"), None);
    }
}
