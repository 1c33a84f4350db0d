#!/usr/bin/env bash
# Copies what the GPU machine needs into .device/ (git-ignored; carry it with the call): the
# stripped binaries, the exercises (their solutions are checked there), and in .device/lib/ the
# shared libraries the binaries link that this machine has from Debian packages and the GPU
# machine may lack (cpp-httplib and the brotli libraries it pulls in; found with ldd, so a new
# such dependency is copied too when it matches $STAGE_LIBS). The device scripts put
# .device/lib on LD_LIBRARY_PATH (scripts/device/env.sh).
# Usage: scripts/device/stage.sh [BUILD_DIR]   (default build-ci)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build-ci}"
# Libraries copied when a binary links them (extended regular expression on the file name).
STAGE_LIBS="${STAGE_LIBS:-^lib(cpp-httplib|brotli(dec|enc|common))\.so}"
rm -rf .device
mkdir -p .device/lib
cp "$BUILD/memlab" "$BUILD/tests/memlab_gpu_tests" .device/
strip .device/memlab .device/memlab_gpu_tests
cp -r exercises .device/
for bin in "$BUILD/memlab" "$BUILD/tests/memlab_gpu_tests"; do
  if ldd "$bin" | grep -q "not found"; then
    echo "stage: $bin has unresolved libraries here:" >&2
    ldd "$bin" | grep "not found" >&2
    exit 1
  fi
  ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | while read -r lib; do
    name=$(basename "$lib")
    if [[ "$name" =~ $STAGE_LIBS ]] && [ ! -e ".device/lib/$name" ]; then
      cp -L "$lib" ".device/lib/$name"
      echo "stage: .device/lib/$name (from $lib)"
    fi
  done
done
for need in libcpp-httplib.so.0.11 libbrotlidec.so.1 libbrotlienc.so.1 libbrotlicommon.so.1; do
  if ldd "$BUILD/memlab" | grep -q "$need" && [ ! -e ".device/lib/$need" ]; then
    echo "stage: $need is linked but was not copied" >&2
    exit 1
  fi
done
du -sh .device
