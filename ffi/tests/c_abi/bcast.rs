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
        for (lanes, sites) in [(1u32, 0u8), (2, 0), (3, 0), (2, 1), (2, 2), (3, 2)] {
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
            let lib = match sites {
                IBFAT_BCAST_NESTED => Bcast::build_nested(15, 4, lanes, std::slice::from_ref(&sites_of)).unwrap(),
                _ => Bcast::build(15, 4, lanes, (sites == IBFAT_BCAST_SITES).then_some(&sites_of[..])).unwrap(),
            };
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
        assert_eq!(
            ibfat_bcast_new(f, job.as_ptr(), 0, 2, 3, &mut b),
            IbfatStatus::IbfatEInput
        );
        assert!(last().contains("placement"), "{}", last());
        assert!(b.is_null());
        ibfat_bcast_free(ptr::null_mut());
        ibfat_fabric_free(f);
    }
}

/// `ibfat_bcast_open` reads the file `ibfat schedule --pattern bcast-multilane --out`
/// writes (the library's writer here) to the same answers as the plan itself; a file of
/// another format or version, a missing one and one that is no plan are `IBFAT_E_INPUT`
/// with the file named, and nothing is handed out.
#[test]
fn a_broadcast_file_opens_without_the_fabric() {
    let dir = tempfile::tempdir().unwrap();
    let guids: Vec<u64> = (0..10u64).map(|r| 0x0002_c900_2000_0001 + 2 * r).collect();
    // SAFETY: handles come from the library and are freed once; strings are live CStrings;
    // out-pointers are locals
    unsafe {
        for (lanes, root) in [(1u32, 0u32), (2, 7), (3, 9)] {
            let lib = Bcast::build(10, root, lanes, None).unwrap();
            let path = dir.path().join(format!("b{lanes}.json"));
            lib.write(&path, &guids).unwrap();
            let c = CString::new(path.to_str().unwrap()).unwrap();
            let mut b = ptr::null_mut();
            assert_eq!(ibfat_bcast_open(c.as_ptr(), &mut b), IbfatStatus::IbfatOk, "{}", last());
            let (mut n, mut l, mut r) = (0, 0, 0);
            assert_eq!(ibfat_bcast_size(b, &mut n, &mut l), IbfatStatus::IbfatOk);
            assert_eq!(ibfat_bcast_root(b, &mut r), IbfatStatus::IbfatOk);
            assert_eq!((n, l, r), (10, lanes, root));
            for k in 0..lanes {
                let (want_s, want_r) = (lib.sends(k), lib.receives(k));
                for rank in 0..10 {
                    let (mut peer, mut part) = (0, 0);
                    assert_eq!(ibfat_bcast_send(b, rank, k, &mut peer, &mut part), IbfatStatus::IbfatOk);
                    assert_eq!(
                        (peer != IBFAT_BCAST_NONE).then_some((peer, part)),
                        want_s[rank as usize]
                    );
                    assert_eq!(ibfat_bcast_recv(b, rank, k, &mut peer, &mut part), IbfatStatus::IbfatOk);
                    assert_eq!(
                        (peer != IBFAT_BCAST_NONE).then_some((peer, part)),
                        want_r[rank as usize]
                    );
                    let mut g = 0;
                    assert_eq!(ibfat_bcast_rank_guid(b, rank, &mut g), IbfatStatus::IbfatOk);
                    assert_eq!(g, guids[rank as usize]);
                }
            }
            ibfat_bcast_free(b);
        }
        let text = std::fs::read_to_string(dir.path().join("b2.json")).unwrap();
        for (name, body, want) in [
            (
                "version.json",
                text.replace("\"version\":1", "\"version\":2"),
                "version 2",
            ),
            (
                "format.json",
                text.replace("ibfat-bcast", "ibfat-schedule"),
                "this reader takes format",
            ),
            ("cut.json", text[..text.len() / 2].to_string(), "cut.json"),
            ("missing.json", String::new(), "no such broadcast file"),
        ] {
            let path = dir.path().join(name);
            if name != "missing.json" {
                std::fs::write(&path, body).unwrap();
            }
            let c = CString::new(path.to_str().unwrap()).unwrap();
            let mut b = ptr::null_mut();
            assert_eq!(ibfat_bcast_open(c.as_ptr(), &mut b), IbfatStatus::IbfatEInput, "{name}");
            assert!(b.is_null(), "{name}");
            assert!(last().contains(want) && last().contains(name), "{name}: {}", last());
        }
        let mut b = ptr::null_mut();
        assert_eq!(ibfat_bcast_open(ptr::null(), &mut b), IbfatStatus::IbfatEArg);
        let mut r = 0;
        assert_eq!(ibfat_bcast_root(ptr::null(), &mut r), IbfatStatus::IbfatEArg);
    }
}
