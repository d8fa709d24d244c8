//! Nothing ibfat does damages a file it was not asked to write (issue 10): outputs are
//! written through symlinks, devices and FIFOs, never replaced; `-` is stdin/stdout;
//! plan folders keep other commands' files; temporary names cannot be hijacked; a full
//! disk, SIGKILL or SIGTERM leave the old files intact (and SIGTERM no temp file);
//! concurrent runs leave a consistent dump/guid2lid pair; a closed pipe is a quiet exit.
//! Real files and real processes throughout.

use crate::harness::{build_plan, ibfat, ibfat_bin};
use std::collections::BTreeSet;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn run_in(cwd: &Path, args: &[&str], stdin: Option<&[u8]>) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(ibfat_bin())
        .args(args)
        .current_dir(cwd)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ibfat");
    if let Some(bytes) = stdin {
        let mut w = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = w.write_all(&bytes);
        });
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn names(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_symlinked_out_is_written_through_and_stays_a_link() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &plan);
    let real = t.path().join("real");
    fs::create_dir(&real).unwrap();
    fs::write(real.join("a2a.json"), "old").unwrap();
    let link = t.path().join("a2a.json");
    std::os::unix::fs::symlink("real/a2a.json", &link).unwrap();
    let (code, out, err) = ibfat(&["schedule", s(&plan), "--pattern", "shift", "--out", s(&link)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        fs::symlink_metadata(&link).unwrap().file_type().is_symlink(),
        "the link stays a link"
    );
    let written = fs::read_to_string(real.join("a2a.json")).unwrap();
    assert!(written.contains("\"phases\""), "{written}");
    assert_eq!(
        names(&real),
        BTreeSet::from(["a2a.json".to_string()]),
        "no temp file beside the target"
    );
    // a symlinked output folder: route writes into the folder it points to
    let routes = t.path().join("routes-real");
    fs::create_dir(&routes).unwrap();
    std::os::unix::fs::symlink("routes-real", t.path().join("routes")).unwrap();
    let (code, out, err) = ibfat(&["route", s(&plan), "--out", s(&t.path().join("routes"))]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(fs::symlink_metadata(t.path().join("routes"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        names(&routes),
        BTreeSet::from(["guid2lid", "ibfat-lfts.bin", "opensm-lfts.dump"].map(String::from))
    );
}

#[test]
fn devices_and_fifos_are_streamed_never_replaced() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &plan);
    let (code, out, err) = ibfat(&["schedule", s(&plan), "--pattern", "shift", "--out", "/dev/null"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    let (code, out, err) = ibfat(&["schedule", s(&plan), "--pattern", "shift", "--out", "/dev/stdout"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"phases\""), "the schedule went to stdout: {out}");

    let fifo = t.path().join("fifo");
    let st = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(st.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut v = String::new();
            fs::File::open(&fifo).unwrap().read_to_string(&mut v).unwrap();
            v
        })
    };
    let (code, out, err) = ibfat(&["schedule", s(&plan), "--pattern", "shift", "--out", s(&fifo)]);
    assert_eq!(code, 0, "{out}{err}");
    let got = reader.join().unwrap();
    assert!(got.contains("\"phases\""), "streamed into the FIFO: {got}");
    assert!(
        fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(),
        "still a FIFO"
    );
    assert_eq!(
        names(t.path()),
        BTreeSet::from(["fifo".to_string(), "plan".to_string()])
    );

    // a socket cannot be written: refused, exit 2, left alone
    let sock = t.path().join("sock");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let (code, _, err) = ibfat(&["schedule", s(&plan), "--pattern", "shift", "--out", s(&sock)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("socket"), "{err}");
    assert!(fs::symlink_metadata(&sock).unwrap().file_type().is_socket());
}

#[test]
fn dash_is_stdin_and_stdout_and_never_a_file() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    build_plan(&["build", "lsft", "--order", "2"], &plan);
    let cwd = t.path();
    // schedule --out -: the schedule on stdout, the report on stderr
    let (code, out, err) = run_in(cwd, &["schedule", "plan", "--pattern", "lsft", "--out", "-"], None);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out).expect("stdout is the schedule alone");
    assert!(v["phases"].is_array());
    assert!(err.contains("phases"), "report on stderr: {err}");
    // recognize -
    let net = fs::read(plan.join("topology.net")).unwrap();
    let (code, out, err) = run_in(cwd, &["recognize", "-"], Some(&net));
    assert_eq!(code, 0, "{err}");
    assert!(
        String::from_utf8_lossy(&out).contains("LSFT"),
        "{}",
        String::from_utf8_lossy(&out)
    );
    // check --lfts -
    let (code, _, err) = run_in(cwd, &["route", "plan", "--out", "routes"], None);
    assert_eq!(code, 0, "{err}");
    let dump = fs::read(cwd.join("routes/opensm-lfts.dump")).unwrap();
    let (code, out, err) = run_in(
        cwd,
        &[
            "check",
            "--topology",
            "plan",
            "--pattern",
            "lsft",
            "--lfts",
            "-",
            "--lids",
            "routes/guid2lid",
        ],
        Some(&dump),
    );
    assert_eq!(code, 0, "{}{err}", String::from_utf8_lossy(&out));
    // lfts validate with the dump on stdin
    let (code, out, err) = run_in(
        cwd,
        &["lfts", "validate", "--topology", "plan", "--lfts", "-"],
        Some(&dump),
    );
    assert_eq!(code, 0, "{}{err}", String::from_utf8_lossy(&out));
    // two `-` inputs: refused
    let (code, _, err) = run_in(cwd, &["lfts", "validate", "--topology", "-", "--lfts", "-"], Some(&net));
    assert_eq!(code, 2, "{err}");
    // a folder output cannot be stdout
    let (code, _, err) = run_in(cwd, &["route", "plan", "--out", "-"], None);
    assert_eq!(code, 2, "{err}");
    assert!(!cwd.join("-").exists(), "no file named `-`");
    assert_eq!(names(cwd), BTreeSet::from(["plan".to_string(), "routes".to_string()]));
}

