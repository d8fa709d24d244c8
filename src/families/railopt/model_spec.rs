//! The rail-optimised cluster in `fabric.yaml`: its keys (`sus`, `servers_per_su`,
//! `rails` as HCAs per server, `levels`, `spines`, `radix`), read and written, its builder
//! (the PGFT it is) and its plan's short name ([`FamilyParams`], [`FamilyKeys`]).

use super::model::plan::RailoptParams;
use crate::error::Result;
use crate::topology::spec::{value, FamilyKeys, FamilyParams, FamilySpec, Key, KeyType, SpecKeys};
use crate::topology::{BuildOptions, Fabric, Layout};
use serde_yaml::Value;

impl FamilyParams for RailoptParams {
    fn build(&self, options: &BuildOptions) -> Result<(Fabric, Layout)> {
        super::model::plan::build(self, options)
    }

    fn short_name(&self) -> String {
        RailoptParams::short_name(self)
    }

    fn keys(&self) -> Vec<(&'static str, Value)> {
        let mut keys = vec![("levels", value(self.levels))];
        if let Some(spines) = self.spines {
            keys.push(("spines", value(spines)));
        }
        keys.extend([
            ("sus", value(self.sus)),
            ("servers_per_su", value(self.servers_per_su)),
            ("radix", value(self.radix)),
            ("rails", value(self.rails)),
        ]);
        keys
    }
}

impl FamilyKeys for RailoptParams {
    const KEYS: &'static [Key] = &[
        ("sus", KeyType::U32),
        ("servers_per_su", KeyType::U32),
        ("rails", KeyType::U32),
        ("levels", KeyType::U32),
        ("spines", KeyType::U32),
        ("radix", KeyType::U32),
    ];

    /// Built and routed as the PGFT it is; `rails` here are HCAs per server (one plane).
    fn read(keys: &SpecKeys) -> Result<FamilySpec> {
        let d = RailoptParams::default();
        let p = RailoptParams {
            sus: keys.need("sus")?,
            servers_per_su: keys.get("servers_per_su").unwrap_or(d.servers_per_su),
            rails: keys.get("rails").unwrap_or(d.rails),
            levels: keys.get("levels").unwrap_or(d.levels),
            spines: keys.get("spines"),
            radix: keys.get("radix").unwrap_or(d.radix),
        };
        p.validate()
            .map_err(|e| keys.invalid(e, &["servers_per_su", "rails", "levels", "spines", "radix"], "sus"))?;
        Ok(FamilySpec::Railopt(p))
    }
}
