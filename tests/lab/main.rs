//! The real components: ibsim, OpenSM, infiniband-diags, Open MPI and Slurm, run by the
//! harness (`tests/harness/`) on simulated fabrics; they fail, never skip, when a package
//! is missing (scripts/install-deps.sh installs them). One binary, so
//! the harness is compiled once; each module is the file of that name that was once a
//! binary of its own. Every lab allocates its own folder, ibsim socket and ports.

#[path = "../harness/found.rs"]
// the binary uses some of the shapes
#[allow(dead_code)]
mod found;
#[path = "../harness/mod.rs"]
mod harness;
#[path = "../harness/mpi.rs"]
mod mpi;

mod cabling_on_ibsim;
mod degraded_on_ibsim;
mod fullmesh_on_ibsim;
mod mpi_alltoall;
mod mpi_bcast;
mod mpi_pingpong;
mod opensm_routing;
mod plans_on_ibsim;
mod plugin_paths_on_opensm;
mod railopt_on_ibsim;
mod rails_on_ibsim;
mod rates_on_ibsim;
mod readers_on_ibsim;
mod recognize_on_ibsim;
mod slurm_check_array;
mod slurm_topology;