#[test]
fn build_keeps_route_output_and_refuses_foreign_files() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("lsft3");
    build_plan(&["build", "lsft", "--order", "3"], &plan);
    let (code, out, err) = ibfat(&["route", s(&plan), "--out", s(&plan)]);
    assert_eq!(code, 0, "{out}{err}");
    let dump = fs::read(plan.join("opensm-lfts.dump")).unwrap();
    let g2l = fs::read(plan.join("guid2lid")).unwrap();
    // rebuild the same plan into the folder (the README's flow): route's files stay
    let (code, out, err) = ibfat(&["build", "lsft", "--order", "3", "--out", s(&plan), "--no-svg", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(fs::read(plan.join("opensm-lfts.dump")).unwrap(), dump);
    assert_eq!(fs::read(plan.join("guid2lid")).unwrap(), g2l);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["kept"],
        serde_json::json!(["opensm-lfts.dump", "guid2lid", "ibfat-lfts.bin"])
    );
    // a file no ibfat command wrote: refused, exit 2, naming it, nothing changed
    fs::write(plan.join("notes.txt"), "mine").unwrap();
    let before = names(&plan);
    let (code, _, err) = ibfat(&["build", "lsft", "--order", "3", "--out", s(&plan), "--no-svg"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("notes.txt"), "{err}");
    assert_eq!(names(&plan), before);
    assert_eq!(fs::read(plan.join("opensm-lfts.dump")).unwrap(), dump);
    assert_eq!(
        names(t.path()),
        BTreeSet::from(["lsft3".to_string()]),
        "no temporary folders"
    );
}

#[test]
fn concurrent_builds_leave_no_leftovers() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("p");
    let spawn = || {
        Command::new(ibfat_bin())
            .args([
                "build",
                "kary",
                "--arity",
                "3",
                "--levels",
                "3",
                "--no-svg",
                "--out",
                s(&plan),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    for _ in 0..5 {
        let kids: Vec<Child> = (0..3).map(|_| spawn()).collect();
        for k in kids {
            let o = k.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        assert_eq!(
            names(t.path()),
            BTreeSet::from(["p".to_string()]),
            "no .p.old / .p.new folders"
        );
    }
}

#[test]
fn a_planted_symlink_at_a_temp_name_is_never_followed() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &plan);
    let out = t.path().join("out");
    fs::create_dir(&out).unwrap();
    let victim = t.path().join("victim");
    fs::write(&victim, "precious").unwrap();
    // the old scheme named temp files `.NAME.tmp-PID`: plant links for the next PIDs
    let probe = Command::new("true").spawn().unwrap().id();
    for pid in probe..probe + 400 {
        for name in ["a2a.json", "opensm-lfts.dump", "guid2lid"] {
            let _ = std::os::unix::fs::symlink(&victim, out.join(format!(".{name}.tmp-{pid}")));
        }
    }
    let (code, o, e) = ibfat(&[
        "schedule",
        s(&plan),
        "--pattern",
        "shift",
        "--out",
        s(&out.join("a2a.json")),
    ]);
    assert_eq!(code, 0, "{o}{e}");
    let (code, o, e) = ibfat(&["route", s(&plan), "--out", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    assert_eq!(
        fs::read_to_string(&victim).unwrap(),
        "precious",
        "the link target is untouched"
    );
    assert!(fs::read_to_string(out.join("a2a.json")).unwrap().contains("\"phases\""));
    let links = fs::read_dir(&out)
        .unwrap()
        .flatten()
        .filter(|e| e.file_type().unwrap().is_symlink())
        .count();
    assert_eq!(links, 400 * 3, "planted links are left as they were");
}

/// Unmounts the tmpfs when the test ends, pass or fail.
struct Mount(PathBuf);
impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_leaves_the_old_pair_and_no_temp_file() {
    let t = tempfile::tempdir().unwrap();
    let small = t.path().join("small");
    let big = t.path().join("big");
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &small);
    build_plan(&["build", "lsft", "--order", "7"], &big);
    let disk = t.path().join("disk");
    fs::create_dir(&disk).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs", s(&disk)])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|st| st.success());
    if !mounted {
        eprintln!("SKIPPED a_full_disk_leaves_the_old_pair_and_no_temp_file: cannot mount a tmpfs (needs root)");
        return;
    }
    let _m = Mount(disk.clone());
    let (code, o, e) = ibfat(&["route", s(&small), "--out", s(&disk)]);
    assert_eq!(code, 0, "{o}{e}");
    let dump = fs::read(disk.join("opensm-lfts.dump")).unwrap();
    let g2l = fs::read(disk.join("guid2lid")).unwrap();
    let bin = fs::read(disk.join("ibfat-lfts.bin")).unwrap();
    // LSFT(7)'s dump (~2 MB) does not fit in 1 MB
    let (code, o, e) = ibfat(&["route", s(&big), "--out", s(&disk)]);
    assert_eq!(code, 3, "{o}{e}");
    assert_eq!(
        fs::read(disk.join("opensm-lfts.dump")).unwrap(),
        dump,
        "old dump intact"
    );
    assert_eq!(fs::read(disk.join("guid2lid")).unwrap(), g2l, "old guid2lid intact");
    assert_eq!(fs::read(disk.join("ibfat-lfts.bin")).unwrap(), bin, "old tables intact");
    assert_eq!(
        names(&disk),
        BTreeSet::from(["guid2lid", "ibfat-lfts.bin", "opensm-lfts.dump"].map(String::from)),
        "no temp file left"
    );
}

/// Start `route` of a large fabric into `out` and send `sig` while its dump's temporary
/// file exists; the exit status, or `None` when the write was never caught in flight.
fn interrupt_route(plan: &Path, out: &Path, sig: &str) -> Option<std::process::ExitStatus> {
    let mut child = Command::new(ibfat_bin())
        .args(["route", s(plan), "--out", s(out)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            return None; // finished before we saw the temp file
        }
        if names(out).iter().any(|n| n.contains(".tmp-")) {
            Command::new("kill")
                .args([sig, &child.id().to_string()])
                .status()
                .unwrap();
            return Some(child.wait().unwrap());
        }
        assert!(start.elapsed() < Duration::from_secs(300), "route never wrote");
        std::thread::sleep(Duration::from_micros(500));
    }
}

fn interrupted_route_keeps_the_old_pair(sig: &str) {
    use std::os::unix::process::ExitStatusExt;
    let t = tempfile::tempdir().unwrap();
    let small = t.path().join("small");
    let big = t.path().join("lsft13");
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &small);
    build_plan(&["build", "lsft", "--order", "13"], &big);
    let out = t.path().join("routes");
    let (code, o, e) = ibfat(&["route", s(&small), "--out", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    let dump = fs::read(out.join("opensm-lfts.dump")).unwrap();
    let g2l = fs::read(out.join("guid2lid")).unwrap();
    let mut caught = None;
    for _ in 0..5 {
        if let Some(st) = interrupt_route(&big, &out, sig) {
            caught = Some(st);
            break;
        }
        // it finished: put the small pair back and try again
        let (code, o, e) = ibfat(&["route", s(&small), "--out", s(&out)]);
        assert_eq!(code, 0, "{o}{e}");
    }
    let st = caught.expect("the dump's write was caught in flight");
    assert_eq!(fs::read(out.join("opensm-lfts.dump")).unwrap(), dump, "old dump intact");
    assert_eq!(fs::read(out.join("guid2lid")).unwrap(), g2l, "old guid2lid intact");
    if sig == "-TERM" {
        assert_eq!(st.code(), Some(143), "{st:?}");
        assert_eq!(
            names(&out),
            BTreeSet::from(["guid2lid", "ibfat-lfts.bin", "opensm-lfts.dump"].map(String::from)),
            "SIGTERM leaves no temp file"
        );
    } else {
        assert_eq!(st.signal(), Some(9), "{st:?}");
    }
}

#[test]
fn sigkill_mid_write_leaves_the_old_dump() {
    interrupted_route_keeps_the_old_pair("-KILL");
}

#[test]
fn sigterm_mid_write_leaves_the_old_dump_and_no_temp_file() {
    interrupted_route_keeps_the_old_pair("-TERM");
}

/// The LIDs a guid2lid assigns and the LIDs the first switch section of a dump routes.
fn pair_lids(dir: &Path) -> (BTreeSet<u64>, BTreeSet<u64>) {
    let hex = |w: &str| u64::from_str_radix(w.trim_start_matches("0x"), 16).unwrap();
    let g2l = fs::read_to_string(dir.join("guid2lid")).unwrap();
    let mut assigned = BTreeSet::new();
    for l in g2l.lines().filter(|l| !l.trim().is_empty()) {
        let w: Vec<&str> = l.split_whitespace().collect();
        assigned.extend(hex(w[1])..=hex(w[2]));
    }
    let dump = fs::read_to_string(dir.join("opensm-lfts.dump")).unwrap();
    let mut routed = BTreeSet::new();
    for l in dump.lines().skip(1) {
        if l.starts_with("Unicast") {
            break;
        }
        if l.starts_with("0x") {
            routed.insert(hex(l.split_whitespace().next().unwrap()));
        }
    }
    (assigned, routed)
}

#[test]
fn concurrent_routes_with_different_lmc_leave_a_consistent_pair() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    build_plan(&["build", "lsft", "--order", "5"], &plan);
    let out = t.path().join("routes");
    for _ in 0..6 {
        let kids: Vec<Child> = ["0", "1"]
            .iter()
            .map(|lmc| {
                Command::new(ibfat_bin())
                    .args(["route", s(&plan), "--lids", "plan", "--lmc", lmc, "--out", s(&out)])
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for k in kids {
            let o = k.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        let (assigned, routed) = pair_lids(&out);
        assert_eq!(assigned, routed, "the dump routes exactly the LIDs guid2lid assigns");
        assert_eq!(
            names(&out),
            BTreeSet::from(["guid2lid", "ibfat-lfts.bin", "opensm-lfts.dump"].map(String::from))
        );
    }
}

/// Run a command with stdout into a pipe that is closed after one byte.
fn head_c1(cwd: &Path, args: &[&str]) -> (i32, String) {
    let mut child = Command::new(ibfat_bin())
        .args(args)
        .current_dir(cwd)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut one = [0u8; 1];
    let _ = stdout.read(&mut one);
    drop(stdout);
    let o = child.wait_with_output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_is_a_quiet_exit_for_every_subcommand() {
    let t = tempfile::tempdir().unwrap();
    let cwd = t.path();
    build_plan(&["build", "lsft", "--order", "7"], &cwd.join("plan"));
    let (code, o, e) = ibfat(&["route", s(&cwd.join("plan")), "--out", s(&cwd.join("plan"))]);
    assert_eq!(code, 0, "{o}{e}");
    build_plan(
        &["build", "fullmesh", "--switches", "4", "--hosts-per-switch", "2"],
        &cwd.join("mesh"),
    );
    let (_, help, _) = ibfat(&["--help"]);
    let commands: Vec<&[&str]> = vec![
        &["build", "lsft", "--order", "7"],
        &["metrics", "cost"],
        &["metrics", "hops"],
        &["demo", "--out", "demo"],
        &["schedule", "plan", "--pattern", "lsft"],
        &["schedule", "plan", "--pattern", "lsft", "--out", "-"],
        &["route", "plan", "--out", "r"],
        &["plan-paths", "mesh", "--direct-share", "3", "--out", "paths.json"],
        &["lfts", "validate", "plan", "--lfts", "plan/opensm-lfts.dump"],
        &["check", "plan", "--pattern", "lsft", "--links"],
        &["recognize", "plan/topology.net"],
        &["cabling", "plan", "plan/topology.net"],
        &["whoami"],
        &["export", "slurm-topology", "plan"],
        &["faults", "plan", "--cut", "2", "--out", "f"],
        &["predict", "plan", "--job", "ranks:0-15", "--msg-size", "16K,1M"],
        &["completions", "bash"],
        &["man"],
    ];
    let listed: BTreeSet<&str> = commands.iter().map(|c| c[0]).collect();
    for line in help.lines().skip_while(|l| !l.starts_with("Commands:")).skip(1) {
        if line.trim().is_empty() {
            break;
        }
        if !line.starts_with("  ") || line.starts_with("   ") {
            continue; // a wrapped description
        }
        let Some(name) = line.split_whitespace().next() else {
            break;
        };
        if name != "help" {
            assert!(listed.contains(name), "subcommand {name} is not covered");
        }
    }
    for cmd in commands {
        // completion scripts, man pages and exported files have no JSON form
        let forms: &[bool] = if matches!(cmd[0], "completions" | "man" | "export") {
            &[false]
        } else {
            &[false, true]
        };
        for &json in forms {
            let mut args = cmd.to_vec();
            if json {
                args.push("--json");
            }
            let (normal, _, _) = ibfat_in(cwd, &args);
            let (code, err) = head_c1(cwd, &args);
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            assert_ne!(code, 101, "{args:?}: {err}");
            assert!(
                code == normal || code == 141,
                "{args:?}: exit {code} (normally {normal}): {err}"
            );
            if cmd[0] != "whoami" {
                assert!(normal == 0 && (code == 0 || code == 141), "{args:?}: {code} {err}");
            }
        }
    }
}

fn ibfat_in(cwd: &Path, args: &[&str]) -> (i32, Vec<u8>, String) {
    run_in(cwd, args, None)
}

/// The PIDs of `pid`'s children (from /proc).
fn children_of(pid: u32) -> Vec<u32> {
    let mut kids = Vec::new();
    for e in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(p) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(stat) = fs::read_to_string(format!("/proc/{p}/stat")) {
            // pid (comm) state ppid ...
            let after = stat.rsplit_once(')').map(|x| x.1).unwrap_or("");
            if after.split_whitespace().nth(1).and_then(|x| x.parse::<u32>().ok()) == Some(pid) {
                kids.push(p);
            }
        }
    }
    kids
}

#[test]
fn sigterm_during_build_kills_dot_and_leaves_no_temp_folder() {
    if Command::new("dot").arg("-V").stderr(Stdio::null()).status().is_err() {
        eprintln!("SKIPPED sigterm_during_build_kills_dot_and_leaves_no_temp_folder: Graphviz is not installed");
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("plan");
    let mut child = Command::new(ibfat_bin())
        .args(["build", "lsft", "--order", "13", "--graphviz", "--out", s(&out)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let dot = loop {
        if let Some(&k) = children_of(child.id()).first() {
            break k;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "build finished before dot was seen"
        );
        assert!(start.elapsed() < Duration::from_secs(120), "no dot child");
        std::thread::sleep(Duration::from_millis(5));
    };
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let st = child.wait().unwrap();
    assert_eq!(st.code(), Some(143), "{st:?}");
    std::thread::sleep(Duration::from_millis(100));
    let alive = fs::read_to_string(format!("/proc/{dot}/stat")).is_ok_and(|s| !s.contains(") Z "));
    assert!(!alive, "dot ({dot}) outlived ibfat");
    assert_eq!(names(t.path()), BTreeSet::new(), "no temporary plan folder left");
}

/// SIGKILL cannot be caught, so `dot` is started to die with its parent (setpriv
/// --pdeathsig): killing `build` hard leaves no Graphviz process behind.
#[test]
fn sigkill_during_build_leaves_no_dot_behind() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("plan");
    let mut child = Command::new(ibfat_bin())
        .args(["build", "lsft", "--order", "13", "--graphviz", "--out", s(&out)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("ibfat");
    let start = Instant::now();
    let dot = loop {
        if let Some(&k) = children_of(child.id()).first() {
            // wait for setpriv to exec dot (same PID)
            if fs::read_to_string(format!("/proc/{k}/comm")).is_ok_and(|c| c.trim() == "dot") {
                break k;
            }
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "build finished before dot was seen"
        );
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no dot child (is graphviz installed?)"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let gone = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(20));
        !fs::read_to_string(format!("/proc/{dot}/stat")).is_ok_and(|s| !s.contains(") Z "))
    });
    assert!(gone, "dot ({dot}) outlived a SIGKILLed ibfat");
}

/// A torn pair (a new `opensm-lfts.dump` beside an old `guid2lid`, as SIGKILL between the
/// two renames could leave) is refused by the readers, never used as if it matched.
#[test]
fn a_torn_dump_and_guid2lid_pair_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    for (dir, lmc) in [(&a, "0"), (&b, "1")] {
        let (c, _, e) = ibfat(&[
            "build",
            "kary",
            "--arity",
            "2",
            "--levels",
            "3",
            "--out",
            s(dir),
            "--no-svg",
        ]);
        assert_eq!(c, 0, "{e}");
        let (c, _, e) = ibfat(&["route", s(dir), "--lmc", lmc, "--out", s(dir)]);
        assert_eq!(c, 0, "{e}");
    }
    fs::copy(b.join("opensm-lfts.dump"), a.join("opensm-lfts.dump")).unwrap();
    let dump = a.join("opensm-lfts.dump");
    for args in [
        vec!["check", s(&a), "--lfts", s(&dump), "--pattern", "shift"],
        vec!["lfts", "validate", s(&a), "--lfts", s(&dump)],
    ] {
        let (c, _, e) = ibfat(&args);
        assert_eq!(c, 2, "{args:?}: {e}");
        assert!(
            e.contains("opensm-lfts.dump:") && e.contains("guid2lid"),
            "{args:?}: {e}"
        );
    }
}
