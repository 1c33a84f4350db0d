#!/usr/bin/env bash
# shellcheck disable=SC2317  # the parts are called indirectly ("part_$PART")
# The one entry point on the GPU machine (the `device` tool): scripts/device/verify.sh PART...
# Binaries built here and staged by scripts/device/stage.sh into BUILD (default .device, carried
# with the call). Each PART writes $OUT/PART.json (a summary: part, ok, rc, seconds, and what the
# part found, the failing output included) and $OUT/PART.log; the tool brings back at most 8
# files, so name at most 4 parts per call, or set VERIFY_TAR=1 (everything in $OUT/verify.tgz and
# the one-line-per-part summary in $OUT/verify.txt). Parts, with their default time limits (s) and
# their cost on the H200:
#   tests     300  every GPU test, one process per test (a sticky CUDA error fails one test only)
#                  merged into one JSON; TESTS_FILTER (gtest filter) narrows it  ~200-260 (the
#                  tests' own times summed to 173-187 s in 2026-12 calls; 111 tests now, one
#                  after the other: 200 s ran 75 of them on an H100, session 10)
#   suite     420  the full default suite, memlab run --seed 7 (the run JSON embedded)    297
#   quick     150  memlab run --quick --seed 7                                             60
#   practice  120  every exercise's solution through memlab exercise check                 30
#   claims    120  memlab claims (claims + the run behind them)                            29
#   ncu       240  memlab's median against ncu's gpu__time_duration per kernel (cold and
#                  warm), with the % difference (docs/ncu.md, issue 19 #8)                 ~90
#   sanitize  300  compute-sanitizer memcheck and racecheck over the lessons' GPU tests,
#                  one process per test; SANITIZE_TOOLS, SANITIZE_FILTER                   ~150
#   serve     150  memlab serve and its HTTP API: a run and ten exercise checks            39
#   class     240  the class lab with real checks: CLASS_LEARNERS (8) learners join and check
#                  the exercises' solutions and starters for CLASS_S (120) s through the one
#                  queue, two of them in bursts of 3 (tests/class/load_test.py); per-learner
#                  waits, attempts, statuses, RSS, page latency in class.json
#   diagnose  420  the diagnosis of three broken kernels (issue 21 #5): matmul_tiled without
#                  its barriers, vec_add writing c[n], transpose without its barrier; each
#                  check's text, JSON (memlab's sentences, the sanitizers' raw output) and
#                  the expected lines found or not                                        (new)
#   hopper    330  the Hopper variants: their tests, memcheck/racecheck, runs beside the
#                  baselines
#   runs      420  memlab run of each plan in RUN_PLANS (';'-separated, e.g. "transpose -v
#                  tma_pipelined,copy;bandwidth -a op=copy"), --seed 7, one JSON per plan; the
#                  plans' records (variant, point, status, ms, GB/s, % of memcpy) in runs.json,
#                  each plan's whole run JSON as run_N.json
#   profile   420  ncu --set full on one launch per kernel of each plan in PROFILE_PLANS
#                  (';'-separated 'KERNEL_REGEX|memlab run args', --verify-only: one launch of
#                  each variant at its default size); .ncu-rep files, and per kernel the
#                  figures that name a limiter (throughputs, occupancy, registers, smem, the
#                  top warp stalls) in profile.json (issue 23: profile before you write)
#   sass       90  cuobjdump -sass and -res-usage of the memlab binary; per kernel whose mangled
#                  name matches SASS_FILTER (an extended regex; default: matmul's thread_tile
#                  kernels) the instruction mix, LDS.128, the FFMA's .reuse operands and
#                  registers in sass.json, the kernels' SASS text beside it (issue 23: two
#                  compiles of one loop compared)                                    (new)
#   multigpu  560  (nvidia-h200-x2) topology, p2p/collectives tests and runs, --devices,
#                  mpirun -np 2, nvbandwidth and nccl-tests (stage.sh --multigpu)
# LIMIT_<PART>=S overrides a limit; VERIFY_DEADLINE_S (default 570) bounds the whole call: a part
# gets at most what is left, and one that cannot start is reported "not run". Without a GPU every
# part still runs to its end (GPU tests report skipped; ncu, compute-sanitizer absent: said so).
# Exit status: 0 when every part is ok, 1 otherwise, 2 for a usage error.
# Example: BUILD=.device OUT=$OUT scripts/device/verify.sh tests practice claims ncu
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-.device}
OUT=${OUT:-/tmp/memlab-out}
DEADLINE_S=${VERIFY_DEADLINE_S:-570}
LIB_PY=scripts/device/verify_lib.py
lib() { python3 "$LIB_PY" "$@"; }
mkdir -p "$OUT"
BUILD=$(cd "$BUILD" && pwd)
ML=$BUILD/memlab
GT=$BUILD/memlab_gpu_tests
export MEMLAB_EXERCISE_WORKER="$ML" MEMLAB_BIN="$ML" PYTHONUNBUFFERED=1
WORK=$(mktemp -d)
T0=$SECONDS
declare -A LIMIT=([tests]=300 [suite]=420 [quick]=150 [practice]=120 [claims]=120 [ncu]=240
  [sanitize]=300 [serve]=150 [class]=240 [diagnose]=420 [hopper]=330 [runs]=420 [profile]=420
  [sass]=90 [multigpu]=560)
