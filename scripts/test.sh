#!/usr/bin/env bash
# Quick start (b): set up, build and run the whole test suite: CTest (host and gpu labels), then
# the web lab's vitest and its end-to-end tests in headless chromium against the real
# `memlab serve` and `memlab report` of this build.
# Without a GPU the gpu tests report "skipped: no CUDA device" (CTest: Skipped), never passed.
# Usage: scripts/test.sh [PRESET]   (default: "default"; CI uses "ci")
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
scripts/setup.sh "$preset"
ctest --preset "$preset" -j "$(nproc)"
if [ -f web/package.json ]; then
  build_dir="build-$preset"  # CMakePresets.json: binaryDir build (default), build-<preset>
  [ "$preset" = default ] && build_dir=build
  [ -x "$build_dir/memlab" ] || { echo "memlab test: $build_dir/memlab is missing" >&2; exit 2; }
  (cd web && npm test)
  MEMLAB_BIN="$PWD/$build_dir/memlab" web/scripts/e2e.sh
fi
