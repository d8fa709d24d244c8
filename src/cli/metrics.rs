//! `ibfat metrics`: cost and latency figures.

use super::output::print_json;
use clap::{Args, ValueEnum};
use ibfat::metrics::{cost_table, hop_table, CostRow, HopRow};
use ibfat::{Error, Result};
use serde::Serialize;

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Which {
    /// Hosts, switches and cables by switch degree d for 2/3-level fat-trees, LSFTs and full meshes
    Cost,
    /// Proximity switches and average hops of the 3-level wirings by arity
    Hops,
    /// Both tables
    All,
}

const METRICS_EXAMPLES: &str = "\
Examples:
  ibfat metrics cost --degrees 16..=20
  ibfat metrics hops --arities 4..=8 --json";

const METRICS_AFTER: &str = "\
Cost: with switches of degree d (2d ports) a 2-level fat-tree has d² hosts and 2d switches,
a 3-level one d³ hosts and 3d² switches, an LSFT of order q = d−1 (prime power) d(q²+q+1)
hosts and 2(q²+q+1) switches one-sided (twice the hosts, 3(q²+q+1) switches two-sided),
a full mesh d+1 switches with d hosts each (d(d+1) hosts, d(d+1)/2 switch cables).
Hops count switches traversed (1, 3 or 5); averages are over all ordered host pairs,
a host to itself included (0 hops).

Examples:
  ibfat metrics cost --degrees 16..=20
  ibfat metrics hops --arities 4..=8 --json";

#[derive(Args, Debug)]
#[command(after_help = METRICS_EXAMPLES, after_long_help = METRICS_AFTER)]
pub struct MetricsArgs {
    /// Which table
    #[arg(value_enum, default_value = "all")]
    which: Which,
    /// Switch degrees for the cost table, as FROM..=TO
    #[arg(long, default_value = "3..=18", value_parser = parse_range)]
    degrees: (u32, u32),
    /// Arities for the hop table, as FROM..=TO
    #[arg(long, default_value = "2..=20", value_parser = parse_range)]
    arities: (u32, u32),
    /// Print JSON
    #[arg(long)]
    pub(crate) json: bool,
}

fn parse_range(s: &str) -> std::result::Result<(u32, u32), String> {
    let (a, b) = s
        .split_once("..=")
        .or_else(|| s.split_once(".."))
        .or_else(|| s.split_once('-'))
        .ok_or_else(|| format!("`{s}` is not a range; write FROM..=TO, e.g. 2..=20"))?;
    let a: u32 = a.trim().parse().map_err(|_| format!("`{a}` is not a number"))?;
    let b: u32 = b.trim().parse().map_err(|_| format!("`{b}` is not a number"))?;
    if a < 2 || b < a || b > 64 {
        return Err(format!("{s}: expected 2 <= FROM <= TO <= 64"));
    }
    Ok((a, b))
}

#[derive(Serialize)]
struct Report {
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<Vec<CostRow>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hops: Option<Vec<HopRow>>,
}

pub fn run(a: MetricsArgs) -> Result<i32> {
    let cost =
        matches!(a.which, Which::Cost | Which::All).then(|| cost_table((a.degrees.0 as u64)..=(a.degrees.1 as u64)));
    let hops = matches!(a.which, Which::Hops | Which::All).then(|| hop_table(a.arities.0..=a.arities.1));
    if a.json {
        print_json("metrics", &Report { cost, hops })?;
        return Ok(0);
    }
    if let Some(rows) = &cost {
        print_cost(rows);
    }
    if let Some(rows) = &hops {
        if cost.is_some() {
            outln!();
        }
        print_hops(rows);
    }
    Ok(0)
}

fn opt(c: Option<ibfat::metrics::Counts>, f: impl Fn(ibfat::metrics::Counts) -> String) -> String {
    c.map(f).unwrap_or_else(|| "-".into())
}

pub fn print_cost(rows: &[CostRow]) {
    outln!("Cost by switch degree d (hosts / switches / switch-to-switch cables):");
    outln!(
        "{:>3} {:>5} | {:>22} | {:>24} | {:>22} | {:>22} | {:>16}",
        "d",
        "ports",
        "2-level fat-tree",
        "3-level fat-tree",
        "LSFT one-sided",
        "LSFT two-sided",
        "full mesh"
    );
    let fmt = |c: ibfat::metrics::Counts| format!("{}/{}/{}", c.hosts, c.switches, c.switch_cables);
    for r in rows {
        outln!(
            "{:>3} {:>5} | {:>22} | {:>24} | {:>22} | {:>22} | {:>16}",
            r.degree,
            r.ports,
            fmt(r.fat_tree_2_level),
            fmt(r.fat_tree_3_level),
            opt(r.lsft_one_sided, fmt),
            opt(r.lsft_two_sided, fmt),
            fmt(r.full_mesh)
        );
    }
}

pub fn print_hops(rows: &[HopRow]) {
    outln!("3-level fat-trees: proximity switches (bound n(n-1)+1) and average hops by wiring:");
    outln!(
        "{:>3} {:>6} {:>5} | {:>15} | {:>15} | {:>15} | {:>8} {:>9}",
        "n",
        "hosts",
        "bound",
        "standard",
        "basic",
        "mols",
        "within3",
        "avg hops"
    );
    let f = |w: &ibfat::metrics::WiringFigures| format!("{:.1} / {:.2}", w.proximity_switches, w.average_hops);
    for r in rows {
        outln!(
            "{:>3} {:>6} {:>5} | {:>15} | {:>15} | {:>15} | {:>7.1}x {:>+8.1}%",
            r.arity,
            r.hosts,
            r.bound,
            f(&r.standard),
            f(&r.basic),
            r.mols.as_ref().map(f).unwrap_or_else(|| "-".into()),
            r.within_3_hops_gain,
            100.0 * r.average_hops_change
        );
    }
    let _ = Error::Tool(String::new()); // keep the error type in scope for future reports
}
