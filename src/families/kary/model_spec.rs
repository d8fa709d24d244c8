//! The k-ary n-tree in `fabric.yaml`: its keys (`arity`, `levels`), read and written, its
//! builder and its plan's short name ([`FamilyParams`], [`FamilyKeys`]).

use super::model::KaryParams;
use crate::error::Result;
use crate::topology::spec::{value, FamilyKeys, FamilyParams, FamilySpec, Key, KeyType, SpecKeys};
use crate::topology::{BuildOptions, Fabric, Layout};
use serde_yaml::Value;

impl FamilyParams for KaryParams {
    fn build(&self, options: &BuildOptions) -> Result<(Fabric, Layout)> {
        super::model::build(self, options)
    }

    fn short_name(&self) -> String {
        format!("kary{}x{}", self.arity, self.levels)
    }

    fn keys(&self) -> Vec<(&'static str, Value)> {
        vec![("arity", value(self.arity)), ("levels", value(self.levels))]
    }
}

impl FamilyKeys for KaryParams {
    const KEYS: &'static [Key] = &[("arity", KeyType::U32), ("levels", KeyType::U32)];

    fn read(keys: &SpecKeys) -> Result<FamilySpec> {
        let p = KaryParams {
            arity: keys.need("arity")?,
            levels: keys.need("levels")?,
        };
        p.validate().map_err(|e| keys.invalid(e, &["levels"], "arity"))?;
        Ok(FamilySpec::Kary(p))
    }
}
