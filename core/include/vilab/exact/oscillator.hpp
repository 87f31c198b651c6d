// Exact harmonic oscillator: m x'' = -k x, x(0) = x0, x'(0) = v0.
//   ω = sqrt(k/m),  x(t) = x0 cos ωt + (v0/ω) sin ωt,  x'(t) = -x0 ω sin ωt + v0 cos ωt.
// k = 0 gives free motion x0 + v0 t. Requires m > 0 and k >= 0 (std::domain_error
// otherwise). Energy E = ½ m v0² + ½ k x0². Elementary functions via vilab::dm.
//
// DampedOscillator: m x'' + c x' + k x = 0 with c > 0. With γ = c/(2m), ω₀² = k/m:
//   underdamped (γ < ω₀), ω_d = sqrt(ω₀² − γ²):
//     x(t) = e^{−γt} [x0 cos ω_d t + (v0 + γ x0)/ω_d sin ω_d t],
//     x'(t) = e^{−γt} [v0 cos ω_d t − (ω₀² x0 + γ v0)/ω_d sin ω_d t];
//   critically damped (γ = ω₀):
//     x(t) = e^{−γt} [x0 + (v0 + γ x0) t],   x'(t) = e^{−γt} [v0 − γ (v0 + γ x0) t];
//   overdamped (γ > ω₀), s = sqrt(γ² − ω₀²) (the same with cos, sin → cosh, sinh):
//     x(t) = e^{−γt} [x0 cosh st + (v0 + γ x0)/s sinh st],
//     x'(t) = e^{−γt} [v0 cosh st − (ω₀² x0 + γ v0)/s sinh st].
// k = 0 is overdamped with s = γ: x = x0 + v0 (1 − e^{−2γt})/(2γ).
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>

#include "vilab/detmath.hpp"

namespace vilab::exact {

class Oscillator {
 public:
  Oscillator(double mass, double stiffness, double x0, double v0) : m_(mass), k_(stiffness), x0_(x0), v0_(v0) {
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
  double period() const { return w_ == 0.0 ? std::numeric_limits<double>::infinity() : 2.0 * dm::pi / w_; }

 private:
  double m_, k_, x0_, v0_, w_;
};

class DampedOscillator {
 public:
  enum class Regime { Underdamped, Critical, Overdamped };

  DampedOscillator(double mass, double stiffness, double damping, double x0, double v0) : x0_(x0), v0_(v0) {
    if (!(mass > 0.0)) throw std::domain_error("DampedOscillator: mass must be > 0");
    if (!(stiffness >= 0.0)) throw std::domain_error("DampedOscillator: stiffness must be >= 0");
    if (!(damping > 0.0)) throw std::domain_error("DampedOscillator: damping must be > 0 (else use Oscillator)");
    gamma_ = damping / (2.0 * mass);
    w0sq_ = stiffness / mass;
    const double disc = w0sq_ - gamma_ * gamma_;
    regime_ = disc > 0 ? Regime::Underdamped : disc < 0 ? Regime::Overdamped : Regime::Critical;
    rate_ = dm::sqrt(std::abs(disc));  // ω_d or s
  }

  Regime regime() const { return regime_; }
  double decayRate() const { return gamma_; }  // γ = c/(2m)
  // ω_d (underdamped) or s (overdamped); 0 when critical.
  double frequency() const { return rate_; }

  double position(double t) const {
    const double a = v0_ + gamma_ * x0_;
    double c, s;  // cos/cosh and sin(·)/rate, sinh(·)/rate; critical: 1 and t
    basis(t, c, s);
    return dm::exp(-gamma_ * t) * (x0_ * c + a * s);
  }

  double velocity(double t) const {
    const double b = w0sq_ * x0_ + gamma_ * v0_;
    double c, s;
    basis(t, c, s);
    return dm::exp(-gamma_ * t) * (v0_ * c - b * s);
  }

 private:
  // cos ω_d t and sin(ω_d t)/ω_d, cosh st and sinh(st)/s, or 1 and t.
  void basis(double t, double& c, double& s) const {
    switch (regime_) {
      case Regime::Underdamped:
        dm::sincos(rate_ * t, s, c);
        s /= rate_;
        return;
      case Regime::Overdamped: {
        const double ep = dm::exp(rate_ * t), em = dm::exp(-rate_ * t);
        c = 0.5 * (ep + em);
        s = 0.5 * (ep - em) / rate_;
        return;
      }
      case Regime::Critical:
      default:
        c = 1.0;
        s = t;
        return;
    }
  }

  double x0_, v0_, gamma_ = 0, w0sq_ = 0, rate_ = 0;
  Regime regime_ = Regime::Underdamped;
};

}  // namespace vilab::exact
