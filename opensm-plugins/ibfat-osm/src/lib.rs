//! OpenSM 3.3.23 event plugin that adds the `ibfat` routing engine to a stock OpenSM.
//!
//! OpenSM loads it with `event_plugin_name ibfatosm` (it `dlopen`s `libibfatosm.so` and
//! reads the `osm_event_plugin` symbol). `create()` registers the engine; selecting it with
//! `routing_engine ibfat` (or `-R ibfat`, or `ibfat,minhop` to keep a fallback) makes every
//! routing pass read the discovered subnet, recognise its family, compute ibfat's LFTs with
//! the LIDs OpenSM assigned (LMC 1: MOLS latency routes on base+1) and fill every switch's
//! new LFT. Options come from `event_plugin_options`, separated by commas or blanks:
//!
//! * `family=auto|lsft|kary|mols|pgft` — the family the fabric must be (default auto);
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
//!   logged and skipped; a GUID listed twice or a host in both lists fails the pass.
//!
//! Anything the engine cannot route (an unrecognisable or damaged fabric, bad options, an
//! internal error) is logged with the reason and the pass returns failure, so OpenSM falls
//! back to the next engine of its list (minhop by default). Nothing here panics across the
//! C boundary and nothing blocks: the engine runs in the routing pass and returns.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod options;
mod stages;

use ibfat::check::validate;
use ibfat::formats::roles::resolve as resolve_roles;
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::{route, Lids};
use ibfat::schedule::{file, Format, PatternKind, Request};
use ibfat::select::generate;
use ibfat::topology::{Fabric, Layout, NodeKind, Speed, Topology, Width};
pub use options::{parse_options, Options};
use stages::Stages;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The OpenSM release this plugin was built against (checked by build.rs).
pub const OSM_VERSION: &str = env!("IBFAT_OSM_VERSION");

#[repr(C)]
struct ShimNode {
    guid: u64,
    kind: u8,
    nports: u8,
    lid: u16,
    desc: [c_char; 65],
}

#[repr(C)]
struct ShimPort {
    node_guid: u64,
    port_guid: u64,
    remote_node_guid: u64,
    lid: u16,
    lmc: u8,
    port: u8,
    remote_port: u8,
    width: u8,
    speed: u8,
    speed_ext: u8,
    speed_mlnx: u8,
}

type BuildFn = extern "C" fn(*mut c_void) -> c_int;

extern "C" {
    fn ibfat_shim_register(osm: *mut c_void, name: *const c_char, build: BuildFn, ctx: *mut c_void) -> c_int;
    fn ibfat_shim_log(osm: *mut c_void, error: c_int, msg: *const c_char);
    fn ibfat_shim_options(osm: *mut c_void) -> *const c_char;
    fn ibfat_shim_subnet_walk(
        osm: *mut c_void,
        nodes: *mut ShimNode,
        max_nodes: c_uint,
        ports: *mut ShimPort,
        max_ports: c_uint,
        n_nodes: *mut c_uint,
        n_ports: *mut c_uint,
    ) -> c_int;
    fn ibfat_shim_set_lft(osm: *mut c_void, sw_guid: u64, lft: *const u8, len: c_uint, lft_size: *mut c_uint) -> c_int;
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

struct Plugin {
    osm: *mut c_void,
    options: Result<Options, String>,
    passes: u64,
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
        let options = parse_options(&text);
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
                if let Some(path) = &o.schedule_out {
                    match ensure_folder(path) {
                        Ok(Some(made)) => log(
                            osm,
                            false,
                            &format!("created the folder {} (mode 0755) for schedule_out", made.display()),
                        ),
                        Ok(None) => {}
                        Err(e) => log(osm, true, &format!("schedule_out: {e}; no schedule will be written")),
                    }
                }
            }
            Err(e) => log(
                osm,
                true,
                &format!("bad plugin options: {e}; the ibfat engine will refuse to route"),
            ),
        }
        let plugin = Box::into_raw(Box::new(Plugin {
            osm,
            options,
            passes: 0,
        }));
        // SAFETY: the name is a static C string; the context outlives the engine (freed in delete())
        let st = unsafe { ibfat_shim_register(osm, c"ibfat".as_ptr(), build_fwd_tables, plugin as *mut c_void) };
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

