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

// L_d over one step written in (q_k, δ = q_{k+1} − q_k), for a system with
// `template <class S> S lagrangian(q, v) const`. The velocity is δ/h exactly: the
// integrators solve for δ, so no O(1)-sized positions are subtracted to form it.
template <class System, class S, int N>
S discreteLagrangianStep(const System& system, const DiscreteRule& rule, double h, const Vec<S, N>& q0,
                         const Vec<S, N>& delta) {
  const Vec<S, N> v = delta / h;
  switch (rule.kind) {
    case Quadrature::Trapezoid:
      return (h / 2) * (system.lagrangian(q0, v) + system.lagrangian(Vec<S, N>(q0 + delta), v));
    case Quadrature::Alpha: return h * system.lagrangian(Vec<S, N>(q0 + delta * rule.alpha), v);
    case Quadrature::Midpoint:
    default: return h * system.lagrangian(Vec<S, N>(q0 + delta * 0.5), v);
  }
}

// L_d(q0, q1).
template <class System, class S, int N>
S discreteLagrangian(const System& system, const DiscreteRule& rule, double h, const Vec<S, N>& q0,
                     const Vec<S, N>& q1) {
  return discreteLagrangianStep(system, rule, h, q0, Vec<S, N>(q1 - q0));
}

}  // namespace vilab
