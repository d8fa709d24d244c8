//! The run-time selector through the C ABI: learning, the choice, monitoring; bad use
//! (a freed handle, a negative time, a record without a call) is a status and a message.

use ibfatc::*;
use std::ffi::{CStr, CString};
use std::ptr;

fn last() -> String {
    // SAFETY: ibfat_last_error never returns NULL; the string lives until the next call
    unsafe { CStr::from_ptr(ibfat_last_error()) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn learns_chooses_and_refuses_bad_use() {
    // SAFETY: the handle comes from the library and is freed once; strings are live
    // CStrings; out-pointers are locals
    unsafe {
        let list = CString::new("pair, ring,bruck").unwrap();
        let mut s = ptr::null_mut();
        assert_eq!(ibfat_selector_new(list.as_ptr(), 2, 0.2, &mut s), IbfatStatus::IbfatOk);
        let (mut i, mut learning) = (0u32, 0i32);
        assert_eq!(
            ibfat_selector_choice(s, &mut i, &mut learning),
            IbfatStatus::IbfatENotFound
        );
        assert_eq!(learning, 1);
        assert!(last().contains("still learning"));
        let times = [3e-3, 2e-3, 5e-3];
        for _ in 0..6 {
            assert_eq!(ibfat_selector_next(s, &mut i), IbfatStatus::IbfatOk);
            assert_eq!(ibfat_selector_record(s, times[i as usize]), IbfatStatus::IbfatOk);
        }
        assert_eq!(ibfat_selector_choice(s, &mut i, &mut learning), IbfatStatus::IbfatOk);
        assert_eq!((i, learning), (1, 0));
        let mut name = ptr::null();
        assert_eq!(ibfat_selector_name(s, i, &mut name), IbfatStatus::IbfatOk);
        assert_eq!(CStr::from_ptr(name).to_str().unwrap(), "ring");
        assert_eq!(ibfat_selector_name(s, 3, &mut name), IbfatStatus::IbfatENotFound);
        // bad use: a negative time, a record with no call pending
        assert_eq!(ibfat_selector_next(s, &mut i), IbfatStatus::IbfatOk);
        assert_eq!(ibfat_selector_record(s, -1.0), IbfatStatus::IbfatEInput);
        assert!(last().contains("not a duration"), "{}", last());
        assert_eq!(ibfat_selector_record(s, 2e-3), IbfatStatus::IbfatOk);
        assert_eq!(ibfat_selector_record(s, 2e-3), IbfatStatus::IbfatEInput);
        assert!(last().contains("no call is pending"));
        // a freed selector is NULL in the caller's variable
        ibfat_selector_free(&mut s);
        assert!(s.is_null());
        assert_eq!(ibfat_selector_next(s, &mut i), IbfatStatus::IbfatEArg);
        assert!(last().contains("selector handle is NULL"), "{}", last());
        assert_eq!(ibfat_selector_record(s, 1.0), IbfatStatus::IbfatEArg);
        ibfat_selector_free(&mut s);
        ibfat_selector_free(ptr::null_mut());
        // bad construction
        let dup = CString::new("ring,ring").unwrap();
        assert_eq!(
            ibfat_selector_new(dup.as_ptr(), 1, 0.1, &mut s),
            IbfatStatus::IbfatEInput
        );
        assert!(s.is_null() && last().contains("listed twice"));
        assert_eq!(
            ibfat_selector_new(list.as_ptr(), 0, 0.1, &mut s),
            IbfatStatus::IbfatEInput
        );
        assert_eq!(
            ibfat_selector_new(list.as_ptr(), 1, -1.0, &mut s),
            IbfatStatus::IbfatEInput
        );
        assert_eq!(ibfat_selector_new(ptr::null(), 1, 0.1, &mut s), IbfatStatus::IbfatEArg);
    }
}

#[test]
fn one_selector_per_communicator_no_shared_state() {
    // SAFETY: as above; two independent handles
    unsafe {
        let list = CString::new("a,b").unwrap();
        let (mut x, mut y) = (ptr::null_mut(), ptr::null_mut());
        assert_eq!(ibfat_selector_new(list.as_ptr(), 1, 0.0, &mut x), IbfatStatus::IbfatOk);
        assert_eq!(ibfat_selector_new(list.as_ptr(), 1, 0.0, &mut y), IbfatStatus::IbfatOk);
        let mut i = 0;
        for (h, ta, tb) in [(x, 1.0, 2.0), (y, 2.0, 1.0)] {
            for t in [ta, tb] {
                assert_eq!(ibfat_selector_next(h, &mut i), IbfatStatus::IbfatOk);
                assert_eq!(ibfat_selector_record(h, t), IbfatStatus::IbfatOk);
            }
        }
        let (mut cx, mut cy) = (9, 9);
        assert_eq!(ibfat_selector_choice(x, &mut cx, ptr::null_mut()), IbfatStatus::IbfatOk);
        assert_eq!(ibfat_selector_choice(y, &mut cy, ptr::null_mut()), IbfatStatus::IbfatOk);
        assert_eq!((cx, cy), (0, 1));
        ibfat_selector_free(&mut x);
        ibfat_selector_free(&mut y);
    }
}

#[test]
fn a_selector_for_a_placement_starts_from_the_predicted_shortlist() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("fabric.yaml");
    std::fs::write(
        &spec,
        "family: twolevel\nleaves: 8\nhosts_per_leaf: 20\nspines: 2\nlinks_per_pair: 2\n",
    )
    .unwrap();
    let path = CString::new(spec.to_str().unwrap()).unwrap();
    // seed 001's pattern 0 on 4 leaves: four ranks behind one uplink per leaf
    let job = CString::new("ranks:0,4,8,12,20,24,28,32,40,44,48,52,60,64,68,72").unwrap();
    // SAFETY: handles come from the library and are freed once; strings are live
    // CStrings; out-pointers are locals
    unsafe {
        let mut f = ptr::null_mut();
        assert_eq!(
            ibfat_fabric_load(path.as_ptr(), &mut f),
            IbfatStatus::IbfatOk,
            "{}",
            last()
        );
        let mut s = ptr::null_mut();
        let st = ibfat_selector_for_job(
            f,
            ptr::null(),
            job.as_ptr(),
            1,
            1 << 20,
            20e-6,
            1.5e9,
            1.5,
            1,
            0.2,
            &mut s,
        );
        assert_eq!(st, IbfatStatus::IbfatOk, "{}", last());
        let mut names = Vec::new();
        let mut name = ptr::null();
        for i in 0.. {
            if ibfat_selector_name(s, i, &mut name) != IbfatStatus::IbfatOk {
                break;
            }
            names.push(CStr::from_ptr(name).to_str().unwrap().to_string());
        }
        // at 1 MiB Bruck (4 steps of 8 blocks) is predicted 1.8× the best: pruned at 1.5
        assert!(names.len() >= 2 && !names.contains(&"bruck".to_string()), "{names:?}");
        let mut i = 0;
        assert_eq!(ibfat_selector_next(s, &mut i), IbfatStatus::IbfatOk);
        assert_eq!(i, 0, "the predicted best runs first");
        ibfat_selector_free(&mut s);
        // bad input: a host not in the fabric, a size of 0
        let bad = CString::new("ranks:0-9999").unwrap();
        let st = ibfat_selector_for_job(f, ptr::null(), bad.as_ptr(), 1, 1024, 1e-6, 1e9, 2.0, 1, 0.2, &mut s);
        assert_eq!(st, IbfatStatus::IbfatEInput, "{}", last());
        assert!(s.is_null());
        let st = ibfat_selector_for_job(f, ptr::null(), job.as_ptr(), 1, 0, 1e-6, 1e9, 2.0, 1, 0.2, &mut s);
        assert_eq!(st, IbfatStatus::IbfatEArg);
        assert!(last().contains("msg_size"));
        ibfat_fabric_free(f);
    }
}
