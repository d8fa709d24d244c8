//! What the extreme-value sweeps share (`tests/cli/numeric_extremes.rs` for the CLI,
//! `ffi/tests/c_abi/bounded.rs` for the C ABI): the values every number is tried at, and the
//! reaping of a child with `wait4` for its exit status and CPU time (declared by path
//! beside the harness: it needs `libc`, which the plugin crate that includes the harness
//! does not have).

use std::time::{Duration, Instant};

/// The extremes a number taken from input is tried at, as a caller can write them.
pub const EXTREMES: [&str; 9] = [
    "0",
    "1",
    "2147483648",
    "4294967295",
    "18446744073709551615",
    "-1",
    "NaN",
    "inf",
    "1e308",
];

/// How a reaped child ended.
pub struct Reaped {
    /// Exit code; `None` when a signal ended it (an abort).
    pub code: Option<i32>,
    pub signal: Option<i32>,
    /// User + system CPU time.
    pub cpu: Duration,
}

/// Wait for child `pid` (polling, so that a hang is killed after a minute and named as
/// `what`) and reap it with `wait4`, which gives its own CPU time.
pub fn reap(pid: u32, what: &str) -> Reaped {
    let pid = pid as libc::pid_t;
    let start = Instant::now();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be overwritten
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: status and usage are locals valid for writes; pid is our child
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        assert_eq!(r, 0, "wait4: {}", std::io::Error::last_os_error());
        if start.elapsed() > Duration::from_secs(60) {
            // SAFETY: pid is our child, not yet reaped
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("{what}: ran over a minute");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Reaped {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
    }
}
