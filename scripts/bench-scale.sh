#!/usr/bin/env bash
# Scaling benchmark (issues 16, 19): wall time and peak RSS of every large-fabric stage
# for LSFT(q), q = 7, 11, 16, 23, 32 (32 is the largest LSFT one subnet holds), the growth
# exponent of `check` against the number of flows, and the same stages for 3-level PGFTs
# of 40-port switches (20 down / 20 up) with 10,000 and 16,000 hosts. A benchmark, not a
# test: CI does not run it; the README's Benchmarks section holds its last table.
#
#   scripts/bench-scale.sh [--max-q Q] [--only lsft|pgft|shards] [--runs N] [--dir DIR] [--ibfat PATH]
#
# The LSFT part ends with the scaling of a sharded check of LSFT(Q) (tables read from
# `ibfat-lfts.bin`): the slowest of N = 1, 2, 4, 8 shards for `shift` and `lsft`, its share
# of the whole check, and the least-squares fit t(N) = c + W/N (c: what every process
# pays once). `--only shards` runs that part alone.
#
# --runs N (default 1) runs every stage N times and prints the median time and the
# highest peak RSS of the N runs.
# ibfat defaults to the release binary (`cargo build --release`; $CARGO_TARGET_DIR is
# honoured). DIR (default: a temporary folder, removed afterwards) receives the plans and
# dumps: LSFT(32)'s dump is 5.8 GB.
set -euo pipefail

max_q=32
runs=1
only=""
dir=""
ibfat=""
while [ $# -gt 0 ]; do
    case "$1" in
        --max-q) max_q="${2:?--max-q needs a value}"; shift 2 ;;
        --only) only="${2:?--only needs lsft, pgft or shards}"; shift 2 ;;
        --runs) runs="${2:?--runs needs a count}"; shift 2 ;;
        --dir) dir="${2:?--dir needs a folder}"; shift 2 ;;
        --ibfat) ibfat="${2:?--ibfat needs a path}"; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "bench-scale.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$max_q" in ''|*[!0-9]*) echo "bench-scale.sh: --max-q must be a number" >&2; exit 2 ;; esac
case "$runs" in ''|0|*[!0-9]*) echo "bench-scale.sh: --runs must be a positive number" >&2; exit 2 ;; esac
case "$only" in ''|lsft|pgft|shards) ;; *) echo "bench-scale.sh: --only takes lsft, pgft or shards" >&2; exit 2 ;; esac
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "$ibfat" ]; then
    ibfat="${CARGO_TARGET_DIR:-$root/target}/release/ibfat"
fi
if [ ! -x "$ibfat" ]; then
    echo "bench-scale.sh: $ibfat is missing: run cargo build --release (or give --ibfat)" >&2
    exit 3
fi
if [ ! -x /usr/bin/time ]; then
    echo "bench-scale.sh: needs GNU time (/usr/bin/time) for the peak RSS" >&2
    exit 3
fi
if [ -z "$dir" ]; then
    dir="$(mktemp -d "${TMPDIR:-/tmp}/ibfat-bench.XXXXXX")"
    trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"

# run CMD...: $runs measured runs; prints "seconds MiB" (median time, highest peak RSS).
# Exit 0, or 1 for `check` (conflicts found: the shift pattern has them), is success;
# anything else stops the benchmark.
run() {
    local out="$dir/time.txt" rc i all=""
    for ((i = 0; i < runs; i++)); do
        rc=0
        /usr/bin/time -o "$out" -f "%e %M %x" "$@" >/dev/null 2>"$dir/stderr.txt" || rc=$?
        if [ "$rc" -gt 1 ] || { [ "$rc" -eq 1 ] && [ "$2" != check ]; }; then
            echo "bench-scale.sh: failed (exit $rc): $*" >&2
            cat "$dir/stderr.txt" >&2
            kill -TERM $$
            exit 1
        fi
        all="$all$(tail -n 1 "$out")"$'\n'
    done
    printf '%s' "$all" | sort -n -k1,1 | awk '
        { t[NR] = $1; if ($2 > m) m = $2 }
        END { printf "%.2f %.0f", t[int((NR + 1) / 2)], m / 1024 }'
}

