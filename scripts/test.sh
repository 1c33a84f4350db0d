#!/usr/bin/env bash
# Quick start (b): set up, build and run the whole test suite (host and gpu labels).
# Without a GPU the gpu tests report "skipped: no CUDA device" (CTest: Skipped), never passed.
# Usage: scripts/test.sh [PRESET]   (default: "default"; CI uses "ci")
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
scripts/setup.sh "$preset"
ctest --preset "$preset" -j "$(nproc)"
