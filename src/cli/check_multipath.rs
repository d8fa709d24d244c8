//! `ibfat check multipath`: the seed's patterns on a routed full mesh, every flow split
//! over its path plan's DLID offsets by share, at the direct shares D1 … D10
//! (docs/fullmesh.md §6).

use super::output::print_json;
use super::topo;
use clap::Args;
use ibfat::check::multipath::{throughput, MeshPattern, MultipathResult};
use ibfat::families::fullmesh::route_plan::PathPlan;
use ibfat::load::{load, Recognize};
use ibfat::routing::{route, Lids};
use ibfat::topology::Layout;
use ibfat::{Error, Result};
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `check multipath`.
#[derive(Args, Debug)]
pub struct MultipathArgs {
    /// Plan folder, fabric.yaml, topology.net or ibnetdiscover output of a full mesh
    topology: PathBuf,
    /// The LMC the mesh is routed with (2^LMC - 1 detour offsets)
    #[arg(long, default_value_t = 3)]
    lmc: u8,
    /// One direct share D (1..=10), or `all` (D1 ... D10)
    #[arg(short = 'd', long, value_name = "D", default_value = "all")]
    direct_share: String,
    /// point-to-point, one-to-n, n-to-one, n-to-n, or `all`
    #[arg(short = 'p', long, default_value = "all")]
    pattern: String,
    /// LFT dump to walk (default: ibfat's own routes at --lmc)
    #[arg(long, requires = "lids")]
    lfts: Option<PathBuf>,
    /// guid2lid file with the LIDs the dump was made for
    #[arg(short = 'l', long)]
    lids: Option<PathBuf>,
    /// Print the report as JSON
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Serialize)]
struct Row {
    pattern: String,
    direct_share: u8,
    #[serde(flatten)]
    result: MultipathResult,
}

#[derive(Serialize)]
struct Report {
    family: String,
    lmc: u8,
    rows: Vec<Row>,
}

pub fn run(a: MultipathArgs) -> Result<i32> {
    let loaded = load(&a.topology, super::topo::read_options(), Recognize::Yes(None))?;
    let loaded = topo::with_roles(loaded)?;
    let layout = loaded.layout()?;
    let Layout::Fullmesh(l) = layout else {
        return Err(Error::input(
            "topology",
            format!(
                "multipath checks are for full meshes; this fabric is a {}",
                layout.describe()
            ),
            None,
        ));
    };
    let fabric = loaded.fabric();
    let (lids, lfts) = match &a.lfts {
        Some(dump) => topo::read_lfts(&loaded, a.lids.as_deref(), dump)?,
        None => {
            let lids = Lids::plan(fabric, layout.hosts(), a.lmc)?;
            let lfts = route(fabric, layout, &lids)?;
            (lids, lfts)
        }
    };
    if lids.lmc != a.lmc {
        return Err(Error::input(
            "lmc",
            format!("the tables have LMC {}, --lmc says {}", lids.lmc, a.lmc),
            Some("give --lmc as the mesh is routed".into()),
        ));
    }
    let shares: Vec<u8> = match a.direct_share.as_str() {
        "all" => (1..=10).collect(),
        d => vec![d.parse().map_err(|_| {
            Error::input(
                "direct-share",
                format!("`{d}` is not a number"),
                Some("1..=10 or all".into()),
            )
        })?],
    };
    let patterns: Vec<MeshPattern> = match a.pattern.as_str() {
        "all" => MeshPattern::ALL.to_vec(),
        p => vec![p.parse()?],
    };
    let mut rows = Vec::new();
    for &p in &patterns {
        let flows = p.flows(l);
        for &d in &shares {
            let plan = PathPlan::new(layout, a.lmc, d)?;
            rows.push(Row {
                pattern: p.to_string(),
                direct_share: d,
                result: throughput(fabric, &lids, &lfts, l, &plan, &flows)?,
            });
        }
    }
    let report = Report {
        family: layout.describe(),
        lmc: a.lmc,
        rows,
    };
    if a.json {
        print_json("check-multipath", &report)?;
        return Ok(0);
    }
    outln!("{} (LMC {})", report.family, report.lmc);
    outln!("throughput in cables' worth of bandwidth (flows / busiest channel load):");
    let head: Vec<String> = shares.iter().map(|d| format!("{:>6}", format!("D{d}"))).collect();
    outln!("{:>15} {}", "pattern", head.join(""));
    for &p in &patterns {
        let cells: Vec<String> = report
            .rows
            .iter()
            .filter(|r| r.pattern == p.to_string())
            .map(|r| format!("{:>6.2}", r.result.throughput))
            .collect();
        outln!("{:>15} {}", p.to_string(), cells.join(""));
    }
    Ok(0)
}
