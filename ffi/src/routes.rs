//! Route handles: the LIDs and LFTs of a fabric, their lookup per switch and LID, their
//! validation, and OpenSM's route files.

use crate::fabric::IbfatFabric;
use crate::status::{arg, cstr, free, give, guard, handle, out, Fail, IbfatStatus};
use ibfat::check::{prove, validate};
use ibfat::formats::{atomic, guid2lid, lanes, lftdump};
use ibfat::routing::lanes::LaneRules;
use ibfat::routing::pipeline::check_lmc;
use ibfat::routing::{route_fabric, Ask, LftSet, Lids, Objective, Routed, Shape};
use ibfat::topology::{Fabric, Layout, NodeId, NO_PEER};
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

/// What the routes of [`ibfat_routes_compute_for`] optimise (passed as an `int`: a value
/// outside the enum is refused with `IBFAT_E_ARG`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbfatObjective {
    /// The family's own routes (on which its all-to-all schedules are conflict-free); a
    /// degraded fabric's routes around its holes.
    IbfatObjectiveFamily = 0,
    /// A Latin-square fat-tree only: every host slot of a leaf reached over a different up
    /// link of every other leaf (one-turn detours on two data VLs).
    IbfatObjectiveSpread = 1,
}

impl IbfatObjective {
    /// The objective a C caller passed, or `IBFAT_E_ARG` naming the value and the valid ones.
    fn from_c(v: c_int) -> Result<Objective, Fail> {
        match v {
            0 => Ok(Objective::Family),
            1 => Ok(Objective::Spread),
            _ => Err(arg(&format!(
                "objective: {v} is not an objective; valid: IBFAT_OBJECTIVE_FAMILY (0), IBFAT_OBJECTIVE_SPREAD (1)"
            ))),
        }
    }
}

/// LIDs and LFTs of a fabric, with the lanes of routes that need more than one VL.
pub struct IbfatRoutes {
    pub(crate) lids: Lids,
    /// The tables, their lanes and what they leave unserved.
    routed: Routed,
    /// (switch GUID, row) sorted by GUID
    by_guid: Vec<(u64, u32)>,
    pub(crate) fabric: Fabric,
    /// The switch a LID's traffic starts at (a host's leaf, a switch itself).
    src_of_lid: Vec<NodeId>,
    /// The intact family whose promises the tables keep (none when degraded).
    layout: Option<Layout>,
}

impl IbfatRoutes {
    /// The forwarding tables.
    pub(crate) fn lfts(&self) -> &LftSet {
        &self.routed.lfts
    }

    /// The lane rules, when the routes need more than one VL.
    fn lanes(&self) -> Option<&(dyn LaneRules + Send + Sync)> {
        self.routed.lanes.as_deref()
    }
}

/// Validation summary of [`ibfat_routes_validate`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct IbfatValidation {
    /// 1 when every promise of the routes holds: every LID delivered from every switch (a
    /// degraded tree: all but the pairs it leaves unrouted), minimal where the family
    /// promises it, deadlock free (per VL for routes with lanes).
    pub ok: i32,
    /// Switch/LID pairs without a working route (no entry, uncabled port, port out of range).
    pub black_holes: u64,
    /// Switch/LID pairs whose route runs in a loop.
    pub loops: u64,
    /// Routes that end at the wrong node.
    pub misdelivered: u64,
    /// Host routes longer than the shortest path where the family promises minimal routes.
    pub non_minimal: u64,
    /// 1 when the channel dependency graph of all CA-sourced routes is acyclic (per VL
    /// for routes with lanes).
    pub deadlock_free: i32,
}

/// [`ibfat_routes_compute_for`] with the family objective.
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_compute(
    fabric: *const IbfatFabric,
    lmc: u8,
    lids: c_int,
    out_routes: *mut *mut IbfatRoutes,
) -> IbfatStatus {
    // SAFETY: the same pointer contract, passed on
    unsafe {
        ibfat_routes_compute_for(
            fabric,
            lmc,
            lids,
            IbfatObjective::IbfatObjectiveFamily as c_int,
            out_routes,
        )
    }
}

