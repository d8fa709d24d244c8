//! `ibfat build pgft`: the family's arguments and help texts, and the spec they give
//! ([`FamilyArgs`]; the subcommand list is made from the registry).

use super::model::PgftParams;
use crate::error::Result;
use crate::topology::spec::args::{FabricOpts, FamilyArgs};
use crate::topology::spec::{FamilySpec, Spec};
use clap::Args;

const EXAMPLES: &str = "\
Examples:
  ibfat build pgft --down 24,4 --up 1,2 --parallel 1,6 --out cluster/    96 hosts, 2:1 at the leaves
  ibfat build pgft --down 4,4,4 --up 1,4,4 --parallel 1,1,1 --out ft/     the 4-ary 3-tree";

const AFTER: &str = "\
A level-l switch has m_l children and w_(l+1) parents, p_(l+1) parallel cables to each;
all switches are one model with the most ports any level needs. Routing is d-mod-k
generalised to parallel cables (docs/routing.md): shift in tree order is conflict-free on
a full-bisection PGFT (m_l*p_l = w_(l+1)*p_(l+1)), and an oversubscribed level carries no
more flows per uplink than its oversubscription forces.

Examples:
  ibfat build pgft --down 24,4 --up 1,2 --parallel 1,6 --out cluster/    96 hosts, 2:1 at the leaves
  ibfat build pgft --down 18,36 --up 1,18 --parallel 1,1 --out big/       648 hosts, 36-port switches
  ibfat build pgft --down 4,4,4 --up 1,4,4 --parallel 1,1,1 --out ft/     the 4-ary 3-tree
  ibfat build pgft --down 24,4 --up 1,2 --parallel 1,6 --hosts-per-leaf 22 --io-per-leaf 2 --out c/
                    22 hosts per leaf, the last 2 of them storage (IO<d>), 2 ports empty";

/// Parallel-ports generalised fat-tree PGFT(h; m1..mh; w1..wh; p1..ph): the fat-trees
/// sites run (parallel cables, oversubscribed, partly populated)
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = AFTER)]
// the doc comments are the help texts, where `<d>`-style placeholders are no HTML
#[allow(rustdoc::invalid_html_tags)]
pub struct PgftArgs {
    /// m1,..,mh: children per switch of levels 1 (host slots) to h
    ///
    /// Level 1 is the leaves (m1: host slots per leaf), level h the top.
    #[arg(long, value_name = "M,..", value_delimiter = ',', required = true)]
    down: Vec<u32>,
    /// w1,..,wh: parents per node (w1 = 1: one port per host)
    #[arg(long, value_name = "W,..", value_delimiter = ',', required = true)]
    up: Vec<u32>,
    /// p1,..,ph: parallel cables to each parent (p1 = 1)
    #[arg(long, value_name = "P,..", value_delimiter = ',', required = true)]
    parallel: Vec<u32>,
    /// Hosts on the first M slots of every leaf (default m1: all)
    #[arg(long, value_name = "M")]
    hosts_per_leaf: Option<u32>,
    /// The last K hosts of every leaf are non-compute
    ///
    /// Storage, login: they are named IO<d>, routed at their slots and left out of the
    /// rank order.
    #[arg(long, value_name = "K", default_value = "0")]
    io_per_leaf: u32,
    #[command(flatten)]
    opts: FabricOpts,
}

impl FamilyArgs for PgftArgs {
    fn spec(&self) -> Result<Spec> {
        let params = PgftParams::from_lists(&self.down, &self.up, &self.parallel, self.hosts_per_leaf)?
            .with_io_per_leaf(self.io_per_leaf)?;
        Ok(Spec {
            family: FamilySpec::Pgft(params),
            options: self.opts.options(),
        })
    }

    fn rails(&self) -> u32 {
        self.opts.rails()
    }
}
