#!/usr/bin/env bash
# Round two's GPU checks, for the device tool (binaries built here for sm_90 and staged into
# BUILD by scripts/device/stage.sh, exercises beside them). Two parts, one call each:
#   scripts/device/round2.sh checks   GPU tests (every variant of every lesson at its odd-size
#                                     test points, twice, poisoned), every exercise's solution and
#                                     the worker's safety tests, the hierarchy sweep, claims
#   scripts/device/round2.sh suite    the full default suite with --seed 7 (JSON + markdown)
# Everything lands in $OUT/round2-<part>.tgz (the device tool brings back at most 8 files).
set -u
BUILD=${BUILD:-.device}
. "$(dirname "$0")/env.sh"  # staged shared libraries (stage.sh)
OUT=${OUT:-out}
part=${1:-checks}
dir=$(mktemp -d)/round2-$part
mkdir -p "$dir"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv \
  >"$dir/nvidia-smi.txt" 2>&1
step() {  # step NAME SECONDS COMMAND...: runs with a limit, logs, prints one line
  local name=$1 limit=$2
  shift 2
  local start
  start=$(date +%s)
  timeout "$limit" "$@" >"$dir/$name.log" 2>&1
  echo "$name: exit $? after $(($(date +%s) - start)) s"
}
case "$part" in
  checks)
    export MEMLAB_EXERCISE_WORKER
    MEMLAB_EXERCISE_WORKER="$(cd "$BUILD" && pwd)/memlab"
    # The exercises' solutions and starters run in exercises.sh below; the safety tests stay here.
    step gpu_tests 300 "$BUILD/memlab_gpu_tests" --gtest_filter='-ExerciseGpu/*'

    grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran" "$dir/gpu_tests.log" | tail -n 20
    step exercises 150 env BUILD="$BUILD" OUT="$dir/exercises" bash scripts/device/exercises.sh
    cat "$dir/exercises/summary.txt" 2>/dev/null
    ws=$(python3 -c "print(','.join(str(1<<k) for k in range(12,33)))")
    step hierarchy_sweep 60 "$BUILD/memlab" run hierarchy -v chase_ca,chase_cg,read_ca,read_cg \
      -a "ws=$ws" --budget 0.05 --seed 7 --json "$dir/hierarchy_sweep.json"
    step claims 100 "$BUILD/memlab" claims --json "$dir/claims.json" \
      --run-json "$dir/claims_run.json"
    tail -n 40 "$dir/claims.log"
    ;;
  safety)
    # An endless-loop kernel through the CLI, with the worker's processes sampled while it runs.
    printf '%s\n' '__global__ void reverse_static(const float* in, float* out, int n) {' \
      '  const volatile float* p = in; while (p[0] < 2.0f) { } out[0] = p[0] + n; }' >"$dir/endless.cu"
    (for t in 2 6 12 20 30; do
      sleep $((t - ${prev:-0})); prev=$t
      echo "== $t s"; ps -eo pid,pgid,stat,etime,wchan:20,args | grep -E "memlab|PID" | grep -v grep
    done) >"$dir/ps.log" 2>&1 &
    step endless 90 "$BUILD/memlab" exercise check smem_reverse_static "$dir/endless.cu" \
      --timeout 3 --json "$dir/endless.json"
    wait
    cat "$dir/endless.log"
    step after_endless 60 "$BUILD/memlab" exercise check smem_reverse_static \
      "$BUILD/exercises/smem_reverse_static/solution.cu"
    tail -n 3 "$dir/after_endless.log"
    ;;
  suite)
    step suite 560 "$BUILD/memlab" run --seed 7 --json "$dir/full.json" --md "$dir/full.md"
    tail -n 25 "$dir/suite.log"
    ;;
  final)
    # The quick suite, then the web lab's API on this GPU (a run and ten exercise checks).
    step quick 200 "$BUILD/memlab" run --quick --seed 7 --json "$dir/quick.json"
    tail -n 5 "$dir/quick.log"
    token=round2-device-token-0123456789
    "$BUILD/memlab" serve --port 18080 --token "$token" --results "$dir" >"$dir/serve.log" 2>&1 &
    serve=$!
    sleep 2
    step serve_api 200 python3 scripts/device/serve_api.py 18080 "$token" \
      "$BUILD/exercises/smem_reverse_static/solution.cu" "$dir/serve_api.json"
    cat "$dir/serve_api.log"
    kill "$serve"
    ;;
  *)
    echo "round2.sh: part '$part' is unknown; accepted: checks, suite, safety, final" >&2
    exit 2
    ;;
esac
tar -C "$(dirname "$dir")" -czf "$OUT/round2-$part.tgz" "round2-$part"
