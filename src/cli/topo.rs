//! Turning a TOPOLOGY argument into a fabric (and, when known, its family layout).

use ibfat::formats::ibnetdiscover;
use ibfat::routing::Lids;
use ibfat::topology::{Fabric, Layout, Spec};
use ibfat::{Error, Result};
use std::path::{Path, PathBuf};

/// A loaded topology.
pub struct Loaded {
    pub fabric: Fabric,
    pub layout: Option<Layout>,
    /// LIDs found with the topology: discovered ones, or a plan folder's guid2lid.
    pub lids: Option<Lids>,
    pub source: PathBuf,
}

fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))
}

/// Load a plan folder, a fabric.yaml, a topology.net or an ibnetdiscover dump.
pub fn load(path: &Path) -> Result<Loaded> {
    if path.is_dir() {
        let spec_path = path.join("fabric.yaml");
        if !spec_path.exists() {
            return Err(
                Error::at(path, 0, "folder without fabric.yaml: expected an ibfat plan folder")
                    .with_hint("give the plan folder, its fabric.yaml, a topology.net or ibnetdiscover output"),
            );
        }
        let plan = Spec::from_yaml(&read_text(&spec_path)?, &spec_path)?.build()?;
        let g2l = path.join("guid2lid");
        let lids = if g2l.exists() {
            Some(Lids::from_guid2lid(&plan.fabric, &read_text(&g2l)?, &g2l)?)
        } else {
            None
        };
        return Ok(Loaded {
            fabric: plan.fabric,
            layout: Some(plan.layout),
            lids,
            source: path.to_path_buf(),
        });
    }
    let text = read_text(path)?;
    let looks_yaml = path.extension().is_some_and(|e| e == "yaml" || e == "yml")
        || text.trim_start().starts_with("family:")
        || text.lines().any(|l| l.starts_with("family:"));
    if looks_yaml {
        let plan = Spec::from_yaml(&text, path)?.build()?;
        return Ok(Loaded {
            fabric: plan.fabric,
            layout: Some(plan.layout),
            lids: None,
            source: path.to_path_buf(),
        });
    }
    let d = ibnetdiscover::parse(&text, path)?.strict(path)?;
    let lids = Lids::discovered(&d.fabric).map_err(|e| e.in_file(path, 0))?;
    Ok(Loaded {
        fabric: d.fabric,
        layout: None,
        lids,
        source: path.to_path_buf(),
    })
}

/// The layout, or an error saying the family could not be established.
pub fn require_layout(l: &Loaded) -> Result<&Layout> {
    l.layout.as_ref().ok_or_else(|| {
        Error::at(&l.source, 0, "the fabric's family is not known: give the plan folder or its fabric.yaml (recognition of discovered fabrics is `ibfat recognize`)")
    })
}
