//! The full mesh in `fabric.yaml`: its keys (`switches`, `hosts_per_switch`,
//! `cables_per_pair`), read and written, its builder and its plan's short name
//! ([`FamilyParams`], [`FamilyKeys`]).

use super::model::FullmeshParams;
use crate::error::Result;
use crate::topology::spec::{value, FamilyKeys, FamilyParams, FamilySpec, Key, KeyType, SpecKeys};
use crate::topology::{BuildOptions, Fabric, Layout};
use serde_yaml::Value;

impl FamilyParams for FullmeshParams {
    fn build(&self, options: &BuildOptions) -> Result<(Fabric, Layout)> {
        super::model::build(self, options)
    }

    fn short_name(&self) -> String {
        let w = if self.cables_per_pair > 1 {
            format!("w{}", self.cables_per_pair)
        } else {
            String::new()
        };
        format!("fullmesh{}x{}{w}", self.switches, self.hosts_per_switch)
    }

    fn keys(&self) -> Vec<(&'static str, Value)> {
        vec![
            ("switches", value(self.switches)),
            ("hosts_per_switch", value(self.hosts_per_switch)),
            ("cables_per_pair", value(self.cables_per_pair)),
        ]
    }
}

impl FamilyKeys for FullmeshParams {
    const KEYS: &'static [Key] = &[
        ("switches", KeyType::U32),
        ("hosts_per_switch", KeyType::U32),
        ("cables_per_pair", KeyType::U32),
    ];

    fn read(keys: &SpecKeys) -> Result<FamilySpec> {
        let p = FullmeshParams {
            switches: keys.need("switches")?,
            hosts_per_switch: keys.need("hosts_per_switch")?,
            cables_per_pair: keys.get("cables_per_pair").unwrap_or(1),
        };
        p.validate()
            .map_err(|e| keys.invalid(e, &["hosts_per_switch", "cables_per_pair"], "switches"))?;
        Ok(FamilySpec::Fullmesh(p))
    }
}
