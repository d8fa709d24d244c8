//! The schedule file a pass writes (`schedule_out=`): written for the tables just
//! programmed, with their fingerprint, and retired when the switches hold other tables.

use crate::log;
use crate::options::Options;
use ibfat::routing::{LftSet, Lids};
use ibfat::schedule::{file, Format, PatternKind, Request};
use ibfat::select::generate;
use ibfat::topology::Topology;
use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Create the folder `path` goes in when it is missing (mode 0755); the folder made, if any.
pub fn ensure_folder(path: &Path) -> Result<Option<PathBuf>, String> {
    use std::os::unix::fs::PermissionsExt;
    let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(None);
    };
    if dir.is_dir() {
        return Ok(None);
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the folder {}: {e}", dir.display()))?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("cannot set the mode of {}: {e}", dir.display()))?;
    Ok(Some(dir.to_path_buf()))
}

/// After a pass that leaves other tables in the switches than the schedule at `path` was
/// computed for, remove that schedule — if it is one: a regular file whose head records
/// the forwarding tables it belongs to (what this engine writes). Anything else is left
/// alone and named in the log.
pub fn retire_schedule(osm: *mut c_void, path: &Path) {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return; // nothing there
    };
    if !meta.file_type().is_file() {
        log(
            osm,
            true,
            &format!("schedule_out {} is not a regular file; left alone", path.display()),
        );
        return;
    }
    let mut head = [0u8; 512];
    let n = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    let ours = file::peek_computed_for(&head[..n]).is_some_and(|c| c.lfts.is_some());
    if !ours {
        log(
            osm,
            true,
            &format!(
                "{} is not a schedule computed for programmed tables; left alone, but it does not describe the tables now in the switches",
                path.display()
            ),
        );
        return;
    }
    match std::fs::remove_file(path) {
        Ok(()) => log(
            osm,
            false,
            &format!(
                "removed the schedule {}: it was computed for tables that are no longer programmed",
                path.display()
            ),
        ),
        Err(e) => log(
            osm,
            true,
            &format!("cannot remove the stale schedule {}: {e}", path.display()),
        ),
    }
}

/// Write the schedule of the programmed tables to `path` (the tables stay in place
/// whatever happens to the file; a failure retires the old file).
pub fn write_schedule(osm: *mut c_void, options: &Options, topo: &Topology, lfts: &LftSet, lids: &Lids, path: &Path) {
    let (fabric, layout) = (&topo.fabric, &topo.layout);
    let t = Instant::now();
    let kind = options.pattern.unwrap_or_else(|| PatternKind::native(layout));
    let computed_for = lfts.computed_for(fabric, lids);
    // the path was a file when the options were read; it may have been replaced since
    let res = crate::options::check_regular("schedule_out", path)
        .and_then(|()| generate(topo, &Request::new(kind)))
        .and_then(|(g, _)| {
            let guids = g.job.port_guids(fabric);
            file::write(path, Format::Json, g.pattern.as_ref(), &guids, &computed_for).map(|c| (g.pattern.name(), c))
        });
    match res {
        Ok((name, c)) => log(
            osm,
            false,
            &format!(
                "wrote the {name} schedule ({} ranks, {} phases) to {} in {:.3} ms",
                c.ranks,
                c.phases,
                path.display(),
                t.elapsed().as_secs_f64() * 1e3
            ),
        ),
        Err(e) => {
            log(
                osm,
                true,
                &format!("cannot write the schedule to {}: {e}", path.display()),
            );
            retire_schedule(osm, path);
        }
    }
}

/// A degraded fabric: the family's schedule repaired for the tables just programmed
/// (`ibfat::select::repair`), written with their fingerprint; a failure retires the old
/// file.
pub fn write_repaired(
    osm: *mut c_void,
    fabric: &ibfat::topology::Fabric,
    d: &ibfat::recognize::Degraded,
    lids: &Lids,
    lfts: &LftSet,
    path: &Path,
) {
    let t = Instant::now();
    let res = crate::options::check_regular("schedule_out", path)
        .and_then(|()| ibfat::select::repair::repair_degraded(fabric, d, lids, lfts))
        .and_then(|(sched, rep, name)| {
            let cf = sched.computed_for.clone().expect("repair records its tables");
            file::write(path, Format::Json, &sched, &sched.hosts, &cf).map(|c| (c, rep, name))
        });
    match res {
        Ok((c, rep, kind)) => log(
            osm,
            false,
            &format!(
                "wrote the {} schedule repaired for the degraded tables ({} ranks, {} phases: {} of {} kept, \
                 {} flows moved, {} added; all-to-all throughput vs intact {:.3}, unrepaired {:.3}) to {} in {:.3} ms",
                kind.name(),
                c.ranks,
                c.phases,
                rep.kept_phases,
                rep.original_phases,
                rep.moved_flows,
                rep.added_phases,
                rep.throughput_vs_intact(),
                rep.unrepaired_vs_intact(),
                path.display(),
                t.elapsed().as_secs_f64() * 1e3
            ),
        ),
        Err(e) => {
            log(
                osm,
                true,
                &format!("cannot write the repaired schedule to {}: {e}", path.display()),
            );
            retire_schedule(osm, path);
        }
    }
}
