//! `ibfat build kary`: the family's arguments and help texts, and the spec they give
//! ([`FamilyArgs`]; the subcommand list is made from the registry).

use super::model::KaryParams;
use crate::error::Result;
use crate::topology::spec::args::{FabricOpts, FamilyArgs};
use crate::topology::spec::{FamilySpec, Spec};
use clap::Args;

const EXAMPLES: &str = "\
Examples:
  ibfat build kary --arity 4 --levels 3 --out ft/                 64 hosts, 48 switches
  ibfat build kary --arity 18 --levels 2 --link-speed QDR --out t/";

const AFTER: &str = "\
k^n hosts and n levels of k^(n-1) switches of 2k ports, routed with d-mod-k.

Examples:
  ibfat build kary --arity 4 --levels 3 --out ft/                 64 hosts, 48 switches
  ibfat build kary --arity 18 --levels 2 --link-speed QDR --out t/";

/// Standard k-ary n-tree (k^n hosts, n levels of k^(n-1) switches)
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = AFTER)]
pub struct KaryArgs {
    /// Arity k >= 2 (switches have 2k ports)
    #[arg(long, value_name = "K")]
    arity: u32,
    /// Levels n >= 2
    #[arg(long, value_name = "N")]
    levels: u32,
    #[command(flatten)]
    opts: FabricOpts,
}

impl FamilyArgs for KaryArgs {
    fn spec(&self) -> Result<Spec> {
        let family = FamilySpec::Kary(KaryParams {
            arity: self.arity,
            levels: self.levels,
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
