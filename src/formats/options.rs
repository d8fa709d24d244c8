//! `key=value` option lists: the one syntax of the C ABI's schedule options and the OpenSM
//! plugin's `event_plugin_options`, so both read the same text the same way and report
//! mistakes alike.
//!
//! Pairs are separated by commas, semicolons or whitespace (`seed=3,phases=8`,
//! `family=lsft schedule_out=/tmp/s.json`); empty items are ignored, so an empty text
//! is an empty list. There is no quoting: a value runs to the next separator. Each caller
//! declares its keys ([`Key`]); an unknown key, a key given twice, an item without `=` or
//! an empty value is an error that lists the valid keys, and the value errors a caller
//! raises through [`Setting`] name the key, the value and what the key takes.

use crate::error::{Error, InputError, Result};
use std::str::FromStr;

/// A key a caller accepts: `id` is what the caller matches on, `expects` describes the
/// values it takes so that every message about it can say so.
#[derive(Clone, Copy, Debug)]
pub struct Key<K> {
    /// The caller's name for the key (usually an enum variant), returned in [`Setting::id`].
    pub id: K,
    /// The key as written in the text.
    pub name: &'static str,
    /// The values it takes, for messages: "an integer from 0 to 4294967295", "a path".
    pub expects: &'static str,
}

/// One `key=value` pair of the text, for a key the caller declared.
#[derive(Clone, Copy, Debug)]
pub struct Setting<'t, K> {
    /// The caller's id of the key.
    pub id: K,
    /// The key as written.
    pub name: &'static str,
    /// The value: the text after `=`, never empty.
    pub value: &'t str,
    expects: &'static str,
}

impl<K> Setting<'_, K> {
    /// An error about this value: names the key and the value, says `why` and what the key
    /// takes.
    pub(crate) fn invalid(&self, why: impl Into<String>) -> Error {
        Error::input(
            format!("option {}={}", self.name, self.value),
            why,
            Some(format!("{} takes {}", self.name, self.expects)),
        )
    }

    /// The value as a number of type `T`; out of `T`'s range is an error, never a
    /// truncation.
    pub fn number<T: FromStr>(&self) -> Result<T> {
        self.value
            .parse()
            .map_err(|_| self.invalid(format!("`{}` is not {}", self.value, self.expects)))
    }

    /// The value as a switch: `1`, `yes`, `true` or `0`, `no`, `false`.
    pub fn flag(&self) -> Result<bool> {
        match self.value {
            "1" | "yes" | "true" => Ok(true),
            "0" | "no" | "false" => Ok(false),
            v => Err(self.invalid(format!("`{v}` is not 0 or 1"))),
        }
    }

    /// The value read by `read` (a parser of the library, e.g. a pattern name). Its input
    /// errors are restated for this option so that they name the key and the value; errors
    /// that name a file, and I/O errors, pass through unchanged.
    pub fn read<T>(&self, read: impl FnOnce(&str) -> Result<T>) -> Result<T> {
        read(self.value).map_err(|e| match e {
            Error::Input(inner) if inner.location.is_none() => {
                let InputError { message, hint, .. } = *inner;
                let e = self.invalid(message);
                match hint {
                    Some(h) => e.with_hint(h),
                    None => e,
                }
            }
            other => other,
        })
    }
}

/// Split `text` into the settings of the declared `keys`, in the order written.
pub fn parse<'t, K: Copy>(text: &'t str, keys: &[Key<K>]) -> Result<Vec<Setting<'t, K>>> {
    let valid = || {
        let names: Vec<&str> = keys.iter().map(|k| k.name).collect();
        format!("valid keys: {}", names.join(", "))
    };
    let mut seen = vec![false; keys.len()];
    let mut out = Vec::new();
    let items = text
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|t| !t.is_empty());
    for item in items {
        let Some((name, value)) = item.split_once('=') else {
            return Err(bare(format!("option `{item}` is not key=value"), valid()));
        };
        let Some(i) = keys.iter().position(|k| k.name == name) else {
            return Err(bare(format!("unknown option `{name}`"), valid()));
        };
        if std::mem::replace(&mut seen[i], true) {
            return Err(bare(format!("option `{name}` is given twice"), valid()));
        }
        let key = &keys[i];
        if value.is_empty() {
            return Err(Error::input(
                format!("option {name}="),
                "the value is missing",
                Some(format!("{name} takes {}", key.expects)),
            ));
        }
        out.push(Setting {
            id: key.id,
            name: key.name,
            value,
            expects: key.expects,
        });
    }
    Ok(out)
}

