//! `make install` into a staging root (DESTDIR), then used as an installed tool would be:
//! the C example compiled with `pkg-config --cflags --libs ibfat` against the shared
//! library and run through its SONAME, the man page rendered by `man`, the bash
//! completion loaded by bash, the plugin exporting OpenSM's entry point; then
//! `make uninstall` removes exactly what was installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ok(what: &str, out: &Output) -> String {
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The workspace's target folder (this test runs from `<target>/debug/deps/`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors()
        .nth(3)
        .expect("<target>/debug/deps/<test>")
        .to_path_buf()
}

fn make(root: &Path, stage: &Path, goal: &str) -> Output {
    Command::new("make")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([goal, "PROFILE=dev", "PREFIX=/usr"])
        .arg(format!("DESTDIR={}", stage.display()))
        .env("CARGO_TARGET_DIR", root)
        .output()
        .expect("make (Debian: make)")
}

fn soname(lib: &Path) -> Option<String> {
    let out = ok(
        "readelf",
        &Command::new("readelf").arg("-d").arg(lib).output().expect("readelf"),
    );
    out.lines()
        .find(|l| l.contains("(SONAME)"))
        .and_then(|l| l.split('[').nth(1))
        .map(|s| s.trim_end_matches(']').to_string())
}

#[test]
fn make_install_gives_a_usable_tool_library_and_plugin() {
    let t = tempfile::tempdir().unwrap();
    let stage = t.path().join("stage");
    let usr = stage.join("usr");
    // a file of someone else's in a folder install writes to: uninstall leaves it
    std::fs::create_dir_all(usr.join("lib")).unwrap();
    std::fs::write(usr.join("lib/other.so"), b"not ours").unwrap();

    let out = make(&target_dir(), &stage, "install");
    let log = ok("make install", &out);
    assert!(log.contains("ldconfig not run (DESTDIR set"), "{log}");

    let version = env!("CARGO_PKG_VERSION");
    let lib = usr.join(format!("lib/libibfatc.so.{version}"));
    let so_abi = format!("libibfatc.so.{}", c_abi());
    assert_eq!(soname(&lib).as_deref(), Some(so_abi.as_str()));
    assert_eq!(
        std::fs::read_link(usr.join(format!("lib/{so_abi}"))).unwrap(),
        Path::new(&format!("libibfatc.so.{version}"))
    );
    assert_eq!(
        std::fs::read_link(usr.join("lib/libibfatc.so")).unwrap(),
        Path::new(&so_abi)
    );
    for f in [
        "bin/ibfat",
        "lib/libibfatc.a",
        "include/ibfat.h",
        "lib/pkgconfig/ibfat.pc",
        "share/man/man1/ibfat.1",
        "share/man/man1/ibfat-check-merge.1",
        "share/bash-completion/completions/ibfat",
        "share/zsh/site-functions/_ibfat",
        "share/fish/vendor_completions.d/ibfat.fish",
        "lib/libibfatosm.so",
    ] {
        assert!(usr.join(f).is_file(), "{f} not installed");
    }

    // pkg-config finds the staged library; the C example links to it dynamically
    let pc = Command::new("pkg-config")
        .args(["--cflags", "--libs", "ibfat"])
        .env("PKG_CONFIG_PATH", usr.join("lib/pkgconfig"))
        .env("PKG_CONFIG_SYSROOT_DIR", &stage)
        .output()
        .expect("pkg-config (Debian: pkg-config)");
    let flags = ok("pkg-config", &pc);
    assert!(flags.contains("-libfatc"), "{flags}");
    let exe = t.path().join("example");
    let cc = Command::new("gcc")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("ffi/examples/example.c"))
        .args(flags.split_whitespace())
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("gcc");
    ok("gcc with pkg-config flags", &cc);
    let needed = ok(
        "readelf",
        &Command::new("readelf").arg("-d").arg(&exe).output().unwrap(),
    );
    assert!(
        needed.contains(&format!("Shared library: [libibfatc.so.{}]", c_abi())),
        "{needed}"
    );
    let plan = t.path().join("plan");
    ok(
        "ibfat build",
        &Command::new(env!("CARGO_BIN_EXE_ibfat"))
            .args(["build", "lsft", "--order", "3", "--no-svg", "--out"])
            .arg(&plan)
            .output()
            .unwrap(),
    );
    let run = Command::new(&exe)
        .arg(plan.join("topology.net"))
        .env("LD_LIBRARY_PATH", usr.join("lib"))
        .output()
        .unwrap();
    let text = ok("the example on the installed library", &run);
    assert!(text.contains("LSFT(3): 26 switches, 52 hosts, 104 cables"), "{text}");

    // the installed binary, man page, completion and plugin
    let v = ok(
        "ibfat --version",
        &Command::new(usr.join("bin/ibfat")).arg("--version").output().unwrap(),
    );
    assert!(v.contains(version), "{v}");
    let man = Command::new("man")
        .arg("-l")
        .arg(usr.join("share/man/man1/ibfat-check.1"))
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
        .expect("man (Debian: man-db)");
    let page = ok("man -l", &man);
    assert!(page.contains("ibfat-check") && page.contains("--pattern"), "{page}");
    let bash = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source {} && complete -p ibfat",
            usr.join("share/bash-completion/completions/ibfat").display()
        ))
        .output()
        .unwrap();
    assert!(ok("bash completion", &bash).contains("ibfat"));
    let syms = ok(
        "nm",
        &Command::new("nm")
            .args(["-D", "--defined-only"])
            .arg(usr.join("lib/libibfatosm.so"))
            .output()
            .unwrap(),
    );
    assert!(
        syms.contains(" osm_event_plugin"),
        "the plugin exports OpenSM's entry point"
    );

    // uninstall: every installed file goes, someone else's file stays
    ok("make uninstall", &make(&target_dir(), &stage, "uninstall"));
    let mut left = Vec::new();
    let mut stack = vec![usr.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() && !p.is_symlink() {
                stack.push(p);
            } else {
                left.push(p.strip_prefix(&usr).unwrap().display().to_string());
            }
        }
    }
    assert_eq!(left, vec!["lib/other.so".to_string()]);
}

/// The C ABI version ffi/build.rs gives the SONAME (`const ABI: u32 = N;`).
fn c_abi() -> u32 {
    let build = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ffi/build.rs")).unwrap();
    build
        .lines()
        .find_map(|l| l.strip_prefix("const ABI: u32 = ")?.strip_suffix(';')?.parse().ok())
        .expect("ffi/build.rs states `const ABI: u32 = N;`")
}
