//! Broadcast handles: the multi-lane broadcast trees of a job (`ibfat::schedule::bcast`,
//! the same plan `ibfat schedule --pattern bcast-multilane` writes), queried by rank and
//! lane: what a rank sends and receives on its k-th port.

use crate::fabric::IbfatFabric;
use crate::status::{cstr, free, give, guard, handle, out, Fail, IbfatStatus};
use ibfat::schedule::bcast::Bcast;
use ibfat::schedule::job::Hosts;
use ibfat::schedule::Job;

/// Peer of a rank that sends or receives nothing on a lane ([`ibfat_bcast_send`],
/// [`ibfat_bcast_recv`]); the part is then this value too.
pub const IBFAT_BCAST_NONE: u32 = u32::MAX;

/// A multi-lane broadcast plan over some of a fabric's hosts.
pub struct IbfatBcast {
    /// `sends[lane][rank]`, `recvs[lane][rank]`: (peer, part).
    sends: Vec<Vec<Option<(u32, u32)>>>,
    recvs: Vec<Vec<Option<(u32, u32)>>>,
    /// Port GUID of every rank.
    guids: Vec<u64>,
    /// The rank holding the message.
    root: u32,
}

/// [`ibfat_bcast_new`]'s placement: tree positions in job-rank order (shallowest).
pub const IBFAT_BCAST_RANK_ORDER: u8 = 0;
/// [`ibfat_bcast_new`]'s placement: the sites (hosts behind one leaf switch) chained, one
/// flow per part across every boundary.
pub const IBFAT_BCAST_SITES: u8 = 1;
/// [`ibfat_bcast_new`]'s placement: every subtree (leaf switch, pod) entered and left
/// through one rank, so no link carries two flows of one lane on trees
/// (docs/schedules.md §6.5).
pub const IBFAT_BCAST_NESTED: u8 = 2;

/// Make the broadcast plan of a job on a fabric whose family is known: `job` is NULL
/// (every host in rank order) or `ranks:A-B,...` / a job file as `ibfat schedule --job`
/// takes; `root` a job rank; `lanes` 1..=8 (ports per host; the message goes in that
/// many parts); `placement` one of [`IBFAT_BCAST_RANK_ORDER`] (0), [`IBFAT_BCAST_SITES`]
/// (1, what a non-zero `sites` flag meant before) or [`IBFAT_BCAST_NESTED`] (2). A root
/// outside the job, lanes outside 1..=8 or another placement are `IBFAT_E_INPUT`. Free
/// with [`ibfat_bcast_free`].
#[no_mangle]
pub unsafe extern "C" fn ibfat_bcast_new(
    fabric: *const IbfatFabric,
    job: *const std::ffi::c_char,
    root: u32,
    lanes: u32,
    placement: u8,
    out_bcast: *mut *mut IbfatBcast,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle, out_bcast NULL or writable (pointer contract)
        let (f, o) = unsafe { (handle(fabric, "fabric")?, out(out_bcast, "out_bcast")?) };
        let topo = f.known()?;
        let job = if job.is_null() {
            Job::whole(topo.layout.hosts())
        } else {
            // SAFETY: job is a C string (pointer contract)
            let text = unsafe { cstr(job, "job")? };
            Job::from_arg(text, &Hosts::of(topo))?
        };
        let ranks = crate::fabric::count_u32("ranks", job.len())?;
        let levels = ibfat::schedule::bcast::subtree_levels(&topo.fabric, job.hosts());
        let b = match placement {
            IBFAT_BCAST_RANK_ORDER => Bcast::build(ranks, root, lanes, None)?,
            IBFAT_BCAST_SITES => Bcast::build(ranks, root, lanes, Some(&levels[0]))?,
            IBFAT_BCAST_NESTED => Bcast::build_nested(ranks, root, lanes, &levels)?,
            p => {
                return Err(ibfat::Error::input(
                    "placement",
                    format!("{p}: a placement is 0 (rank order), 1 (sites) or 2 (nested)"),
                    None,
                )
                .into())
            }
        };
        give(o, IbfatBcast::of_plan(&b, job.port_guids(&topo.fabric)));
        Ok(())
    })
}

/// Read a broadcast file written by `ibfat schedule --pattern bcast-multilane --out FILE`
/// on its own, without the fabric: what every process of a job does to learn its peers,
/// cheaply (one small file, no topology). The file's `format` and `version` are checked,
/// and that it is a plan a process can follow (every lane a partial permutation, every
/// part a tree from the root reaching every other rank once). A missing or malformed file
/// is `IBFAT_E_INPUT`, one that cannot be read `IBFAT_E_IO`, with the file in
/// `ibfat_last_error()`. Free with [`ibfat_bcast_free`].
#[no_mangle]
pub unsafe extern "C" fn ibfat_bcast_open(
    path: *const std::ffi::c_char,
    out_bcast: *mut *mut IbfatBcast,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: path is NULL or a C string, out_bcast NULL or writable (pointer contract)
        let (p, o) = unsafe { (std::path::Path::new(cstr(path, "path")?), out(out_bcast, "out_bcast")?) };
        let (b, guids) = ibfat::schedule::bcast_file::read(p)?;
        give(o, IbfatBcast::of_plan(&b, guids));
        Ok(())
    })
}

