//! Eight bytes at a time in a `u64` ("SIMD within a register"): the word tests the
//! readers' hot paths use where a loop over bytes cost several instructions a byte
//! (node ids of port lines, GUIDs). Plain integer arithmetic: no `unsafe`, any target.

/// The bytes of `0x0101…`: a byte value times this is that byte in every lane.
const ONES: u64 = 0x0101_0101_0101_0101;

/// A mask whose lowest set bit is the high bit of the first byte of `w` equal to `c`
/// (zero when none is): the plain zero-byte test, whose borrow may mark bytes above the
/// first but never one below it. Cheaper than the exact mask where only the first counts.
#[inline(always)]
pub(super) fn first_bytes(w: u64, c: u8) -> u64 {
    let x = w ^ (u64::from(c) * ONES);
    x.wrapping_sub(ONES) & !x & (ONES << 7)
}

/// Eight hex digits (either case) as their value; `None` unless all eight are. By words:
/// a table lookup per digit cost about ten instructions a digit.
#[inline]
pub(super) fn hex8(digits: [u8; 8]) -> Option<u32> {
    const HIGH: u64 = ONES << 7;
    let w = u64::from_be_bytes(digits);
    // per byte below 0x80 (no carry between bytes): the high bit set where it is >= lo,
    // where it is <= hi (a byte above 0x7f may carry, but fails below anyway)
    let at_least = |x: u64, lo: u8| x.wrapping_add((0x80 - u64::from(lo)) * ONES) & HIGH;
    let at_most = |x: u64, hi: u8| ((0x80 + u64::from(hi)) * ONES).wrapping_sub(x) & HIGH;
    let lower = w | (0x20 * ONES);
    let digit = at_least(w, b'0') & at_most(w, b'9');
    let letter = at_least(lower, b'a') & at_most(lower, b'f');
    if w & HIGH != 0 || digit | letter != HIGH {
        return None;
    }
    // '0'..'9' -> 0..9; 'a'..'f' and 'A'..'F' (bit 6 set) -> 10..15
    let v = (w & (0x0f * ONES)) + 9 * ((w >> 6) & ONES);
    // the nibbles of the bytes together, the first digit the highest
    let v = (v | (v >> 4)) & 0x00ff_00ff_00ff_00ff;
    let v = (v | (v >> 8)) & 0x0000_ffff_0000_ffff;
    Some(((v | (v >> 16)) & 0xffff_ffff) as u32)
}

/// Sixteen hex digits at the start of `b` (a GUID as a net file writes it) as their value,
/// when no seventeenth follows; `None` otherwise (a digit-by-digit reading then decides).
#[inline]
pub(super) fn hex16(b: &[u8]) -> Option<u64> {
    let word = |at: usize| hex8(b.get(at..at + 8)?.try_into().ok()?);
    let (high, low) = (word(0)?, word(8)?);
    let more = b.get(16).is_some_and(|c| c.is_ascii_hexdigit());
    (!more).then_some(u64::from(high) << 32 | u64::from(low))
}

#[cfg(test)]
mod tests {
    use super::{first_bytes, hex16, hex8};

    #[test]
    fn hex16_takes_sixteen_digits_alone() {
        assert_eq!(hex16(b"00b6fdccf89e7370"), Some(0x00b6_fdcc_f89e_7370));
        assert_eq!(hex16(b"00B6FDCCF89E7370\n["), Some(0x00b6_fdcc_f89e_7370));
        assert_eq!(hex16(b"00b6fdccf89e7370(2c9)"), Some(0x00b6_fdcc_f89e_7370));
        for no in [
            &b"00b6fdccf89e73701"[..],
            b"00b6fdccf89e737",
            b"00b6fdccf89e737x",
            b"x0b6fdccf89e7370",
            b"",
        ] {
            assert_eq!(hex16(no), None, "{no:?}");
        }
    }

    /// Every byte value at every place, and a second odd byte after it: the same answer
    /// as a digit-by-digit reading.
    #[test]
    fn hex8_agrees_with_the_digits() {
        let reference = |d: [u8; 8]| {
            let s = std::str::from_utf8(&d).ok()?;
            s.bytes()
                .all(|b| b.is_ascii_hexdigit())
                .then(|| u32::from_str_radix(s, 16).ok())?
        };
        for at in 0..8 {
            for b in 0..=255u8 {
                for next in [b'0', b'f', b'F', b'g', 0x80, 0xff, b'/', b':', b'@', b'`'] {
                    let mut d = *b"0123abCD";
                    d[at] = b;
                    if at + 1 < 8 {
                        d[at + 1] = next;
                    }
                    assert_eq!(hex8(d), reference(d), "{d:?}");
                }
            }
        }
        assert_eq!(hex8(*b"ffffFFFF"), Some(u32::MAX));
        assert_eq!(hex8(*b"00000000"), Some(0));
    }

    /// The lowest mark is the first byte equal to the one sought, wherever the others are.
    #[test]
    fn first_bytes_finds_the_first() {
        for at in 0..8 {
            for other in 0..=255u8 {
                let mut w = [other; 8];
                w[at] = b'"';
                let first = w.iter().position(|&b| b == b'"').unwrap();
                let m = first_bytes(u64::from_le_bytes(w), b'"');
                assert_eq!(m.trailing_zeros() as usize / 8, first, "{w:?}");
            }
        }
        assert_eq!(first_bytes(u64::from_le_bytes(*b"abcdefgh"), b'"'), 0);
    }
}
