//! Validating the keys of a parsed `fabric.yaml` ([`super::Spec::from_yaml`]): which
//! keys each family takes, its parameters, the build options and the pinned counts, with
//! errors that name the file, the line and the key.

use super::{parse_guid, Expect, FamilySpec, Spec, SpecFile};
use crate::error::{Error, Result};
use crate::families::fullmesh::model::FullmeshParams;
use crate::families::kary::model::KaryParams;
use crate::families::lsft::model::LsftParams;
use crate::families::mols::model::{MolsParams, WiringChoice};
use crate::families::pgft::model::PgftParams;
use crate::families::railopt::model::plan::RailoptParams;
use crate::families::{names, Family};
use crate::topology::{BuildOptions, DEFAULT_GUID_BASE};
use std::path::Path;

/// A parsed spec file with its text and path, for validating its keys with errors that
/// name the file, the key's line and the key.
pub(super) struct SpecKeys<'a> {
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

    /// A validation error `e` placed at `key`'s line and naming the field.
    fn field_err(&self, key: &str, e: Error) -> Error {
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
    fn need(&self, key: &str, v: Option<u32>) -> Result<u32> {
        v.ok_or_else(|| {
            Error::at(
                self.path,
                0,
                format!("{key}: missing; family {} needs it", self.file.family),
            )
        })
    }

    /// Refuse the keys only the full mesh or only the two-level tree have, in any other
    /// family (before the family itself is looked at).
    pub(super) fn forbid_foreign_keys(&self) -> Result<()> {
        let file = self.file;
        if file.family != "fullmesh" {
            let mesh_keys = [
                ("switches", file.switches.is_some()),
                ("hosts_per_switch", file.hosts_per_switch.is_some()),
                ("cables_per_pair", file.cables_per_pair.is_some()),
            ];
            for (key, present) in mesh_keys {
                self.forbid(key, present, &file.family)?;
            }
        }
        if file.family != "twolevel" {
            self.forbid("leaves", file.leaves.is_some(), &file.family)?;
            self.forbid("links_per_pair", file.links_per_pair.is_some(), &file.family)?;
        }
        if file.family != "twolevel" && file.family != "railopt" {
            self.forbid("spines", file.spines.is_some(), &file.family)?;
        }
        if file.family != "railopt" {
            self.forbid("sus", file.sus.is_some(), &file.family)?;
            self.forbid("servers_per_su", file.servers_per_su.is_some(), &file.family)?;
            self.forbid("radix", file.radix.is_some(), &file.family)?;
        }
        Ok(())
    }

    /// The family named by `family:` with its parameters, validated.
    pub(super) fn family(&self) -> Result<FamilySpec> {
        match self.file.family.parse::<Family>() {
            Ok(Family::Fullmesh) => self.fullmesh(),
            Ok(Family::Lsft) => self.lsft(),
            Ok(Family::Kary) => self.kary(),
            Ok(Family::Mols) => self.mols(),
            Ok(Family::Pgft) => self.pgft(),
            Ok(Family::Twolevel) => self.twolevel(),
            Ok(Family::Railopt) => self.railopt(),
            Ok(Family::Tree) | Err(_) => {
                let what = match self.file.family.as_str() {
                    "tree" => "family: tree is a fabric as it is found; it has no spec to build".to_string(),
                    other => format!("family: unknown family `{other}`"),
                };
                Err(Error::at(self.path, self.line_of("family"), what)
                    .with_hint(format!("one of {}", names(|e| e.builds))))
            }
        }
    }

    /// `family: fullmesh`.
    fn fullmesh(&self) -> Result<FamilySpec> {
        let file = self.file;
        let keys = [
            ("order", file.order.is_some()),
            ("two_sided", file.two_sided.is_some()),
            ("hosts_per_leaf", file.hosts_per_leaf.is_some()),
            ("io_per_leaf", file.io_per_leaf.is_some()),
            ("arity", file.arity.is_some()),
            ("levels", file.levels.is_some()),
            ("wiring", file.wiring.is_some()),
            ("down", file.down.is_some()),
            ("up", file.up.is_some()),
            ("parallel", file.parallel.is_some()),
        ];
        for (key, present) in keys {
            self.forbid(key, present, "fullmesh")?;
        }
        let p = FullmeshParams {
            switches: self.need("switches", file.switches)?,
            hosts_per_switch: self.need("hosts_per_switch", file.hosts_per_switch)?,
            cables_per_pair: file.cables_per_pair.unwrap_or(1),
        };
        p.validate().map_err(|e| {
            let key = ["hosts_per_switch", "cables_per_pair"]
                .into_iter()
                .find(|k| e.to_string().starts_with(&format!("{k}:")))
                .unwrap_or("switches");
            self.field_err(key, e)
        })?;
        Ok(FamilySpec::Fullmesh(p))
    }

    /// `family: lsft`.
    fn lsft(&self) -> Result<FamilySpec> {
        let file = self.file;
        self.forbid("down", file.down.is_some(), "lsft")?;
        self.forbid("up", file.up.is_some(), "lsft")?;
        self.forbid("parallel", file.parallel.is_some(), "lsft")?;
        self.forbid("arity", file.arity.is_some(), "lsft")?;
        self.forbid("levels", file.levels.is_some(), "lsft")?;
        self.forbid("wiring", file.wiring.is_some(), "lsft")?;
        self.forbid("io_per_leaf", file.io_per_leaf.is_some(), "lsft")?;
        let p = LsftParams {
            order: self.need("order", file.order)?,
            two_sided: file.two_sided.unwrap_or(false),
            hosts_per_leaf: file.hosts_per_leaf,
        };
        p.validate().map_err(|e| {
            let key = if e.to_string().starts_with("hosts_per_leaf") {
                "hosts_per_leaf"
            } else {
                "order"
            };
            self.field_err(key, e)
        })?;
        Ok(FamilySpec::Lsft(p))
    }

    /// `family: kary`.
    fn kary(&self) -> Result<FamilySpec> {
        let file = self.file;
        self.forbid("down", file.down.is_some(), "kary")?;
        self.forbid("up", file.up.is_some(), "kary")?;
        self.forbid("parallel", file.parallel.is_some(), "kary")?;
        self.forbid("order", file.order.is_some(), "kary")?;
        self.forbid("two_sided", file.two_sided.is_some(), "kary")?;
        self.forbid("hosts_per_leaf", file.hosts_per_leaf.is_some(), "kary")?;
        self.forbid("wiring", file.wiring.is_some(), "kary")?;
        self.forbid("io_per_leaf", file.io_per_leaf.is_some(), "kary")?;
        let p = KaryParams {
            arity: self.need("arity", file.arity)?,
            levels: self.need("levels", file.levels)?,
        };
        p.validate().map_err(|e| {
            let key = if e.to_string().starts_with("levels") {
                "levels"
            } else {
                "arity"
            };
            self.field_err(key, e)
        })?;
        Ok(FamilySpec::Kary(p))
    }

    /// `family: mols`.
    fn mols(&self) -> Result<FamilySpec> {
        let file = self.file;
        self.forbid("down", file.down.is_some(), "mols")?;
        self.forbid("up", file.up.is_some(), "mols")?;
        self.forbid("parallel", file.parallel.is_some(), "mols")?;
        self.forbid("order", file.order.is_some(), "mols")?;
        self.forbid("two_sided", file.two_sided.is_some(), "mols")?;
        self.forbid("hosts_per_leaf", file.hosts_per_leaf.is_some(), "mols")?;
        self.forbid("levels", file.levels.is_some(), "mols")?;
        self.forbid("io_per_leaf", file.io_per_leaf.is_some(), "mols")?;
        let wiring: WiringChoice = match &file.wiring {
            Some(w) => w.parse().map_err(|e| self.field_err("wiring", e))?,
            None => WiringChoice::Auto,
        };
        let p = MolsParams {
            arity: self.need("arity", file.arity)?,
            wiring,
        };
        p.resolve_wiring().map_err(|e| {
            let key = if e.to_string().starts_with("wiring") {
                "wiring"
            } else {
                "arity"
            };
            self.field_err(key, e)
        })?;
        Ok(FamilySpec::Mols(p))
    }

    /// `family: pgft`: the three per-level lists.
    fn pgft(&self) -> Result<FamilySpec> {
        let file = self.file;
        for key in ["order", "two_sided", "arity", "levels", "wiring"] {
            let present = match key {
                "order" => file.order.is_some(),
                "two_sided" => file.two_sided.is_some(),
                "arity" => file.arity.is_some(),
                "levels" => file.levels.is_some(),
                _ => file.wiring.is_some(),
            };
            self.forbid(key, present, "pgft")?;
        }
        let list = |key: &str, v: &Option<Vec<u32>>| -> Result<Vec<u32>> {
            v.clone().ok_or_else(|| {
                Error::at(
                    self.path,
                    0,
                    format!("{key}: missing; family pgft needs it (one value per level)"),
                )
            })
        };
        let (down, up, parallel) = (
            list("down", &file.down)?,
            list("up", &file.up)?,
            list("parallel", &file.parallel)?,
        );
        let p = PgftParams::from_lists(&down, &up, &parallel, file.hosts_per_leaf)
            .and_then(|p| p.with_io_per_leaf(file.io_per_leaf.unwrap_or(0)))
            .map_err(|e| {
                let key = ["up", "parallel", "hosts_per_leaf", "io_per_leaf", "levels"]
                    .into_iter()
                    .find(|k| e.to_string().starts_with(&format!("{k}:")))
                    .unwrap_or("down");
                self.field_err(key, e)
            })?;
        Ok(FamilySpec::Pgft(p))
    }

    /// `family: twolevel`: the 2-level PGFT spelled in the seed's terms
    /// (topology::twolevel); it builds, and is written back as, family pgft.
    fn twolevel(&self) -> Result<FamilySpec> {
        let file = self.file;
        for (key, present) in [
            ("order", file.order.is_some()),
            ("two_sided", file.two_sided.is_some()),
            ("arity", file.arity.is_some()),
            ("levels", file.levels.is_some()),
            ("wiring", file.wiring.is_some()),
            ("down", file.down.is_some()),
            ("up", file.up.is_some()),
            ("parallel", file.parallel.is_some()),
            ("io_per_leaf", file.io_per_leaf.is_some()),
        ] {
            self.forbid(key, present, "twolevel")?;
        }
        let t = crate::families::twolevel::model::TwolevelParams {
            leaves: self.need("leaves", file.leaves)?,
            hosts_per_leaf: self.need("hosts_per_leaf", file.hosts_per_leaf)?,
            spines: self.need("spines", file.spines)?,
            links_per_pair: file.links_per_pair.unwrap_or(1),
        };
        let p = t.pgft().map_err(|e| {
            let key = ["hosts_per_leaf", "spines", "links_per_pair"]
                .into_iter()
                .find(|k| e.to_string().starts_with(&format!("{k}:")))
                .unwrap_or("leaves");
            self.field_err(key, e)
        })?;
        Ok(FamilySpec::Pgft(p))
    }

    /// `family: railopt`: a rail-optimised GPU cluster (topology::railopt::plan), built
    /// and routed as the PGFT it is.
    fn railopt(&self) -> Result<FamilySpec> {
        let file = self.file;
        for (key, present) in [
            ("order", file.order.is_some()),
            ("two_sided", file.two_sided.is_some()),
            ("hosts_per_leaf", file.hosts_per_leaf.is_some()),
            ("io_per_leaf", file.io_per_leaf.is_some()),
            ("arity", file.arity.is_some()),
            ("wiring", file.wiring.is_some()),
            ("down", file.down.is_some()),
            ("up", file.up.is_some()),
            ("parallel", file.parallel.is_some()),
        ] {
            self.forbid(key, present, "railopt")?;
        }
        let d = RailoptParams::default();
        let p = RailoptParams {
            sus: self.need("sus", file.sus)?,
            servers_per_su: file.servers_per_su.unwrap_or(d.servers_per_su),
            rails: file.rails.unwrap_or(d.rails),
            levels: file.levels.unwrap_or(d.levels),
            spines: file.spines,
            radix: file.radix.unwrap_or(d.radix),
        };
        p.validate().map_err(|e| {
            let key = ["servers_per_su", "rails", "levels", "spines", "radix"]
                .into_iter()
                .find(|k| e.to_string().starts_with(&format!("{k}:")))
                .unwrap_or("sus");
            self.field_err(key, e)
        })?;
        Ok(FamilySpec::Railopt(p))
    }

    /// The build options: GUID base (checked to leave room for the plan's GUIDs),
    /// shuffle seed, link width and speed.
    pub(super) fn options(&self) -> Result<BuildOptions> {
        let file = self.file;
        let guid_base = match &file.guid_base {
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
            shuffle: file.shuffle,
            width: file.link_width.unwrap_or_default(),
            speed: file.link_speed.unwrap_or_default(),
        })
    }

    /// Build `spec` and compare with the counts `expect:` pins, when it pins any.
    pub(super) fn check_expect(&self, spec: &Spec) -> Result<()> {
        let Some(expect) = self.file.expect else {
            return Ok(());
        };
        let plan = spec.build()?;
        let got = Expect {
            switches: plan.fabric.switches().count(),
            hosts: plan.layout.hosts().len(),
            cables: plan.fabric.link_count(),
        };
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
