//! Turning a TOPOLOGY argument into a fabric and its family layout, whatever it is: a
//! plan folder, a `fabric.yaml`, an ibsim `topology.net`, or `ibnetdiscover` output
//! (default format or `-p`). Commands that route or schedule take any of them through
//! [`load_topology`], so planned and discovered fabrics are handled alike: a spec is
//! built, anything else is parsed and recognised.

use super::{Fabric, Layout, Spec};
use crate::error::{Error, Result};
use crate::formats::dump::{self, Discovered, DumpFormat, ParseOptions};
use crate::recognize::{recognize, FamilyHint, Recognition};
use std::path::{Path, PathBuf};

/// What a TOPOLOGY argument turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A `fabric.yaml` spec (given directly or found in a plan folder).
    Spec,
    /// A dump or net file in one of the [`DumpFormat`]s.
    Dump(DumpFormat),
}

impl Source {
    /// For reports: `fabric spec`, `ibnetdiscover output`, `ibsim net file` ...
    pub fn describe(self) -> &'static str {
        match self {
            Source::Spec => "fabric spec",
            Source::Dump(f) => f.describe(),
        }
    }
}

/// A fabric read from a TOPOLOGY argument, before any recognition.
#[derive(Clone, Debug)]
pub struct LoadedFabric {
    /// The file actually read (`fabric.yaml` or `topology.net` inside a plan folder).
    pub path: PathBuf,
    pub source: Source,
    pub fabric: Fabric,
    /// The spec and its layout, when the source is a spec.
    pub spec: Option<Spec>,
    pub layout: Option<Layout>,
    /// The parsed dump (problems, suspect ports, line numbers), when the source is one.
    pub discovered: Option<Discovered>,
}

/// A fabric with its family layout.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub path: PathBuf,
    pub source: Source,
    pub fabric: Fabric,
    pub layout: Layout,
    pub spec: Option<Spec>,
    /// Another family describing the same fabric (see [`Recognition::Recognised`]).
    pub equivalent: Option<String>,
}

impl Loaded {
    /// The fabric and its family structure.
    pub fn topo(&self) -> super::Topo<'_> {
        let name = match &self.spec {
            Some(s) => s.short_name(),
            None => self
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        super::Topo {
            fabric: &self.fabric,
            layout: &self.layout,
            name,
        }
    }
}

fn is_spec_text(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with("family:"))
}

/// Which file to read for a path: a plan folder's `fabric.yaml` (else `topology.net`),
/// or the path itself.
fn resolve(path: &Path) -> Result<PathBuf> {
    if path.is_dir() {
        for name in ["fabric.yaml", "topology.net"] {
            let p = path.join(name);
            if p.is_file() {
                return Ok(p);
            }
        }
        return Err(Error::at(
            path,
            0,
            "this folder has neither fabric.yaml nor topology.net: not a plan folder",
        )
        .with_hint(
            "give a plan folder written by `ibfat build --out`, a fabric.yaml, a topology.net or ibnetdiscover output",
        ));
    }
    if !path.exists() {
        return Err(Error::io(
            format!("cannot read {}", path.display()),
            std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or folder"),
        ));
    }
    Ok(path.to_path_buf())
}

/// Read a TOPOLOGY argument without recognising it. Dumps are parsed with `opts`
/// (lenient for the cabling check, strict otherwise); specs are built.
pub fn load_fabric(path: &Path, opts: ParseOptions) -> Result<LoadedFabric> {
    let file = resolve(path)?;
    let bytes = std::fs::read(&file).map_err(|e| Error::io(format!("cannot read {}", file.display()), e))?;
    let text = String::from_utf8_lossy(&bytes);
    let is_yaml = matches!(file.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    if is_yaml || is_spec_text(&text) {
        let spec = Spec::from_yaml(&text, &file)?;
        let plan = spec.build()?;
        return Ok(LoadedFabric {
            path: file,
            source: Source::Spec,
            fabric: plan.fabric,
            spec: Some(plan.spec),
            layout: Some(plan.layout),
            discovered: None,
        });
    }
    let mut d = dump::parse_with(&text, &file, opts)?;
    if !opts.lenient {
        d = d.strict(&file)?;
    }
    Ok(LoadedFabric {
        path: file,
        source: Source::Dump(d.format),
        fabric: d.fabric.clone(),
        spec: None,
        layout: None,
        discovered: Some(d),
    })
}

/// Read a TOPOLOGY argument and give its fabric with a family layout: a spec's own
/// layout, or the recognised one (`hint` restricts the family; an unrecognised fabric is
/// an input error with the reason). A spec asked for as another family is recognised as
/// that family (a standard MOLS plan as a k-ary tree, say).
pub fn load_topology(path: &Path, hint: Option<FamilyHint>) -> Result<Loaded> {
    let lf = load_fabric(path, ParseOptions::default())?;
    if let (Some(layout), Some(spec)) = (&lf.layout, &lf.spec) {
        if hint.map_or(true, |h| h == FamilyHint::of(layout)) {
            return Ok(Loaded {
                path: lf.path,
                source: lf.source,
                equivalent: None,
                layout: layout.clone(),
                spec: Some(spec.clone()),
                fabric: lf.fabric,
            });
        }
    }
    let rec = recognize(&lf.fabric, hint);
    let equivalent = match &rec {
        Recognition::Recognised { equivalent, .. } => equivalent.clone(),
        Recognition::Unrecognised { .. } => None,
    };
    let layout = rec.into_layout().map_err(|e| e.in_file(&lf.path, 0))?;
    Ok(Loaded {
        path: lf.path,
        source: lf.source,
        fabric: lf.fabric,
        layout,
        spec: lf.spec,
        equivalent,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::kary::KaryParams;
    use crate::topology::FamilySpec;

    #[test]
    fn every_kind_of_topology_argument_loads() {
        let dir = tempfile::tempdir().unwrap();
        let spec = Spec::new(FamilySpec::Kary(KaryParams { arity: 2, levels: 3 }));
        let plan = spec.build().unwrap();
        crate::cabling::write_plan(&plan, &dir.path().join("plan"), None).unwrap();
        let folder = load_topology(&dir.path().join("plan"), None).unwrap();
        assert_eq!(folder.source, Source::Spec);
        assert!(folder.path.ends_with("fabric.yaml"));
        let net = load_topology(&dir.path().join("plan/topology.net"), None).unwrap();
        assert_eq!(net.source, Source::Dump(DumpFormat::IbsimNet));
        assert_eq!(net.fabric, plan.fabric);
        assert_eq!(net.layout.family_name(), "kary");
        // a plan folder without a spec falls back to its net file
        std::fs::remove_file(dir.path().join("plan/fabric.yaml")).unwrap();
        let again = load_topology(&dir.path().join("plan"), Some(FamilyHint::Kary)).unwrap();
        assert!(again.path.ends_with("topology.net"));
        // wrong family: an input error with the reason
        let e = load_topology(&dir.path().join("plan"), Some(FamilyHint::Lsft)).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{e}");
        assert!(e.to_string().contains("q²+q+1"), "{e}");
        // missing file: I/O
        let e = load_topology(&dir.path().join("nope.txt"), None).unwrap_err();
        assert_eq!(e.exit_code(), 3, "{e}");
        // a folder without plan files: input
        let e = load_topology(dir.path(), None).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{e}");
        // a bad dump names its line
        std::fs::write(dir.path().join("bad.txt"), "Switch 4 \"a\"\n[1] oops\n").unwrap();
        let e = load_topology(&dir.path().join("bad.txt"), None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("bad.txt:2: malformed port line"), "{e}");
    }
}
