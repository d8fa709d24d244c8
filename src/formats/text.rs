//! Strings from input that travel on into files other programs parse and onto terminals:
//! escaped for showing ([`escape_controls`], the one every error message goes through),
//! flattened for writing ([`flatten_controls`]), checked where a node enters a fabric
//! ([`check_label`]). The first and last live with the error and topology layers that use
//! them; they are gathered here for the writers and readers of this folder.

use std::borrow::Cow;

pub(crate) use crate::error::escape_controls;
pub(crate) use crate::topology::label::{check_label, MAX_DESC, MAX_NAME};

/// `s` with every control character replaced by a space, for text written into a file
/// another program parses line by line, where an escape would be read literally
/// (the descriptions in `opensm-lfts.dump` comments). The last line of defence behind
/// [`check_label`]: a fabric whose fields were set directly is still written safely.
pub(crate) fn flatten_controls(s: &str) -> Cow<'_, str> {
    if s.chars().any(char::is_control) {
        Cow::Owned(s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect())
    } else {
        Cow::Borrowed(s)
    }
}

/// The first `b` in `h`, eight bytes at a time.
pub(crate) fn find_byte(h: &[u8], b: u8) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let pattern = LO * b as u64;
    let mut i = 0;
    for c in h.chunks_exact(8) {
        let Ok(a) = <[u8; 8]>::try_from(c) else { break };
        let w = u64::from_le_bytes(a) ^ pattern;
        if w.wrapping_sub(LO) & !w & HI != 0 {
            break;
        }
        i += 8;
    }
    h[i..].iter().position(|&c| c == b).map(|k| i + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flattens_controls() {
        assert!(matches!(flatten_controls("L3 leaf"), Cow::Borrowed(_)));
        assert_eq!(flatten_controls("a\nb\r"), "a b ");
    }
}