/// The root rank of the plan (the one holding the message; it receives nothing).
#[no_mangle]
pub unsafe extern "C" fn ibfat_bcast_root(bcast: *const IbfatBcast, out_root: *mut u32) -> IbfatStatus {
    guard(|| {
        // SAFETY: bcast is NULL or a live handle, out_root NULL or writable (pointer contract)
        let (b, r) = unsafe { (handle(bcast, "bcast")?, out(out_root, "out_root")?) };
        *r = b.root;
        Ok(())
    })
}

impl IbfatBcast {
    fn of_plan(b: &Bcast, guids: Vec<u64>) -> IbfatBcast {
        IbfatBcast {
            sends: (0..b.lanes).map(|k| b.sends(k)).collect(),
            recvs: (0..b.lanes).map(|k| b.receives(k)).collect(),
            guids,
            root: b.root,
        }
    }
}

fn entry(table: &[Vec<Option<(u32, u32)>>], rank: u32, lane: u32) -> Result<Option<(u32, u32)>, Fail> {
    let l = table.get(lane as usize).ok_or_else(|| {
        Fail(
            IbfatStatus::IbfatENotFound,
            format!("lane {lane}: the plan has {} lanes", table.len()),
        )
    })?;
    l.get(rank as usize).copied().ok_or_else(|| {
        Fail(
            IbfatStatus::IbfatENotFound,
            format!("rank {rank}: the plan has {} ranks", l.len()),
        )
    })
}

fn query(
    table: &[Vec<Option<(u32, u32)>>],
    rank: u32,
    lane: u32,
    out_peer: *mut u32,
    out_part: *mut u32,
) -> Result<(), Fail> {
    let e = entry(table, rank, lane)?;
    // SAFETY: out_peer and out_part are NULL or writable (pointer contract)
    let (p, h) = unsafe { (out(out_peer, "out_peer")?, out(out_part, "out_part")?) };
    let (peer, part) = e.unwrap_or((IBFAT_BCAST_NONE, IBFAT_BCAST_NONE));
    *p = peer;
    *h = part;
    Ok(())
}

/// What rank `rank` sends on lane `lane` (its port `lane`): the receiving rank and the
/// part, or `IBFAT_BCAST_NONE` twice. A rank or lane out of range is `IBFAT_E_NOT_FOUND`.
#[no_mangle]
pub unsafe extern "C" fn ibfat_bcast_send(
    bcast: *const IbfatBcast,
    rank: u32,
    lane: u32,
    out_to: *mut u32,
    out_part: *mut u32,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: bcast is NULL or a live handle (pointer contract)
        let b = unsafe { handle(bcast, "bcast") }?;
        query(&b.sends, rank, lane, out_to, out_part)
    })
}

/// What rank `rank` receives on lane `lane`: the sending rank and the part, or
/// `IBFAT_BCAST_NONE` twice (the root, and ranks idle on that lane).
#[no_mangle]
pub unsafe extern "C" fn ibfat_bcast_recv(
    bcast: *const IbfatBcast,
    rank: u32,
    lane: u32,
    out_from: *mut u32,
    out_part: *mut u32,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: bcast is NULL or a live handle (pointer contract)
        let b = unsafe { handle(bcast, "bcast") }?;
        query(&b.recvs, rank, lane, out_from, out_part)
    })
}

/// Number of ranks and of lanes of the plan.
#[no_mangle]
pub unsafe extern "C" fn ibfat_bcast_size(
    bcast: *const IbfatBcast,
    out_ranks: *mut u32,
    out_lanes: *mut u32,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: bcast is NULL or a live handle, the out-pointers NULL or writable (pointer contract)
        let (b, r, l) = unsafe {
            (
                handle(bcast, "bcast")?,
                out(out_ranks, "out_ranks")?,
                out(out_lanes, "out_lanes")?,
            )
        };
        *r = crate::fabric::count_u32("ranks", b.guids.len())?;
        *l = crate::fabric::count_u32("lanes", b.sends.len())?;
        Ok(())
    })
}

/// The port GUID of rank `rank` (a process finds its rank by its port GUID).
#[no_mangle]
pub unsafe extern "C" fn ibfat_bcast_rank_guid(bcast: *const IbfatBcast, rank: u32, out_guid: *mut u64) -> IbfatStatus {
    guard(|| {
        // SAFETY: bcast is NULL or a live handle (pointer contract)
        let b = unsafe { handle(bcast, "bcast") }?;
        let g = *b.guids.get(rank as usize).ok_or_else(|| {
            Fail(
                IbfatStatus::IbfatENotFound,
                format!("rank {rank}: the plan has {} ranks", b.guids.len()),
            )
        })?;
        // SAFETY: out_guid is NULL or writable (pointer contract)
        *unsafe { out(out_guid, "out_guid") }? = g;
        Ok(())
    })
}

/// Free a broadcast plan (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn ibfat_bcast_free(bcast: *mut IbfatBcast) {
    // SAFETY: bcast is NULL or a handle from ibfat_bcast_new, freed once (pointer contract)
    unsafe { free(bcast) }
}
