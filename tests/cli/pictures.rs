//! Pictures as users get them: `build` draws topology.svg itself (layered at LSFT(7),
//! incidence matrices at ~5,000 hosts), `check --heatmap FILE.svg` draws the heat map, and
//! a real SVG renderer (`rsvg-convert`) turns each into a PNG of a sensible size.

use crate::harness::{build_plan, ibfat};
use std::path::Path;
use std::process::Command;

/// Render an SVG with librsvg (a real renderer: malformed SVG fails) and return the PNG's
/// (width, height).
fn png_size(svg: &Path) -> (u32, u32) {
    let png = svg.with_extension("png");
    let out = Command::new("rsvg-convert")
        .arg(svg)
        .arg("-o")
        .arg(&png)
        .output()
        .expect("rsvg-convert: run scripts/install-deps.sh (Debian: librsvg2-bin)");
    assert!(
        out.status.success(),
        "rsvg-convert {}: {}",
        svg.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let head = std::fs::read(&png).unwrap();
    assert_eq!(&head[1..4], b"PNG");
    let be = |o: usize| u32::from_be_bytes(head[o..o + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn plans_draw_layered_pictures_and_matrices_beyond() {
    let t = tempfile::tempdir().unwrap();
    // LSFT(7): 456 hosts, every cable drawn, labels with the plane's coordinates
    let l7 = t.path().join("lsft7");
    let (code, _, err) = ibfat(&["build", "lsft", "--order", "7", "--out", l7.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(l7.join("topology.svg")).unwrap();
    assert!(svg.contains(">P(6,6)<") && svg.contains(">L(6,6)<") && !svg.contains("incidence"));
    assert_eq!(svg.matches("<line ").count(), 456, "one line per leaf-spine cable");
    let (w, h) = png_size(&l7.join("topology.svg"));
    assert!((1500..=4000).contains(&w) && (300..=1200).contains(&h), "{w}x{h}");

    // LSFT(16) (4,641 hosts) and the 17-ary MOLS tree (4,913 hosts): matrices
    for (name, args) in [
        ("lsft16", vec!["build", "lsft", "--order", "16"]),
        ("mols17", vec!["build", "mols", "--arity", "17"]),
    ] {
        let dir = t.path().join(name);
        let mut a = args.clone();
        a.extend(["--out", dir.to_str().unwrap()]);
        let (code, _, err) = ibfat(&a);
        assert_eq!(code, 0, "{err}");
        let svg = std::fs::read_to_string(dir.join("topology.svg")).unwrap();
        assert!(svg.contains("incidence matrices"), "{name}");
        let (w, h) = png_size(&dir.join("topology.svg"));
        assert!(w <= 2000 && h <= 3000, "{name}: {w}x{h}");
    }
}

#[test]
fn heat_maps_render_and_a_failed_picture_keeps_the_report() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    build_plan(
        &["build", "kary", "--arity", "3", "--levels", "3", "--shuffle", "4"],
        &plan,
    );
    let heat = t.path().join("heat.svg");
    let (code, out, err) = ibfat(&[
        "check",
        plan.to_str().unwrap(),
        "--pattern",
        "random",
        "--phases",
        "10",
        "--heatmap",
        heat.to_str().unwrap(),
    ]);
    assert!(code == 0 || code == 1, "{err}");
    assert!(out.contains("throughput ratio"), "{out}");
    let svg = std::fs::read_to_string(&heat).unwrap();
    assert!(svg.contains("linearGradient") && svg.contains("flows in a phase (worst)"));
    assert!(svg.contains("upward") && svg.contains("downward"));
    let (w, h) = png_size(&heat);
    assert!(w >= 600 && h >= 300, "{w}x{h}");

    // a heat map that cannot be written: the report is printed all the same, exit 3
    let nowhere = t.path().join("missing/heat.svg");
    let (code, out, err) = ibfat(&["check", plan.to_str().unwrap(), "--heatmap", nowhere.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(out.contains("throughput ratio"), "the report is not lost: {out}");
    assert!(err.contains("heat map not written (the report above stands)"), "{err}");
}

#[test]
fn graphviz_renders_on_request() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("plan");
    let (code, out, err) = ibfat(&[
        "build",
        "lsft",
        "--order",
        "2",
        "--graphviz",
        "--out",
        plan.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("topology-graphviz.svg"), "{out}");
    png_size(&plan.join("topology-graphviz.svg"));
    png_size(&plan.join("topology.svg"));
}
