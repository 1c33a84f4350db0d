#!/usr/bin/env bash
# Copies what the GPU machine needs into .device/ (git-ignored; carry it with the call): the
# stripped binaries and the exercises (their solutions are checked there).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build-ci}"
rm -rf .device
mkdir -p .device
cp "$BUILD/memlab" "$BUILD/tests/memlab_gpu_tests" .device/
strip .device/memlab .device/memlab_gpu_tests
cp -r exercises .device/
du -sh .device
