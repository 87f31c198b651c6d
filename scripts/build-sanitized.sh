#!/usr/bin/env bash
# Builds, incrementally, the sanitized tree build/sanitize with clang: the core with
# ASan + UBSan + libFuzzer coverage, the fuzz targets (tests/fuzz) and the native tests'
# sanitized subset (vilab_asan_tests), through scripts/build.mk (which scripts/build.sh runs
# for the three trees at once, unless VILAB_SKIP_FUZZ=1). Called by scripts/test.mjs before
# its asan and fuzz layers (seconds when up to date) and by `npm run fuzz`.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
make --no-print-directory -j"$jobs" -f scripts/build.mk sanitize
