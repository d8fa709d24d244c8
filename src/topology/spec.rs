//! `fabric.yaml`: the spec a plan is rebuilt from. `ibfat build --spec fabric.yaml`
//! yields the identical fabric (same names, GUIDs, ports), so the spec is what goes in
//! version control next to a cluster's cabling.

use super::fullmesh::FullmeshParams;
use super::kary::KaryParams;
use super::lsft::LsftParams;
use super::mols::{MolsParams, WiringChoice};
use super::pgft::PgftParams;
use super::{BuildOptions, Layout, Speed, Topology, Width, DEFAULT_GUID_BASE};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The family and its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FamilySpec {
    /// Latin-square fat-tree LSFT(q) (`family: lsft`).
    Lsft(LsftParams),
    /// Standard k-ary n-tree (`family: kary`).
    Kary(KaryParams),
    /// Proximity 3-level tree (`family: mols`).
    Mols(MolsParams),
    /// Parallel-ports generalised fat-tree (`family: pgft`).
    Pgft(PgftParams),
    /// Full mesh of switches (`family: fullmesh`).
    Fullmesh(FullmeshParams),
}

/// A complete, validated fabric spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Which family and its parameters, already validated.
    pub family: FamilySpec,
    /// GUID base, port shuffle seed and cable width/speed: what makes the rebuild identical.
    pub options: BuildOptions,
}

/// Counts a spec file may pin; a rebuild that disagrees is an inconsistent spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Number of switch nodes the spec must build.
    pub switches: usize,
    /// Number of host ports (ranks) the spec must build.
    pub hosts: usize,
    /// Number of cables, switch-to-switch and host links together.
    pub cables: usize,
}

/// The YAML document as written to `fabric.yaml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecFile {
    family: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    order: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    two_sided: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hosts_per_leaf: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    io_per_leaf: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    arity: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    levels: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wiring: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    down: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    up: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    parallel: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    switches: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hosts_per_switch: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cables_per_pair: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    leaves: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    spines: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    links_per_pair: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    guid_base: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shuffle: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    link_width: Option<Width>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    link_speed: Option<Speed>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expect: Option<Expect>,
    /// Planes of a multi-rail plan ([`super::rails`]); absent = 1. `expect` counts one rail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rails: Option<u32>,
}

/// Largest fabric.yaml accepted (a spec is a dozen keys; the reader of spec files uses
/// the same bound).
pub const MAX_SPEC_BYTES: u64 = 1 << 20;

/// Deepest nesting a spec may have: it is a mapping of scalars with one nested mapping
/// (`expect`). Deeper text is refused before the YAML parser sees it, whose work grows
/// with the square of the nesting depth.
const MAX_YAML_DEPTH: usize = 8;

/// Refuse a spec text that is too large or nested too deeply to be a fabric spec, naming
/// the line (flow collections `[`/`{` and indentation both count as nesting).
fn check_yaml_shape(text: &str, path: &Path) -> Result<()> {
    let max = MAX_SPEC_BYTES;
    if text.len() as u64 > max {
        return Err(Error::at(
            path,
            0,
            format!(
                "size: the spec is {} bytes; valid: at most {max} bytes (a fabric spec is a dozen keys)",
                text.len()
            ),
        ));
    }
    // flow collections may span lines: their depth carries over
    let mut flow = 0usize;
    for (i, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        let mut quote = None;
        for c in line.chars() {
            match (quote, c) {
                (None, '#') => break,
                (None, '\'' | '"') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '[' | '{') => flow += 1,
                (None, ']' | '}') => flow = flow.saturating_sub(1),
                _ => {}
            }
            if flow > MAX_YAML_DEPTH {
                break;
            }
        }
        if flow > MAX_YAML_DEPTH || indent > 2 * MAX_YAML_DEPTH {
            return Err(Error::at(
                path,
                i + 1,
                format!("nesting: deeper than {MAX_YAML_DEPTH} levels; valid: a fabric spec is a flat mapping with one nested `expect` mapping"),
            ));
        }
    }
    Ok(())
}

