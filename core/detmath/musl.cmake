# vilab::dm's libm: musl's own sources, compiled as C into both builds from the
# emscripten package (which ships them), so native and wasm run the same code.
# Included from the top-level CMakeLists.txt after vilab_core; needs C enabled.

# Locate musl: under emcmake from the toolchain's root; natively from the real
# path of emcc (Debian: /usr/bin/emcc -> /usr/share/emscripten/wrapper; emsdk:
# upstream/emscripten/emcc). -DVILAB_MUSL_DIR=... overrides.
set(_vilab_musl_hints)
if(EMSCRIPTEN)
  list(APPEND _vilab_musl_hints "${EMSCRIPTEN_ROOT_PATH}")
else()
  find_program(VILAB_EMCC emcc)
  if(VILAB_EMCC)
    get_filename_component(_vilab_emcc "${VILAB_EMCC}" REALPATH)
    get_filename_component(_vilab_emcc "${_vilab_emcc}" DIRECTORY)
    list(APPEND _vilab_musl_hints "${_vilab_emcc}")
  endif()
endif()
if(DEFINED ENV{EMSCRIPTEN})
  list(APPEND _vilab_musl_hints "$ENV{EMSCRIPTEN}")
endif()
list(APPEND _vilab_musl_hints /usr/share/emscripten)  # Debian's emscripten package
list(REMOVE_DUPLICATES _vilab_musl_hints)
find_path(VILAB_MUSL_DIR NAMES src/internal/libm.h
  HINTS ${_vilab_musl_hints} PATH_SUFFIXES system/lib/libc/musl
  NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)

# Only what vilab::dm exposes (sin, cos, sincos, tan, atan2, hypot, exp, log) and its closure.
set(VILAB_MUSL_SOURCES
  sin.c cos.c sincos.c tan.c __sin.c __cos.c __tan.c __rem_pio2.c __rem_pio2_large.c scalbn.c
  atan.c atan2.c hypot.c
  exp.c exp_data.c log.c log_data.c __math_oflow.c __math_uflow.c __math_xflow.c
  __math_divzero.c __math_invalid.c)
list(TRANSFORM VILAB_MUSL_SOURCES PREPEND "${VILAB_MUSL_DIR}/src/math/")
set(_vilab_musl_missing)
foreach(_f IN LISTS VILAB_MUSL_SOURCES ITEMS "${VILAB_MUSL_DIR}/arch/generic/fp_arch.h")
  if(NOT EXISTS "${_f}")
    list(APPEND _vilab_musl_missing "${_f}")
  endif()
endforeach()
if(NOT VILAB_MUSL_DIR OR _vilab_musl_missing)
  list(APPEND _vilab_musl_missing "${VILAB_MUSL_DIR}")
  list(GET _vilab_musl_missing 0 _f)
  message(FATAL_ERROR "vilab: musl's libm sources not found (searched "
    "${_vilab_musl_hints}; missing ${_f}). They ship with emscripten (Debian package "
    "'emscripten', or emsdk): put emcc on PATH, or pass "
    "-DVILAB_MUSL_DIR=<emscripten>/system/lib/libc/musl.")
endif()
set(_vilab_musl_version "")
if(EXISTS "${VILAB_MUSL_DIR}/VERSION")
  file(STRINGS "${VILAB_MUSL_DIR}/VERSION" _vilab_musl_version LIMIT_COUNT 1)
endif()
message(STATUS "vilab: musl ${_vilab_musl_version} libm sources from ${VILAB_MUSL_DIR}")

# Same options on both targets: no FMA contraction (GCC's default in GNU C is
# "fast"), strict C99 as emscripten builds musl, no fast-math, and none of our
# warning flags (third-party code). <math.h> and <float.h> come from include/,
# libm.h from musl, fp_arch.h from musl's generic arch.
add_library(vilab_musl OBJECT ${VILAB_MUSL_SOURCES})
set_target_properties(vilab_musl PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_include_directories(vilab_musl BEFORE PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/include
  ${VILAB_MUSL_DIR}/src/internal
  ${VILAB_MUSL_DIR}/arch/generic)
target_compile_options(vilab_musl PRIVATE
  -ffp-contract=off "SHELL:-include \"${CMAKE_CURRENT_LIST_DIR}/rename.h\"")
target_sources(vilab_core PRIVATE $<TARGET_OBJECTS:vilab_musl>)
