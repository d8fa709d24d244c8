//! File formats: what ibfat writes for deployment and reads back from the tools.

pub mod atomic;
pub mod chart;
pub mod cleanup;
pub mod csv;
pub mod dot;
pub mod dump;
pub mod guid2lid;
pub mod ibsim;
pub mod input;
pub mod lanes;
pub mod lftbin;
pub mod lftdump;
pub mod node_name_map;
pub mod options;
pub mod outpath;
pub mod picture;
pub mod roles;
pub mod slurm;
pub(crate) mod svg;
pub(crate) mod text;
