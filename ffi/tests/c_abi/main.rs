//! The C ABI from Rust and from C: the checked-in header, the C example, every entry
//! point's arguments at their extremes and on hostile input. One binary (each module is the
//! file of that name that was once a binary of its own); the C ABI's last error is per
//! thread, so its tests run side by side.

#[path = "../../../tests/harness/extremes.rs"]
mod extremes;
#[path = "../../../tests/harness/mod.rs"]
mod harness;

mod bcast;
mod bounded;
mod c_example;
mod header;
mod hostile_args;
mod path_plan;
mod rust_calls;
mod schedule_open;
mod selector;
