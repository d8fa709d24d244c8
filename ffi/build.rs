//! Give the shared library a SONAME, so programs linked against it record the C ABI
//! version they were built for and the dynamic loader refuses an incompatible one.
//!
//! The SONAME is `libibfatc.so.<ABI>`: [`ABI`] is the C ABI's own version, bumped on any
//! incompatible change of `ibfat.h` (a removed or changed function, struct or enum
//! value), independently of the crate version. `make install` installs
//! `libibfatc.so.<crate version>` with the links `libibfatc.so.<ABI>` (what programs load)
//! and `libibfatc.so` (what `-libfatc` links against).

/// The C ABI version (the SONAME's number).
const ABI: u32 = 1;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libibfatc.so.{ABI}");
}
