#!/usr/bin/env bash
# Runs on the GPU machine: compute-sanitizer memcheck, racecheck, synccheck and initcheck over
# every variant of every lesson at its test points (the GPU test binary: LessonTest runs each
# variant at each test point against the CPU reference; plus the matmul, streams and events tests).
# API errors are reported (never silenced). The events lesson's deliberate API error
# (cudaErrorNotReady: reading an event that has not completed) is excluded BY NAME: the events tests
# run in a separate pass whose log may contain cudaErrorNotReady and nothing else.
# Writes $OUT/sanitize_<tool>.log, $OUT/sanitize_events_<tool>.log and $OUT/sanitize_summary.md.
# Usage: BUILD=.device OUT=/tmp/memlab-out scripts/device/sanitize_sweep.sh [TOOL...]
#   TOOL_LIMIT_S (default 540) caps each tool's main pass; split tools over calls if needed.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-.device}"
. "$(dirname "$0")/env.sh"  # staged shared libraries (stage.sh)
OUT="${OUT:-/tmp/memlab-out}"
TOOL_LIMIT_S="${TOOL_LIMIT_S:-540}"
CS="${CS:-compute-sanitizer}"
mkdir -p "$OUT"
command -v "$CS" >/dev/null 2>&1 || CS=$(ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
[ -n "$CS" ] || { echo "sanitize_sweep: compute-sanitizer not found (set CS=...)" >&2; exit 2; }
bin="$BUILD/memlab_gpu_tests"
[ -x "$bin" ] || { echo "sanitize_sweep: $bin not found (scripts/device/stage.sh)" >&2; exit 2; }

tools=("$@")
((${#tools[@]})) || tools=(memcheck racecheck synccheck initcheck)
# The tests that provoke cudaErrorNotReady on purpose: the events lesson (its tests and its
# LessonTest instance). Everything else must be free of API errors too.
events_filter='Events.*:*events*'
summary="$OUT/sanitize_summary.md"
{
  echo "# compute-sanitizer sweep ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /'
  "$CS" --version 2>/dev/null | tail -1
  echo
  echo "| tool | pass | tests | errors | exit | seconds |"
  echo "| --- | --- | ---: | ---: | ---: | ---: |"
} >"$summary"

errors_of() {  # the error count a compute-sanitizer log reports ("-" when it has no summary)
  local n
  n=$(grep -Eo "ERROR SUMMARY: [0-9]+ error" "$1" | tail -1 | grep -Eo "[0-9]+")
  echo "${n:--}"
}
tests_of() { grep -Eo "\[==========\] [0-9]+ tests? .* ran" "$1" | tail -1 | grep -Eo "[0-9]+" | head -1; }

status=0
for tool in "${tools[@]}"; do
  extra=()
  [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
  # Main pass: everything but the events lesson.
  log="$OUT/sanitize_$tool.log"
  t0=$SECONDS
  MEMLAB_UNDER_SANITIZER=1 timeout -k 10 "$TOOL_LIMIT_S" "$CS" --tool "$tool" "${extra[@]}" \
    --error-exitcode 9 --print-limit 50 "$bin" --gtest_filter="-$events_filter" >"$log" 2>&1
  rc=$?
  errs=$(errors_of "$log")
  echo "| $tool | all but events | $(tests_of "$log") | $errs | $rc | $((SECONDS - t0)) |" >>"$summary"
  echo "sanitize $tool: exit $rc, errors $errs, $((SECONDS - t0))s" >&2
  [ $rc -eq 0 ] && [ "$errs" = 0 ] || status=1
  # Events pass: the only API error allowed is the deliberate cudaErrorNotReady.
  elog="$OUT/sanitize_events_$tool.log"
  t0=$SECONDS
  MEMLAB_UNDER_SANITIZER=1 timeout -k 10 300 "$CS" --tool "$tool" "${extra[@]}" --print-limit 50 \
    "$bin" --gtest_filter="$events_filter" >"$elog" 2>&1
  rc=$?
  other=$(grep -E "^========= +(Invalid|Program hit|Race|Barrier|Uninitialized|Error)" "$elog" |
            grep -vc "cudaErrorNotReady")
  notready=$(grep -c "Program hit cudaErrorNotReady" "$elog")
  gtest_ok=$(grep -c "^\[  PASSED  \]" "$elog")
  echo "| $tool | events (deliberate cudaErrorNotReady: $notready; other errors: $other) | $(tests_of "$elog") | $other | $rc | $((SECONDS - t0)) |" >>"$summary"
  [ "$other" = 0 ] && [ "$gtest_ok" -ge 1 ] || status=1
done
echo >>"$summary"
if ((status == 0)); then
  echo "Result: 0 errors in every tool; the events lesson's only API errors are its deliberate cudaErrorNotReady." >>"$summary"
else
  echo "Result: ERRORS or failures, see the logs (sanitize_*.log)." >>"$summary"
fi
cat "$summary"
exit $status
