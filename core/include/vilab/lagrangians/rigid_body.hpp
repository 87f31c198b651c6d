// Lagrangian form of the rigid-body model (models/rigid_body.hpp) for the generic
// engine: the rigid body in unit quaternions (Wendlandt & Marsden §5).
#pragma once

#include "vilab/ad.hpp"
#include "vilab/models/rigid_body.hpp"

namespace vilab {

// ---- the quaternion system (integrator `quaternion`) ---------------------------------
// Configuration space V = R⁴ ∋ q, one holonomic constraint g(q) = |q|² − 1 = 0 (W–M §5).
// The Lagrangian uses the full 4-vector Ω₄ = 2 q* ⊗ q̇ = (Ω₀, ω):
//     L(q, q̇) = ½ (I₀ Ω₀² + ωᵀ I ω) − V(q),     V(q) = m g (e₃·R(q)ρ + |ρ|).
// Without the I₀ term the kinetic energy would be degenerate along q (Ω₀ = 2 q·q̇ is the
// radial rate). On the constraint manifold the I₀ term does not change the motion: with
// the midpoint rule Ω̄₀ = 2 q̄·v̄ = (|q_{k+1}|² − |q_k|²)/h = 0 whenever |q_k| = |q_{k+1}| = 1,
// and the term enters D1 L_d, D2 L_d only multiplied by Ω̄₀, so any I₀ > 0 gives the same
// discrete trajectory (tests: two values of I₀ agree to rounding). I₀ = mean(I) by default.
//
// Momentum: p = ∂L/∂q̇ = 2 q ⊗ (I₀Ω₀, Iω). For |q| = 1 and p tangent (q·p = 0, i.e. Ω₀ = 0),
//     Π = I ω = ½ vec(q* ⊗ p),    and conversely p = 2 q ⊗ (0, Π).
// Symmetries: q ↦ r ⊗ q (rotations in space) leave L invariant for the free body, and for
// the heavy top when r is a rotation about e₃; the action is linear, so the midpoint L_d
// inherits the invariance and discrete Noether conserves ½ vec(p ⊗ q*) = R(q)Π exactly
// (all components / the vertical one). For a symmetric top (I₁ = I₂, ρ on the axis)
// q ↦ q ⊗ r with r about the body e₃ is a symmetry too, and Π₃ is conserved.
struct RigidBodyQuaternion {
  static constexpr int N = 4;
  static constexpr int C = 1;
  RigidBodyModel model;
  double radialInertia = 2;  // I₀ > 0

  explicit RigidBodyQuaternion(const RigidBodyModel& m)
      : model(m), radialInertia((m.inertia[0] + m.inertia[1] + m.inertia[2]) / 3.0) {}
  RigidBodyQuaternion(const RigidBodyModel& m, double I0) : model(m), radialInertia(I0) {}

  template <class S>
  S potential(const Vec<S, 4>& q) const {
    if (!model.heavy) return S(0.0);
    const Vec<S, 3> up = quat::verticalInBody(q);  // Rᵀe₃ (homogeneous), so e₃·Rρ = (Rᵀe₃)·ρ
    const S height = up[0] * model.com[0] + up[1] * model.com[1] + up[2] * model.com[2];
    return (model.mass * model.g) * (height + model.comDistance());
  }

  template <class S>
  S lagrangian(const Vec<S, 4>& q, const Vec<S, 4>& v) const {
    const Vec<S, 4> W = quat::mul(quat::conj(q), v);  // Ω₄ / 2
    const Vec3& I = model.inertia;
    const S T = 2.0 * (radialInertia * (W[0] * W[0]) + I[0] * (W[1] * W[1]) + I[1] * (W[2] * W[2]) +
                       I[2] * (W[3] * W[3]));  // ½ Ω₄ᵀ I₄ Ω₄ with Ω₄ = 2W
    return T - potential(q);
  }

  template <class S>
  Vec<S, 1> constraints(const Vec<S, 4>& q) const {
    Vec<S, 1> g;
    g[0] = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1.0;
    return g;
  }

  // Π = ½ vec(q* ⊗ p).
  static Vec3 bodyMomentum(const Vec4& q, const Vec4& p) {
    const Vec4 r = quat::mul(quat::conj(q), p);
    return 0.5 * r.tail<3>();
  }
  // p = 2 q ⊗ (0, Π): the momentum of the tangent velocity q̇ = ½ q ⊗ (0, ω), Π = Iω.
  static Vec4 momentumFromBody(const Vec4& q, const Vec3& Pi) { return 2.0 * quat::mul(q, quat::pure(Pi)); }
};

}  // namespace vilab
