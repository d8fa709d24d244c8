//! From a TOPOLOGY argument to a fabric with its family layout — the one loader the CLI,
//! the C ABI and the OpenSM plugin share.
//!
//! A TOPOLOGY is a plan folder, a `fabric.yaml`, an ibsim `topology.net`, or
//! `ibnetdiscover` output (default format or `-p`); `-` reads it from standard input. A spec is built (its layout is known
//! by construction); anything else is parsed and, when a family is asked for, recognised.
//! This decision is made here and nowhere else, so planned and discovered fabrics route,
//! schedule and check alike.
//!
//! This module sits above [`crate::formats`] (parsing) and [`mod@crate::recognize`]
//! (recognition) and below the front ends; the model layers ([`crate::topology`],
//! [`crate::routing`]) never call it.

use crate::error::{Error, InputError, Result};
use crate::families::Family;
use crate::formats::dump::{self, Discovered, DumpFormat, ParseOptions};
use crate::formats::guid2lid;
use crate::formats::input;
use crate::formats::outpath::is_dash;
use crate::recognize::{recognize_to_route, Recognition};
use crate::routing::Lids;
use crate::topology::{rails, Fabric, Layout, Model, Spec, Topology};
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

/// How much of the family question a load answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recognize {
    /// Do not recognise: a spec's own layout is kept, a dump stays without one (for
    /// commands that report on recognition themselves, or compare cabling).
    No,
    /// Recognise when the file carries no layout of the family asked for (`None` = any
    /// family); an unrecognised fabric still loads, with the reason kept.
    Yes(Option<Family>),
}

/// A fabric read from a TOPOLOGY argument, with everything the file told about it.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The file actually read (`fabric.yaml` or `topology.net` inside a plan folder).
    pub path: PathBuf,
    /// What kind of file it was.
    pub source: Source,
    /// The fabric, and its [`Topology`] when the family is known: the spec's, or the
    /// recognised one; bare when the family is unknown (see [`Loaded::unrecognised`]) or
    /// recognition was not asked for.
    pub model: Model,
    /// Why recognition failed, as the input error commands report when they need a family.
    pub unrecognised: Option<InputError>,
    /// Another family describing the same fabric (see [`Recognition::Recognized`]).
    pub equivalent: Option<String>,
    /// The family with faults, when recognition found the fabric degraded
    /// ([`crate::families::lsft::recognize_degraded`]): `route` routes it with detours.
    pub degraded: Option<crate::recognize::Degraded>,
    /// The parsed dump (problems, suspect ports, line numbers), when the source is one.
    pub discovered: Option<Discovered>,
}

impl Loaded {
    /// Short name for reports: the spec's (`lsft7`), else the file name.
    pub fn name(&self) -> String {
        match self.spec() {
            Some(s) => s.short_name(),
            None => file_name(&self.path),
        }
    }

    /// The fabric, node by node and port by port.
    pub fn fabric(&self) -> &Fabric {
        self.model.fabric()
    }

    /// The spec, when the source is one.
    pub(crate) fn spec(&self) -> Option<&Spec> {
        self.model.topology().and_then(|t| t.spec.as_ref())
    }

    /// The fabric with its family layout, or the input error saying why the family is
    /// unknown (for commands that need one: route, schedule, heat maps).
    pub fn topology(&self) -> Result<&Topology> {
        self.model.topology().ok_or_else(|| match &self.unrecognised {
            Some(e) => Error::Input(Box::new(e.clone())),
            None => Error::at(&self.path, 0, "the family of this fabric was not recognised")
                .with_hint("`ibfat recognize` says which family it is"),
        })
    }

    /// The layout, or the input error saying why the family is unknown.
    pub fn layout(&self) -> Result<&Layout> {
        self.topology().map(|t| &t.layout)
    }

    /// LIDs that come with the topology: a swept dump's own, or the `guid2lid` a plan
    /// folder holds next to its spec. Read on demand: only routing and checks need them,
    /// and a dump whose LIDs disagree must not stop recognition or the cabling audit.
    pub fn own_lids(&self) -> Result<Option<Lids>> {
        lids_with(&self.path, self.fabric())
    }

