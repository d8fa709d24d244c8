//! C ABI of ibfat.
//!
//! Handles are opaque pointers created by `*_new`/`*_load`/`*_compute` functions and
//! released by the matching `*_free`. Every function returns an [`IbfatStatus`] and writes
//! results through out-pointers; `ibfat_last_error()` explains a failure. Rust panics are
//! caught at this boundary and turned into `IBFAT_E_INTERNAL`, so no unwinding ever
//! crosses into C (or into OpenSM).
#![allow(clippy::missing_safety_doc)] // every function documents its pointer contract

use ibfat::check::validate;
use ibfat::formats::lftdump;
use ibfat::recognize::{recognize, FamilyHint, Recognition};
use ibfat::routing::{route, LftSet, Lids};
use ibfat::schedule::file as schedule_file;
use ibfat::schedule::job::Hosts;
use ibfat::schedule::{Job, PatternKind, Request};
use ibfat::select::generate;
use ibfat::topology::{Fabric, Layout, NodeKind, Spec, Topo, Wiring};
use ibfat::Error;
use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// Result of every call.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbfatStatus {
    /// Success.
    IbfatOk = 0,
    /// A null pointer or an argument out of range.
    IbfatEArg = 1,
    /// Bad input: a malformed file, an impossible parameter (the message names it).
    IbfatEInput = 2,
    /// I/O failure.
    IbfatEIo = 3,
    /// The fabric is not of a family ibfat knows (the message says why).
    IbfatEUnrecognised = 4,
    /// No such switch, LID, rank or phase.
    IbfatENotFound = 5,
    /// An internal error (a caught panic): a bug to report.
    IbfatEInternal = 6,
}

/// Node kinds for [`ibfat_fabric_add_node`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbfatNodeKind {
    IbfatSwitch = 1,
    IbfatCa = 2,
    IbfatRouter = 3,
}

/// Fabric families.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbfatFamily {
    /// Recognise automatically (as a hint) / not recognised (as a result).
    IbfatFamilyAuto = 0,
    IbfatFamilyLsft = 1,
    IbfatFamilyKary = 2,
    IbfatFamilyMols = 3,
}

/// Where the LIDs of [`ibfat_routes_compute`] come from.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbfatLidSource {
    /// The LIDs the fabric carries (set by `ibfat_fabric_set_lid` or found in a dump),
    /// falling back to the deterministic plan when it carries none.
    IbfatLidsFabric = 0,
    /// ibfat's deterministic assignment (hosts in rank order, then switches).
    IbfatLidsPlan = 1,
}

/// Wiring of a MOLS 3-level tree (see `ibfat build mols --help`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbfatWiring {
    /// Not a MOLS tree.
    IbfatWiringNone = 0,
    IbfatWiringStandard = 1,
    IbfatWiringBasic = 2,
    IbfatWiringMols = 3,
    IbfatWiringCustom = 4,
}

/// What [`ibfat_fabric_recognize`] found. Fields that do not apply to the family are 0.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct IbfatRecognition {
    pub family: IbfatFamily,
    /// LSFT: order q of the projective plane, and 1 or 2 sides.
    pub order: u32,
    pub sides: u32,
    /// Trees: arity k (n for MOLS trees) and levels (3 for MOLS trees).
    pub arity: u32,
    pub levels: u32,
    pub wiring: IbfatWiring,
    /// Hosts in rank order.
    pub hosts: u32,
}

/// Destination of an idle rank in [`ibfat_schedule_peer`] and [`ibfat_schedule_phase`].
pub const IBFAT_IDLE: u32 = u32::MAX;

/// An all-to-all schedule over some of a fabric's hosts.
pub struct IbfatSchedule {
    pattern: Box<dyn ibfat::schedule::Pattern>,
    /// Port GUID of every rank.
    guids: Vec<u64>,
}

/// A fabric: nodes, ports, cables, and (once known) its family layout and LIDs.
pub struct IbfatFabric {
    fabric: Fabric,
    layout: Option<Layout>,
}

