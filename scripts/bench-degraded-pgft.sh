#!/usr/bin/env bash
# Fault response on a degraded 3-level PGFT (issue 21 item 2): PGFT(3; 20,20,25; 1,20,20;
# 1,1,1) — 10,000 hosts, 1,400 40-port switches, shuffled ports — with 1, 10 and 100
# seeded switch-to-switch cables cut, one dead top switch, and a dead top switch with 10
# cuts. For each: recognize_s + route_s of `ibfat route --json --timings --no-validate`
# (median of 3 runs), every stage's median, and the peak RSS (GNU time). Target: ≤ 1.0 s
# and ≤ 1 GiB. A benchmark, not a test; `IBFAT_BENCH_FABRIC=pgft cargo bench --bench
# reroute` measures the same stages in process (docs/routing.md §3.2 holds its table).
#
#   scripts/bench-degraded-pgft.sh [--dir DIR] [--ibfat PATH]
set -euo pipefail

dir=""
ibfat=""
while [ $# -gt 0 ]; do
    case "$1" in
        --dir) dir="${2:?--dir needs a folder}"; shift 2 ;;
        --ibfat) ibfat="${2:?--ibfat needs a path}"; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "bench-degraded-pgft.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
root="$(cd "$(dirname "$0")/.." && pwd)"
ibfat="${ibfat:-${CARGO_TARGET_DIR:-$root/target}/release/ibfat}"
if [ ! -x "$ibfat" ] || [ ! -x /usr/bin/time ] || ! command -v python3 >/dev/null; then
    echo "bench-degraded-pgft.sh: needs $ibfat (cargo build --release), GNU time and python3" >&2
    exit 3
fi
if [ -z "$dir" ]; then
    dir="$(mktemp -d "${TMPDIR:-/tmp}/ibfat-degraded.XXXXXX")"
    trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
"$ibfat" build pgft --down 20,20,25 --up 1,20,20 --parallel 1,1,1 --shuffle 5 --no-svg --out "$dir/plan" -q
cases=("none (intact, for comparison):" "1 cut:--cut 1 --seed 7" "10 cuts:--cut 10 --seed 7" "100 cuts:--cut 100 --seed 7"
    "dead top switch:--dead S3_17" "dead top + 10 cuts:--dead S3_17 --cut 10 --seed 7")
printf '| faults | recognize_s + route_s | read_s | recognize_s | route_s | write_s | peak RSS | unrouted |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for i in "${!cases[@]}"; do
    name="${cases[$i]%%:*}"
    args=()
    read -r -a args <<<"${cases[$i]#*:}" || true
    if [ "${#args[@]}" -eq 0 ]; then
        mkdir -p "$dir/f$i" && cp "$dir/plan/topology.net" "$dir/f$i/"
    else
        "$ibfat" faults "$dir/plan" "${args[@]}" --out "$dir/f$i" -q
    fi
    for run in 1 2 3; do
        /usr/bin/time -o "$dir/time$run" -f "%M" "$ibfat" route "$dir/f$i/topology.net" --json --timings \
            --no-validate --out "$dir/r$i" >"$dir/j$run.json"
    done
    python3 - "$dir" "$name" <<'PY'
import json, statistics, sys
d, name = sys.argv[1], sys.argv[2]
runs = [json.load(open(f"{d}/j{r}.json")) for r in (1, 2, 3)]
med = lambda k: statistics.median(r["timings"][k] for r in runs)
both = statistics.median(r["timings"]["recognize_s"] + r["timings"]["route_s"] for r in runs)
rss = max(int(open(f"{d}/time{r}").read().split()[-1]) for r in (1, 2, 3)) / 1024
print(f"| {name} | {both:.3f} s | {med('read_s'):.3f} | {med('recognize_s'):.3f} | {med('route_s'):.3f} "
      f"| {med('write_s'):.2f} | {rss:.0f} MiB | {runs[0].get('unrouted', 0)} |")
PY
done
