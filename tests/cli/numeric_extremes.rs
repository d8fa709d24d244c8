//! Every numeric option of every subcommand at its extremes (0, 1, 2³¹, 2³²−1, 2⁶⁴−1, −1,
//! NaN, inf, 1e308): the answer is a result (exit 0, or 1 for a check that found
//! conflicts) or a refusal (exit 2 naming the option or the value as given), never a
//! panic or an abort, never more than 64 MiB of memory or a second of CPU time. Memory is
//! bounded hard: each run has `RLIMIT_DATA` at 64 MiB, so an allocation beyond it fails
//! and shows as an abort (wait4's peak RSS is no measure here: Linux carries the parent's
//! over the fork and exec). The options are read from each subcommand's `--help`, so a
//! new numeric option is swept without touching this file (issue 41 item 1).

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::extremes::{reap, EXTREMES};

/// Value names of options that take numbers (or lists of them).
const NUMERIC: [&str; 28] = [
    "Q",
    "M",
    "SEED",
    "HEX",
    "R",
    "K",
    "N",
    "P",
    "W",
    "H",
    "L",
    "S",
    "D",
    "LMC",
    "BYTES",
    "US",
    "GBS",
    "X",
    "SECONDS",
    "BYTES_PER_S",
    "SIZES",
    "DEGREES",
    "ARITIES",
    "M,..",
    "W,..",
    "P,..",
    "PHASES",
    "I/N",
];

/// Options whose value name looks numeric but which take names.
const NOT_NUMERIC: [&str; 2] = ["--pattern", "--io-hosts"];

const MAX_DATA: libc::rlim_t = 64 << 20;
const MAX_CPU: Duration = Duration::from_secs(1);

/// One finished run: exit code (None: killed by a signal), stderr, CPU time.
struct Run {
    code: Option<i32>,
    signal: Option<i32>,
    stderr: String,
    cpu: Duration,
}

/// Run ibfat with `args` under a 64 MiB data limit, reaping it with `wait4` for its CPU time.
fn measured(args: &[String], scratch: &Path) -> Run {
    use std::os::unix::process::CommandExt;
    let err_path = scratch.join("stderr");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ibfat"));
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(File::create(&err_path).unwrap());
    // SAFETY: setrlimit is async-signal-safe and touches no memory of the parent
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: MAX_DATA,
                rlim_max: MAX_DATA,
            };
            if libc::setrlimit(libc::RLIMIT_DATA, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        })
    };
    let r = reap(cmd.spawn().unwrap().id(), &format!("ibfat {}", args.join(" ")));
    Run {
        code: r.code,
        signal: r.signal,
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
        cpu: r.cpu,
    }
}

