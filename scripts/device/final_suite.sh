#!/usr/bin/env bash
# Runs on the GPU machine: every GPU test, the full default suite (timed), the --quick suite of the
# foundation lessons (timed), ncu counters for the bank model, and compute-sanitizer. At most 8
# files under $OUT (the device tool's limit).
set -uo pipefail
BUILD="${BUILD:-.device}"
. "$(dirname "$0")/env.sh"  # staged shared libraries (stage.sh)
OUT="${OUT:-/tmp/memlab-out}"
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
"$BUILD/memlab_gpu_tests" >"$OUT/gpu_tests.log" 2>&1
echo "gpu tests: exit $? ($(grep -c '^\[       OK' "$OUT/gpu_tests.log") ok, $(grep -c '^\[  FAILED' "$OUT/gpu_tests.log") failed lines)"
t0=$(date +%s)
"$BUILD/memlab" run --seed 7 --json "$OUT/full.json" --md "$OUT/full.md" >"$OUT/full.log" 2>&1
echo "full default suite: exit $? in $(( $(date +%s) - t0 )) s"
# memcheck over everything; racecheck and synccheck over the lessons not yet sanitized in this
# form (each lesson's own run covered the rest: see docs/).
filter='*histogram*:*atomics*:*Events*:*Streams*:*DefaultStream*:*streams*:*events*'
for tool in memcheck racecheck synccheck; do
  echo "=== $tool" >>"$OUT/sanitize.log"
  args=()
  [ "$tool" = memcheck ] || args=(--gtest_filter="$filter")
  MEMLAB_UNDER_SANITIZER=1 timeout 120 compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 9 \
    "$BUILD/memlab_gpu_tests" "${args[@]}" >>"$OUT/sanitize.log" 2>&1
  echo "compute-sanitizer $tool: exit $?"
done
t0=$(date +%s)
"$BUILD/memlab" run bandwidth coalescing misalignment aos_soa --quick --seed 7 >"$OUT/quick.log" 2>&1
echo "quick foundation lessons: exit $? in $(( $(date +%s) - t0 )) s"
BUILD="$BUILD" scripts/device/ncu_models.sh banks 'bank_kernel' -- bank_conflicts -a op=read \
  -a iters=64 >/dev/null 2>&1
echo "ncu banks: exit $?"
rm -f "$OUT/ncu_banks.log"
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$OUT/sanitize.log" | sort | uniq -c
grep -E "FAIL|check failed" "$OUT/full.log" | head -20
ls "$OUT"
