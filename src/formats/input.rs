//! Reading an input argument, with bounds: a file, or `-` for standard input.
//!
//! `-` is read once: a second argument naming `-` is refused, since the first one consumed
//! the stream; a file literally named `-` is never read (write `./-` for it). Messages name
//! standard input `<stdin>`.
//!
//! A hostile or mistaken input (`/dev/zero`, a binary file, an endless pipe, a
//! multi-gigabyte line) must end in a clear error naming the file, not in a process that
//! grows until the kernel kills it. Every reader of the crate goes through [`read`] (or
//! [`read_bytes`], [`read_text`]) with a [`Limits`] that fits its format: the largest
//! file a real fabric can produce in that format, with room to spare. Text formats also
//! refuse NUL bytes (no tool ibfat reads writes them; `/dev/zero` and binary files are
//! full of them) and, where the format is line based, overlong lines.

use super::outpath::is_dash;
use crate::error::{Error, Result};
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use std::os::unix::fs::OpenOptionsExt;

static STDIN_TAKEN: AtomicBool = AtomicBool::new(false);

/// Bounds for one input format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// What the file is, for messages (`ibnetdiscover dump`, `fabric spec` ...).
    pub what: &'static str,
    /// Largest accepted size in bytes.
    pub max_bytes: u64,
    /// Longest accepted line in bytes (`None`: any layout, e.g. JSON).
    pub max_line: Option<usize>,
    /// Only a regular file (or a symlink to one) is read: a FIFO, device, socket, folder
    /// or `-` is refused before a byte is read. For the files a daemon reads (the OpenSM
    /// plugin's role files), which must never wait on a writer.
    pub regular_only: bool,
}

const MIB: u64 = 1 << 20;

/// Line limit of the line-based formats: real lines are a few hundred bytes at most.
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// ibnetdiscover output, ports reports and ibsim net files (the topology.net of the largest
/// plan ibfat builds, 2^20 hosts, is about 200 MB).
pub(crate) const DUMP: Limits = Limits {
    what: "fabric dump",
    max_bytes: 1024 * MIB,
    max_line: Some(MAX_LINE),
    regular_only: false,
};

/// LFT dumps (OpenSM's opensm-lfts.dump, dump_lfts, ibroute): one line per switch and
/// LID, LSFT(17)'s is 277 MB and LSFT(32)'s 5.8 GB. They are read line by line into the
/// tables ([`read_lines`]), so the bound is on time, not memory: a full LID space (49,151
/// LIDs) over 16,384 switches at ~80 bytes a line.
pub(crate) const LFT_DUMP: Limits = Limits {
    what: "LFT dump",
    max_bytes: 64 * 1024 * MIB,
    max_line: Some(MAX_LINE),
    regular_only: false,
};

/// guid2lid files: one line per port GUID (49151 unicast LIDs at most).
pub const GUID2LID: Limits = Limits {
    what: "guid2lid file",
    max_bytes: 64 * MIB,
    max_line: Some(MAX_LINE),
    regular_only: false,
};

/// Node name maps: one line per node.
pub const NODE_NAME_MAP: Limits = Limits {
    what: "node name map",
    max_bytes: 64 * MIB,
    max_line: Some(MAX_LINE),
    regular_only: false,
};

/// fabric.yaml specs: a dozen keys.
pub const SPEC: Limits = Limits {
    what: "fabric spec",
    max_bytes: crate::topology::spec::MAX_SPEC_BYTES,
    max_line: Some(MAX_LINE),
    regular_only: false,
};

/// Job files: one host per line.
pub(crate) const JOB: Limits = Limits {
    what: "job file",
    max_bytes: 64 * MIB,
    max_line: Some(MAX_LINE),
    regular_only: false,
};

/// Schedule JSON files (any layout; an all-to-all over LSFT(17)'s hosts is ~0.7 GB).
pub(crate) const SCHEDULE: Limits = Limits {
    what: "schedule file",
    max_bytes: 4096 * MIB,
    max_line: None,
    regular_only: false,
};

/// Shard files of `check --shard` (JSON reports).
pub(crate) const SHARD: Limits = Limits {
    what: "shard file",
    max_bytes: 1024 * MIB,
    max_line: None,
    regular_only: false,
};

/// The bytes of `path`, or of standard input for `-`, within `limits` (see the module
/// documentation): whole, or an error saying which bound the input broke.
pub(crate) fn read(path: &Path, limits: Limits) -> std::result::Result<Vec<u8>, ReadError> {
    if is_dash(path) {
        if limits.regular_only {
            return Err(ReadError::Input(Error::input(
                "-",
                format!("a {} is read from a file, not from standard input", limits.what),
                None,
            )));
        }
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            return Err(ReadError::Input(Error::input(
                "-",
                "standard input was already read for another argument",
                Some("give at most one `-` per command".into()),
            )));
        }
        return read_from(std::io::stdin().lock(), Path::new("<stdin>"), limits).map_err(ReadError::Input);
    }
    // opening a FIFO without a writer must not wait: open without blocking, then look
    let file = open_nonblocking(path).map_err(ReadError::Io)?;
    let kind = file.metadata().map_err(ReadError::Io)?.file_type();
    if limits.regular_only && !kind.is_file() {
        return Err(ReadError::Input(
            Error::at(
                path,
                0,
                format!(
                    "not a regular file ({}): a {} must be a file",
                    file_kind(kind),
                    limits.what
                ),
            )
            .with_hint("give the path of a regular file (a FIFO or device could make the reader wait forever)"),
        ));
    }
    read_from(file, path, limits).map_err(ReadError::Input)
}

