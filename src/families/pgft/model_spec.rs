//! The PGFT in `fabric.yaml`: its keys (`down`, `up`, `parallel`, `hosts_per_leaf`,
//! `io_per_leaf`), read and written, its builder and its plan's short name
//! ([`FamilyParams`], [`FamilyKeys`]).

use super::model::PgftParams;
use crate::error::Error;
use crate::error::Result;
use crate::topology::spec::{value, FamilyKeys, FamilyParams, FamilySpec, Key, KeyType, SpecKeys};
use crate::topology::{BuildOptions, Fabric, Layout};
use serde_yaml::Value;

impl FamilyParams for PgftParams {
    fn build(&self, options: &BuildOptions) -> Result<(Fabric, Layout)> {
        super::model::build(self, options)
    }

    fn short_name(&self) -> String {
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join("-");
        let h = self.levels as usize;
        format!(
            "pgft{}_{}_{}",
            list(&self.down[..h]),
            list(&self.up[..h]),
            list(&self.parallel[..h])
        )
    }

    fn keys(&self) -> Vec<(&'static str, Value)> {
        let h = self.levels as usize;
        let mut keys = vec![("hosts_per_leaf", value(self.hosts_per_leaf.unwrap_or(self.down[0])))];
        if self.io_per_leaf > 0 {
            keys.push(("io_per_leaf", value(self.io_per_leaf)));
        }
        keys.push(("down", value(&self.down[..h])));
        keys.push(("up", value(&self.up[..h])));
        keys.push(("parallel", value(&self.parallel[..h])));
        keys
    }
}

impl FamilyKeys for PgftParams {
    const KEYS: &'static [Key] = &[
        ("hosts_per_leaf", KeyType::U32),
        ("io_per_leaf", KeyType::U32),
        ("down", KeyType::List),
        ("up", KeyType::List),
        ("parallel", KeyType::List),
    ];

    /// The three per-level lists.
    fn read(keys: &SpecKeys) -> Result<FamilySpec> {
        let list = |key: &str| -> Result<Vec<u32>> {
            keys.get(key).ok_or_else(|| keys.missing(key, " (one value per level)"))
        };
        let (down, up, parallel) = (list("down")?, list("up")?, list("parallel")?);
        let p = PgftParams::from_lists(&down, &up, &parallel, keys.get("hosts_per_leaf"))
            .and_then(|p| p.with_io_per_leaf(keys.get("io_per_leaf").unwrap_or(0)))
            .map_err(|e: Error| {
                keys.invalid(
                    e,
                    &["up", "parallel", "hosts_per_leaf", "io_per_leaf", "levels"],
                    "down",
                )
            })?;
        Ok(FamilySpec::Pgft(p))
    }
}