fn ok(args: &[String]) {
    let out = Command::new(env!("CARGO_BIN_EXE_ibfat")).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The numeric options `ibfat <path> --help` lists (long names).
fn numeric_options(path: &[&str]) -> Vec<(String, String)> {
    let mut args = path.to_vec();
    args.push("--help");
    let out = Command::new(env!("CARGO_BIN_EXE_ibfat")).args(&args).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let mut opts = Vec::new();
    for line in help.lines() {
        let t = line.trim_start();
        let t = t.split_once(", ").filter(|(s, _)| s.len() == 2).map_or(t, |(_, l)| l);
        let Some((name, rest)) = t.strip_prefix("--").and_then(|r| r.split_once(" <")) else {
            continue;
        };
        let Some(value) = rest.split_once('>').map(|(v, _)| v) else {
            continue;
        };
        let long = format!("--{name}");
        if NUMERIC.contains(&value) && !NOT_NUMERIC.contains(&long.as_str()) && !opts.iter().any(|(o, _)| *o == long) {
            opts.push((long, value.to_string()));
        }
    }
    opts
}

/// The values to give an option: its extremes, and for `I/N` each side in turn.
fn values_for(value_name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for v in EXTREMES {
        if value_name == "I/N" {
            out.push(format!("{v}/2"));
            out.push(format!("0/{v}"));
        } else {
            out.push(v.to_string());
        }
    }
    out
}

/// Sample fabrics and the commands whose options are swept: (help path, base arguments
/// with `OUT` for a fresh output path).
fn bases(t: &Path) -> Vec<(Vec<&'static str>, Vec<String>)> {
    let (l2, fm) = (t.join("l2"), t.join("fm"));
    let paths = [
        ("L2", l2.clone()),
        ("FM", fm.clone()),
        ("DUMP", l2.join("opensm-lfts.dump")),
        ("NET", l2.join("topology.net")),
    ];
    // words of a command line, the sample paths put in
    let words = |line: &str| -> Vec<String> {
        line.split_whitespace()
            .map(|w| {
                paths
                    .iter()
                    .find(|(k, _)| *k == w)
                    .map_or(w.to_string(), |(_, p)| p.display().to_string())
            })
            .collect()
    };
    const FULLMESH: &str = "build fullmesh --switches 3 --hosts-per-switch 2 --out";
    ok(&words("build lsft --order 2 --out L2"));
    ok(&words("route L2 --out L2"));
    ok(&words(&format!("{FULLMESH} FM")));
    let mut out: Vec<(Vec<&'static str>, Vec<String>)> = [
        (vec!["build", "lsft"], "build lsft --order 2 --out OUT".to_string()),
        (
            vec!["build", "kary"],
            "build kary --arity 2 --levels 2 --out OUT".into(),
        ),
        (vec!["build", "mols"], "build mols --arity 3 --out OUT".into()),
        (
            vec!["build", "pgft"],
            "build pgft --down 2,2 --up 1,2 --parallel 1,1 --out OUT".into(),
        ),
        (vec!["build", "fullmesh"], format!("{FULLMESH} OUT")),
        (
            vec!["build", "twolevel"],
            "build twolevel --leaves 2 --hosts-per-leaf 2 --spines 2 --out OUT".into(),
        ),
        (vec!["metrics"], "metrics cost".into()),
        (vec!["metrics"], "metrics hops".into()),
        (vec!["route"], "route L2 --out OUT".into()),
        (vec!["plan-paths"], "plan-paths FM --direct-share 1 --out OUT".into()),
        (vec!["lfts", "validate"], "lfts validate L2 --lfts DUMP".into()),
        (vec!["lfts", "diff"], "lfts diff L2 DUMP DUMP".into()),
        (vec!["check", "multipath"], "check multipath FM".into()),
        (vec!["recognize"], "recognize NET".into()),
        (vec!["faults"], "faults L2 --cut 1 --out OUT".into()),
        (vec!["predict"], "predict L2 --job ranks:0-3 --msg-size 1K".into()),
    ]
    .into_iter()
    .map(|(path, line)| (path, words(&line)))
    .collect();
    for pattern in ["lsft", "lsft-partial", "random", "shift", "bcast-multilane"] {
        out.push((
            vec!["schedule"],
            words(&format!("schedule L2 --pattern {pattern} --out OUT")),
        ));
    }
    for pattern in ["shift", "random", "lsft-partial", "bisection"] {
        out.push((vec!["check"], words(&format!("check L2 --pattern {pattern}"))));
    }
    out
}

#[test]
fn every_numeric_option_at_its_extremes_is_answered_or_refused_within_bounds() {
    let t = tempfile::tempdir().unwrap();
    let scratch = t.path().join("scratch");
    std::fs::create_dir(&scratch).unwrap();
    let mut runs = 0;
    let mut swept = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for (path, base) in bases(t.path()) {
        let options = numeric_options(&path);
        assert!(
            !options.is_empty() || path == ["check", "multipath"] || path == ["recognize"] || path == ["lfts", "diff"],
            "{path:?}: no numeric option found in --help"
        );
        for (opt, value_name) in options {
            for value in values_for(&value_name) {
                runs += 1;
                let out = scratch.join(format!("out{runs}"));
                let mut args: Vec<String> = base
                    .iter()
                    .map(|a| {
                        if a == "OUT" {
                            out.to_str().unwrap().to_string()
                        } else {
                            a.clone()
                        }
                    })
                    .collect();
                // an option the base already gives is replaced, not repeated
                if let Some(i) = args.iter().position(|a| *a == opt) {
                    args.drain(i..i + 2);
                }
                args.push(format!("{opt}={value}"));
                let r = measured(&args, &scratch);
                swept.insert(format!("{} {opt}", path.join(" ")));
                let what = format!("ibfat {}", args.join(" "));
                match r.code {
                    Some(0 | 1) => {}
                    Some(2) => {
                        let field = opt[2..].replace('-', "_");
                        let named = [&opt[2..], field.as_str(), value.as_str()]
                            .iter()
                            .any(|w| r.stderr.contains(w));
                        if !named || r.stderr.contains("panicked") {
                            failures.push(format!("{what}: exit 2 without the option or value: {}", r.stderr));
                        }
                    }
                    code => failures.push(format!("{what}: exit {code:?}, signal {:?}: {}", r.signal, r.stderr)),
                }
                if r.cpu > MAX_CPU {
                    failures.push(format!("{what}: {:?} CPU", r.cpu));
                }
            }
        }
    }
    eprintln!("{runs} runs over {} options", swept.len());
    assert!(swept.len() >= 40, "only {} options swept: {swept:?}", swept.len());
    assert!(
        failures.is_empty(),
        "{} of {runs} runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
