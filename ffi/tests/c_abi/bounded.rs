//! Every size, count, index and float the C ABI takes, at its extremes (0, 1, 2³¹, 2³²−1,
//! 2⁶⁴−1, NaN, ±inf, negative where the type has them), and the file readers on files
//! built to cost memory: each call is made in a child process of its own (this test
//! binary run again for one case), so that its own peak memory and CPU time are measured
//! and an abort would show as a signal. The answer is `IBFAT_OK`, `IBFAT_E_INPUT`,
//! `IBFAT_E_ARG` or `IBFAT_E_NOT_FOUND` with a message; never an abort, never more than
//! 64 MiB or a second of CPU (issue 41 items 1 and 3).

use crate::extremes;

use ibfatc::*;
use std::ffi::{c_int, CStr, CString};
use std::process::{Command, Stdio};
use std::ptr;
use std::time::Duration;

const CASE_ENV: &str = "IBFAT_BOUNDED_CASE";
const MAX_RSS_KIB: u64 = 64 * 1024;
const MAX_CPU: Duration = Duration::from_secs(1);

/// The extremes of each argument type, as text (parsed by the child per type).
const U8S: &[&str] = &["0", "1", "2", "7", "8", "255"];
const U16S: &[&str] = &["0", "1", "49151", "49152", "65535"];
const U32S: &[&str] = &["0", "1", "2147483648", "4294967295"];
const U64S: &[&str] = &["0", "1", "2147483648", "4294967295", "18446744073709551615"];
const F64S: &[&str] = &["0", "1", "-1", "NaN", "inf", "-inf", "1e308", "5e-324"];
/// Numbers inside option strings and spec files: anything a caller can write.
const TEXT: &[&str] = &extremes::EXTREMES;

/// (case name, the values it is called with).
const CASES: &[(&str, &[&str])] = &[
    ("add_node.nports", U32S),
    ("connect.port", U32S),
    ("connect.node", U32S),
    ("set_port_guid.port", U32S),
    ("set_lid.lid", U16S),
    ("set_lid.lmc", U8S),
    ("spec.lsft.order", TEXT),
    ("spec.kary.arity", TEXT),
    ("spec.kary.levels", TEXT),
    ("spec.fullmesh.switches", TEXT),
    ("spec.fullmesh.hosts_per_switch", TEXT),
    ("spec.mols.arity", TEXT),
    ("spec.twolevel.leaves", TEXT),
    ("spec.pgft.down", TEXT),
    ("routes_compute.lmc", U8S),
    ("routes.path_sl", U16S),
    ("routes.sl2vl.port", U8S),
    ("routes.port.lid", U16S),
    ("routes.switch.index", U32S),
    ("path_plan_new.lmc", U8S),
    ("path_plan_new.direct_share", U8S),
    ("path_plan.offsets.src", U32S),
    ("path_plan.offset.n", U64S),
    ("schedule_new.block", TEXT),
    ("schedule_new.per_leaf", TEXT),
    ("schedule_new.phases", TEXT),
    ("schedule_new.seed", TEXT),
    ("schedule_new.job_size", TEXT),
    ("schedule.peer.rank", U32S),
    ("schedule.peer.phase", U32S),
    ("schedule.phase.len", U64S),
    ("schedule.rank_guid.rank", U32S),
    ("selector_new.k", U32S),
    ("selector_new.margin", F64S),
    ("selector.record", F64S),
    ("selector.name.index", U32S),
    ("selector_for_job.ranks_per_node", U32S),
    ("selector_for_job.msg_size", U64S),
    ("selector_for_job.latency", F64S),
    ("selector_for_job.bandwidth", F64S),
    ("selector_for_job.prune", F64S),
    ("selector_for_job.k", U32S),
    ("bcast_new.root", U32S),
    ("bcast_new.lanes", U32S),
    ("bcast_new.placement", U8S),
    ("bcast.send.rank", U32S),
    ("bcast.recv.lane", U32S),
    ("bcast.rank_guid.rank", U32S),
];

