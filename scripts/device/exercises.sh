#!/usr/bin/env bash
# On the GPU machine: every exercise's reference solution through `memlab exercise check`, then
# the exercise GPU tests (starters fail as they should, an endless loop is stopped, an
# out-of-bounds write is reported and the next check in the same process succeeds).
# BUILD: folder holding memlab and memlab_gpu_tests (default build-ci). Writes 4 files to $OUT:
# exercises.json (one check result per exercise), checks.txt, summary.txt, gpu_tests.txt.
set -u
BUILD=${BUILD:-build-ci}
. "$(dirname "$0")/env.sh"  # staged shared libraries (stage.sh)
OUT=${OUT:-out}
mkdir -p "$OUT"
tmp=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/summary.txt" 2>&1
status=0
echo "[" > "$OUT/exercises.json"
first=1
for name in $("$BUILD/memlab" exercise list | awk 'NF >= 3 && $1 != "" && substr($0,1,1) != " " {print $1}'); do
  start=$(date +%s)
  "$BUILD/memlab" exercise check "$name" "$BUILD/exercises/$name/solution.cu" \
    --json "$tmp/$name.json" >> "$OUT/checks.txt" 2>&1
  rc=$?
  echo "$name rc=$rc $(( $(date +%s) - start )) s" | tee -a "$OUT/summary.txt"
  [ $rc -eq 0 ] || status=1
  [ $first -eq 1 ] || echo "," >> "$OUT/exercises.json"
  first=0
  cat "$tmp/$name.json" >> "$OUT/exercises.json" 2>/dev/null || echo "null" >> "$OUT/exercises.json"
done
echo "]" >> "$OUT/exercises.json"
if [ -x "$BUILD/memlab_gpu_tests" ]; then
  MEMLAB_EXERCISE_WORKER="$(cd "$BUILD" && pwd)/memlab" "$BUILD/memlab_gpu_tests" --gtest_filter='*Exercise*:-*SolutionPasses*' \
    > "$OUT/gpu_tests.txt" 2>&1 || status=1
  tail -5 "$OUT/gpu_tests.txt"
fi
rm -rf "$tmp"
exit $status
