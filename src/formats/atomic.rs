//! Atomic output. A half-written LFT file makes OpenSM black-hole every LID it misses
//! and a half-written plan folder misleads installers, so every file ibfat writes goes
//! to a temporary name first and is renamed into place only when complete and synced.

use crate::error::{Error, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

fn tmp_sibling(path: &Path, tag: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    parent.join(format!(".{name}.{tag}-{}", std::process::id()))
}

fn sync_dir(dir: &Path) {
    // best effort: make the rename durable
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Write `bytes` to `path` atomically (temporary file in the same folder, fsync, rename).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    write_file_with(path, |w| w.write_all(bytes))
}

/// Stream a file atomically: `fill` writes into a buffered temporary file that is synced
/// and renamed to `path` only when `fill` succeeds (for outputs too big to hold twice).
pub fn write_file_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    let tmp = tmp_sibling(path, "tmp");
    let res = (|| -> std::io::Result<()> {
        let f = fs::File::create(&tmp)?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
        fill(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if let Err(e) = res {
        let _ = fs::remove_file(&tmp);
        return Err(Error::io(format!("cannot write {}", path.display()), e));
    }
    if let Some(parent) = path.parent() {
        sync_dir(if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        });
    }
    Ok(())
}

/// Write several files into an existing (or new) folder, each atomically. Files are
/// complete or absent; other files in the folder are left alone.
pub fn write_files(dir: &Path, files: &[(&str, Vec<u8>)]) -> Result<()> {
    fs::create_dir_all(dir).map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    for (name, bytes) in files {
        write_file(&dir.join(name), bytes)?;
    }
    Ok(())
}

/// Produce a whole folder atomically: the files are written into a temporary sibling
/// folder that is renamed to `dir` at the end. An existing `dir` is replaced only when
/// it holds nothing but files named in `ours` (an earlier run's output); otherwise the
/// call fails before writing anything.
pub fn write_dir(dir: &Path, files: &[(&str, Vec<u8>)], ours: &[&str]) -> Result<()> {
    if dir.exists() {
        if !dir.is_dir() {
            return Err(Error::input(
                "out",
                format!("{} exists and is not a folder", dir.display()),
                None,
            ));
        }
        let entries = fs::read_dir(dir).map_err(|e| Error::io(format!("cannot read {}", dir.display()), e))?;
        let mut foreign = Vec::new();
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !ours.contains(&name.as_str()) {
                foreign.push(name);
            }
        }
        if !foreign.is_empty() {
            foreign.sort();
            foreign.truncate(5);
            return Err(Error::input(
                "out",
                format!(
                    "{} holds files ibfat did not write ({})",
                    dir.display(),
                    foreign.join(", ")
                ),
                Some("give a new or empty folder, or one with an earlier ibfat plan".into()),
            ));
        }
    }
    let tmp = tmp_sibling(dir, "new");
    let _ = fs::remove_dir_all(&tmp);
    let res = (|| -> std::io::Result<()> {
        fs::create_dir_all(&tmp)?;
        for (name, bytes) in files {
            let mut f = fs::File::create(tmp.join(name))?;
            f.write_all(bytes)?;
            f.sync_all()?;
        }
        sync_dir(&tmp);
        if dir.exists() {
            let old = tmp_sibling(dir, "old");
            let _ = fs::remove_dir_all(&old);
            fs::rename(dir, &old)?;
            if let Err(e) = fs::rename(&tmp, dir) {
                let _ = fs::rename(&old, dir); // put the earlier plan back
                return Err(e);
            }
            let _ = fs::remove_dir_all(&old);
        } else {
            fs::rename(&tmp, dir)?;
        }
        Ok(())
    })();
    if let Err(e) = res {
        let _ = fs::remove_dir_all(&tmp);
        return Err(Error::io(format!("cannot write {}", dir.display()), e));
    }
    if let Some(parent) = dir.parent() {
        sync_dir(if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_is_all_or_nothing() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("plan");
        write_dir(&dir, &[("a.txt", b"1".to_vec())], &["a.txt", "b.txt"]).unwrap();
        write_dir(&dir, &[("b.txt", b"2".to_vec())], &["a.txt", "b.txt"]).unwrap();
        assert!(!dir.join("a.txt").exists(), "replaced, not merged");
        assert_eq!(fs::read(dir.join("b.txt")).unwrap(), b"2");
        fs::write(dir.join("mine.txt"), "user data").unwrap();
        let e = write_dir(&dir, &[("b.txt", b"3".to_vec())], &["b.txt"]).unwrap_err();
        assert!(e.to_string().contains("mine.txt"));
        assert_eq!(fs::read(dir.join("b.txt")).unwrap(), b"2", "nothing written on refusal");
        let leftovers: Vec<_> = fs::read_dir(t.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(leftovers.len(), 1, "no temporary folders left: {leftovers:?}");
    }

    #[test]
    fn single_file_replaces_atomically() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("x.dump");
        write_file(&p, b"old").unwrap();
        write_file(&p, b"new").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"new");
        assert!(write_file(&t.path().join("missing/x"), b"z").is_err());
    }
}
