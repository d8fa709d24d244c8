//! Fuzz the broadcast file reader (`ibfat-bcast`, what `ibfat_bcast_open` reads in every
//! process of a job): nothing may panic; a file that reads is a plan a process can follow
//! (every lane a partial permutation, every rank but the root reached once per part).
//!
//! `cargo fuzz run parse_bcast_json` (seed: plans `ibfat schedule --pattern
//! bcast-multilane` writes).
#![no_main]

mod common;

use ibfat::schedule::bcast_file::parse;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    match parse(data, Path::new("fuzz-bcast.json")) {
        Ok((b, guids)) => {
            assert_eq!(guids.len(), b.ranks as usize);
            for part in 0..b.lanes {
                let reached = b.flows.iter().filter(|f| f.part == part).count();
                assert_eq!(reached, b.ranks as usize - 1, "part {part} reaches every other rank once");
            }
        }
        Err(e) => common::input(&e),
    }
});
