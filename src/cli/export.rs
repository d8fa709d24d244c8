//! `ibfat export`: the fabric in other tools' formats (Slurm's topology.conf).

use clap::{Args, Subcommand};
use ibfat::families::railopt::model::RailFabric;
use ibfat::formats::slurm::SlurmForm;
use ibfat::formats::{atomic, slurm};
use ibfat::load::{load, Recognize};
use ibfat::{Error, Result};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  ibnetdiscover > fabric.txt && ibfat export slurm-topology fabric.txt -o /etc/slurm/topology.conf
  ibfat --node-name-map /etc/ib-node-names export slurm-topology fabric.txt";

const AFTER: &str = "\
slurm-topology writes Slurm's topology.conf for TopologyPlugin=topology/tree: one line per
switch, leaves first: `SwitchName=L3 Nodes=node[01-12]` for a switch with hosts,
`SwitchName=S0 Switches=L[0-12]` for the switches above it. Levels are those of the
recognised family (or distance from the hosts when none fits). Hosts are named by the
first word of their NodeDescription, the name Slurm knows them by (--node-name-map names
win); a name Slurm cannot parse, or two hosts with one name, is exit 2.

A rail-optimised fabric (servers of several HCAs, HCA r of every server of a scalable unit
on that unit's rail-r leaf) gets one Slurm node per server: each unit is one switch
listing its servers (`SwitchName=su1 Nodes=dgx[001-031]`: a server hangs below all of its
unit's leaves), the spines above list the units they reach. --form block writes the
topology/block form instead (Slurm 23.11 and later): `BlockName=su1 Nodes=dgx[001-031]`.

Examples:
  ibnetdiscover > fabric.txt && ibfat export slurm-topology fabric.txt -o /etc/slurm/topology.conf
  ibfat --node-name-map /etc/ib-node-names export slurm-topology fabric.txt
  ibfat export slurm-topology superpod.txt --form block -o topology.conf";

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  ibfat export slurm-topology fabric.txt -o /etc/slurm/topology.conf")]
pub struct ExportArgs {
    #[command(subcommand)]
    what: Export,
}

#[derive(Subcommand, Debug)]
enum Export {
    /// Slurm topology.conf (tree plugin) for the fabric
    #[command(after_help = EXAMPLES, after_long_help = AFTER)]
    SlurmTopology {
        /// Plan folder, fabric.yaml, topology.net or ibnetdiscover output (`-`: stdin)
        #[arg(value_name = "TOPOLOGY")]
        topology: PathBuf,
        /// Write here (atomically; `-` or nothing: stdout)
        #[arg(short = 'o', long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Slurm plugin: tree, or block (rail-optimised fabrics: one block per unit)
        #[arg(long, value_name = "FORM", default_value = "tree", value_parser = ["tree", "block"])]
        form: String,
    },
}

pub fn run(a: ExportArgs) -> Result<i32> {
    match a.what {
        Export::SlurmTopology { topology, out, form } => {
            super::output::data_output(out.as_deref());
            let loaded = super::topo::with_roles(load(&topology, super::topo::read_options(), Recognize::Yes(None))?)?;
            let title = match loaded.model.layout() {
                Some(l) => l.describe(),
                None => format!("{} (no family recognised)", topology.display()),
            };
            let form = if form == "block" {
                SlurmForm::Block
            } else {
                SlurmForm::Tree
            };
            let text = match RailFabric::of(loaded.fabric()) {
                Some(rf) => slurm::rail_topology_conf(loaded.fabric(), &rf, form, &title)?,
                None if form == SlurmForm::Block => {
                    return Err(Error::input(
                        "form",
                        "block: the fabric is not rail-optimised, it has no scalable units to make blocks of",
                        Some("--form tree writes its switches".into()),
                    ))
                }
                None => slurm::topology_conf(loaded.fabric(), loaded.model.layout(), &title)?,
            };
            match out {
                Some(path) if !ibfat::formats::outpath::is_dash(&path) => {
                    atomic::write_file(&path, text.as_bytes())?;
                    super::output::note("wrote", format_args!("{}", path.display()));
                }
                _ => outln!("{}", text.trim_end()),
            }
            Ok(0)
        }
    }
}
