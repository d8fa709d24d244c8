//! The C ABI called directly: argument checking, status codes, messages, recognition,
//! schedules, and the panic barrier.

use ibfatc::*;
use std::ffi::{c_int, CStr, CString};
use std::ptr;

fn last() -> String {
    // SAFETY: ibfat_last_error never returns NULL; the string lives until the next call
    unsafe { CStr::from_ptr(ibfat_last_error()) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn null_pointers_and_bad_arguments_are_reported() {
    // SAFETY: every pointer passed is NULL, a live CString or a local out-variable
    unsafe {
        assert_eq!(ibfat_fabric_new(ptr::null_mut()), IbfatStatus::IbfatEArg);
        assert!(last().contains("out_fabric is NULL"));
        let mut f = ptr::null_mut();
        assert_eq!(ibfat_fabric_load(ptr::null(), &mut f), IbfatStatus::IbfatEArg);
        let missing = CString::new("/nonexistent/topology.net").unwrap();
        assert_eq!(ibfat_fabric_load(missing.as_ptr(), &mut f), IbfatStatus::IbfatEIo);
        assert!(last().contains("/nonexistent/topology.net"));
        assert!(f.is_null());
        ibfat_fabric_free(ptr::null_mut());
        ibfat_routes_free(ptr::null_mut());
        ibfat_schedule_free(ptr::null_mut());
    }
}

#[test]
fn describe_a_fabric_node_by_node_and_recognise_it() {
    // SAFETY: handles come from the library and are freed once at the end; strings are live
    // CStrings; out-pointers are locals, and `dest` holds the `len` elements claimed (or more);
    // an all-zero IbfatRecognition is valid (family AUTO, wiring NONE are 0)
    unsafe {
        // a 2-ary 2-tree: leaves 0,1 and tops 2,3, hosts 4..7
        let mut f = ptr::null_mut();
        assert_eq!(ibfat_fabric_new(&mut f), IbfatStatus::IbfatOk);
        let mut ids = Vec::new();
        for (i, kind) in [IbfatNodeKind::IbfatSwitch; 4]
            .iter()
            .chain([IbfatNodeKind::IbfatCa; 4].iter())
            .enumerate()
        {
            let name = CString::new(format!("n{i}")).unwrap();
            let mut id = 0;
            let nports = if *kind == IbfatNodeKind::IbfatSwitch { 4 } else { 1 };
            assert_eq!(
                ibfat_fabric_add_node(
                    f,
                    *kind as c_int,
                    nports,
                    0x1000 + 4 * i as u64,
                    name.as_ptr(),
                    ptr::null(),
                    &mut id
                ),
                IbfatStatus::IbfatOk,
                "{}",
                last()
            );
            ids.push(id);
        }
        for (leaf, top, lp, tp) in [(0, 2, 3, 1), (0, 3, 4, 1), (1, 2, 3, 2), (1, 3, 4, 2)] {
            assert_eq!(
                ibfat_fabric_connect(f, leaf, lp, top, tp),
                IbfatStatus::IbfatOk,
                "{}",
                last()
            );
        }
        for h in 0..4u32 {
            assert_eq!(
                ibfat_fabric_connect(f, h / 2, h % 2 + 1, 4 + h, 1),
                IbfatStatus::IbfatOk,
                "{}",
                last()
            );
        }
        assert_eq!(
            ibfat_fabric_connect(f, 0, 1, 5, 1),
            IbfatStatus::IbfatEInput,
            "port already cabled"
        );
        assert!(last().contains("already cabled"), "{}", last());
        assert_eq!(ibfat_fabric_connect(f, 0, 9, 7, 1), IbfatStatus::IbfatEInput);
        assert!(last().contains("port 9 is beyond"), "{}", last());
        let (mut s, mut c, mut l) = (0, 0, 0);
        assert_eq!(ibfat_fabric_counts(f, &mut s, &mut c, &mut l), IbfatStatus::IbfatOk);
        assert_eq!((s, c, l), (4, 4, 8));
        let mut rec = std::mem::zeroed::<IbfatRecognition>();
        assert_eq!(
            ibfat_fabric_recognize(f, IbfatFamily::IbfatFamilyLsft as c_int, &mut rec),
            IbfatStatus::IbfatEUnrecognized
        );
        assert!(!last().is_empty());
        assert_eq!(
            ibfat_fabric_recognize(f, IbfatFamily::IbfatFamilyAuto as c_int, &mut rec),
            IbfatStatus::IbfatOk,
            "{}",
            last()
        );
        assert_eq!(
            (rec.family, rec.arity, rec.levels, rec.hosts),
            (IbfatFamily::IbfatFamilyKary, 2, 2, 4)
        );
        let mut r = ptr::null_mut();
        assert_eq!(
            ibfat_routes_compute(f, 0, IbfatLidSource::IbfatLidsPlan as c_int, &mut r),
            IbfatStatus::IbfatOk,
            "{}",
            last()
        );
        let mut v = IbfatValidation::default();
        assert_eq!(ibfat_routes_validate(r, &mut v), IbfatStatus::IbfatOk);
        assert_eq!((v.ok, v.deadlock_free), (1, 1));
        let mut sched = ptr::null_mut();
        let pat = CString::new("kary-shift").unwrap();
        assert_eq!(
            ibfat_schedule_new(f, pat.as_ptr(), ptr::null(), &mut sched),
            IbfatStatus::IbfatOk,
            "{}",
            last()
        );
        let (mut ranks, mut phases) = (0, 0);
        assert_eq!(
            ibfat_schedule_size(sched, &mut ranks, &mut phases),
            IbfatStatus::IbfatOk
        );
        assert_eq!((ranks, phases), (4, 4));
        let mut dest = vec![0u32; 4];
        assert_eq!(
            ibfat_schedule_phase(sched, 1, dest.as_mut_ptr(), 4),
            IbfatStatus::IbfatOk
        );
        for (rank, &d) in dest.iter().enumerate() {
            let mut p = 0;
            assert_eq!(ibfat_schedule_peer(sched, rank as u32, 1, &mut p), IbfatStatus::IbfatOk);
            assert_eq!(p, d);
        }
        assert_eq!(
            ibfat_schedule_phase(sched, 1, dest.as_mut_ptr(), 3),
            IbfatStatus::IbfatEArg
        );
        let bad = CString::new("nope").unwrap();
        let mut s2 = ptr::null_mut();
        assert_eq!(
            ibfat_schedule_new(f, bad.as_ptr(), ptr::null(), &mut s2),
            IbfatStatus::IbfatEInput
        );
        assert!(last().contains("unknown pattern `nope`"));
        let opts = CString::new("colour=red").unwrap();
        assert_eq!(
            ibfat_schedule_new(f, pat.as_ptr(), opts.as_ptr(), &mut s2),
            IbfatStatus::IbfatEInput
        );
        assert!(last().contains("unknown option `colour`"));
        ibfat_schedule_free(sched);
        ibfat_routes_free(r);
        ibfat_fabric_free(f);
    }
}

#[test]
fn no_panic_crosses_the_boundary() {
    assert_eq!(ibfat_selftest_panic_barrier(), IbfatStatus::IbfatEInternal);
    assert!(last().starts_with("internal error (please report)"), "{}", last());
    // the next call works normally and clears the message
    let mut f = ptr::null_mut();
    // SAFETY: f is a local out-variable
    assert_eq!(unsafe { ibfat_fabric_new(&mut f) }, IbfatStatus::IbfatOk);
    assert_eq!(last(), "");
    // SAFETY: f is the live handle made above, freed once
    unsafe { ibfat_fabric_free(f) };
}

/// A schedule knows what it was computed for: loading one of another fabric, or checking
/// one against other tables (after a reroute), is `IBFAT_E_STALE` with the reason.
#[test]
fn stale_schedules_are_refused() {
    use ibfat::fingerprint::ComputedFor;
    use ibfat::schedule::file::{self, Format};
    use ibfat::schedule::shift::Shift;
    let plan = ibfat::topology::Spec::new(ibfat::topology::FamilySpec::Kary(
        ibfat::families::kary::model::KaryParams { arity: 2, levels: 2 },
    ))
    .build()
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let spec = CString::new("family: kary\narity: 2\nlevels: 2\n").unwrap();
    let guids: Vec<u64> = plan
        .layout
        .hosts()
        .iter()
        .map(|e| plan.fabric.port(e.node, e.port).guid)
        .collect();
    let lids = ibfat::routing::Lids::plan(&plan.fabric, plan.layout.hosts(), 0).unwrap();
    let lfts = ibfat::routing::route(&plan.fabric, &plan.layout, &lids).unwrap();
    let write = |name: &str, on: ComputedFor| {
        let path = dir.path().join(name);
        file::write(&path, Format::Json, &Shift::new(guids.len()), &guids, &on).unwrap();
        CString::new(path.to_str().unwrap()).unwrap()
    };
    let fresh = write("fresh.json", lfts.computed_for(&plan.fabric, &lids));
    let other_fabric = write(
        "other.json",
        ComputedFor {
            fabric: "0x0000000000000001".into(),
            lfts: None,
        },
    );
    // SAFETY: every pointer passed is a live CString, a handle from this API or a local
    unsafe {
        let mut f = ptr::null_mut();
        assert_eq!(
            ibfat_fabric_build(spec.as_ptr(), &mut f),
            IbfatStatus::IbfatOk,
            "{}",
            last()
        );
        let mut s = ptr::null_mut();
        assert_eq!(
            ibfat_schedule_load(f, other_fabric.as_ptr(), &mut s),
            IbfatStatus::IbfatEStale
        );
        assert!(
            last().contains("other.json") && last().contains("other node GUIDs"),
            "{}",
            last()
        );
        assert!(s.is_null());
        assert_eq!(
            ibfat_schedule_load(f, fresh.as_ptr(), &mut s),
            IbfatStatus::IbfatOk,
            "{}",
            last()
        );
        let (mut r0, mut r1) = (ptr::null_mut(), ptr::null_mut());
        assert_eq!(
            ibfat_routes_compute(f, 0, IbfatLidSource::IbfatLidsPlan as c_int, &mut r0),
            IbfatStatus::IbfatOk
        );
        assert_eq!(
            ibfat_routes_compute(f, 1, IbfatLidSource::IbfatLidsPlan as c_int, &mut r1),
            IbfatStatus::IbfatOk
        );
        assert_eq!(ibfat_schedule_check_routes(s, r0), IbfatStatus::IbfatOk, "{}", last());
        assert_eq!(ibfat_schedule_check_routes(s, r1), IbfatStatus::IbfatEStale);
        assert!(last().contains("forwarding tables"), "{}", last());
        assert_eq!(ibfat_schedule_check_routes(ptr::null(), r0), IbfatStatus::IbfatEArg);
        // a schedule made here from the topology fits any tables of the fabric
        let mut mine = ptr::null_mut();
        let pat = CString::new("kary-shift").unwrap();
        assert_eq!(
            ibfat_schedule_new(f, pat.as_ptr(), ptr::null(), &mut mine),
            IbfatStatus::IbfatOk
        );
        assert_eq!(
            ibfat_schedule_check_routes(mine, r1),
            IbfatStatus::IbfatOk,
            "{}",
            last()
        );
        ibfat_schedule_free(mine);
        ibfat_schedule_free(s);
        ibfat_routes_free(r0);
        ibfat_routes_free(r1);
        ibfat_fabric_free(f);
    }
}
