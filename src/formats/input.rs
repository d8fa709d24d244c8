//! Reading an input argument: a file, or `-` for standard input (read once: a second
//! argument naming `-` is refused, since the first one consumed the stream). A file
//! literally named `-` is never read; write `./-` for it.

use super::outpath::is_dash;
use crate::error::{Error, Result};
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

static STDIN_TAKEN: AtomicBool = AtomicBool::new(false);

/// The bytes of `path`, or of standard input for `-`.
pub fn read(path: &Path) -> std::result::Result<Vec<u8>, ReadError> {
    if is_dash(path) {
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            return Err(ReadError::Input(Error::input(
                "-",
                "standard input was already read for another argument",
                Some("give at most one `-` per command".into()),
            )));
        }
        let mut v = Vec::new();
        std::io::stdin().lock().read_to_end(&mut v).map_err(ReadError::Io)?;
        return Ok(v);
    }
    std::fs::read(path).map_err(ReadError::Io)
}

/// Why [`read`] failed: the operating system's error (callers word it, e.g. "no such
/// schedule file"), or an input error already worded.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The argument itself is wrong (`-` twice).
    Input(Error),
}

impl ReadError {
    /// The usual wording: `cannot read PATH: <os error>`.
    pub fn into_error(self, path: &Path) -> Error {
        match self {
            ReadError::Io(e) => Error::io(format!("cannot read {}", display(path)), e),
            ReadError::Input(e) => e,
        }
    }
}

/// How an input path is named in messages: `-` is `<stdin>`.
pub fn display(path: &Path) -> String {
    if is_dash(path) {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// [`read`] with the usual error wording.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    read(path).map_err(|e| e.into_error(path))
}

/// [`read_bytes`] as UTF-8 text (an input error naming the file otherwise).
pub fn read_text(path: &Path) -> Result<String> {
    String::from_utf8(read_bytes(path)?).map_err(|_| {
        let e = std::io::Error::new(std::io::ErrorKind::InvalidData, "stream did not contain valid UTF-8");
        Error::io(format!("cannot read {}", display(path)), e)
    })
}
