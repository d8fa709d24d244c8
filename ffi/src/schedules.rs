//! Schedule handles: all-to-all schedules generated for a fabric or read from a schedule
//! file, and their queries by rank and phase.

use crate::fabric::{count_u32, IbfatFabric};
use crate::routes::IbfatRoutes;
use crate::status::{arg, cstr, free, give, guard, handle, out, Fail, IbfatStatus};
use ibfat::fingerprint::ComputedFor;
use ibfat::formats::options::{self, Key};
use ibfat::schedule::file as schedule_file;
use ibfat::schedule::job::Hosts;
use ibfat::schedule::{Job, PatternKind, Request};
use ibfat::select::generate;
use ibfat::topology::Topology;
use std::ffi::c_char;
use std::path::Path;

/// Destination of an idle rank in [`ibfat_schedule_peer`] and [`ibfat_schedule_phase`].
pub const IBFAT_IDLE: u32 = u32::MAX;

/// An all-to-all schedule over some of a fabric's hosts.
pub struct IbfatSchedule {
    pattern: Box<dyn ibfat::schedule::Pattern>,
    /// Port GUID of every rank.
    guids: Vec<u64>,
    /// The fabric and tables the schedule was computed for (`None`: not recorded).
    computed_for: Option<ComputedFor>,
}

impl IbfatSchedule {
    /// The handle of a schedule read from a file: its hosts and what it was computed for.
    fn of_file(sched: ibfat::schedule::Schedule) -> IbfatSchedule {
        IbfatSchedule {
            guids: sched.hosts.clone(),
            computed_for: sched.computed_for.clone(),
            pattern: Box::new(sched),
        }
    }
}

/// The keys of the `options` of [`ibfat_schedule_new`].
#[derive(Clone, Copy, Debug)]
enum OptKey {
    Seed,
    Phases,
    JobSize,
    Block,
    PerLeaf,
    Job,
}

const OPTION_KEYS: &[Key<OptKey>] = &[
    Key {
        id: OptKey::Seed,
        name: "seed",
        expects: "an integer from 0 to 18446744073709551615",
    },
    Key {
        id: OptKey::Phases,
        name: "phases",
        expects: "a number of phases (a non-negative integer)",
    },
    Key {
        id: OptKey::JobSize,
        name: "job_size",
        expects: "a number of hosts (a non-negative integer)",
    },
    Key {
        id: OptKey::Block,
        name: "block",
        expects: "an integer from 0 to 4294967295",
    },
    Key {
        id: OptKey::PerLeaf,
        name: "per_leaf",
        expects: "an integer from 0 to 4294967295",
    },
    Key {
        id: OptKey::Job,
        name: "job",
        expects: "ranks:A-B or the path of a job file",
    },
];

fn parse_schedule_options(text: &str, kind: PatternKind, topo: &Topology) -> Result<Request, Fail> {
    let mut req = Request::new(kind);
    let (mut block, mut per_leaf) = (None, None);
    for s in options::parse(text, OPTION_KEYS)? {
        match s.id {
            OptKey::Seed => req.seed = s.number()?,
            OptKey::Phases => req.phases = Some(s.number()?),
            OptKey::JobSize => req.job_size = Some(s.number()?),
            OptKey::Block => block = Some(s.number()?),
            OptKey::PerLeaf => per_leaf = Some(s.number()?),
            OptKey::Job => req.job = Some(s.read(|v| Job::from_arg(v, &Hosts::of(topo)))?),
        }
    }
    match (block, per_leaf) {
        (Some(k), Some(m)) => req.block = Some((k, m)),
        (None, None) => {}
        _ => return Err(Fail(IbfatStatus::IbfatEInput, "block and per_leaf go together".into())),
    }
    Ok(req)
}

