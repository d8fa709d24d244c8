#!/bin/sh
# The whole test suite, from a fresh Debian machine: install what the real-component
# tests need (OpenSM, ibsim, infiniband-diags), then lint, document and test the workspace.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p ibfat --all-targets --features verbs --locked -- -D warnings
# the maintainers' documentation (private items too: module docs point into private
# modules) builds without a broken link
RUSTDOCFLAGS="-D warnings -A rustdoc::private_intra_doc_links" \
    cargo doc --workspace --no-deps --document-private-items --locked
cargo test --workspace --locked
