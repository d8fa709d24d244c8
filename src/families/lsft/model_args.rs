//! `ibfat build lsft`: the family's arguments and help texts, and the spec they give
//! ([`FamilyArgs`]; the subcommand list is made from the registry).

use super::model::LsftParams;
use crate::error::Result;
use crate::topology::spec::args::{FabricOpts, FamilyArgs};
use crate::topology::spec::{FamilySpec, Spec};
use clap::Args;

const EXAMPLES: &str = "\
Examples:
  ibfat build lsft --order 7 --out lsft7/                        456 hosts, 114 switches
  ibfat build lsft --order 5 --two-sided --out lsft5x2/          372 hosts";

const AFTER: &str = "\
q²+q+1 leaves (the points of the projective plane of order q) and as many spines (its
lines); leaf P is cabled to spine L when P lies on L; q+1 hosts per leaf unless
--hosts-per-leaf says fewer. --two-sided cables a second copy of leaves and hosts to the
spines' upper ports.

Examples:
  ibfat build lsft --order 7 --out lsft7/                        456 hosts, 114 switches
  ibfat build lsft --order 5 --two-sided --out lsft5x2/          372 hosts
  ibfat build lsft --order 3 --shuffle 1 --out lsft3/            ports and GUIDs in any order
  ibfat build lsft --order 32 --json                              the report only (no folder)";

/// Latin-square fat-tree from the projective plane of order Q
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = AFTER)]
pub struct LsftArgs {
    /// Order q of the projective plane: a prime power (2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17 ...)
    #[arg(long, value_name = "Q")]
    order: u32,
    /// Also cable the spines' upper q+1 ports to a second copy of all leaves and hosts
    #[arg(long)]
    two_sided: bool,
    /// Hosts per leaf, 1..=q+1 (default q+1)
    #[arg(long, value_name = "M")]
    hosts_per_leaf: Option<u32>,
    #[command(flatten)]
    opts: FabricOpts,
}

impl FamilyArgs for LsftArgs {
    fn spec(&self) -> Result<Spec> {
        let family = FamilySpec::Lsft(LsftParams {
            order: self.order,
            two_sided: self.two_sided,
            hosts_per_leaf: self.hosts_per_leaf,
        });
        Ok(Spec {
            family,
            options: self.opts.options(),
        })
    }

    fn rails(&self) -> u32 {
        self.opts.rails()
    }
}
