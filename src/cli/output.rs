//! Shared output helpers: every report line goes through [`write_report`] (the `outln!`
//! macro), JSON on stdout, progress bars only on terminals.
//!
//! A report piped into `head` meets a closed pipe; Rust's `println!` would panic there.
//! Here a closed standard output ends the process quietly with the status a shell gives
//! a process killed by SIGPIPE (141), like coreutils; any other write failure is an
//! environment error (exit 3). When a command streams its data to standard output
//! (`--out -`), the report goes to standard error so that the two never mix.

use ibfat::{Error, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status for a closed standard output: 128 + SIGPIPE, as a shell reports it.
pub const CLOSED_PIPE: i32 = 141;

static REPORT_TO_STDERR: AtomicBool = AtomicBool::new(false);
static QUIET: AtomicBool = AtomicBool::new(false);
static VERBOSE: AtomicBool = AtomicBool::new(false);

/// Set `-q` / `-v` for the whole run.
pub fn set_verbosity(quiet: bool, verbose: bool) {
    QUIET.store(quiet, Ordering::SeqCst);
    VERBOSE.store(verbose && !quiet, Ordering::SeqCst);
}

/// Whether `-v` was given.
pub fn verbose() -> bool {
    VERBOSE.load(Ordering::SeqCst)
}

/// A note or warning on standard error (`ibfat: note: ...`), unless `-q`. Errors are not
/// notes: they always print.
pub fn note(kind: &str, msg: std::fmt::Arguments<'_>) {
    if !QUIET.load(Ordering::SeqCst) {
        let _ = writeln!(std::io::stderr(), "ibfat: {kind}: {msg}");
    }
}

/// A line for `-v` on standard error (`ibfat: ...`).
pub fn detail(msg: std::fmt::Arguments<'_>) {
    if verbose() {
        let _ = writeln!(std::io::stderr(), "ibfat: {msg}");
    }
}

/// With `-v`: what a TOPOLOGY argument turned out to be.
pub fn loaded(l: &ibfat::load::Loaded) {
    if verbose() {
        let family = match l.model.layout() {
            Some(layout) => layout.describe(),
            None => "family not recognised".into(),
        };
        detail(format_args!(
            "read {} ({}): {} switches, {} hosts; {family}",
            ibfat::formats::input::display(&l.path),
            l.source.describe(),
            l.fabric().switches().count(),
            l.fabric().cas().count()
        ));
    }
}

/// Print a report line (`println!` that survives a closed pipe); see [`write_report`].
macro_rules! outln {
    () => {
        $crate::cli::output::write_report(format_args!("\n"))
    };
    ($($t:tt)*) => {
        $crate::cli::output::write_report(format_args!("{}\n", format_args!($($t)*)))
    };
}

/// Note that `path` (an output argument) may be `-`: then standard output carries data
/// and the report moves to standard error.
pub fn data_output(path: Option<&Path>) {
    if path.is_some_and(ibfat::formats::outpath::is_dash) {
        REPORT_TO_STDERR.store(true, Ordering::SeqCst);
    }
}

/// Write report text to standard output (or standard error, see [`data_output`]); a
/// closed pipe ends the process quietly, see the module documentation.
pub fn write_report(args: std::fmt::Arguments<'_>) {
    if REPORT_TO_STDERR.load(Ordering::SeqCst) {
        let _ = std::io::stderr().lock().write_fmt(args);
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|_| out.flush()) {
        stdout_failed(&e);
    }
}

/// Whether an error is a write to a closed pipe (the reader went away).
pub fn is_closed_pipe(e: &Error) -> bool {
    matches!(e, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Standard output failed: exit quietly on a closed pipe, else with a message (exit 3).
fn stdout_failed(e: &std::io::Error) -> ! {
    ibfat::formats::cleanup::abandon();
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(CLOSED_PIPE);
    }
    let _ = writeln!(std::io::stderr(), "ibfat: error: cannot write to standard output: {e}");
    std::process::exit(3);
}

/// Print a value as pretty JSON on stdout, as it is (a shard carries its own schema).
pub fn print_raw_json<T: Serialize>(v: &T) -> Result<()> {
    let s = serde_json::to_string_pretty(v).map_err(|e| Error::Tool(format!("cannot encode JSON: {e}")))?;
    outln!("{s}");
    Ok(())
}

/// The version of every `--json` report's layout (`"schema": "ibfat.<report>/1"`); bumped
/// for a report whose existing fields change meaning or disappear (docs/json.md).
const REPORT_VERSION: u32 = 1;

/// A report with its schema name first.
#[derive(Serialize)]
struct Versioned<'a, T: Serialize> {
    schema: String,
    #[serde(flatten)]
    body: &'a T,
}

/// Print a `--json` report: an object whose first key is `"schema": "ibfat.<report>/1"`
/// followed by the report's fields (docs/json.md documents each report).
pub fn print_json<T: Serialize>(report: &str, v: &T) -> Result<()> {
    print_json_version(report, REPORT_VERSION, v)
}

/// [`print_json`] for a report in a later version of its layout (a rate-weighted check,
/// `ibfat.check/2`, whose ratio and congestion mean weighted ones).
pub fn print_json_version<T: Serialize>(report: &str, version: u32, v: &T) -> Result<()> {
    print_raw_json(&Versioned {
        schema: format!("ibfat.{report}/{version}"),
        body: v,
    })
}

/// A spinner with a message on stderr for a step of unknown length (Graphviz), hidden
/// when stderr is not a terminal or with `-q`.
pub fn spinner(what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() || QUIET.load(Ordering::SeqCst) {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new_spinner();
    pb.set_message(what.to_string());
    pb.enable_steady_tick(std::time::Duration::from_millis(120));
    pb
}

/// A progress bar on stderr when it is a terminal, hidden otherwise (scripts, CI, `-q`).
pub fn progress(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() || QUIET.load(Ordering::SeqCst) {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{msg:>12} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    pb.set_message(what.to_string());
    pb
}
