#!/bin/sh
# Fuzz every input parser for SECONDS each (default 600): ibnetdiscover dumps (every
# variant), iblinkinfo, subnet.lst, ibsim net files, LFT dumps, guid2lid, schedule JSON,
# fabric.yaml, the binary table file, host-role lists, path-sl/sl2vl, node name maps and
# broadcast plans.
#
#   scripts/fuzz.sh [SECONDS]          (FUZZ_TARGETS="a b" to run only those)
#
# It runs the cargo-fuzz targets of fuzz/ (installing cargo-fuzz from crates.io when
# missing), each seeded with the repository's fixtures; crashes land in
# fuzz/artifacts/<target>/. The sanitizer flags cargo-fuzz passes need a nightly
# toolchain; where none can be installed (no toolchain can be fetched on the project's
# machines) the stable one is used with RUSTC_BOOTSTRAP=1. Where even that fails it says
# so and runs the stable fallback instead: the byte/line mutation loops of
# tests/library/parser_mutations.rs over the same fixtures, time-boxed per parser.
# Per target it prints the runs and the crashes found.
set -eu
cd "$(dirname "$0")/.."
SECS=${1:-600}
case $SECS in ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2;; esac
ROOT=$(pwd)
TARGETS=${FUZZ_TARGETS:-"parse_dump parse_iblinkinfo parse_subnet_lst parse_ibsim_net parse_lft_dump parse_guid2lid parse_schedule_json parse_fabric_yaml parse_lft_bin parse_roles parse_lanes parse_node_name_map parse_bcast_json"}
G2L=fixtures/opensm/lsft2x2/guid2lid

seed_corpus() { # target -> seed files
    d="fuzz/corpus/$1"
    mkdir -p "$d"
    case $1 in
        parse_dump) for f in fixtures/*/ibnetdiscover*.txt fixtures/opensm/*/ibnetdiscover.txt fixtures/public/*; do cp "$f" "$d/$(echo "$f" | tr / _)"; done ;;
        parse_iblinkinfo) for f in fixtures/public/*iblinkinfo* fixtures/tools/iblinkinfo*; do cp "$f" "$d/$(echo "$f" | tr / _)"; done ;;
        parse_subnet_lst) for f in fixtures/public/*.lst fixtures/tools/*.lst; do cp "$f" "$d/$(echo "$f" | tr / _)"; done ;;
        parse_ibsim_net) for f in fixtures/*/topology.net fixtures/opensm/*/topology.net; do cp "$f" "$d/$(echo "$f" | tr / _)"; done ;;
        parse_lft_dump) for f in fixtures/opensm/lsft2x2/opensm-*.dump fixtures/opensm/lsft2x2/dump_lfts-*.txt fixtures/opensm/lsft2x2/ibroute-*.txt; do cp "$f" "$d/$(echo "$f" | tr / _)"; done ;;
        parse_guid2lid) for f in fixtures/opensm/*/guid2lid; do cp "$f" "$d/$(echo "$f" | tr / _)"; done ;;
        parse_fabric_yaml) for f in fixtures/*/fabric.yaml fixtures/opensm/*/fabric.yaml; do cp "$f" "$d/$(echo "$f" | tr / _)"; done ;;
        parse_lft_bin)
            tmp=$(mktemp -d)
            cargo run --quiet -- route fixtures/opensm/lsft2x2 --out "$tmp" >/dev/null
            cp "$tmp/ibfat-lfts.bin" "$d/"; rm -rf "$tmp" ;;
        parse_roles)
            awk 'NF { print $1 }' "$G2L" > "$d/guids.txt"
            awk 'NF { print $1, "host" NR }' "$G2L" | head -5 > "$d/named.txt" ;;
        parse_lanes)
            awk 'NF { l[n++] = $2 } END { for (i = 1; i < n; i++) print l[0], l[i], i % 2 }' "$G2L" > "$d/path-sl.txt"
            awk 'NF { print $1, 1, 2, "0 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0" }' "$G2L" > "$d/sl2vl.txt" ;;
        parse_node_name_map)
            awk 'NF { printf "%s \"node %d rack %d\"\n", $1, NR, NR % 4 }' "$G2L" > "$d/names.map" ;;
        parse_bcast_json)
            tmp=$(mktemp -d)
            for l in 1 2 3; do
                cargo run --quiet -- schedule fixtures/opensm/lsft2x2/fabric.yaml --pattern bcast-multilane --lanes $l --out "$tmp/bcast$l.json" >/dev/null
            done
            cp "$tmp"/*.json "$d/"; rm -rf "$tmp" ;;
        parse_schedule_json)
            tmp=$(mktemp -d)
            cargo run --quiet -- schedule fixtures/opensm/lsft2x2/fabric.yaml --pattern lsft --out "$tmp/lsft.json" >/dev/null
            cargo run --quiet -- schedule fixtures/opensm/lsft2x2/fabric.yaml --pattern random --phases 5 --out "$tmp/random.json" >/dev/null
            cp "$tmp"/*.json "$d/"; rm -rf "$tmp" ;;
    esac
}

FUZZ=""
if rustup toolchain list 2>/dev/null | grep -q '^nightly' || rustup toolchain install nightly --profile minimal >/dev/null 2>&1; then
    if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
        echo "installing cargo-fuzz from crates.io"
        cargo install cargo-fuzz --locked
    fi
    FUZZ="cargo +nightly fuzz"
elif cargo fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --locked >/dev/null 2>&1; then
    echo "no nightly toolchain: the stable one with RUSTC_BOOTSTRAP=1" >&2
    FUZZ="env RUSTC_BOOTSTRAP=1 cargo fuzz"
fi
if [ -n "$FUZZ" ]; then
    for t in $TARGETS; do
        seed_corpus "$t"
        log="fuzz/$t.log"
        echo "== $t: ${SECS}s"
        status=0
        (cd fuzz && $FUZZ run "$t" "corpus/$t" -- -max_total_time="$SECS" -rss_limit_mb=2048 -max_len=262144) >"$log" 2>&1 || status=$?
        execs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 | grep -o '[0-9]*' || true)
        [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#' || true)
        crashes=$(ls "fuzz/artifacts/$t" 2>/dev/null | wc -l)
        echo "   runs ${execs:-?}, exit $status, crash/timeout/oom artifacts in fuzz/artifacts/$t: $crashes (log $log)"
    done
else
    echo "cargo-fuzz could not be installed or run." >&2
    echo "running the stable fallback (tests/library/parser_mutations.rs mutation loops, ${SECS}s per parser)" >&2
    for t in other_readers::ibnetdiscover_dumps other_readers::iblinkinfo_outputs other_readers::subnet_lst_files other_readers::ibsim_net_files other_readers::lft_dumps \
             other_readers::guid2lid_files other_readers::schedule_files other_readers::fabric_specs; do
        echo "== $t: ${SECS}s"
        IBFAT_MUTATION_SECONDS=$SECS IBFAT_MUTATION_SEED=$(date +%s) \
            cargo test --release --locked --test library "parser_mutations::$t" -- --nocapture 2>&1 | grep -E 'inputs in|test result|panicked' || true
    done
fi
