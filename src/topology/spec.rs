//! `fabric.yaml`: the spec a plan is rebuilt from. `ibfat build --spec fabric.yaml`
//! yields the identical fabric (same names, GUIDs, ports), so the spec is what goes in
//! version control next to a cluster's cabling.

use super::{BuildOptions, Fabric, Layout, Topology};
use crate::error::{Error, Result};
use crate::families::Family;
use serde::{Deserialize, Serialize};
use serde_yaml::{Mapping, Value};
use std::path::Path;

#[cfg(feature = "cli")]
pub mod args;
mod file;
mod keys;
use file::SpecFile;
pub(crate) use file::{Key, KeyType};
pub(crate) use keys::SpecKeys;

/// What a family with parameters of its own (`spec` in its registry line) gives the
/// generic spec: its builder, its plan's short name and its `fabric.yaml` keys as written.
pub(crate) trait FamilyParams {
    /// The fabric and its layout (the family's builder).
    fn build(&self, options: &BuildOptions) -> Result<(Fabric, Layout)>;

    /// Short name of the plan: `lsft7`, `kary4x3`, …
    fn short_name(&self) -> String;

    /// The family's keys with their values, in the order `fabric.yaml` writes them (a
    /// generic key such as `rails` may be among them: it is written in its generic place).
    fn keys(&self) -> Vec<(&'static str, Value)>;

    /// Record what the build resolved (an `auto` choice), so the spec rebuilds exactly
    /// this fabric; most parameters have nothing to resolve.
    fn settle(&mut self, _layout: &Layout) {}
}

/// What a family `ibfat build` makes (`builds true`) gives the spec reader: the keys it
/// takes and how it reads them (a family may read into another's parameters, as
/// `twolevel` reads into a PGFT's).
pub(crate) trait FamilyKeys {
    /// The `fabric.yaml` keys of the family besides the generic ones; any other key is
    /// refused as not applying to it.
    const KEYS: &'static [Key];

    /// Its parameters from its keys, validated; errors name the file, line and key.
    fn read(keys: &SpecKeys) -> Result<FamilySpec>;
}

/// One `Value` for `fabric.yaml` (plain data always serialises).
pub(crate) fn value(v: impl Serialize) -> Value {
    serde_yaml::to_value(v).expect("plain data serialises")
}

macro_rules! make_family_spec {
    ($(spec $variant:ident: $folder:ident,)*) => {
        /// The family and its parameters: one variant per family with parameters of its
        /// own (made from the registry; the families read as another, like `twolevel`,
        /// have none).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum FamilySpec {
            $(
                #[doc = concat!("`family: ", stringify!($folder), "` and its parameters.")]
                $variant(crate::families::$folder::Params),
            )*
        }

        impl FamilySpec {
            /// The registry's family of these parameters.
            pub fn family(&self) -> Family {
                match self {
                    $(FamilySpec::$variant(_) => Family::$variant,)*
                }
            }

            fn ops(&self) -> &dyn FamilyParams {
                match self {
                    $(FamilySpec::$variant(p) => p,)*
                }
            }

            fn ops_mut(&mut self) -> &mut dyn FamilyParams {
                match self {
                    $(FamilySpec::$variant(p) => p,)*
                }
            }
        }
    };
}
crate::families::for_each_spec!(make_family_spec);

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

impl Expect {
    /// The counts of a built plan.
    fn of(plan: &Topology) -> Expect {
        Expect {
            switches: plan.fabric.switches().count(),
            hosts: plan.layout.hosts().len(),
            cables: plan.fabric.link_count(),
        }
    }
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
        let (fabric, layout) = self.family.ops().build(&self.options)?;
        // record what `auto` resolved to, so the spec file rebuilds exactly this fabric
        let mut spec = self.clone();
        spec.family.ops_mut().settle(&layout);
        Ok(Topology {
            name: spec.short_name(),
            spec: Some(spec),
            fabric,
            layout,
        })
    }

    /// Short name: `lsft7`, `lsft2x2` (two-sided), `kary4x3`, `mols7-mols`.
    pub fn short_name(&self) -> String {
        self.family.ops().short_name()
    }

    /// The spec as YAML, with the counts of `plan` pinned under `expect`: `family`, the
    /// family's keys, then the generic ones.
    pub fn to_yaml(&self, plan: Option<&Topology>) -> String {
        let own = self.family.ops().keys();
        let mut map = Mapping::new();
        map.insert("family".into(), self.family.family().name().into());
        for (key, v) in own.iter().filter(|(k, _)| !file::is_generic(k)) {
            map.insert((*key).into(), v.clone());
        }
        let generic = [
            ("guid_base", Some(value(format!("0x{:016x}", self.options.guid_base)))),
            ("shuffle", self.options.shuffle.map(value)),
            ("link_width", Some(value(self.options.width))),
            ("link_speed", Some(value(self.options.speed))),
            ("expect", plan.map(|p| value(Expect::of(p)))),
        ];
        for (key, v) in generic {
            if let Some(v) = v {
                map.insert(key.into(), v);
            }
        }
        // a generic key the family gives itself (railopt's `rails`) goes last, where the
        // generic keys are
        for (key, v) in own.iter().filter(|(k, _)| file::is_generic(k)) {
            map.insert((*key).into(), v.clone());
        }
        let body = serde_yaml::to_string(&map).expect("a spec always serialises");
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
        if file::takes(&file.family, "rails") {
            return Ok(1); // its own `rails` (railopt's HCAs per server), in one plane
        }
        let rails = file.get::<u32>("rails").unwrap_or(1);
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
                .with_hint(format!("keys: {}", file::all_keys().join(", ")))
        })?;
        let keys = SpecKeys {
            file: &file,
            text,
            path,
        };
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
    use crate::families::fullmesh::model::FullmeshParams;
    use crate::families::kary::model::KaryParams;
    use crate::families::lsft::model::LsftParams;
    use crate::families::mols::model::{MolsParams, WiringChoice};
    use crate::families::pgft::model::PgftParams;
    use crate::families::railopt::model::plan::RailoptParams;

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
