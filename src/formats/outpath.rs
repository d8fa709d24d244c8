//! Where an output path really leads. `--out` is often a path an administrator set up:
//! a symlink into OpenSM's configuration, `/dev/stdout`, a FIFO a job reads from. ibfat
//! must write *through* such a path, never replace it: a symlink is followed to its final
//! target (and the atomic rename happens there), a device or FIFO is written as a stream,
//! and `-` is standard output. A file literally named `-` is never created.

use crate::error::{Error, Result};
use std::fs;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// How many symlinks are followed before the path is refused (as the kernel does).
const MAX_LINKS: usize = 40;

/// A resolved output path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OutPath {
    /// `-`: standard output, streamed.
    Stdout,
    /// A regular file (existing or not), after following symlinks: written to a temporary
    /// file beside it and renamed into place.
    File(PathBuf),
    /// A character or block device or a FIFO: opened and written as a stream (no rename
    /// could replace it without breaking whoever set it up).
    Stream(PathBuf),
}

/// True when a path argument means standard input or output.
pub fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

fn refuse(path: &Path, why: &str) -> Error {
    Error::input(
        "out",
        format!("{} {why}", path.display()),
        Some("give a regular file, a symlink to one, a device, a FIFO or `-` for standard output".into()),
    )
}

impl OutPath {
    /// Resolve an output path: `-`, then symlinks to their final target; a folder or a
    /// socket is refused (input error, exit 2).
    pub(crate) fn resolve(path: &Path) -> Result<OutPath> {
        if is_dash(path) {
            return Ok(OutPath::Stdout);
        }
        // what the path finally leads to (the kernel follows `/dev/stdout` -> `/proc/self/fd/1`
        // -> a pipe, which no textual resolution can)
        match fs::metadata(path) {
            Ok(m) => {
                let ft = m.file_type();
                if ft.is_char_device() || ft.is_block_device() || ft.is_fifo() {
                    return Ok(OutPath::Stream(path.to_path_buf()));
                }
                if ft.is_file() {
                    let real = fs::canonicalize(path)
                        .map_err(|e| Error::io(format!("cannot resolve {}", path.display()), e))?;
                    return Ok(OutPath::File(real));
                }
                if ft.is_dir() {
                    return Err(refuse(path, "is a folder, not a file"));
                }
                return Err(refuse(path, "is a socket or another special file ibfat cannot write"));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                return Err(refuse(path, "is a chain of too many symlinks"))
            }
            Err(e) => return Err(Error::io(format!("cannot inspect {}", path.display()), e)),
        }
        // missing, or a dangling symlink: follow the chain to the name to create
        let mut p = path.to_path_buf();
        for _ in 0..MAX_LINKS {
            let meta = match fs::symlink_metadata(&p) {
                Ok(m) => m,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(OutPath::File(p)),
                Err(e) => return Err(Error::io(format!("cannot inspect {}", p.display()), e)),
            };
            let ft = meta.file_type();
            if ft.is_symlink() {
                let target =
                    fs::read_link(&p).map_err(|e| Error::io(format!("cannot read link {}", p.display()), e))?;
                p = match p.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
                continue;
            }
            if ft.is_file() {
                return Ok(OutPath::File(p));
            }
            if ft.is_char_device() || ft.is_block_device() || ft.is_fifo() {
                return Ok(OutPath::Stream(p));
            }
            if ft.is_dir() {
                return Err(refuse(path, "is a folder, not a file"));
            }
            return Err(refuse(path, "is a socket or another special file ibfat cannot write"));
        }
        Err(refuse(path, "is a chain of too many symlinks"))
    }
}

/// Resolve an output folder: `-` is refused (a folder cannot be standard output), a
/// symlink leads to its final target (which is where files are published), anything
/// that exists and is not a folder is refused.
pub(crate) fn resolve_dir(dir: &Path) -> Result<PathBuf> {
    if is_dash(dir) {
        return Err(Error::input(
            "out",
            "`-` (standard output) cannot receive a folder of files",
            Some("give a folder".into()),
        ));
    }
    match fs::canonicalize(dir) {
        Ok(real) if real.is_dir() => Ok(real),
        Ok(_) => Err(Error::input(
            "out",
            format!("{} exists and is not a folder", dir.display()),
            None,
        )),
        // missing (or a dangling link: creating the folder goes through the link)
        Err(_) => Ok(dir.to_path_buf()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_devices_and_dash() {
        let t = tempfile::tempdir().unwrap();
        let target = t.path().join("real.json");
        fs::write(&target, "x").unwrap();
        let link = t.path().join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        assert_eq!(OutPath::resolve(&link).unwrap(), OutPath::File(target.clone()));
        assert_eq!(OutPath::resolve(Path::new("-")).unwrap(), OutPath::Stdout);
        assert_eq!(
            OutPath::resolve(Path::new("/dev/null")).unwrap(),
            OutPath::Stream("/dev/null".into())
        );
        assert!(OutPath::resolve(t.path()).unwrap_err().is_input());
        let dangling = t.path().join("dangling");
        std::os::unix::fs::symlink("new.json", &dangling).unwrap();
        assert_eq!(
            OutPath::resolve(&dangling).unwrap(),
            OutPath::File(t.path().join("new.json"))
        );
        let lp = t.path().join("loop");
        std::os::unix::fs::symlink("loop", &lp).unwrap();
        assert!(OutPath::resolve(&lp).unwrap_err().is_input());
    }
}
