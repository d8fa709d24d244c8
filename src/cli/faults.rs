//! `ibfat faults`: a degraded copy of a fabric for tests and drills (cut cables, dead
//! switches) and the ibsim console commands that do the same to a running simulation.

use clap::Args;
use ibfat::formats::{atomic, ibsim};
use ibfat::load::{load, Recognize};
use ibfat::topology::faults::{ibsim_commands, inject};
use ibfat::topology::{Fabric, NodeId};
use ibfat::{Error, Result};
use std::path::PathBuf;

const FAULTS_EXAMPLES: &str = "\
Examples:
  ibfat faults lsft7/ --cut 3 --seed 1 --out lsft7-cut3/
  ibfat faults fabric.txt --cut 10 --seed 42 --out drill/ && ibsim-console < drill/cut.ibsim";

const FAULTS_AFTER: &str = "\
Writes the folder OUT atomically:
  topology.net    the degraded fabric (same names, GUIDs and ports; dead switches and their
                  hosts left out), for ibsim or any TOPOLOGY argument
  cut.ibsim       ibsim console commands that cut the same cables in a running simulation
                  (`Unlink \"S3\"[7]`; a dead switch: every cabled port)
  restore.ibsim   the commands that restore them (`ReLink`)
  faults.txt      the cut cables and dead switches, one per line
Cables are drawn among the switch-to-switch cables not touching a dead switch, reproducibly
from --seed: the same fabric, --cut, --seed and --dead give the same faults.

Examples:
  ibfat faults lsft7/ --cut 3 --seed 1 --out lsft7-cut3/
  ibfat faults lsft7/ --dead S4 --out lsft7-no-S4/ && ibfat recognize lsft7-no-S4/topology.net
  ibfat faults fabric.txt --cut 10 --seed 42 --out drill/ && ibsim-console < drill/cut.ibsim";

#[derive(Args, Debug)]
#[command(after_help = FAULTS_EXAMPLES, after_long_help = FAULTS_AFTER)]
pub struct FaultsArgs {
    /// Plan folder, fabric.yaml, topology.net or ibnetdiscover output (`-`: stdin)
    #[arg(value_name = "TOPOLOGY")]
    topology: PathBuf,
    /// Number of switch-to-switch cables to cut
    #[arg(long, value_name = "N", default_value = "0")]
    cut: usize,
    /// Seed of the choice of cables
    #[arg(long, value_name = "S", default_value = "1")]
    seed: u64,
    /// A switch to kill, by name, NodeDescription or GUID (repeatable)
    #[arg(long, value_name = "SWITCH")]
    dead: Vec<String>,
    /// Write the degraded fabric and the commands into this folder (atomically)
    #[arg(short = 'o', long, value_name = "DIR")]
    out: PathBuf,
    /// Print what was injected as JSON (`ibfat.faults/1`)
    #[arg(long)]
    pub(crate) json: bool,
}

/// One end of a cut cable.
#[derive(serde::Serialize)]
struct End {
    name: String,
    guid: String,
    port: u8,
}

/// The `--json` report.
#[derive(serde::Serialize)]
struct Report {
    out: String,
    seed: u64,
    cut: Vec<[End; 2]>,
    dead: Vec<End>,
}

/// A switch named by name, description or GUID.
fn switch_named(fabric: &Fabric, s: &str) -> Result<NodeId> {
    let guid = ibfat::topology::spec::parse_guid(s);
    fabric
        .switches()
        .find(|&n| {
            let node = fabric.node(n);
            node.name == s || node.desc == s || Some(node.guid) == guid
        })
        .ok_or_else(|| {
            Error::input(
                "dead",
                format!("no switch is named `{s}`"),
                Some("give a switch's name (S3), NodeDescription or GUID (0x...)".into()),
            )
        })
}

pub fn run(a: FaultsArgs) -> Result<i32> {
    let loaded = super::topo::named(load(&a.topology, super::topo::read_options(), Recognize::No)?);
    let fabric = loaded.fabric();
    let dead = a
        .dead
        .iter()
        .map(|s| switch_named(fabric, s))
        .collect::<Result<Vec<_>>>()?;
    if a.cut == 0 && dead.is_empty() {
        return Err(Error::input(
            "faults",
            "nothing to inject",
            Some("give --cut N and/or --dead SWITCH".into()),
        ));
    }
    let inj = inject(fabric, a.cut, a.seed, &dead)?;
    let title = vec![format!(
        "{} with {} cables cut (seed {}) and {} dead switches: ibfat faults",
        loaded.name(),
        inj.cut.len(),
        a.seed,
        dead.len()
    )];
    let net = ibsim::write_net(&inj.fabric, &title);
    let mut list = String::new();
    for l in &inj.cut {
        list += &format!(
            "cut {}[{}] - {}[{}]\n",
            fabric.node(l.a).name,
            l.pa,
            fabric.node(l.b).name,
            l.pb
        );
    }
    for &s in &dead {
        list += &format!("dead {} (0x{:016x})\n", fabric.node(s).name, fabric.node(s).guid);
    }
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("topology.net", net.into_bytes()),
        ("cut.ibsim", ibsim_commands(fabric, &inj, false).into_bytes()),
        ("restore.ibsim", ibsim_commands(fabric, &inj, true).into_bytes()),
        ("faults.txt", list.into_bytes()),
    ];
    let names: Vec<&str> = files.iter().map(|f| f.0).collect();
    atomic::write_dir(&a.out, &files, &names)?;
    if a.json {
        let end = |n: NodeId, port: u8| End {
            name: fabric.node(n).name.clone(),
            guid: format!("0x{:016x}", fabric.node(n).guid),
            port,
        };
        return super::output::print_json(
            "faults",
            &Report {
                out: a.out.display().to_string(),
                seed: a.seed,
                cut: inj.cut.iter().map(|l| [end(l.a, l.pa), end(l.b, l.pb)]).collect(),
                dead: dead.iter().map(|&s| end(s, 0)).collect(),
            },
        )
        .map(|_| 0);
    }
    super::output::note(
        "wrote",
        format_args!(
            "{}: {} cables cut, {} switches dead; topology.net, cut.ibsim, restore.ibsim, faults.txt",
            a.out.display(),
            inj.cut.len(),
            dead.len()
        ),
    );
    Ok(0)
}
