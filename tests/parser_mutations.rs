//! The dump parser (and what runs on its output: recognition, the cabling audit) never
//! panics, whatever is done to a real dump: deterministic truncations, byte flips, line
//! deletions, duplications and swaps of the captured fixtures. Errors name a line (only
//! "nothing readable at all" is about the whole file). The cargo-fuzz target in `fuzz/`
//! explores further; this runs in every `cargo test`.

use ibfat::cabling::audit::audit;
use ibfat::error::Error;
use ibfat::formats::dump::{self, ParseOptions};
use ibfat::recognize::recognize;
use ibfat::topology::{Spec, Topology};
use ibfat::SplitMix64;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

const SOURCES: [(&str, &str); 6] = [
    ("lsft2", "ibnetdiscover.txt"),
    ("lsft2", "ibnetdiscover-p.txt"),
    ("kary2x3", "ibnetdiscover-g.txt"),
    ("mols3", "ibnetdiscover-f.txt"),
    ("router", "ibnetdiscover.txt"),
    ("router", "topology.net"),
];

/// Bytes that make grammar-relevant damage likely.
const NASTY: &[u8] = b"[]()\"#\t\r\n x0123456789abcdefSHCR-=+@\xff";

fn mutations(text: &str, seed: u64) -> Vec<(String, Vec<u8>)> {
    let bytes = text.as_bytes();
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..120 {
        let cut = rng.below(bytes.len() as u64 + 1) as usize;
        out.push((format!("truncated at byte {cut}"), bytes[..cut].to_vec()));
    }
    for _ in 0..300 {
        let mut b = bytes.to_vec();
        let flips = 1 + rng.below(4);
        for _ in 0..flips {
            let at = rng.below(b.len() as u64) as usize;
            b[at] = NASTY[rng.below(NASTY.len() as u64) as usize];
        }
        out.push((format!("{flips} bytes flipped"), b));
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for _ in 0..80 {
        let i = rng.below(lines.len() as u64) as usize;
        let mut v = lines.clone();
        v.remove(i);
        out.push((format!("line {} deleted", i + 1), v.concat().into_bytes()));
        let j = rng.below(lines.len() as u64) as usize;
        let mut v = lines.clone();
        v.insert(j, lines[i]);
        out.push((
            format!("line {} duplicated at {}", i + 1, j + 1),
            v.concat().into_bytes(),
        ));
        let mut v = lines.clone();
        v.swap(i, j);
        out.push((
            format!("lines {} and {} swapped", i + 1, j + 1),
            v.concat().into_bytes(),
        ));
    }
    out
}

fn fixture(dir: &str, file: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(dir)
        .join(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn plan_of(dir: &str) -> Option<Topology> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(dir)
        .join("fabric.yaml");
    let text = std::fs::read_to_string(&p).ok()?;
    Spec::from_yaml(&text, &p).ok()?.build().ok()
}

/// An error is about a line, or says there is nothing readable.
fn assert_located(e: &Error, what: &str) {
    let Error::Input(ie) = e else {
        panic!("{what}: not an input error: {e}")
    };
    let loc = ie
        .location
        .as_ref()
        .unwrap_or_else(|| panic!("{what}: no file in `{e}`"));
    let whole_file = ["empty file", "no nodes found", "no ports found"]
        .iter()
        .any(|m| ie.message.starts_with(m));
    assert!(loc.line >= 1 || whole_file, "{what}: no line in `{e}`");
}

#[test]
fn mutated_real_dumps_never_panic_and_errors_carry_lines() {
    // a fixed seed keeps CI deterministic; IBFAT_MUTATION_SEED explores other mutations
    let base: u64 = std::env::var("IBFAT_MUTATION_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let mut parsed = 0;
    let mut rejected = 0;
    for (i, (dir, file)) in SOURCES.iter().enumerate() {
        let text = fixture(dir, file);
        let plan = plan_of(dir);
        for (how, bytes) in mutations(&text, base + i as u64) {
            let what = format!("{dir}/{file}, {how}");
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let path = Path::new("mutated.txt");
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                let strict = dump::parse(&text, path);
                let lenient = dump::parse_with(&text, path, ParseOptions { lenient: true });
                if let Ok(d) = &lenient {
                    let _ = recognize(&d.fabric, None);
                    if let Some(p) = &plan {
                        let _ = audit(&p.fabric, Some(&p.layout), d);
                    }
                }
                (strict.map(|d| d.strict(path)), lenient.map(|_| ()))
            }));
            let (strict, lenient) = outcome.unwrap_or_else(|_| panic!("{what}: panicked"));
            match strict {
                Ok(Ok(_)) => parsed += 1,
                Ok(Err(e)) | Err(e) => {
                    assert_located(&e, &what);
                    rejected += 1;
                }
            }
            if let Err(e) = lenient {
                assert_located(&e, &what);
            }
        }
    }
    // the mutations exercise both outcomes
    assert!(parsed > 100 && rejected > 100, "parsed {parsed}, rejected {rejected}");
}
