//! The LSFT in `fabric.yaml`: its keys (`order`, `two_sided`, `hosts_per_leaf`), read and
//! written, its builder and its plan's short name ([`FamilyParams`], [`FamilyKeys`]).

use super::model::LsftParams;
use crate::error::Result;
use crate::topology::spec::{value, FamilyKeys, FamilyParams, FamilySpec, Key, KeyType, SpecKeys};
use crate::topology::{BuildOptions, Fabric, Layout};
use serde_yaml::Value;

impl FamilyParams for LsftParams {
    fn build(&self, options: &BuildOptions) -> Result<(Fabric, Layout)> {
        super::model::build(self, options)
    }

    fn short_name(&self) -> String {
        format!("lsft{}{}", self.order, if self.two_sided { "x2" } else { "" })
    }

    fn keys(&self) -> Vec<(&'static str, Value)> {
        vec![
            ("order", value(self.order)),
            ("two_sided", value(self.two_sided)),
            ("hosts_per_leaf", value(self.hosts_per_leaf.unwrap_or(self.order + 1))),
        ]
    }
}

impl FamilyKeys for LsftParams {
    const KEYS: &'static [Key] = &[
        ("order", KeyType::U32),
        ("two_sided", KeyType::Bool),
        ("hosts_per_leaf", KeyType::U32),
    ];

    fn read(keys: &SpecKeys) -> Result<FamilySpec> {
        let p = LsftParams {
            order: keys.need("order")?,
            two_sided: keys.get("two_sided").unwrap_or(false),
            hosts_per_leaf: keys.get("hosts_per_leaf"),
        };
        p.validate()
            .map_err(|e| keys.invalid(e, &["hosts_per_leaf"], "order"))?;
        Ok(FamilySpec::Lsft(p))
    }
}
