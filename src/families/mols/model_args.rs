//! `ibfat build mols`: the family's arguments and help texts, and the spec they give
//! ([`FamilyArgs`]; the subcommand list is made from the registry).

use super::model::{MolsParams, WiringChoice};
use crate::error::Error;
use crate::error::Result;
use crate::topology::spec::args::{FabricOpts, FamilyArgs};
use crate::topology::spec::{FamilySpec, Spec};
use clap::Args;

const EXAMPLES: &str = "\
Examples:
  ibfat build mols --arity 7 --out mols7/                         343 hosts, wiring auto
  ibfat build mols --arity 6 --wiring basic --out mols6/";

const AFTER: &str = "\
n³ hosts on n² bottom, n² middle and n² top switches of 2n ports; the middle stage is
rewired so that more bottoms share a middle switch (fewer hops). `ibfat metrics hops`
compares the wirings.

Examples:
  ibfat build mols --arity 7 --out mols7/                         343 hosts, wiring auto
  ibfat build mols --arity 6 --wiring basic --out mols6/";

/// 3-level fat-tree with the middle stage rewired by orthogonal Latin squares
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = AFTER)]
pub struct MolsArgs {
    /// Arity n >= 2: n³ hosts, 3n² switches of 2n ports
    #[arg(long, value_name = "N")]
    arity: u32,
    /// standard | basic (r + u·c mod n) | mols (GF(n), prime powers) | auto (best available)
    #[arg(long, default_value = "auto", value_parser = parse_wiring)]
    wiring: WiringChoice,
    #[command(flatten)]
    opts: FabricOpts,
}

fn parse_wiring(s: &str) -> std::result::Result<WiringChoice, String> {
    s.parse().map_err(|e: Error| e.to_string())
}

impl FamilyArgs for MolsArgs {
    fn spec(&self) -> Result<Spec> {
        let family = FamilySpec::Mols(MolsParams {
            arity: self.arity,
            wiring: self.wiring,
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
