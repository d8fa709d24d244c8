//! The proximity tree in `fabric.yaml`: its keys (`arity`, `wiring`), read and written, its
//! builder and its plan's short name ([`FamilyParams`], [`FamilyKeys`]).

use super::model::{MolsParams, WiringChoice};
use crate::error::Result;
use crate::topology::spec::{value, FamilyKeys, FamilyParams, FamilySpec, Key, KeyType, SpecKeys};
use crate::topology::{BuildOptions, Fabric, Layout};
use serde_yaml::Value;

impl FamilyParams for MolsParams {
    fn build(&self, options: &BuildOptions) -> Result<(Fabric, Layout)> {
        super::model::build(self, options)
    }

    fn short_name(&self) -> String {
        let wiring = self
            .resolve_wiring()
            .map(|w| w.to_string())
            .unwrap_or_else(|_| self.wiring.to_string());
        format!("mols{}-{wiring}", self.arity)
    }

    fn keys(&self) -> Vec<(&'static str, Value)> {
        vec![("arity", value(self.arity)), ("wiring", value(self.wiring.to_string()))]
    }

    /// `wiring: auto` is written as the wiring it chose.
    fn settle(&mut self, layout: &Layout) {
        if let Layout::Mols(l) = layout {
            self.wiring = l.wiring.to_string().parse().expect("a buildable wiring");
        }
    }
}

impl FamilyKeys for MolsParams {
    const KEYS: &'static [Key] = &[("arity", KeyType::U32), ("wiring", KeyType::Text)];

    fn read(keys: &SpecKeys) -> Result<FamilySpec> {
        let wiring: WiringChoice = match keys.get::<String>("wiring") {
            Some(w) => w.parse().map_err(|e| keys.field_err("wiring", e))?,
            None => WiringChoice::Auto,
        };
        let p = MolsParams {
            arity: keys.need("arity")?,
            wiring,
        };
        p.resolve_wiring().map_err(|e| keys.invalid(e, &["wiring"], "arity"))?;
        Ok(FamilySpec::Mols(p))
    }
}