/// Make a schedule for the fabric (its family must be known). `pattern` is one of shift,
/// kary-shift, mols-shift, lsft, lsft-partial, ring, recursive-doubling, bruck, random,
/// bisection; `options` (may be NULL) is a list of `seed=S`, `phases=P`, `job_size=D`,
/// `block=K`, `per_leaf=M`, `job=ranks:0-63` separated by commas, semicolons or blanks.
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_new(
    fabric: *const IbfatFabric,
    pattern: *const c_char,
    options: *const c_char,
    out_schedule: *mut *mut IbfatSchedule,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle, pattern NULL or a C string (pointer contract)
        let (f, pattern) = unsafe { (handle(fabric, "fabric")?, cstr(pattern, "pattern")?) };
        let kind: PatternKind = pattern.parse()?;
        // SAFETY: options is NULL or a C string, out_schedule NULL or writable (pointer contract)
        let (opts, o) = unsafe {
            let opts = if options.is_null() {
                ""
            } else {
                cstr(options, "options")?
            };
            (opts, out(out_schedule, "out_schedule")?)
        };
        let topo = f.known()?;
        let req = parse_schedule_options(opts, kind, topo)?;
        let (g, _) = generate(topo, &req)?;
        let guids = g.job.port_guids(f.fabric());
        give(
            o,
            IbfatSchedule {
                pattern: g.pattern,
                guids,
                // computed from the topology: valid on any tables of this fabric
                computed_for: Some(ComputedFor {
                    fabric: f.fabric().fingerprint(),
                    lfts: None,
                }),
            },
        );
        Ok(())
    })
}

/// Read a schedule file (ibfat's JSON format) for this fabric; its hosts must be the
/// fabric's. A file that records another fabric is `IBFAT_E_STALE`; check it against the
/// tables in force with [`ibfat_schedule_check_routes`].
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_load(
    fabric: *const IbfatFabric,
    path: *const c_char,
    out_schedule: *mut *mut IbfatSchedule,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle, path NULL or a C string, out_schedule NULL
        // or writable (pointer contract)
        let (f, p, o) = unsafe {
            (
                handle(fabric, "fabric")?,
                Path::new(cstr(path, "path")?),
                out(out_schedule, "out_schedule")?,
            )
        };
        let all = match f.model.layout() {
            Some(l) => l.hosts().to_vec(),
            None => f.fabric().endpoints(),
        };
        let (sched, _) = schedule_file::read_json(p, Some(&Hosts::new(f.fabric(), &all, "fabric")))?;
        let have = ComputedFor {
            fabric: f.fabric().fingerprint(),
            lfts: None,
        };
        if let Some(why) = sched.computed_for.as_ref().and_then(|r| r.mismatch(&have)) {
            return Err(Fail(
                IbfatStatus::IbfatEStale,
                format!("{}: stale schedule: {why}", p.display()),
            ));
        }
        give(o, IbfatSchedule::of_file(sched));
        Ok(())
    })
}

/// Read a schedule file (ibfat's JSON format) on its own, without the fabric: what every
/// process of a parallel job does to learn its peers, cheaply (no topology is read or
/// recognised). The file is checked for what it can be checked alone: well-formed JSON of
/// the schedule schema, distinct port GUIDs, every phase a partial permutation of the
/// ranks. Whether the hosts belong to a fabric is not checked (use
/// [`ibfat_schedule_load`] for that); whether it fits the tables in force still is, with
/// [`ibfat_schedule_check_routes`]. A missing or malformed file is `IBFAT_E_INPUT`, one
/// that cannot be read `IBFAT_E_IO`, with the file (and line) in `ibfat_last_error()`.
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_open(
    path: *const c_char,
    out_schedule: *mut *mut IbfatSchedule,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: path is NULL or a C string, out_schedule NULL or writable (pointer contract)
        let (p, o) = unsafe { (Path::new(cstr(path, "path")?), out(out_schedule, "out_schedule")?) };
        let (sched, _) = schedule_file::read_json(p, None)?;
        give(o, IbfatSchedule::of_file(sched));
        Ok(())
    })
}

/// Whether `schedule` belongs to the forwarding tables `routes` holds (computed, or read
/// back from the switches): `IBFAT_OK` when it was computed for them or for no tables in
/// particular, `IBFAT_E_STALE` (with the fingerprints in `ibfat_last_error()`) when it
/// was computed for other tables or another fabric — the fabric was rerouted since.
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_check_routes(
    schedule: *const IbfatSchedule,
    routes: *const IbfatRoutes,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: schedule and routes are NULL or live handles (pointer contract)
        let (s, r) = unsafe { (handle(schedule, "schedule")?, handle(routes, "routes")?) };
        let have = r.lfts().computed_for(&r.fabric, &r.lids);
        match s.computed_for.as_ref().and_then(|c| c.mismatch(&have)) {
            None => Ok(()),
            Some(why) => Err(Fail(IbfatStatus::IbfatEStale, format!("stale schedule: {why}"))),
        }
    })
}

