//! examples/mpi/bcast.c under the real `mpirun` (issue 14 item 5): the `MPI_Bcast`
//! replacement reads the plan `ibfat schedule --pattern bcast-multilane --out` wrote for a
//! job on a small LSFT (`ibfat_bcast_open`), maps its MPI rank to a rank of the plan
//! through a mapping file, broadcasts along the trees in pipelined segments (one
//! communicator per lane: the rails are emulated on this one machine) and checks every
//! byte on every rank. Process counts 7, 15 and 10; 1 and 2 lanes; roots 0 and others;
//! sizes of 1 byte, not divisible by lanes × segment, and whole segments.

use crate::harness::{build_plan, ibfat, tail};
use crate::mpi::{compile_prog, mpirun_args, require_mpi};
use std::ffi::OsString;
use std::path::Path;

/// Write the broadcast plan `ibfat schedule <plan> --pattern bcast-multilane <args>`.
fn plan_file(plan: &Path, args: &[&str], out: &Path) {
    let mut full = vec!["schedule", plan.to_str().unwrap(), "--pattern", "bcast-multilane"];
    full.extend(args);
    full.extend(["--out", out.to_str().unwrap()]);
    let (code, stdout, stderr) = ibfat(&full);
    assert_eq!(code, 0, "{full:?}: {stdout}{stderr}");
}

