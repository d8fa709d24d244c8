//! Atomic output. A half-written LFT file makes OpenSM black-hole every LID it misses
//! and a half-written plan folder misleads installers, so every file ibfat writes goes
//! to a temporary name first and is renamed into place only when complete and synced.
//!
//! ibfat runs as root in folders other users may write to, so temporary names are
//! unpredictable and created exclusively without following symlinks (a link planted at
//! a temporary name is never followed); every temporary path is registered with
//! [`cleanup`] so that an interrupted run removes it. Outputs are resolved with
//! [`OutPath`]: `-` is standard output, a symlink is written through to its target, a
//! device or FIFO is streamed — none of them is ever replaced by a regular file. Files
//! that must agree (an LFT dump and its `guid2lid`) are published as a group
//! ([`write_group`]): all temporary files are complete before the first rename, the
//! renames run under a lock on their folders (concurrent runs do not interleave) and
//! are never split by SIGINT/SIGTERM.

use super::cleanup::{self, Tracked};
use super::outpath::{resolve_dir, OutPath};
use crate::error::{Error, Result};
use std::collections::BTreeSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// A producer of one file's bytes, called once with a buffered writer.
pub type Fill<'a> = Box<dyn FnOnce(&mut dyn Write) -> io::Result<()> + 'a>;

/// Whether file groups wait for the disk before they are renamed into place ([`set_durable`]).
static DURABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Durable (the default): every file of a group ([`write_group`]) is synced before the
/// renames, so after a power loss a published file is whole. Not durable (`route
/// --no-sync`): files are still complete before they are renamed (no reader ever sees
/// half a file), but a power loss soon after may leave them empty — a trade a site makes
/// for a multi-gigabyte LFT dump it can regenerate, where the sync alone costs more than
/// the disk's write rate allows (LSFT(32): 5.8 GB). A process-wide policy, set once by the
/// command line.
pub fn set_durable(durable: bool) {
    DURABLE.store(durable, std::sync::atomic::Ordering::Relaxed);
}

/// 64 unpredictable bits for temporary names: the standard library's hash keys come
/// from the operating system's random source; the counter and clock keep names distinct
/// within a process.
fn random_suffix() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u32(std::process::id());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    h.write_u128(now);
    format!("{:016x}", h.finish())
}

fn parent_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

fn temp_name(path: &Path, tag: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    parent_of(path).join(format!(".{name}.{tag}-{}", random_suffix()))
}

/// Create a new file exclusively (`O_EXCL`, `O_NOFOLLOW`): whatever already sits at the
/// name, a planted symlink included, makes this fail instead of being followed.
fn create_exclusive(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
}

