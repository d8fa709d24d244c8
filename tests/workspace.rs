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
