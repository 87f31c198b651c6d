// Rigid bodies: the free body and the heavy top (systems/rigid_body_model.hpp),
// quaternion algebra written once over a template scalar, the quaternion system
// for the generic variational engine, and the diagnostics shared by every
// rigid-body integrator (quaternion, lie-group, rk4/euler).
//
// Conventions (the same as vilab::exact::FreeRigidBodyExact):
//   q = (w, x, y, z), orientation body -> space, R(q) v = vec(q ⊗ (0, v) ⊗ q*);
//   body angular velocity ω = 2 vec(q* ⊗ q̇) (equations.md, "Rigid body in unit
//   quaternions"), body angular momentum Π = I ω, spatial angular momentum m = R Π;
//   Euler's equations Π̇ = Π × ω + M, with the gravity moment of the heavy top
//   M(R) = m g (Rᵀe₃) × ρ  (gravity along −e₃, ρ = centre of mass in the body frame).
//   Sign note: equations.md writes M = m g ρ × Rᵀe₃, which is Lee–Leok–McClamroch's
//   convention with e₃ pointing DOWN (V = −m g e₃·Rρ). Here gravity points along −z,
//   V = +m g e₃·Rρ, and M = −∂V/∂η (R ↦ R exp(η̂)) = m g (Rᵀe₃) × ρ.
//   Potential V = m g (e₃·Rρ + |ρ|): zero with the centre of mass straight below the
//   pivot, so V ≥ 0 (like the pendulums).
#pragma once

#include <cmath>
#include <vector>

#include "vilab/ad.hpp"
#include "vilab/detmath.hpp"
#include "vilab/json.hpp"
#include "vilab/stepper.hpp"
#include "vilab/systems/rigid_body_model.hpp"

