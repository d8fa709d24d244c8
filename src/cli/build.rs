//! `ibfat build`: fabric families as wiring plans.

use super::output::print_json;
use clap::Args;
use ibfat::cabling;
use ibfat::topology::spec::args::BuildCommand;
use ibfat::topology::{FamilySpec, Spec, Topology};
use ibfat::Result;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

const BUILD_AFTER: &str = "\
The plan folder (--out DIR) receives:
  topology.net   ibsim net file (both ends of every cable, GUIDs, node descriptions)
  cables.csv     one row per cable: both ends (switch, GUID, port) and a label
  fabric.yaml    the spec; `ibfat build --spec fabric.yaml` rebuilds the identical fabric
  topology.svg   picture drawn by ibfat (no Graphviz needed): levels as rows in canonical
                 order with coordinates (P(x,y), L(c,r) ...), every cable; fabrics with
                 more than 1500 switch-to-switch cables get incidence matrices instead
  topology.dot   the same wiring for Graphviz (--graphviz renders it: topology-graphviz.svg)
The folder is written atomically: all files or none. An existing folder is replaced only
when it holds nothing but an earlier ibfat plan; the files other ibfat commands wrote into it
(opensm-lfts.dump, guid2lid, schedule.json, schedule.csv) are kept as they are. Anything
else in it makes build refuse (exit 2) before writing. --out may be a symlink to a folder
(the folder it points to is written).

--rails R (every family) plans R identical planes, every host one HCA with port k+1 on
rail k: topology.net holds every rail, cables.csv gets a `rail` column, fabric.yaml says
`rails: R`, the pictures draw rail 0. Each rail is its own subnet: `ibfat route DIR
--rail K`, one OpenSM per rail (docs/families.md §8).

Examples:
  ibfat build lsft --order 7 --out lsft7/
  ibfat build pgft --down 24,4 --up 1,2 --parallel 1,6 --out cluster/
  ibfat build --spec lsft7/fabric.yaml --out again/     rebuild the identical fabric
  ibfat build kary --arity 4 --levels 3 --rails 2 --out dual/   dual-rail 4-ary 3-tree";

const BUILD_EXAMPLES: &str = "\
Examples:
  ibfat build lsft --order 7 --out lsft7/
  ibfat build pgft --down 24,4 --up 1,2 --parallel 1,6 --out cluster/
  ibfat build --spec lsft7/fabric.yaml --out again/     rebuild the identical fabric";

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true, after_help = BUILD_EXAMPLES, after_long_help = BUILD_AFTER)]
pub struct BuildArgs {
    // one subcommand per family `ibfat build` makes (the registry's), its arguments and
    // help from the family's folder
    #[command(subcommand)]
    family: Option<BuildCommand<OutArgs>>,
    /// Rebuild the fabric described by a fabric.yaml
    #[arg(long, value_name = "FILE", required = true)]
    spec: Option<PathBuf>,
    #[command(flatten)]
    out: OutArgs,
    /// `--json` given before the subcommand (`ibfat --json build ...`).
    #[arg(skip)]
    pub(crate) json_first: bool,
}

#[derive(Args, Debug, Clone)]
pub struct OutArgs {
    /// Write the plan folder here (atomically)
    ///
    /// Without it only the report is printed.
    #[arg(short = 'o', long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Do not draw topology.svg
    #[arg(long)]
    no_svg: bool,
    /// Also render topology.dot with Graphviz into topology-graphviz.svg
    ///
    /// At most 60 s; slow beyond a few hundred switches.
    #[arg(long)]
    graphviz: bool,
    /// Print the report as JSON
    #[arg(long)]
    pub(crate) json: bool,
}

