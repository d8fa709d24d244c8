#!/bin/sh
# Time OpenSM's routing pass on LSFT(13) in ibsim with the ibfat engine (the plugin),
# minhop and ftree, from OpenSM's own log. IBFAT_BENCH_ORDER=q picks another order.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
exec cargo bench -p ibfat-osm --bench opensm_engines
