#!/usr/bin/env bash
# Copies what the GPU machine needs into .device/ (git-ignored; carry it with the call) for
# scripts/device/verify.sh: the stripped binaries and the exercises (their solutions are checked
# there). memlab needs nothing but the C and C++ runtimes at start-up (MPI, cuBLAS, CUPTI, NVML
# and NCCL are opened at run time, cpp-httplib is compiled in); this script refuses binaries that
# need more, so the call does not fail on the GPU machine instead.
#   --multigpu  also the yardsticks (scripts/device/build_yardsticks.sh: .dev-yardsticks/bin ->
#               .device/yardsticks) and OpenMPI's libmpi with what it pulls in (.device/mpi-lib;
#               verify.sh multigpu uses them only where the GPU machine has no libmpi.so.40)
# Usage: scripts/device/stage.sh [--multigpu] [BUILD_DIR]   (default build-ci)
set -euo pipefail
cd "$(dirname "$0")/../.."
multigpu=0
if [ "${1:-}" = "--multigpu" ]; then
  multigpu=1
  shift
fi
BUILD="${1:-build-ci}"
runtime='^(libc|libm|libgcc_s|libstdc\+\+|libdl|libpthread|librt|ld-linux-x86-64)\.so'
rm -rf .device
mkdir -p .device
for bin in "$BUILD/memlab" "$BUILD/tests/memlab_gpu_tests"; do
  extra=$(readelf -d "$bin" | awk '/NEEDED/ {gsub(/[\[\]]/, "", $5); print $5}' |
    grep -Ev "$runtime" || true)
  if [ -n "$extra" ] && [ "$(basename "$bin")" = memlab ]; then
    echo "stage: $bin needs more than the C and C++ runtimes at start-up: ${extra//$'\n'/ }" >&2
    exit 1
  fi
  cp "$bin" .device/
  strip ".device/$(basename "$bin")"
done
cp -r exercises .device/
if ((multigpu)); then
  if [ -d .dev-yardsticks/bin ]; then
    cp -r .dev-yardsticks/bin .device/yardsticks
  else
    echo "stage: no yardsticks (run scripts/device/build_yardsticks.sh first)" >&2
  fi
  mpi=$(ldconfig -p | awk '/libmpi\.so\.40 / {print $NF; exit}')
  if [ -n "$mpi" ]; then
    mkdir -p .device/mpi-lib
    cp -L "$mpi" .device/mpi-lib/
    ldd "$mpi" | awk '/=> \// {print $3}' |
      grep -E "libopen-|libpmix|libhwloc|libevent|libfabric|libucp|libucs|libuct|libucm|libpsm|libibverbs|librdmacm|libnl-|libefa|libmunge|libltdl|libz\.|libudev" |
      while read -r lib; do cp -L "$lib" .device/mpi-lib/; done
  fi
fi
du -sh .device
