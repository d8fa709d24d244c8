//! `ibfat build`: fabric families as wiring plans.

use super::output::print_json;
use clap::{Args, Subcommand};
use ibfat::cabling;
use ibfat::families::fullmesh::model::FullmeshParams;
use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::mols::model::{MolsParams, WiringChoice};
use ibfat::families::pgft::model::PgftParams;
use ibfat::families::railopt::model::plan::RailoptParams;
use ibfat::families::twolevel::model::TwolevelParams;
use ibfat::topology::spec::parse_guid;
use ibfat::topology::{BuildOptions, FamilySpec, Spec, Speed, Topology, Width};
use ibfat::{Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

const BUILD_AFTER: &str = "\
The plan folder (--out DIR) receives:
  topology.net   ibsim net file (both ends of every cable, GUIDs, node descriptions)
  cables.csv     one row per cable: both ends (switch, GUID, port) and a label
  fabric.yaml    the spec; `ibfat build --spec fabric.yaml` rebuilds the identical fabric
  topology.svg   picture drawn by ibfat (no Graphviz needed): levels as rows in canonical
                 order with coordinates (P(x,y), L(c,r) ...), every cable; fabrics with
                 more than 1500 switch-to-switch cables get incidence matrices instead
  topology.dot   the same wiring for Graphviz (--graphviz renders it: topology-graphviz.svg)
The folder is written atomically: all files or none. An existing folder is replaced only
when it holds nothing but an earlier ibfat plan; the files other ibfat commands wrote into it
(opensm-lfts.dump, guid2lid, schedule.json, schedule.csv) are kept as they are. Anything
else in it makes build refuse (exit 2) before writing. --out may be a symlink to a folder
(the folder it points to is written).

--rails R (every family) plans R identical planes, every host one HCA with port k+1 on
rail k: topology.net holds every rail, cables.csv gets a `rail` column, fabric.yaml says
`rails: R`, the pictures draw rail 0. Each rail is its own subnet: `ibfat route DIR
--rail K`, one OpenSM per rail (docs/families.md §8).

Examples:
  ibfat build lsft --order 7 --out lsft7/
  ibfat build pgft --down 24,4 --up 1,2 --parallel 1,6 --out cluster/
  ibfat build --spec lsft7/fabric.yaml --out again/     rebuild the identical fabric
  ibfat build kary --arity 4 --levels 3 --rails 2 --out dual/   dual-rail 4-ary 3-tree";

const BUILD_EXAMPLES: &str = "\
Examples:
  ibfat build lsft --order 7 --out lsft7/
  ibfat build pgft --down 24,4 --up 1,2 --parallel 1,6 --out cluster/
  ibfat build --spec lsft7/fabric.yaml --out again/     rebuild the identical fabric";

const LSFT_EXAMPLES: &str = "\
Examples:
  ibfat build lsft --order 7 --out lsft7/                        456 hosts, 114 switches
  ibfat build lsft --order 5 --two-sided --out lsft5x2/          372 hosts";

const LSFT_AFTER: &str = "\
q²+q+1 leaves (the points of the projective plane of order q) and as many spines (its
lines); leaf P is cabled to spine L when P lies on L; q+1 hosts per leaf unless
--hosts-per-leaf says fewer. --two-sided cables a second copy of leaves and hosts to the
spines' upper ports.

Examples:
  ibfat build lsft --order 7 --out lsft7/                        456 hosts, 114 switches
  ibfat build lsft --order 5 --two-sided --out lsft5x2/          372 hosts
  ibfat build lsft --order 3 --shuffle 1 --out lsft3/            ports and GUIDs in any order
  ibfat build lsft --order 32 --json                              the report only (no folder)";

const KARY_EXAMPLES: &str = "\
Examples:
  ibfat build kary --arity 4 --levels 3 --out ft/                 64 hosts, 48 switches
  ibfat build kary --arity 18 --levels 2 --link-speed QDR --out t/";

