#!/usr/bin/env bash
# CTest (host label): scripts/device/verify.sh on a machine without a GPU. Every part must run to
# its end within its limit and leave $OUT/PART.json (with "part" and "ok") and $OUT/PART.log;
# the GPU tests must report skipped, never failed. Usage: verify_dry_run.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "a GPU is present: verify.sh runs for real there (skipped)"
  exit 0
fi
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
mkdir -p "$tmp/stage" "$tmp/out"
ln -s "$build/memlab" "$tmp/stage/memlab"
[ -e "$build/memlab-serve" ] && ln -s "$build/memlab-serve" "$tmp/stage/memlab-serve"
ln -s "$build/tests/memlab_gpu_tests" "$tmp/stage/memlab_gpu_tests"
ln -s "$src/exercises" "$tmp/stage/exercises"
parts=(tests suite quick practice claims ncu sanitize diagnose hopper sass)
"$build/memlab" serve --help >/dev/null 2>&1 && parts+=(serve class) # built with the web lab
# Only a few GPU tests and lessons: the point is the script's path, not the tests themselves.
start=$SECONDS
(cd "$src" && BUILD="$tmp/stage" OUT="$tmp/out" TESTS_FILTER='AllLessons/*:MultiGpu.*' \
  SANITIZE_FILTER='AllLessons/*/bandwidth' NCU=/nonexistent/ncu CS=/nonexistent/compute-sanitizer CUOBJDUMP=/nonexistent/cuobjdump SERVE_PORT=$((20000 + $$ % 20000)) CLASS_S=8 CLASS_LEARNERS=3 \
  VERIFY_DEADLINE_S=120 scripts/device/verify.sh "${parts[@]}") >"$tmp/verify.txt" 2>&1 || rc=$?
# 1: some part is not ok (no GPU); anything else is the script's own failure.
if [ "${rc:-0}" -gt 1 ]; then
  cat "$tmp/verify.txt"
  echo "verify.sh exited $rc"
  exit 1
fi
echo "verify.sh ${parts[*]}: $((SECONDS - start)) s (outputs in $tmp/out with KEEP=1)"
tail -n "${#parts[@]}" "$tmp/verify.txt"
python3 - "$tmp/out" "${parts[@]}" <<'PY'
import json, os, sys
out, parts = sys.argv[1], sys.argv[2:]
bad = []
for p in parts:
    try:
        doc = json.load(open(os.path.join(out, p + ".json")))
    except (OSError, ValueError) as e:
        bad.append(f"{p}: no summary ({e})")
        continue
    if doc.get("part") != p or "ok" not in doc:
        bad.append(f"{p}: summary without part/ok: {list(doc)[:6]}")
    if not os.path.exists(os.path.join(out, p + ".log")):
        bad.append(f"{p}: no log")
    if p == "tests":
        if doc.get("failed") or not doc.get("skipped") or doc.get("not_run"):
            bad.append(f"tests: {doc.get('passed')} passed {doc.get('failed')} failed "
                       f"{doc.get('skipped')} skipped, not run {doc.get('not_run')}")
print("\n".join(bad) or "every part left its summary and log")
sys.exit(1 if bad else 0)
PY
