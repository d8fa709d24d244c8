//! File formats: what ibfat writes for deployment and reads back from the tools.

pub mod atomic;
pub mod csv;
pub mod dot;
pub mod ibnetdiscover;
pub mod ibsim;
pub mod lftdump;
pub mod options;
