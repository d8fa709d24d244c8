//! Route handles: the LIDs and LFTs of a fabric, their lookup per switch and LID, their
//! validation, and OpenSM's route files.

use crate::fabric::IbfatFabric;
use crate::status::{arg, cstr, free, give, guard, handle, out, Fail, IbfatStatus};
use ibfat::check::validate;
use ibfat::formats::{atomic, guid2lid, lftdump};
use ibfat::routing::{route, LftSet, Lids};
use ibfat::topology::Fabric;
use std::ffi::{c_char, c_int};
use std::path::Path;

/// Where the LIDs of [`ibfat_routes_compute`] come from (passed as an `int`: a value
/// outside the enum is refused with `IBFAT_E_ARG`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbfatLidSource {
    /// The LIDs the fabric carries (set by `ibfat_fabric_set_lid` or found in a dump),
    /// falling back to the deterministic plan when it carries none.
    IbfatLidsFabric = 0,
    /// ibfat's deterministic assignment (hosts in rank order, then switches).
    IbfatLidsPlan = 1,
}

impl IbfatLidSource {
    /// The source a C caller passed, or `IBFAT_E_ARG` naming the value and the valid ones.
    fn from_c(v: c_int) -> Result<IbfatLidSource, Fail> {
        match v {
            0 => Ok(IbfatLidSource::IbfatLidsFabric),
            1 => Ok(IbfatLidSource::IbfatLidsPlan),
            _ => Err(arg(&format!(
                "lids: {v} is not a LID source; valid: IBFAT_LIDS_FABRIC (0), IBFAT_LIDS_PLAN (1)"
            ))),
        }
    }
}

/// LIDs and LFTs of a fabric.
pub struct IbfatRoutes {
    pub(crate) lids: Lids,
    pub(crate) lfts: LftSet,
    /// (switch GUID, row) sorted by GUID
    by_guid: Vec<(u64, u32)>,
    pub(crate) fabric: Fabric,
}

/// Validation summary of [`ibfat_routes_validate`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct IbfatValidation {
    /// 1 when every LID is delivered from every switch, minimal where promised, deadlock free.
    pub ok: i32,
    /// Switch/LID pairs without a working route (no entry, uncabled port, port out of range).
    pub black_holes: u64,
    /// Switch/LID pairs whose route runs in a loop.
    pub loops: u64,
    /// Routes that end at the wrong node.
    pub misdelivered: u64,
    /// Host routes longer than the shortest path where the family promises minimal routes.
    pub non_minimal: u64,
    /// 1 when the channel dependency graph of all CA-sourced routes is acyclic.
    pub deadlock_free: i32,
}

/// Compute the LFTs of every switch (the fabric's family must be known: built from a spec,
/// loaded from a plan, or recognised). `lmc` is 0 or 1; `lids` an [`IbfatLidSource`].
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_compute(
    fabric: *const IbfatFabric,
    lmc: u8,
    lids: c_int,
    out_routes: *mut *mut IbfatRoutes,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle, out_routes NULL or writable (pointer contract)
        let (f, o) = unsafe { (handle(fabric, "fabric")?, out(out_routes, "out_routes")?) };
        let layout = &f.known()?.layout;
        if lmc > 1 {
            return Err(arg("lmc must be 0 or 1"));
        }
        let l = match IbfatLidSource::from_c(lids)? {
            IbfatLidSource::IbfatLidsPlan => Lids::plan(f.fabric(), layout.hosts(), lmc)?,
            IbfatLidSource::IbfatLidsFabric => match Lids::discovered(f.fabric())? {
                Some(l) => l,
                None => Lids::plan(f.fabric(), layout.hosts(), lmc)?,
            },
        };
        let lfts = route(f.fabric(), layout, &l)?;
        let mut by_guid: Vec<(u64, u32)> = lfts
            .switches
            .iter()
            .enumerate()
            .map(|(r, &s)| (f.fabric().node(s).guid, r as u32))
            .collect();
        by_guid.sort_unstable();
        give(
            o,
            IbfatRoutes {
                lids: l,
                lfts,
                by_guid,
                fabric: f.fabric().clone(),
            },
        );
        Ok(())
    })
}

fn row_of(r: &IbfatRoutes, guid: u64) -> Result<usize, Fail> {
    r.by_guid
        .binary_search_by_key(&guid, |x| x.0)
        .map(|i| r.by_guid[i].1 as usize)
        .map_err(|_| {
            Fail(
                IbfatStatus::IbfatENotFound,
                format!("no switch with GUID 0x{guid:016x}"),
            )
        })
}

/// Largest LID in use (LFTs cover LIDs 0..=max).
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_max_lid(routes: *const IbfatRoutes, out_max: *mut u16) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle, out_max NULL or writable (pointer contract)
        let (r, o) = unsafe { (handle(routes, "routes")?, out(out_max, "out_max")?) };
        *o = r.lids.max_lid();
        Ok(())
    })
}

