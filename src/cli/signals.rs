//! Interrupted runs clean up after themselves: on SIGINT, SIGTERM or SIGHUP every
//! temporary file or folder still being written is removed and a running Graphviz is
//! killed ([`ibfat::formats::cleanup`]), then ibfat exits with 128 + the signal number
//! (130, 143, 129), as a shell reports a process the signal killed.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// Start the watcher thread. Without it (the handler could not be installed) signals
/// keep their default action: the run still stops, only its temporary files stay.
pub fn install() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            ibfat::formats::cleanup::abandon();
            std::process::exit(128 + sig);
        }
    });
}