find_tool() {  # find_tool NAME: on PATH, else the toolkit's
  local f
  command -v "$1" 2>/dev/null && return
  for f in /usr/local/cuda*/bin/"$1" /opt/nvidia/nsight-compute/*/"$1"; do
    [ -x "$f" ] && { echo "$f"; return; }
  done
  return 0
}
NCU=${NCU:-$(find_tool ncu)}
CS=${CS:-$(find_tool compute-sanitizer)}
CUOBJDUMP=${CUOBJDUMP:-$(find_tool cuobjdump)}

left() { echo $((DEADLINE_S - (SECONDS - T0))); }
part_left() { echo $((PART_END - SECONDS)); }
# step NAME SECONDS CMD...: CMD with a limit (at most the part's time left), output to
# $DIR/NAME.log; prints one line to the part's log; returns CMD's exit status.
step() {
  local name=$1 limit=$2 rc=0 t=$SECONDS
  shift 2
  ((limit > $(part_left))) && limit=$(part_left)
  if ((limit < 2)); then
    echo "$name: not run (out of time)" >>"$LOG"
    return 124
  fi
  timeout -k 5 "$limit" "$@" >"$DIR/$name.log" 2>&1 || rc=$?
  echo "$name: exit $rc after $((SECONDS - t)) s (limit $limit s)" >>"$LOG"
  return "$rc"
}

# gtests DIR FILTER PER_TEST_S [WRAPPER...]: every test FILTER selects, one process each,
# as DIR/N.{name,rc,log,json}; tests that do not fit in the part's time go to DIR/not_run.txt.
gtests() {
  local dir=$1 flt=$2 per=$3 i=0 name rc limit
  shift 3
  mkdir -p "$dir"
  : >"$dir/not_run.txt"
  [ -x "$GT" ] || { echo "$GT not found (scripts/device/stage.sh)" >"$dir/not_run.txt"; return; }
  while IFS= read -r name; do
    limit=$per
    ((limit > $(part_left) - 3)) && limit=$(($(part_left) - 3))
    if ((limit < 5)); then
      echo "$name" >>"$dir/not_run.txt"
      continue
    fi
    i=$((i + 1))
    echo "$name" >"$dir/$i.name"
    rc=0
    timeout -k 5 "$limit" "$@" "$GT" --gtest_filter="$name" --gtest_output="json:$dir/$i.json" \
      >"$dir/$i.log" 2>&1 || rc=$?
    echo "$rc" >"$dir/$i.rc"
  done < <(lib gtest-list "$GT" "$flt")
}

part_tests() {
  gtests "$DIR/runs" "${TESTS_FILTER:-*}" 120
  lib gtest-merge "$DIR/runs" "$OUT/tests.json" tests | tee -a "$LOG"
}

run_part() {  # run_part NAME ARGS...: memlab run ARGS --json, summarised
  local name=$1 rc=0 t=$SECONDS
  shift
  step run "${LIMIT[$PART]}" "$ML" run "$@" --json "$DIR/run.json" --md "$DIR/run.md" || rc=$?
  cat "$DIR/run.log" >>"$LOG"
  lib run-summary "$name" "$rc" $((SECONDS - t)) "$DIR/run.json" "$OUT/$name.json" \
    "$DIR/run.log" | tee -a "$LOG"
}
part_suite() { run_part suite --seed 7; }
part_quick() { run_part quick --quick --seed 7; }

part_practice() {
  local rc=0 t=$SECONDS name
  mkdir -p "$DIR/checks"
  for name in $("$ML" exercise list | awk 'NF >= 3 && substr($0,1,1) != " " {print $1}'); do
    if step "check_$name" 60 "$ML" exercise check "$name" "$BUILD/exercises/$name/solution.cu" \
      --json "$DIR/checks/$name.json"; then :; else rc=1; fi
    tail -n 3 "$DIR/check_$name.log" >>"$LOG"
  done
  python3 - "$DIR/checks" "$OUT/practice.json" "$rc" $((SECONDS - t)) <<'PY' | tee -a "$LOG"
import glob, json, os, sys
d, out, rc, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
checks = {}
for p in sorted(glob.glob(os.path.join(d, "*.json"))):
    try:
        checks[os.path.basename(p)[:-5]] = json.load(open(p))
    except ValueError:
        checks[os.path.basename(p)[:-5]] = None
passed = sorted(k for k, v in checks.items() if v and v.get("status") == "passed")
doc = {"part": "practice", "ok": rc == 0 and bool(checks) and len(passed) == len(checks),
       "rc": rc, "seconds": secs, "passed": passed,
       "not_passed": sorted(set(checks) - set(passed)), "checks": checks}
# Issue 21 #6: each solution's counters beside the model, in one line (status, declared figures).
digest = {}
for k, v in checks.items():
    c = ((v or {}).get("measure") or {}).get("counters")
    if not c:
        continue
    figs = {m["figure"]: {"yours": (c.get("yours") or {}).get(m["figure"]),
                          "intended": m["intended"]["value"], "starter": m["starter"]["value"]}
            for m in c.get("model", [])}
    digest[k] = {"status": c.get("status"), "reason": c.get("reason"), "figures": figs,
                 "explain": c.get("explain")}
    print(f"counters {k}: {c.get('status')}: {c.get('explain') or c.get('reason') or ''}")
doc["counters"] = digest
json.dump(doc, open(out, "w"), indent=1)
print(f"practice: {len(passed)} of {len(checks)} solutions pass; exit {rc} in {secs} s")
PY
}

part_claims() {
  local rc=0 t=$SECONDS
  step claims "${LIMIT[claims]}" "$ML" claims --json "$DIR/claims.json" \
    --run-json "$DIR/claims_run.json" || rc=$?
  tail -n 40 "$DIR/claims.log" >>"$LOG"
  lib json-summary claims "$rc" $((SECONDS - t)) "$OUT/claims.json" \
    "claims=$DIR/claims.json" "run=$DIR/claims_run.json" "output=$DIR/claims.log" | tee -a "$LOG"
}

# The kernels compared with ncu: a long one per lesson family and the short ones of issue 19 #8
# (strided_read at strides 1, 2, 4 separates a fixed offset from a proportional one; the 512 KiB
# copy, a few us long, shows the fixed cost of the event pair itself: memlab - ncu there).
NCU_PLANS=(
  "coalescing -v strided_read -a elem=4 -a stride=1,2,4"
  "bandwidth -v elem_f4 -a op=triad,copy"
  "histogram -v per_lane -a dist=uniform"
  "transpose -v tile64_f4"
  "matmul -v thread_tile_8x16"
  "conv2d -v register -a mask=5 -a separable=no"
  "bandwidth -v elem_f4 -a op=copy -a n=2^16"
)
part_ncu() {
  local rc=0 t=$SECONDS i=0 p timed=() warm=() csvs=()
  for p in "${NCU_PLANS[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    step "timed_$i" 60 "$ML" run $p --seed 1 --json "$DIR/timed_$i.json" || true
    # shellcheck disable=SC2086
    step "warm_$i" 60 "$ML" run $p --seed 1 --warm --json "$DIR/warm_$i.json" || true
    [ -s "$DIR/timed_$i.json" ] && timed+=("$DIR/timed_$i.json")
    [ -s "$DIR/warm_$i.json" ] && warm+=("$DIR/warm_$i.json")
    if [ -x "$NCU" ]; then
      # shellcheck disable=SC2086
      step "ncu_$i" 90 "$NCU" --nvtx --print-nvtx-rename kernel --clock-control none \
        --cache-control all --csv --print-units base \
        --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
        --log-file "$DIR/ncu_$i.csv" "$ML" run $p --seed 1 --verify-only || true
      [ -s "$DIR/ncu_$i.csv" ] && csvs+=("$DIR/ncu_$i.csv")
    fi
  done
  if [ ! -x "$NCU" ]; then
    echo "ncu: not found (set NCU=...): memlab's timings only" >>"$LOG"
    rc=2
  fi
  if ((${#timed[@]} && ${#csvs[@]})); then
    python3 scripts/ncu_compare.py --timing "${timed[@]}" --ncu "${csvs[@]}" --min-us 100 \
      --warm "${warm[@]}" --json "$DIR/table.json" >"$DIR/table.md" || rc=1
    cat "$DIR/table.md" >>"$LOG"
    lib ncu-summary "$OUT/ncu.json" "$DIR/table.json" | tee -a "$LOG"
    # No record matched to ncu's kernels is a failed comparison, not a pass.
    python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); sys.exit(0 if t.get("comparable", 0) > 0 else 1)' \
      "$DIR/table.json" || { rc=1; echo "ncu: no record matched ncu's kernels" | tee -a "$LOG"; }
  else
    [ "$rc" -ne 0 ] || rc=1
    echo "ncu: nothing to compare (see the logs below)" | tee -a "$LOG"
    tail -n 5 "$DIR"/*.log >>"$LOG" 2>/dev/null || true
  fi
  lib json-summary ncu "$rc" $((SECONDS - t)) "$OUT/ncu.json" "table=$DIR/table.json" \
    "markdown=$DIR/table.md" >/dev/null
  echo "ncu: exit $rc in $((SECONDS - t)) s" | tee -a "$LOG"
}

# sanitize_tests DIR FILTER TOOL...: each tool over each test FILTER selects, one process each;
# the events lesson provokes cudaErrorNotReady on purpose: API errors are not reported there.
sanitize_tests() {
  local dir=$1 flt=$2 tool name n=0 rc extra limit
  shift 2
  mkdir -p "$dir"
  : >"$dir/not_run.txt"
  if [ ! -x "$CS" ] || [ ! -x "$GT" ]; then
    echo "compute-sanitizer or $GT not found" >"$dir/not_run.txt"
    return
  fi
  for tool in "$@"; do
    while IFS= read -r name; do
      if (($(part_left) < 15)); then
        echo "$tool $name" >>"$dir/not_run.txt"
        continue
      fi
      n=$((n + 1))
      echo "$tool $name" >"$dir/$n.name"
      extra=()
      [ "$tool" = racecheck ] && extra+=(--racecheck-report hazard)
      [[ "$name" == *vents* ]] && extra+=(--report-api-errors no)
      rc=0
      limit=$(($(part_left) - 5))
      ((limit > 150)) && limit=150
      MEMLAB_UNDER_SANITIZER=1 timeout -k 5 "$limit" "$CS" --tool "$tool" \
        "${extra[@]}" --error-exitcode 9 --print-limit 30 "$GT" --gtest_filter="$name" \
        >"$dir/$n.log" 2>&1 || rc=$?
      echo "$rc" >"$dir/$n.rc"
    done < <(lib gtest-list "$GT" "$flt")
  done
}

part_sanitize() {
  # shellcheck disable=SC2086
  sanitize_tests "$DIR/runs" "${SANITIZE_FILTER:-AllLessons/*}" ${SANITIZE_TOOLS:-memcheck racecheck}
  lib sanitize-merge "$DIR/runs" "$OUT/sanitize.json" | tee -a "$LOG"
}

part_serve() {
  local rc=0 t=$SECONDS token=verify-device-token-0123456789 port=${SERVE_PORT:-18080} pid
  mkdir -p "$DIR/results"
  # `memlab serve` runs memlab-serve beside memlab, which links cpp-httplib and brotli: staged
  # in $BUILD/lib (stage.sh) for it alone; memlab itself needs only the C and C++ runtimes.
  LD_LIBRARY_PATH="$BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$ML" serve --port "$port" --token "$token" --results "$DIR/results" >"$DIR/serve.log" 2>&1 &
  pid=$!
  step probe "${LIMIT[serve]}" python3 "$LIB_PY" serve-probe "$port" "$token" \
    "$BUILD/exercises/smem_reverse_static/solution.cu" "$DIR/probe.json" || rc=$?
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  cat "$DIR/probe.log" >>"$LOG"
  lib json-summary serve "$rc" $((SECONDS - t)) "$OUT/serve.json" "probe=$DIR/probe.json" \
    "server_output=$DIR/serve.log" | tee -a "$LOG"
}

part_class() {
  local rc=0 t=$SECONDS secs=${CLASS_S:-120}
  # memlab-serve --class, its worker is itself; its libraries (sqlite3, httplib) in $BUILD/lib.
  LD_LIBRARY_PATH="$BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    step load "${LIMIT[class]}" python3 tests/class/load_test.py "$BUILD/memlab-serve" \
    --learners "${CLASS_LEARNERS:-8}" --duration "$secs" --think 12 --eager 2 --burst 3 \
    --sources "$BUILD/exercises" --tolerance 3 --rss-mib 4096 --out "$DIR/load.json" || rc=$?
  cat "$DIR/load.log" >>"$LOG"
  lib json-summary class "$rc" $((SECONDS - t)) "$OUT/class.json" "load=$DIR/load.json" \
    | tee -a "$LOG"
}

# diagnose: `memlab exercise check` of kernels broken on purpose, the diagnosis runs under
# compute-sanitizer ($CS, put first on PATH); each case names the lines it must be found at.
part_diagnose() {
  local rc=0 t=$SECONDS src=$BUILD/exercises
  mkdir -p "$DIR/cases"
  # matmul_tiled without its two barriers: As written at 13, Bs at 14, both read at 15.
  grep -v '__syncthreads' "$src/matmul_tiled/solution.cu" >"$DIR/cases/matmul_tiled.cu"
  # vec_add's grid-stride loop with <= n: c[n] written, a[n] and b[n] read (line 3).
  printf '%s\n' '__global__ void vec_add(const float* a, const float* b, float* c, int n) {' \
    '  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += blockDim.x * gridDim.x)' \
    '    c[i] = a[i] + b[i];' '}' >"$DIR/cases/vecadd_gridstride.cu"
  # transpose without the barrier between the tile's store (line 7) and its load (line 10).
  grep -v '__syncthreads' "$src/transpose_coalesced/solution.cu" >"$DIR/cases/transpose_coalesced.cu"
  local cs_dir=""
  [ -n "$CS" ] && [ -x "$CS" ] && cs_dir=$(dirname "$CS")
  local name flag
  for name in matmul_tiled vecadd_gridstride transpose_coalesced; do
    flag=""
    [ "$name" = vecadd_gridstride ] && flag=--sanitize  # its result is right: only --sanitize
    cp "$DIR/cases/$name.cu" "$DIR/cases/kernel.cu"
    step "diag_$name" 200 env PATH="${cs_dir:+$cs_dir:}$PATH" "$ML" exercise check "$name" \
      "$DIR/cases/kernel.cu" --verify-only $flag --json "$DIR/cases/$name.json" || true
    # A race that did not change this run's result leaves no failure to diagnose: ask again.
    if [ -z "$flag" ] && ! python3 -c 'import json,sys; sys.exit(0 if "diagnosis" in json.load(open(sys.argv[1])) else 1)' \
      "$DIR/cases/$name.json" 2>/dev/null; then
      step "diag_${name}_sanitize" 200 env PATH="${cs_dir:+$cs_dir:}$PATH" "$ML" exercise check \
        "$name" "$DIR/cases/kernel.cu" --verify-only --sanitize --json "$DIR/cases/$name.json" || true
      cat "$DIR/diag_${name}_sanitize.log" >>"$LOG"
    fi
    cat "$DIR/diag_$name.log" >>"$LOG"
  done
  python3 - "$DIR/cases" "$OUT/diagnose.json" $((SECONDS - t)) "${CS:-}" <<'PY' | tee -a "$LOG"
import json, os, sys
d, out, secs, cs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
# What each case must be diagnosed with: (tool, write/at line, read line or None).
want = {"matmul_tiled": ("racecheck", {13, 14}, 15),
        "vecadd_gridstride": ("memcheck", {3}, None),
        "transpose_coalesced": ("racecheck", {7}, 10)}
cases, ok = {}, True
for name, (tool, lines, read) in want.items():
    try:
        r = json.load(open(os.path.join(d, name + ".json")))
    except (OSError, ValueError) as e:
        cases[name] = {"error": str(e)}
        ok = False
        continue
    diag = r.get("diagnosis") or {}
    found = []
    for f in diag.get("hazards", []):
        if f.get("tool") != tool:
            continue
        if tool == "racecheck":
            w, rd = f.get("write", {}).get("line"), f.get("read", {}).get("line")
            if w in lines and rd == read:
                found.append(f.get("sentence"))
        elif f.get("at", {}).get("line") in lines and f.get("at", {}).get("thread"):
            found.append(f.get("sentence"))
    runs = [{k: v for k, v in tr.items() if k != "output"} for tr in diag.get("tool_runs", [])]
    cases[name] = {"status": r.get("status"), "message": r.get("message"),
                   "diagnosis_reason": diag.get("reason"), "expected_found": bool(found),
                   "sentences": diag.get("sentences", []), "tool_runs": runs,
                   "raw": {tr.get("tool"): tr.get("output", "") for tr in diag.get("tool_runs", [])}}
    ok = ok and bool(found)
json.dump({"part": "diagnose", "ok": ok, "seconds": secs, "compute_sanitizer": cs or None,
           "cases": cases}, open(out, "w"), indent=1)
for name, c in cases.items():
    print(f"diagnose {name}: {c.get('status')}; expected lines found: {c.get('expected_found')}")
    for s in c.get("sentences", []):
        print(f"  - {s}")
PY
}

part_hopper() {
  local filter='Issue16/*:HopperWgmma.*:MatmulHopper.*' rc=0 t=$SECONDS
  gtests "$DIR/runs" "$filter" 60
  lib gtest-merge "$DIR/runs" "$DIR/tests.json" hopper-tests | tee -a "$LOG"
  sanitize_tests "$DIR/san" "$filter" memcheck
  sanitize_tests "$DIR/san" 'Issue16/*transpose_tma*:Issue16/*smem_reverse_bulk*:Issue16/*bulk_ring*:Issue16/*conv2d_*' \
    racecheck
  lib sanitize-merge "$DIR/san" "$DIR/sanitize.json" | tee -a "$LOG"
  local runs=("transpose -v tma_pipelined_many,tma_pipelined,tma,tile64_f4,padded_coarse,copy"
    "bandwidth -a op=copy -v bulk_ring_many,bulk_ring_hint,bulk_ring,bulk_copy,elem_f4,f4_unroll4,cudaMemcpy"
    "smem_reverse -v bulk_pipelined_many,bulk_pipelined,bulk,dynamic_f4,global"
    "matmul -v cp_async,tma,thread_tile_8x16,double_buffer,cublas"
    "tensor_cores -a dtype=bf16 -v wgmma,mma_sync,cublas"
    "conv2d -a separable=no -v tma,cluster,register") r i=0 pairs=()
  for r in "${runs[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    step "run_$i" 60 "$ML" run $r --seed 7 --json "$DIR/run_$i.json" || rc=1
    tail -n 12 "$DIR/run_$i.log" >>"$LOG"
    pairs+=("run_$i=$DIR/run_$i.json")
  done
  python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]));
sys.exit(0 if a["ok"] and b["ok"] else 1)' "$DIR/tests.json" "$DIR/sanitize.json" || rc=1
  lib json-summary hopper "$rc" $((SECONDS - t)) "$OUT/hopper.json" "tests=$DIR/tests.json" \
    "sanitize=$DIR/sanitize.json" "${pairs[@]}" | tee -a "$LOG"
}

part_runs() {
  local rc=0 t=$SECONDS i=0 plan plans=() files=()
  IFS=';' read -r -a plans <<<"${RUN_PLANS:-}"
  ((${#plans[@]})) || { echo "runs: RUN_PLANS is empty" | tee -a "$LOG"; rc=2; }
  for plan in "${plans[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    step "run_$i" 120 "$ML" run $plan --seed 7 --json "$OUT/run_$i.json" || rc=1
    echo "run_$i: memlab run $plan" >>"$LOG"
    tail -n 14 "$DIR/run_$i.log" >>"$LOG"
    [ -s "$OUT/run_$i.json" ] && files+=("$OUT/run_$i.json")
  done
  lib runs-summary "$OUT/runs.json" "$rc" $((SECONDS - t)) "${files[@]}" | tee -a "$LOG"
}

part_profile() {
  local rc=0 t=$SECONDS i=0 item plans=() regex plan reps=()
  IFS=';' read -r -a plans <<<"${PROFILE_PLANS:-}"
  ((${#plans[@]})) || { echo "profile: PROFILE_PLANS is empty" | tee -a "$LOG"; rc=2; }
  [ -x "$NCU" ] || { echo "profile: ncu not found (set NCU=...)" | tee -a "$LOG"; rc=2; }
  for item in "${plans[@]}"; do
    [ -x "$NCU" ] || break
    i=$((i + 1))
    regex=${item%|*}  # the regex may hold '|'; the plan never does
    plan=${item##*|}
    echo "prof_$i: kernels /$regex/ of memlab run $plan" >>"$LOG"
    # shellcheck disable=SC2086
    step "prof_$i" 150 "$NCU" --set full --clock-control none --cache-control all \
      --kernel-name-base demangled --kernel-name "regex:$regex" --launch-count "${PROFILE_LAUNCHES:-6}" \
      --import-source no --force-overwrite --export "$OUT/prof_$i" \
      "$ML" run $plan --seed 1 --verify-only || rc=1
    tail -n 3 "$DIR/prof_$i.log" >>"$LOG"
    if [ -s "$OUT/prof_$i.ncu-rep" ]; then
      "$NCU" --import "$OUT/prof_$i.ncu-rep" --page raw --csv --print-units base \
        >"$OUT/prof_$i.raw.csv" 2>>"$LOG" || rc=1
      reps+=("prof_$i=$OUT/prof_$i.raw.csv")
    fi
  done
  lib profile-summary "$OUT/profile.json" "$rc" $((SECONDS - t)) "${reps[@]}" | tee -a "$LOG"
}

part_sass() {
  local rc=0 t=$SECONDS flt=${SASS_FILTER:-matmul.*thread_tile}
  if [ -x "$CUOBJDUMP" ]; then
    step sass_text "${LIMIT[sass]}" "$CUOBJDUMP" -sass "$ML" || rc=1
    step sass_res 30 "$CUOBJDUMP" -res-usage "$ML" || rc=1
    # The matching kernels' SASS, for reading (the whole dump is tens of MB).
    awk -v re="$flt" '/Function :/ {keep = ($0 ~ re)} keep' "$DIR/sass_text.log" >"$OUT/sass.txt" || true
  else
    echo "sass: cuobjdump not found (set CUOBJDUMP=...)" | tee -a "$LOG"
    rc=2
  fi
  lib sass-summary "$OUT/sass.json" "$rc" $((SECONDS - t)) "$DIR/sass_text.log" \
    "$DIR/sass_res.log" "$flt" | tee -a "$LOG"
}

# Two or more GPUs (nvidia-h200-x2), staged with `scripts/device/stage.sh --multigpu`: NCCL from
# the Python wheel where the machine has one, OpenMPI's mpirun of the machine (libmpi opened at
# run time; the staged $BUILD/mpi-lib only where the machine lacks it), the yardsticks built by
# scripts/device/build_yardsticks.sh, compared by scripts/device/multigpu_compare.py.
part_multigpu() {
  local rc=0 t=$SECONDS nccl root mpirun y="$BUILD/yardsticks" op
  export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
  nccl=$(python3 -c 'import importlib.util as u; s=u.find_spec("nvidia.nccl"); print(list(s.submodule_search_locations)[0])' 2>/dev/null || true)
  if [ -n "$nccl" ] && [ -f "$nccl/lib/libnccl.so.2" ]; then
    export MEMLAB_NCCL_LIBRARY="$nccl/lib/libnccl.so.2" LD_LIBRARY_PATH="$nccl/lib:${LD_LIBRARY_PATH:-}"
  fi
  if ! ldconfig -p | grep -q "libmpi.so.40" && [ -f "$BUILD/mpi-lib/libmpi.so.40" ]; then
    export MEMLAB_MPI_LIBRARY="$BUILD/mpi-lib/libmpi.so.40" LD_LIBRARY_PATH="$BUILD/mpi-lib:${LD_LIBRARY_PATH:-}"
  fi
  {
    echo "NCCL=${MEMLAB_NCCL_LIBRARY:-none} MPI=${MEMLAB_MPI_LIBRARY:-system}"
    nvidia-smi topo -m
    nvidia-smi nvlink -s
  } >>"$LOG" 2>&1 || true
  step info_json 15 sh -c "'$ML' info --json > '$DIR/info.json'" || rc=1
  gtests "$DIR/runs" '*/p2p:*/collectives:*/multi_gpu_pipeline:MultiGpu.*' 60
  lib gtest-merge "$DIR/runs" "$DIR/tests.json" multigpu-tests | tee -a "$LOG"
  step lessons 120 "$ML" run p2p collectives multi_gpu_pipeline --seed 7 \
    --json "$DIR/lessons.json" || rc=1
  step devices 45 "$ML" run bandwidth --quick -v elem_f4 --seed 7 --devices all \
    --json "$DIR/devices.json" || rc=1
  # A copy loop on GPU 1 (PyTorch) while both GPUs run the plan: the fleet summary must name GPU 1
  # the slowest.
  python3 -c 'import time, torch
a = torch.empty(2**30, dtype=torch.uint8, device="cuda:1"); b = torch.empty_like(a)
end = time.time() + 40
while time.time() < end:
    [b.copy_(a) for _ in range(20)]; torch.cuda.synchronize(1)' >"$DIR/load.log" 2>&1 &
  local load=$!
  sleep 8
  step devices_loaded 45 "$ML" run bandwidth --quick -v elem_f4 --seed 7 --devices all \
    --json "$DIR/devices_loaded.json" || rc=1
  kill "$load" 2>/dev/null || true
  wait "$load" 2>/dev/null || true
  root=""
  [ "$(id -u)" -eq 0 ] && root="--allow-run-as-root"
  mpirun=$(command -v mpirun || echo /usr/bin/mpirun)
  # shellcheck disable=SC2086
  step mpi_bandwidth 45 "$mpirun" -np 2 $root -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE \
    -x MEMLAB_NCCL_LIBRARY -x MEMLAB_MPI_LIBRARY "$ML" run bandwidth --quick -v elem_f4 --seed 7 \
    --json "$DIR/mpi_bandwidth.json" || rc=1
  # shellcheck disable=SC2086
  step mpi_collectives 60 "$mpirun" -np 2 $root -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE \
    -x MEMLAB_NCCL_LIBRARY -x MEMLAB_MPI_LIBRARY "$ML" run collectives --quick --seed 7 \
    --json "$DIR/mpi_collectives.json" || rc=1
  if [ -x "$y/nvbandwidth" ]; then
    step nvbandwidth 60 sh -c "'$y/nvbandwidth' -j -t device_to_device_memcpy_write_ce \
      device_to_device_memcpy_write_sm device_to_device_bidirectional_memcpy_write_ce \
      > '$DIR/nvbandwidth.json'" || true
  fi
  for op in all_reduce all_gather reduce_scatter broadcast sendrecv; do
    [ -x "$y/${op}_perf" ] && { step "nccl_$op" 20 "$y/${op}_perf" -b 8K -e 1G -f 8 -g 2 -c 1 \
      -w 3 -n 20 || true; }
  done
  step compare 15 python3 scripts/device/multigpu_compare.py "$DIR" || true
  cat "$DIR/compare.txt" >>"$LOG" 2>/dev/null || true
  lib json-summary multigpu "$rc" $((SECONDS - t)) "$OUT/multigpu.json" "tests=$DIR/tests.json" \
    "info=$DIR/info.json" "lessons=$DIR/lessons.json" "devices=$DIR/devices.json" \
    "devices_loaded=$DIR/devices_loaded.json" \
    "mpi_bandwidth=$DIR/mpi_bandwidth.json" "mpi_collectives=$DIR/mpi_collectives.json" \
    "compare=$DIR/compare.json" | tee -a "$LOG"
}

