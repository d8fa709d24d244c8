//! Strings from input that travel on: into files other programs parse (OpenSM's
//! `opensm-lfts.dump`, ibsim's net file, `cables.csv`, Graphviz) and onto terminals.
//!
//! A node description is free text in the dumps and the C ABI, but OpenSM's route-file
//! reader, ibsim and every line-based tool split on newlines: a description holding one
//! would forge lines (a `0x0001 005` entry read back by `opensm -R`). And an ANSI escape
//! sequence printed raw rewrites what an operator sees. So names and descriptions are
//! checked where a node enters a fabric ([`check_label`]), and whatever input text an
//! error message or report quotes is escaped ([`escape_controls`]).

use crate::error::{Error, Result};
use std::borrow::Cow;
use std::fmt::Write;

/// Longest node name ibfat accepts (names are short ids: `L3`, `S-0002c90000001003`).
pub const MAX_NAME: usize = 256;

/// Longest node description: the NodeDescription attribute is 64 bytes; dumps of some
/// vendors' tools pad or decorate it, so allow some more.
pub const MAX_DESC: usize = 256;

/// `s` with every control character (C0, DEL, C1: newlines, tabs, ESC ...) written as a
/// visible escape (`\n`, `\t`, `\x1b`, `\u{85}`), so that it can be shown on a terminal
/// or quoted in a message without acting on it. Borrowed when there is nothing to escape.
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 && c.is_control() => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Check a node name or description before it enters a fabric: no control characters
/// (they would split lines of the files written from it, or act on a terminal), no `"` in
/// names (names are quoted in dumps and net files), non-empty names, at most `max` bytes.
/// The error names `field` and says what is valid.
pub fn check_label(field: &str, s: &str, max: usize, is_name: bool) -> Result<()> {
    let bad = |msg: String| Err(Error::input(field, msg, None));
    if is_name && s.is_empty() {
        return bad("empty: a node name has 1 to 256 characters".into());
    }
    if s.len() > max {
        return bad(format!(
            "\"{}…\" is {} bytes long; valid: at most {max} bytes",
            escape_controls(&s[..s.floor_char_boundary_compat(40)]),
            s.len()
        ));
    }
    if let Some((at, c)) = s.char_indices().find(|&(_, c)| c.is_control()) {
        return bad(format!(
            "\"{}\" holds the control character {} at byte {at}; valid: printable text (no newlines, tabs or escape sequences)",
            escape_controls(s),
            escape_controls(c.encode_utf8(&mut [0; 4]))
        ));
    }
    if is_name && s.contains('"') {
        return bad(format!(
            "\"{}\" holds a double quote; valid: any printable text but `\"` (names are quoted in dumps and net files)",
            s
        ));
    }
    Ok(())
}

/// Helper for [`check_label`]'s message: the largest char boundary at or below `i`.
trait FloorBoundary {
    fn floor_char_boundary_compat(&self, i: usize) -> usize;
}

impl FloorBoundary for str {
    fn floor_char_boundary_compat(&self, i: usize) -> usize {
        let mut i = i.min(self.len());
        while !self.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

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
    fn escapes_and_checks() {
        assert!(matches!(escape_controls("L3 leaf"), Cow::Borrowed(_)));
        assert_eq!(escape_controls("a\nb\x1b[31m\u{85}\t"), "a\\nb\\x1b[31m\\u{85}\\t");
        assert_eq!(flatten_controls("a\nb\r"), "a b ");
        assert!(check_label("desc", "H3_1 HCA-1", MAX_DESC, false).is_ok());
        let e = check_label("desc", "x\n0x0001 005", MAX_DESC, false)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "desc: \"x\\n0x0001 005\" holds the control character \\n at byte 1; valid: printable text (no newlines, tabs or escape sequences)"
        );
        assert!(check_label("name", "", MAX_NAME, true).is_err());
        assert!(check_label("name", "a\"b", MAX_NAME, true).is_err());
        assert!(check_label("desc", "a\"b", MAX_DESC, false).is_ok());
        let e = check_label("desc", &"é".repeat(200), MAX_DESC, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("is 400 bytes long; valid: at most 256 bytes"), "{e}");
    }
}