/// LIDs and LFTs of a fabric.
pub struct IbfatRoutes {
    lids: Lids,
    lfts: LftSet,
    /// (switch GUID, row) sorted by GUID
    by_guid: Vec<(u64, u32)>,
    fabric: Fabric,
}

/// Validation summary of [`ibfat_routes_validate`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct IbfatValidation {
    /// 1 when every LID is delivered from every switch, minimal where promised, deadlock free.
    pub ok: i32,
    pub black_holes: u64,
    pub loops: u64,
    pub misdelivered: u64,
    pub non_minimal: u64,
    /// 1 when the channel dependency graph of all CA-sourced routes is acyclic.
    pub deadlock_free: i32,
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(msg: &str) {
    let c = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// A failure: status and message.
struct Fail(IbfatStatus, String);

impl From<Error> for Fail {
    fn from(e: Error) -> Fail {
        let code = match e.exit_code() {
            2 => IbfatStatus::IbfatEInput,
            _ => IbfatStatus::IbfatEIo,
        };
        Fail(code, e.to_string())
    }
}

fn arg(msg: &str) -> Fail {
    Fail(IbfatStatus::IbfatEArg, msg.to_string())
}

/// Run `f`, catching panics; set the last error on failure.
fn guard(f: impl FnOnce() -> Result<(), Fail>) -> IbfatStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => {
            set_error("");
            IbfatStatus::IbfatOk
        }
        Ok(Err(Fail(code, msg))) => {
            set_error(&msg);
            code
        }
        Err(p) => {
            let what = ibfat::error::panic_message(p.as_ref());
            set_error(&format!("internal error (please report): {what}"));
            IbfatStatus::IbfatEInternal
        }
    }
}

unsafe fn cstr<'a>(p: *const c_char, what: &str) -> Result<&'a str, Fail> {
    if p.is_null() {
        return Err(arg(&format!("{what} is NULL")));
    }
    CStr::from_ptr(p)
        .to_str()
        .map_err(|_| arg(&format!("{what} is not UTF-8")))
}

unsafe fn handle<'a, T>(p: *const T, what: &str) -> Result<&'a T, Fail> {
    p.as_ref().ok_or_else(|| arg(&format!("{what} handle is NULL")))
}

unsafe fn handle_mut<'a, T>(p: *mut T, what: &str) -> Result<&'a mut T, Fail> {
    p.as_mut().ok_or_else(|| arg(&format!("{what} handle is NULL")))
}

unsafe fn out<'a, T>(p: *mut T, what: &str) -> Result<&'a mut T, Fail> {
    p.as_mut().ok_or_else(|| arg(&format!("out-pointer {what} is NULL")))
}

/// The library version, a static NUL-terminated string.
#[no_mangle]
pub extern "C" fn ibfat_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

/// Message of the last failed call on this thread ("" after a success). Valid until the
/// next ibfat call on the same thread; never NULL.
#[no_mangle]
pub extern "C" fn ibfat_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Self-test of the panic barrier: panics inside the library and returns what every entry
/// point returns then, `IBFAT_E_INTERNAL`, with the panic message in `ibfat_last_error()`.
/// Lets integrators check that no unwinding reaches their code.
#[no_mangle]
pub extern "C" fn ibfat_selftest_panic_barrier() -> IbfatStatus {
    guard(|| {
        let v: Vec<u8> = Vec::new();
        let i = v.len() + 3;
        let _ = v[i]; // index out of bounds: a genuine panic
        Ok(())
    })
}

/// Create an empty fabric to describe node by node. Free with [`ibfat_fabric_free`].
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_new(out_fabric: *mut *mut IbfatFabric) -> IbfatStatus {
    guard(|| {
        let o = out(out_fabric, "out_fabric")?;
        *o = Box::into_raw(Box::new(IbfatFabric {
            fabric: Fabric::new(),
            layout: None,
        }));
        Ok(())
    })
}

/// Load a topology: an ibfat plan folder, a fabric.yaml, an ibsim net file or
/// `ibnetdiscover` output (which carries LIDs when the subnet was swept).
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_load(path: *const c_char, out_fabric: *mut *mut IbfatFabric) -> IbfatStatus {
    guard(|| {
        let p = Path::new(cstr(path, "path")?);
        let o = out(out_fabric, "out_fabric")?;
        let (fabric, layout) = load(p)?;
        *o = Box::into_raw(Box::new(IbfatFabric { fabric, layout }));
        Ok(())
    })
}

