//! Reading the OpenSM benches' settings from the environment.

use std::str::FromStr;

/// A variable of the environment, or `default` when unset; a value that does not parse
/// stops the bench with its name.
pub fn env_or<T: FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(s) => s.parse().unwrap_or_else(|_| panic!("{name}={s}: not a valid value")),
        Err(_) => default,
    }
}