    /// Recognise the family (`hint` restricts it) unless the loaded file already carries a
    /// layout of that family; an unrecognised fabric keeps the reason. Separate from
    /// reading so that front ends can time parsing and recognition apart (`route
    /// --timings`, the plugin's stage line) without doing either twice.
    pub fn recognize(&mut self, hint: Option<Family>) {
        let fits = |l: &Layout| hint.map_or(true, |h| h == l.family());
        if let Some(rails) = self.multi_rail() {
            // planes are separate subnets: no family describes them together
            let names: Vec<String> = rails.iter().map(u32::to_string).collect();
            let e = Error::input(
                "rails",
                format!(
                    "this fabric has {} rails (disconnected planes on HCA ports {}): each is routed on its own",
                    rails.len(),
                    rails.iter().map(|r| (r + 1).to_string()).collect::<Vec<_>>().join(", ")
                ),
                Some(format!("pick one with --rail {}", names.join("|"))),
            )
            .in_file(&self.path, 0);
            self.model.fabric_mut();
            self.unrecognised = match e {
                Error::Input(e) => Some(*e),
                _ => None,
            };
            return;
        }
        if !self.model.layout().is_some_and(fits) {
            // a spec asked for as another family is recognised as that family (a
            // standard MOLS plan as a k-ary tree, say); it keeps its spec
            match recognize_to_route(self.fabric(), hint) {
                Recognition::Recognized { layout, equivalent, .. } => {
                    match &mut self.model {
                        Model::Known(t) => t.layout = layout,
                        m => m.set_layout(layout, file_name(&self.path)),
                    }
                    self.equivalent = equivalent;
                }
                mut rec @ Recognition::Unrecognized { .. } => {
                    if let Recognition::Unrecognized { degraded, .. } = &mut rec {
                        self.degraded = degraded.clone();
                    }
                    self.model.fabric_mut(); // forget the family asked about
                    self.unrecognised = match rec.into_layout().map_err(|e| e.in_file(&self.path, 0)) {
                        Err(Error::Input(e)) => Some(*e),
                        _ => None,
                    };
                }
            }
        }
    }
}

impl Loaded {
    /// The rails of a fabric of more than one rail ([`rails::rails_of`]), `None` for a
    /// fabric of one plane (or one whose planes cannot be told apart: recognition says why).
    pub fn multi_rail(&self) -> Option<Vec<u32>> {
        let r = rails::rails_of(self.fabric()).ok()?;
        (r.len() > 1).then(|| r.into_keys().collect())
    }

