//! `ibfat build fullmesh`: the family's arguments and help texts, and the spec they give
//! ([`FamilyArgs`]; the subcommand list is made from the registry).

use super::model::FullmeshParams;
use crate::error::Result;
use crate::topology::spec::args::{FabricOpts, FamilyArgs};
use crate::topology::spec::{FamilySpec, Spec};
use clap::Args;

const EXAMPLES: &str = "\
Examples:
  ibfat build fullmesh --switches 8 --hosts-per-switch 4 --out mesh8/       32 hosts, 28 cables between switches
  ibfat build fullmesh --switches 32 --hosts-per-switch 16 --json            the report only";

const AFTER: &str = "\
N switches, every pair joined by W cables (default 1), H hosts on every switch: H + W(N-1)
ports per switch, at most 254. Routed direct on the base LID; with `ibfat route --lmc L`
the other LID offsets detour through one relay switch each (two hops), on SL 1 with two
data VLs, proven deadlock-free per VL (docs/families.md, docs/routing.md).

Examples:
  ibfat build fullmesh --switches 8 --hosts-per-switch 4 --out mesh8/       32 hosts, 28 cables between switches
  ibfat build fullmesh --switches 6 --hosts-per-switch 2 --cables-per-pair 2 --shuffle 1 --out m6/
  ibfat build fullmesh --switches 32 --hosts-per-switch 16 --json            the report only";

/// Full mesh: N switches, every pair cabled (W parallel cables), H hosts per switch
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = AFTER)]
pub struct FullmeshArgs {
    /// Switches N >= 3
    #[arg(long, value_name = "N")]
    switches: u32,
    /// Hosts per switch H >= 1
    #[arg(long, value_name = "H")]
    hosts_per_switch: u32,
    /// Parallel cables between every pair of switches W >= 1
    #[arg(long, value_name = "W", default_value = "1")]
    cables_per_pair: u32,
    #[command(flatten)]
    opts: FabricOpts,
}

impl FamilyArgs for FullmeshArgs {
    fn spec(&self) -> Result<Spec> {
        let family = FamilySpec::Fullmesh(FullmeshParams {
            switches: self.switches,
            hosts_per_switch: self.hosts_per_switch,
            cables_per_pair: self.cables_per_pair,
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