/// Create the folder `path` goes in when it is missing (mode 0755); the folder made, if any.
fn ensure_folder(path: &Path) -> Result<Option<PathBuf>, String> {
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
fn retire_schedule(osm: *mut c_void, path: &Path) {
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

extern "C" fn delete(data: *mut c_void) {
    if !data.is_null() {
        // SAFETY: data is the Box created in create(); OpenSM calls delete once, at exit
        let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(data as *mut Plugin) })));
    }
}

extern "C" fn report(_data: *mut c_void, _event: c_int, _event_data: *mut c_void) {}

extern "C" fn build_fwd_tables(ctx: *mut c_void) -> c_int {
    if ctx.is_null() {
        return -1;
    }
    // SAFETY: ctx is the Plugin registered in create(), alive until delete(); OpenSM runs
    // one routing pass at a time, so this is the only reference to it
    let plugin = unsafe { &mut *(ctx as *mut Plugin) };
    plugin.passes += 1;
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

/// A port whose PortInfo rate codes ibfat does not know: the link is routed (routing does
/// not need the rate) and its rate is recorded as unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct UnknownRate {
    node_guid: u64,
    port: u8,
    width: u8,
    speed: u8,
    speed_ext: u8,
    speed_mlnx: u8,
}

/// What the plugin reads of the subnet.
struct Subnet {
    /// The fabric with OpenSM's LIDs; a link of unknown rate holds the fabric's default
    /// width and speed as placeholders, listed in `unknown_rates`.
    fabric: Fabric,
    /// The links whose codes were not understood: their rate is unknown.
    unknown_rates: Vec<UnknownRate>,
}

impl Subnet {
    /// The log line about links of unknown rate, if any.
    fn unknown_rate_note(&self) -> Option<String> {
        let first = self.unknown_rates.first()?;
        Some(format!(
            "{} link(s) report rate codes ibfat does not know (first: port {} of 0x{:016x}: \
             LinkWidthActive {}, LinkSpeedActive {}, LinkSpeedExtActive {}, Mellanox LinkSpeedActive {}); \
             their rate is recorded as unknown, routing does not use it",
            self.unknown_rates.len(),
            first.port,
            first.node_guid,
            first.width,
            first.speed,
            first.speed_ext,
            first.speed_mlnx
        ))
    }
}

/// Width and speed of a port from its PortInfo codes (see `ibfat::topology::rate`);
/// `None` where the code is not one ibfat knows.
fn link_rate(p: &ShimPort) -> (Option<Width>, Option<Speed>) {
    (
        Width::from_code(p.width),
        Speed::from_codes(p.speed, p.speed_ext, p.speed_mlnx),
    )
}

