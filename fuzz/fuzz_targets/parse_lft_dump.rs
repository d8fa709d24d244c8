//! Fuzz the LFT dump readers (opensm-lfts.dump, dump_lfts, ibroute): any text is parsed,
//! and whatever parses is turned into LFTs for the fixture fabric and its LIDs, and into
//! LIDs from its annotations. Nothing may panic; errors follow the contract of `common`.
//!
//! `cargo fuzz run parse_lft_dump` (seed: `fixtures/opensm/*/{opensm-*.dump,dump_lfts-*,ibroute-*}`).
#![no_main]

mod common;

use ibfat::formats::lftdump;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = Path::new("fuzz.dump");
    let (fabric, _, _, lids) = common::fabric();
    match lftdump::parse(&text, path) {
        Ok(sections) => {
            if let Err(e) = lftdump::to_lftset(&sections, fabric, lids, path) {
                common::input(&e);
            }
            if let Err(e) = lftdump::lids_from_annotations(&sections, fabric, path) {
                common::input(&e);
            }
        }
        Err(e) => common::located(&e, &["no `Unicast lids"]),
    }
});
