//! Input a hostile or careless user can give: strings that would forge lines in the files
//! OpenSM and ibsim parse, control characters meant for a terminal, dumps that declare far
//! more than they describe, devices and endless input, deep YAML, huge counts. Each is
//! refused with exit 2 and a message naming the file, line and field, or written escaped;
//! never a panic, never unbounded memory or time.

use ibfat::formats::{dump, ibsim, lftdump};
use ibfat::routing::{route, Lids};
use ibfat::topology::{Fabric, NodeKind, Spec};
use std::path::Path;
use std::process::Command;

fn ibfat(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ibfat")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_newline_in_a_description_never_reaches_opensm_lfts_dump() {
    let mut f = Fabric::new();
    let e = f
        .add_node(NodeKind::Switch, 4, 0x10, "evil", "x\n0x0001 005 forged")
        .unwrap_err();
    assert!(e.is_input());
    assert!(
        e.to_string()
            .starts_with("desc: \"x\\n0x0001 005 forged\" holds the control character \\n"),
        "{e}"
    );
    assert!(
        f.add_node(NodeKind::Switch, 4, 0x10, "a\"b", "d").is_err(),
        "a quote ends a quoted name"
    );
    assert!(f.add_node(NodeKind::Switch, 4, 0x10, "", "d").is_err());
    assert!(f.add_node(NodeKind::Ca, 1, 0x10, "h", "\x1b[2J").is_err());
    assert!(f.add_node(NodeKind::Ca, 1, 0x10, "h", "h HCA-1").is_ok());

    // a fabric whose fields were set directly (the fields are public) is still written
    // with one line per LFT entry and a well-formed net file
    let mut plan = Spec::from_yaml("family: lsft\norder: 2\n", Path::new("s"))
        .unwrap()
        .build()
        .unwrap();
    for n in &mut plan.fabric.nodes {
        n.desc = format!("{}\n0x0001 005 forged\r\x1b[31m", n.desc);
    }
    plan.fabric.nodes[0].name = "H\"0".into();
    let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), 0).unwrap();
    let lfts = route(&plan.fabric, &plan.layout, &lids).unwrap();
    let text = lftdump::write_opensm(&plan.fabric, &lids, &lfts);
    assert!(
        !text.lines().any(|l| l.starts_with("0x0001 005 forged")),
        "forged entry"
    );
    assert!(!text.contains('\x1b') && !text.contains('\r'));
    let entries: usize = lftdump::parse(&text, Path::new("d"))
        .unwrap()
        .iter()
        .map(|s| s.entries.len())
        .sum();
    let routed = (0..lfts.switches.len())
        .map(|r| {
            lfts.row(r)
                .iter()
                .skip(1)
                .filter(|&&p| p != ibfat::routing::NO_ROUTE)
                .count()
        })
        .sum::<usize>();
    assert_eq!(entries, routed, "exactly the routed entries, nothing forged");
    let net = ibsim::write_net(&plan.fabric, &[]);
    assert!(!net.contains('\x1b') && !net.contains("\n0x0001"));
    let d = dump::parse(&net, Path::new("n"))
        .unwrap()
        .strict(Path::new("n"))
        .unwrap();
    assert_eq!(d.fabric.len(), plan.fabric.len());
    let csv = ibfat::formats::csv::write_cables(&plan.fabric);
    assert_eq!(csv.lines().count(), plan.fabric.link_count() + 1, "one row per cable");
}

