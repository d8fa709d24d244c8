//! Fuzz the schedule file reader: any bytes, read alone and against the fixture fabric's
//! hosts. Nothing may panic; a schedule that reads has partial permutations only.
//!
//! `cargo fuzz run parse_schedule_json` (seed: schedules written by `ibfat schedule`).
#![no_main]

mod common;

use ibfat::schedule::file::parse_json;
use ibfat::schedule::job::Hosts;
use ibfat::schedule::Pattern;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let (fabric, _, eps, _) = common::fabric();
    let hosts = Hosts::new(fabric, eps, "fuzz");
    for topo in [None, Some(&hosts)] {
        match parse_json(data, Path::new("fuzz.json"), topo) {
            Ok((s, _)) => {
                let n = s.ranks();
                let mut out = vec![0u32; n];
                for p in 0..s.phases() {
                    s.phase(p, &mut out);
                    let mut seen = vec![false; n];
                    for &d in &out {
                        if d != u32::MAX {
                            assert!((d as usize) < n && !std::mem::replace(&mut seen[d as usize], true));
                        }
                    }
                }
            }
            Err(e) => common::input(&e),
        }
    }
});
