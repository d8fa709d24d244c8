//! `ibfat lfts validate`: check LFTs (ours, OpenSM's, or dumped from a live fabric);
//! `ibfat lfts diff` ([`super::lfts_diff`]): what changed between two of them.

use super::output::print_json;
use super::topo;
use clap::{Args, Subcommand};
use ibfat::check::lfts::validate_declared;
use ibfat::check::LftReport;
use ibfat::load::load_rail;
use ibfat::Result;
use std::path::PathBuf;

const VALIDATE_EXAMPLES: &str = "\
Examples:
  ibfat lfts validate ibnetdiscover.txt --lfts dump_lfts.txt --json
  ibfat lfts validate lsft7/ --lfts lsft7/opensm-lfts.dump --strict";

const VALIDATE_AFTER: &str = "\
LFTS may be OpenSM's opensm-lfts.dump, `dump_lfts` output or `ibroute` output.
LIDs come from --lids (a guid2lid file), else from the topology (ibnetdiscover output taken
after the SM swept, or a plan folder holding guid2lid), else from the dump's own
`portguid` annotations (OpenSM's opensm-lfts.dump, dump_lfts and ibroute carry them).

The report has three sections, each with its own verdict:
  data path    every switch a host hangs off delivers every host LID (no black hole,
               loop or wrong delivery on a route host traffic takes); hop counts, minimal
               where the family promises it (LSFT and k-ary host routes, MOLS latency routes)
  deadlock     the channel dependency graph of all routes that start at hosts is acyclic
               (routes that start at switches carry only VL15 management traffic; their
               CDG is shown too)
  completeness every switch delivers every switch LID (management traffic) and has a
               working entry for every host LID, even where no host route passes
Exit 0 when the data path and deadlock sections pass (completeness gaps are reported as
warnings; --strict makes them fatal), 1 defects found (each named with switch, LID and
path), 2 bad input.

Examples:
  ibfat lfts validate ibnetdiscover.txt --lfts dump_lfts.txt --json
  ibfat lfts validate lsft7/ --lfts lsft7/opensm-lfts.dump --strict";

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  ibfat lfts validate lsft7/ --lfts /var/cache/opensm/opensm-lfts.dump
  dump_lfts > lfts.txt && ibfat lfts validate fabric.txt --lfts lfts.txt
  ibfat lfts diff fabric.txt before.dump after.dump")]
pub struct LftsArgs {
    #[command(subcommand)]
    cmd: LftsCmd,
}

#[derive(Subcommand, Debug)]
enum LftsCmd {
    /// Check reachability, loops, black holes, hop counts and deadlock freedom
    #[command(after_help = VALIDATE_EXAMPLES, after_long_help = VALIDATE_AFTER)]
    Validate {
        /// A multi-rail fabric: validate rail K's plane
        ///
        /// The plane on HCA port K+1.
        #[arg(long, value_name = "K")]
        rail: Option<u32>,
        /// Plan folder, fabric.yaml, topology.net or ibnetdiscover output (`-`: stdin)
        #[arg(value_name = "TOPOLOGY", required_unless_present = "topology_flag")]
        topology: Option<PathBuf>,
        /// Deprecated spelling of TOPOLOGY (one more release)
        #[arg(
            long = "topology",
            id = "topology_flag",
            value_name = "TOPOLOGY",
            hide = true,
            conflicts_with = "topology"
        )]
        topology_flag: Option<PathBuf>,
        /// LFT dump to check
        #[arg(long)]
        lfts: PathBuf,
        /// guid2lid file with the LIDs the tables were made for
        #[arg(short = 'l', long)]
        lids: Option<PathBuf>,
        /// Print the report as JSON
        #[arg(long)]
        json: bool,
        /// Fail (exit 1) on completeness gaps too
        ///
        /// Unrouted switch LIDs, or host-LID entries no host route uses.
        #[arg(long)]
        strict: bool,
        /// Routes on several VLs: the SL of every (SLID, DLID) pair
        ///
        /// path-sl.txt, as `ibfat route` writes it for a degraded fabric; with --sl2vl,
        /// deadlock freedom is checked per VL instead of on one.
        #[arg(long, value_name = "FILE", requires = "sl2vl")]
        sl: Option<PathBuf>,
        /// The SL-to-VL tables (sl2vl.txt) that go with --sl
        #[arg(long, value_name = "FILE", requires = "sl")]
        sl2vl: Option<PathBuf>,
    },
    /// List the entries that changed between two LFT dumps, per switch, with totals
    Diff(super::lfts_diff::DiffArgs),
}

impl LftsArgs {
    /// `--json` given before the subcommand.
    pub fn set_json(&mut self) {
        match &mut self.cmd {
            LftsCmd::Validate { json, .. } => *json = true,
            LftsCmd::Diff(a) => a.json = true,
        }
    }
}

