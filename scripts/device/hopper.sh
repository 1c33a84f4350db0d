#!/usr/bin/env bash
# Issue 16's Hopper variants on the H200, in ONE device call (at most 555 s of step limits; a green run takes far less):
#   1. their GPU tests (tests/gpu/test_hopper.cpp: each variant at every test point of its lesson,
#      poisoned, twice; wgmma exact on integer inputs; matmul's exact test with cp_async and tma), as JSON;
#   2. compute-sanitizer memcheck over the same tests (racecheck over the shared-memory ones);
#   3. `memlab run` of each variant beside its lesson's baselines and ceilings (memcpy, cuBLAS),
#      one JSON per lesson, seed 7: the figures the docs still mark "not yet measured".
# Build and stage here first (CI preset, sm_90 + the sm_90a object): scripts/device/stage.sh, then
# carry .device and run:  OUT=$OUT BUILD=.device bash scripts/device/hopper.sh
# Each step has its own time limit, so a hung kernel (an mbarrier that never completes) costs its
# step only. Results: $OUT/hopper/*.json, *.log and summary.txt (one line per step).
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-.device}
OUT=${OUT:-out}
export LD_LIBRARY_PATH="$(cd "$BUILD" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
dir="$OUT/hopper"
mkdir -p "$dir"
CS=${CS:-compute-sanitizer}
command -v "$CS" >/dev/null 2>&1 || CS=$(ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
summary="$dir/summary.txt"
: >"$summary"
nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.mem --format=csv \
  >"$dir/nvidia-smi.txt" 2>&1
step() {  # step NAME SECONDS COMMAND...: runs with a limit, logs, one summary line
  local name=$1 limit=$2
  shift 2
  local start rc
  start=$(date +%s)
  timeout -k 5 "$limit" "$@" >"$dir/$name.log" 2>&1
  rc=$?
  echo "$name: exit $rc after $(($(date +%s) - start)) s" | tee -a "$summary"
}
tests="$BUILD/memlab_gpu_tests"
filter='Issue16/*:HopperWgmma.*:MatmulHopper.*'

# 1. GPU tests (JSON report beside the log).
step gpu_tests 120 "$tests" --gtest_filter="$filter" --gtest_output="json:$dir/gpu_tests.json"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|tests ran" "$dir/gpu_tests.log" | tail -n 15

# 2. compute-sanitizer: memcheck over all of them; racecheck over the variants that share tiles.
if [ -n "$CS" ]; then
  step memcheck 130 "$CS" --tool memcheck --error-exitcode 1 "$tests" --gtest_filter="$filter"
  step racecheck 80 "$CS" --tool racecheck --racecheck-report hazard --error-exitcode 1 "$tests" \
    --gtest_filter='Issue16/*transpose_tma:Issue16/*smem_reverse_bulk:Issue16/*conv2d_*'
  grep -h "ERROR SUMMARY" "$dir/memcheck.log" "$dir/racecheck.log" | tee -a "$summary"
else
  echo "compute-sanitizer: not found, memcheck not run" | tee -a "$summary"
fi

# 3. The variants beside the baselines, default sizes, one run each (seed 7).
run() {  # run LESSON SECONDS ARGS...
  local lesson=$1 limit=$2
  shift 2
  step "run_$lesson" "$limit" "$BUILD/memlab" run "$lesson" --seed 7 --json "$dir/run_$lesson.json" "$@"
  tail -n 12 "$dir/run_$lesson.log"
}
run transpose 35 -v tma,tile64_f4,padded_coarse,copy
run bandwidth 25 -a op=copy -v bulk_copy,elem_f4,f4_unroll4,cudaMemcpy
run smem_reverse 25 -v bulk,dynamic_f4,global
run matmul 45 -v cp_async,tma,thread_tile_8x16,double_buffer,cublas
run tensor_cores 50 -a dtype=bf16 -v wgmma,mma_sync,cublas
run conv2d 45 -a separable=no -v tma,cluster,register
cat "$summary"
