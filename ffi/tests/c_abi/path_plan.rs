//! The path-plan C ABI (issue 15): a full mesh built from a spec gives the same ten DLID
//! offsets as the library's plan; bad arguments are status codes with a message, never a
//! panic.

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
fn a_full_mesh_plan_through_the_c_abi() {
    let mesh = CString::new("family: fullmesh\nswitches: 6\nhosts_per_switch: 2\n").unwrap();
    let tree = CString::new("family: kary\narity: 2\nlevels: 2\n").unwrap();
    // SAFETY: handles come from the library and are freed once; strings are live CStrings;
    // out-pointers are locals and `offs` holds IBFAT_PATH_PLAN_SLOTS bytes
    unsafe {
        let mut f = ptr::null_mut();
        assert_eq!(ibfat_fabric_build(mesh.as_ptr(), &mut f), IbfatStatus::IbfatOk);
        let mut fam = IbfatFamily::IbfatFamilyAuto;
        assert_eq!(ibfat_fabric_family(f, &mut fam), IbfatStatus::IbfatOk);
        assert_eq!(fam, IbfatFamily::IbfatFamilyFullmesh);
        let mut rec = std::mem::zeroed();
        assert_eq!(ibfat_fabric_recognize(f, 0, &mut rec), IbfatStatus::IbfatOk);
        assert_eq!((rec.family, rec.hosts), (IbfatFamily::IbfatFamilyFullmesh, 12));
        let mut p = ptr::null_mut();
        assert_eq!(ibfat_path_plan_new(f, 2, 3, &mut p), IbfatStatus::IbfatOk);
        let mut ranks = 0;
        assert_eq!(ibfat_path_plan_ranks(p, &mut ranks), IbfatStatus::IbfatOk);
        assert_eq!(ranks, 12);
        let mut offs = [0xffu8; IBFAT_PATH_PLAN_SLOTS];
        for s in 0..ranks {
            for t in 0..ranks {
                assert_eq!(
                    ibfat_path_plan_offsets(p, s, t, offs.as_mut_ptr()),
                    IbfatStatus::IbfatOk
                );
                assert_eq!(offs[0], 0, "slot 0 is the direct route");
                if s / 2 != t / 2 {
                    assert_eq!(offs.iter().filter(|&&o| o == 0).count(), 3, "D3: {offs:?}");
                    assert!(offs.iter().all(|&o| o < 4), "LMC 2: {offs:?}");
                }
                for n in 0..20u64 {
                    let mut o = 0xff;
                    assert_eq!(ibfat_path_plan_offset(p, s, t, n, &mut o), IbfatStatus::IbfatOk);
                    assert_eq!(o, offs[(n % 10) as usize]);
                }
            }
        }
        assert_eq!(
            ibfat_path_plan_offsets(p, 12, 0, offs.as_mut_ptr()),
            IbfatStatus::IbfatENotFound
        );
        assert!(last().contains("12 ranks") || last().contains("(12, 0)"), "{}", last());
        assert_eq!(
            ibfat_path_plan_offsets(p, 0, 1, ptr::null_mut()),
            IbfatStatus::IbfatEArg
        );
        let mut r = 0;
        assert_eq!(ibfat_path_plan_rank_of(p, 1, &mut r), IbfatStatus::IbfatENotFound);
        ibfat_path_plan_free(p);
        // bad shares, detours at LMC 0, another family, NULLs
        let mut q = ptr::null_mut();
        assert_eq!(ibfat_path_plan_new(f, 2, 0, &mut q), IbfatStatus::IbfatEInput);
        assert!(last().contains("direct-share"), "{}", last());
        assert_eq!(ibfat_path_plan_new(f, 2, 11, &mut q), IbfatStatus::IbfatEInput);
        assert_eq!(ibfat_path_plan_new(f, 0, 5, &mut q), IbfatStatus::IbfatEInput);
        assert!(last().contains("LMC 0"), "{}", last());
        assert_eq!(ibfat_path_plan_new(f, 0, 10, &mut q), IbfatStatus::IbfatOk);
        ibfat_path_plan_free(q);
        assert_eq!(ibfat_path_plan_new(ptr::null(), 2, 3, &mut q), IbfatStatus::IbfatEArg);
        assert_eq!(ibfat_path_plan_new(f, 2, 3, ptr::null_mut()), IbfatStatus::IbfatEArg);
        ibfat_fabric_free(f);
        let mut g = ptr::null_mut();
        assert_eq!(ibfat_fabric_build(tree.as_ptr(), &mut g), IbfatStatus::IbfatOk);
        assert_eq!(ibfat_path_plan_new(g, 2, 3, &mut q), IbfatStatus::IbfatEInput);
        assert!(last().contains("full meshes"), "{}", last());
        ibfat_fabric_free(g);
        ibfat_path_plan_free(ptr::null_mut());
    }
}
