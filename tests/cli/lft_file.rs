//! `ibfat-lfts.bin`, the binary table file `route` writes next to the dump: `check --lfts`
//! on it gives the dump's report and shards that merge with the dump's (the same
//! fingerprint), and every damaged, foreign or stale file is refused with exit 2, the
//! file, the byte offset and the reason, never a panic.

use crate::harness::{build_plan, ibfat};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A routed 4-ary 3-tree plan: (plan folder, dump, guid2lid, binary tables).
fn routed(dir: &Path, name: &str, lmc: &str) -> (PathBuf, PathBuf, PathBuf, PathBuf) {
    let plan = dir.join(name);
    build_plan(&["build", "kary", "--arity", "4", "--levels", "3"], &plan);
    let (c, o, e) = ibfat(&["route", s(&plan), "--out", s(&plan), "--lmc", lmc, "--json"]);
    assert_eq!(c, 0, "{o}{e}");
    let v: Value = serde_json::from_str(&o).unwrap();
    assert!(
        v["files"].as_array().unwrap().iter().any(|f| f == "ibfat-lfts.bin"),
        "{v}"
    );
    (
        plan.clone(),
        plan.join("opensm-lfts.dump"),
        plan.join("guid2lid"),
        plan.join("ibfat-lfts.bin"),
    )
}

fn check(plan: &Path, lfts: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "check",
        s(plan),
        "--lfts",
        s(lfts),
        "--pattern",
        "random",
        "--seed",
        "11",
    ];
    args.extend_from_slice(extra);
    ibfat(&args)
}

#[test]
fn the_binary_tables_check_as_the_dump_and_their_shards_merge_with_the_dumps() {
    let dir = tempfile::tempdir().unwrap();
    let (plan, dump, _, bin) = routed(dir.path(), "k4", "0");
    let (c, from_dump, e) = check(&plan, &dump, &["--json", "--links"]);
    assert_eq!(c, 1, "random permutations conflict on a tree: {e}");
    let (c, from_bin, e) = check(&plan, &bin, &["--json", "--links"]);
    assert_eq!(c, 1, "{e}");
    assert_eq!(
        serde_json::from_str::<Value>(&from_bin).unwrap(),
        serde_json::from_str::<Value>(&from_dump).unwrap()
    );
    // shards from either file record the same tables: one set mixes them and merges into
    // the unsharded report
    let mut shards = Vec::new();
    for i in 0..3 {
        let f = dir.path().join(format!("s{i}.json"));
        let from = if i == 1 { &dump } else { &bin };
        let (c, _, e) = check(&plan, from, &["--shard", &format!("{i}/3"), "--out", s(&f)]);
        assert!(c == 0 || c == 1, "{e}");
        shards.push(f);
    }
    let on =
        |f: &Path| serde_json::from_str::<Value>(&std::fs::read_to_string(f).unwrap()).unwrap()["computed_for"].clone();
    assert_eq!(on(&shards[0]), on(&shards[1]));
    let mut args = vec!["check", "merge", "--json", "--links"];
    args.extend(shards.iter().map(|p| s(p)));
    let (c, merged, e) = ibfat(&args);
    assert_eq!(c, 1, "{e}");
    assert_eq!(
        serde_json::from_str::<Value>(&merged).unwrap(),
        serde_json::from_str::<Value>(&from_dump).unwrap()
    );
    // every other --lfts reader takes it too
    let (c, o, e) = ibfat(&["lfts", "validate", s(&plan), "--lfts", s(&bin)]);
    assert_eq!(c, 0, "{o}{e}");
    // --timings names the stages on standard error and changes nothing else
    let (c, o, e) = check(&plan, &bin, &["--json", "--links", "--timings"]);
    assert_eq!(c, 1);
    assert_eq!(o, from_bin);
    assert!(
        e.contains("timings (s): read") && e.contains("compile") && e.contains("phases"),
        "{e}"
    );
}

/// The file with `f` applied to its bytes, as a sibling named `name`.
fn damaged(bin: &Path, name: &str, f: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    let mut bytes = std::fs::read(bin).unwrap();
    f(&mut bytes);
    let out = bin.with_file_name(name);
    std::fs::write(&out, bytes).unwrap();
    out
}

#[track_caller]
fn refused(plan: &Path, file: &Path, extra: &[&str], words: &[&str]) {
    let (c, o, e) = check(plan, file, extra);
    assert_eq!(c, 2, "{o}{e}");
    assert!(!e.contains("panicked"), "{e}");
    let name = file.file_name().unwrap().to_str().unwrap();
    assert!(e.contains(name), "names the file: {e}");
    for w in words {
        assert!(e.contains(w), "`{w}` in: {e}");
    }
}

