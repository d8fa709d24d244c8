//! Fuzz the OpenSM's `opensm-subnet.lst` reader alone (the format forced, as `--input-format` does): any
//! bytes, strictly and leniently; whatever parses is recognised. Nothing may panic, and
//! every error names the file (and a line, unless the text has nothing readable).
//!
//! `cargo fuzz run parse_subnet_lst` (cargo-fuzz needs a nightly compiler or `RUSTC_BOOTSTRAP=1`);
//! `scripts/fuzz.sh` seeds the corpus from `fixtures/public/`.
#![no_main]

use ibfat::formats::dump::{parse_with, DumpFormat, ParseOptions};
use ibfat::recognize::recognize;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

mod common;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = Path::new("fuzz.txt");
    for lenient in [false, true] {
        let opts = ParseOptions {
            lenient,
            format: Some(DumpFormat::SubnetLst),
            partial: false,
        };
        match parse_with(&text, path, opts) {
            Ok(d) => {
                if let Err(e) = d.clone().strict(path) {
                    common::located(&e, common::NO_LINE);
                }
                let _ = recognize(&d.fabric, None);
            }
            Err(e) => common::located(&e, common::NO_LINE),
        }
    }
});
