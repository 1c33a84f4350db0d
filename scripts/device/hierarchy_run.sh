#!/usr/bin/env bash
# The hierarchy issue's GPU run (lessons, long sweep, claims, their GPU tests), for the device
# tool: BUILD=.dev-hierarchy scripts/device/hierarchy_run.sh  (results under $OUT).
set -u
B=${BUILD:-build-ci}
OUT=${OUT:-out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
timeout 60 "$B/memlab_gpu_tests" \
  --gtest_filter='*hierarchy*:*constant_memory*:*syncthreads*:*unified_memory*:Syncthreads*' \
  > "$OUT/gpu_tests.txt" 2>&1; echo "gpu tests rc=$?"
start=$(date +%s)
timeout 100 "$B/memlab" run hierarchy constant_memory syncthreads unified_memory \
  --json "$OUT/lessons.json" > "$OUT/lessons.txt" 2>&1; echo "lessons rc=$? $(( $(date +%s) - start )) s"
start=$(date +%s)
timeout 90 "$B/memlab" claims --json "$OUT/claims.json" --run-json "$OUT/claims_run.json" \
  > "$OUT/claims.txt" 2>&1; echo "claims rc=$? $(( $(date +%s) - start )) s"
ws=$(python3 -c "print(','.join(str(1<<k) for k in range(12,33)))")
timeout 60 "$B/memlab" run hierarchy -v chase_ca,chase_cg,read_ca,read_cg -a "ws=$ws" --budget 0.05 \
  --json "$OUT/sweep.json" > "$OUT/sweep.txt" 2>&1; echo "sweep rc=$?"
