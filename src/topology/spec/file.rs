//! `fabric.yaml` as read, before any family looks at it: `family:` and every other key
//! with its value checked against the key's type. The keys are the generic ones plus
//! every built family's own ([`super::FamilyKeys::KEYS`], from the registry), so a new
//! family's keys are read without a line here; a key no family takes is refused with the
//! full list, as a derived struct would.

use super::{value, Expect, FamilyKeys, FamilySpec, SpecKeys};
use crate::error;
use crate::families::Family;
use crate::topology::{Speed, Width};
use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_yaml::Value;
use std::fmt;
use std::sync::OnceLock;

/// The type of a key's value; a value of another type is a malformed spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeyType {
    /// A count or size.
    U32,
    /// A seed.
    U64,
    /// A switch (`true`/`false`).
    Bool,
    /// A word (`wiring: auto`, a GUID).
    Text,
    /// One count per level (`down: [4, 4]`).
    List,
    /// A link width (`4x`).
    Width,
    /// A link speed (`QDR`).
    Speed,
    /// The pinned counts.
    Expect,
}

/// One key of `fabric.yaml` and its value's type.
pub(crate) type Key = (&'static str, KeyType);

/// The keys every family takes (`rails` is the planes of a multi-rail plan, unless the
/// family takes it as a key of its own).
const GENERIC: &[Key] = &[
    ("guid_base", KeyType::Text),
    ("shuffle", KeyType::U64),
    ("link_width", KeyType::Width),
    ("link_speed", KeyType::Speed),
    ("expect", KeyType::Expect),
    ("rails", KeyType::U32),
];

/// A built family's own keys and how it reads them ([`FamilyKeys`]).
pub(super) struct Reader {
    pub(super) keys: &'static [Key],
    pub(super) read: fn(&SpecKeys) -> error::Result<FamilySpec>,
}

macro_rules! make_readers {
    ($(build $variant:ident: $folder:ident,)*) => {
        /// Every family `ibfat build` makes, with its reader.
        const READERS: &[(Family, Reader)] = &[$((
            Family::$variant,
            Reader {
                keys: <crate::families::$folder::Params as FamilyKeys>::KEYS,
                read: <crate::families::$folder::Params as FamilyKeys>::read,
            },
        ),)*];
    };
}
crate::families::for_each_build!(make_readers);

/// The reader of `family`, when `ibfat build` makes it.
pub(super) fn reader(family: Family) -> Option<&'static Reader> {
    READERS.iter().find(|(f, _)| *f == family).map(|(_, r)| r)
}

/// The own keys of every built family, registry order.
fn family_keys() -> impl Iterator<Item = &'static Key> {
    READERS.iter().flat_map(|(_, r)| r.keys.iter())
}

/// True for a key every family takes.
pub(super) fn is_generic(key: &str) -> bool {
    GENERIC.iter().any(|(k, _)| *k == key)
}

/// True when the family named `family` takes `key` as a key of its own.
pub(super) fn takes(family: &str, key: &str) -> bool {
    let own = family.parse().ok().and_then(reader).map_or(&[][..], |r| r.keys);
    own.iter().any(|(k, _)| *k == key)
}

/// Every key a spec may have: `family`, the families' own keys (registry order, each
/// once), the generic keys.
pub(super) fn all_keys() -> &'static [&'static str] {
    static ALL: OnceLock<Vec<&'static str>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = vec!["family"];
        for (key, _) in family_keys() {
            if !all.contains(key) && !is_generic(key) {
                all.push(key);
            }
        }
        all.extend(GENERIC.iter().map(|(k, _)| *k));
        all
    })
}

/// The type of a known key (generic first; a key shared by families has one type, a
/// test checks).
fn key_type(key: &str) -> KeyType {
    GENERIC
        .iter()
        .chain(family_keys())
        .find(|(k, _)| *k == key)
        .map_or(KeyType::Text, |&(_, t)| t)
}

/// A parsed spec file: the family's name and the other keys present (a `~` value counts
/// as absent), in file order.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SpecFile {
    pub(super) family: String,
    pub(super) values: Vec<(&'static str, Value)>,
}

impl SpecFile {
    /// The value of `key`, when present.
    pub(super) fn get<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        let (_, v) = self.values.iter().find(|(k, _)| *k == key)?;
        Some(serde_yaml::from_value(v.clone()).expect("a value read as its key's type"))
    }
}

impl<'de> Deserialize<'de> for SpecFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SpecFile, D::Error> {
        d.deserialize_struct("SpecFile", all_keys(), FileVisitor)
    }
}

/// Reads the mapping key by key, as a derived struct with optional fields would.
struct FileVisitor;

impl<'de> Visitor<'de> for FileVisitor {
    type Value = SpecFile;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("struct SpecFile")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SpecFile, A::Error> {
        let mut family = None;
        let mut seen: Vec<&'static str> = Vec::new();
        let mut values = Vec::new();
        while let Some(key) = map.next_key_seed(KeyName)? {
            if seen.contains(&key) {
                return Err(de::Error::duplicate_field(key));
            }
            seen.push(key);
            if key == "family" {
                family = Some(map.next_value::<String>()?);
            } else if let Some(v) = read_value(&mut map, key_type(key))? {
                values.push((key, v));
            }
        }
        let family = family.ok_or_else(|| de::Error::missing_field("family"))?;
        Ok(SpecFile { family, values })
    }
}

/// The next value, read as `ty` (`None` for `~`).
fn read_value<'de, A: MapAccess<'de>>(map: &mut A, ty: KeyType) -> Result<Option<Value>, A::Error> {
    Ok(match ty {
        KeyType::U32 => map.next_value::<Option<u32>>()?.map(value),
        KeyType::U64 => map.next_value::<Option<u64>>()?.map(value),
        KeyType::Bool => map.next_value::<Option<bool>>()?.map(value),
        KeyType::Text => map.next_value::<Option<String>>()?.map(value),
        KeyType::List => map.next_value::<Option<Vec<u32>>>()?.map(value),
        KeyType::Width => map.next_value::<Option<Width>>()?.map(value),
        KeyType::Speed => map.next_value::<Option<Speed>>()?.map(value),
        KeyType::Expect => map.next_value::<Option<Expect>>()?.map(value),
    })
}

/// A key of the mapping: one of [`all_keys`], or an unknown field.
struct KeyName;

impl<'de> DeserializeSeed<'de> for KeyName {
    type Value = &'static str;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<&'static str, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for KeyName {
    type Value = &'static str;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<&'static str, E> {
        let all = all_keys();
        all.iter()
            .find(|k| **k == v)
            .copied()
            .ok_or_else(|| E::unknown_field(v, all))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_shared_by_families_has_one_type() {
        for (key, ty) in family_keys() {
            assert_eq!(key_type(key), *ty, "{key}");
        }
        assert_eq!(
            all_keys().len(),
            all_keys().iter().collect::<std::collections::BTreeSet<_>>().len()
        );
    }
}
