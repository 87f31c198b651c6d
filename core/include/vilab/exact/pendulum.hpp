// Exact planar pendulum  θ'' = -w² sin θ,  w² = g/l,  θ(0) = θ0, θ'(0) = ω0.
//
// Write θ0 = 2πj + θr with θr in [-π, π] (the 2πj offset is carried along), and
//   k² = sin²(θr/2) + ω0²/(4w²)      (= (E/(m l² w²) + 1)/2, "modulus"),
//   1 - k² = cos²(θr/2) - ω0²/(4w²)  (computed this way, not as 1 - k²).
//
// Libration (k < 1; includes rest at the bottom, k = 0):
//   sin(θ/2) = k sn(u | k²),  cos(θ/2) = dn(u | k²),  u = w t + u0 = w (t + t0),
//   θ(t) = 2πj + 2 atan2(k sn u, dn u)        (= 2 asin(k sn u), better conditioned),
//   θ'(t) = 2 k w cn(u),
//   u0 = F(φ0 | k²), φ0 = atan2(sin(θr/2), ω0/(2w)), i.e. sn u0 = sin(θr/2)/k and
//   cn u0 = ω0/(2kw): the sign of ω0 is carried by the quadrant of φ0.
//   Period 4K(k²)/w.
//   Check (equations.md): w = 1, θ0 = 0, ω0 = 2k = 1: θ(10) = 0.114252255017604.
//
// Rotation (k > 1), σ = sign ω0, parameter m = 1/k²:
//   θ/2 = am(u | 1/k²),  u = σ k w t + u0,  u0 = F(θr/2 | 1/k²),
//   θ(t) = 2πj + 2 am(u),  θ'(t) = 2σ k w dn(u).  Time per revolution 2K(1/k²)/(k w).
//
// Separatrix (1 - k² == 0 exactly in floating point): the rotation formulas with
// m = 1 (am = Gudermannian, dn = sech), θ → ±π as t → ±∞; period +inf. The unstable
// equilibrium (θr = ±π with ω0 = 0) stays put. Near the separatrix everything stays
// valid but the problem itself is ill-conditioned (sensitivity ~ 1/sqrt|1 - k²|).
//
// Requires g/l > 0 (std::domain_error otherwise). Elementary functions via vilab::dm.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>

#include "vilab/detmath.hpp"
#include "vilab/exact/elliptic.hpp"

namespace vilab::exact {

enum class PendulumRegime { libration, separatrix, rotation };

class Pendulum {
 public:
  // Angle θ from the downward vertical, angular rate ω = θ'.
  Pendulum(double g, double l, double theta0, double omega0) : theta0_(theta0), omega0_(omega0) {
    if (!(g / l > 0.0) || !(g / l < std::numeric_limits<double>::infinity())) {
      throw std::domain_error("Pendulum: need g/l > 0 and finite");
    }
    w_ = std::sqrt(g / l);
    const double twopi = 2.0 * dm::pi;
    const double j = std::floor(theta0 / twopi + 0.5);
    offset_ = j * twopi;
    const double thr = theta0 - offset_;
    double s0, c0;
    dm::sincos(0.5 * thr, s0, c0);
    const double v = omega0 / (2.0 * w_);
    const double k2 = s0 * s0 + v * v;
    const double kc2 = c0 * c0 - v * v;  // 1 - k²
    k_ = std::sqrt(k2);
    if (kc2 > 0.0) {
      regime_ = PendulumRegime::libration;
      m_ = k2;
      mc_ = kc2;
      sigma_ = 1.0;
      u0_ = ellip_f(dm::atan2(s0, v), m_, mc_);
    } else {
      regime_ = kc2 < 0.0 ? PendulumRegime::rotation : PendulumRegime::separatrix;
      if (regime_ == PendulumRegime::separatrix) {
        m_ = 1.0;
        mc_ = 0.0;
        k_ = 1.0;
      } else {
        m_ = 1.0 / k2;
        mc_ = -kc2 / k2;
      }
      sigma_ = omega0 < 0.0 ? -1.0 : 1.0;
      static_ = (omega0 == 0.0);  // only possible on the separatrix: resting at the top
      u0_ = static_ ? 0.0 : ellip_f(0.5 * thr, m_, mc_);
    }
  }

  double theta(double t) const {
    if (regime_ == PendulumRegime::libration) {
      const SnCnDn v = jacobi(w_ * t + u0_, m_, mc_);
      return offset_ + 2.0 * dm::atan2(k_ * v.sn, v.dn);
    }
    if (static_) return theta0_;
    return offset_ + 2.0 * jacobi_am(sigma_ * k_ * w_ * t + u0_, m_, mc_);
  }

  // Angular rate θ'(t).
  double omega(double t) const {
    if (regime_ == PendulumRegime::libration) {
      return 2.0 * k_ * w_ * jacobi(w_ * t + u0_, m_, mc_).cn;
    }
    if (static_) return 0.0;
    return 2.0 * sigma_ * k_ * w_ * jacobi(sigma_ * k_ * w_ * t + u0_, m_, mc_).dn;
  }

  PendulumRegime regime() const { return regime_; }
  // k = sqrt(k²) as defined above (k < 1 libration, k > 1 rotation).
  double modulus() const { return k_; }
  // Libration: full oscillation period 4K/w. Rotation: time per revolution. Separatrix: +inf.
  double period() const {
    if (regime_ == PendulumRegime::libration) return 4.0 * ellip_k(m_, mc_) / w_;
    if (regime_ == PendulumRegime::rotation) return 2.0 * ellip_k(m_, mc_) / (k_ * w_);
    return std::numeric_limits<double>::infinity();
  }
  // Phase t0 with u = w (t + t0) (libration) or u = σ k w (t + t0) (rotation, separatrix).
  double phase() const { return regime_ == PendulumRegime::libration ? u0_ / w_ : u0_ / (sigma_ * k_ * w_); }
  // Energy per m l²: ½ θ'² - w² cos θ (constant).
  double energy() const { return 0.5 * omega0_ * omega0_ - w_ * w_ * dm::cos(theta0_); }

 private:
  double theta0_, omega0_;
  double w_ = 1.0, offset_ = 0.0, k_ = 0.0, m_ = 0.0, mc_ = 1.0, u0_ = 0.0, sigma_ = 1.0;
  bool static_ = false;
  PendulumRegime regime_ = PendulumRegime::libration;
};

}  // namespace vilab::exact
