#!/usr/bin/env bash
# libFuzzer over memlab's parsers (clang 14 from Debian; -fsanitize=fuzzer,address,undefined):
#   params   axis and size parsing (src/bench/params.cpp)
#   compare  the run-JSON loader of `memlab compare` and --threshold (src/report/compare.cpp)
#   model    every model's parameters through memlab::model::run (when include/memlab/model/api.hpp
#            exists, branch arch-model)
#   server   memlab serve's request handling (src/server: guards, token, every /api route's query
#            and body) over a loopback socket; GPU, runs and the exercise worker stubbed
#            (tests/fuzz/fuzz_server_stubs.cpp); needs libcpp-httplib-dev and the CUDA headers
# Each target runs SECONDS (default 150: 10 minutes for four) from the committed corpus
# tests/fuzz/corpus/<target>/; new inputs go to build-fuzz/corpus-<target>/. A crash leaves
# build-fuzz/crash-* and makes the script exit 1. `--merge` folds the new inputs into the committed
# corpus (minimised).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...] [--merge]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --fuzz
seconds=150
merge=0
targets=()
for arg in "$@"; do
  case "$arg" in
    --merge) merge=1 ;;
    [0-9]*) seconds="$arg" ;;
    *) targets+=("$arg") ;;
  esac
done
if ((${#targets[@]} == 0)); then
  targets=(params compare)
  [ -f include/memlab/model/api.hpp ] && targets+=(model)
  [ -f tests/fuzz/fuzz_server.cpp ] && targets+=(server)
fi

CXX="${CXX_FUZZ:-clang++-14}"
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -fno-omit-frame-pointer -DFMT_HEADER_ONLY=1 -Iinclude -Wall -Wextra -Werror)
mkdir -p build-fuzz
sources_params=(src/bench/params.cpp)
sources_compare=(src/report/compare.cpp src/report/significance.cpp src/bench/params.cpp)
mapfile -t sources_model < <(ls src/model/*.cpp 2>/dev/null)
cuda_include="${CUDA_HOME:-/usr/local/cuda}/include"
sources_server=(tests/fuzz/fuzz_server_stubs.cpp src/server/api.cpp src/server/server.cpp
                src/server/security.cpp src/server/runs.cpp src/server/jobs.cpp
                src/server/check_routes.cpp src/server/class_routes.cpp
                src/server/class_store.cpp src/server/class_overview.cpp src/server/roles.cpp
                src/server/sqlite.cpp src/server/catalogue.cpp src/report/lessons.cpp src/report/headline.cpp
                src/claims/pages.cpp src/claims/records.cpp src/claims/table.cpp
                src/claims/table_streams.cpp
                src/server/model_backend.cpp src/server/results.cpp src/server/embedded.cpp
                src/bench/params.cpp src/bench/plan.cpp src/bench/plan_describe.cpp
                src/bench/registry.cpp src/bench/stats.cpp src/bench/clocks.cpp
                src/bench/counters.cpp src/report/json.cpp src/cuda/device_info.cpp
                "${sources_model[@]}")
# The server's sources see CUDA's runtime header through experiment.hpp (types only: nothing is
# called) and its own folder; the version header is written here (no CMake build needed).
flags_server=(-Isrc/server -Isrc -I"$cuda_include" -Ibuild-fuzz/generated -Wno-unused-parameter)
libs_server=(-lcpp-httplib -lsqlite3 -lcrypto -lpthread)

status=0
for t in "${targets[@]}"; do
  src_var="sources_${t}[@]"
  bin="build-fuzz/fuzz_$t"
  echo "fuzz: building $t" >&2
  extra=()
  libs=()
  if [ "$t" = server ]; then
    extra=("${flags_server[@]}")
    libs=("${libs_server[@]}")
    mkdir -p build-fuzz/generated/memlab
    cmake -DSOURCE_DIR="$PWD" -DOUTPUT=build-fuzz/generated/memlab/version.hpp \
          -DPROJECT_VERSION=0.1.0 -P cmake/write_version.cmake
  fi
  # One object per source (build-fuzz/obj-TARGET/), two compilers at a time, each rebuilt only
  # when its source or a header is newer (after a change of the flags here: rm -r build-fuzz).
  objdir="build-fuzz/obj-$t"
  mkdir -p "$objdir"
  objs=()
  todo=()
  for src in "tests/fuzz/fuzz_$t.cpp" "${!src_var}"; do
    obj="$objdir/$(echo "$src" | tr '/' '_').o"
    objs+=("$obj")
    if [ ! -f "$obj" ] || [ -n "$(find "$src" include src/server -newer "$obj" -type f 2>/dev/null | head -1)" ]; then
      todo+=("$src")
    fi
  done
  for src in ${todo[@]+"${todo[@]}"}; do
    "$CXX" "${flags[@]}" ${extra[@]+"${extra[@]}"} -c "$src" \
        -o "$objdir/$(echo "$src" | tr '/' '_').o" &
    while (($(jobs -rp | wc -l) >= 2)); do sleep 0.5; done
  done
  wait
  for obj in "${objs[@]}"; do
    [ -f "$obj" ] || { echo "fuzz: $t: $obj did not compile" >&2; exit 1; }
  done
  if [ ! -x "$bin" ] || [ ${#todo[@]} -gt 0 ]; then
    "$CXX" "${flags[@]}" "${objs[@]}" ${libs[@]+"${libs[@]}"} -o "$bin"
  fi
  mkdir -p "build-fuzz/corpus-$t" "tests/fuzz/corpus/$t"
  echo "fuzz: running $t for ${seconds}s" >&2
  if ! (cd build-fuzz && "./fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
          -max_len=65536 -print_final_stats=1 "corpus-$t" "../tests/fuzz/corpus/$t" \
          >"fuzz_$t.log" 2>&1); then
    echo "fuzz: $t FAILED (build-fuzz/fuzz_$t.log, build-fuzz/crash-*)" >&2
    tail -30 "build-fuzz/fuzz_$t.log" >&2
    status=1
    continue
  fi
  grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "build-fuzz/fuzz_$t.log" | tail -2 >&2
  if ((merge)); then
    (cd build-fuzz && "./fuzz_$t" -merge=1 -max_len=65536 "../tests/fuzz/corpus/$t" "corpus-$t" \
        >"merge_$t.log" 2>&1)
    echo "fuzz: corpus $t: $(ls "tests/fuzz/corpus/$t" | wc -l) files" >&2
  fi
done
exit $status
