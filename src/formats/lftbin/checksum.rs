//! The content checksum of a table file (format version 2): what lets a reader trust the
//! bytes it read without recomputing the tables' fingerprint.
//!
//! Why not the fingerprint itself: [`crate::fingerprint`]'s FNV-1a is one byte-serial
//! pass (LSFT(32)'s 78 MB of tables: 0.1 s, as long as every other fixed cost of a
//! sharded check together), and its definition is fixed forever. This checksum is built
//! to be fast and parallel instead: every table is one block, hashed on its own (rayon),
//! four 8-byte words at a time in four independent lanes; the blocks' values are then
//! folded in file order.
//!
//! Definition (all words little-endian; `mix` is the SplitMix64 finalizer, a bijection):
//! * block `i` (0: the header without the checksum field, then the LID records and switch
//!   GUIDs; 1 + t: table t): lanes `L_j = S_j ⊕ i` (four fixed seeds); per 32 bytes, lane
//!   j takes word j: `L_j = rotl((L_j ⊕ w) · K, 31)` (K odd); a tail shorter than 32 bytes
//!   is zero-padded to one more step; then `B = len`, `B = mix(B ⊕ mix(L_j))` for j = 0..3;
//! * the checksum: `C = mix(blocks)`, `C = mix(C ⊕ B_i)` for every block in order.
//!
//! Every step is a bijection of the state for fixed input, so any change confined to one
//! 8-byte word of one block always changes the checksum (a flipped bit, one table entry);
//! other damage escapes it with probability about 2⁻⁶⁴. It guards against damage, not
//! forgery — as the fingerprints do.

use rayon::prelude::*;

const SEEDS: [u64; 4] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
];
const K: u64 = 0x9e37_79b9_7f4a_7c15;

#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[inline]
fn step(lanes: &mut [u64; 4], chunk: &[u8]) {
    for (j, lane) in lanes.iter_mut().enumerate() {
        let w = u64::from_le_bytes(chunk[8 * j..8 * j + 8].try_into().expect("8 bytes"));
        *lane = (*lane ^ w).wrapping_mul(K).rotate_left(31);
    }
}

/// The value of block `index` holding `bytes`.
fn block(bytes: &[u8], index: u64) -> u64 {
    let mut lanes = SEEDS.map(|s| s ^ index);
    let mut chunks = bytes.chunks_exact(32);
    for c in &mut chunks {
        step(&mut lanes, c);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut pad = [0u8; 32];
        pad[..rest.len()].copy_from_slice(rest);
        step(&mut lanes, &pad);
    }
    lanes.iter().fold(bytes.len() as u64, |b, &lane| mix(b ^ mix(lane)))
}

/// The checksum of a file whose metadata (header without the checksum field, LID
/// records, switch GUIDs) is `meta` and whose tables are `tables` rows of `stride` bytes,
/// in file order.
pub(super) fn of_file(meta: &[u8], tables: &[u8], stride: usize) -> u64 {
    of_rows(meta, &tables.chunks(stride.max(1)).collect::<Vec<_>>())
}

/// [`of_file`] for tables given as separate rows (the writer's, which holds them in the
/// fabric's switch order but writes them in GUID order).
pub(super) fn of_rows(meta: &[u8], rows: &[&[u8]]) -> u64 {
    let values: Vec<u64> = rows
        .par_iter()
        .enumerate()
        .map(|(t, row)| block(row, t as u64 + 1))
        .collect();
    let first = mix(rows.len() as u64 + 1) ^ block(meta, 0);
    values.iter().fold(mix(first), |c, &b| mix(c ^ b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Any change of one byte, anywhere (metadata or a table, in a full step or the
    /// padded tail), and moving a table changes the checksum.
    #[test]
    fn every_single_byte_change_and_every_move_is_seen() {
        let meta: Vec<u8> = (0..70u8).collect();
        let rows: Vec<Vec<u8>> = (0..5u8)
            .map(|t| (0..45u8).map(|e| e.wrapping_mul(7) ^ t).collect())
            .collect();
        let flat: Vec<u8> = rows.concat();
        let c = of_file(&meta, &flat, 45);
        let refs: Vec<&[u8]> = rows.iter().map(|r| r.as_slice()).collect();
        assert_eq!(of_rows(&meta, &refs), c);
        for i in 0..flat.len() {
            for bit in [1u8, 0x80] {
                let mut f = flat.clone();
                f[i] ^= bit;
                assert_ne!(of_file(&meta, &f, 45), c, "table byte {i}");
            }
        }
        for i in 0..meta.len() {
            let mut m = meta.clone();
            m[i] ^= 4;
            assert_ne!(of_file(&m, &flat, 45), c, "meta byte {i}");
        }
        // two tables swapped, one dropped, a zero byte appended
        let mut swapped = rows.clone();
        swapped.swap(1, 3);
        assert_ne!(of_file(&meta, &swapped.concat(), 45), c);
        assert_ne!(of_file(&meta, &rows[..4].concat(), 45), c);
        let mut longer = meta.clone();
        longer.push(0);
        assert_ne!(of_file(&longer, &flat, 45), c);
    }
}
