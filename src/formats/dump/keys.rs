//! The hash keys of the readers: node ids and GUIDs, hashed by FxHash, short node ids
//! packed into the key itself.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// FxHash, the multiply-rotate hash rustc uses: node ids and GUIDs of a local dump are
/// not adversarial keys, and SipHash took a tenth of the parse time.
#[derive(Default, Clone, Copy)]
pub(super) struct Fx(u64);

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

/// A hash map keyed by node ids or GUIDs.
pub(super) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// A node id of at most 23 bytes (ibnetdiscover's `S-<16 hex>`, ibsim's names), packed
/// with its length into the key itself: a lookup then compares table memory instead of
/// reaching back into the text for the id it stored, a cache miss per port line.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct ShortId([u64; 3]);

/// The three words as words: the derived hash of an array hashes its length and then
/// its 24 bytes as a byte string, twice the work.
impl Hash for ShortId {
    fn hash<H: Hasher>(&self, h: &mut H) {
        for w in self.0 {
            h.write_u64(w);
        }
    }
}

impl ShortId {
    pub(super) const MAX: usize = 23;

    pub(super) fn new(s: &str) -> Option<Self> {
        let b = s.as_bytes();
        if b.len() > Self::MAX {
            return None;
        }
        let mut bytes = [0u8; 24];
        bytes[..b.len()].copy_from_slice(b);
        bytes[23] = b.len() as u8;
        let word = |i: usize| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap_or_default());
        Some(ShortId([word(0), word(1), word(2)]))
    }

    pub(super) fn text(&self) -> String {
        let mut bytes = [0u8; 24];
        for (i, w) in self.0.iter().enumerate() {
            bytes[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
        }
        let len = usize::from(bytes[23]).min(Self::MAX);
        String::from_utf8_lossy(&bytes[..len]).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::ShortId;

    #[test]
    fn short_ids_keep_their_text_and_tell_ids_apart() {
        let ids = [
            "",
            "H",
            "L12",
            "H0_0",
            "1234567",
            "12345678",
            "123456789",
            "S-0002c90000001003",
            "1234567890123456",
            "12345678901234567",
            "12345678901234567890123",
            "\u{e9}t\u{e9}",
            "a\0",
        ];
        for a in ids {
            let k = ShortId::new(a).unwrap();
            assert_eq!(k.text(), a);
            for b in ids {
                assert_eq!(k == ShortId::new(b).unwrap(), a == b, "{a:?} {b:?}");
            }
        }
        assert!(
            ShortId::new("123456789012345678901234").is_none(),
            "24 bytes: a long id"
        );
    }
}
