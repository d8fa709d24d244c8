//! OpenSM 3.3.23 event plugin that adds the `ibfat` routing engine to a stock OpenSM.
//!
//! OpenSM loads it with `event_plugin_name ibfatosm` (it `dlopen`s `libibfatosm.so` and
//! reads the `osm_event_plugin` symbol). `create()` registers the engine; selecting it with
//! `routing_engine ibfat` (or `-R ibfat`, or `ibfat,minhop` to keep a fallback) makes every
//! routing pass read the discovered subnet, recognise its family, compute ibfat's LFTs with
//! the LIDs OpenSM assigned (LMC 1: MOLS latency routes on base+1) and fill every switch's
//! new LFT. Options come from `event_plugin_options`, separated by commas or blanks:
//!
//! * `family=auto|<name>` — the family the fabric must be, a name of `ibfat::FAMILIES`
//!   (default auto);
//! * `schedule_out=PATH` — write the all-to-all schedule of the fabric there (atomically)
//!   after every successful pass, in ibfat's schedule JSON format, with the fingerprints of
//!   the fabric and of the tables it was computed for. A missing folder is created (mode
//!   0755) when the plugin loads. When a pass fails (OpenSM falls back to another engine)
//!   or the schedule cannot be written, the schedule an earlier pass wrote is removed: it
//!   no longer describes the tables in the switches;
//! * `pattern=NAME` — which schedule (default: `lsft` on a Latin-square fat-tree,
//!   `kary-shift`/`mols-shift` on trees);
//! * `validate=1` — validate the tables before handing them to OpenSM (the log says what
//!   validation found);
//! * `cn_guid_file=PATH`, `io_guid_file=PATH`, `io_names=PATTERN|PATTERN…` — host roles
//!   (as ftree's files; [`ibfat::topology::roles`]): non-compute hosts are routed at their
//!   tree slots but left out of the rank order and the schedule. On a live subnet a listed
//!   host may be powered off: a GUID not in the subnet or a pattern matching nothing is
//!   logged and skipped; a GUID listed twice or a host in both lists fails the pass;
//! * the paths of `schedule_out`, `cn_guid_file` and `io_guid_file` must be regular files
//!   (`schedule_out` may be absent): a FIFO, device, socket, folder or `-` is refused when
//!   the options are read, because OpenSM would wait on it forever ([`options::regular_path`]);
//! * `degraded=route|refuse` — what to do with a known family that lost cables or
//!   switches (default route): ibfat's detours (docs/routing.md §2.4), deadlock-free on
//!   two data VLs, three when some route turns twice. The engine then answers OpenSM's `path_sl` (the SL of every path, in SA
//!   PathRecords) and `update_sl2vl` (the SL-to-VL table of every switch port pair), which
//!   OpenSM programs only with QoS on (`-Q`, `qos TRUE`): without it, or when a port
//!   offers fewer VLs than the routes need, the pass is refused with the reason. The
//!   faults are logged. On an intact fabric both callbacks leave OpenSM's choices alone.
//!
//! * `reuse=1|0` — a re-sweep of a subnet whose node and port records are all as one of
//!   the last four successful passes read them (the same subnet, or one a flapping cable
//!   brought back) programs that pass's tables and lanes again instead of routing anew
//!   (default 1; [`reuse`]); so does the pass after a single change of a small subnet (a
//!   cable, a host's cable, a switch gone), whose tables a low-priority thread computed
//!   ahead ([`ahead`]). `reuse=0` computes every pass (to time the engine). With host
//!   role options every pass computes (the role files are read during the pass).
//!
//! * `state_file=PATH` — keep the records of the last subnet programmed there (written
//!   atomically by the low-priority thread; a missing folder is created at load). When
//!   the plugin loads again, that thread computes their tables and those of their single
//!   changes while OpenSM discovers the subnet, and a first pass that reads the same
//!   records programs them ([`subnet::saved`]). A damaged file is named in the log and
//!   replaced after the first pass. Not read nor written with `reuse=0` or host roles.
//!
//! * `objective=family|spread` — what the routes optimise (default family). `spread`, on a
//!   Latin-square fat-tree intact or degraded: every host slot of a leaf is reached over a
//!   different up link of every other leaf (one-turn detours on two data VLs, with
//!   `path_sl` and `update_sl2vl` as for a degraded fabric, so QoS must be on), for traffic
//!   not arranged for the plane — shifts, permutations, randomly placed jobs; the family's
//!   own all-to-all is no longer conflict-free on such tables (docs/routing.md §2.9), so
//!   `schedule_out` is not written (an earlier pass's file is removed). Other families
//!   keep their routes (they spread by destination already).
//!
//! Anything the engine cannot route (an unrecognisable or damaged fabric, bad options, an
//! internal error) is logged with the reason and the pass returns failure, so OpenSM falls
//! back to the next engine of its list (minhop by default). Nothing here panics across the
//! C boundary and nothing blocks: the engine runs in the routing pass and returns.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod after;
mod ahead;
mod aside;
mod hops;
mod lanes;
mod options;
mod passlog;
mod reuse;
mod schedule;
mod stages;
mod subnet;

