//! Fuzz the guid2lid reader against the fixture fabric: nothing may panic, and errors
//! follow the contract of `common`.
//!
//! `cargo fuzz run parse_guid2lid` (seed: `fixtures/opensm/*/guid2lid`).
#![no_main]

mod common;

use ibfat::formats::guid2lid;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (fabric, _, _, _) = common::fabric();
    if let Err(e) = guid2lid::parse(fabric, &text, Path::new("fuzz.guid2lid")) {
        common::input(&e);
    }
});
