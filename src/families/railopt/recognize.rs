//! A rail-optimised cluster is recognised as the PGFT it is; its rails then order the
//! hosts (`recognize_slots`).

pub(crate) use crate::families::pgft::recognize::recognize;
