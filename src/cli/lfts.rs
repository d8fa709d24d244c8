//! `ibfat lfts validate`: check LFTs (ours, OpenSM's, or dumped from a live fabric).

use super::output::print_json;
use super::topo;
use clap::{Args, Subcommand};
use ibfat::check::validate;
use ibfat::formats::dump::ParseOptions;
use ibfat::load::{load, Recognise};
use ibfat::Result;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct LftsArgs {
    #[command(subcommand)]
    cmd: LftsCmd,
}

#[derive(Subcommand, Debug)]
enum LftsCmd {
    /// Check reachability, loops, black holes, hop counts and deadlock freedom
    #[command(after_help = "\
LFTS may be OpenSM's opensm-lfts.dump, `dump_lfts` output or `ibroute` output.
LIDs come from --lids (a guid2lid file), else from the topology (ibnetdiscover output taken
after the SM swept, or a plan folder holding guid2lid), else from the dump's own
`portguid` annotations (OpenSM's opensm-lfts.dump, dump_lfts and ibroute carry them).

Checked: every switch delivers every CA and switch LID (no black holes, loops or wrong
deliveries); hop counts (minimal where the family promises it: LSFT and k-ary host routes,
MOLS latency routes); deadlock freedom by an acyclic channel dependency graph of all routes
that start at CA ports (routes starting at switches carry only VL15 management traffic and
are reported separately). Exit 0 valid, 1 defects found (each named with switch, LID and
path), 2 bad input.

Example:
  ibfat lfts validate --topology ibnetdiscover.txt --lfts dump_lfts.txt --json")]
    Validate {
        /// Plan folder, fabric.yaml, topology.net or ibnetdiscover output
        #[arg(long)]
        topology: PathBuf,
        /// LFT dump to check
        #[arg(long)]
        lfts: PathBuf,
        /// guid2lid file with the LIDs the tables were made for
        #[arg(long)]
        lids: Option<PathBuf>,
        /// Print the report as JSON
        #[arg(long)]
        json: bool,
    },
}

pub fn run(a: LftsArgs) -> Result<i32> {
    match a.cmd {
        LftsCmd::Validate {
            topology,
            lfts,
            lids,
            json,
        } => {
            let loaded = load(&topology, ParseOptions::default(), Recognise::Yes(None))?;
            let (lids, tables) = topo::read_lfts(&loaded, lids.as_deref(), &lfts)?;
            let r = validate(&loaded.fabric, &lids, &tables, loaded.layout.as_ref());
            if json {
                print_json(&r)?;
            } else {
                outln!(
                    "{} switches x {} LIDs: {} entries followed",
                    r.switches,
                    r.lids,
                    r.entries_checked
                );
                outln!(
                    "  black holes {}, loops {}, misdelivered {}, non-minimal where promised {}",
                    r.black_holes,
                    r.loops,
                    r.misdelivered,
                    r.non_minimal
                );
                outln!(
                    "  hops host-to-host min/mean/max {}/{:.2}/{} over {} routes; to switches {}/{:.2}/{}",
                    r.host_hops.min,
                    r.host_hops.mean,
                    r.host_hops.max,
                    r.host_hops.routes,
                    r.switch_hops.min,
                    r.switch_hops.mean,
                    r.switch_hops.max
                );
                outln!(
                    "  deadlock: CA-sourced CDG {} ({} channels, {} dependencies); with switch-sourced routes {}",
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
                outln!("{}", if r.ok { "valid" } else { "INVALID" });
            }
            Ok(if r.ok { 0 } else { 1 })
        }
    }
}
