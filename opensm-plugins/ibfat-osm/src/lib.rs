//! OpenSM 3.3.23 event plugin that adds the `ibfat` routing engine to a stock OpenSM.
//!
//! OpenSM loads it with `event_plugin_name ibfatosm` (it `dlopen`s `libibfatosm.so` and
//! reads the `osm_event_plugin` symbol). `create()` registers the engine; selecting it with
//! `routing_engine ibfat` (or `-R ibfat`, or `ibfat,minhop` to keep a fallback) makes every
//! routing pass read the discovered subnet, recognise its family, compute ibfat's LFTs with
//! the LIDs OpenSM assigned (LMC 1: MOLS latency routes on base+1) and fill every switch's
//! new LFT. Options come from `event_plugin_options`, separated by commas or blanks:
//!
//! * `family=auto|lsft|kary|mols` — the family the fabric must be (default auto);
//! * `schedule_out=PATH` — write the all-to-all schedule of the fabric there (atomically)
//!   after every successful pass, in ibfat's schedule JSON format;
//! * `pattern=NAME` — which schedule (default: `lsft` on a Latin-square fat-tree,
//!   `kary-shift`/`mols-shift` on trees);
//! * `validate=1` — validate the tables before handing them to OpenSM.
//!
//! Anything the engine cannot route (an unrecognisable or damaged fabric, bad options, an
//! internal error) is logged with the reason and the pass returns failure, so OpenSM falls
//! back to the next engine of its list (minhop by default). Nothing here panics across the
//! C boundary and nothing blocks: the engine runs in the routing pass and returns.

use ibfat::check::validate;
use ibfat::recognize::{recognize, FamilyHint, Recognition};
use ibfat::routing::{route, Lids};
use ibfat::schedule::{file, Format, PatternKind, Request};
use ibfat::select::generate;
use ibfat::topology::{Fabric, Layout, NodeKind, Speed, Topo, Width};
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
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

// The descriptor is immutable and only read by OpenSM.
unsafe impl Sync for OsmEventPlugin {}

const VERSION_C: &str = concat!(env!("IBFAT_OSM_VERSION"), "\0");

#[no_mangle]
pub static osm_event_plugin: OsmEventPlugin = OsmEventPlugin {
    osm_version: VERSION_C.as_ptr() as *const c_char,
    create,
    delete,
    report,
};

/// Plugin options (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub family: Option<FamilyHint>,
    pub schedule_out: Option<PathBuf>,
    pub pattern: Option<PatternKind>,
    pub validate: bool,
}

