//! Fuzz the host-role readers (`--compute-guids` / `--io-guids` GUID lists, OpenSM ftree's
//! `cn_guid_file` / `io_guid_file`, and `--io-hosts` name patterns) against the fixture
//! fabric, strictly (CLI) and leniently (plugin): nothing may panic, every refusal is an
//! input error.
//!
//! `cargo fuzz run parse_roles` (seed: GUID lists of the fixture's hosts).
#![no_main]

mod common;

use ibfat::formats::roles::{resolve, RoleSources};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = common::scratch_file("fuzz-roles.txt", data);
    let (fabric, _, _, _) = common::fabric();
    let text = String::from_utf8_lossy(data);
    // the same bytes as name patterns, a few of them (the glob matcher is linear)
    let names: Vec<String> = text.lines().take(16).map(str::to_string).collect();
    let sources = [
        RoleSources {
            compute_guids: Some(path.clone()),
            ..Default::default()
        },
        RoleSources {
            io_guids: Some(path.clone()),
            ..Default::default()
        },
        RoleSources {
            compute_guids: Some(path.clone()),
            io_guids: Some(path.clone()),
            io_names: names.clone(),
        },
        RoleSources {
            io_names: names,
            ..Default::default()
        },
    ];
    for src in &sources {
        for strict in [true, false] {
            if let Err(e) = resolve(fabric, src, strict) {
                common::input(&e);
            }
        }
    }
});
