//! `ibfat demo`: the main job on an embedded default, for a first run.

use super::build::{build_and_write, print_report, BuildReport};
use super::output::print_json;
use clap::Args;
use ibfat::check::{check, validate, CompiledRoutes};
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::mols::model::{MolsParams, WiringChoice};
use ibfat::formats::{atomic, guid2lid, lftdump};
use ibfat::metrics::{cost_table, hop_table};
use ibfat::routing::{route, Lids};
use ibfat::schedule::shift::Shift;
use ibfat::schedule::{file, Pattern, PatternKind, Request};
use ibfat::select::generate;
use ibfat::topology::{FamilySpec, Spec, Topology};
use ibfat::{Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

const DEMO_EXAMPLES: &str = "\
Examples:
  ibfat demo                        into ./ibfat-demo/lsft7 and ./ibfat-demo/mols7-mols
  ibfat demo --out /tmp/d --json";

const DEMO_AFTER: &str = "\
Builds LSFT(7) (57 leaves, 57 spines, 456 hosts) and the 7-ary MOLS proximity 3-tree
(147 switches, 343 hosts) and takes each through the whole job: the wiring plan
(topology.net, cables.csv, fabric.yaml, topology.svg and .dot), the LFTs for OpenSM
(opensm-lfts.dump and guid2lid; LMC 1 on the MOLS tree: base LID bandwidth route,
base+1 latency route), validated, and the all-to-all schedule (schedule.json), checked
phase by phase on those tables next to plain shift. Exit 0 when every check passes.

Examples:
  ibfat demo                        into ./ibfat-demo/lsft7 and ./ibfat-demo/mols7-mols
  ibfat demo --out /tmp/d --json";

#[derive(Args, Debug)]
#[command(after_help = DEMO_EXAMPLES, after_long_help = DEMO_AFTER)]
pub struct DemoArgs {
    /// Folder for the two plan folders
    #[arg(short = 'o', long, value_name = "DIR", default_value = "ibfat-demo")]
    out: PathBuf,
    /// Print the report as JSON
    #[arg(long)]
    pub(crate) json: bool,
}

/// One plan taken through routing, scheduling and checking.
#[derive(Serialize)]
struct Deployment {
    lmc: u8,
    lft_entries: usize,
    tables_valid: bool,
    deadlock_free: bool,
    schedule: String,
    schedule_phases: usize,
    /// Throughput ratio of the schedule on the tables (base LIDs).
    schedule_ratio: f64,
    /// The same schedule on the latency LIDs (base+1), LMC 1 only.
    #[serde(skip_serializing_if = "Option::is_none")]
    schedule_ratio_latency_routes: Option<f64>,
    /// Plain shift in rank order on the same tables, for comparison.
    shift_ratio: f64,
    files: Vec<&'static str>,
}

#[derive(Serialize)]
struct DemoReport {
    plans: Vec<BuildReport>,
    deployments: Vec<Deployment>,
    lsft_vs_fat_trees_at_degree_8: ibfat::metrics::CostRow,
    wiring_figures_arity_7: ibfat::metrics::HopRow,
}

pub fn run(a: DemoArgs) -> Result<i32> {
    std::fs::create_dir_all(&a.out).map_err(|e| ibfat::Error::io(format!("cannot create {}", a.out.display()), e))?;
    let lsft = Spec::new(FamilySpec::Lsft(LsftParams::new(7, false)));
    let mols = Spec::new(FamilySpec::Mols(MolsParams {
        arity: 7,
        wiring: WiringChoice::Auto,
    }));
    let mut plans = Vec::new();
    let mut deployments = Vec::new();
    for (spec, lmc, kind) in [(lsft, 0, PatternKind::Lsft), (mols, 1, PatternKind::MolsShift)] {
        let dir = a.out.join(spec.short_name());
        let (plan, report) = build_and_write(
            &spec,
            Some(&dir),
            ibfat::cabling::Pictures {
                svg: true,
                graphviz: None,
            },
        )?;
        deployments.push(deploy(&plan, &dir, lmc, kind)?);
        plans.push(report);
    }
    let cost = cost_table([8]).remove(0);
    let hops = hop_table([7]).remove(0);
    if a.json {
        let ok = deployments.iter().all(Deployment::passed);
        print_json(
            "demo",
            &DemoReport {
                plans,
                deployments,
                lsft_vs_fat_trees_at_degree_8: cost,
                wiring_figures_arity_7: hops,
            },
        )?;
        return Ok(if ok { 0 } else { 1 });
    }
    for (r, d) in plans.iter().zip(&deployments) {
        print_report(r);
        print_deployment(d);
        outln!();
    }
    let (l, f2, f3) = (
        cost.lsft_one_sided.expect("q = 7 is prime"),
        cost.fat_tree_2_level,
        cost.fat_tree_3_level,
    );
    outln!("With 16-port switches (degree 8):");
    outln!(
        "  LSFT(7)          {:>5} hosts on {:>3} switches ({:.2} hosts per switch)",
        l.hosts,
        l.switches,
        l.hosts_per_switch()
    );
    outln!(
        "  2-level fat-tree {:>5} hosts on {:>3} switches ({:.2})",
        f2.hosts,
        f2.switches,
        f2.hosts_per_switch()
    );
    outln!(
        "  3-level fat-tree {:>5} hosts on {:>3} switches ({:.2})",
        f3.hosts,
        f3.switches,
        f3.hosts_per_switch()
    );
    let m = hops.mols.as_ref().expect("7 is prime");
    outln!("7-ary 3-level tree, MOLS wiring vs standard:");
    outln!(
        "  proximity switches {:.0} vs {:.0} (bound {}); hosts within 3 hops x{:.1}; average hops {:.2} vs {:.2} ({:+.1}%)",
        m.proximity_switches,
        hops.standard.proximity_switches,
        hops.bound,
        hops.within_3_hops_gain,
        m.average_hops,
        hops.standard.average_hops,
        100.0 * hops.average_hops_change
    );
    Ok(if deployments.iter().all(Deployment::passed) {
        0
    } else {
        1
    })
}

impl Deployment {
    fn passed(&self) -> bool {
        self.tables_valid && self.deadlock_free && self.schedule_ratio == 1.0
    }
}

/// Route the plan (LIDs as `ibfat route` assigns them), validate the tables, write them for
/// OpenSM, write the family's all-to-all schedule and check it and plain shift on the tables.
fn deploy(plan: &Topology, dir: &Path, lmc: u8, kind: PatternKind) -> Result<Deployment> {
    let lids = Lids::plan(&plan.fabric, plan.layout.hosts(), lmc)?;
    let lfts = route(&plan.fabric, &plan.layout, &lids)?;
    let v = validate(&plan.fabric, &lids, &lfts, Some(&plan.layout));
    let (g, _) = generate(plan, &Request::new(kind))?;
    let hosts = g.job.hosts().to_vec();
    atomic::write_files(
        dir,
        &[
            (
                "opensm-lfts.dump",
                lftdump::write_opensm(&plan.fabric, &lids, &lfts).into_bytes(),
            ),
            ("guid2lid", guid2lid::write(&lids, &plan.fabric).into_bytes()),
        ],
    )?;
    file::write(
        &dir.join("schedule.json"),
        file::Format::Json,
        g.pattern.as_ref(),
        &g.job.port_guids(&plan.fabric),
        &lfts.computed_for(&plan.fabric, &lids),
    )?;
    let ratio = |pattern: &dyn Pattern, routes: &CompiledRoutes| -> Result<f64> {
        let r = check(&plan.fabric, &hosts, routes, pattern, 0..pattern.phases(), &|| {})?;
        if r.unrouted_flows > 0 {
            return Err(Error::input(
                "demo",
                format!("{} flows unrouted on ibfat's own tables (a bug)", r.unrouted_flows),
                None,
            ));
        }
        Ok(r.throughput_ratio)
    };
    let compile = |offset: u16| CompiledRoutes::compile(&plan.fabric, &lids, &lfts, &hosts, offset);
    let base = compile(0)?;
    Ok(Deployment {
        lmc,
        lft_entries: lfts.routed_entries(),
        tables_valid: v.ok,
        deadlock_free: v.ca_sourced.acyclic,
        schedule: g.pattern.name(),
        schedule_phases: g.pattern.phases(),
        schedule_ratio: ratio(g.pattern.as_ref(), &base)?,
        schedule_ratio_latency_routes: if lmc == 1 {
            Some(ratio(g.pattern.as_ref(), &compile(1)?)?)
        } else {
            None
        },
        shift_ratio: ratio(&Shift::new(hosts.len()), &base)?,
        files: vec!["opensm-lfts.dump", "guid2lid", "schedule.json"],
    })
}

fn print_deployment(d: &Deployment) {
    outln!(
        "  LFTs (LMC {}): {} entries, {}, {}; wrote {}",
        d.lmc,
        d.lft_entries,
        if d.tables_valid { "valid" } else { "INVALID" },
        if d.deadlock_free {
            "deadlock-free"
        } else {
            "CYCLIC channel dependencies"
        },
        d.files.join(", ")
    );
    outln!(
        "  all-to-all: {} in {} phases, throughput ratio {:.4} on these tables (plain shift {:.4})",
        d.schedule,
        d.schedule_phases,
        d.schedule_ratio,
        d.shift_ratio
    );
    if let Some(l) = d.schedule_ratio_latency_routes {
        outln!("  the same schedule on the latency routes (base LID + 1): {l:.4}");
    }
}