fn last() -> String {
    // SAFETY: ibfat_last_error never returns NULL; the string lives until the next call
    unsafe { CStr::from_ptr(ibfat_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn cs(s: &str) -> CString {
    CString::new(s).unwrap()
}

fn build(spec: &str) -> *mut IbfatFabric {
    let mut f = ptr::null_mut();
    // SAFETY: a live CString and a local out-pointer
    let st = unsafe { ibfat_fabric_build(cs(spec).as_ptr(), &mut f) };
    assert_eq!(st, IbfatStatus::IbfatOk, "{spec}: {}", last());
    f
}

fn lsft2() -> *mut IbfatFabric {
    build("family: lsft\norder: 2\n")
}

fn routes(f: *const IbfatFabric) -> *mut IbfatRoutes {
    let mut r = ptr::null_mut();
    // SAFETY: f is a live fabric, r a local out-pointer
    let st = unsafe { ibfat_routes_compute(f, 0, IbfatLidSource::IbfatLidsPlan as c_int, &mut r) };
    assert_eq!(st, IbfatStatus::IbfatOk, "{}", last());
    r
}

/// One call of `case` with `v`, in this (child) process.
fn call(case: &str, v: &str) -> IbfatStatus {
    let u = || v.parse::<u64>().unwrap();
    let f64v = || v.parse::<f64>().unwrap();
    let (mut out8, mut out32, mut out64) = (0u8, 0u32, 0u64);
    let mut vls = [0u8; 16];
    // SAFETY: every handle comes from the library and lives to the end of the process;
    // strings are live CStrings; out-pointers are locals holding what the call writes
    // (`dest` below holds as many elements as the length claimed, capped to its size)
    unsafe {
        match case {
            "add_node.nports" | "connect.port" | "connect.node" | "set_port_guid.port" | "set_lid.lid"
            | "set_lid.lmc" => {
                let mut f = ptr::null_mut();
                assert_eq!(ibfat_fabric_new(&mut f), IbfatStatus::IbfatOk);
                let name = cs("n");
                let nports = if case == "add_node.nports" { u() as u32 } else { 4 };
                let st = ibfat_fabric_add_node(f, 0, nports, 0x10, name.as_ptr(), ptr::null(), &mut out32);
                if case == "add_node.nports" {
                    return st;
                }
                let ca = cs("h");
                assert_eq!(
                    ibfat_fabric_add_node(f, 1, 1, 0x20, ca.as_ptr(), ptr::null(), &mut out32),
                    IbfatStatus::IbfatOk
                );
                match case {
                    "connect.port" => ibfat_fabric_connect(f, 0, u() as u32, 1, 1),
                    "connect.node" => ibfat_fabric_connect(f, u() as u32, 1, 1, 1),
                    "set_port_guid.port" => ibfat_fabric_set_port_guid(f, 1, u() as u32, 0x99),
                    "set_lid.lid" => ibfat_fabric_set_lid(f, 1, 1, u() as u16, 0),
                    _ => ibfat_fabric_set_lid(f, 1, 1, 5, u() as u8),
                }
            }
            c if c.starts_with("spec.") => {
                let spec = match c {
                    "spec.lsft.order" => format!("family: lsft\norder: {v}\n"),
                    "spec.kary.arity" => format!("family: kary\narity: {v}\nlevels: 2\n"),
                    "spec.kary.levels" => format!("family: kary\narity: 2\nlevels: {v}\n"),
                    "spec.fullmesh.switches" => format!("family: fullmesh\nswitches: {v}\nhosts_per_switch: 2\n"),
                    "spec.fullmesh.hosts_per_switch" => {
                        format!("family: fullmesh\nswitches: 3\nhosts_per_switch: {v}\n")
                    }
                    "spec.mols.arity" => format!("family: mols\narity: {v}\n"),
                    "spec.twolevel.leaves" => {
                        format!("family: twolevel\nleaves: {v}\nhosts_per_leaf: 2\nspines: 2\n")
                    }
                    _ => format!("family: pgft\ndown: [2, {v}]\nup: [1, 2]\nparallel: [1, 1]\n"),
                };
                let mut f = ptr::null_mut();
                ibfat_fabric_build(cs(&spec).as_ptr(), &mut f)
            }
            "routes_compute.lmc" => {
                let mut r = ptr::null_mut();
                ibfat_routes_compute(lsft2(), u() as u8, IbfatLidSource::IbfatLidsPlan as c_int, &mut r)
            }
            "routes.path_sl" => ibfat_routes_path_sl(routes(lsft2()), u() as u16, u() as u16, &mut out8),
            "routes.sl2vl.port" => {
                let r = routes(lsft2());
                assert_eq!(ibfat_routes_switch(r, 0, &mut out64, &mut out8), IbfatStatus::IbfatOk);
                ibfat_routes_sl2vl(r, out64, u() as u8, 1, vls.as_mut_ptr())
            }
            "routes.port.lid" => {
                let r = routes(lsft2());
                assert_eq!(ibfat_routes_switch(r, 0, &mut out64, &mut out8), IbfatStatus::IbfatOk);
                ibfat_routes_port(r, out64, u() as u16, &mut out8)
            }
            "routes.switch.index" => ibfat_routes_switch(routes(lsft2()), u() as u32, &mut out64, &mut out8),
            "path_plan_new.lmc" | "path_plan_new.direct_share" | "path_plan.offsets.src" | "path_plan.offset.n" => {
                let f = build("family: fullmesh\nswitches: 6\nhosts_per_switch: 2\n");
                let mut p = ptr::null_mut();
                match case {
                    "path_plan_new.lmc" => return ibfat_path_plan_new(f, u() as u8, 3, &mut p),
                    "path_plan_new.direct_share" => return ibfat_path_plan_new(f, 2, u() as u8, &mut p),
                    _ => assert_eq!(ibfat_path_plan_new(f, 2, 3, &mut p), IbfatStatus::IbfatOk),
                }
                let mut offs = [0u8; 64];
                if case == "path_plan.offsets.src" {
                    ibfat_path_plan_offsets(p, u() as u32, 1, offs.as_mut_ptr())
                } else {
                    ibfat_path_plan_offset(p, 0, 1, u(), &mut out8)
                }
            }
            c if c.starts_with("schedule_new.") => {
                let key = &c["schedule_new.".len()..];
                let (pattern, opts) = match key {
                    "block" => ("lsft-partial", format!("block={v},per_leaf=1")),
                    "per_leaf" => ("lsft-partial", format!("block=1,per_leaf={v}")),
                    "job_size" => ("lsft-partial", format!("job_size={v}")),
                    k => ("random", format!("{k}={v}")),
                };
                let mut s = ptr::null_mut();
                ibfat_schedule_new(lsft2(), cs(pattern).as_ptr(), cs(&opts).as_ptr(), &mut s)
            }
            c if c.starts_with("schedule.") => {
                let mut s = ptr::null_mut();
                let shift = cs("shift");
                assert_eq!(
                    ibfat_schedule_new(lsft2(), shift.as_ptr(), ptr::null(), &mut s),
                    IbfatStatus::IbfatOk
                );
                match c {
                    "schedule.peer.rank" => ibfat_schedule_peer(s, u() as u32, 0, &mut out32),
                    "schedule.peer.phase" => ibfat_schedule_peer(s, 0, u() as u32, &mut out32),
                    "schedule.phase.len" => {
                        // the buffer holds 64 entries; a longer claimed length is the caller's
                        // lie, so only lengths the buffer backs are passed, plus 0 and 1
                        let mut dest = [0u32; 64];
                        let len = (u() as usize).min(dest.len());
                        ibfat_schedule_phase(s, 0, dest.as_mut_ptr(), len)
                    }
                    _ => ibfat_schedule_rank_guid(s, u() as u32, &mut out64),
                }
            }
            "selector_new.k" | "selector_new.margin" | "selector.record" | "selector.name.index" => {
                let list = cs("pair,ring,bruck");
                let mut s = ptr::null_mut();
                match case {
                    "selector_new.k" => return ibfat_selector_new(list.as_ptr(), u() as u32, 0.2, &mut s),
                    "selector_new.margin" => return ibfat_selector_new(list.as_ptr(), 1, f64v(), &mut s),
                    _ => assert_eq!(ibfat_selector_new(list.as_ptr(), 1, 0.2, &mut s), IbfatStatus::IbfatOk),
                }
                if case == "selector.record" {
                    assert_eq!(ibfat_selector_next(s, &mut out32), IbfatStatus::IbfatOk);
                    ibfat_selector_record(s, f64v())
                } else {
                    let mut name = ptr::null();
                    ibfat_selector_name(s, u() as u32, &mut name)
                }
            }
            c if c.starts_with("selector_for_job.") => {
                let f = lsft2();
                let job = cs("ranks:0-3");
                let (mut rpn, mut msg, mut lat, mut bw, mut prune, mut k) = (1u32, 1u64 << 20, 20e-6, 1.5e9, 1.5, 1u32);
                match &c["selector_for_job.".len()..] {
                    "ranks_per_node" => rpn = u() as u32,
                    "msg_size" => msg = u(),
                    "latency" => lat = f64v(),
                    "bandwidth" => bw = f64v(),
                    "prune" => prune = f64v(),
                    _ => k = u() as u32,
                }
                let mut s = ptr::null_mut();
                ibfat_selector_for_job(f, ptr::null(), job.as_ptr(), rpn, msg, lat, bw, prune, k, 0.2, &mut s)
            }
            "bcast_new.root" | "bcast_new.lanes" | "bcast_new.placement" => {
                let (mut root, mut lanes, mut placement) = (0u32, 2u32, 0u8);
                match case {
                    "bcast_new.root" => root = u() as u32,
                    "bcast_new.lanes" => lanes = u() as u32,
                    _ => placement = u() as u8,
                }
                let mut b = ptr::null_mut();
                ibfat_bcast_new(lsft2(), ptr::null(), root, lanes, placement, &mut b)
            }
            c if c.starts_with("bcast.") => {
                let mut b = ptr::null_mut();
                assert_eq!(
                    ibfat_bcast_new(lsft2(), ptr::null(), 0, 2, 0, &mut b),
                    IbfatStatus::IbfatOk
                );
                match c {
                    "bcast.send.rank" => ibfat_bcast_send(b, u() as u32, 0, &mut out32, &mut out32),
                    "bcast.recv.lane" => ibfat_bcast_recv(b, 1, u() as u32, &mut out32, &mut out32),
                    _ => ibfat_bcast_rank_guid(b, u() as u32, &mut out64),
                }
            }
            "bcast_open" => {
                let mut b = ptr::null_mut();
                ibfat_bcast_open(cs(v).as_ptr(), &mut b)
            }
            "schedule_open" => {
                let mut s = ptr::null_mut();
                ibfat_schedule_open(cs(v).as_ptr(), &mut s)
            }
            other => panic!("no case {other}"),
        }
    }
}

/// The child side: run the case named in the environment and print its status.
#[test]
fn child_case() {
    let Ok(spec) = std::env::var(CASE_ENV) else { return };
    let (case, v) = spec.split_once(' ').unwrap();
    let st = call(case, v);
    // the peak of this process since its exec (wait4's figure would include the parent's
    // memory at the fork, which the kernel carries over an exec)
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let hwm = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).unwrap().trim();
    println!(
        "\nSTATUS {} {}\nHWM {}",
        st as i32,
        last().replace('\n', " "),
        hwm.trim_end_matches(" kB")
    );
}

struct Run {
    status: Option<i32>,
    message: String,
    rss_kib: u64,
    cpu: Duration,
    exit: Option<i32>,
    signal: Option<i32>,
}

/// Run `case` with `v` in a child process; its status, message, peak RSS and CPU time.
fn measured(case: &str, v: &str) -> Run {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out_path = std::env::temp_dir().join(format!("ibfat-bounded-{}-{k}.out", std::process::id()));
    // the child runs this binary's `child_case` alone: its full name is this module's path
    // without the crate's name (the binary holds the other test modules too)
    let child_test = format!("{}::child_case", module_path!().split_once("::").unwrap().1);
    let pid = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &child_test, "--nocapture", "--test-threads", "1"])
        .env(CASE_ENV, format!("{case} {v}"))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
        .id(); // reaped below by wait4, which also gives its CPU time
    let r = extremes::reap(pid, &format!("{case} {v}"));
    let text = std::fs::read_to_string(&out_path).unwrap_or_default();
    let _ = std::fs::remove_file(&out_path);
    let line = text.lines().find_map(|l| l.strip_prefix("STATUS ")).unwrap_or("");
    let (code, message) = line.split_once(' ').unwrap_or((line, ""));
    let hwm = text
        .lines()
        .find_map(|l| l.strip_prefix("HWM "))
        .and_then(|v| v.trim().parse().ok());
    Run {
        status: code.parse().ok(),
        message: message.to_string(),
        rss_kib: hwm.unwrap_or(u64::MAX),
        cpu: r.cpu,
        exit: r.code,
        signal: r.signal,
    }
}

