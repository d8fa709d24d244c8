//! What every fuzz target shares: the error contract (an input error naming the file, and
//! a line unless the text has nothing readable at all) and a real fabric to read files
//! for (the OpenSM fixture LSFT(2) two-sided, with the LIDs OpenSM gave it).
#![allow(dead_code)] // each target uses part of it

use ibfat::error::Error;
use ibfat::routing::Lids;
use ibfat::topology::{Endpoint, Fabric, Layout, Spec};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The repository's fixtures folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// Dump errors about the text as a whole (no line to name).
pub const NO_LINE: &[&str] = &[
    "empty file",
    "no nodes found",
    "no ports found",
    "no iblinkinfo port lines found",
    "no subnet.lst lines found",
    "ports: the nodes declare",
];

/// Read `data` as a dump (the format forced when given), strictly and leniently;
/// whatever parses is recognised. Nothing may panic; every error names the file and a line.
pub fn read_dump(data: &[u8], format: Option<ibfat::formats::dump::DumpFormat>) {
    use ibfat::formats::dump::{parse_with, ParseOptions};
    let text = String::from_utf8_lossy(data);
    let path = Path::new("fuzz.txt");
    for lenient in [false, true] {
        let opts = ParseOptions {
            lenient,
            format,
            partial: false,
        };
        match parse_with(&text, path, opts) {
            Ok(d) => {
                if let Err(e) = d.clone().strict(path) {
                    located(&e, NO_LINE);
                }
                let _ = ibfat::recognize::recognize(&d.fabric, None);
            }
            Err(e) => located(&e, NO_LINE),
        }
    }
}

/// An input error that names the file (and a line, unless `whole` messages allow not).
pub fn located(e: &Error, whole: &[&str]) {
    let Error::Input(ie) = e else { panic!("not an input error: {e}") };
    let loc = ie.location.as_ref().expect("the file is named");
    let is_whole = whole.iter().any(|m| ie.message.starts_with(m) || ie.message.contains(m));
    assert!(loc.line >= 1 || is_whole, "no line: {e}");
    let shown = e.to_string();
    assert!(!shown.chars().any(|c| c.is_control()), "raw control character in `{shown:?}`");
}

/// An input error (a file is not always part of it: fields of a parsed document).
pub fn input(e: &Error) {
    assert!(e.is_input(), "not an input error: {e}");
    let shown = e.to_string();
    assert!(!shown.chars().any(|c| c.is_control()), "raw control character in `{shown:?}`");
}

/// The fixture fabric, its layout, its host ports and OpenSM's LIDs for it.
pub fn fabric() -> &'static (Fabric, Layout, Vec<Endpoint>, Lids) {
    static F: OnceLock<(Fabric, Layout, Vec<Endpoint>, Lids)> = OnceLock::new();
    F.get_or_init(|| {
        let dir = fixtures().join("opensm/lsft2x2");
        let spec = std::fs::read_to_string(dir.join("fabric.yaml")).unwrap();
        let plan = Spec::from_yaml(&spec, &dir.join("fabric.yaml")).unwrap().build().unwrap();
        let g2l = std::fs::read_to_string(dir.join("guid2lid")).unwrap();
        let lids = ibfat::formats::guid2lid::parse(&plan.fabric, &g2l, &dir.join("guid2lid")).unwrap();
        let eps = plan.layout.hosts().to_vec();
        (plan.fabric, plan.layout, eps, lids)
    })
}

/// `data` written to a file of this process under the temp folder (readers that take a
/// path: table files, role lists), rewritten on every run.
pub fn scratch_file(name: &str, data: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("{}-{name}", std::process::id()));
    std::fs::write(&path, data).unwrap();
    path
}
