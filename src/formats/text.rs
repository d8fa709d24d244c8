//! Strings from input that travel on into files other programs parse and onto terminals:
//! escaped for showing ([`escape_controls`], the one every error message goes through),
//! flattened for writing ([`flatten_controls`]), checked where a node enters a fabric
//! ([`check_label`]). The first and last live with the error and topology layers that use
//! them; they are gathered here for the writers and readers of this folder.

use std::borrow::Cow;

pub use crate::error::escape_controls;
pub use crate::topology::label::{check_label, MAX_DESC, MAX_NAME};

/// `s` with every control character replaced by a space, for text written into a file
/// another program parses line by line, where an escape would be read literally
/// (the descriptions in `opensm-lfts.dump` comments). The last line of defence behind
/// [`check_label`]: a fabric whose fields were set directly is still written safely.
pub fn flatten_controls(s: &str) -> Cow<'_, str> {
    if s.chars().any(char::is_control) {
        Cow::Owned(s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect())
    } else {
        Cow::Borrowed(s)
    }
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
