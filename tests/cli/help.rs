//! `ibfat`'s help texts, walked through the binary itself (a part of tests/cli/cli.rs).

use crate::harness::{self, ibfat};
use std::fs;

/// Every command and subcommand teaches by example: its help (and so its man page, which
/// clap_mangen renders from the same text) has an `Examples:` section.
#[test]
fn every_command_help_has_examples() {
    let dir = tempfile::tempdir().unwrap();
    let (c, _, e) = ibfat(&["man", "--out", dir.path().to_str().unwrap()]);
    assert_eq!(c, 0, "{e}");
    let mut pages = 0;
    for entry in fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("ibfat-help") {
            continue;
        }
        pages += 1;
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains("Examples:"), "{name} has no Examples section");
    }
    assert!(pages >= 21, "{pages} pages");
}

/// `ibfat -h` and every subcommand's short help fit on one screen, at most 40 lines, and its
/// long help (`--help`) says at least as much: the details, the mechanism and most
/// examples are for `--help` (and the man pages) only. The subcommands are the ones the
/// binary's own `--help` lists, recursively, so a new command is covered as it is added.
#[test]
fn short_help_fits_a_screen_and_long_help_says_more() {
    const MAX_SHORT_LINES: usize = 40;
    // clap wraps help at the terminal's width: with no terminal (output captured), at
    // $COLUMNS, else at 100 columns; pinned so that a caller's $COLUMNS changes nothing
    let help = |args: &[String]| {
        let out = std::process::Command::new(harness::ibfat_bin())
            .args(args)
            .env("COLUMNS", "100")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(0), "ibfat {}: {text}", args.join(" "));
        text
    };
    // the names under `Commands:` (one per line; wrapped descriptions are indented more)
    let subcommands = |help: &str| -> Vec<String> {
        help.lines()
            .skip_while(|l| *l != "Commands:")
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|name| *name != "help")
            .map(str::to_string)
            .collect()
    };
    let mut todo: Vec<Vec<String>> = vec![Vec::new()];
    let mut checked = Vec::new();
    let mut too_long = Vec::new();
    while let Some(cmd) = todo.pop() {
        let with = |flag: &str| {
            let mut args = cmd.clone();
            args.push(flag.to_string());
            args
        };
        let long = help(&with("--help"));
        for sub in subcommands(&long) {
            let mut next = cmd.clone();
            next.push(sub);
            todo.push(next);
        }
        let name = if cmd.is_empty() {
            "(itself)".to_string()
        } else {
            cmd.join(" ")
        };
        let short = help(&with("-h"));
        let (s, l) = (short.lines().count(), long.lines().count());
        assert!(l >= s, "ibfat {name}: --help has {l} lines, -h {s}");
        if s > MAX_SHORT_LINES {
            too_long.push(format!("ibfat {name} -h: {s} lines"));
        }
        checked.push(name);
    }
    assert!(
        too_long.is_empty(),
        "short help over {MAX_SHORT_LINES} lines (move the rest to after_long_help or a second \
         doc paragraph):\n{}",
        too_long.join("\n")
    );
    // the walk went down every level
    for name in [
        "(itself)",
        "build lsft",
        "schedule",
        "lfts validate",
        "check merge",
        "export slurm-topology",
    ] {
        assert!(checked.iter().any(|c| c == name), "`{name}` not found in {checked:?}");
    }
}

/// The families the help names are the registry's: `ibfat --help` lists every family with
/// its summary, `ibfat build` has one subcommand per family it builds, and `--family`
/// offers `auto` and every name (clap's possible values, also in the completions).
#[test]
fn the_help_names_the_registry_s_families() {
    let help = |args: &[&str]| {
        let out = std::process::Command::new(harness::ibfat_bin())
            .args(args)
            .env("COLUMNS", "200")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let top = help(&["--help"]);
    for e in ibfat::FAMILIES {
        assert!(
            top.lines()
                .any(|l| l.trim_start().starts_with(e.name) && l.ends_with(e.summary)),
            "`ibfat --help` does not list {}:\n{top}",
            e.name
        );
    }
    let build = help(&["build", "--help"]);
    let subs: Vec<&str> = build
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .collect();
    let mut builds: Vec<&str> = ibfat::FAMILIES.iter().filter(|e| e.builds).map(|e| e.name).collect();
    let mut got = subs.clone();
    builds.sort_unstable();
    got.sort_unstable();
    assert_eq!(
        got, builds,
        "`ibfat build` subcommands against the registry's built families"
    );
    let names: Vec<&str> = std::iter::once("auto")
        .chain(ibfat::FAMILIES.iter().map(|e| e.name))
        .collect();
    let offered = format!("[possible values: {}]", names.join(", "));
    for cmd in ["recognize", "route", "schedule", "predict"] {
        let h = help(&[cmd, "--help"]);
        let flat: String = h.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&offered), "`ibfat {cmd} --help` does not offer {offered}");
    }
}
