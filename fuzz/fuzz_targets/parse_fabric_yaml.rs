//! Fuzz the fabric.yaml reader: any text; a spec that reads is written back and must read
//! back as itself. Nothing may panic, nesting is bounded, errors follow `common`.
//!
//! `cargo fuzz run parse_fabric_yaml` (seed: `fixtures/**/fabric.yaml`).
#![no_main]

mod common;

use ibfat::topology::Spec;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match Spec::from_yaml(&text, Path::new("fuzz.yaml")) {
        Ok(spec) => {
            let yaml = spec.to_yaml(None);
            let again = Spec::from_yaml(&yaml, Path::new("again.yaml"))
                .unwrap_or_else(|e| panic!("a written spec does not read back: {e}\n{yaml}"));
            // the written spec pins defaults, so it reads back as itself
            assert_eq!(again.to_yaml(None), yaml);
        }
        Err(e) => common::input(&e),
    }
});