/// An input error about the option text as a whole (no single field).
fn bare(message: String, hint: String) -> Error {
    Error::Input(Box::new(InputError {
        location: None,
        field: None,
        message,
        hint: Some(hint),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum K {
        Seed,
        Path,
        On,
    }

    const KEYS: &[Key<K>] = &[
        Key {
            id: K::Seed,
            name: "seed",
            expects: "an integer from 0 to 255",
        },
        Key {
            id: K::Path,
            name: "path",
            expects: "a path",
        },
        Key {
            id: K::On,
            name: "on",
            expects: "0 or 1",
        },
    ];

    fn pairs(text: &str) -> Vec<(K, &str)> {
        parse(text, KEYS).unwrap().iter().map(|s| (s.id, s.value)).collect()
    }

    fn err(text: &str) -> String {
        parse(text, KEYS).unwrap_err().to_string()
    }

    #[test]
    fn empty_text_is_no_settings() {
        assert!(pairs("").is_empty());
        assert!(pairs(" ,; \t\n,").is_empty());
    }

    #[test]
    fn commas_semicolons_and_blanks_separate() {
        assert_eq!(
            pairs("seed=3, path=/tmp/a.json;on=1"),
            vec![(K::Seed, "3"), (K::Path, "/tmp/a.json"), (K::On, "1")]
        );
        assert_eq!(pairs("  path=x \n seed=7 "), vec![(K::Path, "x"), (K::Seed, "7")]);
    }

    #[test]
    fn a_value_may_hold_an_equals_sign_and_quotes_are_plain_text() {
        assert_eq!(pairs("path=a=b"), vec![(K::Path, "a=b")]);
        assert_eq!(pairs("path=\"x\""), vec![(K::Path, "\"x\"")]);
    }

    #[test]
    fn duplicates_are_errors_naming_the_key() {
        let e = err("seed=1,on=1,seed=2");
        assert!(e.contains("option `seed` is given twice"), "{e}");
        assert!(e.contains("valid keys: seed, path, on"), "{e}");
    }

    #[test]
    fn unknown_keys_are_errors_listing_the_valid_ones() {
        let e = err("colour=red");
        assert_eq!(e, "unknown option `colour` (hint: valid keys: seed, path, on)");
    }

    #[test]
    fn an_item_without_equals_sign_is_an_error() {
        let e = err("seed=1 path");
        assert_eq!(e, "option `path` is not key=value (hint: valid keys: seed, path, on)");
        assert!(err("seed = 1").contains("option `seed` is not key=value"));
    }

    #[test]
    fn an_empty_value_is_an_error_naming_what_the_key_takes() {
        assert_eq!(
            err("path="),
            "option path=: the value is missing (hint: path takes a path)"
        );
    }

    #[test]
    fn value_errors_name_key_value_and_range() {
        let s = parse("seed=256,on=2", KEYS).unwrap();
        assert_eq!(
            s[0].number::<u8>().unwrap_err().to_string(),
            "option seed=256: `256` is not an integer from 0 to 255 (hint: seed takes an integer from 0 to 255)"
        );
        assert_eq!(
            s[1].flag().unwrap_err().to_string(),
            "option on=2: `2` is not 0 or 1 (hint: on takes 0 or 1)"
        );
        let s = parse("seed=9,on=yes", KEYS).unwrap();
        assert_eq!(s[0].number::<u8>().unwrap(), 9);
        assert!(s[1].flag().unwrap());
    }

    #[test]
    fn errors_of_a_value_reader_are_restated_for_the_option() {
        let s = parse("path=nope", KEYS).unwrap();
        let e = s[0]
            .read(|v| -> Result<()> {
                Err(Error::input(
                    "path",
                    format!("unknown thing `{v}`"),
                    Some("a or b".into()),
                ))
            })
            .unwrap_err();
        assert_eq!(e.to_string(), "option path=nope: unknown thing `nope` (hint: a or b)");
        assert!(e.is_input());
        let e = s[0]
            .read(|_| -> Result<()> { Err(Error::at("job.txt", 3, "bad host")) })
            .unwrap_err();
        assert_eq!(e.to_string(), "job.txt:3: bad host");
        let e = s[0]
            .read(|_| -> Result<()> { Err(Error::io("cannot read x", std::io::ErrorKind::NotFound.into())) })
            .unwrap_err();
        assert!(!e.is_input());
    }
}
