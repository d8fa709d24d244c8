//! `ibfat build railopt`: the family's arguments and help texts, and the spec they give
//! ([`FamilyArgs`]; the subcommand list is made from the registry).

use super::model::plan::RailoptParams;
use crate::error::Result;
use crate::topology::spec::args::{BaseOpts, FamilyArgs};
use crate::topology::spec::{FamilySpec, Spec};
use clap::Args;

const EXAMPLES: &str = "\
Examples:
  ibfat build railopt --sus 4 --out superpod/           4 x 32 DGX servers, 1,024 HCAs
  ibfat build railopt --sus 16 --levels 3 --out big/    16 units, rail spine groups and a core";

const AFTER: &str = "\
Servers dgx001 ... with HCAs mlx5_0 ... (descriptions `dgx001 mlx5_3`, as rdma-ndd writes
them); unit u's rail-r leaf is su<u>_r<r>, and server s of the unit is on port s+1 of each
of its unit's leaves (P/2 slots: N < P/2 leaves slots free, e.g. 31 DGX and a management
host), up-cables on the P/2 ports above. Two levels: every leaf has P/2 uplinks
over K spines (spine01 ...), P/2K cables per pair (the DGX SuperPOD: 4 units, 16 spines, 2
cables per pair). Three levels: the rail-r leaves of a pod of units share a rail spine
group (p<pod>_r<r>_s<k>), cores (core001 ...) join the groups; only cross-rail traffic
reaches the core. Built and routed as the PGFT it is; cables.csv adds server, hca, unit
and rail columns; `ibfat cabling PLAN DUMP` checks the rails against the plan
(docs/railopt.md §6). The largest plan one subnet holds, 32 servers x 8 rails per unit
on 64 ports: --sus 175 --levels 3 (44,800 HCAs, 3,992 switches).

Examples:
  ibfat build railopt --sus 4 --out superpod/           4 x 32 DGX, 1,024 HCAs
  ibfat build railopt --sus 1 --spines 8 --out su1/     1 unit, 8 spines, 4 cables per pair
  ibfat build railopt --sus 16 --levels 3 --out big/    16 units, rail spine groups and a core
  ibfat build railopt --sus 2 --servers-per-su 16 --rails 4 --radix 32 --out small/";

/// Rail-optimised GPU cluster: units of servers with one HCA per rail, a leaf per rail
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = AFTER)]
// the doc comments are the help texts, where `<d>`-style placeholders are no HTML
#[allow(rustdoc::invalid_html_tags)]
pub struct RailoptArgs {
    /// Scalable units S (2 levels: up to radix/R; 3 levels: up to the LID space)
    #[arg(long, value_name = "S")]
    sus: u32,
    /// Servers per unit N, 1..=radix/2 (on the first N of a leaf's radix/2 down ports)
    #[arg(long, value_name = "N", default_value = "32")]
    servers_per_su: u32,
    /// HCAs per server R, one per rail (mlx5_0 … mlx5_<R-1>), 2..=16
    #[arg(long, value_name = "R", default_value = "8")]
    rails: u32,
    /// Spines of a two-level plan: a divisor of radix/2 (default: the fewest that fit)
    #[arg(long, value_name = "K")]
    spines: Option<u32>,
    /// 2 (leaves, spines) or 3 (rail spine groups and a core)
    #[arg(long, value_name = "L", default_value = "2")]
    levels: u32,
    /// Ports of the switch model
    #[arg(long, value_name = "P", default_value = "64")]
    radix: u32,
    #[command(flatten)]
    opts: BaseOpts,
}

impl FamilyArgs for RailoptArgs {
    fn spec(&self) -> Result<Spec> {
        let family = FamilySpec::Railopt(RailoptParams {
            sus: self.sus,
            servers_per_su: self.servers_per_su,
            rails: self.rails,
            levels: self.levels,
            spines: self.spines,
            radix: self.radix,
        });
        Ok(Spec {
            family,
            options: self.opts.options(),
        })
    }

    /// One plane: `--rails` are the HCAs per server.
    fn rails(&self) -> u32 {
        1
    }
}
