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
    let whole_file = [
        "empty file",
        "no nodes found",
        "no ports found",
        "no iblinkinfo port lines found",
        "no subnet.lst lines found",
        "ports: the nodes declare",
    ]
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
                let lenient = dump::parse_with(
                    &text,
                    path,
                    ParseOptions {
                        lenient: true,
                        ..Default::default()
                    },
                );
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

/// The other readers, under the same mutations of their real inputs: LFT dumps (three
/// dialects), guid2lid, schedule JSON, fabric.yaml and ibsim net files (read, written,
/// read back). Each runs one deterministic round in every `cargo test`; with
/// `IBFAT_MUTATION_SECONDS=S` it keeps drawing new seeds for S seconds and prints how many
/// inputs it ran: the stable-toolchain fallback of `scripts/fuzz.sh` when no nightly
/// compiler is at hand for cargo-fuzz.
mod other_readers {
    use super::{assert_located, fixture, mutations};
    use ibfat::error::Error;
    use ibfat::formats::{dump, guid2lid, ibsim, lftdump};
    use ibfat::routing::Lids;
    use ibfat::schedule::file::parse_json;
    use ibfat::schedule::job::Hosts;
    use ibfat::schedule::Pattern;
    use ibfat::topology::{Endpoint, Fabric, Spec};
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::path::Path;
    use std::time::{Duration, Instant};

    /// The OpenSM fixture LSFT(2) two-sided: fabric, host ports, OpenSM's LIDs.
    fn fixture_fabric() -> (Fabric, Vec<Endpoint>, Lids) {
        let spec = fixture("opensm/lsft2x2", "fabric.yaml");
        let plan = Spec::from_yaml(&spec, Path::new("fabric.yaml"))
            .unwrap()
            .build()
            .unwrap();
        let g2l = fixture("opensm/lsft2x2", "guid2lid");
        let lids = guid2lid::parse(&plan.fabric, &g2l, Path::new("guid2lid")).unwrap();
        let eps = plan.layout.hosts().to_vec();
        (plan.fabric, eps, lids)
    }

    fn input(e: &Error, what: &str) {
        assert!(e.is_input(), "{what}: not an input error: {e}");
        let shown = e.to_string();
        assert!(
            !shown.chars().any(char::is_control),
            "{what}: raw control character in {shown:?}"
        );
    }

