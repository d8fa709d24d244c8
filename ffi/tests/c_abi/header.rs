//! The checked-in C header is exactly what cbindgen generates from the sources (CI fails
//! when it is stale), and it compiles as C11 and C++17.

use std::path::Path;
use std::process::Command;

#[test]
fn header_is_current_and_compiles_as_c11_and_cpp17() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen")
        .write(&mut generated);
    let path = crate_dir.join("include/ibfat.h");
    if std::env::var_os("IBFAT_BLESS_HEADER").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let checked_in = std::fs::read(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "ffi/include/ibfat.h is stale: regenerate with `IBFAT_BLESS_HEADER=1 cargo test -p ibfat-ffi --test c_abi header::` and commit it"
    );
    let tmp = tempfile::tempdir().unwrap();
    let src_c = tmp.path().join("h.c");
    std::fs::write(
        &src_c,
        "#include \"ibfat.h\"\nint main(void) { return ibfat_version() == 0; }\n",
    )
    .unwrap();
    let src_cpp = tmp.path().join("h.cpp");
    std::fs::write(
        &src_cpp,
        "#include \"ibfat.h\"\nint main() { IbfatFabric *f = nullptr; ibfat_fabric_free(f); return 0; }\n",
    )
    .unwrap();
    for (cc, std, src) in [("gcc", "-std=c11", &src_c), ("g++", "-std=c++17", &src_cpp)] {
        let out = Command::new(cc)
            .args([std, "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-I"])
            .arg(crate_dir.join("include"))
            .arg(src)
            .output()
            .unwrap_or_else(|e| panic!("{cc}: {e}"));
        assert!(
            out.status.success(),
            "{cc} {std}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
