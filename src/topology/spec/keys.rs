//! Validating the keys of a parsed `fabric.yaml` ([`super::Spec::from_yaml`]): the
//! family (whose own keys its folder reads, [`super::FamilyKeys`]), the keys that do not
//! apply to it, the build options and the pinned counts, with errors that name the file,
//! the line and the key.

use super::file::{is_generic, reader};
use super::{parse_guid, Expect, FamilySpec, Spec, SpecFile};
use crate::error::{Error, Result};
use crate::families::{names, Family};
use crate::topology::{BuildOptions, Speed, Width, DEFAULT_GUID_BASE};
use serde::de::DeserializeOwned;
use std::path::Path;

/// A parsed spec file with its text and path, for validating its keys with errors that
/// name the file, the key's line and the key. A family reads its own keys through it.
pub(crate) struct SpecKeys<'a> {
    pub(super) file: &'a SpecFile,
    pub(super) text: &'a str,
    pub(super) path: &'a Path,
}

impl SpecKeys<'_> {
    /// The line `key:` is on (1-based), or 0 when the key is absent.
    fn line_of(&self, key: &str) -> usize {
        self.text
            .lines()
            .position(|l| l.trim_start().starts_with(&format!("{key}:")))
            .map(|i| i + 1)
            .unwrap_or(0)
    }

    /// A family's validation error `e` placed at the line of the key it names (its
    /// field) when that is one of `named`, else at `otherwise`'s.
    pub(crate) fn invalid(&self, e: Error, named: &[&'static str], otherwise: &'static str) -> Error {
        let field = match &e {
            Error::Input(ie) => ie.field.as_deref(),
            _ => None,
        };
        let key = named.iter().copied().find(|&k| field == Some(k)).unwrap_or(otherwise);
        self.field_err(key, e)
    }

    /// A validation error `e` placed at `key`'s line and naming the field.
    pub(crate) fn field_err(&self, key: &str, e: Error) -> Error {
        match e {
            Error::Input(mut ie) => {
                ie.location = Some(crate::error::Location {
                    file: self.path.to_path_buf(),
                    line: self.line_of(key),
                });
                ie.field = Some(key.to_string());
                Error::Input(ie)
            }
            other => other,
        }
    }

    /// Refuse a key that is `present` but means nothing to `family`.
    fn forbid(&self, key: &str, present: bool, family: &str) -> Result<()> {
        if present {
            Err(Error::at(
                self.path,
                self.line_of(key),
                format!("{key}: does not apply to family {family}"),
            ))
        } else {
            Ok(())
        }
    }

    /// The value of a key the family cannot do without.
    pub(crate) fn need(&self, key: &str) -> Result<u32> {
        self.get(key).ok_or_else(|| self.missing(key, ""))
    }

    /// The value of the family's key `key`, when present (a key of its [`super::FamilyKeys::KEYS`]).
    pub(crate) fn get<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        self.file.get(key)
    }

    /// A key the family needs is absent; `note` says more (`" (one value per level)"`).
    pub(crate) fn missing(&self, key: &str, note: &str) -> Error {
        Error::at(
            self.path,
            0,
            format!("{key}: missing; family {} needs it{note}", self.file.family),
        )
    }

    /// The family named by `family:` with its parameters, read by its folder and
    /// validated, after the keys that do not apply to it are refused.
    pub(super) fn family(&self) -> Result<FamilySpec> {
        let family = self.file.family.parse::<Family>().ok();
        let Some(reader) = family.and_then(reader) else {
            let what = match family {
                Some(f) => format!("family: {f} is a fabric as it is found; it has no spec to build"),
                None => format!("family: unknown family `{}`", self.file.family),
            };
            return Err(
                Error::at(self.path, self.line_of("family"), what).with_hint(format!("one of {}", names(|e| e.builds)))
            );
        };
        for (key, _) in &self.file.values {
            let present = !is_generic(key) && !reader.keys.iter().any(|(k, _)| k == key);
            self.forbid(key, present, &self.file.family)?;
        }
        (reader.read)(self)
    }

    /// The build options: GUID base (checked to leave room for the plan's GUIDs),
    /// shuffle seed, link width and speed.
    pub(super) fn options(&self) -> Result<BuildOptions> {
        let file = self.file;
        let guid_base = match &file.get::<String>("guid_base") {
            None => DEFAULT_GUID_BASE,
            Some(s) => parse_guid(s).ok_or_else(|| {
                Error::at(
                    self.path,
                    self.line_of("guid_base"),
                    format!("guid_base: `{s}` is not a GUID"),
                )
                .with_hint("write it as 0x followed by 16 hex digits")
            })?,
        };
        if guid_base > crate::topology::MAX_GUID_BASE {
            return Err(Error::at(
                self.path,
                self.line_of("guid_base"),
                format!(
                    "guid_base: 0x{guid_base:016x} is out of range: the plan's GUIDs would wrap past 0xffffffffffffffff; valid 0x0..=0x{:016x}",
                    crate::topology::MAX_GUID_BASE
                ),
            ));
        }
        Ok(BuildOptions {
            guid_base,
            shuffle: file.get("shuffle"),
            width: file.get::<Width>("link_width").unwrap_or_default(),
            speed: file.get::<Speed>("link_speed").unwrap_or_default(),
        })
    }

    /// Build `spec` and compare with the counts `expect:` pins, when it pins any.
    pub(super) fn check_expect(&self, spec: &Spec) -> Result<()> {
        let Some(expect) = self.file.get::<Expect>("expect") else {
            return Ok(());
        };
        let got = Expect::of(&spec.build()?);
        if got != expect {
            return Err(Error::at(
                self.path,
                self.line_of("expect"),
                format!(
                    "expect: the spec builds {} switches, {} hosts, {} cables but pins {} switches, {} hosts, {} cables",
                    got.switches, got.hosts, got.cables, expect.switches, expect.hosts, expect.cables
                ),
            )
            .with_hint("the parameters and the pinned counts disagree; fix one of them"));
        }
        Ok(())
    }
}