/// What a refused or answered call may return.
fn acceptable(status: i32) -> bool {
    [
        IbfatStatus::IbfatOk,
        IbfatStatus::IbfatEInput,
        IbfatStatus::IbfatEArg,
        IbfatStatus::IbfatENotFound,
    ]
    .iter()
    .any(|&s| s as i32 == status)
}

#[test]
fn every_size_and_float_argument_at_its_extremes_is_bounded() {
    let mut failures = Vec::new();
    let mut runs = 0;
    for &(case, values) in CASES {
        for v in values {
            runs += 1;
            let r = measured(case, v);
            let what = format!("{case} = {v}");
            match r.status {
                Some(s) if acceptable(s) => {
                    if s != IbfatStatus::IbfatOk as i32 && r.message.is_empty() {
                        failures.push(format!("{what}: status {s} without a message"));
                    }
                }
                other => failures.push(format!(
                    "{what}: status {other:?}, exit {:?}, signal {:?}: {}",
                    r.exit, r.signal, r.message
                )),
            }
            if r.rss_kib > MAX_RSS_KIB {
                failures.push(format!("{what}: peak RSS {} KiB", r.rss_kib));
            }
            if r.cpu > MAX_CPU {
                failures.push(format!("{what}: {:?} CPU", r.cpu));
            }
        }
    }
    eprintln!("{runs} calls over {} arguments", CASES.len());
    assert!(
        failures.is_empty(),
        "{} of {runs} calls failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Write `head`, then `item` `count` times separated by commas, then `tail`.
fn write_repeated(path: &std::path::Path, head: &str, item: &str, count: usize, tail: &str) -> u64 {
    use std::io::Write;
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    w.write_all(head.as_bytes()).unwrap();
    for i in 0..count {
        if i > 0 {
            w.write_all(b",").unwrap();
        }
        w.write_all(item.as_bytes()).unwrap();
    }
    w.write_all(tail.as_bytes()).unwrap();
    w.flush().unwrap();
    std::fs::metadata(path).unwrap().len()
}

/// Files shaped to cost memory: millions of tiny phases or lane entries. Each is refused
/// (or read) with a peak within 4× the file's size over the process's own baseline.
#[test]
fn json_readers_check_before_they_build() {
    let t = tempfile::tempdir().unwrap();
    let base = measured("schedule_open", "/nonexistent").rss_kib;
    let two = r#"{"hosts": ["0x0000000000000001", "0x0000000000000002"], "phases": ["#;
    let one_bcast = r#"{"format": "ibfat-bcast", "version": 1, "hosts": ["0x1"], "root": 0, "lanes": [["#;
    let cases: Vec<(&str, std::path::PathBuf, u64, IbfatStatus, &str)> = vec![
        {
            // 3 million idle phases of 2 ranks (the issue's 20 million, scaled to CI)
            let p = t.path().join("idle-phases.json");
            let n = write_repeated(&p, two, "[null,null]", 3_000_000, "]}\n");
            (
                "schedule_open",
                p,
                n,
                IbfatStatus::IbfatEInput,
                "more than 65536 phases",
            )
        },
        {
            // phases before the hosts: capped all the same
            let p = t.path().join("phases-first.json");
            let n = write_repeated(&p, r#"{"phases": ["#, "[null]", 3_000_000, r#"], "hosts": ["0x1"]}"#);
            ("schedule_open", p, n, IbfatStatus::IbfatEInput, "before the host list")
        },
        {
            // a schedule of every ordered pair in its own phase, 600 ranks: legal, read
            let p = t.path().join("pairs.json");
            let hosts: Vec<String> = (1..=600).map(|g| format!("\"0x{g:016x}\"")).collect();
            let head = format!("{{\"hosts\": [{}], \"phases\": [", hosts.join(","));
            let phase = format!("[{}]", ["null"; 600].join(","));
            let n = write_repeated(&p, &head, &phase, 2_000, "]}\n");
            ("schedule_open", p, n, IbfatStatus::IbfatOk, "")
        },
        {
            // a lane of 4 million entries for 1 host
            let p = t.path().join("long-lane.json");
            let n = write_repeated(&p, one_bcast, "null", 4_000_000, "]]}\n");
            ("bcast_open", p, n, IbfatStatus::IbfatEInput, "more than 1 entries")
        },
        {
            // another format's file of 20 MB: refused where its format stands
            let p = t.path().join("other-format.json");
            let n = write_repeated(&p, r#"{"format": "other", "data": ["#, "[null,null]", 2_000_000, "]}\n");
            ("bcast_open", p, n, IbfatStatus::IbfatEInput, "this reader takes format")
        },
        {
            // lanes beyond the most a broadcast uses
            let p = t.path().join("many-lanes.json");
            let n = write_repeated(
                &p,
                r#"{"format": "ibfat-bcast", "version": 1, "hosts": ["0x1"], "root": 0, "lanes": ["#,
                "[null]",
                1_000_000,
                "]}\n",
            );
            ("bcast_open", p, n, IbfatStatus::IbfatEInput, "lanes")
        },
    ];
    for (case, path, size, want, says) in cases {
        let r = measured(case, path.to_str().unwrap());
        let what = format!("{case} {} ({size} bytes)", path.display());
        assert_eq!(r.status, Some(want as i32), "{what}: {}", r.message);
        assert!(r.message.contains(says), "{what}: {}", r.message);
        let grown = r.rss_kib.saturating_sub(base) * 1024;
        assert!(
            grown <= 4 * size,
            "{what}: peak {} KiB over a baseline of {base} KiB",
            r.rss_kib
        );
        eprintln!("{what}: peak {} KiB (baseline {base} KiB), {:?} CPU", r.rss_kib, r.cpu);
    }
}
