//! Fuzz the dump reader: any bytes, read as a dump (ibnetdiscover output in any of its
//! formats, a ports report, an ibsim net file), strictly and leniently; whatever parses is
//! recognised. Nothing may panic, and every error must name the file (and, unless the
//! text has nothing readable at all, a line).
//!
//! `cargo fuzz run parse_dump` (from the repository root; cargo-fuzz needs a nightly
//! compiler or `RUSTC_BOOTSTRAP=1`). Seed the corpus with the captured fixtures:
//! `mkdir -p fuzz/corpus/parse_dump && cp fixtures/*/ibnetdiscover*.txt fuzz/corpus/parse_dump/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| common::read_dump(data, None));