/// The plan's hosts (port GUIDs as written).
fn hosts(file: &Path) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    v["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap().to_string())
        .collect()
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The mapping file: MPI rank i stands for the plan's host (a·i + 3) mod n, a the first of
/// 5, 7, 11 prime to n, so MPI ranks and plan ranks differ and only the mapping pairs them.
fn write_mapping(file: &Path, out: &Path) {
    let hosts = hosts(file);
    let n = hosts.len();
    let a = [5, 7, 11].into_iter().find(|&a| gcd(a, n) == 1).unwrap();
    let mut text = format!("# MPI_RANK PORT_GUID, for {}\n", file.display());
    for i in 0..n {
        text += &format!("{i} {}\n", hosts[(a * i + 3) % n]);
    }
    std::fs::write(out, text).unwrap();
}

/// Segment messages one rank receives: every part of `bytes / lanes` (rounded as the
/// program splits) in segments of `segment`.
fn segments_per_rank(bytes: usize, lanes: usize, segment: usize) -> usize {
    (0..lanes)
        .map(|h| (bytes * (h + 1) / lanes - bytes * h / lanes).div_ceil(segment))
        .sum()
}

/// One run: (ranks, job, lanes, root, `--sites`, message sizes, segment).
type Case = (usize, &'static str, u32, u32, bool, &'static [usize], usize);

#[test]
fn bcast_follows_multilane_trees_under_mpirun() {
    require_mpi();
    let t = tempfile::tempdir().unwrap();
    let exe = compile_prog(t.path(), "bcast");
    // LSFT(2): 21 hosts, 7 leaves of 3
    let plan = t.path().join("lsft2");
    build_plan(&["build", "lsft", "--order", "2"], &plan);
    let cases: [Case; 4] = [
        (7, "ranks:0-6", 2, 0, false, &[1, 100_003], 1000),
        (15, "ranks:3-17", 2, 5, true, &[65_536, 7], 4096),
        (10, "ranks:0-9", 2, 9, false, &[100_003], 999),
        (10, "ranks:11-20", 1, 0, false, &[4097], 1000),
    ];
    for (np, job, lanes, root, sites, sizes, segment) in cases {
        let name = format!("{np}-{lanes}-{root}");
        let dir = t.path().join(&name);
        std::fs::create_dir(&dir).unwrap();
        let file = dir.join("bcast.json");
        let (l, r) = (lanes.to_string(), root.to_string());
        let mut args = vec!["--job", job, "--lanes", &l, "--root", &r];
        if sites {
            args.push("--sites");
        }
        plan_file(&plan, &args, &file);
        let mapping = dir.join("mapping.txt");
        write_mapping(&file, &mapping);
        for &bytes in sizes {
            let argv: Vec<OsString> = vec![
                file.clone().into(),
                mapping.clone().into(),
                bytes.to_string().into(),
                segment.to_string().into(),
            ];
            let (code, stdout, stderr) = mpirun_args(&exe, np, &dir, &argv);
            let want = format!(
                "ibfat-mpi-bcast: ranks={np} lanes={lanes} root={root} bytes={bytes} segment={segment} \
                 segments={} bytes_verified={} errors=0",
                (np - 1) * segments_per_rank(bytes, lanes as usize, segment),
                (np - 1) * bytes
            );
            assert_eq!(code, 0, "{name} {bytes}: {stdout}{}", tail(&stderr, 30));
            assert_eq!(stdout.trim(), want, "{name} {bytes}: {}", tail(&stderr, 30));
        }
    }
}

/// Bad input stops every process before any message, with exit status 2 and a message
/// naming the file and line: a mapping to a host outside the plan, a broadcast file of
/// another format, a size that is no number.
#[test]
fn a_mapping_to_a_host_outside_the_plan_and_bad_arguments_fail() {
    require_mpi();
    let t = tempfile::tempdir().unwrap();
    let exe = compile_prog(t.path(), "bcast");
    let plan = t.path().join("lsft2");
    build_plan(&["build", "lsft", "--order", "2"], &plan);
    let file = t.path().join("bcast.json");
    plan_file(&plan, &["--job", "ranks:0-6"], &file);
    // fabric host 20 is a real host, but not one of the job's seven
    let outside = t.path().join("outside.json");
    plan_file(&plan, &["--job", "ranks:20"], &outside);
    let stranger = hosts(&outside)[0].clone();
    let mapping = t.path().join("mapping.txt");
    write_mapping(&file, &mapping);
    let text = std::fs::read_to_string(&mapping).unwrap();
    let line4 = text.lines().nth(4).unwrap(); // comment, then MPI ranks 0, 1, 2, 3
    assert!(line4.starts_with("3 "), "{text}");
    let bad = t.path().join("bad-mapping.txt");
    std::fs::write(&bad, text.replace(line4, &format!("3 {stranger}"))).unwrap();
    let run = |args: Vec<OsString>| mpirun_args(&exe, 7, t.path(), &args);

    let (code, stdout, stderr) = run(vec![file.clone().into(), bad.clone().into(), "1000".into()]);
    assert_eq!(code, 2, "{stdout}{}", tail(&stderr, 30));
    let want = format!(
        "{}:5: MPI rank 3: host {stranger} is not in the schedule {}",
        bad.display(),
        file.display()
    );
    assert!(stderr.contains(&want), "want `{want}` in: {}", tail(&stderr, 30));
    assert!(!stdout.contains("ibfat-mpi-bcast"), "{stdout}");

    let schedule = t.path().join("a2a.json");
    let (code, out, err) = ibfat(&[
        "schedule",
        plan.to_str().unwrap(),
        "--pattern",
        "shift",
        "--job",
        "ranks:0-6",
        "--out",
        schedule.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, stdout, stderr) = run(vec![schedule.clone().into(), mapping.clone().into(), "1000".into()]);
    assert_eq!(code, 2, "{stdout}{}", tail(&stderr, 30));
    assert!(
        stderr.contains("cannot read the broadcast plan") && stderr.contains("a2a.json"),
        "{}",
        tail(&stderr, 30)
    );

    for (size, segment) in [("12x", "1000"), ("1000", "0")] {
        let (code, stdout, stderr) = run(vec![
            file.clone().into(),
            mapping.clone().into(),
            size.into(),
            segment.into(),
        ]);
        assert_eq!(code, 2, "{size} {segment}: {stdout}{}", tail(&stderr, 30));
        assert!(stderr.contains("is not a number of bytes"), "{}", tail(&stderr, 30));
        assert!(stdout.is_empty(), "{stdout}");
    }
}
