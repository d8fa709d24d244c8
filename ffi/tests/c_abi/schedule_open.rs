//! The schedule-only load path, `ibfat_schedule_open`: a schedule file read without its
//! fabric (what every MPI process does), the same queries as on a schedule made for a
//! fabric, and bad files refused with a status and a message, never a crash.

use ibfat::fingerprint::ComputedFor;
use ibfat::schedule::file::{self, Format};
use ibfat::schedule::shift::Shift;
use ibfatc::*;
use std::ffi::{CStr, CString};
use std::path::Path;
use std::ptr;

fn last() -> String {
    // SAFETY: ibfat_last_error never returns NULL; the string lives until the next call
    unsafe { CStr::from_ptr(ibfat_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn c(path: &Path) -> CString {
    CString::new(path.to_str().unwrap()).unwrap()
}

/// Open `path`; the status, the message and the handle (NULL on failure) are returned.
fn open(path: &CString) -> (IbfatStatus, String, *mut IbfatSchedule) {
    let mut s = ptr::null_mut();
    // SAFETY: path is a live CString, s a local out-variable
    let st = unsafe { ibfat_schedule_open(path.as_ptr(), &mut s) };
    (st, last(), s)
}

/// The plan of a k-ary 2-tree of arity 2 and its hosts' port GUIDs in rank order.
fn kary_guids() -> Vec<u64> {
    let plan = ibfat::topology::Spec::new(ibfat::topology::FamilySpec::Kary(
        ibfat::families::kary::model::KaryParams { arity: 2, levels: 2 },
    ))
    .build()
    .unwrap();
    plan.layout
        .hosts()
        .iter()
        .map(|e| plan.fabric.port(e.node, e.port).guid)
        .collect()
}

#[test]
fn a_schedule_file_opens_without_its_fabric_and_answers_every_query() {
    let dir = tempfile::tempdir().unwrap();
    let guids = kary_guids();
    let n = guids.len();
    let path = dir.path().join("shift.json");
    let on = ComputedFor {
        fabric: "0x00000000000000f1".into(),
        lfts: None,
    };
    file::write(&path, Format::Json, &Shift::new(n), &guids, &on).unwrap();
    let (st, msg, s) = open(&c(&path));
    assert_eq!(st, IbfatStatus::IbfatOk, "{msg}");
    assert!(!s.is_null());
    // SAFETY: s is the live handle opened above, freed once at the end; out-pointers are locals
    unsafe {
        let (mut ranks, mut phases) = (0u32, 0u32);
        assert_eq!(ibfat_schedule_size(s, &mut ranks, &mut phases), IbfatStatus::IbfatOk);
        assert_eq!((ranks as usize, phases as usize), (n, n));
        let mut dest = vec![0u32; n];
        for p in 0..phases {
            assert_eq!(ibfat_schedule_phase(s, p, dest.as_mut_ptr(), n), IbfatStatus::IbfatOk);
            for r in 0..ranks {
                let mut peer = IBFAT_IDLE;
                assert_eq!(ibfat_schedule_peer(s, r, p, &mut peer), IbfatStatus::IbfatOk);
                assert_eq!(peer, (r + p) % ranks, "shift: phase {p}, rank {r}");
                assert_eq!(dest[r as usize], peer);
            }
        }
        for (r, &g) in guids.iter().enumerate() {
            let (mut guid, mut rank) = (0u64, u32::MAX);
            assert_eq!(ibfat_schedule_rank_guid(s, r as u32, &mut guid), IbfatStatus::IbfatOk);
            assert_eq!(guid, g);
            assert_eq!(ibfat_schedule_rank_of(s, g, &mut rank), IbfatStatus::IbfatOk);
            assert_eq!(rank as usize, r);
        }
        let mut rank = 0u32;
        assert_eq!(
            ibfat_schedule_rank_of(s, 0xdead, &mut rank),
            IbfatStatus::IbfatENotFound
        );
        assert!(last().contains("0x000000000000dead is not a rank"), "{}", last());
        let mut peer = 0u32;
        assert_eq!(ibfat_schedule_peer(s, ranks, 0, &mut peer), IbfatStatus::IbfatENotFound);
        assert_eq!(
            ibfat_schedule_peer(s, 0, phases, &mut peer),
            IbfatStatus::IbfatENotFound
        );
        ibfat_schedule_free(s);
    }
}

#[test]
fn null_arguments_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = c(&dir.path().join("any.json"));
    let mut s = ptr::null_mut();
    // SAFETY: every pointer passed is NULL, a live CString or a local out-variable
    unsafe {
        assert_eq!(ibfat_schedule_open(ptr::null(), &mut s), IbfatStatus::IbfatEArg);
        assert!(last().contains("path is NULL"), "{}", last());
        assert_eq!(
            ibfat_schedule_open(path.as_ptr(), ptr::null_mut()),
            IbfatStatus::IbfatEArg
        );
        assert!(last().contains("out_schedule is NULL"), "{}", last());
        let not_utf8 = CString::new(vec![b'/', 0xff, b'x']).unwrap();
        assert_eq!(ibfat_schedule_open(not_utf8.as_ptr(), &mut s), IbfatStatus::IbfatEArg);
        assert!(last().contains("not UTF-8"), "{}", last());
    }
    assert!(s.is_null());
}

#[test]
fn bad_files_give_a_status_and_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        c(&p)
    };
    // a missing file and a folder: refused, naming the path
    for path in [c(&dir.path().join("missing.json")), c(dir.path())] {
        let (st, msg, s) = open(&path);
        assert!(s.is_null(), "{path:?}: a handle on failure");
        assert!(
            st == IbfatStatus::IbfatEInput || st == IbfatStatus::IbfatEIo,
            "{path:?}: status {st:?}: {msg}"
        );
        assert!(msg.contains(path.to_str().unwrap()), "{path:?}: {msg}");
    }
    let (st, msg, _) = open(&c(&dir.path().join("missing.json")));
    assert_eq!(st, IbfatStatus::IbfatEInput, "{msg}");
    assert!(msg.contains("no such schedule file"), "{msg}");
    // malformed files and files of another schema: input errors with the file and line
    let cases: Vec<(CString, &str)> = vec![
        (write("empty.json", ""), "empty.json"),
        (
            write("truncated.json", "{\"hosts\": [\"0x0000000000000001\""),
            "truncated.json",
        ),
        (write("not-json.json", "rank,phase,peer\n0,0,1\n"), "not-json.json"),
        (
            write("other.json", "{\"ports\": [], \"rounds\": []}"),
            "missing field `hosts`",
        ),
        (write("no-hosts.json", "{\"phases\": [[0]]}"), "missing field `hosts`"),
        (
            write("bad-guid.json", "{\"hosts\": [\"12\"], \"phases\": []}"),
            "hosts[0]: `12` is not a port GUID",
        ),
        (
            write("dup.json", "{\"hosts\": [\"0x12\", \"0x12\"], \"phases\": []}"),
            "GUID 0x0000000000000012 is already rank 0",
        ),
        (
            write(
                "range.json",
                "{\"hosts\": [\"0x0000000000000001\", \"0x0000000000000002\"],\n\"phases\": [[1, 5]]}",
            ),
            "range.json:2",
        ),
        (
            write(
                "twice.json",
                "{\"hosts\": [\"0x0000000000000001\", \"0x0000000000000002\", \"0x0000000000000003\"],\n\
                 \"phases\": [[2, 2, null]]}",
            ),
            "twice.json:2",
        ),
        (write("array.json", "[1, 2, 3]"), "a schedule object"),
    ];
    for (path, expect) in cases {
        let (st, msg, s) = open(&path);
        assert!(s.is_null(), "{path:?}: a handle on failure");
        assert_eq!(st, IbfatStatus::IbfatEInput, "{path:?}: {msg}");
        assert!(msg.contains(expect), "{path:?}: {msg}");
        assert!(
            msg.contains(path.to_str().unwrap()),
            "{path:?}: the message names the file: {msg}"
        );
    }
}
