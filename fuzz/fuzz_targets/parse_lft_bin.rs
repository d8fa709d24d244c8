//! Fuzz the binary table file reader (`ibfat-lfts.bin`) against the fixture fabric:
//! nothing may panic, every refusal is an input error; read with the file's own LIDs and
//! with the fixture's (`--lids`).
//!
//! `cargo fuzz run parse_lft_bin` (seed: the file `ibfat route` writes for the fixture).
#![no_main]

mod common;

use ibfat::formats::lftbin;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = common::scratch_file("fuzz-lfts.bin", data);
    let (fabric, _, _, lids) = common::fabric();
    for given in [None, Some(lids)] {
        if let Err(e) = lftbin::read(&path, fabric, given) {
            common::input(&e);
        }
    }
});