#[test]
fn damaged_foreign_and_stale_files_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (plan, _, _, bin) = routed(dir.path(), "k4", "0");
    let len = std::fs::metadata(&bin).unwrap().len() as usize;
    let regenerate = "ibfat route";

    // one entry of the last table changed
    let f = damaged(&bin, "flipped.bin", |b| {
        let at = b.len() - 7;
        b[at] ^= 1;
    });
    refused(
        &plan,
        &f,
        &[],
        &["byte offset 56", "checksum", "corrupted", "recorded", regenerate],
    );
    // the recorded tables fingerprint changed (what a shard would record): the checksum
    // covers the header too
    let f = damaged(&bin, "fingerprint.bin", |b| b[33] ^= 1);
    refused(&plan, &f, &[], &["byte offset 56", "checksum", "corrupted", regenerate]);
    // cut short: in the tables, and inside the header
    let f = damaged(&bin, "short.bin", |b| b.truncate(len - 100));
    refused(&plan, &f, &[], &["truncated", &format!("{}", len - 100), regenerate]);
    let f = damaged(&bin, "stub.bin", |b| b.truncate(20));
    refused(&plan, &f, &[], &["truncated", "header"]);
    // bytes after the tables
    let f = damaged(&bin, "long.bin", |b| b.push(0));
    refused(&plan, &f, &[], &["data after the tables"]);
    // another format version
    let f = damaged(&bin, "v3.bin", |b| b[8] = 3);
    refused(&plan, &f, &[], &["byte offset 8", "format version 3", regenerate]);
    // the reserved header bytes are zero (the checksum would catch them too, later)
    for i in [13usize, 15, 52, 55] {
        let f = damaged(&bin, &format!("reserved{i}.bin"), |b| b[i] = 0x5a);
        refused(
            &plan,
            &f,
            &[],
            &[&format!("byte offset {i}"), "reserved byte 0x5a", regenerate],
        );
    }
    // a header that announces impossible sizes
    let f = damaged(&bin, "wide.bin", |b| b[48..52].copy_from_slice(&u32::MAX.to_le_bytes()));
    refused(&plan, &f, &[], &["byte offset 48", "entries per table"]);
    let f = damaged(&bin, "many.bin", |b| {
        b[44..48].copy_from_slice(&1_000_000u32.to_le_bytes())
    });
    refused(&plan, &f, &[], &["truncated"]);
    // a LID record naming a port the fabric does not have
    let f = damaged(&bin, "lid.bin", |b| {
        b[64..72].copy_from_slice(&0xdead_beefu64.to_le_bytes())
    });
    refused(&plan, &f, &[], &["byte offset 64", "LID record 0", "not in the fabric"]);
    // a switch GUID changed, and two tables swapped with their GUIDs kept (other routes)
    let records = u32::from_le_bytes(b4(&bin, 40)) as usize;
    let guids = 64 + 12 * records;
    let f = damaged(&bin, "guid.bin", |b| {
        b[guids..guids + 8].copy_from_slice(&7u64.to_le_bytes())
    });
    refused(
        &plan,
        &f,
        &[],
        &[&format!("byte offset {guids}"), "table 0", "not in the fabric"],
    );
    let f = damaged(&bin, "swapped.bin", |b| {
        let (first, second) = (guids, guids + 8);
        let (x, y) = (b[first..first + 8].to_vec(), b[second..second + 8].to_vec());
        b[first..first + 8].copy_from_slice(&y);
        b[second..second + 8].copy_from_slice(&x);
    });
    refused(&plan, &f, &[], &["corrupted"]);

    // the tables of another fabric (a 2-level tree), and of other LIDs (LMC 1)
    let other = dir.path().join("k2");
    build_plan(&["build", "kary", "--arity", "4", "--levels", "2"], &other);
    refused(&other, &bin, &[], &["byte offset 16", "other node GUIDs"]);
    let (_, _, lmc1_g2l, _) = routed(dir.path(), "k4lmc1", "1");
    refused(&plan, &bin, &["--lids", s(&lmc1_g2l)], &["other LIDs", "guid2lid"]);
}

fn b4(path: &Path, at: usize) -> [u8; 4] {
    std::fs::read(path).unwrap()[at..at + 4].try_into().unwrap()
}