#[test]
fn control_characters_in_a_dump_are_refused_and_never_printed_raw() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("esc.txt");
    std::fs::write(
        &p,
        "Switch 4 \"A\" # \"evil\x1b[2J\x1b[31mRED\"\n[1] \"B\"[1]\n\nSwitch 4 \"B\"\n[1] \"A\"[1]\n",
    )
    .unwrap();
    let (code, out, err) = ibfat(&["recognize", p.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(!out.contains('\x1b') && !err.contains('\x1b'), "{err}");
    assert!(err.contains("esc.txt:1: description: \"evil\\x1b[2J"), "{err}");
    // a malformed line quoted in a message is escaped too
    std::fs::write(&p, "Switch 4 \"A\"\n[1] \x1b]0;title\x07 junk\n").unwrap();
    let (code, _, err) = ibfat(&["recognize", p.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        !err.contains('\x1b') && !err.contains('\x07') && err.contains("\\x1b]0;title\\x07"),
        "{err}"
    );
    // leniently (the cabling audit), the node is a problem, not a failure of the whole dump
    std::fs::write(
        &p,
        "Switch 4 \"A\" # \"a\x1bb\"\n[1] \"B\"[1]\n\nSwitch 4 \"B\"\n[1] \"A\"[1]\n\nSwitch 4 \"C\"\n",
    )
    .unwrap();
    let d = dump::read_with(
        &p,
        dump::ParseOptions {
            lenient: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        d.problems
            .iter()
            .any(|q| q.line == 1 && q.message.contains("description")),
        "{:?}",
        d.problems
    );
}

#[test]
fn a_dump_of_empty_254_port_switches_is_refused_early() {
    // 1.8 MB of `Switch 254` headers took 0.7 GB before: memory now follows what is listed
    let mut text = String::new();
    let mut i = 0u64;
    while text.len() < 1_800_000 {
        text.push_str(&format!("Switch 254 \"S-{i:016x}\"\n"));
        i += 1;
    }
    let e = dump::parse(&text, Path::new("sw.txt")).unwrap_err().to_string();
    assert!(
        e.starts_with("sw.txt:257: ports: node \"S-0000000000000100\" brings the ports declared to 65535"),
        "{e}"
    );
    assert!(e.contains("valid: at most 65280 + 8 per port line"), "{e}");
    let e = dump::parse_lenient(&text, Path::new("sw.txt")).unwrap_err().to_string();
    assert!(
        e.starts_with("sw.txt:257: ports:"),
        "leniently too: not a problem per line but a stop: {e}"
    );
    // the ports report: one line naming port 254 of a new node each
    let mut rep = String::new();
    for i in 0..2000u64 {
        rep.push_str(&format!(
            "SW     1   254 0x{:016x} 4x SDR - SW    2   1 0x{:016x} ( 'a' - 'b' )\n",
            0x1000 + i,
            0x900000 + i
        ));
    }
    if let Err(e) = dump::parse(&rep, Path::new("p.txt")) {
        assert!(e.is_input(), "{e}");
    }
}

#[test]
fn devices_endless_input_and_deep_yaml_are_refused() {
    let (code, _, err) = ibfat(&["recognize", "/dev/zero"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/dev/zero:1: a NUL byte at byte 0"), "{err}");
    let t = tempfile::tempdir().unwrap();
    let y = t.path().join("deep.yaml");
    std::fs::write(
        &y,
        format!("family: lsft\norder: {}{}\n", "[".repeat(30_000), "]".repeat(30_000)),
    )
    .unwrap();
    let started = std::time::Instant::now();
    let (code, _, err) = ibfat(&["recognize", y.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("deep.yaml:2: nesting: deeper than 8 levels"), "{err}");
    assert!(started.elapsed().as_secs() < 10);
    let e = Spec::from_yaml(
        &format!("family: lsft\norder: 2\n#{}\n", "x".repeat(2 << 20)),
        Path::new("big.yaml"),
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("big.yaml: size:"), "{e}");
    let long = t.path().join("long.txt");
    std::fs::write(&long, format!("Switch 4 \"{}\"\n", "a".repeat(100_000))).unwrap();
    let (code, _, err) = ibfat(&["recognize", long.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("long.txt:1: line length"), "{err}");
}

#[test]
fn huge_phase_counts_are_refused_before_any_work() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("lsft2");
    let (code, _, err) = ibfat(&["build", "lsft", "--order", "2", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let out = t.path().join("s.json");
    for p in ["18446744073709551615", "1000000000", "65537", "0"] {
        let (code, _, err) = ibfat(&[
            "schedule",
            dir.to_str().unwrap(),
            "--pattern",
            "random",
            "--phases",
            p,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{p}: {err}");
        assert!(
            err.contains(&format!("phases: {p} is out of range: valid 1..=65536")),
            "{err}"
        );
        assert!(!out.exists(), "nothing written");
        let (code, _, err) = ibfat(&[
            "check",
            "--topology",
            dir.to_str().unwrap(),
            "--pattern",
            "random",
            "--phases",
            p,
        ]);
        assert_eq!(code, 2, "{p}: {err}");
    }
    assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 1, "no temp file left");
}

#[test]
fn wrapping_guid_bases_and_lmcs_beyond_three_bits_are_refused() {
    // a GUID base near 2^64 panicked on overflow (exit 101) before
    let (code, _, err) = ibfat(&[
        "build",
        "lsft",
        "--order",
        "2",
        "--guid-base",
        "0xffffffffffffffff",
        "--out",
        "/nonexistent/x",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("guid_base: 0xffffffffffffffff is out of range") && err.contains("valid 0x0..=0xffffffffbfffffff"),
        "{err}"
    );
    let e = Spec::from_yaml(
        "family: lsft\norder: 2\nguid_base: 0xfffffffffffffff0\n",
        Path::new("f.yaml"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("f.yaml:3: guid_base: 0xfffffffffffffff0 is out of range"),
        "{e}"
    );
    // `lmc 200` in a dump shifted a LID span past 32 bits (a panic) before
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lsft2/ibnetdiscover.txt");
    let text = std::fs::read_to_string(fixture).unwrap().replace("lmc 0", "lmc 200");
    let e = dump::parse(&text, Path::new("d.txt")).unwrap_err().to_string();
    assert!(e.contains("lmc: 200 is out of range: valid 0..=7"), "{e}");
    let mut f = Fabric::new();
    let h = f.add_node(NodeKind::Ca, 1, 0x10, "h", "h").unwrap();
    let i = f.port_index(h, 1) as usize;
    f.ports[i].lid = 1;
    f.ports[i].lmc = 40;
    let e = Lids::discovered(&f).unwrap_err().to_string();
    assert_eq!(e, "lmc: LMC 40 is out of range: valid 0..=7");
}

#[test]
fn shard_indices_and_sums_never_wrap() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("lsft2");
    let d = dir.to_str().unwrap();
    assert_eq!(ibfat(&["build", "lsft", "--order", "2", "--out", d]).0, 0);
    // i·phases overflowed (a panic) for an index near 2^64
    let big = t.path().join("big.json");
    let (code, _, err) = ibfat(&[
        "check",
        "--topology",
        d,
        "--pattern",
        "shift",
        "--shard",
        "18446744073709551614/18446744073709551615",
        "--out",
        big.to_str().unwrap(),
    ]);
    assert!(code == 0 || code == 1, "a report, not a panic: {err}");
    // shard files whose counts add up past 2^64 are refused, naming the field
    let mut files = Vec::new();
    for i in 0..2 {
        let p = t.path().join(format!("s{i}.json"));
        let shard = format!("{i}/2");
        let (code, _, err) = ibfat(&[
            "check",
            "--topology",
            d,
            "--pattern",
            "shift",
            "--shard",
            &shard,
            "--out",
            p.to_str().unwrap(),
        ]);
        assert!(code == 0 || code == 1, "a report, congested or not: {err}");
        let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        let n = v["histogram"].as_array().unwrap().len();
        let mut h = vec![0u64; n];
        h[1] = u64::MAX;
        v["histogram"] = serde_json::json!(h);
        v["flows"] = serde_json::json!(u64::MAX);
        v["unrouted_flows"] = serde_json::json!(0);
        // a leaf-cut bound of other flows than the shard's is refused, naming it
        std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
        let (code, _, err) = ibfat(&["check", "merge", p.to_str().unwrap()]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("leaf_cut: sum") && err.contains("expected the shard's"),
            "{err}"
        );
        // consistent with the forged flows, it lets the merge reach the sums
        v["leaf_cut"] = serde_json::json!({"sum": 0, "flows": u64::MAX, "bound": 0.0});
        std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
        files.push(p.to_str().unwrap().to_string());
    }
    let (code, _, err) = ibfat(&["check", "merge", &files[0], &files[1]]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("histogram: the shards' counts add up to more than 18446744073709551615"),
        "{err}"
    );
}

#[test]
fn fabrics_beyond_the_lid_space_name_the_largest_that_fits() {
    for (args, want) in [
        (
            &["build", "lsft", "--order", "37"][..],
            "order 32 one-sided, order 27 two-sided",
        ),
        (
            &["build", "lsft", "--order", "29", "--two-sided"][..],
            "order 27 two-sided",
        ),
        (
            &["build", "kary", "--arity", "36", "--levels", "3"][..],
            "arity 35 with 3 levels",
        ),
        (
            &["build", "mols", "--arity", "36"][..],
            "MOLS 3-tree one subnet holds at LMC 0: arity 35",
        ),
    ] {
        let (code, _, err) = ibfat(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("49151 unicast LIDs") && err.contains(want),
            "{args:?}: {err}"
        );
    }
    // LMC 1 doubles the host LIDs: LSFT(29) is built but cannot be routed with two LIDs a host
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("l29");
    let plan = plan.to_str().unwrap();
    let (code, _, err) = ibfat(&["build", "lsft", "--order", "29", "--no-svg", "--out", plan]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = ibfat(&["route", plan, "--lmc", "1", "--no-validate", "--out", plan]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("at LMC 1") && err.contains("order 27 one-sided, order 19 two-sided"),
        "{err}"
    );
}

#[test]
fn truncated_dumps_and_dumps_for_other_lids_are_refused_with_file_and_line() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("l3");
    let plan = plan.to_str().unwrap();
    assert_eq!(
        ibfat(&["build", "lsft", "--order", "3", "--no-svg", "--out", plan]).0,
        0
    );
    assert_eq!(ibfat(&["route", plan, "--out", plan]).0, 0);
    let text = std::fs::read_to_string(Path::new(plan).join("opensm-lfts.dump")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // cut in the middle of the third switch section
    let third = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("Unicast lids"))
        .nth(2)
        .unwrap()
        .0;
    let cut = t.path().join("cut.dump");
    std::fs::write(&cut, lines[..third + 4].join("\n") + "\n").unwrap();
    let cut_s = cut.to_str().unwrap();
    for args in [
        &["lfts", "validate", plan, "--lfts", cut_s][..],
        &["check", plan, "--lfts", cut_s, "--pattern", "shift"][..],
    ] {
        let (code, _, err) = ibfat(args);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!("{cut_s}:{}:", third + 1)) && err.contains("truncated"),
            "{err}"
        );
    }
    // an entry for a LID beyond the topology's, owned by a port the fabric does not have
    let mut more: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    more.insert(
        2,
        "0x0400 001 # Channel Adapter portguid 0x00000000deadbeef: 'stranger'".into(),
    );
    let other = t.path().join("more.dump");
    std::fs::write(&other, more.join("\n") + "\n").unwrap();
    let other_s = other.to_str().unwrap();
    let lids = Path::new(plan).join("guid2lid");
    for extra in [&[][..], &["--lids", lids.to_str().unwrap()][..]] {
        let mut args = vec!["lfts", "validate", plan, "--lfts", other_s];
        args.extend_from_slice(extra);
        let (code, _, err) = ibfat(&args);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!("{other_s}:3:")) && err.contains("0x00000000deadbeef"),
            "{err}"
        );
    }
}

/// Inputs never wait on a writer: a FIFO given as a dump with nobody writing reads as
/// empty (exit 2 at once), and role files (which the OpenSM plugin also reads) must be
/// regular files: a FIFO, a device or `-` is refused before a byte is read.
#[test]
fn fifos_never_block_and_role_files_must_be_regular() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("lsft2");
    let (code, _, err) = ibfat(&["build", "lsft", "--order", "2", "--out", plan.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let fifo = t.path().join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let fifo = fifo.to_str().unwrap();
    let started = std::time::Instant::now();
    let (code, _, err) = ibfat(&["recognize", fifo]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("empty file"), "{err}");
    for (roles, says) in [
        (fifo, "not a regular file (a FIFO)"),
        ("/dev/zero", "not a regular file (a device)"),
        ("-", "read from a file, not from standard input"),
    ] {
        let (code, _, err) = ibfat(&["recognize", plan.to_str().unwrap(), "--io-guids", roles]);
        assert_eq!(code, 2, "{roles}: {err}");
        assert!(err.contains(says), "{roles}: {err}");
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "nothing waited");
}

/// One GUID grammar in every reader: `0x+…` (which Rust's hex parser alone takes as a sign)
/// and other near-GUIDs are refused with the file and line by the node-name map, guid2lid
/// and role-file readers alike; the same GUIDs written properly are read.
#[test]
fn every_reader_refuses_the_same_malformed_guids() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("lsft2");
    let p = plan.to_str().unwrap();
    let (code, _, err) = ibfat(&["build", "lsft", "--order", "2", "--out", p]);
    assert_eq!(code, 0, "{err}");
    let net = plan.join("topology.net");
    let topo = Spec::from_yaml(&std::fs::read_to_string(plan.join("fabric.yaml")).unwrap(), &plan)
        .unwrap()
        .build()
        .unwrap();
    let host = topo.fabric.cas().next().unwrap();
    let guid = topo.fabric.node(host).guid;
    let port_guid = topo.fabric.ports[topo.fabric.port_index(host, 1) as usize].guid;
    let lids = Lids::plan(&topo.fabric, topo.layout.hosts(), 0).unwrap();
    let g2l = ibfat::formats::guid2lid::write(&lids, &topo.fabric);
    for bad in [
        format!("0x+{guid:x}"),
        format!("0x-{guid:x}"),
        format!("0x{guid:x}_0"),
        format!("+{guid}"),
    ] {
        let map = t.path().join("names.map");
        std::fs::write(&map, format!("# names\n{bad} \"h1\"\n")).unwrap();
        let (code, _, err) = ibfat(&[
            "recognize",
            net.to_str().unwrap(),
            "--node-name-map",
            map.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("names.map:2"), "{bad}: {err}");
        let roles = t.path().join("io.guids");
        std::fs::write(&roles, format!("{bad}\n")).unwrap();
        let (code, _, err) = ibfat(&["recognize", p, "--io-guids", roles.to_str().unwrap()]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("io.guids:1"), "{bad}: {err}");
        let file = t.path().join("guid2lid");
        let first = g2l.lines().find(|l| !l.starts_with('#')).unwrap();
        let forged = first.replacen("0x", "0x+", 1);
        std::fs::write(&file, g2l.replacen(first, &forged, 1)).unwrap();
        let out = t.path().join("routes");
        let (code, _, err) = ibfat(&[
            "route",
            p,
            "--lids",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{forged}: {err}");
        assert!(err.contains("guid2lid:"), "{forged}: {err}");
    }
    // written as the tools write them, the same GUIDs are read
    let map = t.path().join("names.map");
    std::fs::write(&map, format!("0x{guid:016x} \"h1\"\n")).unwrap();
    let (code, _, err) = ibfat(&[
        "recognize",
        net.to_str().unwrap(),
        "--node-name-map",
        map.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let roles = t.path().join("io.guids");
    std::fs::write(&roles, format!("0x{port_guid:016x}\n")).unwrap();
    let (_, _, err) = ibfat(&["recognize", p, "--io-guids", roles.to_str().unwrap()]);
    // read and resolved to its host (which an LSFT then refuses as non-compute)
    assert!(err.contains("H0_0 HCA-1 is non-compute"), "{err}");
}

/// A huge argument is never echoed whole: clap's usage errors, input errors and I/O errors
/// keep a quoted value's head and tail around `(N bytes elided)`, so an error stays a line
/// a terminal or a log can hold (a 120 KB pattern was printed twice, 240 KB).
#[test]
fn huge_arguments_are_elided_in_errors() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("lsft2");
    let p = plan.to_str().unwrap();
    let (code, _, err) = ibfat(&["build", "lsft", "--order", "2", "--out", p]);
    assert_eq!(code, 0, "{err}");
    let huge = "x".repeat(120_000);
    let out = t.path().join("o");
    let o = out.to_str().unwrap();
    for args in [
        vec!["schedule", p, "--pattern", &huge],
        vec!["check", p, "--pattern", &huge],
        vec!["recognize", p, "--family", &huge],
        vec!["recognize", p, "--io-hosts", &huge],
        vec!["route", p, "--out", o, "--lids", &huge],
        vec!["schedule", p, "--pattern", "lsft", "--job", &huge],
    ] {
        let (code, _, err) = ibfat(&args);
        assert!(code == 2 || code == 3, "{:?}: exit {code}", &args[..3]);
        assert!(err.len() < 4096, "{:?}: {} bytes of error", &args[..3], err.len());
        assert!(err.contains("bytes elided"), "{:?}: {err}", &args[..3]);
    }
}
