// Elliptic integrals and Jacobi elliptic functions, header-only, for the exact
// reference solutions (pendulum, free rigid body).
//
// Conventions (DLMF ch. 19 and 22, parameter m = k^2, complementary mc = 1 - m):
//   K(m)       = int_0^{pi/2} dθ / sqrt(1 - m sin^2 θ)                      (AGM)
//   F(φ|m)     = int_0^φ dθ / sqrt(1 - m sin^2 θ)                           (Carlson R_F)
//   Π(n;φ|m)   = int_0^φ dθ / ((1 - n sin^2 θ) sqrt(1 - m sin^2 θ)), n < 1  (Carlson R_F, R_J)
//   am(u|m)    = F^{-1}(u|m),  sn = sin am,  cn = cos am,  dn = sqrt(1 - m sn^2)
//
// Domain: 0 <= m <= 1. Every function also has an overload taking mc = 1 - m
// explicitly; pass it when mc is known more accurately than 1 - m (m close to 1:
// e.g. mc = 1e-20 cannot be represented through m). Out-of-range input throws
// std::domain_error.
//   m = 0 : sn = sin, cn = cos, dn = 1, K = π/2, F(φ|0) = φ (handled by the
//           general code, exactly).
//   m -> 1: K ~ ln(4/sqrt(mc)) grows; everything stays accurate in absolute terms
//           (the descending Landen recursion only ever uses sqrt(mc) and m, never 1 - m).
//   m = 1 (mc = 0): K = +inf; sn = tanh, cn = dn = sech, am = gd (Gudermannian),
//           F(φ|1) = artanh(sin φ) for |φ| < π/2 (±inf beyond).
//
// Algorithms:
//   * K: arithmetic-geometric mean, K = π / (2 AGM(1, sqrt(mc))).
//   * Carlson symmetric integrals R_F, R_J, R_C by the duplication theorem with the
//     7th/5th-order series of Carlson (1995), Numer. Algorithms 10, 13-26
//     (= DLMF 19.36.1-2), tolerance set for ~1e-17 relative truncation error.
//     F(φ|m) = s R_F(c^2, 1 - m s^2, 1) + 2jK   with φ = jπ + φr, |φr| <= π/2 (DLMF 19.25.5)
//     Π(n;φ|m) = s R_F(c^2, Δ^2, 1) + (n/3) s^3 R_J(c^2, Δ^2, 1, 1 - n s^2) + 2jΠ(n|m)
//     (DLMF 19.25.14), s = sin φr, c = cos φr, Δ^2 = mc + m c^2.
//   * sn, cn, dn: argument reduction u = 2jK + r, |r| <= K (sn, cn change sign per
//     half period 2K, dn does not), then the descending Landen (Gauss) transformation
//     (DLMF 22.7.1-3): with k1 = (1 - k')/(1 + k') = m/(1 + k')^2, k1' = 2 sqrt(k')/(1 + k'),
//     w = z/(1 + k1) and s, c, d = sn, cn, dn(w | k1^2), D = 1 + k1 s^2:
//        sn(z|m) = (1 + k1) s / D,  cn(z|m) = c d / D,  dn(z|m) = (1 - k1 s^2) / D,
//     descending until k_N^2 <= 1e-10, where the first-order expansion in k_N^2
//     (DLMF 22.10.4-6) is accurate to O(k_N^4) ~ 1e-20.
//
// All elementary functions go through vilab::dm (bit-identical native / wasm);
// only +, -, *, /, std::sqrt, std::abs and std::floor are used besides.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "vilab/detmath.hpp"