cell() { printf '%s s, %s MiB' "$1" "$2"; }

if [ -z "$only" ] || [ "$only" = lsft ]; then
printf '| q | hosts | flows | build | route | check shift (plan) | check lsft (plan) | check shift (dump) | lfts validate | recognize | cabling |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|\n'
fits=""
for q in 7 11 16 23 32; do
    [ "$q" -le "$max_q" ] || continue
    plan="$dir/lsft$q"
    rm -rf "$plan"
    read -r b_t b_m <<<"$(run "$ibfat" build lsft --order "$q" --no-svg --out "$plan")"
    read -r r_t r_m <<<"$(run "$ibfat" route "$plan" --out "$plan")"
    read -r s_t s_m <<<"$(run "$ibfat" check "$plan" --pattern shift -q)"
    read -r l_t l_m <<<"$(run "$ibfat" check "$plan" --pattern lsft -q)"
    read -r d_t d_m <<<"$(run "$ibfat" check "$plan" --lfts "$plan/opensm-lfts.dump" --pattern shift -q)"
    read -r v_t v_m <<<"$(run "$ibfat" lfts validate "$plan" --lfts "$plan/opensm-lfts.dump" -q)"
    read -r g_t g_m <<<"$(run "$ibfat" recognize "$plan/topology.net")"
    read -r c_t c_m <<<"$(run "$ibfat" cabling "$plan" "$plan/topology.net")"
    hosts=$(( (q * q + q + 1) * (q + 1) ))
    flows=$(( hosts * (hosts - 1) ))
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$q" "$hosts" "$flows" \
        "$(cell "$b_t" "$b_m")" "$(cell "$r_t" "$r_m")" "$(cell "$s_t" "$s_m")" \
        "$(cell "$l_t" "$l_m")" "$(cell "$d_t" "$d_m")" "$(cell "$v_t" "$v_m")" \
        "$(cell "$g_t" "$g_m")" "$(cell "$c_t" "$c_m")"
    fits="$fits$flows $s_t $l_t"$'\n'
    rm -f "$plan/opensm-lfts.dump"
done

# least-squares slope of log(time) against log(flows): 1.0 is linear in the flows
printf '%s' "$fits" | awk '
    NF == 3 && $2 > 0 && $3 > 0 {
        x = log($1); n++
        sx += x; sxx += x * x
        y = log($2); sy += y; sxy += x * y
        z = log($3); sz += z; sxz += x * z
    }
    END {
        if (n < 2 || n * sxx == sx * sx) { print "\ngrowth exponent: needs two sizes or more"; exit }
        d = n * sxx - sx * sx
        printf "\ngrowth exponent of check against flows: shift %.2f, lsft %.2f (%d sizes)\n", \
            (n * sxy - sx * sy) / d, (n * sxz - sx * sz) / d, n
    }'
fi

