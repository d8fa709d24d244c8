//! Tests that run the `ibfat` binary (the command line as a contract: exit codes,
//! messages, reports, the files it writes) and the library checks beside them in the same
//! files, with the repository checks that run other tools (`cargo metadata`, `man`,
//! `rsvg-convert`); no ibsim, OpenSM, MPI or Slurm (those are the `lab` binary's). One binary, so the
//! shared harness is compiled once; each module is the file of that name that was once a
//! binary of its own.

#[path = "../harness/extremes.rs"]
mod extremes;
#[path = "../harness/found.rs"]
// the binary uses some of the shapes
#[allow(dead_code)]
mod found;
#[path = "../harness/mod.rs"]
mod harness;
#[path = "../harness/net_sections.rs"]
mod net_sections;

mod check_shards;
mod cli;
mod cli_discovered;
mod degraded;
mod degraded_mols;
mod degraded_schedule;
mod degraded_twosided;
mod dist;
mod fullmesh;
mod hostile_input;
mod lft_file;
mod lfts_diff;
mod numeric_extremes;
mod opensm_fixtures;
mod output_safety;
mod pgft;
mod pictures;
mod predict;
mod railopt;
mod railopt_plan;
mod rails;
mod schedule_bcast;
mod schedule_cli;
mod spread;
mod tree;
mod tree_lanes;
mod twolevel;
mod workspace;
