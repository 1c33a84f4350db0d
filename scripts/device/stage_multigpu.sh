#!/usr/bin/env bash
# Stages what scripts/device/multigpu.sh needs into .device/ (git-ignored; carry it): the
# binaries (scripts/device/stage.sh), the yardsticks built by scripts/device/build_yardsticks.sh
# (.dev-yardsticks/bin -> .device/yardsticks) and OpenMPI's shared libraries that memlab links
# (.device/mpi-lib; multigpu.sh puts them on LD_LIBRARY_PATH only where the GPU machine lacks
# them, and uses that machine's own mpirun).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build-ci}"
scripts/device/stage.sh "$BUILD"
if [ -d .dev-yardsticks/bin ]; then
  cp -r .dev-yardsticks/bin .device/yardsticks
else
  echo "stage_multigpu: no yardsticks (run scripts/device/build_yardsticks.sh first)" >&2
fi
# cpp-httplib (the web lab's server) beside the binaries: multigpu.sh puts .device on
# LD_LIBRARY_PATH, as round2.sh does.
ldd "$BUILD/memlab" | awk '/libcpp-httplib/ {print $3}' | while read -r lib; do cp -L "$lib" .device/; done
mkdir -p .device/mpi-lib
ldd "$BUILD/memlab" | awk '/=> \// {print $3}' |
  grep -E "libmpi|libopen-|libpmix|libhwloc|libevent|libfabric|libucp|libucs|libuct|libucm|libpsm|libibverbs|librdmacm|libnl-|libefa|libmunge|libltdl|libz\.|libudev" |
  while read -r lib; do cp -L "$lib" .device/mpi-lib/; done
du -sh .device .device/* 2>/dev/null