use after::Later;
use ahead::Ahead;
use aside::{LidsFault, ProgramFault, RolesRefusal, StepAside};
use ibfat::check::prove;
use ibfat::formats::roles::resolve as resolve_roles;
use ibfat::recognize::{recognize_to_route, Recognition};
use ibfat::routing::small::PassThreads;
use ibfat::routing::{route_fabric, Ask, LftSet, Lids, Objective, Shape};
use ibfat::topology::{Fabric, Layout, Topology};
use lanes::{ActiveLanes, VlOffer};
pub use options::{parse_options, Options};
use passlog::Origin;
use reuse::{LastPass, Recent};
use schedule::{ensure_folder, retire_schedule, write_schedule};
use stages::Marks;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;
use subnet::{subnet_of, Reading, Records};

/// The OpenSM release this plugin was built against (checked by build.rs).
pub const OSM_VERSION: &str = env!("IBFAT_OSM_VERSION");

type BuildFn = extern "C" fn(*mut c_void) -> c_int;
type PathSlFn = extern "C" fn(*mut c_void, u8, u16, u16) -> u8;
type Sl2VlFn = extern "C" fn(*mut c_void, u64, c_int, u8, u8, *mut u8) -> c_int;

extern "C" {
    fn ibfat_shim_register(
        osm: *mut c_void,
        name: *const c_char,
        build: BuildFn,
        path_sl: PathSlFn,
        sl2vl: Sl2VlFn,
        ctx: *mut c_void,
    ) -> c_int;
    fn ibfat_shim_qos(osm: *mut c_void, qos: *mut c_int, max_op_vls: *mut u8);
    fn ibfat_shim_log(osm: *mut c_void, error: c_int, msg: *const c_char);
    fn ibfat_shim_options(osm: *mut c_void) -> *const c_char;
    fn ibfat_shim_sweep_event(event: c_int) -> c_int;
    fn ibfat_shim_engine_listed(osm: *mut c_void, name: *const c_char) -> c_int;
    fn ibfat_shim_set_lft(osm: *mut c_void, sw_guid: u64, lft: *const u8, len: c_uint, lft_size: *mut c_uint) -> c_int;
    fn ibfat_shim_set_hops(
        osm: *mut c_void,
        sw_guid: u64,
        lids: *const u16,
        ports: *const u8,
        hops: *const u8,
        n: c_uint,
    ) -> c_int;
}

/// The event plugin descriptor OpenSM looks up (`osm_event_plugin_t`).
#[repr(C)]
pub struct OsmEventPlugin {
    osm_version: *const c_char,
    create: extern "C" fn(*mut c_void) -> *mut c_void,
    delete: extern "C" fn(*mut c_void),
    report: extern "C" fn(*mut c_void, c_int, *mut c_void),
}

