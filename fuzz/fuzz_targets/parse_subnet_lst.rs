//! Fuzz the OpenSM's `opensm-subnet.lst` reader alone (the format forced, as `--input-format` does): any
//! bytes, strictly and leniently; whatever parses is recognised. Nothing may panic, and
//! every error names the file (and a line, unless the text has nothing readable).
//!
//! `cargo fuzz run parse_subnet_lst` (cargo-fuzz needs a nightly compiler or `RUSTC_BOOTSTRAP=1`);
//! `scripts/fuzz.sh` seeds the corpus from `fixtures/public/`.
#![no_main]

use ibfat::formats::dump::DumpFormat;
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| common::read_dump(data, Some(DumpFormat::SubnetLst)));
