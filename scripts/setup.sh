#!/usr/bin/env bash
# Idempotent set-up for vilab on Debian: installs whatever is missing, then returns.
# Called by `npm start`, `npm test` and `npm run bench`; a no-op in seconds when all is present.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang-14 with its sanitizer and libFuzzer runtimes (libclang-rt-14-dev) and llvm-14's
# symbolizer build the sanitized tree (scripts/build-sanitized.sh); Boost (odeint) is for
# the benchmark against it only. clang-format-14 checks the C++ style (the lint layer of npm test).
# xmllint (libxml2-utils) and unzip check the SCORM package (tests/e2e/scorm.test.mjs).
# binaryen's wasm-split cuts the lean module in two (scripts/split-lean.mjs).
apt_packages=(emscripten binaryen libeigen3-dev catch2 nlohmann-json3-dev tao-pegtl-dev chromium cmake g++ make
  clang-14 libclang-rt-14-dev llvm-14 libboost-dev clang-format-14 libxml2-utils unzip)
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "vilab setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm packages from the committed lock file; reinstall only when the lock changed.
stamp=node_modules/.vilab-lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "vilab setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi
