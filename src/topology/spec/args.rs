//! `ibfat build <family>` as the library spells it (with the `cli` feature): the options
//! every family's subcommand shares ([`BaseOpts`], [`FabricOpts`]), what a family's
//! arguments give the command ([`FamilyArgs`]), and the subcommands, one per family the
//! registry says `ibfat build` makes ([`BuildCommand`]). A family's own arguments and help
//! texts are in its folder (`model_args`), so a new family adds no line here.

use super::{parse_guid, Spec};
use crate::error::{Error, Result};
use crate::topology::{BuildOptions, Speed, Width};
use clap::{Args, Subcommand};

/// What a family's `ibfat build` arguments give the command.
pub trait FamilyArgs {
    /// The spec to build; parameters the family checks before building are checked here.
    fn spec(&self) -> Result<Spec>;

    /// Planes of the plan (`--rails`; 1 for a family whose `--rails` is its own).
    fn rails(&self) -> u32;
}

macro_rules! make_build_command {
    ($(build $variant:ident: $folder:ident,)*) => {
        /// `ibfat build <family>`: one subcommand per family `ibfat build` makes (made from
        /// the registry), the family's arguments and help from its folder, then the output
        /// options `O` of the front end.
        // no doc comments on the variants and fields: clap would take them for the help
        // text, which the family's arguments give
        #[allow(missing_docs)]
        #[derive(Subcommand, Debug)]
        pub enum BuildCommand<O: Args> {
            $(
                $variant {
                    #[command(flatten)]
                    args: crate::families::$folder::Args,
                    #[command(flatten)]
                    out: O,
                },
            )*
        }

        impl<O: Args> BuildCommand<O> {
            /// The family's arguments.
            pub fn family(&self) -> &dyn FamilyArgs {
                match self {
                    $(BuildCommand::$variant { args, .. } => args,)*
                }
            }

            /// The output options.
            pub fn into_out(self) -> O {
                match self {
                    $(BuildCommand::$variant { out, .. } => out,)*
                }
            }
        }
    };
}
crate::families::for_each_build!(make_build_command);

/// The options of every family's subcommand, with `--rails` planes.
#[derive(Args, Debug, Clone)]
// the doc comments are the help texts, where `<d>`-style placeholders are no HTML
#[allow(rustdoc::invalid_html_tags)]
pub(crate) struct FabricOpts {
    #[command(flatten)]
    base: BaseOpts,
    /// Identical planes (1..=4), one HCA port per rail on every host
    ///
    /// Every host has one HCA with a port per rail: port k+1 is on rail k; rail k's
    /// switches are named <name>-r<k> (docs/families.md).
    #[arg(long, value_name = "R", default_value = "1")]
    rails: u32,
}

/// The options that make a rebuild identical: GUIDs, shuffle, cable width and speed.
#[derive(Args, Debug, Clone)]
pub(crate) struct BaseOpts {
    /// Permute every switch's ports and draw random GUIDs from SEED
    ///
    /// For testing.
    #[arg(long, value_name = "SEED")]
    shuffle: Option<u64>,
    /// First GUID (hex)
    ///
    /// Switches get base+0x10000000+i, hosts base+0x20000000+2i.
    #[arg(long, value_name = "HEX", value_parser = parse_guid_arg)]
    guid_base: Option<u64>,
    /// Width of every cable: 1x, 4x, 8x, 12x
    #[arg(long, value_name = "WIDTH", default_value = "4x", value_parser = parse_width)]
    link_width: Width,
    /// Speed of every cable: SDR, DDR, QDR, FDR, EDR, HDR, NDR
    ///
    /// ibsim models SDR, DDR and QDR only.
    #[arg(long, value_name = "SPEED", default_value = "SDR", value_parser = parse_speed)]
    link_speed: Speed,
}

fn parse_guid_arg(s: &str) -> std::result::Result<u64, String> {
    parse_guid(s).ok_or_else(|| format!("`{s}` is not a GUID (write 0x followed by hex digits)"))
}
fn parse_width(s: &str) -> std::result::Result<Width, String> {
    s.parse().map_err(|e: Error| e.to_string())
}
fn parse_speed(s: &str) -> std::result::Result<Speed, String> {
    s.parse().map_err(|e: Error| e.to_string())
}

impl FabricOpts {
    /// The build options.
    pub(crate) fn options(&self) -> BuildOptions {
        self.base.options()
    }

    /// The planes (`--rails`).
    pub fn rails(&self) -> u32 {
        self.rails
    }
}

impl BaseOpts {
    /// The build options (the default GUID base unless one is given).
    pub(crate) fn options(&self) -> BuildOptions {
        let d = BuildOptions::default();
        BuildOptions {
            guid_base: self.guid_base.unwrap_or(d.guid_base),
            shuffle: self.shuffle,
            width: self.link_width,
            speed: self.link_speed,
        }
    }
}