// SAFETY: the descriptor is never written (an immutable static without interior
// mutability); its pointer leads to a static string and its functions are plain code, so
// OpenSM's threads may all read it.
unsafe impl Sync for OsmEventPlugin {}

const VERSION_C: &str = concat!(env!("IBFAT_OSM_VERSION"), "\0");

/// The descriptor OpenSM `dlsym`s: the version it checks and the plugin's entry points.
#[no_mangle]
pub static osm_event_plugin: OsmEventPlugin = OsmEventPlugin {
    osm_version: VERSION_C.as_ptr() as *const c_char,
    create,
    delete,
    report,
};

/// The engine's state. OpenSM calls into it from its routing pass and from its SA and QoS
/// code (other threads), so it is only ever shared: the lanes of the last pass sit behind
/// a lock.
struct Plugin {
    osm: *mut c_void,
    options: Result<Options, Arc<ibfat::Error>>,
    passes: AtomicU64,
    /// The routing thread was warmed up ([`report`]).
    warmed: AtomicBool,
    /// Node and port counts of the last subnet read (high and low 32 bits): the next read
    /// sizes its records by them and walks OpenSM's tables once.
    sizes: AtomicU64,
    /// The SL/VL rules of the tables programmed by the last successful pass, if they need
    /// any (a degraded fabric); `None`: OpenSM's own SLs and SL-to-VL tables stand.
    lanes: RwLock<Option<Arc<ActiveLanes>>>,
    /// What the last successful passes computed, for a re-sweep of one of their subnets.
    recent: Mutex<Recent>,
    /// Tables computed ahead for the single changes of the last subnet programmed.
    ahead: Ahead,
    /// What the passes left for after the tables are out.
    later: Later,
}

fn log(osm: *mut c_void, error: bool, msg: &str) {
    for line in msg.lines() {
        let c = CString::new(format!("ibfat: {line}").replace('\0', " ")).unwrap_or_default();
        // SAFETY: osm is the opensm pointer OpenSM gave create(); the string is NUL-terminated
        unsafe { ibfat_shim_log(osm, error as c_int, c.as_ptr()) };
    }
}

extern "C" fn create(osm: *mut c_void) -> *mut c_void {
    let res = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: osm is the osm_opensm_t OpenSM passes to create(); the shim returns NULL or
        // OpenSM's NUL-terminated options string, which lives as long as OpenSM and is copied
        // here before anything else runs
        let text = unsafe {
            let p = ibfat_shim_options(osm);
            if p.is_null() {
                String::new()
            } else {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        };
        let options = parse_options(&text).map_err(Arc::new);
        match &options {
            Ok(o) => {
                log(
                    osm,
                    false,
                    &format!(
                        "plugin {} loaded for {OSM_VERSION}, options {}",
                        env!("CARGO_PKG_VERSION"),
                        o.describe()
                    ),
                );
                let outputs = [("schedule_out", &o.schedule_out), ("state_file", &o.state_file)];
                for (key, path) in outputs.iter().filter_map(|(k, p)| Some((k, p.as_ref()?))) {
                    match ensure_folder(path) {
                        Ok(Some(made)) => log(
                            osm,
                            false,
                            &format!("created the folder {} (mode 0755) for {key}", made.display()),
                        ),
                        Ok(None) => {}
                        Err(e) => log(osm, true, &format!("{key}: {e}; it will not be written")),
                    }
                }
            }
            Err(e) => log(
                osm,
                true,
                &format!("bad plugin options: {e}; the ibfat engine will refuse to route"),
            ),
        }
        let plugin = Box::new(Plugin {
            osm,
            options,
            passes: AtomicU64::new(0),
            warmed: AtomicBool::new(false),
            sizes: AtomicU64::new(0),
            lanes: RwLock::new(None),
            recent: Mutex::new(Recent::default()),
            ahead: Ahead::new(),
            later: Later::default(),
        });
        // tables computed ahead need their thread: started now, not in the first pass
        if let Ok(o) = &plugin.options {
            if o.reuse && o.roles.is_empty() {
                plugin.ahead.start(osm);
                if let Some(digest) = ahead::resume(osm, o, &plugin.ahead) {
                    plugin.later.kept_in_file(digest);
                }
            }
        }
        let plugin = Box::into_raw(plugin);
        // SAFETY: the name is a static C string; the context outlives the engine (freed in delete())
        let st = unsafe {
            ibfat_shim_register(
                osm,
                c"ibfat".as_ptr(),
                build_fwd_tables,
                path_sl,
                update_sl2vl,
                plugin as *mut c_void,
            )
        };
        if st != 0 {
            log(
                osm,
                true,
                &format!("osm_register_external_routing_engine failed ({st})"),
            );
        }
        plugin as *mut c_void
    }));
    res.unwrap_or(std::ptr::null_mut())
}