const KARY_AFTER: &str = "\
k^n hosts and n levels of k^(n-1) switches of 2k ports, routed with d-mod-k.

Examples:
  ibfat build kary --arity 4 --levels 3 --out ft/                 64 hosts, 48 switches
  ibfat build kary --arity 18 --levels 2 --link-speed QDR --out t/";

const MOLS_EXAMPLES: &str = "\
Examples:
  ibfat build mols --arity 7 --out mols7/                         343 hosts, wiring auto
  ibfat build mols --arity 6 --wiring basic --out mols6/";

const MOLS_AFTER: &str = "\
n³ hosts on n² bottom, n² middle and n² top switches of 2n ports; the middle stage is
rewired so that more bottoms share a middle switch (fewer hops). `ibfat metrics hops`
compares the wirings.

Examples:
  ibfat build mols --arity 7 --out mols7/                         343 hosts, wiring auto
  ibfat build mols --arity 6 --wiring basic --out mols6/";

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true, after_help = BUILD_EXAMPLES, after_long_help = BUILD_AFTER)]
pub struct BuildArgs {
    #[command(subcommand)]
    family: Option<BuildFamily>,
    /// Rebuild the fabric described by a fabric.yaml
    #[arg(long, value_name = "FILE", required = true)]
    spec: Option<PathBuf>,
    #[command(flatten)]
    out: OutArgs,
    /// `--json` given before the subcommand (`ibfat --json build ...`).
    #[arg(skip)]
    pub(crate) json_first: bool,
}

