//! Fingerprints: short, stable names for "the exact thing an artefact was computed for".
//!
//! A schedule, a check shard or a path plan is only true for the fabric and the tables it
//! was computed on; after a reroute it silently lies. Artefacts therefore record
//! fingerprints of what they depend on, and readers compare them with what they have in
//! hand. FNV-1a (64 bit) is enough: the point is to catch a stale file, not an adversary
//! who forges one, and it is fixed forever (same input, same value on every machine and
//! release), which a general-purpose hasher does not promise.

/// An FNV-1a (64 bit) accumulator.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// An empty accumulator.
    pub(crate) fn new() -> Fnv1a {
        Fnv1a::default()
    }

    /// Mix in bytes.
    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> &mut Fnv1a {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }

    /// Mix in a number (little-endian bytes).
    pub(crate) fn u64(&mut self, v: u64) -> &mut Fnv1a {
        self.bytes(&v.to_le_bytes())
    }

    /// The value as artefacts record it: `0x` and 16 hex digits.
    pub(crate) fn hex(&self) -> String {
        format!("0x{:016x}", self.0)
    }
}

/// The number a fingerprint as artefacts record it (`0x` and hex digits) stands for, for
/// binary files that store it in 8 bytes; `None` when `hex` is not one.
pub(crate) fn value_of(hex: &str) -> Option<u64> {
    hex.strip_prefix("0x")?;
    crate::guid::hex(hex)
}

/// [`value_of`]'s inverse: `0x` and 16 hex digits.
pub(crate) fn hex_of(value: u64) -> String {
    format!("0x{value:016x}")
}

/// What an artefact was computed for, as it records it (`"computed_for"` in schedule files
/// and check shards).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComputedFor {
    /// The fabric's fingerprint (`Fabric::fingerprint`: its node GUIDs).
    pub fabric: String,
    /// The routes' fingerprint (`LftSet::fingerprint`: LIDs and forwarding tables), or
    /// `None` for an artefact computed from the topology alone, valid for any tables.
    pub lfts: Option<String>,
}

impl ComputedFor {
    /// Why an artefact recorded as `self` does not belong to `have` (the fabric and
    /// tables in hand), or `None` when it does. An artefact without tables fits any.
    pub fn mismatch(&self, have: &ComputedFor) -> Option<String> {
        if self.fabric != have.fabric {
            return Some(format!(
                "it was computed for the fabric {} but this fabric is {} (other node GUIDs)",
                self.fabric, have.fabric
            ));
        }
        match (&self.lfts, &have.lfts) {
            (Some(was), Some(now)) if was != now => Some(format!(
                "it was computed for the forwarding tables {was} but the tables in hand are {now} \
                 (the fabric was rerouted since)"
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // the published FNV-1a 64 test vectors
        assert_eq!(Fnv1a::new().hex(), "0xcbf29ce484222325");
        assert_eq!(Fnv1a::new().bytes(b"a").hex(), "0xaf63dc4c8601ec8c");
        assert_eq!(Fnv1a::new().bytes(b"foobar").hex(), "0x85944171f73967e8");
        let h = Fnv1a::new().bytes(b"foobar").hex();
        assert_eq!(value_of(&h).map(hex_of), Some(h));
        assert_eq!(value_of("0x"), None);
        assert_eq!(value_of("85944171f73967e8"), None);
    }
}
