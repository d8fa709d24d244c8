//! `fabric.yaml`: the spec a plan is rebuilt from. `ibfat build --spec fabric.yaml`
//! yields the identical fabric (same names, GUIDs, ports), so the spec is what goes in
//! version control next to a cluster's cabling.

use super::fullmesh::FullmeshParams;
use super::kary::KaryParams;
use super::lsft::LsftParams;
use super::mols::MolsParams;
use super::pgft::PgftParams;
use super::railopt::plan::RailoptParams;
use super::{BuildOptions, Layout, Speed, Topology, Width};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

mod keys;
use keys::SpecKeys;

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
    /// Rail-optimised GPU cluster, built as a PGFT (`family: railopt`).
    Railopt(RailoptParams),
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
pub(crate) struct Expect {
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
    sus: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    servers_per_su: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    radix: Option<u32>,
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
    /// Planes of a multi-rail plan ([`super::rails`]); absent = 1. `expect` counts one
    /// rail. In `family: railopt` it is the HCAs per server instead (one plane).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rails: Option<u32>,
}

/// Largest fabric.yaml accepted (a spec is a dozen keys; the reader of spec files uses
/// the same bound).
pub(crate) const MAX_SPEC_BYTES: u64 = 1 << 20;

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
            FamilySpec::Railopt(p) => super::railopt::plan::build(p, &self.options)?,
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
            FamilySpec::Railopt(p) => p.short_name(),
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
            sus: None,
            servers_per_su: None,
            radix: None,
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
            FamilySpec::Railopt(p) => {
                f.family = "railopt".into();
                f.sus = Some(p.sus);
                f.servers_per_su = Some(p.servers_per_su);
                f.rails = Some(p.rails);
                f.levels = Some(p.levels);
                f.spines = p.spines;
                f.radix = Some(p.radix);
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
        if file.family == "railopt" {
            return Ok(1); // its `rails` are HCAs per server, in one plane
        }
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
    pub(crate) fn to_yaml_rails(&self, plan: Option<&Topology>, rails: u32) -> String {
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
                .with_hint("keys: family, order, two_sided, hosts_per_leaf, arity, levels, wiring, down, up, parallel, leaves, spines, links_per_pair, switches, hosts_per_switch, sus, servers_per_su, radix, cables_per_pair, guid_base, shuffle, link_width, link_speed, expect, rails")
        })?;
        let keys = SpecKeys {
            file: &file,
            text,
            path,
        };
        keys.forbid_foreign_keys()?;
        let family = keys.family()?;
        let options = keys.options()?;
        let spec = Spec { family, options };
        keys.check_expect(&spec)?;
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::mols::model::WiringChoice;

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
            FamilySpec::Railopt(RailoptParams {
                sus: 2,
                servers_per_su: 5,
                rails: 4,
                levels: 2,
                spines: Some(4),
                radix: 16,
            }),
            FamilySpec::Railopt(RailoptParams {
                sus: 4,
                servers_per_su: 4,
                rails: 2,
                levels: 3,
                spines: None,
                radix: 8,
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
