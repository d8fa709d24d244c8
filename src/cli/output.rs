//! Shared output helpers: JSON on stdout, progress bars only on terminals.

use ibfat::{Error, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::IsTerminal;

/// Print a value as pretty JSON on stdout.
pub fn print_json<T: Serialize>(v: &T) -> Result<()> {
    let s = serde_json::to_string_pretty(v).map_err(|e| Error::Tool(format!("cannot encode JSON: {e}")))?;
    println!("{s}");
    Ok(())
}

/// A progress bar on stderr when it is a terminal, hidden otherwise (scripts, CI).
pub fn progress(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
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