fn load(p: &Path) -> Result<(Fabric, Option<Layout>), Fail> {
    let lf = ibfat::topology::load::load_fabric(p, Default::default())?;
    Ok((lf.fabric, lf.layout))
}

/// Build a fabric from the text of a fabric.yaml spec (e.g. "family: lsft\norder: 7\n").
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_build(
    spec_yaml: *const c_char,
    out_fabric: *mut *mut IbfatFabric,
) -> IbfatStatus {
    guard(|| {
        let text = cstr(spec_yaml, "spec_yaml")?;
        let o = out(out_fabric, "out_fabric")?;
        let plan = Spec::from_yaml(text, Path::new("<spec>"))?.build()?;
        *o = Box::into_raw(Box::new(IbfatFabric {
            fabric: plan.fabric,
            layout: Some(plan.layout),
        }));
        Ok(())
    })
}

/// Add a node with `nports` external ports; its id (0, 1, 2 ... in call order) goes to
/// `out_id`. CA port GUIDs default to node GUID + port number (set others with
/// [`ibfat_fabric_set_port_guid`]). `name` must be unique; `desc` is the NodeDescription.
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_add_node(
    fabric: *mut IbfatFabric,
    kind: IbfatNodeKind,
    nports: u32,
    guid: u64,
    name: *const c_char,
    desc: *const c_char,
    out_id: *mut u32,
) -> IbfatStatus {
    guard(|| {
        let f = handle_mut(fabric, "fabric")?;
        let name = cstr(name, "name")?;
        let desc = if desc.is_null() { name } else { cstr(desc, "desc")? };
        let o = out(out_id, "out_id")?;
        let kind = match kind {
            IbfatNodeKind::IbfatSwitch => NodeKind::Switch,
            IbfatNodeKind::IbfatCa => NodeKind::Ca,
            IbfatNodeKind::IbfatRouter => NodeKind::Router,
        };
        *o = f.fabric.add_node(kind, nports, guid, name, desc)?;
        f.layout = None;
        Ok(())
    })
}

/// Cable port `port_a` of node `a` to port `port_b` of node `b`.
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_connect(
    fabric: *mut IbfatFabric,
    a: u32,
    port_a: u32,
    b: u32,
    port_b: u32,
) -> IbfatStatus {
    guard(|| {
        let f = handle_mut(fabric, "fabric")?;
        if a as usize >= f.fabric.len() || b as usize >= f.fabric.len() {
            return Err(Fail(
                IbfatStatus::IbfatENotFound,
                format!("node {} does not exist", a.max(b)),
            ));
        }
        f.fabric.connect(a, port_a, b, port_b)?;
        f.layout = None;
        Ok(())
    })
}

/// Set the GUID of a CA or router port.
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_set_port_guid(
    fabric: *mut IbfatFabric,
    node: u32,
    port: u32,
    guid: u64,
) -> IbfatStatus {
    guard(|| {
        let f = handle_mut(fabric, "fabric")?;
        let i = f
            .fabric
            .try_port_index(node, port)
            .map_err(|e| Fail(IbfatStatus::IbfatENotFound, e.to_string()))?;
        f.fabric.ports[i as usize].guid = guid;
        Ok(())
    })
}

/// Record the LID (and LMC) a subnet manager gave a CA port or a switch (port 0).
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_set_lid(
    fabric: *mut IbfatFabric,
    node: u32,
    port: u32,
    lid: u16,
    lmc: u8,
) -> IbfatStatus {
    guard(|| {
        let f = handle_mut(fabric, "fabric")?;
        let i = f
            .fabric
            .try_port_index(node, port)
            .map_err(|e| Fail(IbfatStatus::IbfatENotFound, e.to_string()))?;
        f.fabric.ports[i as usize].lid = lid;
        f.fabric.ports[i as usize].lmc = lmc;
        Ok(())
    })
}

