#!/usr/bin/env bash
# Builds, incrementally, the sanitized tree build/sanitize with clang: the core with
# ASan + UBSan + libFuzzer coverage, the fuzz targets (tests/fuzz) and the native
# tests' sanitized subset (vilab_asan_tests). Called by scripts/build.sh (unless
# VILAB_SKIP_FUZZ=1), by scripts/test.mjs before its asan and fuzz layers (seconds when
# up to date) and by `npm run fuzz`.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# Unity batches of 8, not the native build's 16: with clang the larger batches save little
# CPU (12.9 against 13.4 min) and end on one long batch (8.6 against 7.3 min on 2 cores).
[ -f build/sanitize/CMakeCache.txt ] ||
  CC=clang-14 CXX=clang++-14 cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Debug -DVILAB_TESTS=OFF -DVILAB_FUZZ=ON \
    -DVILAB_UNITY_BATCH=8 >/dev/null
cmake --build build/sanitize -j"$jobs" --target fuzz_scenario fuzz_expression fuzz_simulation fuzz_mjcf vilab_asan_tests
