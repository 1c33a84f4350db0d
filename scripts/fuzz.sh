#!/usr/bin/env bash
# libFuzzer over memlab's parsers (clang 14 from Debian; -fsanitize=fuzzer,address,undefined):
#   params   axis and size parsing (src/bench/params.cpp)
#   compare  the run-JSON loader of `memlab compare` and --threshold (src/report/compare.cpp)
#   model    every model's parameters through memlab::model::run (when include/memlab/model/api.hpp
#            exists, branch arch-model)
# Each target runs SECONDS (default 200: 10 minutes for three) from the committed corpus
# tests/fuzz/corpus/<target>/; new inputs go to build-fuzz/corpus-<target>/. A crash leaves
# build-fuzz/crash-* and makes the script exit 1. `--merge` folds the new inputs into the committed
# corpus (minimised).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...] [--merge]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --fuzz
seconds=200
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
fi

CXX="${CXX_FUZZ:-clang++-14}"
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -fno-omit-frame-pointer -DFMT_HEADER_ONLY=1 -Iinclude -Wall -Wextra -Werror)
mkdir -p build-fuzz
sources_params=(src/bench/params.cpp)
sources_compare=(src/report/compare.cpp src/report/significance.cpp src/bench/params.cpp)
mapfile -t sources_model < <(ls src/model/*.cpp 2>/dev/null)

status=0
for t in "${targets[@]}"; do
  src_var="sources_${t}[@]"
  bin="build-fuzz/fuzz_$t"
  echo "fuzz: building $t" >&2
  "$CXX" "${flags[@]}" "tests/fuzz/fuzz_$t.cpp" "${!src_var}" -o "$bin"
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
