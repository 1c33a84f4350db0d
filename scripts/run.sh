#!/usr/bin/env bash
# Quick start (a): set up, build, and run the default suite on the GPU.
# Extra arguments go to `memlab run` (e.g. --quick, --json results.json).
# Without a GPU, memlab says "no CUDA device", shows the plan and exits 3.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh default
exec build/memlab run "$@"