extern "C" fn delete(data: *mut c_void) {
    if !data.is_null() {
        // SAFETY: data is the Box created in create(); OpenSM calls delete once, at exit
        let plugin = unsafe { Box::from_raw(data as *mut Plugin) };
        // the worker logs through OpenSM: it ends before OpenSM does
        let _ = catch_unwind(AssertUnwindSafe(|| {
            plugin.ahead.stop();
            drop(plugin)
        }));
    }
}

/// OpenSM's events. Once the switches have their tables, and at the start of every heavy
/// sweep, the plugin does what the last pass left for then ([`after`]). When a heavy
/// sweep's discovery ends, it has the tables of the subnet found computed while OpenSM
/// configures it ([`ahead::discovered`]). At the start of
/// its first heavy sweep, on the thread that will run the routing passes and before
/// discovery, it warms that thread up ([`ahead::warm_up`]): what a thread does once (its
/// one-thread pool, its allocator cache, lazily made tables, code paged in) is then not
/// done inside the first pass.
extern "C" fn report(data: *mut c_void, event: c_int, _event_data: *mut c_void) {
    // SAFETY: a plain comparison with OpenSM's enum values
    let sweep = unsafe { ibfat_shim_sweep_event(event) };
    if sweep == 0 {
        return;
    }
    // SAFETY: data is the context create() returned
    let Some(plugin) = (unsafe { plugin_of(data) }) else {
        return;
    };
    let _ = catch_unwind(AssertUnwindSafe(|| match &plugin.options {
        Ok(o) if sweep == 3 => {
            // SAFETY: osm is OpenSM's; the name is a static C string
            let listed = unsafe { ibfat_shim_engine_listed(plugin.osm, c"ibfat".as_ptr()) } == 1;
            if o.reuse && o.roles.is_empty() && listed {
                let first = plugin.passes.load(Ordering::Relaxed) == 0;
                ahead::discovered(plugin.osm, o, &plugin.sizes, first, &plugin.recent, &plugin.ahead);
            }
        }
        Ok(o) => plugin.later.run(plugin.osm, o, &plugin.recent, &plugin.ahead),
        Err(_) => {}
    }));
    if sweep != 1 || plugin.warmed.swap(true, Ordering::Relaxed) {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if let Ok(o) = &plugin.options {
            let t = Instant::now();
            PassThreads::for_entries(0).run(|| ahead::warm_up(o));
            log(
                plugin.osm,
                false,
                &format!(
                    "warmed up the routing thread in {:.3} ms, before the first discovery",
                    t.elapsed().as_secs_f64() * 1e3
                ),
            );
        }
    }));
}

/// The Plugin behind an engine context, shared.
///
/// # Safety
/// `ctx` is null or the Plugin registered in create(), alive until delete().
unsafe fn plugin_of<'a>(ctx: *mut c_void) -> Option<&'a Plugin> {
    // SAFETY: per the contract; the Plugin is only ever borrowed shared
    unsafe { (ctx as *const Plugin).as_ref() }
}

