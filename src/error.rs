//! Errors: bad input, or an environment that failed us.
//!
//! The split matters to every front end: the CLI turns bad input into exit 2 and a failed
//! environment into exit 3, the C ABI into `IBFAT_E_INPUT` / `IBFAT_E_IO`, the OpenSM
//! plugin into a log line that says whose fault it was. The library only says which.
//!
//! Input errors always say where (file and line when there is one), which field, what
//! was expected, and a hint when a near-valid value exists.

use std::borrow::Cow;
use std::fmt;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Where in an input file a problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file as the user named it (or as found inside a plan folder).
    pub file: PathBuf,
    /// 1-based line number; 0 when the problem concerns the whole file.
    pub line: usize,
}

/// A problem with what the user gave us.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct InputError {
    /// The file and line, when the input was a file.
    pub location: Option<Location>,
    /// The parameter or field concerned (`order`, `hosts_per_leaf`, `port` ...).
    pub field: Option<String>,
    /// What is wrong and what was expected.
    pub message: String,
    /// A near-valid value or the command that helps, when there is one.
    pub hint: Option<String>,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.location {
            let file = loc.file.display().to_string();
            let file = escape_controls(&file);
            if loc.line > 0 {
                write!(f, "{file}:{}: ", loc.line)?;
            } else {
                write!(f, "{file}: ")?;
            }
        }
        // input text quoted in a message may hold newlines or escape sequences: shown
        // escaped, never acting on the terminal or forging lines in a log; and it may be
        // huge (a 120 KB pattern): shown elided, so an error stays a line
        let esc = |s: &str| elide(&escape_controls(s), MAX_QUOTED).into_owned();
        if let Some(field) = &self.field {
            write!(f, "{}: ", esc(field))?;
        }
        write!(f, "{}", esc(&self.message))?;
        if let Some(h) = &self.hint {
            write!(f, " (hint: {})", esc(h))?;
        }
        Ok(())
    }
}

/// Every error ibfat reports.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bad input (exit 2).
    #[error("{0}")]
    Input(Box<InputError>),
    /// I/O or environment failure (exit 3).
    #[error("{}: {source}", elide(&escape_controls(.context), MAX_QUOTED))]
    Io {
        /// What ibfat was doing (`cannot write lsft7/guid2lid`).
        context: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// An external program failed or is missing (exit 3).
    #[error("{}", elide(&escape_controls(.0), MAX_QUOTED))]
    Tool(String),
}

impl Error {
    /// A bad parameter or field, without a file location.
    pub fn input(field: impl Into<String>, message: impl Into<String>, hint: Option<String>) -> Error {
        Error::Input(Box::new(InputError {
            location: None,
            field: Some(field.into()),
            message: message.into(),
            hint,
        }))
    }

    /// A problem at a line of a file (line 0 = the file as a whole).
    pub fn at(file: impl AsRef<Path>, line: usize, message: impl Into<String>) -> Error {
        Error::Input(Box::new(InputError {
            location: Some(Location {
                file: file.as_ref().to_path_buf(),
                line,
            }),
            field: None,
            message: message.into(),
            hint: None,
        }))
    }

    /// Attach or replace a hint (input errors only).
    pub fn with_hint(mut self, hint: impl Into<String>) -> Error {
        if let Error::Input(e) = &mut self {
            e.hint = Some(hint.into());
        }
        self
    }

    /// Attach a file location to an input error that has none.
    pub fn in_file(mut self, file: impl AsRef<Path>, line: usize) -> Error {
        if let Error::Input(e) = &mut self {
            if e.location.is_none() {
                e.location = Some(Location {
                    file: file.as_ref().to_path_buf(),
                    line,
                });
            }
        }
        self
    }

    /// An I/O error with what we were doing.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            context: context.into(),
            source,
        }
    }

    /// Whether the user's input is at fault (as opposed to the environment).
    pub fn is_input(&self) -> bool {
        matches!(self, Error::Input(_))
    }
}

/// `s` with every control character (C0, DEL, C1: newlines, tabs, ESC ...) written as a
/// visible escape (`\n`, `\t`, `\x1b`, `\u{85}`), so that it can be shown on a terminal
/// or quoted in a message without acting on it (every input error is shown through it). Borrowed when there is nothing to escape.
pub(crate) fn escape_controls(s: &str) -> Cow<'_, str> {
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

/// The longest a message, field or hint of an error is shown (bytes): longer ones keep
/// their head and tail around a note of what was left out.
pub const MAX_QUOTED: usize = 2048;

/// `s` when it is at most `max` bytes; otherwise its first two thirds and last third of
/// `max` (on character boundaries) around `… (N bytes elided) …`.
pub fn elide(s: &str, max: usize) -> Cow<'_, str> {
    if s.len() <= max {
        return Cow::Borrowed(s);
    }
    let boundary = |mut i: usize| {
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let head = boundary(max * 2 / 3);
    let tail = boundary(s.len() - max / 3);
    let tail = if tail < head { head } else { tail };
    Cow::Owned(format!(
        "{} … ({} bytes elided) … {}",
        &s[..head],
        tail - head,
        &s[tail..]
    ))
}

/// The message of a caught panic (for the C ABI and the OpenSM plugin, which turn panics
/// into error codes and log lines instead of letting them unwind into C).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_errors_read_well() {
        let e = Error::input(
            "order",
            "6 is not a prime power",
            Some("nearest prime powers: 5, 7".into()),
        );
        assert_eq!(
            e.to_string(),
            "order: 6 is not a prime power (hint: nearest prime powers: 5, 7)"
        );
        assert!(e.is_input());
        assert!(matches!(escape_controls("L3 leaf"), Cow::Borrowed(_)));
        assert_eq!(escape_controls("a\nb\x1b[31m\u{85}\t"), "a\\nb\\x1b[31m\\u{85}\\t");
        let e = Error::at("topo.net", 12, "expected `[port] \"node\"[port]`");
        assert_eq!(e.to_string(), "topo.net:12: expected `[port] \"node\"[port]`");
    }
}
