//! The workspace builds on a fresh machine: a plain `cargo build` at the root must not need
//! the OpenSM headers, so the plugin stays out of the default members while remaining a
//! member (the workspace-wide test and lint commands still cover it).

use std::process::Command;

#[test]
fn default_members_leave_out_the_opensm_plugin() {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
            "--manifest-path",
            manifest,
        ])
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let name_of = |id: &serde_json::Value| -> String {
        meta["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == *id)
            .map(|p| p["name"].as_str().unwrap().to_string())
            .unwrap_or_default()
    };
    let names = |field: &str| -> Vec<String> {
        meta[field]
            .as_array()
            .unwrap_or_else(|| panic!("no {field} in cargo metadata"))
            .iter()
            .map(name_of)
            .collect()
    };
    let members = names("workspace_members");
    let defaults = names("workspace_default_members");
    assert!(members.contains(&"ibfat-osm".to_string()), "{members:?}");
    assert!(!defaults.contains(&"ibfat-osm".to_string()), "{defaults:?}");
    for needed in ["ibfat", "ibfat-ffi"] {
        assert!(defaults.contains(&needed.to_string()), "{defaults:?}");
    }
}

/// The library builds without the command line's dependencies: argument parsing, man
/// pages, progress bars and signal handling are behind the default `cli` feature.
#[test]
fn the_library_alone_needs_no_cli_crates() {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let tree = |extra: &[&str]| {
        let out = Command::new(env!("CARGO"))
            .args([
                "tree",
                "-p",
                "ibfat",
                "-e",
                "normal",
                "--prefix",
                "none",
                "--offline",
                "--locked",
            ])
            .args(["--manifest-path", manifest])
            .args(extra)
            .output()
            .expect("cargo tree runs");
        assert!(
            out.status.success(),
            "cargo tree: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let cli_crates = ["clap ", "clap_complete ", "clap_mangen ", "indicatif ", "signal-hook "];
    let lib = tree(&["--no-default-features"]);
    for c in cli_crates {
        assert!(!lib.lines().any(|l| l.starts_with(c)), "the library pulls {c}:\n{lib}");
    }
    let full = tree(&[]);
    assert!(full.lines().any(|l| l.starts_with("clap ")), "{full}");
}
