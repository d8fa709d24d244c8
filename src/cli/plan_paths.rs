//! `ibfat plan-paths`: the seed's output plan for a full mesh routed with LMC — per
//! (source host, destination host) ten DLID offsets used round robin, the first direct
//! (docs/json.md, `ibfat.path-plan/1`).

use super::output::print_json;
use super::topo;
use clap::Args;
use ibfat::families::fullmesh::route_plan::{PathPlan, SLOTS};
use ibfat::formats::atomic;
use ibfat::load::load_rail;
use ibfat::routing::Lids;
use ibfat::topology::Layout;
use ibfat::{Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

const PLAN_PATHS_EXAMPLES: &str = "\
Examples:
  ibfat plan-paths mesh8/ --direct-share 3 --out plan.json          D3 at LMC 2
  ibfat plan-paths mesh8/ --direct-share 1 --lmc 3 --out plan.json  every relay, 10% direct";

const PLAN_PATHS_AFTER: &str = "\
For every ordered pair of hosts (ranks) of a full mesh: ten DLID offsets that a transport
(MPI, UCX) uses round robin for successive messages or streams to that destination, DLID =
the destination's base LID + offset. Slot 0 is always offset 0, the direct route; D of the
ten slots are direct (D1 = 10% direct ... D10 = direct only), spread evenly; the other slots
are the pair's detours through distinct relay switches (offsets 1..2^LMC-1 whose relay is
not the source's own switch), in rotation. The offsets are those of `ibfat route --lmc L`
with the same L; the base LIDs come from --lids (the plan's LIDs at that LMC by default).

The file (--out) is JSON, `ibfat.path-plan/1` (docs/json.md): `hosts` (rank, name, port
GUID, switch, base LID) and `offsets[src][dst]` (ten offsets each). The C ABI
(ibfat_path_plan_new / _offsets / _offset / _free) gives the same arrays without the file.

Examples:
  ibfat plan-paths mesh8/ --direct-share 3 --out plan.json          D3 at LMC 2
  ibfat plan-paths mesh8/ --direct-share 1 --lmc 3 --out plan.json  every relay, 10% direct
  ibfat plan-paths mesh8/fabric.yaml --direct-share 10 --lmc 0 --out direct.json";

#[derive(Args, Debug)]
#[command(after_help = PLAN_PATHS_EXAMPLES, after_long_help = PLAN_PATHS_AFTER)]
pub struct PlanPathsArgs {
    /// A multi-rail fabric: work on rail K's plane
    ///
    /// The plane on HCA port K+1, its own subnet.
    #[arg(long, value_name = "K")]
    rail: Option<u32>,
    /// Plan folder, fabric.yaml, topology.net or ibnetdiscover output of a full mesh
    topology: PathBuf,
    /// D: how many of the ten slots use the direct route, 1..=10
    #[arg(short = 'd', long, value_name = "D")]
    direct_share: u8,
    /// The LMC the fabric is routed with (`ibfat route --lmc`)
    ///
    /// 2^LMC - 1 detour offsets.
    #[arg(long, default_value_t = 2)]
    lmc: u8,
    /// Base LIDs: `plan` (deterministic) or a guid2lid file
    ///
    /// `plan`: the LIDs `ibfat route --lids plan` assigns.
    #[arg(short = 'l', long, default_value = "plan")]
    lids: String,
    /// Write the plan (JSON) to this file, atomically
    #[arg(short = 'o', long, value_name = "FILE")]
    out: PathBuf,
    /// Print the report as JSON
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Serialize)]
struct Host {
    rank: u32,
    name: String,
    port_guid: String,
    switch: u32,
    base_lid: u16,
}

#[derive(Serialize)]
struct PlanFile<'a> {
    schema: &'static str,
    family: String,
    switches: u32,
    hosts_per_switch: u32,
    cables_per_pair: u32,
    lmc: u8,
    direct_share: u8,
    slots: usize,
    relay_rule: &'static str,
    pairs_without_detours: u64,
    hosts: Vec<Host>,
    offsets: &'a [Vec<[u8; SLOTS]>],
}

#[derive(Serialize)]
struct Report {
    family: String,
    hosts: usize,
    lmc: u8,
    direct_share: u8,
    pairs: u64,
    pairs_without_detours: u64,
    out: PathBuf,
}

/// The relay rule as the file states it.
const RELAY_RULE: &str = "relay(t, o) = (t + 1 + (o - 1) mod (N - 1)) mod N for destination switch t, offset o >= 1";

pub fn run(a: PlanPathsArgs) -> Result<i32> {
    let loaded = load_rail(&a.topology, super::topo::read_options(), None, a.rail)?;
    let loaded = topo::with_roles(loaded)?;
    let layout = loaded.layout()?;
    let plan = PathPlan::new(layout, a.lmc, a.direct_share)?;
    let Layout::Fullmesh(l) = layout else {
        unreachable!("PathPlan::new refuses other families")
    };
    let fabric = loaded.fabric();
    let lids = match a.lids.as_str() {
        "plan" => Lids::plan(fabric, layout.hosts(), a.lmc)?,
        file => topo::read_guid2lid(fabric, Path::new(file))?,
    };
    if lids.lmc != a.lmc {
        return Err(Error::input(
            "lids",
            format!("{} gives LMC {}, the plan is for LMC {}", a.lids, lids.lmc, a.lmc),
            Some("give --lmc as the fabric is routed".into()),
        ));
    }
    let hosts: Vec<Host> = l
        .hosts
        .iter()
        .enumerate()
        .map(|(r, ep)| Host {
            rank: r as u32,
            name: fabric.node(ep.node).name.clone(),
            port_guid: format!("0x{:016x}", fabric.port(ep.node, ep.port).guid),
            switch: plan.switch_of(r as u32),
            base_lid: lids.lid(fabric, ep.node, ep.port),
        })
        .collect();
    let n = plan.hosts() as u32;
    let offsets: Vec<Vec<[u8; SLOTS]>> = (0..n)
        .map(|s| (0..n).map(|t| plan.offsets(s, t).expect("ranks in range")).collect())
        .collect();
    let file = PlanFile {
        schema: "ibfat.path-plan/1",
        family: layout.describe(),
        switches: l.n,
        hosts_per_switch: l.h,
        cables_per_pair: l.w,
        lmc: a.lmc,
        direct_share: a.direct_share,
        slots: SLOTS,
        relay_rule: RELAY_RULE,
        pairs_without_detours: plan.pairs_without_detours(),
        hosts,
        offsets: &offsets,
    };
    let mut text = serde_json::to_string(&file).map_err(|e| Error::input("plan", e.to_string(), None))?;
    text.push('\n');
    atomic::write_file(&a.out, text.as_bytes())?;
    let report = Report {
        family: layout.describe(),
        hosts: plan.hosts(),
        lmc: a.lmc,
        direct_share: a.direct_share,
        pairs: n as u64 * n as u64,
        pairs_without_detours: file.pairs_without_detours,
        out: a.out.clone(),
    };
    if a.json {
        print_json("plan-paths", &report)?;
    } else {
        outln!("{}", report.family);
        outln!(
            "  D{} at LMC {}: {} host pairs, {} without a detour (direct in every slot)",
            report.direct_share,
            report.lmc,
            report.pairs,
            report.pairs_without_detours
        );
        outln!("  wrote {}", a.out.display());
    }
    Ok(0)
}