/// Open for reading without waiting: a FIFO with no writer opens at once (and then reads
/// as empty) instead of blocking until someone opens it for writing.
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

/// What a path that is not a regular file is, for messages.
pub fn file_kind(t: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_dir() {
        "a folder"
    } else {
        "not a file"
    }
}

/// Why [`read`] failed: the file could not be opened (callers word it, e.g. "no such
/// schedule file"), or an error already worded (a broken bound, `-` twice, a failed read).
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The file could not be opened.
    Io(std::io::Error),
    /// The input itself is wrong, or reading it failed (already worded).
    Input(Error),
}

impl ReadError {
    /// The usual wording: `cannot read PATH: <os error>`.
    pub(crate) fn into_error(self, path: &Path) -> Error {
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
pub(crate) fn read_bytes(path: &Path, limits: Limits) -> Result<Vec<u8>> {
    read(path, limits).map_err(|e| e.into_error(path))
}

/// [`read_bytes`] as text: bytes that are not UTF-8 are replaced (descriptions are free
/// text, so one bad byte costs one field).
pub fn read_text(path: &Path, limits: Limits) -> Result<String> {
    let bytes = read_bytes(path, limits)?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// The error of an input beyond its format's size bound.
fn too_large(path: &Path, limits: Limits) -> Error {
    Error::at(
        path,
        0,
        format!(
            "size: the file is larger than {} bytes, more than any real {} (valid: 0..={} bytes)",
            limits.max_bytes, limits.what, limits.max_bytes
        ),
    )
    .with_hint("is this the right file? a device or an endless pipe is not an input")
}

/// One read: retried when interrupted, and polled while a pipe opened without blocking
/// has a writer that has not written yet; 0 at the end.
fn read_some(r: &mut impl Read, buf: &mut [u8], path: &Path) -> Result<usize> {
    loop {
        match r.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(std::time::Duration::from_millis(2))
            }
            Err(e) => return Err(Error::io(format!("cannot read {}", path.display()), e)),
        }
    }
}

/// [`read`] from any reader; `path` names it in messages.
pub(crate) fn read_from(mut r: impl Read, path: &Path, limits: Limits) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let (mut line, mut line_len) = (1usize, 0usize);
    loop {
        let n = match read_some(&mut r, &mut chunk, path)? {
            0 => break,
            n => n,
        };
        if out.len() as u64 + n as u64 > limits.max_bytes {
            return Err(too_large(path, limits));
        }
        for (i, &b) in chunk[..n].iter().enumerate() {
            match b {
                0 => {
                    return Err(Error::at(
                        path,
                        line,
                        format!(
                            "a NUL byte at byte {}: a {} is text (is this a binary file or a device?)",
                            out.len() + i,
                            limits.what
                        ),
                    ))
                }
                b'\n' => {
                    line += 1;
                    line_len = 0;
                }
                _ => {
                    line_len += 1;
                    if let Some(max) = limits.max_line {
                        if line_len > max {
                            return Err(Error::at(
                                path,
                                line,
                                format!("line length: the line is longer than {max} bytes (valid: 0..={max} bytes per line in a {})", limits.what),
                            ));
                        }
                    }
                }
            }
        }
        out.extend_from_slice(&chunk[..n]);
    }
    Ok(out)
}

/// [`read`] line by line, for inputs too big to hold (the LFT dump of LSFT(32) is 5.8 GB):
/// `line` gets every line, without its `\n`, and its number. The bounds are those of
/// [`read`], checked over the whole input even after the caller has seen enough, so an
/// input breaks a bound here exactly when [`read`] refuses it.
pub(crate) fn read_lines(path: &Path, limits: Limits, line: impl FnMut(&[u8], usize)) -> Result<()> {
    if is_dash(path) {
        if limits.regular_only {
            return Err(Error::input(
                "-",
                format!("a {} is read from a file, not from standard input", limits.what),
                None,
            ));
        }
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            return Err(Error::input(
                "-",
                "standard input was already read for another argument",
                Some("give at most one `-` per command".into()),
            ));
        }
        return lines_from(std::io::stdin().lock(), Path::new("<stdin>"), limits, line);
    }
    let file = open_nonblocking(path).map_err(|e| ReadError::Io(e).into_error(path))?;
    lines_from(file, path, limits, line)
}