/// A fresh temporary file beside `path`, registered for cleanup.
fn temp_file_beside(path: &Path) -> io::Result<(File, PathBuf, Tracked)> {
    let mut last = None;
    for _ in 0..16 {
        let tmp = temp_name(path, "tmp");
        let guard = cleanup::track_file(tmp.clone());
        match create_exclusive(&tmp) {
            Ok(f) => return Ok((f, tmp, guard)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// A fresh temporary folder beside `path` (`mkdir` is exclusive), registered for cleanup.
fn temp_dir_beside(path: &Path, tag: &str) -> io::Result<(PathBuf, Tracked)> {
    let mut last = None;
    for _ in 0..16 {
        let tmp = temp_name(path, tag);
        match fs::create_dir(&tmp) {
            Ok(()) => {
                let guard = cleanup::track_dir(tmp.clone());
                return Ok((tmp, guard));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

fn sync_dir(dir: &Path) {
    // best effort: make the rename durable
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// An exclusive advisory lock on a folder, held while a group of files is renamed into
/// it, so that two runs publishing the same pair do not interleave their renames.
struct DirLock(#[allow(dead_code)] File);

impl DirLock {
    fn take(dir: &Path) -> Option<DirLock> {
        let f = File::open(dir).ok()?;
        rustix::fs::flock(&f, rustix::fs::FlockOperation::LockExclusive).ok()?;
        Some(DirLock(f))
    }
}

/// Write `bytes` to `path` atomically (temporary file in the same folder, fsync, rename).
/// `path` is resolved with [`OutPath`]: `-`, devices and FIFOs are streamed, symlinks
/// written through.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    write_file_with(path, |w| w.write_all(bytes))
}

/// Stream a file atomically: `fill` writes into a buffered temporary file that is synced
/// and renamed to `path` only when `fill` succeeds (for outputs too big to hold twice).
pub(crate) fn write_file_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<()> {
    write_group(vec![(path, Box::new(fill))])
}

fn stream_to(w: impl Write, fill: Fill<'_>) -> io::Result<()> {
    let mut w = io::BufWriter::with_capacity(1 << 20, w);
    fill(&mut w)?;
    w.flush()
}

struct Pending {
    tmp: PathBuf,
    target: PathBuf,
    _guard: Tracked,
}

/// Publish several files together: every one is complete (temporary file written and
/// synced) before the first is renamed into place, and the renames run back to back
/// under a lock on their folders and never split by an interruption. A failure before
/// the renames (a full disk, a failing producer) leaves every target as it was and no
/// temporary file behind. Outputs that are streams (`-`, a device, a FIFO) are written
/// directly, in order.
pub fn write_group(items: Vec<(&Path, Fill<'_>)>) -> Result<()> {
    write_group_gated(items, || Ok(true)).map(|_| ())
}

/// Two outputs of a group that are one file (the same path, or two names of it): the
/// second rename would replace the first and one output would be lost without a word.
fn refuse_the_same_file_twice(resolved: &[(&Path, OutPath, Fill<'_>)]) -> Result<()> {
    let key = |o: &OutPath| match o {
        OutPath::File(t) => {
            let dir = fs::canonicalize(parent_of(t)).unwrap_or_else(|_| parent_of(t).to_path_buf());
            Some(dir.join(t.file_name()?))
        }
        _ => None,
    };
    let keys: Vec<Option<PathBuf>> = resolved.iter().map(|(_, o, _)| key(o)).collect();
    for (i, a) in keys.iter().enumerate() {
        if let Some(j) = keys[..i].iter().position(|b| a.is_some() && b == a) {
            return Err(Error::input(
                "paths",
                format!(
                    "{} and {} are the same file: each output of a group is written once",
                    resolved[j].0.display(),
                    resolved[i].0.display()
                ),
                Some("give each output its own path".into()),
            ));
        }
    }
    Ok(())
}

/// [`write_group`] that publishes only if `gate` says so, for a check that runs while the
/// files are written (`route` validates its tables while it streams the dump): `gate` is
/// called once every file is complete and synced, before the first rename; when it
/// returns `false` (or an error) the temporary files are removed, every target stays as
/// it was, and the result is `Ok(false)` (or that error). When an output is a stream,
/// which cannot be taken back, `gate` runs before anything is written. `Ok(true)`: the
/// group was published.
pub(crate) fn write_group_gated(items: Vec<(&Path, Fill<'_>)>, gate: impl FnOnce() -> Result<bool>) -> Result<bool> {
    let resolved: Vec<(&Path, OutPath, Fill<'_>)> = items
        .into_iter()
        .map(|(p, f)| OutPath::resolve(p).map(|o| (p, o, f)))
        .collect::<Result<_>>()?;
    refuse_the_same_file_twice(&resolved)?;
    let folders: BTreeSet<PathBuf> = resolved
        .iter()
        .filter_map(|(_, o, _)| match o {
            OutPath::File(t) => Some(parent_of(t).to_path_buf()),
            _ => None,
        })
        .collect();
    let mut gate = Some(gate);
    if resolved.iter().any(|(_, o, _)| !matches!(o, OutPath::File(_))) {
        if let Some(g) = gate.take() {
            if !g()? {
                return Ok(false);
            }
        }
    }
    let _locks: Vec<DirLock> = folders.iter().filter_map(|d| DirLock::take(d)).collect();
    let mut pending: Vec<Pending> = Vec::new();
    let abort = |pending: &[Pending], path: &Path, e: io::Error| {
        for p in pending {
            let _ = fs::remove_file(&p.tmp);
        }
        Error::io(format!("cannot write {}", path.display()), e)
    };
    for (path, out, fill) in resolved {
        let res = match out {
            OutPath::Stdout => stream_to(io::stdout().lock(), fill),
            // a stream is opened through the path as given (`/dev/stdout` is a link)
            OutPath::Stream(dev) => OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_CLOEXEC)
                .open(&dev)
                .and_then(|f| stream_to(f, fill)),
            OutPath::File(target) => match temp_file_beside(&target) {
                Ok((f, tmp, guard)) => {
                    let written = (|| {
                        let mut w = io::BufWriter::with_capacity(1 << 20, f);
                        fill(&mut w)?;
                        let f = w.into_inner().map_err(|e| e.into_error())?;
                        if DURABLE.load(std::sync::atomic::Ordering::Relaxed) {
                            f.sync_all()?;
                        }
                        Ok(())
                    })();
                    pending.push(Pending {
                        tmp,
                        target,
                        _guard: guard,
                    });
                    written
                }
                Err(e) => Err(e),
            },
        };
        if let Err(e) = res {
            return Err(abort(&pending, path, e));
        }
    }
    if let Some(g) = gate.take() {
        let open = g();
        if !matches!(open, Ok(true)) {
            for p in &pending {
                let _ = fs::remove_file(&p.tmp);
            }
            return open;
        }
    }
    let renamed = cleanup::commit(|| {
        for (i, p) in pending.iter().enumerate() {
            if let Err(e) = fs::rename(&p.tmp, &p.target) {
                return Err((i, e));
            }
        }
        Ok(())
    });
    if let Err((i, e)) = renamed {
        let target = pending[i].target.clone();
        return Err(abort(&pending[i..], &target, e));
    }
    for d in &folders {
        sync_dir(d);
    }
    Ok(true)
}

/// Write several files into an existing (or new) folder as one group ([`write_group`]):
/// they are published together or not at all; other files in the folder are left alone.
pub fn write_files(dir: &Path, files: &[(&str, Vec<u8>)]) -> Result<()> {
    let items: Vec<(&str, Fill<'_>)> = files
        .iter()
        .map(|(name, bytes)| (*name, Box::new(move |w: &mut dyn Write| w.write_all(bytes)) as Fill<'_>))
        .collect();
    write_files_with(dir, items)
}

/// [`write_files`] with every file streamed by its producer into its temporary file, for
/// outputs too big to hold in memory (the LFT dump of a large fabric is gigabytes): the
/// group is still published together or not at all, every file complete and synced
/// before the first rename.
pub(crate) fn write_files_with(dir: &Path, files: Vec<(&str, Fill<'_>)>) -> Result<()> {
    write_files_gated(dir, files, || Ok(true)).map(|_| ())
}

/// [`write_files_with`] published only if `gate` says so ([`write_group_gated`]): `Ok(true)`
/// when the files were published, `Ok(false)` when the gate refused them (nothing changed).
pub fn write_files_gated(
    dir: &Path,
    files: Vec<(&str, Fill<'_>)>,
    gate: impl FnOnce() -> Result<bool>,
) -> Result<bool> {
    let dir = resolve_dir(dir)?;
    fs::create_dir_all(&dir).map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    let paths: Vec<PathBuf> = files.iter().map(|(name, _)| dir.join(name)).collect();
    let items: Vec<(&Path, Fill<'_>)> = paths
        .iter()
        .zip(files)
        .map(|(p, (_, fill))| (p.as_path(), fill))
        .collect();
    write_group_gated(items, gate)
}

/// Produce a whole folder atomically: the files are written into a temporary sibling
/// folder that is renamed to `dir` at the end. An existing `dir` is replaced only when
/// it holds nothing but files named in `ours` (an earlier run's output); otherwise the
/// call fails before writing anything.
pub fn write_dir(dir: &Path, files: &[(&str, Vec<u8>)], ours: &[&str]) -> Result<()> {
    write_dir_keeping(dir, files, ours, &[]).map(|_| ())
}

fn swap_dirs(new: &Path, old: &Path) -> io::Result<()> {
    rustix::fs::renameat_with(
        rustix::fs::CWD,
        new,
        rustix::fs::CWD,
        old,
        rustix::fs::RenameFlags::EXCHANGE,
    )
    .map_err(|e| io::Error::from_raw_os_error(e.raw_os_error()))
}

/// [`write_dir`] for a folder other commands also write into: the files named in `kept`
/// (another command's output, such as `route`'s `opensm-lfts.dump` beside a plan) are
/// carried over unchanged into the new folder, never deleted; files in `ours` that this
/// run does not write are removed (they would be stale). Anything else makes the call
/// fail before writing (exit 2, naming the files). The new folder replaces the old one
/// in a single atomic exchange, keeping the old folder's permissions; a file another
/// process put into the old folder meanwhile is moved across. Returns the names kept.
pub(crate) fn write_dir_keeping(
    dir: &Path,
    files: &[(&str, Vec<u8>)],
    ours: &[&str],
    kept: &[&str],
) -> Result<Vec<String>> {
    let dir = resolve_dir(dir)?;
    let exists = dir.is_dir();
    if exists {
        let entries = fs::read_dir(&dir).map_err(|e| Error::io(format!("cannot read {}", dir.display()), e))?;
        let mut foreign = Vec::new();
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !ours.contains(&name.as_str()) && !kept.contains(&name.as_str()) {
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
    if dir.file_name().is_none() {
        return Err(Error::input(
            "out",
            format!("{} cannot be replaced as a whole", dir.display()),
            Some("give a folder inside it".into()),
        ));
    }
    let mut kept_now = Vec::new();
    let mut swapped = false;
    let (tmp, _guard) = fs::create_dir_all(parent_of(&dir))
        .and_then(|_| temp_dir_beside(&dir, "new"))
        .map_err(|e| Error::io(format!("cannot write {}", dir.display()), e))?;
    let res = (|| -> io::Result<()> {
        for (name, bytes) in files {
            let mut f = create_exclusive(&tmp.join(name))?;
            f.write_all(bytes)?;
            f.sync_all()?;
        }
        if exists {
            for k in kept {
                let from = dir.join(k);
                if files.iter().any(|(n, _)| n == k) || fs::symlink_metadata(&from).is_err() {
                    continue;
                }
                fs::hard_link(&from, tmp.join(k))?;
                kept_now.push(k.to_string());
            }
            if let Ok(m) = fs::metadata(&dir) {
                let _ = fs::set_permissions(&tmp, m.permissions());
            }
        }
        sync_dir(&tmp);
        if !exists {
            match cleanup::commit(|| fs::rename(&tmp, &dir)) {
                // a concurrent run created the folder meanwhile: exchange with it instead
                Err(e) if matches!(e.raw_os_error(), Some(libc::ENOTEMPTY) | Some(libc::EEXIST)) => {}
                other => return other,
            }
        }
        cleanup::commit(|| match swap_dirs(&tmp, &dir) {
            Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL) | Some(libc::ENOSYS)) => {
                // no atomic exchange on this file system: the old folder steps aside first
                // (no registration here: the registry is locked during a commit)
                let old = temp_name(&dir, "old");
                fs::rename(&dir, &old)?;
                if let Err(e) = fs::rename(&tmp, &dir) {
                    let _ = fs::rename(&old, &dir); // put the earlier plan back
                    return Err(e);
                }
                fs::rename(&old, &tmp)
            }
            other => other,
        })?;
        swapped = true;
        // `tmp` now holds the old folder: bring across whatever is not ours and is not
        // (the same file) in the new one, e.g. a dump `route` published meanwhile
        for e in fs::read_dir(&tmp)?.flatten() {
            let name = e.file_name();
            if ours.contains(&name.to_string_lossy().as_ref()) {
                continue;
            }
            let (from, to) = (tmp.join(&name), dir.join(&name));
            let same = match (fs::symlink_metadata(&from), fs::symlink_metadata(&to)) {
                (Ok(a), Ok(b)) => a.ino() == b.ino() && a.dev() == b.dev(),
                _ => false,
            };
            if !same {
                fs::rename(&from, &to)?;
            }
        }
        fs::remove_dir_all(&tmp)
    })();
    if let Err(e) = res {
        if swapped {
            // the new folder is in place; the old one may still hold a file we could not
            // move across: leave it for the user rather than delete it
            drop(_guard); // unregistered: the folder stays on disk
            return Err(Error::io(
                format!(
                    "wrote {} but could not clear the earlier folder, now {}",
                    dir.display(),
                    tmp.display()
                ),
                e,
            ));
        }
        let _ = fs::remove_dir_all(&tmp);
        return Err(Error::io(format!("cannot write {}", dir.display()), e));
    }
    sync_dir(parent_of(&dir));
    Ok(kept_now)
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
