//! The hash keys of the readers: node ids and GUIDs, hashed by FxHash, short node ids
//! packed into the key itself (and kept in a table of their own, [`ShortIds`]).

/// The readers' hash map (FxHash: [`crate::guid::FxMap`]).
pub(super) use crate::guid::FxMap;

/// A node id of at most 23 bytes (ibnetdiscover's `S-<16 hex>`, ibsim's names), packed
/// with its length into the key itself: a lookup then compares table memory instead of
/// reaching back into the text for the id it stored, a cache miss per port line.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct ShortId([u64; 3]);

impl ShortId {
    pub(super) const MAX: usize = 23;

    pub(super) fn new(s: &str) -> Option<Self> {
        let b = s.as_bytes();
        if b.len() > Self::MAX {
            return None;
        }
        // whole words, then the last bytes one by one: a copy of a few bytes is a call to
        // `memcpy`
        let mut words = [0u64, 0, (b.len() as u64) << 56];
        let mut full = b.chunks_exact(8);
        for (w, c) in words.iter_mut().zip(&mut full) {
            *w = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        }
        let last = &mut words[b.len() / 8];
        for (i, &c) in full.remainder().iter().enumerate() {
            *last |= u64::from(c) << (8 * i);
        }
        Some(ShortId(words))
    }

    /// The key of the id at `b[at..at + len]`, read a word at a time from the text around
    /// it (the bytes past the id masked off): a copy of a few bytes was a call to `memcpy`
    /// per port line.
    #[inline]
    pub(super) fn from_text(b: &[u8], at: usize, len: usize) -> Option<Self> {
        if len > Self::MAX {
            return None;
        }
        let Some(w) = b.get(at..at + 24) else {
            // near the end of the text
            return std::str::from_utf8(b.get(at..at + len)?).ok().and_then(Self::new);
        };
        let word = |i: usize| u64::from_le_bytes(w[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]));
        // the low `n` bytes of a word (n at most 8)
        let low = |v: u64, n: usize| v & u64::MAX.checked_shr(64 - 8 * n as u32).unwrap_or(0);
        let tag = (len as u64) << 56;
        Some(ShortId(if len <= 8 {
            // most ids (`H12_3`, `L40`, `S7`)
            [low(word(0), len), 0, tag]
        } else if len <= 16 {
            [word(0), low(word(1), len - 8), tag]
        } else {
            [word(0), word(1), low(word(2), len - 16) | tag]
        }))
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

/// A table position no id holds.
const EMPTY: u32 = u32::MAX;

/// Short node ids to their slots: open addressing over a power-of-two table of indices
/// into the ids in the order they came, probed linearly from a multiplicative hash of the
/// key's words. A hashbrown lookup through the entry API cost about 60 instructions, the
/// largest single cost of a net file's port line.
pub(super) struct ShortIds {
    /// Per position: the index in `ids` of the id that took it, or [`EMPTY`].
    table: Vec<u32>,
    /// The ids and their slots, in the order they came.
    ids: Vec<(ShortId, u32)>,
    /// 64 minus the log2 of the table's length: the hash's high bits index it.
    shift: u32,
}

impl ShortIds {
    /// Room for `n` ids before the table grows.
    pub(super) fn with_capacity(n: usize) -> Self {
        let len = (2 * n).next_power_of_two().max(16);
        ShortIds {
            table: vec![EMPTY; len],
            ids: Vec::with_capacity(n),
            shift: 64 - len.trailing_zeros(),
        }
    }

    /// Where the probe for `k` starts.
    #[inline]
    fn home(&self, k: &ShortId) -> usize {
        let [a, b, c] = k.0;
        let h = (a ^ b.rotate_left(21) ^ c.rotate_left(43)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> self.shift) as usize
    }

    /// The slot of `k`; a new id takes `next` (the caller's next slot).
    #[inline]
    pub(super) fn slot_or_insert(&mut self, k: ShortId, next: u32) -> u32 {
        let mask = self.table.len() - 1;
        let mut at = self.home(&k);
        loop {
            match self.table[at] {
                EMPTY => {
                    // at most half the positions taken: probes stay short
                    if 2 * (self.ids.len() + 1) > self.table.len() {
                        self.grow();
                        return self.slot_or_insert(k, next);
                    }
                    self.table[at] = self.ids.len() as u32;
                    self.ids.push((k, next));
                    return next;
                }
                i => {
                    if let Some(&(id, slot)) = self.ids.get(i as usize) {
                        if id == k {
                            return slot;
                        }
                    }
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// Twice the positions, every id placed again.
    fn grow(&mut self) {
        let len = self.table.len() * 2;
        self.table = vec![EMPTY; len];
        self.shift = 64 - len.trailing_zeros();
        let mask = len - 1;
        for (i, (k, _)) in self.ids.iter().enumerate() {
            let mut at = self.home(k);
            while self.table[at] != EMPTY {
                at = (at + 1) & mask;
            }
            self.table[at] = i as u32;
        }
    }

    /// Every id and its slot.
    pub(super) fn iter(&self) -> impl Iterator<Item = &(ShortId, u32)> {
        self.ids.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::{ShortId, ShortIds};

    /// A key read from the text around an id is the key of the id alone.
    #[test]
    fn keys_from_the_text_are_the_ids_keys() {
        let ids = [
            "",
            "H",
            "H0_16",
            "12345678",
            "123456789",
            "S-0002c90000001003",
            "12345678901234567890123",
        ];
        for id in ids {
            for (before, after) in [("", ""), ("[1]\t\"", "\"[2]\n"), ("xx", &"\u{e9}z".repeat(20))] {
                let text = format!("{before}{id}{after}");
                let k = ShortId::from_text(text.as_bytes(), before.len(), id.len());
                assert!(k == ShortId::new(id), "{text:?}");
            }
        }
        assert!(ShortId::from_text(&[b'a'; 40], 0, 24).is_none());
        assert!(ShortId::from_text(b"ab", 1, 5).is_none(), "past the end");
    }

    /// The table gives every id one slot, the first it was given, through its growth.
    #[test]
    fn short_ids_keep_their_slots() {
        let mut t = ShortIds::with_capacity(3);
        let names: Vec<String> = (0..5000).map(|i| format!("{}{i}", ["H", "L", "S-00"][i % 3])).collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.slot_or_insert(ShortId::new(n).unwrap(), i as u32), i as u32);
        }
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.slot_or_insert(ShortId::new(n).unwrap(), 99_999), i as u32, "{n}");
        }
        assert_eq!(t.iter().count(), names.len());
        assert!(t.iter().all(|(k, s)| k.text() == names[*s as usize]));
    }

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
