//! Arguments a C caller can get wrong or forge: enum values outside their enums (undefined
//! behaviour when taken as Rust enums, so the API takes them as `int`), control characters
//! in node descriptions, LMCs beyond three bits, files that describe far more than they
//! hold. Each is a status with a message naming the argument and the valid values.

use ibfatc::*;
use std::ffi::{c_int, CStr, CString};
use std::ptr;

fn last() -> String {
    // SAFETY: ibfat_last_error never returns NULL and the string lives until the next call
    unsafe { CStr::from_ptr(ibfat_last_error()) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn enum_values_out_of_range_are_refused() {
    // SAFETY: every pointer below is NULL or valid (the crate's pointer contract)
    unsafe {
        let mut f = ptr::null_mut();
        assert_eq!(ibfat_fabric_new(&mut f), IbfatStatus::IbfatOk);
        let name = CString::new("x").unwrap();
        let mut id = 0u32;
        for bad in [99, 0, -5, 4, c_int::MIN] {
            assert_eq!(
                ibfat_fabric_add_node(f, bad, 4, 0x10, name.as_ptr(), ptr::null(), &mut id),
                IbfatStatus::IbfatEArg,
                "kind {bad}"
            );
            assert_eq!(
                last(),
                format!("kind: {bad} is not a node kind; valid: IBFAT_SWITCH (1), IBFAT_CA (2), IBFAT_ROUTER (3)")
            );
        }
        let mut rec = std::mem::zeroed();
        for bad in [77, -5, 7] {
            assert_eq!(ibfat_fabric_recognize(f, bad, &mut rec), IbfatStatus::IbfatEArg);
            assert!(
                last().starts_with(&format!("hint: {bad} is not a family; valid: IBFAT_FAMILY_AUTO (0)")),
                "{}",
                last()
            );
        }
        let spec = CString::new("family: lsft\norder: 2\n").unwrap();
        let mut g = ptr::null_mut();
        assert_eq!(ibfat_fabric_build(spec.as_ptr(), &mut g), IbfatStatus::IbfatOk);
        let mut r = ptr::null_mut();
        for bad in [9, -1, 2] {
            assert_eq!(ibfat_routes_compute(g, 0, bad, &mut r), IbfatStatus::IbfatEArg);
            assert!(r.is_null());
            assert!(
                last().starts_with(&format!("lids: {bad} is not a LID source")),
                "{}",
                last()
            );
        }
        assert_eq!(
            ibfat_routes_compute(g, 0, IbfatLidSource::IbfatLidsPlan as c_int, &mut r),
            IbfatStatus::IbfatOk
        );
        ibfat_routes_free(r);
        ibfat_fabric_free(g);
        ibfat_fabric_free(f);
    }
}

#[test]
fn forged_descriptions_and_lmcs_are_refused() {
    // SAFETY: every pointer below is NULL or valid (the crate's pointer contract)
    unsafe {
        let mut f = ptr::null_mut();
        assert_eq!(ibfat_fabric_new(&mut f), IbfatStatus::IbfatOk);
        let name = CString::new("evil").unwrap();
        let desc = CString::new("a\n0x0001 005 forged").unwrap();
        let mut id = 0u32;
        assert_eq!(
            ibfat_fabric_add_node(
                f,
                IbfatNodeKind::IbfatSwitch as c_int,
                4,
                0x10,
                name.as_ptr(),
                desc.as_ptr(),
                &mut id
            ),
            IbfatStatus::IbfatEInput
        );
        assert!(
            last().starts_with("desc: \"a\\n0x0001 005 forged\" holds the control character \\n"),
            "{}",
            last()
        );
        let esc = CString::new("\x1b[2Jx").unwrap();
        assert_eq!(
            ibfat_fabric_add_node(
                f,
                IbfatNodeKind::IbfatCa as c_int,
                1,
                0x10,
                esc.as_ptr(),
                ptr::null(),
                &mut id
            ),
            IbfatStatus::IbfatEInput
        );
        assert!(!last().contains('\x1b'), "messages never carry raw escapes");
        assert_eq!(
            ibfat_fabric_add_node(
                f,
                IbfatNodeKind::IbfatCa as c_int,
                1,
                0x10,
                name.as_ptr(),
                ptr::null(),
                &mut id
            ),
            IbfatStatus::IbfatOk
        );
        assert_eq!(ibfat_fabric_set_lid(f, id, 1, 4, 8), IbfatStatus::IbfatEArg);
        assert_eq!(last(), "lmc: 8 is out of range: valid 0..=7");
        assert_eq!(ibfat_fabric_set_lid(f, id, 1, 4, 1), IbfatStatus::IbfatOk);
        ibfat_fabric_free(f);
    }
}

#[test]
fn loading_a_dump_of_empty_switches_is_an_input_error_not_an_abort() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("sw.txt");
    let mut text = String::new();
    for i in 0..60_000u64 {
        text.push_str(&format!("Switch 254 \"S-{i:016x}\"\n"));
    }
    std::fs::write(&p, text).unwrap();
    let path = CString::new(p.to_str().unwrap()).unwrap();
    let zero = CString::new("/dev/zero").unwrap();
    // SAFETY: every pointer below is NULL or valid (the crate's pointer contract)
    unsafe {
        let mut f = ptr::null_mut();
        assert_eq!(ibfat_fabric_load(path.as_ptr(), &mut f), IbfatStatus::IbfatEInput);
        assert!(f.is_null());
        assert!(last().contains("sw.txt:257: ports:"), "{}", last());
        assert_eq!(ibfat_fabric_load(zero.as_ptr(), &mut f), IbfatStatus::IbfatEInput);
        assert!(last().contains("NUL byte"), "{}", last());
    }
}

/// A block far beyond the plane (`block=2147483648`) is refused before anything is
/// allocated for it: an input error, not an allocation failure that aborts the caller.
#[test]
fn huge_block_sizes_are_refused_before_allocating() {
    let spec = CString::new("family: lsft\norder: 2\n").unwrap();
    let pat = CString::new("lsft-partial").unwrap();
    // SAFETY: every pointer passed is a live CString, a handle from this API or a local
    unsafe {
        let mut f = ptr::null_mut();
        assert_eq!(
            ibfat_fabric_build(spec.as_ptr(), &mut f),
            IbfatStatus::IbfatOk,
            "{}",
            last()
        );
        for block in ["2147483648", "4294967295", "600000000", "0"] {
            let opts = CString::new(format!("block={block},per_leaf=2")).unwrap();
            let mut s = ptr::null_mut();
            let started = std::time::Instant::now();
            assert_eq!(
                ibfat_schedule_new(f, pat.as_ptr(), opts.as_ptr(), &mut s),
                IbfatStatus::IbfatEInput,
                "{block}: {}",
                last()
            );
            assert!(last().contains(&format!("not {block}")), "{block}: {}", last());
            assert!(started.elapsed().as_millis() < 500, "{block}: refused at once");
        }
        ibfat_fabric_free(f);
    }
}

/// The dump and the guid2lid at one path: refused (the second would replace the first),
/// nothing written.
#[test]
fn routes_written_twice_to_one_file_are_refused() {
    let spec = CString::new("family: kary\narity: 2\nlevels: 2\n").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let same = CString::new(dir.path().join("out").to_str().unwrap()).unwrap();
    let also = CString::new(format!("{}/./out", dir.path().display())).unwrap();
    // SAFETY: every pointer passed is a live CString, a handle from this API or a local
    unsafe {
        let mut f = ptr::null_mut();
        assert_eq!(
            ibfat_fabric_build(spec.as_ptr(), &mut f),
            IbfatStatus::IbfatOk,
            "{}",
            last()
        );
        let mut r = ptr::null_mut();
        assert_eq!(
            ibfat_routes_compute(f, 0, IbfatLidSource::IbfatLidsPlan as c_int, &mut r),
            IbfatStatus::IbfatOk,
            "{}",
            last()
        );
        for other in [&same, &also] {
            assert_eq!(
                ibfat_routes_write(r, same.as_ptr(), other.as_ptr()),
                IbfatStatus::IbfatEInput,
                "{}",
                last()
            );
            assert!(last().contains("are the same file"), "{}", last());
            assert!(!dir.path().join("out").exists(), "nothing written");
        }
        ibfat_routes_free(r);
        ibfat_fabric_free(f);
    }
}