parts=("$@")
((${#parts[@]})) || {
  echo "usage: $0 PART... (tests suite quick practice claims ncu sanitize serve class diagnose hopper runs profile sass multigpu)" >&2
  exit 2
}
for PART in "${parts[@]}"; do
  [ -n "${LIMIT[$PART]:-}" ] || {
    echo "verify.sh: unknown part '$PART'; accepted: ${!LIMIT[*]}" >&2
    exit 2
  }
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv \
  >"$WORK/nvidia-smi.txt" 2>&1 || echo "nvidia-smi: not available" >"$WORK/nvidia-smi.txt"
summary=()
status=0
for PART in "${parts[@]}"; do
  DIR=$WORK/$PART
  LOG=$OUT/$PART.log
  mkdir -p "$DIR"
  limit=${LIMIT[$PART]}
  override="LIMIT_${PART^^}"
  limit=${!override:-$limit}
  ((limit > $(left))) && limit=$(left)
  {
    echo "== verify.sh $PART ($(date -u +%FT%TZ), limit $limit s, BUILD=$BUILD)"
    cat "$WORK/nvidia-smi.txt"
  } >"$LOG"
  if ((limit < 20)); then
    echo "{\"part\": \"$PART\", \"ok\": false, \"rc\": 124, \"not_run\": \"out of time\"}" \
      >"$OUT/$PART.json"
    summary+=("$PART: not run (out of time)")
    status=1
    continue
  fi
  PART_END=$((SECONDS + limit))
  start=$SECONDS
  "part_$PART" || echo "$PART: the part's script failed (exit $?)" | tee -a "$LOG"
  ok=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("ok"))' \
    "$OUT/$PART.json" 2>/dev/null || echo "no summary")
  summary+=("$PART: ok=$ok in $((SECONDS - start)) s")
  [ "$ok" = True ] || status=1
done
printf '%s\n' "${summary[@]}" | tee "$WORK/verify.txt"
if [ "${VERIFY_TAR:-0}" = 1 ]; then
  cp "$WORK/verify.txt" "$OUT/verify.txt"
  tar -C "$OUT" -czf "$WORK/verify.tgz" --exclude verify.txt --exclude verify.tgz . &&
    find "$OUT" -mindepth 1 -maxdepth 1 ! -name verify.txt -exec rm -rf {} + &&
    mv "$WORK/verify.tgz" "$OUT/verify.tgz"
fi
rm -rf "$WORK"
exit "$status"