/// Numbers of switches, channel adapters and cables.
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_counts(
    fabric: *const IbfatFabric,
    switches: *mut u32,
    cas: *mut u32,
    cables: *mut u32,
) -> IbfatStatus {
    guard(|| {
        let f = handle(fabric, "fabric")?;
        *out(switches, "switches")? = f.fabric.switches().count() as u32;
        *out(cas, "cas")? = f.fabric.cas().count() as u32;
        *out(cables, "cables")? = f.fabric.link_count() as u32;
        Ok(())
    })
}

/// The family the fabric is known to be (from a plan, or after recognition).
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_family(fabric: *const IbfatFabric, out_family: *mut IbfatFamily) -> IbfatStatus {
    guard(|| {
        let f = handle(fabric, "fabric")?;
        *out(out_family, "out_family")? = match &f.layout {
            None => IbfatFamily::IbfatFamilyAuto,
            Some(Layout::Lsft(_)) => IbfatFamily::IbfatFamilyLsft,
            Some(Layout::Kary(_)) => IbfatFamily::IbfatFamilyKary,
            Some(Layout::Mols(_)) => IbfatFamily::IbfatFamilyMols,
        };
        Ok(())
    })
}

fn describe(layout: &Layout) -> IbfatRecognition {
    let mut r = IbfatRecognition {
        family: IbfatFamily::IbfatFamilyAuto,
        order: 0,
        sides: 0,
        arity: 0,
        levels: 0,
        wiring: IbfatWiring::IbfatWiringNone,
        hosts: layout.hosts().len() as u32,
    };
    match layout {
        Layout::Lsft(l) => {
            r.family = IbfatFamily::IbfatFamilyLsft;
            r.order = l.q;
            r.sides = l.sides;
        }
        Layout::Kary(l) => {
            r.family = IbfatFamily::IbfatFamilyKary;
            r.arity = l.k;
            r.levels = l.levels;
        }
        Layout::Mols(l) => {
            r.family = IbfatFamily::IbfatFamilyMols;
            r.arity = l.n;
            r.levels = 3;
            r.wiring = match l.wiring {
                Wiring::Standard => IbfatWiring::IbfatWiringStandard,
                Wiring::Basic => IbfatWiring::IbfatWiringBasic,
                Wiring::Mols => IbfatWiring::IbfatWiringMols,
                Wiring::Custom => IbfatWiring::IbfatWiringCustom,
            };
        }
    }
    r
}

/// Recognise the family of the fabric from its cabling alone (port order, GUIDs and names
/// do not matter) and remember it for routing and schedules. `hint` restricts the search
/// (`IBFAT_FAMILY_AUTO` tries all). A fabric of no known family returns
/// `IBFAT_E_UNRECOGNISED` and `ibfat_last_error()` says why.
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_recognize(
    fabric: *mut IbfatFabric,
    hint: IbfatFamily,
    out_result: *mut IbfatRecognition,
) -> IbfatStatus {
    guard(|| {
        let f = handle_mut(fabric, "fabric")?;
        let o = out(out_result, "out_result")?;
        let hint = match hint {
            IbfatFamily::IbfatFamilyAuto => None,
            IbfatFamily::IbfatFamilyLsft => Some(FamilyHint::Lsft),
            IbfatFamily::IbfatFamilyKary => Some(FamilyHint::Kary),
            IbfatFamily::IbfatFamilyMols => Some(FamilyHint::Mols),
        };
        match recognize(&f.fabric, hint) {
            Recognition::Recognised { layout, .. } => {
                *o = describe(&layout);
                f.layout = Some(layout);
                Ok(())
            }
            Recognition::Unrecognised { reason, .. } => Err(Fail(IbfatStatus::IbfatEUnrecognised, reason)),
        }
    })
}

/// Free a fabric (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_free(fabric: *mut IbfatFabric) {
    if !fabric.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(fabric))));
    }
}

