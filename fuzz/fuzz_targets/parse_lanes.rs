//! Fuzz the readers of `path-sl.txt` and `sl2vl.txt` against the fixture fabric and its
//! LIDs: nothing may panic, every refusal names the file and its line.
//!
//! `cargo fuzz run parse_lanes` (seed: lines with the fixture's LIDs and switch GUIDs).
#![no_main]

mod common;

use ibfat::formats::lanes::{read_path_sl, read_sl2vl};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (fabric, _, _, lids) = common::fabric();
    if let Err(e) = read_path_sl(&text, Path::new("fuzz-path-sl.txt"), lids) {
        common::located(&e, &[]);
    }
    if let Err(e) = read_sl2vl(&text, Path::new("fuzz-sl2vl.txt"), fabric) {
        common::located(&e, &[]);
    }
});
