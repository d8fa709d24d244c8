//! `make install` and `make uninstall` into a staging root, in a binary of its own: the
//! install builds the workspace with the `dev` profile into the shared target folder,
//! replacing `target/debug/ibfat` and the unhashed `libibfatc.a` and `libibfatosm.so` in
//! `deps/` that the other test binaries run, link and load. Cargo runs test binaries one
//! after another, so nothing else runs while it builds.

mod install;
