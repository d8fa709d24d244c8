//! The library's layers run one way: a module uses only the modules of lower layers (or
//! its own). This reads every source file of `src/` (the CLI excepted: it sits on top)
//! and fails on any `crate::…` path that reaches sideways or up, naming the file and line.
//!
//! A family's folder (`src/families/<family>/`) holds one part per layer, named for it:
//! `model*` belongs to `topology`, `route*` and `lanes*` to `routing`, `recognize*` and
//! `report*` to `recognize`, `schedule*` to `schedule`. Each part obeys its layer; the
//! registry (`src/families/mod.rs`) and the folders' `mod.rs` sit in the layer just above `error`.

use std::path::Path;

/// The layers, lowest first; modules in one layer do not use each other.
const LAYERS: &[&[&str]] = &[
    &["error", "rng", "guid"],
    &["families"],
    &["fingerprint"],
    &["geometry"],
    &["topology"],
    &["routing"],
    &["formats"],
    &["schedule", "metrics", "recognize"],
    &["check"],
    &["select", "cabling"],
    &["load", "hca"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The layer module a part of a family's folder belongs to, by its name.
fn part_layer(part: &str) -> Option<&'static str> {
    const PARTS: &[(&str, &str)] = &[
        ("model", "topology"),
        ("route", "routing"),
        ("lanes", "routing"),
        ("recognize", "recognize"),
        ("report", "recognize"),
        ("schedule", "schedule"),
    ];
    PARTS.iter().find(|(p, _)| part.starts_with(p)).map(|&(_, l)| l)
}

/// The module a file under `src/` belongs to: its top-level module (`src/routing/lft.rs`
/// → routing), or for a part of a family's folder the layer of that part
/// (`src/families/tree/route.rs` → routing).
fn module_of(rel: &Path) -> String {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts[0] == "families" && parts.len() > 2 && parts[2] != "mod" {
        return part_layer(&parts[2])
            .unwrap_or_else(|| panic!("src/{}: a family's part is named for its layer", rel.display()))
            .to_string();
    }
    parts[0].clone()
}

/// A path's segments after `crate::`, up to the first that is not a name.
fn segments(rest: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut s = rest;
    loop {
        let name: String = s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            break;
        }
        s = &s[name.len()..];
        v.push(name);
        match s.strip_prefix("::") {
            Some(r) => s = r,
            None => break,
        }
    }
    v
}

/// The module a path names: its first segment, or for `families::<family>::<part>` the
/// layer of that part.
fn named_module(segs: &[String]) -> String {
    match segs {
        [f, fam, part, ..] if f == "families" && fam.chars().all(|c| c.is_ascii_lowercase()) => {
            part_layer(part).unwrap_or("families").to_string()
        }
        [first, ..] => first.clone(),
        [] => String::new(),
    }
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every module named after `crate::` on a line (`crate::{a, b}` included).
fn used_modules(line: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                v.push(name);
            }
        } else {
            v.push(named_module(&segments(rest)));
        }
    }
    v
}

#[test]
fn no_module_uses_a_higher_or_sideways_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    let mut seen = 0;
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let me = module_of(rel);
        if me == "cli" || me == "main" || me == "lib" {
            continue;
        }
        let mine = layer(&me).unwrap_or_else(|| {
            panic!(
                "{}: module `{me}` is in no layer of tests/library/layers.rs",
                rel.display()
            )
        });
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for used in used_modules(code) {
                seen += 1;
                if used == me || used.is_empty() {
                    continue;
                }
                match layer(&used) {
                    Some(l) if l < mine => {}
                    Some(_) => bad.push(format!("src/{}:{}: `{me}` uses `{used}`", rel.display(), i + 1)),
                    None if used.chars().next().is_some_and(char::is_uppercase) => {} // crate::Error …
                    None => bad.push(format!("src/{}:{}: unknown module `{used}`", rel.display(), i + 1)),
                }
            }
        }
    }
    assert!(seen > 50, "the scan found only {seen} crate paths: is it reading src/?");
    assert!(bad.is_empty(), "imports that run up or sideways:\n{}", bad.join("\n"));
}
