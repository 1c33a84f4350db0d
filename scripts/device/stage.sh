#!/usr/bin/env bash
# Copies the binaries the GPU machine needs into .device/ (git-ignored; carry it with the call).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build-ci}"
mkdir -p .device
cp "$BUILD/memlab" "$BUILD/tests/memlab_gpu_tests" .device/
du -sh .device
