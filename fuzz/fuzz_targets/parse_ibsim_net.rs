//! Fuzz the ibsim net reader and writer together: whatever reads as a fabric must be
//! written as a net file that reads back as the same cabling (no name or description can
//! break the file ibsim will parse), and errors follow the contract of `common`.
//!
//! `cargo fuzz run parse_ibsim_net` (seed: `fixtures/**/topology.net`).
#![no_main]

mod common;

use ibfat::formats::{dump, ibsim};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = Path::new("fuzz.net");
    match dump::parse(&text, path).and_then(|d| d.strict(path)) {
        Ok(d) => {
            let net = ibsim::write_net(&d.fabric, &["fuzz".into()]);
            let again = dump::parse(&net, Path::new("again.net"))
                .and_then(|a| a.strict(Path::new("again.net")))
                .unwrap_or_else(|e| panic!("a written net file does not read back: {e}\n{net}"));
            assert_eq!(again.fabric.len(), d.fabric.len());
            assert_eq!(again.fabric.link_count(), d.fabric.link_count());
        }
        Err(e) => common::located(&e, &["empty file", "no nodes found", "no ports found"]),
    }
});
