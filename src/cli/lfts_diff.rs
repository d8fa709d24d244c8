//! `ibfat lfts diff`: what changed between two LFT dumps of one fabric (a reroute after a
//! fault, another engine, another release), like diff(1) for forwarding tables.

use super::output::print_json;
use super::topo;
use clap::Args;
use ibfat::check::lft_diff::{diff, DumpTables, LftDiff};
use ibfat::formats::lftdump;
use ibfat::load::{load, Recognize};
use ibfat::Result;
use std::path::PathBuf;

const DIFF_EXAMPLES: &str = "\
Examples:
  ibfat lfts diff lsft7/ before/opensm-lfts.dump after/opensm-lfts.dump
  ibfat lfts diff ibnetdiscover.txt old-dump_lfts.txt new-dump_lfts.txt --json";

const DIFF_AFTER: &str = "\
OLD and NEW may each be OpenSM's opensm-lfts.dump, `dump_lfts` output or `ibroute` output
of the fabric TOPOLOGY describes. Both are read with the same LIDs: --lids (a guid2lid
file), else the topology's own (ibnetdiscover output taken after the SM swept, or a plan
folder holding guid2lid), else each dump's `portguid` annotations (a LID the two dumps give
to different ports is an error).

For every switch whose entries differ (in GUID order): its GUID, LID and name, then every
changed LID with its old and new output port (`-` where that table routes nothing). Then
the switches one dump has no section for, and the totals: switches changed of switches
compared, entries changed of entries compared (entries either table routes) and the
fraction. Exit 0 when the tables are identical, 1 when they differ (as diff(1)), 2 bad
input (a dump of another fabric, a LID the dumps give to different ports), 3 a file that
cannot be read.

Examples:
  ibfat lfts diff lsft7/ before/opensm-lfts.dump after/opensm-lfts.dump
  ibfat lfts diff ibnetdiscover.txt old-dump_lfts.txt new-dump_lfts.txt --json";

#[derive(Args, Debug)]
#[command(after_help = DIFF_EXAMPLES, after_long_help = DIFF_AFTER)]
pub struct DiffArgs {
    /// Plan folder, fabric.yaml, topology.net or ibnetdiscover output (`-`: stdin)
    #[arg(value_name = "TOPOLOGY")]
    topology: PathBuf,
    /// The LFT dump before
    #[arg(value_name = "OLD")]
    old: PathBuf,
    /// The LFT dump after
    #[arg(value_name = "NEW")]
    new: PathBuf,
    /// guid2lid file with the LIDs both dumps were made for
    #[arg(short = 'l', long)]
    lids: Option<PathBuf>,
    /// Print the report as JSON
    #[arg(long)]
    pub(crate) json: bool,
}

/// Compare the two dumps; exit 0 identical, 1 different (errors: 2 bad input, 3 I/O).
pub fn run(a: DiffArgs) -> Result<i32> {
    let loaded = topo::named(load(&a.topology, super::topo::read_options(), Recognize::No)?);
    let given = topo::given_lids(&loaded, a.lids.as_deref())?;
    let fabric = loaded.fabric();
    let (old_lids, old, old_listed) = lftdump::read_listed(&a.old, fabric, given.as_ref())?;
    let (new_lids, new, new_listed) = lftdump::read_listed(&a.new, fabric, given.as_ref())?;
    let side = |lids, lfts, listed| DumpTables { lids, lfts, listed };
    let d = diff(
        fabric,
        side(&old_lids, &old, &old_listed),
        side(&new_lids, &new, &new_listed),
    )?;
    if a.json {
        print_json("lfts-diff", &d)?;
    } else {
        print_text(&d);
    }
    Ok(if d.identical() { 0 } else { 1 })
}

fn port(p: Option<u8>) -> String {
    p.map_or_else(|| "-".to_string(), |p| p.to_string())
}

fn print_text(d: &LftDiff) {
    for s in &d.switches {
        let w = &s.switch;
        outln!(
            "switch {} (GUID {}, LID {}): {} entries changed",
            w.name,
            w.guid,
            w.lid,
            s.changes.len()
        );
        for c in &s.changes {
            outln!("  LID {:>5}: port {} -> {}", c.lid, port(c.old), port(c.new));
        }
    }
    for (list, which) in [(&d.switches_only_old, "OLD"), (&d.switches_only_new, "NEW")] {
        for w in list {
            outln!("switch {} (GUID {}, LID {}): only in {which}", w.name, w.guid, w.lid);
        }
    }
    outln!(
        "{} of {} switches changed; {} of {} entries changed ({:.3}%: {} only in OLD, {} only in NEW){}",
        d.switches_changed,
        d.switches_compared,
        d.entries_changed,
        d.entries_compared,
        d.changed_fraction * 100.0,
        d.entries_only_old,
        d.entries_only_new,
        if d.identical() { "; identical" } else { "" }
    );
}