/// Parse a GUID written as hex (`0x...`) or decimal.
pub fn parse_guid(s: &str) -> Option<u64> {
    crate::guid::hex_or_decimal(s.trim())
}

impl Spec {
    /// A spec with default build options.
    pub fn new(family: FamilySpec) -> Spec {
        Spec {
            family,
            options: BuildOptions::default(),
        }
    }

    /// Build the fabric, with its layout and this spec (as resolved) attached.
    pub fn build(&self) -> Result<Topology> {
        let (fabric, layout) = match &self.family {
            FamilySpec::Lsft(p) => super::lsft::build(p, &self.options)?,
            FamilySpec::Kary(p) => super::kary::build(p, &self.options)?,
            FamilySpec::Mols(p) => super::mols::build(p, &self.options)?,
            FamilySpec::Pgft(p) => super::pgft::build(p, &self.options)?,
            FamilySpec::Fullmesh(p) => super::fullmesh::build(p, &self.options)?,
        };
        // record what `auto` resolved to, so the spec file rebuilds exactly this fabric
        let mut spec = self.clone();
        if let (FamilySpec::Mols(p), Layout::Mols(l)) = (&mut spec.family, &layout) {
            p.wiring = l.wiring.to_string().parse().expect("a buildable wiring");
        }
        Ok(Topology {
            name: spec.short_name(),
            spec: Some(spec),
            fabric,
            layout,
        })
    }

    /// Short name: `lsft7`, `lsft2x2` (two-sided), `kary4x3`, `mols7-mols`.
    pub fn short_name(&self) -> String {
        match &self.family {
            FamilySpec::Lsft(p) => {
                format!("lsft{}{}", p.order, if p.two_sided { "x2" } else { "" })
            }
            FamilySpec::Kary(p) => format!("kary{}x{}", p.arity, p.levels),
            FamilySpec::Mols(p) => {
                let wiring = p
                    .resolve_wiring()
                    .map(|w| w.to_string())
                    .unwrap_or_else(|_| p.wiring.to_string());
                format!("mols{}-{wiring}", p.arity)
            }
            FamilySpec::Pgft(p) => {
                let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join("-");
                let h = p.levels as usize;
                format!(
                    "pgft{}_{}_{}",
                    list(&p.down[..h]),
                    list(&p.up[..h]),
                    list(&p.parallel[..h])
                )
            }
            FamilySpec::Fullmesh(p) => {
                let w = if p.cables_per_pair > 1 {
                    format!("w{}", p.cables_per_pair)
                } else {
                    String::new()
                };
                format!("fullmesh{}x{}{w}", p.switches, p.hosts_per_switch)
            }
        }
    }

    /// The spec as YAML, with the counts of `plan` pinned under `expect`.
    pub fn to_yaml(&self, plan: Option<&Topology>) -> String {
        let mut f = SpecFile {
            family: String::new(),
            order: None,
            two_sided: None,
            hosts_per_leaf: None,
            io_per_leaf: None,
            arity: None,
            levels: None,
            wiring: None,
            down: None,
            up: None,
            parallel: None,
            switches: None,
            hosts_per_switch: None,
            cables_per_pair: None,
            leaves: None,
            spines: None,
            links_per_pair: None,
            guid_base: Some(format!("0x{:016x}", self.options.guid_base)),
            shuffle: self.options.shuffle,
            link_width: Some(self.options.width),
            link_speed: Some(self.options.speed),
            expect: plan.map(|p| Expect {
                switches: p.fabric.switches().count(),
                hosts: p.layout.hosts().len(),
                cables: p.fabric.link_count(),
            }),
            rails: None,
        };
        match &self.family {
            FamilySpec::Lsft(p) => {
                f.family = "lsft".into();
                f.order = Some(p.order);
                f.two_sided = Some(p.two_sided);
                f.hosts_per_leaf = Some(p.hosts_per_leaf.unwrap_or(p.order + 1));
            }
            FamilySpec::Kary(p) => {
                f.family = "kary".into();
                f.arity = Some(p.arity);
                f.levels = Some(p.levels);
            }
            FamilySpec::Mols(p) => {
                f.family = "mols".into();
                f.arity = Some(p.arity);
                f.wiring = Some(p.wiring.to_string());
            }
            FamilySpec::Pgft(p) => {
                let h = p.levels as usize;
                f.family = "pgft".into();
                f.down = Some(p.down[..h].to_vec());
                f.up = Some(p.up[..h].to_vec());
                f.parallel = Some(p.parallel[..h].to_vec());
                f.hosts_per_leaf = Some(p.hosts_per_leaf.unwrap_or(p.down[0]));
                f.io_per_leaf = (p.io_per_leaf > 0).then_some(p.io_per_leaf);
            }
            FamilySpec::Fullmesh(p) => {
                f.family = "fullmesh".into();
                f.switches = Some(p.switches);
                f.hosts_per_switch = Some(p.hosts_per_switch);
                f.cables_per_pair = Some(p.cables_per_pair);
            }
        }
        let body = serde_yaml::to_string(&f).expect("a spec always serialises");
        format!(
            "# ibfat fabric spec: `ibfat build --spec fabric.yaml --out DIR` rebuilds this fabric\n\
             # exactly (names, GUIDs, ports). `expect` pins the counts; a spec edited into\n\
             # something else is rejected instead of silently building a different fabric.\n{body}"
        )
    }