/// Compute the LFTs of every switch (the fabric's family must be known: built from a spec,
/// loaded from a plan, or recognised). `lmc` is 0 or 1.
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_compute(
    fabric: *const IbfatFabric,
    lmc: u8,
    lids: IbfatLidSource,
    out_routes: *mut *mut IbfatRoutes,
) -> IbfatStatus {
    guard(|| {
        let f = handle(fabric, "fabric")?;
        let o = out(out_routes, "out_routes")?;
        let layout = f.layout.as_ref().ok_or_else(|| {
            Fail(
                IbfatStatus::IbfatEUnrecognised,
                "the fabric's family is not known: recognise it first".into(),
            )
        })?;
        if lmc > 1 {
            return Err(arg("lmc must be 0 or 1"));
        }
        let l = match lids {
            IbfatLidSource::IbfatLidsPlan => Lids::plan(&f.fabric, layout.hosts(), lmc)?,
            IbfatLidSource::IbfatLidsFabric => match Lids::discovered(&f.fabric)? {
                Some(l) => l,
                None => Lids::plan(&f.fabric, layout.hosts(), lmc)?,
            },
        };
        let lfts = route(&f.fabric, layout, &l)?;
        let mut by_guid: Vec<(u64, u32)> = lfts
            .switches
            .iter()
            .enumerate()
            .map(|(r, &s)| (f.fabric.node(s).guid, r as u32))
            .collect();
        by_guid.sort_unstable();
        *o = Box::into_raw(Box::new(IbfatRoutes {
            lids: l,
            lfts,
            by_guid,
            fabric: f.fabric.clone(),
        }));
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
        let r = handle(routes, "routes")?;
        *out(out_max, "out_max")? = r.lids.max_lid();
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
        let r = handle(routes, "routes")?;
        let row = row_of(r, switch_guid)?;
        if lid as usize >= r.lfts.stride {
            return Err(Fail(
                IbfatStatus::IbfatENotFound,
                format!("LID {lid} is beyond the largest LID {}", r.lfts.stride - 1),
            ));
        }
        *out(out_port, "out_port")? = r.lfts.row(row)[lid as usize];
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
        let r = handle(routes, "routes")?;
        let row = row_of(r, switch_guid)?;
        let t = r.lfts.row(row);
        *out(out_table, "out_table")? = t.as_ptr();
        *out(out_len, "out_len")? = t.len();
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
        let r = handle(routes, "routes")?;
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
        *out(out_lid, "out_lid")? = r.lids.base[i];
        Ok(())
    })
}