    /// Keep only rail `rail` ([`rails::plane`]): the rail's switches and the hosts cabled
    /// to it, with their real port GUIDs and LIDs, so routes, LIDs and dumps are the
    /// rail's subnet's. The family is recognised again afterwards (by the caller).
    /// A fabric of one plane is kept when its rail is `rail`.
    pub fn select_rail(&mut self, rail: u32) -> Result<()> {
        let plane = rails::plane(self.fabric(), rail).map_err(|e| e.in_file(&self.path, 0))?;
        self.model = Model::Bare(plane);
        self.unrecognised = None;
        self.equivalent = None;
        self.degraded = None;
        Ok(())
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
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
    if is_dash(path) {
        return Ok(path.to_path_buf()); // standard input
    }
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

/// LIDs that come with a topology: the dump's own (after an SM sweep), or the guid2lid a
/// plan folder holds next to its fabric.yaml. A guid2lid that belongs to another fabric
/// is not ours to use and is ignored; failing to read it is not.
fn lids_with(path: &Path, fabric: &Fabric) -> Result<Option<Lids>> {
    if let Some(l) = Lids::discovered(fabric).map_err(|e| e.in_file(path, 0))? {
        return Ok(Some(l));
    }
    if is_dash(path) {
        return Ok(None); // standard input has no folder to look in
    }
    let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let g2l = folder.join("guid2lid");
    if g2l.is_file() {
        let text = input::read_text(&g2l, input::GUID2LID)?;
        if let Ok(l) = guid2lid::parse(fabric, &text, &g2l) {
            return Ok(Some(l));
        }
    }
    Ok(None)
}

/// Read a TOPOLOGY argument. Dumps are parsed with `opts` (lenient for the cabling
/// audit, strict otherwise); specs are built; `family` says whether to recognise.
pub fn load(path: &Path, opts: ParseOptions, family: Recognize) -> Result<Loaded> {
    let file = resolve(path)?;
    // a fabric.yaml is far smaller than a dump, but which one this is shows only once read
    let text = input::read_text(&file, input::DUMP)?;
    let is_yaml = matches!(file.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    let mut loaded = if is_yaml || is_spec_text(&text) {
        let spec = Spec::from_yaml(&text, &file)?;
        let plan = spec.build()?;
        let rails = Spec::rails_from_yaml(&text, &file)?;
        Loaded {
            path: file,
            source: Source::Spec,
            // a multi-rail plan is its planes together (select one with `select_rail`)
            model: if rails > 1 {
                Model::Bare(rails::multi_rail(&plan.fabric, rails)?)
            } else {
                Model::Known(plan)
            },
            unrecognised: None,
            equivalent: None,
            degraded: None,
            discovered: None,
        }
    } else {
        let mut d = dump::parse_with(&text, &file, opts)?;
        if !opts.lenient {
            d = d.strict(&file)?;
        }
        Loaded {
            path: file,
            source: Source::Dump(d.format),
            model: Model::Bare(d.fabric.clone()),
            unrecognised: None,
            equivalent: None,
            degraded: None,
            discovered: Some(d),
        }
    };
    if let Recognize::Yes(hint) = family {
        loaded.recognize(hint);
    }
    Ok(loaded)
}

/// [`load`] for a command that may work on one rail of a multi-rail fabric: rail `rail`'s
/// plane is kept ([`Loaded::select_rail`]) before recognition with `hint`.
pub fn load_rail(path: &Path, opts: ParseOptions, hint: Option<Family>, rail: Option<u32>) -> Result<Loaded> {
    let mut loaded = load(path, opts, Recognize::No)?;
    if let Some(k) = rail {
        loaded.select_rail(k)?;
    }
    loaded.recognize(hint);
    Ok(loaded)
}

/// Read a TOPOLOGY argument strictly and give it with a family layout: a spec's own, or
/// the recognised one (`hint` restricts the family); an unrecognised fabric is an input
/// error with the reason.
#[cfg(test)]
pub(crate) fn load_family(path: &Path, hint: Option<Family>) -> Result<Loaded> {
    let loaded = load(path, ParseOptions::default(), Recognize::Yes(hint))?;
    loaded.topology()?;
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kary::model::KaryParams;
    use crate::topology::FamilySpec;

    #[test]
    fn every_kind_of_topology_argument_loads() {
        let dir = tempfile::tempdir().unwrap();
        let spec = Spec::new(FamilySpec::Kary(KaryParams { arity: 2, levels: 3 }));
        let plan = spec.build().unwrap();
        crate::cabling::write_plan(&plan, &dir.path().join("plan"), Default::default()).unwrap();
        let folder = load_family(&dir.path().join("plan"), None).unwrap();
        assert_eq!(folder.source, Source::Spec);
        assert!(folder.path.ends_with("fabric.yaml"));
        let net = load_family(&dir.path().join("plan/topology.net"), None).unwrap();
        assert_eq!(net.source, Source::Dump(DumpFormat::IbsimNet));
        assert_eq!(*net.fabric(), plan.fabric);
        assert_eq!(net.layout().unwrap().family_name(), "kary");
        // a plan folder without a spec falls back to its net file
        std::fs::remove_file(dir.path().join("plan/fabric.yaml")).unwrap();
        let again = load_family(&dir.path().join("plan"), Some(Family::Kary)).unwrap();
        assert!(again.path.ends_with("topology.net"));
        // wrong family: an input error with the reason
        let e = load_family(&dir.path().join("plan"), Some(Family::Lsft)).unwrap_err();
        assert!(matches!(e, Error::Input(_)), "{e}");
        assert!(e.to_string().contains("q²+q+1"), "{e}");
        // ... that still loads when the family is optional, keeping the reason
        let any = load(
            &dir.path().join("plan"),
            ParseOptions::default(),
            Recognize::Yes(Some(Family::Lsft)),
        )
        .unwrap();
        assert!(any.model.topology().is_none());
        assert!(any.topology().unwrap_err().to_string().contains("q²+q+1"));
        // missing file: I/O
        let e = load_family(&dir.path().join("nope.txt"), None).unwrap_err();
        assert!(matches!(e, Error::Io { .. }), "{e}");
        // a folder without plan files: input
        let e = load_family(dir.path(), None).unwrap_err();
        assert!(matches!(e, Error::Input(_)), "{e}");
        // a bad dump names its line
        std::fs::write(dir.path().join("bad.txt"), "Switch 4 \"a\"\n[1] oops\n").unwrap();
        let e = load_family(&dir.path().join("bad.txt"), None).unwrap_err().to_string();
        assert!(e.contains("bad.txt:2: malformed port line"), "{e}");
    }

    #[test]
    fn a_plan_folder_brings_its_guid2lid() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Spec::new(FamilySpec::Kary(KaryParams { arity: 2, levels: 2 }))
            .build()
            .unwrap();
        crate::cabling::write_plan(&plan, dir.path(), Default::default()).unwrap();
        assert!(load_family(dir.path(), None).unwrap().own_lids().unwrap().is_none());
        let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), 1).unwrap();
        std::fs::write(dir.path().join("guid2lid"), guid2lid::write(&lids, &plan.fabric)).unwrap();
        assert_eq!(load_family(dir.path(), None).unwrap().own_lids().unwrap(), Some(lids));
        // a guid2lid of another fabric is ignored
        std::fs::write(dir.path().join("guid2lid"), "0x0000000000000099 1 1\n").unwrap();
        assert!(load_family(dir.path(), None).unwrap().own_lids().unwrap().is_none());
    }
}
