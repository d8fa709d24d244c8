//! The broadcast C ABI (issue 14): the plan of a job through `ibfat_bcast_*` equals the
//! library's (sends and receives per rank and lane), every lane a partial permutation;
//! bad arguments are status codes with a message, never a panic.

use ibfat::schedule::bcast::Bcast;
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
fn a_job_broadcast_through_the_c_abi() {
    let spec = CString::new("family: lsft\norder: 2\n").unwrap();
    let job = CString::new("ranks:3-17").unwrap();
    // SAFETY: handles come from the library and are freed once; strings are live CStrings;
    // out-pointers are locals
    unsafe {
        let mut f = ptr::null_mut();
        assert_eq!(ibfat_fabric_build(spec.as_ptr(), &mut f), IbfatStatus::IbfatOk);
        for (lanes, sites) in [(1u32, 0u8), (2, 0), (3, 0), (2, 1)] {
            let mut b = ptr::null_mut();
            assert_eq!(
                ibfat_bcast_new(f, job.as_ptr(), 4, lanes, sites, &mut b),
                IbfatStatus::IbfatOk,
                "{}",
                last()
            );
            let (mut n, mut l) = (0, 0);
            assert_eq!(ibfat_bcast_size(b, &mut n, &mut l), IbfatStatus::IbfatOk);
            assert_eq!((n, l), (15, lanes));
            let sites_of: Vec<u32> = (3..18).map(|r| r / 3).collect(); // LSFT(2): 3 hosts per leaf
            let lib = Bcast::build(15, 4, lanes, (sites == 1).then_some(&sites_of[..])).unwrap();
            for k in 0..lanes {
                let (want_s, want_r) = (lib.sends(k), lib.receives(k));
                let mut got = [false; 15];
                for r in 0..15 {
                    let (mut to, mut part) = (0, 0);
                    assert_eq!(ibfat_bcast_send(b, r, k, &mut to, &mut part), IbfatStatus::IbfatOk);
                    let s = (to != IBFAT_BCAST_NONE).then_some((to, part));
                    assert_eq!(s, want_s[r as usize]);
                    if let Some((to, _)) = s {
                        assert!(!got[to as usize], "lane {k}: rank {to} receives twice");
                        got[to as usize] = true;
                        let (mut from, mut p2) = (0, 0);
                        assert_eq!(ibfat_bcast_recv(b, to, k, &mut from, &mut p2), IbfatStatus::IbfatOk);
                        assert_eq!((from, p2), (r, part));
                    }
                    let (mut from, mut p3) = (0, 0);
                    assert_eq!(ibfat_bcast_recv(b, r, k, &mut from, &mut p3), IbfatStatus::IbfatOk);
                    assert_eq!((from != IBFAT_BCAST_NONE).then_some((from, p3)), want_r[r as usize]);
                }
            }
            let mut g = 0;
            assert_eq!(ibfat_bcast_rank_guid(b, 0, &mut g), IbfatStatus::IbfatOk);
            assert_eq!(g, 0x0002_c900_2000_0007, "rank 0 of the job is fabric rank 3");
            let (mut to, mut part) = (0, 0);
            assert_eq!(
                ibfat_bcast_send(b, 15, 0, &mut to, &mut part),
                IbfatStatus::IbfatENotFound
            );
            assert!(last().contains("15 ranks"), "{}", last());
            assert_eq!(
                ibfat_bcast_send(b, 0, lanes, &mut to, &mut part),
                IbfatStatus::IbfatENotFound
            );
            assert_eq!(
                ibfat_bcast_send(b, 0, 0, ptr::null_mut(), &mut part),
                IbfatStatus::IbfatEArg
            );
            ibfat_bcast_free(b);
        }
        // whole fabric, bad root and lanes
        let mut b = ptr::null_mut();
        assert_eq!(ibfat_bcast_new(f, ptr::null(), 0, 2, 0, &mut b), IbfatStatus::IbfatOk);
        let (mut n, mut l) = (0, 0);
        assert_eq!(ibfat_bcast_size(b, &mut n, &mut l), IbfatStatus::IbfatOk);
        assert_eq!(n, 21);
        ibfat_bcast_free(b);
        let mut b = ptr::null_mut();
        assert_eq!(
            ibfat_bcast_new(f, job.as_ptr(), 15, 2, 0, &mut b),
            IbfatStatus::IbfatEInput
        );
        assert!(last().contains("root 15"), "{}", last());
        assert!(b.is_null());
        assert_eq!(
            ibfat_bcast_new(f, job.as_ptr(), 0, 0, 0, &mut b),
            IbfatStatus::IbfatEInput
        );
        assert_eq!(
            ibfat_bcast_new(ptr::null(), job.as_ptr(), 0, 2, 0, &mut b),
            IbfatStatus::IbfatEArg
        );
        ibfat_bcast_free(ptr::null_mut());
        ibfat_fabric_free(f);
    }
}
