# The three C++ trees, each configured once (when its CMakeCache.txt is missing) and then
# built incrementally: `make -j N -f scripts/build.mk native sanitize wasm` (scripts/build.sh,
# scripts/build-sanitized.sh). Run together under one make they share its N job slots (the
# trees' own makes join its jobserver: `cmake --build` without -j, recipes marked +), so
# when one tree narrows to its last long unit, the others' units fill the free core.
# Measured on 2 cores, one tree after another: the machine 21–28 % idle for 4–6 minutes of
# the build's 26 (the native core's last batch alone, then the sanitized tests' last batch).
# Debian's emcc runs its optimizer under the system Node: the caller exports NODE_PATH.
.PHONY: native sanitize wasm

build/native/CMakeCache.txt:
	cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null

native: build/native/CMakeCache.txt
	+cmake --build build/native

# ASan + UBSan + libFuzzer coverage with clang: the fuzz targets (tests/fuzz) and the native
# tests' sanitized subset. Unity batches of 8, not the native build's 16: with clang the
# larger batches save little CPU (12.9 against 13.4 min) and end on one long batch (8.6
# against 7.3 min on 2 cores).
build/sanitize/CMakeCache.txt:
	CC=clang-14 CXX=clang++-14 cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Debug -DVILAB_TESTS=OFF \
	  -DVILAB_FUZZ=ON -DVILAB_UNITY_BATCH=8 >/dev/null

sanitize: build/sanitize/CMakeCache.txt
	+cmake --build build/sanitize --target fuzz_scenario fuzz_expression fuzz_simulation fuzz_mjcf vilab_asan_tests

build/wasm/CMakeCache.txt:
	emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null

wasm: build/wasm/CMakeCache.txt
	+cmake --build build/wasm
