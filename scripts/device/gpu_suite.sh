#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool), from the repository root, with binaries built here
# and carried in BUILD (default .device: scripts/device/stage.sh copies them there). Writes logs and JSON under $OUT.
# Usage: scripts/device/gpu_suite.sh [tests] [sanitize] [bench ARGS...]
set -uo pipefail
BUILD="${BUILD:-.device}"
OUT="${OUT:-/tmp/memlab-out}"
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv \
  >"$OUT/nvidia-smi.txt" 2>&1
status=0
while (($#)); do
  case "$1" in
    tests)
      "$BUILD/memlab_gpu_tests" 2>&1 | tee "$OUT/gpu_tests.log" | tail -n 15
      ;;
    sanitize)
      for tool in memcheck racecheck synccheck; do
        compute-sanitizer --tool "$tool" --error-exitcode 9 "$BUILD/memlab_gpu_tests" \
          >"$OUT/sanitize_$tool.log" 2>&1
        echo "compute-sanitizer $tool: exit $? ($(grep -c 'ERROR SUMMARY: 0 errors' "$OUT/sanitize_$tool.log") clean summaries)"
        grep -E "ERROR SUMMARY" "$OUT/sanitize_$tool.log" | sort | uniq -c | head -n 5
      done
      ;;
    bench)
      shift
      "$BUILD/memlab" run "$@" --json "$OUT/results.json" --md "$OUT/results.md" \
        >"$OUT/bench.log" 2>&1
      rc=$?
      echo "memlab run $*: exit $rc"
      tail -n 60 "$OUT/bench.log"
      [ $rc -eq 0 ] || status=$rc
      break
      ;;
  esac
  shift
done
exit $status