/// Compute the LFTs of every switch as `ibfat route` does: the family must be known (built
/// from a spec, loaded from a plan, or recognised — a degraded fabric is routed around its
/// holes). `lmc`: 0 or 1, a full mesh 0..=7; `lids` an [`IbfatLidSource`]; `objective` an
/// [`IbfatObjective`]. Routes that need more than one VL carry their SLs and SL-to-VL
/// tables ([`ibfat_routes_data_vls`], [`ibfat_routes_path_sl`], [`ibfat_routes_sl2vl`]).
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_compute_for(
    fabric: *const IbfatFabric,
    lmc: u8,
    lids: c_int,
    objective: c_int,
    out_routes: *mut *mut IbfatRoutes,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle, out_routes NULL or writable (pointer contract)
        let (f, o) = unsafe { (handle(fabric, "fabric")?, out(out_routes, "out_routes")?) };
        let ask = Ask {
            objective: IbfatObjective::from_c(objective)?,
            ..Ask::default()
        };
        let shape = f.shape()?;
        check_lmc(shape, ask.objective, lmc)?;
        let hosts = match shape {
            Shape::Intact(layout) => layout.hosts(),
            Shape::Degraded { .. } => &[],
        };
        let l = match IbfatLidSource::from_c(lids)? {
            IbfatLidSource::IbfatLidsPlan => Lids::plan(f.fabric(), hosts, lmc)?,
            IbfatLidSource::IbfatLidsFabric => match Lids::discovered(f.fabric())? {
                Some(l) => l,
                None => Lids::plan(f.fabric(), hosts, lmc)?,
            },
        };
        l.require_complete(f.fabric())?;
        let routed = route_fabric(f.fabric(), shape, &l, &ask).map_err(ibfat::Error::from)?;
        let mut by_guid: Vec<(u64, u32)> = routed
            .lfts
            .switches
            .iter()
            .enumerate()
            .map(|(r, &s)| (f.fabric().node(s).guid, r as u32))
            .collect();
        by_guid.sort_unstable();
        give(
            o,
            IbfatRoutes {
                src_of_lid: l.switch_of_each(f.fabric()),
                lids: l,
                routed,
                by_guid,
                fabric: f.fabric().clone(),
                layout: match shape {
                    Shape::Intact(layout) => Some(layout.clone()),
                    Shape::Degraded { .. } => None,
                },
            },
        );
        Ok(())
    })
}

/// Data VLs the routes use: 1 when they need no SL or SL-to-VL table (OpenSM's defaults
/// stand), 2 or 3 for detours, one more when the escape lane (SL 15) carries a pair.
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_data_vls(routes: *const IbfatRoutes, out_vls: *mut u8) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle, out_vls NULL or writable (pointer contract)
        let (r, o) = unsafe { (handle(routes, "routes")?, out(out_vls, "out_vls")?) };
        *o = r.lanes().map_or(1, |l| l.data_vls());
        Ok(())
    })
}

/// The SL of the path from `slid` to `dlid` (what a subnet manager answers in PathRecords):
/// 0 for routes on one VL. A LID no port of the fabric has is `IBFAT_E_NOT_FOUND`.
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_path_sl(
    routes: *const IbfatRoutes,
    slid: u16,
    dlid: u16,
    out_sl: *mut u8,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle, out_sl NULL or writable (pointer contract)
        let (r, o) = unsafe { (handle(routes, "routes")?, out(out_sl, "out_sl")?) };
        let src = source_of(r, slid, "slid")?;
        source_of(r, dlid, "dlid")?;
        *o = r.lanes().map_or(0, |l| l.sl(src, dlid as usize));
        Ok(())
    })
}

/// The SL-to-VL table of the switch `switch_guid` for packets in at `in_port` and out at
/// `out_port` (0: the switch itself): `out_vls[sl]` is the VL of each of the 16 SLs. All
/// zero for routes on one VL; a CA port sends every SL on VL 0.
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_sl2vl(
    routes: *const IbfatRoutes,
    switch_guid: u64,
    in_port: u8,
    out_port: u8,
    out_vls: *mut u8,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle (pointer contract)
        let r = unsafe { handle(routes, "routes") }?;
        let row = row_of(r, switch_guid)?;
        let sw = r.lfts().switches[row];
        let ports = r.fabric.node(sw).nports;
        if in_port > ports || out_port > ports {
            return Err(Fail(
                IbfatStatus::IbfatENotFound,
                format!("switch 0x{switch_guid:016x} has ports 0..={ports}: no port pair {in_port} -> {out_port}"),
            ));
        }
        if out_vls.is_null() {
            return Err(arg("out_vls is NULL"));
        }
        // SAFETY: out_vls points at 16 writable bytes (the documented contract)
        let vls = unsafe { std::slice::from_raw_parts_mut(out_vls, 16) };
        for (sl, v) in vls.iter_mut().enumerate() {
            *v = r.lanes().map_or(0, |l| l.vl(sw, sl as u8, in_port, out_port));
        }
        Ok(())
    })
}

