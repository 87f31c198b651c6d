#!/usr/bin/env bash
# Builds everything incrementally: the native core, CLI, tests and benchmarks
# (build/native), the wasm module (build/wasm) and the web app (dist/).
# VILAB_SKIP_NATIVE=1 skips the native build, VILAB_SKIP_WEB=1 both web builds,
# VILAB_SKIP_SINGLE=1 the single-file page (dist-single/vilab.html), VILAB_SKIP_FUZZ=1 the
# sanitized tree (build/sanitize: ASan + UBSan tests and the fuzz targets, with clang;
# scripts/test.mjs builds it before its asan and fuzz layers when it is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
# What the build needs (apt packages, node_modules) is installed first, in seconds
# when present, so a missing package never fails the build after the long C++ part.
bash scripts/setup.sh
# Debian's emcc runs its optimizer under the system Node, which needs its modules.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc 2>/dev/null || echo 2)

# The C++ trees at once, sharing one make's job slots (scripts/build.mk).
trees=(wasm)
if [ "${VILAB_SKIP_NATIVE:-0}" != 1 ]; then
  trees=(native wasm)
  [ "${VILAB_SKIP_FUZZ:-0}" = 1 ] || trees=(native sanitize wasm)
fi
make --no-print-directory -j"$jobs" -f scripts/build.mk "${trees[@]}"
node scripts/gen-ids.mjs
node scripts/gen-schema.mjs
node scripts/gen-docs.mjs

if [ "${VILAB_SKIP_WEB:-0}" != 1 ]; then
  npx --no-install vite build --config web/vite.config.js --logLevel warn
  if [ "${VILAB_SKIP_SINGLE:-0}" != 1 ]; then
    npx --no-install vite build --config web/vite.config.js --mode single --logLevel warn
  fi
fi
