//! `ibfat build twolevel`: the family's arguments and help texts, and the spec they give
//! ([`FamilyArgs`]; the subcommand list is made from the registry).

use super::model::TwolevelParams;
use crate::error::Result;
use crate::topology::spec::args::{FabricOpts, FamilyArgs};
use crate::topology::spec::{FamilySpec, Spec};
use clap::Args;

const EXAMPLES: &str = "\
Examples:
  ibfat build twolevel --leaves 52 --hosts-per-leaf 20 --spines 2 --links-per-pair 2 --out ricc/
  ibfat build twolevel --leaves 18 --hosts-per-leaf 18 --spines 9 --links-per-pair 2 --out t/";

const AFTER: &str = "\
The same fabric as `build pgft --down H,L --up 1,S --parallel 1,P`: every leaf has H host
slots and S·P uplinks (leaf oversubscription H:(S·P)), routed with d-mod-k: uplink
u = d mod (S·P) of host d (spine u mod S, cable u div S). Hosts are leaf-major:
host d = leaf · H + slot, so `--job ranks:0-3,20-23` picks slots 0-3 of leaves 0 and 1.
This is seed 001's rule (node d, numbered leaf-major, uses uplink d mod S·P); with
node numbers n counted per leaf it is n mod S·P when S·P divides H, otherwise the
same uplink classes rotated per leaf. fabric.yaml is written as family
pgft and may also be written `family: twolevel` with leaves, hosts_per_leaf, spines,
links_per_pair. `ibfat recognize --family twolevel` names a discovered 2-level fat-tree
so (automatic recognition says pgft and gives the twolevel spelling as `equivalent`).

Examples:
  ibfat build twolevel --leaves 52 --hosts-per-leaf 20 --spines 2 --links-per-pair 2 --out ricc/
  ibfat build twolevel --leaves 18 --hosts-per-leaf 18 --spines 9 --links-per-pair 2 --out t/";

/// Two-level fat-tree (leaves and spines): a spelling of PGFT(2; H,L; 1,S; 1,P)
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = AFTER)]
pub struct TwolevelArgs {
    /// Leaf switches L
    #[arg(long, value_name = "L")]
    leaves: u32,
    /// Host slots per leaf H
    #[arg(long, value_name = "H")]
    hosts_per_leaf: u32,
    /// Spine switches S
    #[arg(long, value_name = "S")]
    spines: u32,
    /// Parallel cables between each leaf and each spine P
    #[arg(long, value_name = "P", default_value = "1")]
    links_per_pair: u32,
    #[command(flatten)]
    opts: FabricOpts,
}

impl FamilyArgs for TwolevelArgs {
    /// The PGFT it spells.
    fn spec(&self) -> Result<Spec> {
        let params = TwolevelParams {
            leaves: self.leaves,
            hosts_per_leaf: self.hosts_per_leaf,
            spines: self.spines,
            links_per_pair: self.links_per_pair,
        };
        Ok(Spec {
            family: FamilySpec::Pgft(params.pgft()?),
            options: self.opts.options(),
        })
    }

    fn rails(&self) -> u32 {
        self.opts.rails()
    }
}