/// Parse the `event_plugin_options` text; an error names the offending option.
pub fn parse_options(text: &str) -> Result<Options, String> {
    let mut o = Options::default();
    for tok in text.split([',', ' ', '\t']).filter(|t| !t.is_empty()) {
        let Some((k, v)) = tok.split_once('=') else {
            return Err(format!(
                "option `{tok}` is not key=value (keys: family, schedule_out, pattern, validate)"
            ));
        };
        match k {
            "family" => o.family = FamilyHint::parse_opt(v).map_err(|e| format!("option family={v}: {e}"))?,
            "schedule_out" if !v.is_empty() => o.schedule_out = Some(PathBuf::from(v)),
            "pattern" => {
                o.pattern = Some(
                    v.parse()
                        .map_err(|e: ibfat::Error| format!("option pattern={v}: {e}"))?,
                )
            }
            "validate" => {
                o.validate = match v {
                    "1" | "yes" | "true" => true,
                    "0" | "no" | "false" => false,
                    _ => return Err(format!("option validate={v}: expected 0 or 1")),
                }
            }
            _ => {
                return Err(format!(
                    "unknown option `{k}` (keys: family, schedule_out, pattern, validate)"
                ))
            }
        }
    }
    Ok(o)
}

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
        // SAFETY: OpenSM passes its osm_opensm_t; the options string is owned by OpenSM
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
            Ok(o) => log(
                osm,
                false,
                &format!(
                    "plugin {} loaded for {OSM_VERSION}, options {o:?}",
                    env!("CARGO_PKG_VERSION")
                ),
            ),
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
    // SAFETY: ctx is the Plugin registered in create(), alive until delete()
    let plugin = unsafe { &mut *(ctx as *mut Plugin) };
    plugin.passes += 1;
    let osm = plugin.osm;
    match catch_unwind(AssertUnwindSafe(|| routing_pass(plugin))) {
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

/// Read the subnet OpenSM discovered into an ibfat fabric (with OpenSM's LIDs).
fn read_subnet(osm: *mut c_void) -> Result<Fabric, String> {
    let (mut nn, mut np): (c_uint, c_uint) = (0, 0);
    // SAFETY: counting walk: NULL buffers of size 0, plain out-parameters
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
                let (w, s) = (width_of(p.width), speed_of(p.speed));
                fabric
                    .connect_with(a, p.port as u32, b, p.remote_port as u32, w, s)
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(fabric)
}

fn width_of(code: u8) -> Width {
    match code {
        1 => Width::X1,
        4 => Width::X8,
        8 => Width::X12,
        16 => Width::X2,
        _ => Width::X4,
    }
}

fn speed_of(code: u8) -> Speed {
    match code {
        2 => Speed::Ddr,
        4 => Speed::Qdr,
        _ => Speed::Sdr,
    }
}

fn family_line(layout: &Layout) -> String {
    layout.describe()
}

fn routing_pass(plugin: &mut Plugin) -> Result<(), String> {
    let osm = plugin.osm;
    let options = plugin.options.clone().map_err(|e| format!("bad plugin options: {e}"))?;
    let t0 = Instant::now();
    let fabric = read_subnet(osm)?;
    let t_read = t0.elapsed();
    let layout = match recognize(&fabric, options.family) {
        Recognition::Recognised { layout, .. } => layout,
        Recognition::Unrecognised { reason, .. } => {
            return Err(format!(
                "not a fabric ibfat recognises ({} switches, {} CAs): {reason}",
                fabric.switches().count(),
                fabric.cas().count()
            ))
        }
    };
    let t_rec = t0.elapsed();
    let lids = Lids::discovered(&fabric)
        .map_err(|e| e.to_string())?
        .ok_or("OpenSM has assigned no LIDs yet")?;
    lids.require_complete(&fabric).map_err(|e| e.to_string())?;
    let lfts = route(&fabric, &layout, &lids).map_err(|e| e.to_string())?;
    if options.validate {
        let v = validate(&fabric, &lids, &lfts, Some(&layout));
        if !v.ok {
            return Err(format!("the computed tables fail validation: {:?}", v.defects.first()));
        }
    }
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
            family_line(&layout),
            lfts.switches.len(),
            lids.owner.iter().skip(1).filter(|&&o| o != ibfat::topology::NO_PEER).count(),
            lids.lmc,
            t_done.as_secs_f64() * 1e3,
            t_read.as_secs_f64() * 1e3,
            (t_rec - t_read).as_secs_f64() * 1e3
        ),
    );
    if let Some(path) = &options.schedule_out {
        // the tables are in place whatever happens to the schedule file
        let t = Instant::now();
        let topo = Topo {
            fabric: &fabric,
            layout: &layout,
            name: "subnet".into(),
        };
        let kind = options.pattern.unwrap_or(match layout {
            Layout::Lsft(_) => PatternKind::Lsft,
            Layout::Kary(_) => PatternKind::KaryShift,
            Layout::Mols(_) => PatternKind::MolsShift,
        });
        let res = generate(&topo, &Request::new(kind)).and_then(|(g, _)| {
            let guids = g.job.port_guids(&fabric);
            file::write(path, Format::Json, g.pattern.as_ref(), &guids).map(|c| (g.pattern.name(), c))
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
            Err(e) => log(
                osm,
                true,
                &format!("cannot write the schedule to {}: {e}", path.display()),
            ),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_name_the_bad_one() {
        assert_eq!(parse_options("").unwrap(), Options::default());
        let o = parse_options("family=lsft, schedule_out=/tmp/s.json validate=1").unwrap();
        assert_eq!(o.family, Some(FamilyHint::Lsft));
        assert_eq!(o.schedule_out, Some(PathBuf::from("/tmp/s.json")));
        assert!(o.validate);
        assert!(parse_options("family=ring").unwrap_err().contains("family=ring"));
        assert!(parse_options("colour=red")
            .unwrap_err()
            .contains("unknown option `colour`"));
        assert!(parse_options("schedule_out").unwrap_err().contains("not key=value"));
        assert!(parse_options("pattern=nope").unwrap_err().contains("pattern=nope"));
        assert_eq!(OSM_VERSION, "OpenSM 3.3.23");
    }
}