/// The switch traffic from `lid` starts at, or `IBFAT_E_NOT_FOUND` naming `what`.
fn source_of(r: &IbfatRoutes, lid: u16, what: &str) -> Result<NodeId, Fail> {
    r.src_of_lid
        .get(lid as usize)
        .copied()
        .filter(|&n| n != NO_PEER)
        .ok_or_else(|| Fail(IbfatStatus::IbfatENotFound, format!("{what}: no port has LID {lid}")))
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
        if lid as usize >= r.lfts().stride {
            return Err(Fail(
                IbfatStatus::IbfatENotFound,
                format!("LID {lid} is beyond the largest LID {}", r.lfts().stride - 1),
            ));
        }
        // SAFETY: out_port is NULL or writable (pointer contract)
        *unsafe { out(out_port, "out_port") }? = r.lfts().row(row)[lid as usize];
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
        let t = r.lfts().row(row);
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
            Box::new(|w: &mut dyn std::io::Write| lftdump::stream_opensm(w, &r.fabric, &r.lids, r.lfts())),
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

/// Write the SL of every path (`path-sl.txt`) and the SL-to-VL tables (`sl2vl.txt`) of
/// routes that need more than one VL, as `ibfat route` writes them (each naming the tables
/// it belongs to), published together. Routes on one VL have none: `IBFAT_E_INPUT`.
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_write_lanes(
    routes: *const IbfatRoutes,
    path_sl_path: *const c_char,
    sl2vl_path: *const c_char,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle, the paths NULL or C strings (pointer contract)
        let (r, ps, sv) = unsafe {
            (
                handle(routes, "routes")?,
                cstr(path_sl_path, "path_sl_path")?,
                cstr(sl2vl_path, "sl2vl_path")?,
            )
        };
        let Some(rules) = r.lanes() else {
            return Err(Fail(
                IbfatStatus::IbfatEInput,
                "these routes use one VL: they have no SLs or SL-to-VL tables to write".into(),
            ));
        };
        let cf = r.lfts().computed_for(&r.fabric, &r.lids);
        let path_sl = lanes::write_path_sl(&r.fabric, &r.lids, &cf, |s, l| rules.sl(s, l));
        let sl2vl = lanes::write_sl2vl(&r.fabric, &cf, |w, s, i, o| rules.vl(w, s, i, o));
        atomic::write_group(vec![
            (
                Path::new(ps),
                Box::new(move |w: &mut dyn std::io::Write| w.write_all(path_sl.as_bytes())) as atomic::Fill<'_>,
            ),
            (
                Path::new(sv),
                Box::new(move |w: &mut dyn std::io::Write| w.write_all(sl2vl.as_bytes())),
            ),
        ])?;
        Ok(())
    })
}

/// Number of switches the routes have tables for.
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_switch_count(routes: *const IbfatRoutes, out_count: *mut u32) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle, out_count NULL or writable (pointer contract)
        let (r, o) = unsafe { (handle(routes, "routes")?, out(out_count, "out_count")?) };
        *o = crate::fabric::count_u32("switches", r.by_guid.len())?;
        Ok(())
    })
}

/// Node GUID of the `index`-th switch (in GUID order) and its number of ports; an index
/// at or beyond the count is `IBFAT_E_NOT_FOUND`.
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_switch(
    routes: *const IbfatRoutes,
    index: u32,
    out_guid: *mut u64,
    out_ports: *mut u8,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: routes is NULL or a live handle (pointer contract)
        let r = unsafe { handle(routes, "routes") }?;
        let &(guid, row) = r.by_guid.get(index as usize).ok_or_else(|| {
            Fail(
                IbfatStatus::IbfatENotFound,
                format!("switch {index}: the routes have {} switches", r.by_guid.len()),
            )
        })?;
        let ports = r.fabric.node(r.lfts().switches[row as usize]).nports;
        // SAFETY: the out-pointers are NULL or writable (pointer contract)
        unsafe {
            *out(out_guid, "out_guid")? = guid;
            *out(out_ports, "out_ports")? = ports;
        }
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
        let proof = prove(&r.fabric, &r.lids, &r.routed, r.layout.as_ref());
        let v = match proof.tables {
            Some(t) => t,
            // detour routes are proven by their per-VL walk; the counts come from a walk
            // of the tables without the family's promises
            None => validate(&r.fabric, &r.lids, r.lfts(), None),
        };
        let deadlock_free = proof.lanes.as_ref().map_or(v.ca_sourced.acyclic, |p| p.ok());
        // SAFETY: out_report is NULL or writable (pointer contract)
        *unsafe { out(out_report, "out_report") }? = IbfatValidation {
            ok: proof.sound as i32,
            black_holes: v.black_holes,
            loops: v.loops,
            misdelivered: v.misdelivered,
            non_minimal: v.non_minimal,
            deadlock_free: deadlock_free as i32,
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
