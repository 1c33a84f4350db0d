#!/usr/bin/env bash
# Runs on the GPU machine: memlab's median against Nsight Compute's gpu__time_duration, and useful
# bytes against DRAM bytes read + written, for every record of the default suite whose median is
# >= 100 us (docs/ncu.md, "memlab against ncu over the default suite").
#   1. memlab run (timed, cold L2) per experiment of the default suite, --seed 1;
#   2. ncu over `memlab run --verify-only` (one launch per variant and point) per experiment,
#      restricted to the variants with a record >= 100 us; clocks left alone, caches flushed
#      (--cache-control all); kernels named after memlab's NVTX range of their record;
#   3. scripts/ncu_compare.py --timing: $OUT/ncu_compare.md (paste into docs/ncu.md).
# Every step has a deadline: the whole script stops after LIMIT_S seconds (default 480) and
# writes the table from what it has (rows it could not profile say so).
# Usage: BUILD=.device OUT=/tmp/memlab-out scripts/device/ncu_compare.sh [EXPERIMENT...]
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-.device}"
. "$(dirname "$0")/env.sh"  # staged shared libraries (stage.sh)
OUT="${OUT:-/tmp/memlab-out}"
LIMIT_S="${LIMIT_S:-480}"
MIN_US="${MIN_US:-100}"
NCU="${NCU:-ncu}"
mkdir -p "$OUT"
start=$SECONDS
left() { echo $((LIMIT_S - (SECONDS - start))); }
log() { echo "[ncu_compare $((SECONDS - start))s] $*" >&2; }

command -v "$NCU" >/dev/null 2>&1 || NCU=$(ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -x "$BUILD/memlab" ] || { echo "ncu_compare: $BUILD/memlab not found (scripts/device/stage.sh)" >&2; exit 2; }
[ -n "$NCU" ] || { echo "ncu_compare: ncu not found (set NCU=...)" >&2; exit 2; }

if (($#)); then
  experiments=("$@")
else
  mapfile -t experiments < <("$BUILD/memlab" list | awk '/^[a-z]/ && !/not in the default suite/ {print $1}')
fi
log "experiments: ${experiments[*]}"
rm -f "$OUT"/ncu_timed_*.json "$OUT"/ncu_time_*.csv

# 1. Timed runs: at most 40% of the time.
timed_deadline=$((LIMIT_S * 2 / 5))
for i in "${!experiments[@]}"; do
  e=${experiments[$i]}
  budget=$(( (timed_deadline - (SECONDS - start)) / (${#experiments[@]} - i) ))
  ((budget < 5)) && budget=5
  timeout -k 5 "$budget" "$BUILD/memlab" run "$e" --seed 1 --budget 0.1 \
    --json "$OUT/ncu_timed_$e.json" >"$OUT/ncu_timed_$e.log" 2>&1
  log "timed $e: exit $? (limit ${budget}s)"
done

# 2. ncu, one process per experiment, only the variants that have a record >= MIN_US.
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for i in "${!experiments[@]}"; do
  e=${experiments[$i]}
  [ -s "$OUT/ncu_timed_$e.json" ] || { log "ncu $e: no timed report, skipped"; continue; }
  variants=$(python3 - "$OUT/ncu_timed_$e.json" "$MIN_US" <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))["records"]
names = sorted({r["variant"] for r in recs
                if r.get("timed") and r["stats"]["median_ms"] * 1e3 >= float(sys.argv[2])})
print(",".join(names))
PY
)
  [ -n "$variants" ] || { log "ncu $e: no record >= ${MIN_US} us"; continue; }
  budget=$(( ($(left) - 15) / (${#experiments[@]} - i) ))
  ((budget < 10)) && { log "ncu $e: out of time, skipped"; continue; }
  timeout -k 5 "$budget" "$NCU" --nvtx --print-nvtx-rename kernel --clock-control none \
    --cache-control all --csv --print-units base --metrics "$metrics" \
    --log-file "$OUT/ncu_time_$e.csv" \
    "$BUILD/memlab" run "$e" -v "$variants" --verify-only --seed 1 \
    >"$OUT/ncu_time_$e.log" 2>&1
  log "ncu $e (-v $variants): exit $? (limit ${budget}s), $(grep -c '"' "$OUT/ncu_time_$e.csv" 2>/dev/null || echo 0) csv lines"
done

# 3. The table.
shopt -s nullglob
timed=("$OUT"/ncu_timed_*.json)
csvs=("$OUT"/ncu_time_*.csv)
if ((${#timed[@]} == 0 || ${#csvs[@]} == 0)); then
  echo "ncu_compare: nothing to compare (see $OUT/ncu_timed_*.log, ncu_time_*.log)" >&2
  exit 1
fi
python3 scripts/ncu_compare.py --timing "${timed[@]}" --ncu "${csvs[@]}" --min-us "$MIN_US" \
  >"$OUT/ncu_compare.md"
log "wrote $OUT/ncu_compare.md"
tail -12 "$OUT/ncu_compare.md"
