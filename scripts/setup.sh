#!/usr/bin/env bash
# Installs the missing Debian/Ubuntu packages, configures and builds memlab.
# Usage: scripts/setup.sh [PRESET]   (default: "default"; CI uses "ci")
#        scripts/setup.sh --fuzz     only the packages of scripts/fuzz.sh (clang 14 + libFuzzer,
#                                    sanitizer runtimes), nothing built; the main build needs none
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"

# emscripten: the WebAssembly models (wasm/; -DMEMLAB_WASM=OFF builds without them).
packages=(cmake ninja-build g++ pkg-config libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev
  libcpp-httplib-dev emscripten)
# OpenMPI: `mpirun -np N memlab run` (MEMLAB_MPI, found by CMake when present) and the host test
# that runs the gather under mpirun -np 2.
packages+=(libopenmpi-dev openmpi-bin)
# The class lab (memlab serve --class): SQLite for the attempts, OpenSSL's libcrypto for the
# tokens' SHA-256; python3 runs its kill -9 and load tests (tests/class/).
packages+=(libsqlite3-dev libssl-dev python3)
# The web lab (MEMLAB_WEB=ON) builds web/ with node and npm: Debian's, unless a node is already
# installed (e.g. NodeSource's, which brings its own npm).
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
# The web lab's end-to-end tests drive Debian's chromium (playwright-core downloads no browser).
[ -x /usr/bin/chromium ] || packages+=(chromium)
# A CJK font, so that the Chinese pages (and their screenshots) show characters, not boxes.
packages+=(fonts-wqy-microhei)
if [ "$preset" = "--fuzz" ]; then
  packages=(clang-14 libclang-rt-14-dev nlohmann-json3-dev libfmt-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "memlab setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

[ "$preset" = "--fuzz" ] && exit 0

if ! command -v nvcc >/dev/null 2>&1; then
  for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
    [ -x "$d/nvcc" ] && export PATH="$d:$PATH" && break
  done
fi
command -v nvcc >/dev/null 2>&1 || {
  echo "memlab setup: nvcc not found; install the CUDA toolkit (e.g. apt-get install nvidia-cuda-toolkit or NVIDIA's cuda-toolkit package)" >&2
  exit 2
}
export CUDACXX="${CUDACXX:-$(command -v nvcc)}"

# The front end's packages, exactly as locked (the build runs `npm ci` too, when
# package-lock.json changes).
if [ -f web/package-lock.json ] &&
  { [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; }; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error) >&2
fi

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)" >&2  # stdout stays for results