# shard scaling at the largest order: the slowest shard of N for N = 1 (the whole check),
# 2, 4 and 8, then t(N) = c + W/N fitted over the four
if [ "$only" != pgft ] && [ "$max_q" -ge 7 ]; then
    q=7
    for x in 11 16 23 32; do
        if [ "$x" -le "$max_q" ]; then q=$x; fi
    done
    plan="$dir/lsft$q"
    if [ ! -f "$plan/ibfat-lfts.bin" ]; then
        rm -rf "$plan"
        "$ibfat" build lsft --order "$q" --no-svg --out "$plan" >/dev/null
        "$ibfat" route "$plan" --out "$plan" >/dev/null
    fi
    printf '\nsharded check of LSFT(%s), tables from ibfat-lfts.bin (slowest shard; its share of N = 1)\n\n' "$q"
    printf '| pattern | N = 1 | N = 2 | N = 4 | N = 8 | fit c + W/N | N = 4 from the fit |\n|---|---|---|---|---|---|---|\n'
    for pattern in shift lsft; do
        points=""
        for n in 1 2 4 8; do
            slowest=0
            for ((i = 0; i < n; i++)); do
                if [ "$n" -eq 1 ]; then
                    read -r t _ <<<"$(run "$ibfat" check "$plan" --lfts "$plan/ibfat-lfts.bin" --pattern "$pattern" -q)"
                else
                    read -r t _ <<<"$(run "$ibfat" check "$plan" --lfts "$plan/ibfat-lfts.bin" --pattern "$pattern" -q \
                        --shard "$i/$n" --out "$dir/shard.json")"
                fi
                slowest=$(awk -v a="$slowest" -v b="$t" 'BEGIN { print (b > a) ? b : a }')
            done
            points="$points$n $slowest"$'\n'
        done
        printf '%s' "$points" | awk -v p="$pattern" '
            { n[NR] = $1; t[NR] = $2; x = 1 / $1; sx += x; sxx += x * x; sy += $2; sxy += x * $2 }
            END {
                W = (NR * sxy - sx * sy) / (NR * sxx - sx * sx); c = (sy - W * sx) / NR
                printf "| %s |", p
                for (i = 1; i <= NR; i++) printf " %.2f s (%.3f) |", t[i], t[i] / t[1]
                printf " c = %.3f s, W = %.2f s | %.3f of the whole |\n", c, W, (c + W / 4) / (c + W)
            }'
    done
    rm -f "$dir/shard.json"
fi

# PGFT(3; 20,20,m3; 1,20,20; 1,1,1): 40-port switches, 20 ports down and 20 up at the
# leaves and the middle level; the tops use m3 of their ports (25: 10,000 hosts; 40:
# 16,000 hosts, every port of every switch used)
if [ -z "$only" ] || [ "$only" = pgft ]; then
    printf '\n| PGFT | hosts | switches | build | route | check kary-shift (plan) | check kary-shift (dump) | lfts validate | recognize | cabling |\n'
    printf '|---|---|---|---|---|---|---|---|---|---|\n'
    for m3 in 25 40; do
        plan="$dir/pgft$m3"
        rm -rf "$plan"
        read -r b_t b_m <<<"$(run "$ibfat" build pgft --down 20,20,$m3 --up 1,20,20 --parallel 1,1,1 --no-svg --out "$plan")"
        read -r r_t r_m <<<"$(run "$ibfat" route "$plan" --out "$plan")"
        read -r s_t s_m <<<"$(run "$ibfat" check "$plan" --pattern kary-shift -q)"
        read -r d_t d_m <<<"$(run "$ibfat" check "$plan" --lfts "$plan/opensm-lfts.dump" --pattern kary-shift -q)"
        read -r v_t v_m <<<"$(run "$ibfat" lfts validate "$plan" --lfts "$plan/opensm-lfts.dump" -q)"
        read -r g_t g_m <<<"$(run "$ibfat" recognize "$plan/topology.net" --family pgft)"
        read -r c_t c_m <<<"$(run "$ibfat" cabling "$plan" "$plan/topology.net")"
        printf '| (3; 20,20,%s; 1,20,20; 1,1,1) | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$m3" \
            $(( 400 * m3 )) $(( 400 + 40 * m3 )) \
            "$(cell "$b_t" "$b_m")" "$(cell "$r_t" "$r_m")" "$(cell "$s_t" "$s_m")" \
            "$(cell "$d_t" "$d_m")" "$(cell "$v_t" "$v_m")" "$(cell "$g_t" "$g_m")" "$(cell "$c_t" "$c_m")"
        rm -rf "$plan"
    done
fi