    /// The `rails:` of a spec file (1 when absent): how many identical planes the plan
    /// has ([`super::rails::multi_rail`]). The spec itself describes one plane, so
    /// [`Spec::from_yaml`] ignores the key and [`Spec::build`] builds rail 0's plane.
    pub fn rails_from_yaml(text: &str, path: &Path) -> Result<u32> {
        check_yaml_shape(text, path)?;
        let file: SpecFile = serde_yaml::from_str(text).map_err(|e| {
            Error::at(
                path,
                e.location().map(|l| l.line()).unwrap_or(0),
                format!("malformed fabric spec: {e}"),
            )
        })?;
        let rails = file.rails.unwrap_or(1);
        if !(1..=super::rails::MAX_RAILS).contains(&rails) {
            let line = text
                .lines()
                .position(|l| l.trim_start().starts_with("rails:"))
                .map_or(0, |i| i + 1);
            return Err(Error::at(path, line, format!("rails: {rails} is out of range"))
                .with_hint(format!("a plan has 1..={} rails", super::rails::MAX_RAILS)));
        }
        Ok(rails)
    }

    /// [`Spec::to_yaml`] for a plan of `rails` planes: the same text with `rails: R`
    /// appended when R > 1 (a single-rail spec is unchanged).
    pub fn to_yaml_rails(&self, plan: Option<&Topology>, rails: u32) -> String {
        let mut s = self.to_yaml(plan);
        if rails > 1 {
            s.push_str(&format!("rails: {rails}\n"));
        }
        s
    }

