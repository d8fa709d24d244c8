#!/bin/sh
# Time OpenSM's routing pass on an LSFT in ibsim (LSFT(13) by default) with the ibfat
# engine (the plugin) against OpenSM's minhop, updn, ftree, dfsssp and nue, from OpenSM's
# own log, and measure the tables each engine programmed (docs/routing.md §2.5).
# IBFAT_BENCH_ORDER=q picks another order (32 is the largest LSFT a subnet holds; with
# all engines it needs a per-pass limit, e.g. IBFAT_BENCH_TIMEOUT=600, and
# IBFAT_BENCH_CHECK=0), IBFAT_BENCH_ENGINES=ibfat,minhop,... the engines (nue/8: Nue
# with QoS and up to 8 VLs), IBFAT_BENCH_PASSES=n the passes per engine (default 5).
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
exec cargo bench -p ibfat-osm --bench opensm_engines
