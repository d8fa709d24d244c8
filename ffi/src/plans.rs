//! Path-plan handles: for a full mesh routed with LMC, the ten DLID offsets of every
//! (source rank, destination rank) pair that a transport (MPI, UCX) uses round robin per
//! message or per stream — the same arrays `ibfat plan-paths` writes.

use crate::fabric::IbfatFabric;
use crate::status::{arg, free, give, guard, handle, out, Fail, IbfatStatus};
use ibfat::families::fullmesh::route_plan::{PathPlan, SLOTS};
use ibfat::topology::Layout;

/// Slots of a path-plan array (DLID offsets used round robin).
pub const IBFAT_PATH_PLAN_SLOTS: usize = 10;

// the C constant and the library's slot count are one number
const _: () = assert!(IBFAT_PATH_PLAN_SLOTS == SLOTS);

/// The path plan of a full mesh at one LMC and direct share.
pub struct IbfatPathPlan {
    plan: PathPlan,
    /// Port GUID of every rank.
    guids: Vec<u64>,
}

/// Make the path plan of a full mesh (its family must be known: built, or recognised with
/// `ibfat_fabric_recognize`) routed with `lmc`, `direct_share` of the ten slots direct
/// (1..=10). Another family, a share outside 1..=10, or detours at LMC 0 are
/// `IBFAT_E_INPUT`. Free with [`ibfat_path_plan_free`].
#[no_mangle]
pub unsafe extern "C" fn ibfat_path_plan_new(
    fabric: *const IbfatFabric,
    lmc: u8,
    direct_share: u8,
    out_plan: *mut *mut IbfatPathPlan,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle, out_plan NULL or writable (pointer contract)
        let (f, o) = unsafe { (handle(fabric, "fabric")?, out(out_plan, "out_plan")?) };
        let topo = f.known()?;
        let plan = PathPlan::new(&topo.layout, lmc, direct_share)?;
        let Layout::Fullmesh(l) = &topo.layout else {
            return Err(arg("the fabric is not a full mesh"));
        };
        let guids = l
            .hosts
            .iter()
            .map(|ep| topo.fabric.port(ep.node, ep.port).guid)
            .collect();
        give(o, IbfatPathPlan { plan, guids });
        Ok(())
    })
}

fn offsets_of(p: &IbfatPathPlan, src: u32, dst: u32) -> Result<[u8; SLOTS], Fail> {
    p.plan.offsets(src, dst).ok_or_else(|| {
        Fail(
            IbfatStatus::IbfatENotFound,
            format!("rank pair ({src}, {dst}): the plan has {} ranks", p.plan.hosts()),
        )
    })
}

/// The ten DLID offsets from rank `src` to rank `dst` into `out_offsets`, which holds
/// `IBFAT_PATH_PLAN_SLOTS` bytes; slot 0 is the direct route (offset 0). A rank out of
/// range is `IBFAT_E_NOT_FOUND`.
#[no_mangle]
pub unsafe extern "C" fn ibfat_path_plan_offsets(
    plan: *const IbfatPathPlan,
    src: u32,
    dst: u32,
    out_offsets: *mut u8,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: plan is NULL or a live handle (pointer contract)
        let p = unsafe { handle(plan, "plan") }?;
        let offs = offsets_of(p, src, dst)?;
        if out_offsets.is_null() {
            return Err(arg("out-pointer out_offsets is NULL"));
        }
        // SAFETY: out_offsets is not NULL and points to IBFAT_PATH_PLAN_SLOTS writable bytes
        // (pointer contract: an out array holds the elements the function documents)
        let buf = unsafe { std::slice::from_raw_parts_mut(out_offsets, SLOTS) };
        buf.copy_from_slice(&offs);
        Ok(())
    })
}

/// The DLID offset for the `n`-th message (or stream) from `src` to `dst`: slot
/// `n mod IBFAT_PATH_PLAN_SLOTS` of their plan. DLID = the destination's base LID + offset.
#[no_mangle]
pub unsafe extern "C" fn ibfat_path_plan_offset(
    plan: *const IbfatPathPlan,
    src: u32,
    dst: u32,
    n: u64,
    out_offset: *mut u8,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: plan is NULL or a live handle (pointer contract)
        let p = unsafe { handle(plan, "plan") }?;
        let offs = offsets_of(p, src, dst)?;
        // SAFETY: out_offset is NULL or writable (pointer contract)
        *unsafe { out(out_offset, "out_offset") }? = offs[(n % SLOTS as u64) as usize];
        Ok(())
    })
}

/// Number of ranks (hosts in rank order) the plan covers.
#[no_mangle]
pub unsafe extern "C" fn ibfat_path_plan_ranks(plan: *const IbfatPathPlan, out_ranks: *mut u32) -> IbfatStatus {
    guard(|| {
        // SAFETY: plan is NULL or a live handle, out_ranks NULL or writable (pointer contract)
        let (p, o) = unsafe { (handle(plan, "plan")?, out(out_ranks, "out_ranks")?) };
        *o = crate::fabric::count_u32("ranks", p.plan.hosts())?;
        Ok(())
    })
}

/// The rank of the host port with this GUID (a process finds itself by its port GUID);
/// `IBFAT_E_NOT_FOUND` when no rank has it.
#[no_mangle]
pub unsafe extern "C" fn ibfat_path_plan_rank_of(
    plan: *const IbfatPathPlan,
    port_guid: u64,
    out_rank: *mut u32,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: plan is NULL or a live handle (pointer contract)
        let p = unsafe { handle(plan, "plan") }?;
        let r = p.guids.iter().position(|&g| g == port_guid).ok_or_else(|| {
            Fail(
                IbfatStatus::IbfatENotFound,
                format!("port GUID 0x{port_guid:016x} is not a rank of this plan"),
            )
        })?;
        // SAFETY: out_rank is NULL or writable (pointer contract)
        *unsafe { out(out_rank, "out_rank") }? = crate::fabric::count_u32("rank", r)?;
        Ok(())
    })
}

/// Free a path plan (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn ibfat_path_plan_free(plan: *mut IbfatPathPlan) {
    // SAFETY: plan is NULL or a handle from ibfat_path_plan_new, freed once (pointer contract)
    unsafe { free(plan) }
}