namespace vilab {

using Vec4 = Vec<double, 4>;

namespace quat {

// Hamilton product a ⊗ b, (w, x, y, z).
template <class S>
Vec<S, 4> mul(const Vec<S, 4>& a, const Vec<S, 4>& b) {
  Vec<S, 4> r;
  r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  return r;
}

template <class S>
Vec<S, 4> conj(const Vec<S, 4>& q) {
  Vec<S, 4> r;
  r[0] = q[0];
  r[1] = -q[1];
  r[2] = -q[2];
  r[3] = -q[3];
  return r;
}

// The pure quaternion (0, v).
inline Vec4 pure(const Vec3& v) { return Vec4(0.0, v[0], v[1], v[2]); }

// Homogeneous rotation matrix: R(q) v = vec(q ⊗ (0, v) ⊗ q*). Quadratic in q; equal to
// |q|² times the rotation by q/|q|, so it is the rotation matrix exactly when |q| = 1.
// (On the constraint manifold the two extensions agree; off it, e.g. at the midpoint
// (q_k + q_{k+1})/2, the homogeneous form scales like the kinetic energy.)
template <class S>
Mat<S, 3, 3> matrix(const Vec<S, 4>& q) {
  const S w = q[0], x = q[1], y = q[2], z = q[3];
  Mat<S, 3, 3> R;
  R(0, 0) = w * w + x * x - y * y - z * z;
  R(0, 1) = 2.0 * (x * y - w * z);
  R(0, 2) = 2.0 * (x * z + w * y);
  R(1, 0) = 2.0 * (x * y + w * z);
  R(1, 1) = w * w - x * x + y * y - z * z;
  R(1, 2) = 2.0 * (y * z - w * x);
  R(2, 0) = 2.0 * (x * z - w * y);
  R(2, 1) = 2.0 * (y * z + w * x);
  R(2, 2) = w * w - x * x - y * y + z * z;
  return R;
}

// Third row of R(q): Rᵀe₃ (the vertical seen in the body frame, times |q|²).
template <class S>
Vec<S, 3> verticalInBody(const Vec<S, 4>& q) {
  const S w = q[0], x = q[1], y = q[2], z = q[3];
  Vec<S, 3> r;
  r[0] = 2.0 * (x * z - w * y);
  r[1] = 2.0 * (y * z + w * x);
  r[2] = w * w - x * x - y * y + z * z;
  return r;
}

// Unit quaternion of a rotation matrix, robust for every rotation (Shepperd's method:
// the largest of 1 + tr R, 1 + 2R_ii − tr R goes under the square root), normalized,
// with the sign fixed so that w ≥ 0 (q and −q are the same rotation).
inline Vec4 fromMatrix(const Mat3& R) {
  const double tr = R(0, 0) + R(1, 1) + R(2, 2);
  Vec4 q;
  if (tr >= R(0, 0) && tr >= R(1, 1) && tr >= R(2, 2)) {
    const double s = 2.0 * dm::sqrt(1.0 + tr);
    q << 0.25 * s, (R(2, 1) - R(1, 2)) / s, (R(0, 2) - R(2, 0)) / s, (R(1, 0) - R(0, 1)) / s;
  } else if (R(0, 0) >= R(1, 1) && R(0, 0) >= R(2, 2)) {
    const double s = 2.0 * dm::sqrt(1.0 + R(0, 0) - R(1, 1) - R(2, 2));
    q << (R(2, 1) - R(1, 2)) / s, 0.25 * s, (R(0, 1) + R(1, 0)) / s, (R(0, 2) + R(2, 0)) / s;
  } else if (R(1, 1) >= R(2, 2)) {
    const double s = 2.0 * dm::sqrt(1.0 + R(1, 1) - R(0, 0) - R(2, 2));
    q << (R(0, 2) - R(2, 0)) / s, (R(0, 1) + R(1, 0)) / s, 0.25 * s, (R(1, 2) + R(2, 1)) / s;
  } else {
    const double s = 2.0 * dm::sqrt(1.0 + R(2, 2) - R(0, 0) - R(1, 1));
    q << (R(1, 0) - R(0, 1)) / s, (R(0, 2) + R(2, 0)) / s, (R(1, 2) + R(2, 1)) / s, 0.25 * s;
  }
  if (q[0] < 0) q = -q;
  return q / dm::sqrt(q.squaredNorm());
}

}  // namespace quat

// ---- model-level formulas shared by all rigid-body integrators ---------------------

// | |ρ| |, the offset that makes V ≥ 0.
inline double comDistance(const RigidBodyModel& m) { return dm::sqrt(m.com.squaredNorm()); }

// V(R) = m g (e₃·Rρ + |ρ|), zero for the free body.
inline double rigidBodyPotential(const RigidBodyModel& m, const Mat3& R) {
  if (!m.heavy) return 0.0;
  return m.mass * m.g * (R.row(2).dot(m.com) + comDistance(m));
}

// Gravity moment in the body frame, M(R) = m g (Rᵀe₃) × ρ (see the sign note above).
inline Vec3 gravityMoment(const RigidBodyModel& m, const Vec3& verticalBody) {
  if (!m.heavy) return Vec3::Zero();
  return (m.mass * m.g) * verticalBody.cross(m.com);
}

// Energy ½ Πᵀ I⁻¹ Π + V(R), spatial momentum R Π (all three components; the free body
// conserves all three, the heavy top only the vertical one), body momentum Π. The
// caller fills in the constraint residual.
inline Diagnostics rigidBodyDiagnostics(const RigidBodyModel& m, const Mat3& R, const Vec3& Pi) {
  Diagnostics d;
  const Vec3& I = m.inertia;
  d.energy = 0.5 * (Pi[0] * Pi[0] / I[0] + Pi[1] * Pi[1] / I[1] + Pi[2] * Pi[2] / I[2]) + rigidBodyPotential(m, R);
  const Vec3 spatial = R * Pi;
  d.momentumSize = 3;
  for (int i = 0; i < 3; ++i) {
    d.momentum[i] = spatial[i];
    d.bodyMomentum[i] = Pi[i];
  }
  d.hasBodyMomentum = true;
  return d;
}

// ---- the quaternion system (integrator `quaternion`) ---------------------------------
// Configuration space V = R⁴ ∋ q, one holonomic constraint g(q) = |q|² − 1 = 0 (W–M §5,
// seed 000). The Lagrangian uses the full 4-vector Ω₄ = 2 q* ⊗ q̇ = (Ω₀, ω):
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
    return (model.mass * model.g) * (height + comDistance(model));
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

// | |q| − 1 |.
inline double quaternionNormError(const Vec4& q) { return std::abs(dm::sqrt(q.squaredNorm()) - 1.0); }

// Traits for DenseVariationalStepper<RigidBodyQuaternion, ...>.
struct RigidBodyQuaternionTraits {
  using System = RigidBodyQuaternion;
  // Energy, R(q)Π, Π = ½ vec(q* ⊗ p); constraint = | |q| − 1 |.
  static Diagnostics diagnostics(const System& s, const Vec4& q, const Vec4& p) {
    Diagnostics d = rigidBodyDiagnostics(s.model, quat::matrix(q), System::bodyMomentum(q, p));
    d.constraint = quaternionNormError(q);
    return d;
  }
  static void visual(const System&, const Vec4& q, std::vector<double>& out) { out.assign(q.data(), q.data() + 4); }
  // q must be unit within 1e-9 (then normalized); p is made tangent (q·p = 0), which
  // removes only the normal component that the multiplier absorbs anyway.
  static void validateState(const System&, Vec4& q, Vec4& p) {
    const double err = quaternionNormError(q);
    if (!(err <= 1e-9))
      throw InputError("q", "not a unit quaternion: | |q| − 1 | = " + formatNumber(err) + " > 1e-9");
    q /= dm::sqrt(q.squaredNorm());
    p -= p.dot(q) * q;
  }
};

}  // namespace vilab