    /// Mutants of every seed text, through `check`, for one round or for the seconds of
    /// IBFAT_MUTATION_SECONDS; returns the number of inputs run.
    fn run(name: &str, seeds: &[String], check: &dyn Fn(&[u8], &str)) -> u64 {
        let budget = std::env::var("IBFAT_MUTATION_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .map(Duration::from_secs);
        let start = Instant::now();
        let mut seed: u64 = std::env::var("IBFAT_MUTATION_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2000);
        let mut execs = 0u64;
        loop {
            for (i, text) in seeds.iter().enumerate() {
                for (how, bytes) in mutations(text, seed.wrapping_add(i as u64)) {
                    let what = format!("{name} seed {i} (mutation seed {seed}), {how}");
                    catch_unwind(AssertUnwindSafe(|| check(&bytes, &what)))
                        .unwrap_or_else(|_| panic!("{what}: panicked"));
                    execs += 1;
                }
            }
            seed = seed.wrapping_add(seeds.len() as u64);
            if budget.map_or(true, |b| start.elapsed() >= b) {
                break;
            }
        }
        if budget.is_some() {
            println!(
                "{name}: {execs} inputs in {:.0} s, 0 failures",
                start.elapsed().as_secs_f64()
            );
        }
        execs
    }

    /// One reader with its format forced (as `--input-format` does), on real outputs.
    fn forced(name: &str, format: dump::DumpFormat, seeds: &[String]) {
        run(name, seeds, &|b, what| {
            let text = String::from_utf8_lossy(b);
            let path = Path::new("m.txt");
            for lenient in [false, true] {
                let opts = dump::ParseOptions {
                    lenient,
                    format: Some(format),
                    partial: false,
                };
                match dump::parse_with(&text, path, opts).and_then(|d| d.strict(path)) {
                    Ok(d) => drop(ibfat::recognize::recognize(&d.fabric, None)),
                    Err(e) => assert_located(&e, what),
                }
            }
        });
    }

    #[test]
    fn iblinkinfo_outputs() {
        let seeds = [
            fixture("tools", "iblinkinfo.txt"),
            fixture("tools", "iblinkinfo-l.txt"),
            fixture("public", "cc_rdma_test-iblinkinfo-qdr-README.md"),
        ];
        forced("iblinkinfo", dump::DumpFormat::Iblinkinfo, &seeds);
    }

    #[test]
    fn subnet_lst_files() {
        let seeds = [fixture("tools", "opensm-subnet.lst")];
        forced("subnet.lst", dump::DumpFormat::SubnetLst, &seeds);
    }

    #[test]
    fn ibnetdiscover_dumps() {
        let seeds: Vec<String> = super::SOURCES.iter().map(|(d, f)| fixture(d, f)).collect();
        run("ibnetdiscover dump", &seeds, &|b, what| {
            let text = String::from_utf8_lossy(b);
            let path = Path::new("m.txt");
            for lenient in [false, true] {
                match dump::parse_with(
                    &text,
                    path,
                    dump::ParseOptions {
                        lenient,
                        ..Default::default()
                    },
                )
                .and_then(|d| d.strict(path))
                {
                    Ok(d) => drop(ibfat::recognize::recognize(&d.fabric, None)),
                    Err(e) => assert_located(&e, what),
                }
            }
        });
    }

    #[test]
    fn lft_dumps() {
        let (fabric, _, lids) = fixture_fabric();
        let seeds: Vec<String> = ["opensm-minhop.dump", "dump_lfts-ftree.txt", "ibroute-minhop.txt"]
            .iter()
            .map(|f| fixture("opensm/lsft2x2", f))
            .collect();
        run("lft dump", &seeds, &|b, what| {
            let text = String::from_utf8_lossy(b);
            let path = Path::new("m.dump");
            match lftdump::parse(&text, path) {
                Ok(s) => {
                    if let Err(e) = lftdump::to_lftset(&s, &fabric, &lids, path) {
                        input(&e, what);
                    }
                    if let Err(e) = lftdump::lids_from_annotations(&s, &fabric, path) {
                        input(&e, what);
                    }
                }
                Err(e) => input(&e, what),
            }
            // the streaming reader the commands use gives the same tables, or the same error
            if !b.contains(&0) {
                let same = |a: ibfat::Result<(Lids, ibfat::routing::LftSet)>,
                            b: ibfat::Result<(Lids, ibfat::routing::LftSet)>| match (a, b) {
                    (Ok(x), Ok(y)) => assert!(x == y, "{what}: streamed tables differ"),
                    (Err(x), Err(y)) => assert_eq!(x.to_string(), y.to_string(), "{what}"),
                    (x, y) => panic!("{what}: streamed {:?}, parsed {:?}", x.err(), y.err()),
                };
                let given = lftdump::parse(&text, path)
                    .and_then(|s| lftdump::to_lftset(&s, &fabric, &lids, path))
                    .map(|t| (lids.clone(), t));
                same(lftdump::read_from(b, path, &fabric, Some(&lids)), given);
                let found = lftdump::parse(&text, path).and_then(|s| {
                    let l = lftdump::lids_from_annotations(&s, &fabric, path)?;
                    let t = lftdump::to_lftset(&s, &fabric, &l, path)?;
                    Ok((l, t))
                });
                same(lftdump::read_from(b, path, &fabric, None), found);
            }
        });
    }

    #[test]
    fn guid2lid_files() {
        let (fabric, _, _) = fixture_fabric();
        run("guid2lid", &[fixture("opensm/lsft2x2", "guid2lid")], &|b, what| {
            if let Err(e) = guid2lid::parse(&fabric, &String::from_utf8_lossy(b), Path::new("g")) {
                input(&e, what);
            }
        });
    }

    #[test]
    fn schedule_files() {
        let (fabric, eps, _) = fixture_fabric();
        let hosts = Hosts::new(&fabric, &eps, "fixture");
        // a schedule as ibfat writes it, over the fixture's hosts
        let n = eps.len();
        let mut text = String::from("{\"hosts\": [\n");
        for (r, e) in eps.iter().enumerate() {
            let g = fabric.ports[fabric.port_index(e.node, e.port) as usize].guid;
            text.push_str(&format!("\"0x{g:016x}\"{}\n", if r + 1 < n { "," } else { "" }));
        }
        text.push_str("],\n\"phases\": [\n");
        for p in 0..n {
            let row: Vec<String> = (0..n).map(|r| ((r + p) % n).to_string()).collect();
            text.push_str(&format!("[{}]{}\n", row.join(","), if p + 1 < n { "," } else { "" }));
        }
        text.push_str("]}\n");
        assert!(parse_json(text.as_bytes(), Path::new("s"), Some(&hosts)).is_ok());
        run("schedule json", &[text], &|b, what| {
            for topo in [None, Some(&hosts)] {
                match parse_json(b, Path::new("s.json"), topo) {
                    Ok((s, _)) => {
                        let mut out = vec![0u32; s.ranks()];
                        for p in 0..s.phases() {
                            s.phase(p, &mut out);
                        }
                    }
                    Err(e) => input(&e, what),
                }
            }
        });
    }

    #[test]
    fn fabric_specs() {
        let seeds: Vec<String> = ["lsft2", "lsft3x2", "kary2x3", "mols3"]
            .iter()
            .map(|d| fixture(d, "fabric.yaml"))
            .collect();
        run(
            "fabric.yaml",
            &seeds,
            &|b, what| match Spec::from_yaml(&String::from_utf8_lossy(b), Path::new("f.yaml")) {
                Ok(spec) => {
                    // the written spec pins defaults, so it reads back as itself
                    let yaml = spec.to_yaml(None);
                    let again = Spec::from_yaml(&yaml, Path::new("again.yaml"))
                        .unwrap_or_else(|e| panic!("{what}: written spec does not read back: {e}"));
                    assert_eq!(again.to_yaml(None), yaml, "{what}");
                }
                Err(e) => input(&e, what),
            },
        );
    }

    #[test]
    fn ibsim_net_files() {
        let seeds = vec![
            fixture("router", "topology.net"),
            fixture("opensm/lsft2x2", "topology.net"),
        ];
        run("ibsim net", &seeds, &|b, what| {
            let text = String::from_utf8_lossy(b);
            let path = Path::new("m.net");
            match dump::parse(&text, path).and_then(|d| d.strict(path)) {
                Ok(d) => {
                    let net = ibsim::write_net(&d.fabric, &[]);
                    let again = dump::parse(&net, path)
                        .and_then(|a| a.strict(path))
                        .unwrap_or_else(|e| panic!("{what}: written net does not read back: {e}"));
                    assert_eq!(
                        (again.fabric.len(), again.fabric.link_count()),
                        (d.fabric.len(), d.fabric.link_count()),
                        "{what}"
                    );
                }
                Err(e) => assert_located(&e, what),
            }
        });
    }
}
