//! Compile the C shim against the installed OpenSM headers, and refuse to build against
//! headers of another OpenSM version than the one this plugin declares (OpenSM refuses to
//! load a plugin whose `osm_version` differs, and struct layouts change between versions).

use std::path::Path;

/// The OpenSM release this plugin is written for.
const DECLARED: &str = "OpenSM 3.3.23";

fn main() {
    let inc = std::env::var("OPENSM_INCLUDE").unwrap_or_else(|_| "/usr/include/infiniband".into());
    let version_h = Path::new(&inc).join("opensm/osm_version.h");
    println!("cargo:rerun-if-changed=src/shim.c");
    println!("cargo:rerun-if-env-changed=OPENSM_INCLUDE");
    println!("cargo:rerun-if-changed={}", version_h.display());
    let text = match std::fs::read_to_string(&version_h) {
        Ok(t) => t,
        Err(e) => panic!(
            "\n\nibfat-osm: cannot read {} ({e}).\nThe OpenSM plugin needs the {DECLARED} development headers: \
             install them with `apt-get install libopensm-dev` (or run scripts/install-deps.sh), or point \
             OPENSM_INCLUDE at the folder that holds opensm/osm_version.h.\n\n",
            version_h.display()
        ),
    };
    let found = text
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("#define OSM_VERSION")
                .map(|v| v.trim().trim_matches('"').to_string())
        })
        .unwrap_or_else(|| panic!("\n\nibfat-osm: no OSM_VERSION in {}\n\n", version_h.display()));
    if found != DECLARED {
        panic!(
            "\n\nibfat-osm: the OpenSM headers in {inc} are \"{found}\" but this plugin is written for \"{DECLARED}\".\n\
             OpenSM refuses plugins of another version and its structures differ between versions; build against \
             {DECLARED} headers.\n\n"
        );
    }
    println!("cargo:rustc-env=IBFAT_OSM_VERSION={DECLARED}");
    cc::Build::new()
        .file("src/shim.c")
        .include(&inc)
        .flag_if_supported("-Wall")
        .flag_if_supported("-Wextra")
        .warnings_into_errors(true)
        .compile("ibfatosm_shim");
}