/// Write the LFTs as OpenSM's opensm-lfts.dump (atomically) and the LIDs as guid2lid.
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_write(
    routes: *const IbfatRoutes,
    dump_path: *const c_char,
    guid2lid_path: *const c_char,
) -> IbfatStatus {
    guard(|| {
        let r = handle(routes, "routes")?;
        let dump = Path::new(cstr(dump_path, "dump_path")?);
        lftdump::write_opensm_file(dump, &r.fabric, &r.lids, &r.lfts)?;
        if !guid2lid_path.is_null() {
            let g = Path::new(cstr(guid2lid_path, "guid2lid_path")?);
            ibfat::formats::atomic::write_file(g, r.lids.to_guid2lid(&r.fabric).as_bytes())?;
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
        let r = handle(routes, "routes")?;
        let v = validate(&r.fabric, &r.lids, &r.lfts, None);
        *out(out_report, "out_report")? = IbfatValidation {
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

fn parse_schedule_options(text: &str, kind: PatternKind, topo: &Topo) -> Result<Request, Fail> {
    let mut req = Request::new(kind);
    let (mut block, mut per_leaf) = (None, None);
    let num = |k: &str, v: &str| -> Result<u64, Fail> {
        v.parse()
            .map_err(|_| Fail(IbfatStatus::IbfatEInput, format!("option {k}={v}: not a number")))
    };
    for tok in text.split([',', ';']).map(str::trim).filter(|t| !t.is_empty()) {
        let (k, v) = tok
            .split_once('=')
            .ok_or_else(|| Fail(IbfatStatus::IbfatEInput, format!("option `{tok}` is not key=value")))?;
        match k {
            "seed" => req.seed = num(k, v)?,
            "phases" => req.phases = Some(num(k, v)? as usize),
            "job_size" => req.job_size = Some(num(k, v)? as usize),
            "block" => block = Some(num(k, v)? as u32),
            "per_leaf" => per_leaf = Some(num(k, v)? as u32),
            "job" => req.job = Some(Job::from_arg(v, &Hosts::of(topo))?),
            _ => {
                return Err(Fail(
                    IbfatStatus::IbfatEInput,
                    format!("unknown option `{k}` (seed, phases, job_size, block, per_leaf, job)"),
                ))
            }
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
/// bisection; `options` (may be NULL) is a comma-separated list of `seed=S`, `phases=P`,
/// `job_size=D`, `block=K`, `per_leaf=M`, `job=ranks:0-63`.
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_new(
    fabric: *const IbfatFabric,
    pattern: *const c_char,
    options: *const c_char,
    out_schedule: *mut *mut IbfatSchedule,
) -> IbfatStatus {
    guard(|| {
        let f = handle(fabric, "fabric")?;
        let kind: PatternKind = cstr(pattern, "pattern")?.parse()?;
        let opts = if options.is_null() {
            ""
        } else {
            cstr(options, "options")?
        };
        let o = out(out_schedule, "out_schedule")?;
        let layout = f.layout.as_ref().ok_or_else(|| {
            Fail(
                IbfatStatus::IbfatEUnrecognised,
                "the fabric's family is not known: recognise it first".into(),
            )
        })?;
        let topo = Topo {
            fabric: &f.fabric,
            layout,
            name: "fabric".into(),
        };
        let req = parse_schedule_options(opts, kind, &topo)?;
        let (g, _) = generate(&topo, &req)?;
        let guids = g.job.port_guids(&f.fabric);
        *o = Box::into_raw(Box::new(IbfatSchedule {
            pattern: g.pattern,
            guids,
        }));
        Ok(())
    })
}

/// Read a schedule file (ibfat's JSON format) for this fabric; its hosts must be the
/// fabric's.
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_load(
    fabric: *const IbfatFabric,
    path: *const c_char,
    out_schedule: *mut *mut IbfatSchedule,
) -> IbfatStatus {
    guard(|| {
        let f = handle(fabric, "fabric")?;
        let p = Path::new(cstr(path, "path")?);
        let o = out(out_schedule, "out_schedule")?;
        let all = match &f.layout {
            Some(l) => l.hosts().to_vec(),
            None => f.fabric.endpoints(),
        };
        let (sched, _) = schedule_file::read_json(p, Some(&Hosts::new(&f.fabric, &all, "fabric")))?;
        let guids = sched.hosts.clone();
        *o = Box::into_raw(Box::new(IbfatSchedule {
            pattern: Box::new(sched),
            guids,
        }));
        Ok(())
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
        let s = handle(schedule, "schedule")?;
        *out(out_ranks, "out_ranks")? = s.pattern.ranks() as u32;
        *out(out_phases, "out_phases")? = s.pattern.phases() as u32;
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
        let s = handle(schedule, "schedule")?;
        check_rank_phase(s, rank, 0)?;
        check_rank_phase(s, 0, phase)?;
        *out(out_peer, "out_peer")? = s.pattern.peer(phase as usize, rank as usize);
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
        let s = handle(schedule, "schedule")?;
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
        let buf = std::slice::from_raw_parts_mut(out_dest, len);
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
        let s = handle(schedule, "schedule")?;
        check_rank_phase(s, rank, 0)?;
        *out(out_guid, "out_guid")? = s.guids[rank as usize];
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
        let s = handle(schedule, "schedule")?;
        let r = s.guids.iter().position(|&g| g == port_guid).ok_or_else(|| {
            Fail(
                IbfatStatus::IbfatENotFound,
                format!("port GUID 0x{port_guid:016x} is not a rank of this schedule"),
            )
        })?;
        *out(out_rank, "out_rank")? = r as u32;
        Ok(())
    })
}

/// Free a schedule (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn ibfat_schedule_free(schedule: *mut IbfatSchedule) {
    if !schedule.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(schedule))));
    }
}

/// Free routes (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn ibfat_routes_free(routes: *mut IbfatRoutes) {
    if !routes.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(routes))));
    }
}