/// OpenSM's `path_sl`: the SL of a path (lanes.rs); OpenSM's hint when ibfat has no rule.
extern "C" fn path_sl(ctx: *mut c_void, hint: u8, slid: u16, dlid: u16) -> u8 {
    // SAFETY: ctx is the context registered in create()
    let Some(plugin) = (unsafe { plugin_of(ctx) }) else {
        return hint;
    };
    catch_unwind(AssertUnwindSafe(|| {
        let lanes = plugin.lanes.read().unwrap_or_else(|e| e.into_inner());
        lanes.as_ref().map_or(hint, |l| l.path_sl(hint, slid, dlid))
    }))
    .unwrap_or(hint)
}

/// OpenSM's `update_sl2vl`: the VL of each SL at a port pair (lanes.rs); 1 when `vls` (16
/// entries) was changed.
extern "C" fn update_sl2vl(ctx: *mut c_void, guid: u64, is_switch: c_int, inp: u8, out: u8, vls: *mut u8) -> c_int {
    // SAFETY: ctx is the context registered in create()
    let Some(plugin) = (unsafe { plugin_of(ctx) }) else {
        return 0;
    };
    if vls.is_null() {
        return 0;
    }
    catch_unwind(AssertUnwindSafe(|| {
        let lanes = plugin.lanes.read().unwrap_or_else(|e| e.into_inner());
        let Some(l) = lanes.as_ref() else {
            return 0;
        };
        let mut table = [0u8; 16];
        // SAFETY: the shim passes a live array of 16 VLs
        let given = unsafe { std::slice::from_raw_parts_mut(vls, 16) };
        table.copy_from_slice(given);
        if l.sl2vl(guid, is_switch != 0, inp, out, &mut table) {
            given.copy_from_slice(&table);
            1
        } else {
            0
        }
    }))
    .unwrap_or(0)
}

extern "C" fn build_fwd_tables(ctx: *mut c_void) -> c_int {
    // SAFETY: ctx is the context registered in create()
    let Some(plugin) = (unsafe { plugin_of(ctx) }) else {
        return -1;
    };
    plugin.passes.fetch_add(1, Ordering::Relaxed);
    let osm = plugin.osm;
    let stale = plugin.options.as_ref().ok().and_then(|o| o.schedule_out.clone());
    let res = catch_unwind(AssertUnwindSafe(|| routing_pass(plugin)));
    if !matches!(res, Ok(Ok(()))) {
        if let Some(path) = &stale {
            // OpenSM now falls back to another engine: the schedule describes old tables
            let _ = catch_unwind(AssertUnwindSafe(|| retire_schedule(osm, path)));
        }
    }
    match res {
        Ok(Ok(())) => 0,
        Ok(Err(why)) => {
            log(
                osm,
                true,
                &format!("cannot route this fabric, falling back to the next engine: {why}"),
            );
            -1
        }
        Err(p) => {
            let what = ibfat::error::panic_message(p.as_ref());
            log(
                osm,
                true,
                &format!("internal error (please report), falling back to the next engine: {what}"),
            );
            -1
        }
    }
}

/// Copy the tables into OpenSM's new LFTs of every switch, and the hops of their routes
/// to switch LIDs (`rows`, from [`hops::switch_lid_hops`]) into OpenSM's hop matrices (the
/// engine skips OpenSM's min-hop propagation: [`hops`]).
fn program(osm: *mut c_void, fabric: &Fabric, lfts: &LftSet, rows: &[Vec<(u16, u8, u8)>]) -> Result<(), ProgramFault> {
    for (row, &sw) in lfts.switches.iter().enumerate() {
        let t = lfts.row(row);
        let mut size: c_uint = 0;
        // SAFETY: t is a live slice of t.len() bytes; the shim copies at most the switch's LFT size
        let rc = unsafe { ibfat_shim_set_lft(osm, fabric.node(sw).guid, t.as_ptr(), t.len() as c_uint, &mut size) };
        if rc != 0 {
            return Err(ProgramFault::UnknownSwitch(fabric.node(sw).guid));
        }
        if (size as usize) < t.len() {
            return Err(ProgramFault::ShortLft {
                switch: fabric.node(sw).guid,
                size,
                needed: t.len(),
            });
        }
    }
    for (row, entries) in rows.iter().enumerate() {
        let sw = lfts.switches[row];
        let l: Vec<u16> = entries.iter().map(|e| e.0).collect();
        let p: Vec<u8> = entries.iter().map(|e| e.1).collect();
        let h: Vec<u8> = entries.iter().map(|e| e.2).collect();
        // SAFETY: three live slices of entries.len() elements each; the shim only reads them
        let rc = unsafe {
            ibfat_shim_set_hops(
                osm,
                fabric.node(sw).guid,
                l.as_ptr(),
                p.as_ptr(),
                h.as_ptr(),
                entries.len() as c_uint,
            )
        };
        if rc != 0 {
            return Err(ProgramFault::UnknownSwitch(fabric.node(sw).guid));
        }
    }
    Ok(())
}