/// Out port of `lid` at the switch with node GUID `switch_guid` (255 = no route).
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_port(
    routes: *const IbfatRoutes,
    switch_guid: u64,
    lid: u16,
    out_port: *mut u8,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle (pointer contract)
        let r = unsafe { handle(routes, "routes") }?;
        let row = row_of(r, switch_guid)?;
        if lid as usize >= r.lfts.stride {
            return Err(Fail(
                IbfatStatus::IbfatENotFound,
                format!("LID {lid} is beyond the largest LID {}", r.lfts.stride - 1),
            ));
        }
        // SAFETY: out_port is NULL or writable (pointer contract)
        *unsafe { out(out_port, "out_port") }? = r.lfts.row(row)[lid as usize];
        Ok(())
    })
}

/// The whole LFT of a switch: `*out_table` points at `*out_len` = max LID + 1 entries
/// (index = LID, 255 = no route), owned by `routes` and valid until it is freed.
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_lft(
    routes: *const IbfatRoutes,
    switch_guid: u64,
    out_table: *mut *const u8,
    out_len: *mut usize,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle (pointer contract)
        let r = unsafe { handle(routes, "routes") }?;
        let row = row_of(r, switch_guid)?;
        let t = r.lfts.row(row);
        // SAFETY: the out-pointers are NULL or writable (pointer contract); the table they
        // receive lives in the routes handle, as documented
        unsafe {
            *out(out_table, "out_table")? = t.as_ptr();
            *out(out_len, "out_len")? = t.len();
        }
        Ok(())
    })
}

/// Base LID of the port with this GUID (a CA port GUID or a switch GUID).
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_lid(
    routes: *const IbfatRoutes,
    port_guid: u64,
    out_lid: *mut u16,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle (pointer contract)
        let r = unsafe { handle(routes, "routes") }?;
        let i = r
            .fabric
            .ports
            .iter()
            .enumerate()
            .find(|(i, p)| p.guid == port_guid && r.lids.base[*i] != 0)
            .map(|(i, _)| i)
            .ok_or_else(|| {
                Fail(
                    IbfatStatus::IbfatENotFound,
                    format!("no port with GUID 0x{port_guid:016x} has a LID"),
                )
            })?;
        // SAFETY: out_lid is NULL or writable (pointer contract)
        *unsafe { out(out_lid, "out_lid") }? = r.lids.base[i];
        Ok(())
    })
}

/// Write the LFTs as OpenSM's opensm-lfts.dump and the LIDs as guid2lid, published
/// together: both files are complete before either replaces its predecessor, so a full
/// disk or a concurrent call never pairs a new dump with an old guid2lid.
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_write(
    routes: *const IbfatRoutes,
    dump_path: *const c_char,
    guid2lid_path: *const c_char,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle, dump_path NULL or a C string (pointer contract)
        let (r, dump) = unsafe { (handle(routes, "routes")?, cstr(dump_path, "dump_path")?) };
        let mut files: Vec<(&Path, atomic::Fill<'_>)> = vec![(
            Path::new(dump),
            Box::new(|w: &mut dyn std::io::Write| lftdump::stream_opensm(w, &r.fabric, &r.lids, &r.lfts)),
        )];
        if !guid2lid_path.is_null() {
            // SAFETY: guid2lid_path is a C string (not NULL, pointer contract)
            let g = Path::new(unsafe { cstr(guid2lid_path, "guid2lid_path") }?);
            let text = guid2lid::write(&r.lids, &r.fabric);
            files.push((
                g,
                Box::new(move |w: &mut dyn std::io::Write| w.write_all(text.as_bytes())),
            ));
        }
        atomic::write_group(files)?;
        Ok(())
    })
}

/// Validate the LFTs (reachability of every LID, loops, black holes, deadlock freedom).
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_validate(
    routes: *const IbfatRoutes,
    out_report: *mut IbfatValidation,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle (pointer contract)
        let r = unsafe { handle(routes, "routes") }?;
        let v = validate(&r.fabric, &r.lids, &r.lfts, None);
        // SAFETY: out_report is NULL or writable (pointer contract)
        *unsafe { out(out_report, "out_report") }? = IbfatValidation {
            ok: v.ok as i32,
            black_holes: v.black_holes,
            loops: v.loops,
            misdelivered: v.misdelivered,
            non_minimal: v.non_minimal,
            deadlock_free: v.ca_sourced.acyclic as i32,
        };
        Ok(())
    })
}

/// Free routes (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_free(routes: *mut IbfatRoutes) {
    // SAFETY: routes is NULL or a handle from ibfat_routes_compute, freed once (pointer contract)
    unsafe { free(routes) }
}
