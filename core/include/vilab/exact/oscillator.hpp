// Exact harmonic oscillator: m x'' = -k x, x(0) = x0, x'(0) = v0.
//   ω = sqrt(k/m),  x(t) = x0 cos ωt + (v0/ω) sin ωt,  x'(t) = -x0 ω sin ωt + v0 cos ωt.
// k = 0 gives free motion x0 + v0 t. Requires m > 0 and k >= 0 (std::domain_error
// otherwise). Energy E = ½ m v0² + ½ k x0². Elementary functions via vilab::dm.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>

#include "vilab/detmath.hpp"

namespace vilab::exact {

class Oscillator {
 public:
  Oscillator(double mass, double stiffness, double x0, double v0)
      : m_(mass), k_(stiffness), x0_(x0), v0_(v0) {
    if (!(mass > 0.0)) throw std::domain_error("Oscillator: mass must be > 0");
    if (!(stiffness >= 0.0)) throw std::domain_error("Oscillator: stiffness must be >= 0");
    w_ = std::sqrt(stiffness / mass);
  }

  double position(double t) const {
    if (w_ == 0.0) return x0_ + v0_ * t;
    double s, c;
    dm::sincos(w_ * t, s, c);
    return x0_ * c + (v0_ / w_) * s;
  }

  double velocity(double t) const {
    if (w_ == 0.0) return v0_;
    double s, c;
    dm::sincos(w_ * t, s, c);
    return -x0_ * w_ * s + v0_ * c;
  }

  double energy() const { return 0.5 * m_ * v0_ * v0_ + 0.5 * k_ * x0_ * x0_; }
  double omega() const { return w_; }
  // 2π/ω; +inf for k = 0.
  double period() const {
    return w_ == 0.0 ? std::numeric_limits<double>::infinity() : 2.0 * dm::pi / w_;
  }

 private:
  double m_, k_, x0_, v0_, w_;
};

}  // namespace vilab::exact
