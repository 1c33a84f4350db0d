#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool), from the repository root, with binaries built here
# and carried in BUILD (default .device: scripts/device/stage.sh copies them there). Writes logs and JSON under $OUT.
# Usage: scripts/device/gpu_suite.sh [tests] [sanitize] [bench ARGS...]
set -uo pipefail
BUILD="${BUILD:-.device}"
. "$(dirname "$0")/env.sh"  # staged shared libraries (stage.sh)
OUT="${OUT:-/tmp/memlab-out}"
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv \
  >"$OUT/nvidia-smi.txt" 2>&1
status=0
while (($#)); do
  case "$1" in
    tests)
      # One process per test (issue 19): a sticky CUDA error (conv2d's illegal instruction) is one
      # failure, not the 33 tests after it in the same context. CTest does the same (-L gpu).
      : >"$OUT/gpu_tests.log"
      passed=0 failed=0 skipped=0
      for t in $("$BUILD/memlab_gpu_tests" --gtest_list_tests |
        awk '/^[^ ]/ { suite = $1 } /^  / { print suite $1 }'); do
        "$BUILD/memlab_gpu_tests" --gtest_filter="$t" >"$OUT/gpu_test_one.log" 2>&1
        rc=$?
        cat "$OUT/gpu_test_one.log" >>"$OUT/gpu_tests.log"
        if [ $rc -ne 0 ]; then
          failed=$((failed + 1))
          echo "FAILED (exit $rc): $t"
        elif grep -q '^\[  SKIPPED \]' "$OUT/gpu_test_one.log"; then
          skipped=$((skipped + 1))
        else
          passed=$((passed + 1))
        fi
      done
      rm -f "$OUT/gpu_test_one.log"
      echo "gpu tests: $passed passed, $failed failed, $skipped skipped" | tee -a "$OUT/gpu_tests.log"
      [ $failed -eq 0 ] || status=1
      ;;
    sanitize)
      # Small sizes: the GPU tests' test points. One log for all three tools. API errors are not
      # reported: the events lesson provokes cudaErrorNotReady on purpose.
      for tool in memcheck racecheck synccheck; do
        echo "=== compute-sanitizer --tool $tool" >>"$OUT/sanitize.log"
        MEMLAB_UNDER_SANITIZER=1 compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 9 "$BUILD/memlab_gpu_tests" \
          >>"$OUT/sanitize.log" 2>&1
        rc=$?
        echo "compute-sanitizer $tool: exit $rc"
        [ $rc -eq 0 ] || status=$rc
      done
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$OUT/sanitize.log" | sort | uniq -c
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
