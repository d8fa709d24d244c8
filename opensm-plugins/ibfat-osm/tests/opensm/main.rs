//! The plugin inside stock OpenSM 3.3.23 on ibsim fabrics: routing, lanes, degraded and
//! found trees, rail-optimised units, multicast and the soak (its 200-sweep run is ignored
//! by default: `cargo test -p ibfat-osm --test opensm soak_on_opensm -- --ignored`). One
//! binary, so the harness (`tests/harness/` of the workspace) is compiled once; each module
//! is the file of that name that was once a binary of its own, and every lab runs in its
//! own folder with its own ibsim socket.

#[path = "../../../../tests/harness/found.rs"]
// the binary uses some of the shapes
#[allow(dead_code)]
mod found;
#[path = "../../../../tests/harness/mod.rs"]
mod harness;

mod degraded_tree_on_opensm;
mod lanes_on_opensm;
mod mesh_lanes_on_opensm;
mod multicast_on_opensm;
mod on_opensm;
mod railopt_on_opensm;
mod soak_on_opensm;
mod tree_lanes_on_opensm;
mod tree_on_opensm;