/// What `ibfat build` reports.
#[derive(Serialize, Debug)]
pub struct BuildReport {
    pub family: String,
    pub name: String,
    pub description: String,
    pub switches: usize,
    pub hosts: usize,
    pub cables: usize,
    pub switch_cables: usize,
    pub hosts_per_switch: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proximity_switches: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out: Option<PathBuf>,
    pub files: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg_note: Option<String>,
    /// Other commands' files found in the plan folder and kept (route's dump, a schedule).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<String>,
    /// Planes of a multi-rail plan (absent = 1); the counts above are for all rails.
    #[serde(skip_serializing_if = "is_one")]
    pub rails: u32,
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// Build the plan and write it; shared with `ibfat demo`.
pub fn build_and_write(
    spec: &Spec,
    out: Option<&Path>,
    pictures: cabling::Pictures,
) -> Result<(Topology, BuildReport)> {
    build_and_write_rails(spec, 1, out, pictures)
}

/// [`build_and_write`] for a plan of `rails` identical planes (the returned topology is
/// rail 0's plane as the spec builds it).
pub fn build_and_write_rails(
    spec: &Spec,
    rails: u32,
    out: Option<&Path>,
    pictures: cabling::Pictures,
) -> Result<(Topology, BuildReport)> {
    let plan = spec.build()?;
    let all = ibfat::topology::rails::multi_rail(&plan.fabric, rails)?;
    let mut report = BuildReport {
        family: match &spec.family {
            FamilySpec::Railopt(_) => "railopt".into(),
            _ => plan.layout.family_name().into(),
        },
        name: plan.name.clone(),
        description: match &spec.family {
            FamilySpec::Railopt(p) => format!("{} ({})", p.describe(), plan.layout.describe()),
            _ => plan.layout.describe(),
        },
        switches: all.switches().count(),
        hosts: plan.layout.hosts().len(),
        cables: all.link_count(),
        switch_cables: all.link_count() - rails as usize * plan.layout.hosts().len(),
        hosts_per_switch: plan.layout.hosts().len() as f64 / plan.fabric.switches().count() as f64,
        proximity_switches: match &plan.layout {
            ibfat::topology::Layout::Mols(l) => Some(l.proximity().mean),
            _ => None,
        },
        out: out.map(Path::to_path_buf),
        files: Vec::new(),
        svg_note: None,
        kept: Vec::new(),
        rails,
    };
    if let Some(dir) = out {
        let spinner = pictures
            .graphviz
            .map(|_| super::output::spinner("rendering topology-graphviz.svg with Graphviz"));
        let written = cabling::rails::write_plan_rails(&plan, rails, dir, pictures);
        if let Some(s) = spinner {
            s.finish_and_clear();
        }
        let written = written?;
        report.files = written.written;
        report.svg_note = written.svg_note;
        report.kept = written.kept;
    }
    Ok((plan, report))
}

pub fn print_report(r: &BuildReport) {
    if r.rails > 1 {
        outln!(
            "{} ({}), {} rails (rail k on HCA port k+1)",
            r.description,
            r.name,
            r.rails
        );
    } else {
        outln!("{} ({})", r.description, r.name);
    }
    outln!(
        "  {} switches, {} hosts, {} cables ({} switch-to-switch), {:.2} hosts per switch",
        r.switches,
        r.hosts,
        r.cables,
        r.switch_cables,
        r.hosts_per_switch
    );
    if let Some(p) = r.proximity_switches {
        outln!("  proximity switches (bottoms sharing a middle switch, self included): {p:.1}");
    }
    if let Some(dir) = &r.out {
        outln!("  wrote {}: {}", dir.display(), r.files.join(", "));
        if !r.kept.is_empty() {
            outln!(
                "  kept {} (written by other commands; re-run them if the fabric changed)",
                r.kept.join(", ")
            );
        }
        if let Some(note) = &r.svg_note {
            outln!("  no topology-graphviz.svg: {note}");
        }
    }
}

pub fn run(a: BuildArgs) -> Result<i32> {
    let json_first = a.json_first;
    let Some(command) = a.family else {
        let path = a.spec.expect("clap requires --spec without a family");
        let text = ibfat::formats::input::read_text(&path, ibfat::formats::input::SPEC)?;
        let spec = Spec::from_yaml(&text, &path)?;
        let rails = Spec::rails_from_yaml(&text, &path)?;
        return finish(&spec, rails, a.out, json_first);
    };
    let family = command.family();
    let (spec, rails) = (family.spec()?, family.rails());
    finish(&spec, rails, command.into_out(), json_first)
}

fn finish(spec: &Spec, rails: u32, out: OutArgs, json_first: bool) -> Result<i32> {
    let pictures = cabling::Pictures {
        svg: !out.no_svg,
        graphviz: out.graphviz.then_some(Duration::from_secs(60)),
    };
    let (_, report) = build_and_write_rails(spec, rails, out.out.as_deref(), pictures)?;
    if out.json || json_first {
        print_json("build", &report)?;
    } else {
        print_report(&report);
    }
    Ok(0)
}
