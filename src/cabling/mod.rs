//! Wiring plans for deployment: the files an installation team works from, and the
//! audit of a discovered fabric against them ([`audit`]).

pub mod audit;
pub mod rails;

use crate::error::Result;
use crate::formats::{csv, dot, ibsim, picture};
use crate::topology::Topology;
use std::path::Path;
use std::time::Duration;

/// Files of a plan folder, in the order they are written.
pub(crate) const PLAN_FILES: &[&str] = &[
    "fabric.yaml",
    "topology.net",
    "cables.csv",
    "topology.dot",
    "topology.svg",
    "topology-graphviz.svg",
];

/// Files other commands write into a plan folder (`ibfat route --out PLAN/`, a
/// schedule): rebuilding the plan carries them over unchanged instead of deleting them.
pub(crate) const KEPT_FILES: &[&str] = &[
    "opensm-lfts.dump",
    "guid2lid",
    "ibfat-lfts.bin",
    "schedule.json",
    "schedule.csv",
];

/// What was written and what was skipped.
#[derive(Clone, Debug, Default)]
pub struct PlanOutput {
    /// The files written, by name within the plan folder.
    pub written: Vec<String>,
    /// Why `topology-graphviz.svg` is missing when it was asked for.
    pub svg_note: Option<String>,
    /// Files of other commands found in the folder and kept ([`KEPT_FILES`]).
    pub kept: Vec<String>,
}

/// Which pictures a plan folder gets besides `topology.dot`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pictures {
    /// `topology.svg`, drawn by ibfat itself (layered, or incidence matrices for large
    /// fabrics; [`crate::formats::picture`]): fast, needs no other tool.
    pub svg: bool,
    /// `topology-graphviz.svg` from `topology.dot` through Graphviz `dot`, with this time
    /// limit (Graphviz lays out small fabrics nicely and takes minutes on large ones).
    pub graphviz: Option<Duration>,
}

/// Render every plan file in memory. `fabric.yaml` (the rebuild recipe) is written only
/// for a planned topology; a discovered one is described by its `topology.net`.
pub fn render(plan: &Topology, svg: bool) -> Vec<(&'static str, Vec<u8>)> {
    let title = format!("{} ({})", plan.layout.describe(), plan.name);
    let mut header = vec![
        format!("ibfat {}: {}", env!("CARGO_PKG_VERSION"), plan.layout.describe()),
        format!(
            "{} switches, {} hosts, {} cables",
            plan.fabric.switches().count(),
            plan.layout.hosts().len(),
            plan.fabric.link_count()
        ),
    ];
    let mut files = Vec::with_capacity(5);
    if let Some(spec) = &plan.spec {
        header[1].push_str("; rebuild with `ibfat build --spec fabric.yaml`");
        files.push(("fabric.yaml", spec.to_yaml(Some(plan)).into_bytes()));
    }
    files.extend([
        ("topology.net", ibsim::write_net(&plan.fabric, &header).into_bytes()),
        ("cables.csv", csv::write_cables(&plan.fabric).into_bytes()),
        (
            "topology.dot",
            dot::write_dot(&plan.fabric, &plan.layout, &title, None).into_bytes(),
        ),
    ]);
    if svg {
        let picture = picture::render(&plan.fabric, Some(&plan.layout), &title, None);
        files.push(("topology.svg", picture.into_bytes()));
    }
    files
}

/// Write the plan folder atomically (all files or none) with the requested pictures.
/// An existing folder is replaced when it holds only plan files and [`KEPT_FILES`]; the
/// latter are carried over, anything else is refused before writing.
pub fn write_plan(plan: &Topology, dir: &Path, pictures: Pictures) -> Result<PlanOutput> {
    rails::write_plan_rails(plan, 1, dir, pictures)
}