#[derive(Subcommand, Debug)]
enum BuildFamily {
    /// Latin-square fat-tree from the projective plane of order Q
    #[command(after_help = LSFT_EXAMPLES, after_long_help = LSFT_AFTER)]
    Lsft {
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
        #[command(flatten)]
        out: OutArgs,
    },
    /// Standard k-ary n-tree (k^n hosts, n levels of k^(n-1) switches)
    #[command(after_help = KARY_EXAMPLES, after_long_help = KARY_AFTER)]
    Kary {
        /// Arity k >= 2 (switches have 2k ports)
        #[arg(long, value_name = "K")]
        arity: u32,
        /// Levels n >= 2
        #[arg(long, value_name = "N")]
        levels: u32,
        #[command(flatten)]
        opts: FabricOpts,
        #[command(flatten)]
        out: OutArgs,
    },
    /// 3-level fat-tree with the middle stage rewired by orthogonal Latin squares
    #[command(after_help = MOLS_EXAMPLES, after_long_help = MOLS_AFTER)]
    Mols {
        /// Arity n >= 2: n³ hosts, 3n² switches of 2n ports
        #[arg(long, value_name = "N")]
        arity: u32,
        /// standard | basic (r + u·c mod n) | mols (GF(n), prime powers) | auto (best available)
        #[arg(long, default_value = "auto", value_parser = parse_wiring)]
        wiring: WiringChoice,
        #[command(flatten)]
        opts: FabricOpts,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Parallel-ports generalised fat-tree PGFT(h; m1..mh; w1..wh; p1..ph): the fat-trees
    /// sites run (parallel cables, oversubscribed, partly populated)
    #[command(after_help = PGFT_EXAMPLES, after_long_help = PGFT_AFTER)]
    Pgft {
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
        #[command(flatten)]
        out: OutArgs,
    },
    /// Full mesh: N switches, every pair cabled (W parallel cables), H hosts per switch
    #[command(after_help = FULLMESH_EXAMPLES, after_long_help = FULLMESH_AFTER)]
    Fullmesh {
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
        #[command(flatten)]
        out: OutArgs,
    },
    /// Rail-optimised GPU cluster: units of servers with one HCA per rail, a leaf per rail
    #[command(after_help = RAILOPT_EXAMPLES, after_long_help = RAILOPT_AFTER)]
    Railopt {
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
        #[command(flatten)]
        out: OutArgs,
    },
    /// Two-level fat-tree (leaves and spines): a spelling of PGFT(2; H,L; 1,S; 1,P)
    #[command(after_help = TWOLEVEL_EXAMPLES, after_long_help = TWOLEVEL_AFTER)]
    Twolevel {
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
        #[command(flatten)]
        out: OutArgs,
    },
}

const FULLMESH_EXAMPLES: &str = "\
Examples:
  ibfat build fullmesh --switches 8 --hosts-per-switch 4 --out mesh8/       32 hosts, 28 cables between switches
  ibfat build fullmesh --switches 32 --hosts-per-switch 16 --json            the report only";

const FULLMESH_AFTER: &str = "\
N switches, every pair joined by W cables (default 1), H hosts on every switch: H + W(N-1)
ports per switch, at most 254. Routed direct on the base LID; with `ibfat route --lmc L`
the other LID offsets detour through one relay switch each (two hops), on SL 1 with two
data VLs, proven deadlock-free per VL (docs/families.md, docs/routing.md).

Examples:
  ibfat build fullmesh --switches 8 --hosts-per-switch 4 --out mesh8/       32 hosts, 28 cables between switches
  ibfat build fullmesh --switches 6 --hosts-per-switch 2 --cables-per-pair 2 --shuffle 1 --out m6/
  ibfat build fullmesh --switches 32 --hosts-per-switch 16 --json            the report only";

const RAILOPT_EXAMPLES: &str = "\
Examples:
  ibfat build railopt --sus 4 --out superpod/           4 x 32 DGX servers, 1,024 HCAs
  ibfat build railopt --sus 16 --levels 3 --out big/    16 units, rail spine groups and a core";

const RAILOPT_AFTER: &str = "\
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

const TWOLEVEL_EXAMPLES: &str = "\
Examples:
  ibfat build twolevel --leaves 52 --hosts-per-leaf 20 --spines 2 --links-per-pair 2 --out ricc/
  ibfat build twolevel --leaves 18 --hosts-per-leaf 18 --spines 9 --links-per-pair 2 --out t/";

const TWOLEVEL_AFTER: &str = "\
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

const PGFT_EXAMPLES: &str = "\
Examples:
  ibfat build pgft --down 24,4 --up 1,2 --parallel 1,6 --out cluster/    96 hosts, 2:1 at the leaves
  ibfat build pgft --down 4,4,4 --up 1,4,4 --parallel 1,1,1 --out ft/     the 4-ary 3-tree";

const PGFT_AFTER: &str = "\
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

fn parse_wiring(s: &str) -> std::result::Result<WiringChoice, String> {
    s.parse().map_err(|e: Error| e.to_string())
}

#[derive(Args, Debug, Clone)]
struct FabricOpts {
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
struct BaseOpts {
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

#[derive(Args, Debug, Clone)]
pub struct OutArgs {
    /// Write the plan folder here (atomically)
    ///
    /// Without it only the report is printed.
    #[arg(short = 'o', long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Do not draw topology.svg
    #[arg(long)]
    no_svg: bool,
    /// Also render topology.dot with Graphviz into topology-graphviz.svg
    ///
    /// At most 60 s; slow beyond a few hundred switches.
    #[arg(long)]
    graphviz: bool,
    /// Print the report as JSON
    #[arg(long)]
    pub(crate) json: bool,
}

/// What `ibfat build` reports.
#[derive(Serialize, Debug)]
pub struct BuildReport {
    pub family: String,
    pub name: String,
    pub description: String,
    pub switches: usize,
    pub hosts: usize,
    pub cables: usize,
    pub switch_cables: usize,
    pub hosts_per_switch: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proximity_switches: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out: Option<PathBuf>,
    pub files: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg_note: Option<String>,
    /// Other commands' files found in the plan folder and kept (route's dump, a schedule).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<String>,
    /// Planes of a multi-rail plan (absent = 1); the counts above are for all rails.
    #[serde(skip_serializing_if = "is_one")]
    pub rails: u32,
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

impl FabricOpts {
    fn options(&self) -> BuildOptions {
        self.base.options()
    }
}

impl BaseOpts {
    fn options(&self) -> BuildOptions {
        let d = BuildOptions::default();
        BuildOptions {
            guid_base: self.guid_base.unwrap_or(d.guid_base),
            shuffle: self.shuffle,
            width: self.link_width,
            speed: self.link_speed,
        }
    }
}

/// Build the plan and write it; shared with `ibfat demo`.
pub fn build_and_write(
    spec: &Spec,
    out: Option<&Path>,
    pictures: cabling::Pictures,
) -> Result<(Topology, BuildReport)> {
    build_and_write_rails(spec, 1, out, pictures)
}

/// [`build_and_write`] for a plan of `rails` identical planes (the returned topology is
/// rail 0's plane as the spec builds it).
pub fn build_and_write_rails(
    spec: &Spec,
    rails: u32,
    out: Option<&Path>,
    pictures: cabling::Pictures,
) -> Result<(Topology, BuildReport)> {
    let plan = spec.build()?;
    let all = ibfat::topology::rails::multi_rail(&plan.fabric, rails)?;
    let mut report = BuildReport {
        family: match &spec.family {
            FamilySpec::Railopt(_) => "railopt".into(),
            _ => plan.layout.family_name().into(),
        },
        name: plan.name.clone(),
        description: match &spec.family {
            FamilySpec::Railopt(p) => format!("{} ({})", p.describe(), plan.layout.describe()),
            _ => plan.layout.describe(),
        },
        switches: all.switches().count(),
        hosts: plan.layout.hosts().len(),
        cables: all.link_count(),
        switch_cables: all.link_count() - rails as usize * plan.layout.hosts().len(),
        hosts_per_switch: plan.layout.hosts().len() as f64 / plan.fabric.switches().count() as f64,
        proximity_switches: match &plan.layout {
            ibfat::topology::Layout::Mols(l) => Some(l.proximity().mean),
            _ => None,
        },
        out: out.map(Path::to_path_buf),
        files: Vec::new(),
        svg_note: None,
        kept: Vec::new(),
        rails,
    };
    if let Some(dir) = out {
        let spinner = pictures
            .graphviz
            .map(|_| super::output::spinner("rendering topology-graphviz.svg with Graphviz"));
        let written = cabling::rails::write_plan_rails(&plan, rails, dir, pictures);
        if let Some(s) = spinner {
            s.finish_and_clear();
        }
        let written = written?;
        report.files = written.written;
        report.svg_note = written.svg_note;
        report.kept = written.kept;
    }
    Ok((plan, report))
}

pub fn print_report(r: &BuildReport) {
    if r.rails > 1 {
        outln!(
            "{} ({}), {} rails (rail k on HCA port k+1)",
            r.description,
            r.name,
            r.rails
        );
    } else {
        outln!("{} ({})", r.description, r.name);
    }
    outln!(
        "  {} switches, {} hosts, {} cables ({} switch-to-switch), {:.2} hosts per switch",
        r.switches,
        r.hosts,
        r.cables,
        r.switch_cables,
        r.hosts_per_switch
    );
    if let Some(p) = r.proximity_switches {
        outln!("  proximity switches (bottoms sharing a middle switch, self included): {p:.1}");
    }
    if let Some(dir) = &r.out {
        outln!("  wrote {}: {}", dir.display(), r.files.join(", "));
        if !r.kept.is_empty() {
            outln!(
                "  kept {} (written by other commands; re-run them if the fabric changed)",
                r.kept.join(", ")
            );
        }
        if let Some(note) = &r.svg_note {
            outln!("  no topology-graphviz.svg: {note}");
        }
    }
}

pub fn run(a: BuildArgs) -> Result<i32> {
    let json_first = a.json_first;
    let rails = a.family.as_ref().map(BuildFamily::rails);
    let (spec, out) = match a.family {
        Some(BuildFamily::Lsft {
            order,
            two_sided,
            hosts_per_leaf,
            opts,
            out,
        }) => (
            Spec {
                family: FamilySpec::Lsft(LsftParams {
                    order,
                    two_sided,
                    hosts_per_leaf,
                }),
                options: opts.options(),
            },
            out,
        ),
        Some(BuildFamily::Kary {
            arity,
            levels,
            opts,
            out,
        }) => (
            Spec {
                family: FamilySpec::Kary(KaryParams { arity, levels }),
                options: opts.options(),
            },
            out,
        ),
        Some(BuildFamily::Mols {
            arity,
            wiring,
            opts,
            out,
        }) => (
            Spec {
                family: FamilySpec::Mols(MolsParams { arity, wiring }),
                options: opts.options(),
            },
            out,
        ),
        Some(BuildFamily::Pgft {
            down,
            up,
            parallel,
            hosts_per_leaf,
            io_per_leaf,
            opts,
            out,
        }) => (
            Spec {
                family: FamilySpec::Pgft(
                    PgftParams::from_lists(&down, &up, &parallel, hosts_per_leaf)?.with_io_per_leaf(io_per_leaf)?,
                ),
                options: opts.options(),
            },
            out,
        ),
        Some(BuildFamily::Twolevel {
            leaves,
            hosts_per_leaf,
            spines,
            links_per_pair,
            opts,
            out,
        }) => (
            Spec {
                family: FamilySpec::Pgft(
                    TwolevelParams {
                        leaves,
                        hosts_per_leaf,
                        spines,
                        links_per_pair,
                    }
                    .pgft()?,
                ),
                options: opts.options(),
            },
            out,
        ),
        Some(BuildFamily::Railopt {
            sus,
            servers_per_su,
            rails,
            spines,
            levels,
            radix,
            opts,
            out,
        }) => (
            Spec {
                family: FamilySpec::Railopt(RailoptParams {
                    sus,
                    servers_per_su,
                    rails,
                    levels,
                    spines,
                    radix,
                }),
                options: opts.options(),
            },
            out,
        ),
        Some(BuildFamily::Fullmesh {
            switches,
            hosts_per_switch,
            cables_per_pair,
            opts,
            out,
        }) => (
            Spec {
                family: FamilySpec::Fullmesh(FullmeshParams {
                    switches,
                    hosts_per_switch,
                    cables_per_pair,
                }),
                options: opts.options(),
            },
            out,
        ),
        None => {
            let path = a.spec.expect("clap requires --spec without a family");
            let text = ibfat::formats::input::read_text(&path, ibfat::formats::input::SPEC)?;
            let spec = Spec::from_yaml(&text, &path)?;
            let rails = Spec::rails_from_yaml(&text, &path)?;
            return finish(&spec, rails, a.out, json_first);
        }
    };
    finish(&spec, rails.unwrap_or(1), out, json_first)
}

impl BuildFamily {
    /// `--rails` of whichever family was given.
    fn rails(&self) -> u32 {
        match self {
            BuildFamily::Lsft { opts, .. }
            | BuildFamily::Kary { opts, .. }
            | BuildFamily::Mols { opts, .. }
            | BuildFamily::Pgft { opts, .. }
            | BuildFamily::Fullmesh { opts, .. }
            | BuildFamily::Twolevel { opts, .. } => opts.rails,
            BuildFamily::Railopt { .. } => 1,
        }
    }
}

fn finish(spec: &Spec, rails: u32, out: OutArgs, json_first: bool) -> Result<i32> {
    let pictures = cabling::Pictures {
        svg: !out.no_svg,
        graphviz: out.graphviz.then_some(Duration::from_secs(60)),
    };
    let (_, report) = build_and_write_rails(spec, rails, out.out.as_deref(), pictures)?;
    if out.json || json_first {
        print_json("build", &report)?;
    } else {
        print_report(&report);
    }
    Ok(0)
}
