#!/bin/sh
# The whole test suite, from a fresh Debian machine: install what the real-component
# tests need (OpenSM, ibsim, infiniband-diags), then lint and test the workspace.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p ibfat --all-targets --features verbs --locked -- -D warnings
cargo test --workspace --locked
