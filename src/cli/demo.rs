//! `ibfat demo`: the main job on an embedded default, for a first run.

use super::build::{build_and_write, print_report, BuildReport};
use super::output::print_json;
use clap::Args;
use ibfat::metrics::{cost_table, hop_table};
use ibfat::topology::lsft::LsftParams;
use ibfat::topology::mols::{MolsParams, WiringChoice};
use ibfat::topology::{FamilySpec, Spec};
use ibfat::Result;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(after_help = "\
Builds LSFT(7) (57 leaves, 57 spines, 456 hosts) and the 7-ary MOLS proximity 3-tree
(147 switches, 343 hosts), writes both plans under --out, and prints their figures.")]
pub struct DemoArgs {
    /// Folder for the two plan folders
    #[arg(long, value_name = "DIR", default_value = "ibfat-demo")]
    out: PathBuf,
    /// Print the report as JSON
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct DemoReport {
    plans: Vec<BuildReport>,
    lsft_vs_fat_trees_at_degree_8: ibfat::metrics::CostRow,
    wiring_figures_arity_7: ibfat::metrics::HopRow,
}

pub fn run(a: DemoArgs) -> Result<i32> {
    std::fs::create_dir_all(&a.out).map_err(|e| ibfat::Error::io(format!("cannot create {}", a.out.display()), e))?;
    let lsft = Spec::new(FamilySpec::Lsft(LsftParams {
        order: 7,
        two_sided: false,
        hosts_per_leaf: None,
    }));
    let mols = Spec::new(FamilySpec::Mols(MolsParams {
        arity: 7,
        wiring: WiringChoice::Auto,
    }));
    let mut plans = Vec::new();
    for spec in [lsft, mols] {
        let dir = a.out.join(spec.short_name());
        let (_, report) = build_and_write(&spec, Some(&dir), true)?;
        plans.push(report);
    }
    let cost = cost_table([8]).remove(0);
    let hops = hop_table([7]).remove(0);
    if a.json {
        print_json(&DemoReport {
            plans,
            lsft_vs_fat_trees_at_degree_8: cost,
            wiring_figures_arity_7: hops,
        })?;
        return Ok(0);
    }
    for r in &plans {
        print_report(r);
        println!();
    }
    let (l, f2, f3) = (
        cost.lsft_one_sided.expect("q = 7 is prime"),
        cost.fat_tree_2_level,
        cost.fat_tree_3_level,
    );
    println!("With 16-port switches (degree 8):");
    println!(
        "  LSFT(7)          {:>5} hosts on {:>3} switches ({:.2} hosts per switch)",
        l.hosts,
        l.switches,
        l.hosts_per_switch()
    );
    println!(
        "  2-level fat-tree {:>5} hosts on {:>3} switches ({:.2})",
        f2.hosts,
        f2.switches,
        f2.hosts_per_switch()
    );
    println!(
        "  3-level fat-tree {:>5} hosts on {:>3} switches ({:.2})",
        f3.hosts,
        f3.switches,
        f3.hosts_per_switch()
    );
    let m = hops.mols.as_ref().expect("7 is prime");
    println!("7-ary 3-level tree, MOLS wiring vs standard:");
    println!(
        "  proximity switches {:.0} vs {:.0} (bound {}); hosts within 3 hops x{:.1}; average hops {:.2} vs {:.2} ({:+.1}%)",
        m.proximity_switches,
        hops.standard.proximity_switches,
        hops.bound,
        hops.within_3_hops_gain,
        m.average_hops,
        hops.standard.average_hops,
        100.0 * hops.average_hops_change
    );
    Ok(0)
}
