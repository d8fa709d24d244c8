//! Fuzz the dump reader: any bytes, read as a dump (ibnetdiscover output in any of its
//! formats, a ports report, an ibsim net file), strictly and leniently; whatever parses is
//! recognised. Nothing may panic, and every error must name the file (and, unless the
//! text has nothing readable at all, a line).
//!
//! `cargo fuzz run parse_dump` (from the repository root; cargo-fuzz needs a nightly
//! compiler or `RUSTC_BOOTSTRAP=1`). Seed the corpus with the captured fixtures:
//! `mkdir -p fuzz/corpus/parse_dump && cp fixtures/*/ibnetdiscover*.txt fuzz/corpus/parse_dump/`.
#![no_main]

use ibfat::error::Error;
use ibfat::formats::dump::{parse_with, ParseOptions};
use ibfat::recognize::recognize;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

mod common;

fn located(e: &Error) {
    common::located(e, common::NO_LINE);
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = Path::new("fuzz.txt");
    for lenient in [false, true] {
        match parse_with(
            &text,
            path,
            ParseOptions {
                lenient,
                ..Default::default()
            },
        ) {
            Ok(d) => {
                if let Err(e) = d.clone().strict(path) {
                    located(&e);
                }
                let _ = recognize(&d.fabric, None);
            }
            Err(e) => located(&e),
        }
    }
});
