// vilab/detmath.hpp -- deterministic elementary functions ("dm" = deterministic math).
//
// Why: glibc's libm and emscripten's return different bits for sin, cos, exp,
// atan2, ...  The native and the WebAssembly builds of vilab must produce
// bitwise-identical results, so the core calls these functions instead of
// std::sin etc.
//
// How: they are musl's libm (sin, cos, sincos, tan, atan2, hypot from FreeBSD msun /
// Sun fdlibm; exp and log from ARM optimized-routines), compiled from the musl sources
// that emscripten ships into both builds, with the symbols renamed vilab_musl_*
// (core/detmath/). musl uses only IEEE-754 binary64 +, -, *, /, sqrt (all
// correctly rounded) and integer bit manipulation, so it yields the same bits on
// every conforming target, given (on both builds):
//   * -ffp-contract=off (no fused multiply-add contraction; GCC's default in GNU
//     mode is "fast", which changes results on FMA-capable targets);
//   * no -ffast-math / -funsafe-math-optimizations (checked below);
//   * no x87 excess precision (checked below);
//   * the default rounding mode (round to nearest), never changed by vilab.
//
// NaN results are canonicalised to the quiet NaN 0x7ff8000000000000, because NaN
// sign/payload propagation differs between x86 and WebAssembly. Floating-point
// exception flags are not part of the contract.
//
// Accuracy (musl/fdlibm/ARM figures, confirmed against glibc in
// tests/native/test_detmath.cpp): < 1 ulp; exp ~0.52 ulp.
#pragma once

#include <cmath>  // std::sqrt, std::floor, std::fabs only (exact IEEE operations)
#include <cstdint>
#include <cstring>

#if defined(__FAST_MATH__)
#error "vilab/detmath.hpp: -ffast-math breaks bitwise determinism"
#endif
#if defined(__i386__) && !defined(__SSE2_MATH__)
#error "vilab/detmath.hpp: x87 excess precision breaks bitwise determinism (use -msse2 -mfpmath=sse)"
#endif

namespace vilab {
namespace dm {

/// pi rounded to double (0x400921FB54442D18).
constexpr double pi = 0x1.921fb54442d18p+1;

namespace detail {

// musl's functions under their renamed symbols (core/detmath/rename.h).
extern "C" {
double vilab_musl_sin(double) noexcept;
double vilab_musl_cos(double) noexcept;
void vilab_musl_sincos(double, double*, double*) noexcept;
double vilab_musl_atan2(double, double) noexcept;
double vilab_musl_hypot(double, double) noexcept;
double vilab_musl_exp(double) noexcept;
double vilab_musl_tan(double) noexcept;
double vilab_musl_log(double) noexcept;
}

/// Replace any NaN by the canonical quiet NaN (sign 0, payload 0).
inline double canon(double r) {
  std::uint64_t u;
  std::memcpy(&u, &r, sizeof u);
  if ((u & 0x7fffffffffffffffULL) <= 0x7ff0000000000000ULL) return r;
  u = 0x7ff8000000000000ULL;
  std::memcpy(&r, &u, sizeof r);
  return r;
}

}  // namespace detail

// All functions: binary64 in, binary64 out, identical bits on every
// IEEE-754 target (see above); NaN results are canonical.

inline double sqrt(double x) noexcept { return detail::canon(std::sqrt(x)); }    // IEEE correctly rounded
inline double fabs(double x) noexcept { return detail::canon(std::fabs(x)); }    // exact
inline double floor(double x) noexcept { return detail::canon(std::floor(x)); }  // exact

inline double sin(double x) noexcept { return detail::canon(detail::vilab_musl_sin(x)); }
inline double cos(double x) noexcept { return detail::canon(detail::vilab_musl_cos(x)); }
/// s = sin(x), c = cos(x); bitwise equal to dm::sin(x), dm::cos(x).
inline void sincos(double x, double& s, double& c) noexcept {
  double ss, cc;
  detail::vilab_musl_sincos(x, &ss, &cc);
  s = detail::canon(ss);
  c = detail::canon(cc);
}
inline double atan2(double y, double x) noexcept { return detail::canon(detail::vilab_musl_atan2(y, x)); }
inline double exp(double x) noexcept { return detail::canon(detail::vilab_musl_exp(x)); }
inline double tan(double x) noexcept { return detail::canon(detail::vilab_musl_tan(x)); }
inline double log(double x) noexcept { return detail::canon(detail::vilab_musl_log(x)); }
/// sqrt(x^2 + y^2) without undue overflow/underflow (< 1 ulp);
/// hypot(+-inf, NaN) = +inf as in C99.
inline double hypot(double x, double y) noexcept { return detail::canon(detail::vilab_musl_hypot(x, y)); }

}  // namespace dm
}  // namespace vilab
