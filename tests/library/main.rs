//! The library's own tests: properties of the families, routing, recognition, schedules
//! and readers, checked in-process with no external program (the `ibfat` binary, ibsim
//! and OpenSM are the `cli` and `lab` binaries'). One binary, so the shared harness is
//! compiled once; each module is the file of that name that was once a binary of its own.

#[path = "../harness/found.rs"]
// the family suite takes one shape
#[allow(dead_code)]
mod found;
#[path = "../harness/mod.rs"]
mod harness;
#[path = "../harness/net_sections.rs"]
mod net_sections;

mod cabling_check;
mod conflicts;
mod degraded_pgft;
mod degraded_routing;
mod escape;
mod families;
mod fixtures;
mod layers;
mod parser_mutations;
mod recognize;
mod routing;
mod schedule_peer;
mod schedules_on_lfts;
mod seed001;
