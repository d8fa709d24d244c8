//! Fuzz the node name map reader (`--node-name-map`, the infiniband-diags format) and its
//! application to the fixture fabric: nothing may panic, every refusal names the file and
//! its line, and a name that is applied never carries a control character.
//!
//! `cargo fuzz run parse_node_name_map` (seed: names for the fixture's nodes).
#![no_main]

mod common;

use ibfat::formats::node_name_map;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match node_name_map::parse(&text, Path::new("fuzz-names.map")) {
        Ok(map) => {
            let mut fabric = common::fabric().0.clone();
            node_name_map::apply(&map, &mut fabric);
            for n in &fabric.nodes {
                assert!(!n.desc.chars().any(char::is_control), "control character in {:?}", n.desc);
            }
        }
        Err(e) => common::located(&e, &[]),
    }
});
