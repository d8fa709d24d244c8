//! Shell completions and man pages: generated from the clap definition by the binary
//! itself (`ibfat completions SHELL`, `ibfat man --out DIR`), and the copies kept in
//! `dist/` for packagers are exactly what the binary generates (regenerate with
//! `IBFAT_BLESS_DIST=1 cargo test --test cli dist::` and commit).

use crate::harness::ibfat;
use std::path::Path;

fn bless() -> bool {
    std::env::var_os("IBFAT_BLESS_DIST").is_some()
}

fn same(checked_in: &Path, generated: &[u8]) {
    if bless() {
        std::fs::create_dir_all(checked_in.parent().unwrap()).unwrap();
        std::fs::write(checked_in, generated).unwrap();
    }
    let old = std::fs::read(checked_in).unwrap_or_default();
    assert!(
        old == generated,
        "{} is stale: regenerate with `IBFAT_BLESS_DIST=1 cargo test --test cli dist::` and commit it",
        checked_in.display()
    );
}

#[test]
fn completions_are_generated_and_current() {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist/completions");
    for (shell, file) in [("bash", "ibfat.bash"), ("zsh", "_ibfat"), ("fish", "ibfat.fish")] {
        let (c, out, e) = ibfat(&["completions", shell]);
        assert_eq!(c, 0, "{e}");
        // every subcommand is offered
        for sub in [
            "build",
            "route",
            "schedule",
            "check",
            "recognize",
            "cabling",
            "lfts",
            "man",
        ] {
            assert!(out.contains(sub), "{shell}: no {sub}");
        }
        same(&dist.join(file), out.as_bytes());
    }
    // the bash script is valid bash
    let st = std::process::Command::new("bash")
        .args(["-n", dist.join("ibfat.bash").to_str().unwrap()])
        .status()
        .unwrap();
    assert!(st.success());
    let (c, _, e) = ibfat(&["completions", "tcsh"]);
    assert_eq!(c, 2, "an unknown shell is a usage error: {e}");
    assert!(e.contains("bash") && e.contains("zsh") && e.contains("fish"), "{e}");
}

#[test]
fn man_pages_are_generated_for_every_subcommand_and_current() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("man1");
    let (c, o, e) = ibfat(&["man", "--out", out.to_str().unwrap()]);
    assert_eq!(c, 0, "{o}{e}");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for page in [
        "ibfat.1",
        "ibfat-build-lsft.1",
        "ibfat-check.1",
        "ibfat-check-merge.1",
        "ibfat-lfts-validate.1",
    ] {
        assert!(names.iter().any(|n| n == page), "no {page} in {names:?}");
    }
    // the page of `ibfat` itself is what `ibfat man` prints
    let (c, top, _) = ibfat(&["man"]);
    assert_eq!(c, 0);
    assert_eq!(top.as_bytes(), std::fs::read(out.join("ibfat.1")).unwrap());
    assert!(
        top.contains(".TH ibfat 1") && top.contains("Exit codes"),
        "{}",
        &top[..200]
    );
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist/man");
    for n in &names {
        same(&dist.join(n), &std::fs::read(out.join(n)).unwrap());
    }
    // no page in dist/ that the binary no longer makes
    let mut kept: Vec<String> = std::fs::read_dir(&dist)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    kept.sort();
    assert_eq!(kept, names, "dist/man has pages of commands that no longer exist");
    // man renders them (man-db: scripts/install-deps.sh installs it)
    let r = std::process::Command::new("man")
        .args(["-l", "-P", "cat"])
        .arg(out.join("ibfat-check-merge.1"))
        .env("MANWIDTH", "80")
        .output()
        .expect("man (package man-db)");
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(text.contains("--allow-partial") && text.contains("SYNOPSIS"), "{text}");
}