/// Numbers of ranks and phases.
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_size(
    schedule: *const IbfatSchedule,
    out_ranks: *mut u32,
    out_phases: *mut u32,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: schedule is NULL or a live handle (pointer contract)
        let s = unsafe { handle(schedule, "schedule") }?;
        // SAFETY: the out-pointers are NULL or writable (pointer contract)
        unsafe {
            *out(out_ranks, "out_ranks")? = count_u32("ranks", s.pattern.ranks())?;
            *out(out_phases, "out_phases")? = count_u32("phases", s.pattern.phases())?;
        }
        Ok(())
    })
}

fn check_rank_phase(s: &IbfatSchedule, rank: u32, phase: u32) -> Result<(), Fail> {
    if rank as usize >= s.pattern.ranks() {
        return Err(Fail(
            IbfatStatus::IbfatENotFound,
            format!("rank {rank}: the schedule has {} ranks", s.pattern.ranks()),
        ));
    }
    if phase as usize >= s.pattern.phases() {
        return Err(Fail(
            IbfatStatus::IbfatENotFound,
            format!("phase {phase}: the schedule has {} phases", s.pattern.phases()),
        ));
    }
    Ok(())
}

/// The rank `rank` sends to in `phase` (`IBFAT_IDLE` when idle). O(1) for the generated
/// patterns.
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_peer(
    schedule: *const IbfatSchedule,
    rank: u32,
    phase: u32,
    out_peer: *mut u32,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: schedule is NULL or a live handle (pointer contract)
        let s = unsafe { handle(schedule, "schedule") }?;
        check_rank_phase(s, rank, 0)?;
        check_rank_phase(s, 0, phase)?;
        // SAFETY: out_peer is NULL or writable (pointer contract)
        *unsafe { out(out_peer, "out_peer") }? = s.pattern.peer(phase as usize, rank as usize);
        Ok(())
    })
}

/// The destinations of all ranks in `phase` into `out_dest` (`len` must be the number of
/// ranks; `IBFAT_IDLE` for idle ranks).
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_phase(
    schedule: *const IbfatSchedule,
    phase: u32,
    out_dest: *mut u32,
    len: usize,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: schedule is NULL or a live handle (pointer contract)
        let s = unsafe { handle(schedule, "schedule") }?;
        check_rank_phase(s, 0, phase)?;
        if out_dest.is_null() {
            return Err(arg("out-pointer out_dest is NULL"));
        }
        if len != s.pattern.ranks() {
            return Err(arg(&format!(
                "len is {len} but the schedule has {} ranks",
                s.pattern.ranks()
            )));
        }
        // SAFETY: out_dest is not NULL and points to `len` writable, aligned u32 (pointer
        // contract: an out array holds `len` elements)
        let buf = unsafe { std::slice::from_raw_parts_mut(out_dest, len) };
        s.pattern.phase(phase as usize, buf);
        Ok(())
    })
}

/// Port GUID of a rank.
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_rank_guid(
    schedule: *const IbfatSchedule,
    rank: u32,
    out_guid: *mut u64,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: schedule is NULL or a live handle (pointer contract)
        let s = unsafe { handle(schedule, "schedule") }?;
        check_rank_phase(s, rank, 0)?;
        // SAFETY: out_guid is NULL or writable (pointer contract)
        *unsafe { out(out_guid, "out_guid") }? = s.guids[rank as usize];
        Ok(())
    })
}

/// The rank of the host port with this GUID (an MPI process finds itself by its port GUID).
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_rank_of(
    schedule: *const IbfatSchedule,
    port_guid: u64,
    out_rank: *mut u32,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: schedule is NULL or a live handle (pointer contract)
        let s = unsafe { handle(schedule, "schedule") }?;
        let r = s.guids.iter().position(|&g| g == port_guid).ok_or_else(|| {
            Fail(
                IbfatStatus::IbfatENotFound,
                format!("port GUID 0x{port_guid:016x} is not a rank of this schedule"),
            )
        })?;
        // SAFETY: out_rank is NULL or writable (pointer contract)
        *unsafe { out(out_rank, "out_rank") }? = count_u32("rank", r)?;
        Ok(())
    })
}

/// Free a schedule (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_free(schedule: *mut IbfatSchedule) {
    // SAFETY: schedule is NULL or a handle from ibfat_schedule_new/load/open, freed once
    // (pointer contract)
    unsafe { free(schedule) }
}