/// What OpenSM offers for virtual lanes on this subnet.
fn vl_offer(osm: *mut c_void, subnet_lowest: Option<(u8, u64, u8)>) -> VlOffer {
    let (mut qos, mut max_op_vls): (c_int, u8) = (0, 0);
    // SAFETY: osm is OpenSM's; plain out-parameters
    unsafe { ibfat_shim_qos(osm, &mut qos, &mut max_op_vls) };
    VlOffer {
        qos: qos != 0,
        max_op_vls,
        lowest_cap: subnet_lowest,
    }
}

/// What a pass found on the subnet: a family as built (host roles applied), or a family
/// with holes.
pub(crate) enum Found {
    Intact(Topology),
    Degraded(Fabric, ibfat::recognize::Degraded),
}

impl Found {
    pub(crate) fn fabric(&self) -> &Fabric {
        match self {
            Found::Intact(t) => &t.fabric,
            Found::Degraded(f, _) => f,
        }
    }

    fn shape(&self) -> Shape<'_> {
        match self {
            Found::Intact(t) => Shape::Intact(&t.layout),
            Found::Degraded(_, d) => Shape::Degraded {
                holes: &d.holes,
                description: &d.description,
            },
        }
    }

    fn layout(&self) -> Option<&Layout> {
        match self {
            Found::Intact(t) => Some(&t.layout),
            Found::Degraded(..) => None,
        }
    }
}