/// Read the subnet OpenSM discovered into an ibfat fabric (with OpenSM's LIDs).
fn read_subnet(osm: *mut c_void) -> Result<Subnet, String> {
    let (mut nn, mut np): (c_uint, c_uint) = (0, 0);
    // SAFETY: osm is OpenSM's (given to create()); counting walk: NULL buffers of size 0,
    // plain out-parameters
    unsafe { ibfat_shim_subnet_walk(osm, std::ptr::null_mut(), 0, std::ptr::null_mut(), 0, &mut nn, &mut np) };
    let mut nodes: Vec<ShimNode> = Vec::with_capacity(nn as usize);
    let mut ports: Vec<ShimPort> = Vec::with_capacity(np as usize);
    let (mut filled_n, mut filled_p): (c_uint, c_uint) = (0, 0);
    // SAFETY: the buffers have room for nn / np records; the shim writes at most that many
    let rc = unsafe {
        ibfat_shim_subnet_walk(
            osm,
            nodes.as_mut_ptr(),
            nn,
            ports.as_mut_ptr(),
            np,
            &mut filled_n,
            &mut filled_p,
        )
    };
    if rc != 0 || filled_n != nn || filled_p != np {
        return Err("the subnet changed while it was read".into());
    }
    // SAFETY: the shim filled exactly nn and np records
    unsafe {
        nodes.set_len(nn as usize);
        ports.set_len(np as usize);
    }
    let mut fabric = Fabric::new();
    let mut id_of: HashMap<u64, u32> = HashMap::with_capacity(nodes.len());
    let mut unknown_rates = Vec::new();
    for n in &nodes {
        let kind = match n.kind {
            2 => NodeKind::Switch,
            3 => NodeKind::Router,
            _ => NodeKind::Ca,
        };
        // SAFETY: the shim NUL-terminates desc (65 bytes, at most 64 used)
        let desc = unsafe { CStr::from_ptr(n.desc.as_ptr()) }
            .to_string_lossy()
            .trim()
            .to_string();
        let prefix = match kind {
            NodeKind::Switch => "S",
            NodeKind::Ca => "H",
            NodeKind::Router => "R",
        };
        let id = fabric
            .add_node(
                kind,
                n.nports.max(1) as u32,
                n.guid,
                format!("{prefix}-{:016x}", n.guid),
                desc,
            )
            .map_err(|e| e.to_string())?;
        if kind == NodeKind::Switch {
            let p0 = fabric.port_index(id, 0) as usize;
            fabric.ports[p0].lid = n.lid;
        }
        id_of.insert(n.guid, id);
    }
    for p in &ports {
        let (Some(&a), Some(&b)) = (id_of.get(&p.node_guid), id_of.get(&p.remote_node_guid)) else {
            return Err(format!(
                "port {} of 0x{:016x} leads to an unknown node 0x{:016x}",
                p.port, p.node_guid, p.remote_node_guid
            ));
        };
        let ia = fabric.try_port_index(a, p.port as u32).map_err(|e| e.to_string())? as usize;
        if fabric.node(a).kind != NodeKind::Switch {
            fabric.ports[ia].guid = p.port_guid;
            fabric.ports[ia].lid = p.lid;
            fabric.ports[ia].lmc = p.lmc;
        }
        if fabric.ports[ia].peer == ibfat::topology::NO_PEER {
            let ib = fabric
                .try_port_index(b, p.remote_port as u32)
                .map_err(|e| e.to_string())? as usize;
            if fabric.ports[ib].peer == ibfat::topology::NO_PEER {
                let (w, s) = link_rate(p);
                if w.is_none() || s.is_none() {
                    unknown_rates.push(UnknownRate {
                        node_guid: p.node_guid,
                        port: p.port,
                        width: p.width,
                        speed: p.speed,
                        speed_ext: p.speed_ext,
                        speed_mlnx: p.speed_mlnx,
                    });
                }
                fabric
                    .connect_with(
                        a,
                        p.port as u32,
                        b,
                        p.remote_port as u32,
                        w.unwrap_or_default(),
                        s.unwrap_or_default(),
                    )
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(Subnet { fabric, unknown_rates })
}

fn family_line(layout: &Layout) -> String {
    layout.describe()
}

fn routing_pass(plugin: &mut Plugin) -> Result<(), String> {
    let osm = plugin.osm;
    let options = plugin.options.clone().map_err(|e| format!("bad plugin options: {e}"))?;
    let t0 = Instant::now();
    let subnet = read_subnet(osm)?;
    if let Some(note) = subnet.unknown_rate_note() {
        log(osm, false, &note);
    }
    let fabric = subnet.fabric;
    let t_read = t0.elapsed();
    let mut layout = match recognize(&fabric, options.family) {
        Recognition::Recognised { layout, .. } => layout,
        Recognition::Unrecognised { degraded: Some(d), .. } => {
            let list: Vec<String> = d.faults.iter().take(20).map(|f| f.describe()).collect();
            return Err(format!(
                "{}: {}{}; ibfat does not route degraded fabrics yet",
                d.description,
                list.join(", "),
                if d.faults.len() > list.len() { ", ..." } else { "" }
            ));
        }
        Recognition::Unrecognised { reason, .. } => {
            return Err(format!(
                "not a fabric ibfat recognises ({} switches, {} CAs): {reason}",
                fabric.switches().count(),
                fabric.cas().count()
            ))
        }
    };
    if !options.roles.is_empty() {
        let roles = resolve_roles(&fabric, &options.roles, false).map_err(|e| format!("host roles: {e}"))?;
        for w in &roles.warnings {
            log(osm, false, &format!("host roles: {w} (skipped)"));
        }
        let n = layout
            .apply_roles(&fabric, &roles)
            .map_err(|e| format!("host roles: {e}"))?;
        log(
            osm,
            false,
            &format!(
                "host roles: {} compute hosts ranked, {n} non-compute hosts routed at their slots",
                layout.hosts().len()
            ),
        );
    }
    // from here on the subnet is a topology like any planned or loaded one
    let topo = Topology::discovered(fabric, layout, "subnet");
    let (fabric, layout) = (&topo.fabric, &topo.layout);
    let t_rec = t0.elapsed();
    let lids = Lids::discovered(fabric)
        .map_err(|e| e.to_string())?
        .ok_or("OpenSM has assigned no LIDs yet")?;
    lids.require_complete(fabric).map_err(|e| e.to_string())?;
    let t_lids = t0.elapsed();
    let lfts = route(fabric, layout, &lids).map_err(|e| e.to_string())?;
    let t_route = t0.elapsed();
    if options.validate {
        let v = validate(fabric, &lids, &lfts, Some(layout));
        let found = format!(
            "validation of {} switches x {} LIDs: data path {}, deadlock {}, completeness {} \
             (broken host routes {}, black holes {}, loops {}, misdelivered {}, non-minimal {}; \
             host-sourced CDG {} channels, {} dependencies)",
            v.switches,
            v.lids,
            if v.data_path_ok { "ok" } else { "FAILED" },
            if v.deadlock_free {
                "free"
            } else {
                "POSSIBLE (cyclic CDG)"
            },
            if v.complete { "ok" } else { "gaps" },
            v.broken_host_routes,
            v.black_holes,
            v.loops,
            v.misdelivered,
            v.non_minimal,
            v.ca_sourced.channels,
            v.ca_sourced.dependencies
        );
        log(osm, !v.ok, &found);
        if !v.ok {
            let first = v
                .defects
                .first()
                .map(|d| {
                    format!(
                        "{} at {} for LID 0x{:04x} -> {}: {}",
                        d.kind, d.switch, d.lid, d.destination, d.path
                    )
                })
                .unwrap_or_default();
            return Err(format!("the computed tables fail validation: {first}"));
        }
    }
    let t_valid = t0.elapsed();
    for (row, &sw) in lfts.switches.iter().enumerate() {
        let t = lfts.row(row);
        let mut size: c_uint = 0;
        // SAFETY: t is a live slice of t.len() bytes; the shim copies at most the switch's LFT size
        let rc = unsafe { ibfat_shim_set_lft(osm, fabric.node(sw).guid, t.as_ptr(), t.len() as c_uint, &mut size) };
        if rc != 0 {
            return Err(format!("OpenSM does not know switch 0x{:016x}", fabric.node(sw).guid));
        }
        if (size as usize) < t.len() {
            return Err(format!(
                "switch 0x{:016x} has an LFT of {size} entries, {} needed",
                fabric.node(sw).guid,
                t.len()
            ));
        }
    }
    let t_done = t0.elapsed();
    log(
        osm,
        false,
        &format!(
            "pass {}: recognised {}; {} switches x {} LIDs (LMC {}) routed in {:.3} ms (read {:.3} ms, recognise {:.3} ms)",
            plugin.passes,
            family_line(layout),
            lfts.switches.len(),
            lids.owner.iter().skip(1).filter(|&&o| o != ibfat::topology::NO_PEER).count(),
            lids.lmc,
            t_done.as_secs_f64() * 1e3,
            t_read.as_secs_f64() * 1e3,
            (t_rec - t_read).as_secs_f64() * 1e3
        ),
    );
    let stages = Stages {
        read: t_read + (t_lids - t_rec),
        recognize: t_rec - t_read,
        route: t_route - t_lids,
        validate: t_valid - t_route,
        write: t_done - t_valid,
    };
    log(osm, false, &stages.line(plugin.passes));
    if let Some(path) = &options.schedule_out {
        // the tables are in place whatever happens to the schedule file
        let t = Instant::now();
        let kind = options.pattern.unwrap_or(match layout {
            Layout::Lsft(_) => PatternKind::Lsft,
            Layout::Kary(_) | Layout::Pgft(_) => PatternKind::KaryShift,
            Layout::Mols(_) => PatternKind::MolsShift,
            Layout::Fullmesh(_) => PatternKind::Shift,
        });
        let computed_for = lfts.computed_for(fabric, &lids);
        let res = generate(&topo, &Request::new(kind)).and_then(|(g, _)| {
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_for_opensm_3_3_23() {
        assert_eq!(OSM_VERSION, "OpenSM 3.3.23");
    }

    fn port(width: u8, speed: u8, speed_ext: u8, speed_mlnx: u8) -> ShimPort {
        ShimPort {
            node_guid: 1,
            port_guid: 2,
            remote_node_guid: 3,
            lid: 0,
            lmc: 0,
            port: 1,
            remote_port: 1,
            width,
            speed,
            speed_ext,
            speed_mlnx,
        }
    }

    #[test]
    fn rates_come_from_the_portinfo_codes() {
        assert_eq!(link_rate(&port(2, 4, 0, 0)), (Some(Width::X4), Some(Speed::Qdr)));
        assert_eq!(link_rate(&port(8, 1, 0, 0)), (Some(Width::X12), Some(Speed::Sdr)));
        assert_eq!(link_rate(&port(2, 4, 2, 0)), (Some(Width::X4), Some(Speed::Edr)));
        assert_eq!(link_rate(&port(1, 0, 8, 0)), (Some(Width::X1), Some(Speed::Ndr)));
        assert_eq!(link_rate(&port(16, 4, 0, 1)), (Some(Width::X2), Some(Speed::Fdr10)));
    }

    #[test]
    fn unknown_codes_are_unknown_not_sdr() {
        // LinkSpeedActive 0 without an extended speed, and values no spec assigns
        for speed in [0u8, 3, 8, 15] {
            assert_eq!(link_rate(&port(2, speed, 0, 0)).1, None, "speed {speed}");
        }
        assert_eq!(link_rate(&port(2, 4, 3, 0)).1, None, "ext 3");
        assert_eq!(link_rate(&port(0, 4, 0, 0)).0, None, "width 0");
        assert_eq!(link_rate(&port(3, 4, 0, 0)).0, None, "width 3");
        let subnet = Subnet {
            fabric: Fabric::new(),
            unknown_rates: vec![UnknownRate {
                node_guid: 0x2c9,
                port: 3,
                width: 2,
                speed: 0,
                speed_ext: 0,
                speed_mlnx: 0,
            }],
        };
        let note = subnet.unknown_rate_note().unwrap();
        assert!(
            note.contains("port 3 of 0x00000000000002c9") && note.contains("unknown"),
            "{note}"
        );
    }
}