pub fn run(a: LftsArgs) -> Result<i32> {
    match a.cmd {
        LftsCmd::Validate {
            rail,
            topology,
            topology_flag,
            lfts,
            lids,
            json,
            strict,
            sl,
            sl2vl,
        } => {
            let topology = topo::positional(topology, topology_flag, "--topology", "TOPOLOGY")?;
            let loaded = load_rail(&topology, super::topo::read_options(), None, rail)?;
            let loaded = super::topo::with_roles(loaded)?;
            let (lids, tables) = topo::read_lfts(&loaded, lids.as_deref(), &lfts)?;
            let (vls, sls) = match (sl, sl2vl) {
                (Some(a), Some(b)) => {
                    let (v, sls) = super::lfts_vls::check(loaded.fabric(), &lids, &tables, &a, &b)?;
                    (Some(v), Some(sls))
                }
                _ => (None, None),
            };
            // routes on an SL other than 0 are declared detours: proven per VL, not minimal
            let detour = |sw: ibfat::topology::NodeId, lid: u16| {
                sls.as_ref().is_some_and(|m| m.get(&(sw, lid)).is_some_and(|&s| s != 0))
            };
            let r = validate_declared(
                loaded.fabric(),
                &lids,
                &tables,
                loaded.model.layout(),
                sls.is_some().then_some(&detour as ibfat::check::lfts::Detour<'_>),
            );
            // with VLs, deadlock freedom is the per-VL verdict
            let deadlock_free = vls.as_ref().map_or(r.deadlock_free, |v| v.ok());
            let pass = r.data_path_ok && deadlock_free && (r.complete || !strict);
            if json {
                #[derive(serde::Serialize)]
                struct WithVls<'a> {
                    #[serde(flatten)]
                    r: &'a LftReport,
                    #[serde(skip_serializing_if = "Option::is_none")]
                    vls: Option<&'a ibfat::check::vls::VlReport>,
                }
                print_json(
                    "lfts-validate",
                    &WithVls {
                        r: &r,
                        vls: vls.as_ref(),
                    },
                )?;
            } else {
                print_text(&r, strict, pass);
                if let Some(v) = &vls {
                    super::lfts_vls::print(v);
                }
            }
            Ok(if pass { 0 } else { 1 })
        }
        LftsCmd::Diff(a) => super::lfts_diff::run(a),
    }
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "ok"
    } else {
        "FAILED"
    }
}

fn print_text(r: &LftReport, strict: bool, pass: bool) {
    outln!(
        "{} switches x {} LIDs: {} entries followed",
        r.switches,
        r.lids,
        r.entries_checked
    );
    outln!("data path: {}", verdict(r.data_path_ok));
    outln!(
        "  host routes that do not arrive {}, non-minimal where promised {}",
        r.broken_host_routes,
        r.non_minimal
    );
    outln!(
        "  hops host-to-host min/mean/max {}/{:.2}/{} over {} routes",
        r.host_hops.min,
        r.host_hops.mean,
        r.host_hops.max,
        r.host_hops.routes
    );
    outln!("deadlock: {}", if r.deadlock_free { "free" } else { "FAILED" });
    outln!(
        "  host-sourced CDG {} ({} channels, {} dependencies); with switch-sourced routes {}",
        if r.ca_sourced.acyclic { "acyclic" } else { "CYCLIC" },
        r.ca_sourced.channels,
        r.ca_sourced.dependencies,
        if r.all_sources.acyclic {
            "acyclic"
        } else {
            "cyclic (management traffic only)"
        }
    );
    if !r.ca_sourced.cycle.is_empty() {
        outln!("  cycle: {}", r.ca_sourced.cycle.join(" => "));
    }
    let gaps = if r.complete {
        "ok"
    } else if strict {
        "FAILED"
    } else {
        "gaps (warning; --strict makes them fatal)"
    };
    outln!("completeness: {gaps}");
    outln!(
        "  defective entries: switch LIDs {}, host LIDs {} (black holes {}, loops {}, misdelivered {})",
        r.defective_switch_lid_entries,
        r.defective_host_lid_entries,
        r.black_holes,
        r.loops,
        r.misdelivered
    );
    outln!(
        "  hops to switch LIDs min/mean/max {}/{:.2}/{}",
        r.switch_hops.min,
        r.switch_hops.mean,
        r.switch_hops.max
    );
    for d in &r.defects {
        outln!(
            "  {} at {} ({}) for LID 0x{:04x} -> {}: {}",
            d.kind,
            d.switch,
            d.switch_guid,
            d.lid,
            d.destination,
            d.path
        );
    }
    outln!(
        "{}",
        // `pass` holds the data path and deadlock freedom (per VL when SLs are given): what
        // is left is completeness
        match (pass, r.complete) {
            (true, true) => "valid",
            (true, false) => "valid for data traffic (completeness gaps above)",
            _ => "INVALID",
        }
    );
}
