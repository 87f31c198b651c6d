#!/usr/bin/env bash
# npm run build:site: the site as deployed (.github/workflows/pages.yml runs this): the page
# (dist/), the classroom file beside it (dist/vilab.html, offered by Help's "Download for
# offline use"), the licences (dist/LICENSES.txt) and a .br and .gz beside each asset.
# It reuses the wasm module in build/wasm and never rebuilds it.
#   VILAB_SITE_URL=https://…/vilab/  the hosted page, which the downloaded file's links point at
#   VILAB_SITE_OUT=dir               where to write the site (default dist)
set -euo pipefail
cd "$(dirname "$0")/.."
for f in vilab.mjs vilab.wasm vilab-lean.mjs vilab-lean.wasm vilab-lean.deferred.wasm; do
  if [ ! -f "build/wasm/$f" ]; then
    echo "build:site: build/wasm/$f is missing; build the wasm first: VILAB_SKIP_NATIVE=1 VILAB_SKIP_WEB=1 bash scripts/build.sh" >&2
    exit 1
  fi
done
out=${VILAB_SITE_OUT:-dist}
case $out in /*) ;; *) out=$PWD/$out ;; esac
single=$(mktemp -d)
trap 'rm -rf "$single"' EXIT

node scripts/gen-ids.mjs
VITE_OFFLINE_COPY=1 npx --no-install vite build --config web/vite.config.js --logLevel warn --outDir "$out" --emptyOutDir
VITE_SITE_URL=${VILAB_SITE_URL:-${VITE_SITE_URL:-}} \
  npx --no-install vite build --config web/vite.config.js --mode single --logLevel warn --outDir "$single" --emptyOutDir
cp "$single/vilab.html" "$out/vilab.html"
node scripts/precompress.mjs "$out"