namespace vilab::exact {

struct SnCnDn {
  double sn, cn, dn;
};

namespace detail {

inline double max4(double a, double b, double c, double d) {
  double r = a;
  if (b > r) r = b;
  if (c > r) r = c;
  if (d > r) r = d;
  return r;
}

inline void check_parameter(double m, double mc, const char* who) {
  if (!(m >= 0.0 && m <= 1.0 && mc >= 0.0 && mc <= 1.0)) {
    throw std::domain_error(std::string(who) + ": parameter m must lie in [0, 1] (and mc = 1 - m)");
  }
}

// u = 2 j K + r with |r| <= K (up to rounding); j is an integer held in a double.
// K = +inf (m = 1): j = 0, r = u.
struct HalfPeriodReduction {
  double j;
  double r;
};

inline HalfPeriodReduction reduce_half_period(double u, double K) {
  if (!(K < std::numeric_limits<double>::infinity())) return {0.0, u};
  const double twoK = 2.0 * K;
  const double j = std::floor(u / twoK + 0.5);
  return {j, u - j * twoK};
}

inline bool is_odd(double j) { return j - 2.0 * std::floor(0.5 * j) != 0.0; }

// sn, cn, dn at m = 1: tanh, sech, sech.
inline SnCnDn jacobi_m1(double u) {
  const double a = std::abs(u);
  const double e1 = dm::exp(-a);
  const double e2 = e1 * e1;
  const double th = (1.0 - e2) / (1.0 + e2);
  const double sech = 2.0 * e1 / (1.0 + e2);
  return {u < 0.0 ? -th : th, sech, sech};
}

// Descending Landen transformation for 0 <= z (intended z in [0, K]), 0 <= m < 1.
inline SnCnDn jacobi_landen(double z, double m, double mc) {
  constexpr int kMaxLevels = 64;
  double k1s[kMaxLevels];
  int levels = 0;
  double mm = m;
  double kc = std::sqrt(mc);
  while (mm > 1e-10 && levels < kMaxLevels) {
    const double onepkc = 1.0 + kc;
    const double k1 = mm / (onepkc * onepkc);  // = (1 - k')/(1 + k') without cancellation
    const double kc1 = 2.0 * std::sqrt(kc) / onepkc;
    k1s[levels++] = k1;
    z = z / (1.0 + k1);
    mm = k1 * k1;
    kc = kc1;
  }
  double s, c;
  dm::sincos(z, s, c);
  const double t = 0.25 * mm * (z - s * c);
  double sn = s - t * c;
  double cn = c + t * s;
  double dn = 1.0 - 0.5 * mm * s * s;
  for (int i = levels - 1; i >= 0; --i) {
    const double k1 = k1s[i];
    const double ks2 = k1 * sn * sn;
    const double den = 1.0 + ks2;
    const double sn_new = (1.0 + k1) * sn / den;
    const double cn_new = cn * dn / den;
    const double dn_new = (1.0 - ks2) / den;
    sn = sn_new;
    cn = cn_new;
    dn = dn_new;
  }
  return {sn, cn, dn};
}

// sn, cn, dn for |r| <= K (no reduction), 0 <= m <= 1.
inline SnCnDn jacobi_reduced(double r, double m, double mc) {
  if (mc == 0.0) return jacobi_m1(r);
  SnCnDn v = jacobi_landen(std::abs(r), m, mc);
  if (r < 0.0) v.sn = -v.sn;
  return v;
}

}  // namespace detail

// ---------------------------------------------------------------------------
// Carlson symmetric elliptic integrals (duplication algorithm, Carlson 1995).

// R_C(x, y) = 1/2 int_0^inf (t + x)^{-1/2} (t + y)^{-1} dt, x >= 0, y > 0.
inline double carlson_rc(double x, double y) {
  if (!(x >= 0.0 && y > 0.0)) throw std::domain_error("carlson_rc: need x >= 0, y > 0");
  const double A0 = (x + 2.0 * y) / 3.0;
  const double Q = 120.0 * std::abs(A0 - x);  // (3 r)^{-1/8} |A0 - x|, r ~ 1e-17
  double A = A0, xm = x, ym = y, f = 1.0;     // f = 4^{-m}
  for (int it = 0; it < 100 && f * Q >= std::abs(A); ++it) {
    const double lam = 2.0 * std::sqrt(xm) * std::sqrt(ym) + ym;
    A = 0.25 * (A + lam);
    xm = 0.25 * (xm + lam);
    ym = 0.25 * (ym + lam);
    f *= 0.25;
  }
  const double s = (y - A0) * f / A;
  const double s2 = s * s;
  const double series =
      1.0 +
      s2 * (3.0 / 10.0 + s * (1.0 / 7.0 + s * (3.0 / 8.0 + s * (9.0 / 22.0 + s * (159.0 / 208.0 + s * (9.0 / 8.0))))));
  return series / std::sqrt(A);
}

// R_F(x, y, z) = 1/2 int_0^inf [(t + x)(t + y)(t + z)]^{-1/2} dt, x, y, z >= 0,
// at most one of them zero.
inline double carlson_rf(double x, double y, double z) {
  if (!(x >= 0.0 && y >= 0.0 && z >= 0.0) || (x == 0.0 && y == 0.0) || (x == 0.0 && z == 0.0) ||
      (y == 0.0 && z == 0.0)) {
    if (x >= 0.0 && y >= 0.0 && z >= 0.0) return std::numeric_limits<double>::infinity();
    throw std::domain_error("carlson_rf: arguments must be >= 0");
  }
  const double A0 = (x + y + z) / 3.0;
  const double Q = 600.0 * detail::max4(std::abs(A0 - x), std::abs(A0 - y), std::abs(A0 - z), 0.0);
  double A = A0, xm = x, ym = y, zm = z, f = 1.0;
  for (int it = 0; it < 100 && f * Q >= std::abs(A); ++it) {
    const double sx = std::sqrt(xm), sy = std::sqrt(ym), sz = std::sqrt(zm);
    const double lam = sx * sy + sx * sz + sy * sz;
    A = 0.25 * (A + lam);
    xm = 0.25 * (xm + lam);
    ym = 0.25 * (ym + lam);
    zm = 0.25 * (zm + lam);
    f *= 0.25;
  }
  const double X = (A0 - x) * f / A;
  const double Y = (A0 - y) * f / A;
  const double Z = -(X + Y);
  const double E2 = X * Y - Z * Z;
  const double E3 = X * Y * Z;
  // DLMF 19.36.1
  const double series = 1.0 - E2 / 10.0 + E3 / 14.0 + E2 * E2 / 24.0 - 3.0 * E2 * E3 / 44.0 -
                        5.0 * E2 * E2 * E2 / 208.0 + 3.0 * E3 * E3 / 104.0 + E2 * E2 * E3 / 16.0;
  return series / std::sqrt(A);
}

// R_J(x, y, z, p) = 3/2 int_0^inf [(t + x)(t + y)(t + z)]^{-1/2} (t + p)^{-1} dt,
// x, y, z >= 0 with at most one zero, p > 0.
inline double carlson_rj(double x, double y, double z, double p) {
  if (!(x >= 0.0 && y >= 0.0 && z >= 0.0 && p > 0.0)) {
    throw std::domain_error("carlson_rj: need x, y, z >= 0 and p > 0");
  }
  if ((x == 0.0 && y == 0.0) || (x == 0.0 && z == 0.0) || (y == 0.0 && z == 0.0)) {
    return std::numeric_limits<double>::infinity();
  }
  const double A0 = (x + y + z + 2.0 * p) / 5.0;
  const double delta = (p - x) * (p - y) * (p - z);
  const double Q = 900.0 * detail::max4(std::abs(A0 - x), std::abs(A0 - y), std::abs(A0 - z), std::abs(A0 - p));
  double A = A0, xm = x, ym = y, zm = z, pm = p;
  double f = 1.0;   // 4^{-m}
  double f3 = 1.0;  // 4^{-3m}
  double sum = 0.0;
  for (int it = 0; it < 100 && f * Q >= std::abs(A); ++it) {
    const double sx = std::sqrt(xm), sy = std::sqrt(ym), sz = std::sqrt(zm), sp = std::sqrt(pm);
    const double lam = sx * sy + sx * sz + sy * sz;
    const double d = (sp + sx) * (sp + sy) * (sp + sz);
    const double e = f3 * delta / (d * d);
    sum += f * carlson_rc(1.0, 1.0 + e) / d;
    A = 0.25 * (A + lam);
    xm = 0.25 * (xm + lam);
    ym = 0.25 * (ym + lam);
    zm = 0.25 * (zm + lam);
    pm = 0.25 * (pm + lam);
    f *= 0.25;
    f3 *= 1.0 / 64.0;
  }
  const double X = (A0 - x) * f / A;
  const double Y = (A0 - y) * f / A;
  const double Z = (A0 - z) * f / A;
  const double P = -0.5 * (X + Y + Z);
  const double P2 = P * P;
  const double XYZ = X * Y * Z;
  const double E2 = X * Y + X * Z + Y * Z - 3.0 * P2;
  const double E3 = XYZ + 2.0 * E2 * P + 4.0 * P2 * P;
  const double E4 = (2.0 * XYZ + E2 * P + 3.0 * P2 * P) * P;
  const double E5 = XYZ * P2;
  // DLMF 19.36.2
  const double series = 1.0 - 3.0 * E2 / 14.0 + E3 / 6.0 + 9.0 * E2 * E2 / 88.0 - 3.0 * E4 / 22.0 -
                        9.0 * E2 * E3 / 52.0 + 3.0 * E5 / 26.0;
  return f * series / (A * std::sqrt(A)) + 6.0 * sum;
}

namespace detail {

// Π(n; φ|m) for an amplitude |φ| <= π/2 given through s = sin φ, c = cos φ and
// Δ^2 = 1 - m s^2 (pass dn^2, or mc + m c^2).
inline double pi3_from_sc(double n, double s, double c, double delta2) {
  const double c2 = c * c;
  double r = s * carlson_rf(c2, delta2, 1.0);
  if (n != 0.0) r += (n / 3.0) * s * s * s * carlson_rj(c2, delta2, 1.0, 1.0 - n * s * s);
  return r;
}

}  // namespace detail

// ---------------------------------------------------------------------------
// Legendre forms.

// K(m) by the AGM. K(1) = +inf.
inline double ellip_k(double m, double mc) {
  detail::check_parameter(m, mc, "ellip_k");
  if (mc == 0.0) return std::numeric_limits<double>::infinity();
  double a = 1.0, b = std::sqrt(mc);
  for (int it = 0; it < 64 && std::abs(a - b) > 1e-15 * a; ++it) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return dm::pi / (a + b);
}
inline double ellip_k(double m) { return ellip_k(m, 1.0 - m); }

// F(φ|m), any real φ (quasi-periodic continuation F(φ + jπ) = F(φ) + 2jK).
inline double ellip_f(double phi, double m, double mc) {
  detail::check_parameter(m, mc, "ellip_f");
  const double j = std::floor(phi / dm::pi + 0.5);
  const double phr = phi - j * dm::pi;
  double s, c;
  dm::sincos(phr, s, c);
  double r = s * carlson_rf(c * c, mc + m * c * c, 1.0);
  if (j != 0.0) r += 2.0 * j * ellip_k(m, mc);
  return r;
}
inline double ellip_f(double phi, double m) { return ellip_f(phi, m, 1.0 - m); }

// Complete Π(n|m) = Π(n; π/2|m), n < 1.
inline double ellip_pi_complete(double n, double m, double mc) {
  detail::check_parameter(m, mc, "ellip_pi_complete");
  if (!(n < 1.0)) throw std::domain_error("ellip_pi_complete: characteristic n must be < 1");
  if (mc == 0.0) return std::numeric_limits<double>::infinity();
  double r = carlson_rf(0.0, mc, 1.0);
  if (n != 0.0) r += (n / 3.0) * carlson_rj(0.0, mc, 1.0, 1.0 - n);
  return r;
}
inline double ellip_pi_complete(double n, double m) { return ellip_pi_complete(n, m, 1.0 - m); }

// Incomplete Π(n; φ|m), n < 1, any real φ (Π(n; φ + jπ) = Π(n; φ) + 2jΠ(n|m)).
inline double ellip_pi(double n, double phi, double m, double mc) {
  detail::check_parameter(m, mc, "ellip_pi");
  if (!(n < 1.0)) throw std::domain_error("ellip_pi: characteristic n must be < 1");
  const double j = std::floor(phi / dm::pi + 0.5);
  const double phr = phi - j * dm::pi;
  double s, c;
  dm::sincos(phr, s, c);
  double r = detail::pi3_from_sc(n, s, c, mc + m * c * c);
  if (j != 0.0) r += 2.0 * j * ellip_pi_complete(n, m, mc);
  return r;
}
inline double ellip_pi(double n, double phi, double m) { return ellip_pi(n, phi, m, 1.0 - m); }

// ---------------------------------------------------------------------------
// Jacobi elliptic functions.

inline SnCnDn jacobi(double u, double m, double mc) {
  detail::check_parameter(m, mc, "jacobi");
  if (mc == 0.0) return detail::jacobi_m1(u);
  const detail::HalfPeriodReduction red = detail::reduce_half_period(u, ellip_k(m, mc));
  SnCnDn v = detail::jacobi_reduced(red.r, m, mc);
  if (detail::is_odd(red.j)) {
    v.sn = -v.sn;
    v.cn = -v.cn;
  }
  return v;
}
inline SnCnDn jacobi(double u, double m) { return jacobi(u, m, 1.0 - m); }

// Jacobi amplitude am(u|m), continuous in u: am(u + 2K) = am(u) + π; am(u|1) = gd(u).
inline double jacobi_am(double u, double m, double mc) {
  detail::check_parameter(m, mc, "jacobi_am");
  const detail::HalfPeriodReduction red = detail::reduce_half_period(u, ellip_k(m, mc));
  const SnCnDn v = detail::jacobi_reduced(red.r, m, mc);  // cn >= 0 here
  return red.j * dm::pi + dm::atan2(v.sn, v.cn);
}
inline double jacobi_am(double u, double m) { return jacobi_am(u, m, 1.0 - m); }

}  // namespace vilab::exact
