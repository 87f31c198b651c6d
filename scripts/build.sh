#!/usr/bin/env bash
# Builds everything incrementally: the native core, CLI, tests and benchmarks
# (build/native), the wasm module (build/wasm) and the web app (dist/).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's emcc runs its optimizer under the system Node, which needs its modules.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc 2>/dev/null || echo 2)

if [ "${VILAB_SKIP_NATIVE:-0}" != 1 ]; then
  [ -f build/native/CMakeCache.txt ] || cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j"$jobs"
fi

[ -f build/wasm/CMakeCache.txt ] || emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm -j"$jobs"

npx --no-install vite build --config web/vite.config.js --logLevel warn