    /// Parse and validate a spec file's text; errors carry `path` and the line.
    pub fn from_yaml(text: &str, path: &Path) -> Result<Spec> {
        check_yaml_shape(text, path)?;
        let file: SpecFile = serde_yaml::from_str(text).map_err(|e| {
            let line = e.location().map(|l| l.line()).unwrap_or(0);
            Error::at(path, line, format!("malformed fabric spec: {e}"))
                .with_hint("keys: family, order, two_sided, hosts_per_leaf, arity, levels, wiring, down, up, parallel, leaves, spines, links_per_pair, switches, hosts_per_switch, cables_per_pair, guid_base, shuffle, link_width, link_speed, expect, rails")
        })?;
        let line_of = |key: &str| {
            text.lines()
                .position(|l| l.trim_start().starts_with(&format!("{key}:")))
                .map(|i| i + 1)
                .unwrap_or(0)
        };
        let field_err = |key: &str, e: Error| match e {
            Error::Input(mut ie) => {
                ie.location = Some(crate::error::Location {
                    file: path.to_path_buf(),
                    line: line_of(key),
                });
                ie.field = Some(key.to_string());
                Error::Input(ie)
            }
            other => other,
        };
        let forbid = |key: &str, present: bool, family: &str| -> Result<()> {
            if present {
                Err(Error::at(
                    path,
                    line_of(key),
                    format!("{key}: does not apply to family {family}"),
                ))
            } else {
                Ok(())
            }
        };
        let need = |key: &str, v: Option<u32>| -> Result<u32> {
            v.ok_or_else(|| Error::at(path, 0, format!("{key}: missing; family {} needs it", file.family)))
        };
        if file.family != "fullmesh" {
            let mesh_keys = [
                ("switches", file.switches.is_some()),
                ("hosts_per_switch", file.hosts_per_switch.is_some()),
                ("cables_per_pair", file.cables_per_pair.is_some()),
            ];
            for (key, present) in mesh_keys {
                forbid(key, present, &file.family)?;
            }
        }
        if file.family != "twolevel" {
            forbid("leaves", file.leaves.is_some(), &file.family)?;
            forbid("spines", file.spines.is_some(), &file.family)?;
            forbid("links_per_pair", file.links_per_pair.is_some(), &file.family)?;
        }
        let family = match file.family.as_str() {
            "fullmesh" => {
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
                    forbid(key, present, "fullmesh")?;
                }
                let p = FullmeshParams {
                    switches: need("switches", file.switches)?,
                    hosts_per_switch: need("hosts_per_switch", file.hosts_per_switch)?,
                    cables_per_pair: file.cables_per_pair.unwrap_or(1),
                };
                p.validate().map_err(|e| {
                    let key = ["hosts_per_switch", "cables_per_pair"]
                        .into_iter()
                        .find(|k| e.to_string().starts_with(&format!("{k}:")))
                        .unwrap_or("switches");
                    field_err(key, e)
                })?;
                FamilySpec::Fullmesh(p)
            }
            "lsft" => {
                forbid("down", file.down.is_some(), "lsft")?;
                forbid("up", file.up.is_some(), "lsft")?;
                forbid("parallel", file.parallel.is_some(), "lsft")?;
                forbid("arity", file.arity.is_some(), "lsft")?;
                forbid("levels", file.levels.is_some(), "lsft")?;
                forbid("wiring", file.wiring.is_some(), "lsft")?;
                forbid("io_per_leaf", file.io_per_leaf.is_some(), "lsft")?;
                let p = LsftParams {
                    order: need("order", file.order)?,
                    two_sided: file.two_sided.unwrap_or(false),
                    hosts_per_leaf: file.hosts_per_leaf,
                };
                p.validate().map_err(|e| {
                    let key = if e.to_string().starts_with("hosts_per_leaf") {
                        "hosts_per_leaf"
                    } else {
                        "order"
                    };
                    field_err(key, e)
                })?;
                FamilySpec::Lsft(p)
            }
            "kary" => {
                forbid("down", file.down.is_some(), "kary")?;
                forbid("up", file.up.is_some(), "kary")?;
                forbid("parallel", file.parallel.is_some(), "kary")?;
                forbid("order", file.order.is_some(), "kary")?;
                forbid("two_sided", file.two_sided.is_some(), "kary")?;
                forbid("hosts_per_leaf", file.hosts_per_leaf.is_some(), "kary")?;
                forbid("wiring", file.wiring.is_some(), "kary")?;
                forbid("io_per_leaf", file.io_per_leaf.is_some(), "kary")?;
                let p = KaryParams {
                    arity: need("arity", file.arity)?,
                    levels: need("levels", file.levels)?,
                };
                p.validate().map_err(|e| {
                    let key = if e.to_string().starts_with("levels") {
                        "levels"
                    } else {
                        "arity"
                    };
                    field_err(key, e)
                })?;
                FamilySpec::Kary(p)
            }
            "mols" => {
                forbid("down", file.down.is_some(), "mols")?;
                forbid("up", file.up.is_some(), "mols")?;
                forbid("parallel", file.parallel.is_some(), "mols")?;
                forbid("order", file.order.is_some(), "mols")?;
                forbid("two_sided", file.two_sided.is_some(), "mols")?;
                forbid("hosts_per_leaf", file.hosts_per_leaf.is_some(), "mols")?;
                forbid("levels", file.levels.is_some(), "mols")?;
                forbid("io_per_leaf", file.io_per_leaf.is_some(), "mols")?;
                let wiring: WiringChoice = match &file.wiring {
                    Some(w) => w.parse().map_err(|e| field_err("wiring", e))?,
                    None => WiringChoice::Auto,
                };
                let p = MolsParams {
                    arity: need("arity", file.arity)?,
                    wiring,
                };
                p.resolve_wiring().map_err(|e| {
                    let key = if e.to_string().starts_with("wiring") {
                        "wiring"
                    } else {
                        "arity"
                    };
                    field_err(key, e)
                })?;
                FamilySpec::Mols(p)
            }
            "pgft" => {
                for key in ["order", "two_sided", "arity", "levels", "wiring"] {
                    let present = match key {
                        "order" => file.order.is_some(),
                        "two_sided" => file.two_sided.is_some(),
                        "arity" => file.arity.is_some(),
                        "levels" => file.levels.is_some(),
                        _ => file.wiring.is_some(),
                    };
                    forbid(key, present, "pgft")?;
                }
                let list = |key: &str, v: &Option<Vec<u32>>| -> Result<Vec<u32>> {
                    v.clone().ok_or_else(|| {
                        Error::at(
                            path,
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
                        field_err(key, e)
                    })?;
                FamilySpec::Pgft(p)
            }
            "twolevel" => {
                // the 2-level PGFT spelled in the seed's terms (topology::twolevel); it
                // builds, and is written back as, family pgft
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
                    forbid(key, present, "twolevel")?;
                }
                let t = super::twolevel::TwolevelParams {
                    leaves: need("leaves", file.leaves)?,
                    hosts_per_leaf: need("hosts_per_leaf", file.hosts_per_leaf)?,
                    spines: need("spines", file.spines)?,
                    links_per_pair: file.links_per_pair.unwrap_or(1),
                };
                let p = t.pgft().map_err(|e| {
                    let key = ["hosts_per_leaf", "spines", "links_per_pair"]
                        .into_iter()
                        .find(|k| e.to_string().starts_with(&format!("{k}:")))
                        .unwrap_or("leaves");
                    field_err(key, e)
                })?;
                FamilySpec::Pgft(p)
            }
            other => {
                return Err(
                    Error::at(path, line_of("family"), format!("family: unknown family `{other}`"))
                        .with_hint("one of lsft, kary, mols, pgft, twolevel, fullmesh"),
                )
            }
        };
        let guid_base = match &file.guid_base {
            None => DEFAULT_GUID_BASE,
            Some(s) => parse_guid(s).ok_or_else(|| {
                Error::at(path, line_of("guid_base"), format!("guid_base: `{s}` is not a GUID"))
                    .with_hint("write it as 0x followed by 16 hex digits")
            })?,
        };
        if guid_base > super::MAX_GUID_BASE {
            return Err(Error::at(
                path,
                line_of("guid_base"),
                format!(
                    "guid_base: 0x{guid_base:016x} is out of range: the plan's GUIDs would wrap past 0xffffffffffffffff; valid 0x0..=0x{:016x}",
                    super::MAX_GUID_BASE
                ),
            ));
        }
        let options = BuildOptions {
            guid_base,
            shuffle: file.shuffle,
            width: file.link_width.unwrap_or_default(),
            speed: file.link_speed.unwrap_or_default(),
        };
        let spec = Spec { family, options };
        if let Some(expect) = file.expect {
            let plan = spec.build()?;
            let got = Expect {
                switches: plan.fabric.switches().count(),
                hosts: plan.layout.hosts().len(),
                cables: plan.fabric.link_count(),
            };
            if got != expect {
                return Err(Error::at(
                    path,
                    line_of("expect"),
                    format!(
                        "expect: the spec builds {} switches, {} hosts, {} cables but pins {} switches, {} hosts, {} cables",
                        got.switches, got.hosts, got.cables, expect.switches, expect.hosts, expect.cables
                    ),
                )
                .with_hint("the parameters and the pinned counts disagree; fix one of them"));
            }
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Spec> {
        Spec::from_yaml(s, Path::new("fabric.yaml"))
    }

    #[test]
    fn round_trips_with_expect() {
        for fam in [
            FamilySpec::Lsft(LsftParams {
                order: 3,
                two_sided: true,
                hosts_per_leaf: Some(2),
            }),
            FamilySpec::Kary(KaryParams { arity: 3, levels: 3 }),
            FamilySpec::Mols(MolsParams {
                arity: 4,
                wiring: WiringChoice::Auto,
            }),
            FamilySpec::Pgft(PgftParams::from_lists(&[6, 3, 2], &[1, 3, 6], &[1, 2, 1], Some(5)).unwrap()),
            FamilySpec::Fullmesh(FullmeshParams {
                switches: 5,
                hosts_per_switch: 3,
                cables_per_pair: 2,
            }),
        ] {
            let mut spec = Spec::new(fam);
            spec.options.shuffle = Some(5);
            let plan = spec.build().unwrap();
            let yaml = plan.spec.as_ref().unwrap().to_yaml(Some(&plan));
            let again = parse(&yaml).unwrap();
            assert_eq!(again, plan.spec.clone().unwrap(), "{yaml}");
            assert_eq!(again.build().unwrap().fabric, plan.fabric);
        }
    }

    #[test]
    fn errors_name_file_line_and_field() {
        let e = parse("family: lsft\norder: 6\n").unwrap_err().to_string();
        assert!(e.starts_with("fabric.yaml:2: order: 6 is not a prime power"), "{e}");
        let e = parse("family: lsft\norder: 3\nhosts_per_leaf: 9\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("fabric.yaml:3: hosts_per_leaf:"), "{e}");
        let e = parse("family: kary\narity: 1\nlevels: 3\n").unwrap_err().to_string();
        assert!(e.starts_with("fabric.yaml:2: arity:"), "{e}");
        let e = parse("family: lsft\norder: 3\nlevels: 2\n").unwrap_err().to_string();
        assert!(
            e.contains("fabric.yaml:3: levels: does not apply to family lsft"),
            "{e}"
        );
        let e = parse("family: lsft\norder: 3\nexpect: {switches: 26, hosts: 52, cables: 1}\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("fabric.yaml:3: expect:"), "{e}");
        let e = parse("family: [lsft\n").unwrap_err().to_string();
        assert!(e.starts_with("fabric.yaml:"), "{e}");
        let e = parse("family: lsft\norder: 3\ncolour: red\n").unwrap_err().to_string();
        assert!(e.contains("unknown field `colour`"), "{e}");
        let e = parse("family: ring\n").unwrap_err().to_string();
        assert!(e.contains("unknown family `ring`"), "{e}");
        let e = parse("family: pgft\ndown: [4, 4]\nup: [1, 2]\nparallel: [1]\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("fabric.yaml:4: parallel: 1 values for 2 levels"), "{e}");
        let e = parse("family: pgft\ndown: [4, 4]\nup: [1, 2]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("parallel: missing"), "{e}");
        let e = parse("family: pgft\ndown: [4, 4]\nup: [1, 2]\nparallel: [1, 2]\nlevels: 2\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("fabric.yaml:5: levels: does not apply to family pgft"),
            "{e}"
        );
        let e = parse("family: kary\narity: 2\nlevels: 2\ndown: [2]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("fabric.yaml:4: down: does not apply to family kary"), "{e}");
        let e = parse("family: fullmesh\nswitches: 2\nhosts_per_switch: 4\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("fabric.yaml:2: switches: 2 is out of range"), "{e}");
        let e = parse("family: fullmesh\nswitches: 4\nhosts_per_switch: 0\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("fabric.yaml:3: hosts_per_switch:"), "{e}");
        let e = parse("family: lsft\norder: 3\nswitches: 4\n").unwrap_err().to_string();
        assert!(
            e.contains("fabric.yaml:3: switches: does not apply to family lsft"),
            "{e}"
        );
    }
}
