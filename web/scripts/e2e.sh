#!/usr/bin/env bash
# The web lab's end-to-end tests: npm ci (only if node_modules is missing or stale), build, run
# e2e/run.mjs in Debian's chromium. Installs nothing else.
#   MEMLAB_BIN=build-ci/memlab web/scripts/e2e.sh     # against the real memlab serve / report
#   MEMLAB_WASM_DIR=build-ci/wasm                      # models for the mock server (no MEMLAB_BIN)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -x /usr/bin/chromium && -z "${CHROMIUM:-}" ]]; then
  echo "e2e: /usr/bin/chromium is missing (Debian package chromium; scripts/setup.sh installs it)" >&2
  exit 2
fi
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
if [[ -n "${MEMLAB_BIN:-}" ]]; then
  MEMLAB_BIN="$(realpath "$MEMLAB_BIN")"
  export MEMLAB_BIN
else
  npm run build --silent
fi
exec node e2e/run.mjs