/// One routing pass: read the subnet, and hand OpenSM the last pass's tables if it has
/// not changed ([`reuse`]); else recognise it, route it through the library's pipeline
/// and prove. Then program, and write the schedule.
fn routing_pass(plugin: &Plugin) -> Result<(), StepAside> {
    let osm = plugin.osm;
    let options = plugin.options.clone().map_err(StepAside::Options)?;
    let t0 = Instant::now();
    let records = Records::read(osm, &plugin.sizes, Reading::Pass).map_err(StepAside::Subnet)?;
    let offer = vl_offer(osm, records.lowest_vl_cap());
    let pass = plugin.passes.load(Ordering::Relaxed);
    let mut recent = plugin.recent.lock().unwrap_or_else(|e| e.into_inner());
    // a pass that fails leaves nothing for the next one to reuse
    let mut kept = std::mem::take(&mut *recent);
    // computed before: a subnet of a recent pass, or a change computed ahead
    let reusable = options.reuse && options.roles.is_empty();
    let earlier = if reusable {
        (kept.take(&records, &offer).map(|l| (Origin::Kept(l.pass), l))).or_else(|| {
            plugin
                .ahead
                .take(&records, &offer)
                .map(|(r, waited)| (Origin::Ahead(r.base, r.change, waited), r.done))
        })
    } else {
        None
    };
    let (mut done, mut marks, origin) = match earlier {
        Some((origin, l)) => {
            for (error, line) in &l.notes {
                log(osm, *error, line);
            }
            (l, Marks::at(t0.elapsed()), origin)
        }
        None => {
            let mut notes = Vec::new();
            let computed = compute(&options, records, offer, pass, t0, &mut notes);
            for (error, line) in &notes {
                log(osm, *error, line);
            }
            let (mut done, marks) = computed?;
            done.notes = notes;
            (done, marks, Origin::Computed)
        }
    };
    if let Origin::Ahead(..) = origin {
        // first programmed now: a later re-sweep of this subnet says this pass
        done.pass = pass;
    }
    let fabric = done.found.fabric();
    program(osm, fabric, &done.lfts, &done.hops).map_err(StepAside::Program)?;
    // the SLs and SL-to-VL tables of the tables now programmed, whichever pass made them
    let lanes = std::mem::replace(
        &mut *plugin.lanes.write().unwrap_or_else(|e| e.into_inner()),
        done.lanes.clone(),
    );
    plugin.later.discard(&plugin.ahead, Box::new(lanes));
    marks.done = t0.elapsed();
    log(
        osm,
        false,
        &passlog::pass_line(pass, &done.description, &done.lfts, &done.lids, &marks, &origin),
    );
    log(osm, false, &marks.stages().line(pass));
    if let Some(path) = &options.schedule_out {
        match &done.found {
            // nearly every flow of the family's all-to-all is detoured on spread tables:
            // its repair would re-pack them all inside the routing pass (minutes at
            // LSFT(13)), and no schedule is conflict-free there anyway
            _ if options.spread => {
                log(
                    osm,
                    false,
                    "objective=spread: no schedule is written (the family's all-to-all is conflict-free on its own routes only)",
                );
                retire_schedule(osm, path);
            }
            Found::Intact(topo) => write_schedule(osm, &options, topo, &done.lfts, &done.lids, path),
            Found::Degraded(fabric, d) => schedule::write_repaired(osm, fabric, d, &done.lids, &done.lfts, path),
        }
    }
    // the subnet kept below goes to the state file, and is computed ahead when small, once
    // the tables are out (after.rs)
    let small = done.records.threads().single();
    plugin.later.hand_on(reusable.then_some((pass, small)));
    *recent = kept;
    let evicted = recent.keep(done);
    // what the worker may have made goes back to it to free (ahead::Msg)
    plugin.later.discard(&plugin.ahead, Box::new((evicted, origin)));
    Ok(())
}

/// Keep a line of what the pass found for the log (written when the pass has computed,
/// [`compute`] runs on the worker of [`ahead`] too) and for a pass that reuses the tables.
fn note(notes: &mut Vec<(bool, String)>, error: bool, line: String) {
    notes.push((error, line));
}

/// Recognise, route and prove the subnet of `records`: the tables and hop counts to
/// program, the lanes the routes need, and the stage times so far. What it found for the
/// log goes to `notes`, also when it fails; the returned pass holds none of them.
pub(crate) fn compute(
    options: &Options,
    records: Records,
    offer: VlOffer,
    pass: u64,
    t0: Instant,
    notes: &mut Vec<(bool, String)>,
) -> Result<(LastPass, Marks), StepAside> {
    let subnet = subnet_of(&records).map_err(StepAside::Subnet)?;
    if let Some(line) = subnet.unknown_rate_note() {
        note(notes, false, line);
    }
    // a small pass computes on this thread, a large one on all cores (routing::small)
    let threads = records.threads();
    let read = t0.elapsed();
    let found = recognize_subnet(options, subnet.fabric, threads, notes)?;
    let recognised = t0.elapsed();
    let fabric = found.fabric();
    let shape = found.shape();
    let description = shape.describe();
    let lids = Lids::discovered(fabric)
        .map_err(|e| StepAside::Lids(LidsFault::Unusable(e)))?
        .ok_or(StepAside::Lids(LidsFault::Unassigned))?;
    lids.require_complete(fabric)
        .map_err(|e| StepAside::Lids(LidsFault::Unusable(e)))?;
    let t_lids = t0.elapsed();
    let ask = Ask {
        objective: if options.spread {
            Objective::Spread
        } else {
            Objective::Family
        },
        vls: offer.usable(),
    };
    let routed = threads
        .run(|| route_fabric(fabric, shape, &lids, &ask))
        .map_err(|r| StepAside::route(&description, r, |n| offer.refusal(n)))?;
    for line in passlog::route_lines(&routed, &description, &offer) {
        note(notes, false, line);
    }
    let routed_at = t0.elapsed();
    if options.validate {
        let proof = threads.run(|| prove(fabric, &lids, &routed, found.layout()));
        for line in passlog::proof_lines(&proof, &routed) {
            note(notes, !proof.sound, line);
        }
        if !proof.sound {
            return Err(StepAside::Unproven { fabric: description });
        }
    }
    let validated = t0.elapsed();
    let hops = threads.run(|| hops::switch_lid_hops(fabric, &lids, &routed.lfts));
    // up*/down* routes need no lanes (OpenSM's SLs and SL-to-VL tables stand); detours do
    let lanes = routed.lanes.map(|r| Arc::new(ActiveLanes::new(fabric, &lids, r)));
    let marks = Marks {
        read,
        recognised,
        lids: t_lids,
        routed: routed_at,
        validated,
        done: validated,
    };
    let done = LastPass {
        records,
        offer,
        pass,
        found,
        lids,
        lfts: routed.lfts,
        hops,
        description,
        notes: Vec::new(),
        lanes,
    };
    Ok((done, marks))
}

