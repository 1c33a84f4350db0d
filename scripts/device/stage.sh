#!/usr/bin/env bash
# Copies what the GPU machine needs into .device/ (git-ignored; carry it with the call) for
# scripts/device/verify.sh: the stripped binaries and the exercises (their solutions are checked
# there). memlab needs nothing but the C and C++ runtimes at start-up (MPI, cuBLAS, CUPTI, NVML
# and NCCL are opened at run time); this script refuses binaries that need more, so the call does
# not fail on the GPU machine instead. memlab-serve (`memlab serve` runs it from memlab's folder)
# links Debian's shared cpp-httplib: that library and the brotli libraries it pulls in, which the
# GPU machine may lack, are copied from this machine into .device/lib (found with ldd; a new such
# dependency is copied too when it matches $STAGE_LIBS), for memlab-serve only: verify.sh's serve
# part puts .device/lib on its LD_LIBRARY_PATH.
#   --multigpu  also the yardsticks (scripts/device/build_yardsticks.sh: .dev-yardsticks/bin ->
#               .device/yardsticks) and OpenMPI's libmpi with what it pulls in (.device/mpi-lib;
#               verify.sh multigpu uses them only where the GPU machine has no libmpi.so.40);
#               memlab-serve and .device/lib are left out (the tool's 64 MiB; serve is not a
#               part of that call)
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
# Libraries copied when memlab-serve links them (extended regular expression on the file name).
STAGE_LIBS="${STAGE_LIBS:-^lib(cpp-httplib|brotli(dec|enc|common)|sqlite3|crypto)\.so}"
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
if ((multigpu)); then
  echo "stage: --multigpu leaves memlab-serve out (64 MiB): memlab serve will exit 2" >&2
elif [ -x "$BUILD/memlab-serve" ]; then
  serve="$BUILD/memlab-serve"
  if ldd "$serve" | grep -q "not found"; then
    echo "stage: $serve has unresolved libraries here:" >&2
    ldd "$serve" | grep "not found" >&2
    exit 1
  fi
  mkdir -p .device/lib
  cp "$serve" .device/
  strip .device/memlab-serve
  ldd "$serve" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | while read -r lib; do
    name=$(basename "$lib")
    if [[ "$name" =~ $STAGE_LIBS ]] && [ ! -e ".device/lib/$name" ]; then
      cp -L "$lib" ".device/lib/$name"
      echo "stage: .device/lib/$name (from $lib, for memlab-serve)"
    fi
  done
  for need in $(ldd "$serve" | awk '{print $1}' | grep -E "$STAGE_LIBS" || true); do
    if [ ! -e ".device/lib/$need" ]; then
      echo "stage: $serve links $need, which was not copied" >&2
      exit 1
    fi
  done
else
  echo "stage: no $BUILD/memlab-serve (built without the web lab?): memlab serve will exit 2" >&2
fi
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
