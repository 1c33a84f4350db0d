#!/usr/bin/env bash
# Layout rules of DEVELOPERS.md ("Layout", "The include rule"), checked by CI (.ci/run):
#  1. a lesson (src/experiments/<lesson>/) includes only memlab/..., common/... and its own folder;
#     src/experiments/common/ includes no lesson;
#  2. no file includes a path through ../../src (tests and tools use the include path);
#  3. no hand-written source file is longer than 600 lines (generated files: none so far; list any
#     exemption below with its reason).
# Prints one line per violation (file:line: rule) and exits 1 if there is any. Needs git and grep.
set -euo pipefail
cd "$(dirname "$0")/.."

max_lines=600
# path -> why it may be longer (remove the entry when the reason is gone).
declare -A long_ok=(
)

files() {  # tracked and new (not ignored) files matching the patterns
  git ls-files --cached --others --exclude-standard -- "$@" | sort -u |
    while IFS= read -r f; do [[ -f "$f" ]] && printf '%s\n' "$f"; done
}

fail=0
report() {
  printf '%s\n' "$1"
  fail=1
}

# 1. Lesson includes (quoted ones; <...> are system libraries: CUDA, fmt, cub).
while IFS= read -r f; do
  own=$(cut -d/ -f3 <<<"$f")
  while IFS=: read -r line inc; do
    [[ -z "$line" ]] && continue
    first=${inc%%/*}
    if [[ "$inc" == *..* ]]; then
      report "$f:$line: includes \"$inc\": lessons include through the include path, never ../"
    elif [[ "$inc" == */* && "$first" != memlab && "$first" != common && "$first" != "$own" ]]; then
      report "$f:$line: includes \"$inc\": a lesson includes only memlab/, common/ and its own folder"
    fi
  done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
    sed -E 's/^([0-9]+):[^"]*"([^"]+)".*/\1:\2/' || true)
done < <(files 'src/experiments/*.cpp' 'src/experiments/*.hpp' 'src/experiments/*.cu' \
  'src/experiments/*.cuh' 'src/experiments/*.h')

# 2. No include through ../../src (or any ../src).
sources=(':(glob)**/*.cpp' ':(glob)**/*.hpp' ':(glob)**/*.cu' ':(glob)**/*.cuh' ':(glob)**/*.h'
  ':(glob)**/*.cc')
while IFS= read -r f; do
  while IFS= read -r hit; do
    report "$f:${hit%%:*}: includes through ../src: use the include path"
  done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<](\.\./)+src/' "$f" || true)
done < <(files "${sources[@]}")

# 3. File length of hand-written sources.
while IFS= read -r f; do
  n=$(wc -l <"$f")
  if ((n > max_lines)) && [[ -z "${long_ok[$f]:-}" ]]; then
    report "$f:$n: $n lines, more than $max_lines: split it by what the parts do"
  fi
done < <(files "${sources[@]}" ':(glob)**/*.ts' ':(glob)**/*.tsx' ':(glob)**/*.js' \
  ':(glob)**/*.mjs' ':(glob)**/*.py' ':(glob)**/*.sh' ':(glob)**/CMakeLists.txt' \
  ':(glob)**/*.cmake' | grep -vE '(^|/)(node_modules|third_party)/')

if ((fail)); then
  echo "check_layout: FAILED (rules: DEVELOPERS.md, \"The include rule\")" >&2
  exit 1
fi
echo "check_layout: ok"
