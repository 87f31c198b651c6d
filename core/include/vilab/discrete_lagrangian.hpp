// Discrete Lagrangians L_d(q0, q1) ≈ ∫ L dt over one step, built from a system's
// continuous Lagrangian L(q, v) (W–M eq. 4.1; Lu eq. 4; M–W §1.1).
#pragma once

#include <string>

#include "vilab/types.hpp"

namespace vilab {

enum class Quadrature {
  Midpoint,   // h L((q0+q1)/2, (q1-q0)/h)                 (W–M 4.1)
  Trapezoid,  // (h/2) [L(q0, v) + L(q1, v)]                 SHAKE / Verlet
  Alpha,      // h L((1-α) q0 + α q1, (q1-q0)/h)             Lu's α-family
};

struct DiscreteRule {
  Quadrature kind = Quadrature::Midpoint;
  double alpha = 0.5;  // used by Quadrature::Alpha only

  static DiscreteRule midpoint() { return {Quadrature::Midpoint, 0.5}; }
  static DiscreteRule trapezoid() { return {Quadrature::Trapezoid, 0.5}; }
  static DiscreteRule alphaFamily(double a) { return {Quadrature::Alpha, a}; }

  // For L = ½ vᵀMv − V(q) with ∇V constant, D1 L_d = −M v̄ − c1 ∇V and
  // D2 L_d = M v̄ − c2 ∇V; these are c1/h and c2/h.
  double forceWeightStart() const { return kind == Quadrature::Alpha ? 1.0 - alpha : 0.5; }
  double forceWeightEnd() const { return kind == Quadrature::Alpha ? alpha : 0.5; }
};

// L_d(q0, q1) for a system with `template <class S> S lagrangian(q, v) const`.
template <class System, class S, int N>
S discreteLagrangian(const System& system, const DiscreteRule& rule, double h, const Vec<S, N>& q0,
                     const Vec<S, N>& q1) {
  const Vec<S, N> v = (q1 - q0) / h;
  switch (rule.kind) {
    case Quadrature::Trapezoid:
      return (h / 2) * (system.lagrangian(q0, v) + system.lagrangian(q1, v));
    case Quadrature::Alpha: {
      const Vec<S, N> qa = q0 * (1.0 - rule.alpha) + q1 * rule.alpha;
      return h * system.lagrangian(qa, v);
    }
    case Quadrature::Midpoint:
    default: {
      const Vec<S, N> qm = (q0 + q1) * 0.5;
      return h * system.lagrangian(qm, v);
    }
  }
}

}  // namespace vilab
