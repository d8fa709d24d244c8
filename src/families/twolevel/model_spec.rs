//! The two-level tree in `fabric.yaml`: its keys (`leaves`, `hosts_per_leaf`, `spines`,
//! `links_per_pair`), read into the 2-level PGFT it spells ([`FamilyKeys`]); it is built,
//! and written back, as family pgft.

use super::model::TwolevelParams;
use crate::error::Result;
use crate::topology::spec::{FamilyKeys, FamilySpec, Key, KeyType, SpecKeys};

impl FamilyKeys for TwolevelParams {
    const KEYS: &'static [Key] = &[
        ("leaves", KeyType::U32),
        ("hosts_per_leaf", KeyType::U32),
        ("spines", KeyType::U32),
        ("links_per_pair", KeyType::U32),
    ];

    fn read(keys: &SpecKeys) -> Result<FamilySpec> {
        let t = TwolevelParams {
            leaves: keys.need("leaves")?,
            hosts_per_leaf: keys.need("hosts_per_leaf")?,
            spines: keys.need("spines")?,
            links_per_pair: keys.get("links_per_pair").unwrap_or(1),
        };
        let p = t
            .pgft()
            .map_err(|e| keys.invalid(e, &["hosts_per_leaf", "spines", "links_per_pair"], "leaves"))?;
        Ok(FamilySpec::Pgft(p))
    }
}