/// [`read_lines`] from any reader; `path` names it in messages.
pub(crate) fn lines_from(
    mut r: impl Read,
    path: &Path,
    limits: Limits,
    mut line: impl FnMut(&[u8], usize),
) -> Result<()> {
    const CHUNK: usize = 4 << 20;
    let mut buf: Vec<u8> = Vec::with_capacity(2 * CHUNK);
    // bytes dropped from the front of `buf`, and the number of the line `buf` starts with
    let (mut base, mut lineno) = (0u64, 1usize);
    loop {
        let old = buf.len();
        buf.resize(old + CHUNK, 0);
        let n = read_some(&mut r, &mut buf[old..], path)?;
        buf.truncate(old + n);
        if n == 0 {
            break;
        }
        if base + buf.len() as u64 > limits.max_bytes {
            return Err(too_large(path, limits));
        }
        let nul = buf[old..].contains(&0);
        let mut start = 0;
        while let Some(k) = super::text::find_byte(&buf[start.max(old)..], b'\n') {
            let end = start.max(old) + k;
            check_line(&buf[start..end], base + start as u64, lineno, path, limits, nul)?;
            line(&buf[start..end], lineno);
            lineno += 1;
            start = end + 1;
        }
        // the unfinished line so far: its bounds now, so that a line without end is refused
        check_line(&buf[start..], base + start as u64, lineno, path, limits, nul)?;
        buf.drain(..start);
        base += start as u64;
    }
    if !buf.is_empty() {
        line(&buf, lineno);
    }
    Ok(())
}

/// The bounds of one line starting at byte `at` (as [`read_from`] checks them byte by
/// byte: a NUL byte, else a line longer than allowed, whichever comes first).
fn check_line(l: &[u8], at: u64, lineno: usize, path: &Path, limits: Limits, nul: bool) -> Result<()> {
    let max = limits.max_line.unwrap_or(usize::MAX);
    let zero = if nul { l.iter().position(|&b| b == 0) } else { None };
    match zero {
        Some(i) if i <= max => Err(Error::at(
            path,
            lineno,
            format!(
                "a NUL byte at byte {}: a {} is text (is this a binary file or a device?)",
                at + i as u64,
                limits.what
            ),
        )),
        _ if l.len() > max => Err(Error::at(
            path,
            lineno,
            format!(
                "line length: the line is longer than {max} bytes (valid: 0..={max} bytes per line in a {})",
                limits.what
            ),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lim(max_bytes: u64, max_line: Option<usize>) -> Limits {
        Limits {
            what: "test file",
            max_bytes,
            max_line,
            regular_only: false,
        }
    }

    #[test]
    fn refuses_big_files_nul_bytes_and_long_lines() {
        let p = Path::new("in.txt");
        assert_eq!(read_from(&b"ab\ncd\n"[..], p, lim(6, Some(2))).unwrap(), b"ab\ncd\n");
        let e = read_from(&b"abcdefg"[..], p, lim(6, None)).unwrap_err().to_string();
        assert!(e.starts_with("in.txt: size: the file is larger than 6 bytes"), "{e}");
        let e = read_from(&b"ab\nc\0d"[..], p, lim(60, None)).unwrap_err().to_string();
        assert!(e.starts_with("in.txt:2: a NUL byte at byte 4"), "{e}");
        let e = read_from(&b"ab\nabc\n"[..], p, lim(60, Some(2)))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("in.txt:2: line length"), "{e}");
    }

    #[test]
    fn lines_match_read_and_its_bounds() {
        let p = Path::new("in.txt");
        let lines = |b: &[u8], l: Limits| {
            let mut v = Vec::new();
            lines_from(b, p, l, |x, n| v.push((String::from_utf8_lossy(x).into_owned(), n))).map(|_| v)
        };
        let text = "ab\n\ncd\r\nlast";
        let want: Vec<(String, usize)> = String::from_utf8_lossy(text.as_bytes())
            .split('\n')
            .enumerate()
            .map(|(i, l)| (l.to_string(), i + 1))
            .collect();
        assert_eq!(lines(text.as_bytes(), lim(60, Some(8))).unwrap(), want);
        assert_eq!(lines(b"a\nbb\n", lim(60, None)).unwrap().len(), 2);
        for (input, l) in [
            (&b"abcdefg"[..], lim(6, None)),
            (&b"ab\nc\0d"[..], lim(60, None)),
            (&b"ab\nabc\n"[..], lim(60, Some(2))),
            (&b"ab\nab\0\n"[..], lim(60, Some(2))),
            (&b"ab\nabc\0\n"[..], lim(60, Some(2))),
            (&b"0123456789"[..], lim(60, Some(4))),
        ] {
            let a = read_from(input, p, l).unwrap_err().to_string();
            assert_eq!(lines(input, l).unwrap_err().to_string(), a);
        }
    }

    #[test]
    fn dev_zero_is_refused_at_once() {
        let e = read_bytes(Path::new("/dev/zero"), DUMP).unwrap_err();
        assert!(e.is_input());
        assert!(e.to_string().starts_with("/dev/zero:1: a NUL byte at byte 0"), "{e}");
    }
}
