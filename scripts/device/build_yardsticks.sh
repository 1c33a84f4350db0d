#!/usr/bin/env bash
# Builds NVIDIA's own tools that memlab's multi-GPU figures are compared with (docs/multigpu.md),
# HERE (no GPU needed), for sm_90, into .dev-yardsticks/bin (git-ignored):
#   nvbandwidth   github:NVIDIA/nvbandwidth  (peer copies: CE and SM, one way and both ways)
#   nccl-tests    github:NVIDIA/nccl-tests   (all_reduce_perf, all_gather_perf, ...; no MPI)
# Their sources are NOT part of memlab: give this script clones of the two repositories in
# .dev-yardsticks/src/{nvbandwidth,nccl-tests} (e.g. `git clone` from GitHub or a mirror).
# Needs: nvcc, cmake, Boost program_options (Debian libboost-program-options-dev, installed here
# if missing; linked statically), NCCL's header and library for nccl-tests (NCCL_HOME, default
# the CUDA toolkit's own copy when it has one: /usr/local/cuda/include/nccl.h; else a Python
# wheel's nvidia/nccl, e.g. nvidia-nccl-cu13). The libnccl nccl-tests finds at run time on the
# GPU machine is that machine's (LD_LIBRARY_PATH, set by scripts/device/multigpu.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=.dev-yardsticks
src=$root/src
bin=$root/bin
jobs=${JOBS:-2}
mkdir -p "$bin"
for p in libboost-program-options-dev cmake; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get install -y -qq "$p" >/dev/null
  fi
done
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH="$CUDA_HOME/bin:$PATH"

# NVML's header and a library to link against (the GPU machine's driver provides the real one at
# run time): the toolkit's when it has nvml.h, else Debian non-free's libnvidia-ml-dev and
# libnvidia-ml1, downloaded (not installed) and unpacked into $root/nvml.
nvml_inc=$CUDA_HOME/include
nvml_lib=$CUDA_HOME/lib64/stubs
if [ ! -f "$nvml_inc/nvml.h" ]; then
  if [ ! -f "$root/nvml/usr/include/nvml.h" ]; then
    apt_dir=$(mktemp -d)
    mkdir -p "$apt_dir/lists/partial" "$root/deb"
    echo "deb http://deb.debian.org/debian bookworm non-free" >"$apt_dir/sources.list"
    apt_opts=(-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o Dir::State::Lists="$apt_dir/lists")
    apt-get -qq "${apt_opts[@]}" update
    (cd "$root/deb" && apt-get -qq "${apt_opts[@]}" download libnvidia-ml-dev libnvidia-ml1)
    for d in "$root"/deb/*.deb; do dpkg-deb -x "$d" "$root/nvml"; done
  fi
  nvml_inc=$PWD/$root/nvml/usr/include
  nvml_lib=$PWD/$root/nvml/usr/lib/x86_64-linux-gnu/nvidia/current
fi

# nvbandwidth: CMake; libcuda from the toolkit's stubs (no driver here), NVML as above.
if [ -d "$src/nvbandwidth" ]; then
  if cmake -S "$src/nvbandwidth" -B "$root/build-nvbandwidth" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_LIBRARY_PATH="$nvml_lib;$CUDA_HOME/lib64/stubs" \
    -DCMAKE_CXX_FLAGS="-I$nvml_inc" -DCMAKE_CUDA_FLAGS="-I$nvml_inc" \
    -DCMAKE_EXE_LINKER_FLAGS="-L$nvml_lib -L$CUDA_HOME/lib64/stubs" >/dev/null &&
    cmake --build "$root/build-nvbandwidth" -j "$jobs"; then
    cp "$root/build-nvbandwidth/nvbandwidth" "$bin/"
    (cd "$src/nvbandwidth" && git log -1 --format='nvbandwidth %H %cs') >"$bin/nvbandwidth.version"
  else
    echo "build_yardsticks: nvbandwidth failed to build" >&2
  fi
else
  echo "build_yardsticks: $src/nvbandwidth missing (clone github:NVIDIA/nvbandwidth there)" >&2
fi

# nccl-tests: its Makefile, MPI off (one process drives every GPU: -g N).
if [ -d "$src/nccl-tests" ]; then
  NCCL_HOME=${NCCL_HOME:-$CUDA_HOME}
  [ -f "$NCCL_HOME/include/nccl.h" ] || {
    echo "build_yardsticks: no nccl.h under NCCL_HOME=$NCCL_HOME" >&2
    exit 2
  }
  # Only the five tests multigpu.sh runs (the Makefile's default builds a dozen).
  out_dir=$PWD/$root/build-nccl-tests
  make -C "$src/nccl-tests/src" -j "$jobs" MPI=0 CUDA_HOME="$CUDA_HOME" NCCL_HOME="$NCCL_HOME" \
    NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" BUILDDIR="$out_dir" os.build \
    "$out_dir"/{all_reduce,all_gather,reduce_scatter,broadcast,sendrecv}_perf >/dev/null
  cp "$root"/build-nccl-tests/*_perf "$bin/"
  (cd "$src/nccl-tests" && git log -1 --format='nccl-tests %H %cs') >"$bin/nccl-tests.version"
  grep -h "define NCCL_VERSION_CODE\|define NCCL_MAJOR\|define NCCL_MINOR\|define NCCL_PATCH" \
    "$NCCL_HOME/include/nccl.h" >>"$bin/nccl-tests.version" || true
else
  echo "build_yardsticks: $src/nccl-tests missing (clone github:NVIDIA/nccl-tests there)" >&2
fi
strip "$bin"/* 2>/dev/null || true
ls -la "$bin"