/// Recognise the subnet: an intact family (host roles applied), or a degraded one when
/// `degraded=route`; anything else is refused with recognition's reason.
fn recognize_subnet(
    options: &Options,
    fabric: Fabric,
    threads: PassThreads,
    notes: &mut Vec<(bool, String)>,
) -> Result<Found, StepAside> {
    match threads.run(|| recognize_to_route(&fabric, options.family)) {
        Recognition::Recognized { layout, .. } => {
            if options.spread && !options.roles.is_empty() {
                return Err(StepAside::Roles(RolesRefusal::Spread {
                    fabric: layout.describe(),
                }));
            }
            let layout =
                with_roles(options, &fabric, layout, notes).map_err(|e| StepAside::Roles(RolesRefusal::Apply(e)))?;
            // from here on the subnet is a topology like any planned or loaded one
            Ok(Found::Intact(Topology::discovered(fabric, layout, "subnet")))
        }
        Recognition::Unrecognized { degraded: Some(d), .. } => {
            for line in passlog::fault_lines(&d) {
                note(notes, false, line);
            }
            if !options.route_degraded {
                return Err(StepAside::DegradedRefused { fabric: d.description });
            }
            if !options.roles.is_empty() {
                return Err(StepAside::Roles(RolesRefusal::Degraded { fabric: d.description }));
            }
            Ok(Found::Degraded(fabric, d))
        }
        Recognition::Unrecognized { reason, .. } => Err(StepAside::Unrecognized {
            switches: fabric.switches().count(),
            cas: fabric.cas().count(),
            reason,
        }),
    }
}

/// Apply the host-role options to an intact family's layout.
fn with_roles(
    options: &Options,
    fabric: &Fabric,
    mut layout: Layout,
    notes: &mut Vec<(bool, String)>,
) -> ibfat::Result<Layout> {
    if options.roles.is_empty() {
        return Ok(layout);
    }
    let roles = resolve_roles(fabric, &options.roles, false)?;
    for w in &roles.warnings {
        note(notes, false, format!("host roles: {w} (skipped)"));
    }
    let n = layout.apply_roles(fabric, &roles)?;
    for w in layout.role_warnings() {
        note(notes, false, format!("host roles: {w}"));
    }
    note(
        notes,
        false,
        format!(
            "host roles: {} compute hosts ranked, {n} non-compute hosts routed at their slots",
            layout.hosts().len()
        ),
    );
    Ok(layout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_for_opensm_3_3_23() {
        assert_eq!(OSM_VERSION, "OpenSM 3.3.23");
    }
}
