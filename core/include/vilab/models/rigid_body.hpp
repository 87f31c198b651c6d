// The rigid-body model: the free body and the heavy top (a fixed point at the origin,
// gravity along −z).
//
// Canonical state: q = unit quaternion (w, x, y, z), orientation body → space,
// R(q) v = vec(q ⊗ (0, v) ⊗ q*); p = body angular momentum Π = I ω.
//
// Conventions (the same as vilab::exact::FreeRigidBodyExact):
//   body angular velocity ω = 2 vec(q* ⊗ q̇) (W–M §5), spatial angular momentum RΠ;
//   Euler's equations Π̇ = Π × ω + M, with the gravity moment of the heavy top
//   M(R) = m g (Rᵀe₃) × ρ  (ρ = centre of mass in the body frame).
//   Sign note: Lee–Leok–McClamroch write M = m g ρ × Rᵀe₃ with e₃ pointing DOWN
//   (V = −m g e₃·Rρ). Here gravity points along −z, V = +m g e₃·Rρ, and
//   M = −∂V/∂η (R ↦ R exp(η̂)) = m g (Rᵀe₃) × ρ.
//   Potential V = m g (e₃·Rρ + |ρ|): zero with the centre of mass straight below the
//   pivot, so V ≥ 0 (like the pendulums).
//   Forcing (optional): a constant torque τ given in the space frame (Rᵀτ in the body
//   frame) and a damping torque −c ω in the body frame, added to M. τ changes the
//   spatial angular momentum: d(RΠ)/dt = τ − c Rω (plus gravity's moment).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "vilab/ad.hpp"
#include "vilab/detmath.hpp"
#include "vilab/limits.hpp"
#include "vilab/state.hpp"

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

inline Mat3 hat(const Vec3& v) {
  Mat3 m;
  m << 0, -v[2], v[1],  //
      v[2], 0, -v[0],   //
      -v[1], v[0], 0;
  return m;
}

// Cayley map cay(f) = (I + f̂)(I − f̂)⁻¹ = I + 2/(1 + |f|²)(f̂ + f̂²): orthogonal for every f.
inline Mat3 cayley(const Vec3& f) {
  const Mat3 F = hat(f);
  return Mat3::Identity() + (2.0 / (1.0 + f.squaredNorm())) * (F + F * F);
}

// | |q| − 1 |.
inline double quaternionNormError(const Vec4& q) { return std::abs(dm::sqrt(q.squaredNorm()) - 1.0); }

struct RigidBodyModel {
  Vec3 inertia = Vec3(1, 2, 3);  // principal moments I1, I2, I3 (body frame)
  bool heavy = false;            // heavy top: fixed point at the origin, gravity along −z
  double mass = 0;
  Vec3 com = Vec3::Zero();  // centre of mass ρ in the body frame
  double g = 0;
  Vec3 torque = Vec3::Zero();  // τ: a constant external torque, space frame (N·m)
  double damping = 0;          // c ≥ 0: the damping torque −c ω, body frame (N·m·s)

  // Forces other than gravity: the external torque or damping.
  bool forced() const { return damping != 0 || torque != Vec3::Zero(); }
  // The external moments in the body frame at orientation R and body angular velocity
  // ω: Rᵀτ − c ω (Euler's equations Π̇ = Π × ω + M(R) + Rᵀτ − c ω).
  Vec3 externalMoment(const Mat3& R, const Vec3& omega) const { return R.transpose() * torque - damping * omega; }

  // |ρ|, the offset that makes V ≥ 0.
  double comDistance() const { return dm::sqrt(com.squaredNorm()); }

  // V(R) = m g (e₃·Rρ + |ρ|), zero for the free body. `verticalBody` = Rᵀe₃.
  double potential(const Vec3& verticalBody) const {
    if (!heavy) return 0.0;
    return mass * g * (verticalBody.dot(com) + comDistance());
  }

  // Gravity moment in the body frame, M(R) = m g (Rᵀe₃) × ρ (see the sign note above).
  Vec3 gravityMoment(const Vec3& verticalBody) const {
    if (!heavy) return Vec3::Zero();
    return (mass * g) * verticalBody.cross(com);
  }

  double kinetic(const Vec3& Pi) const {
    return 0.5 * (Pi[0] * Pi[0] / inertia[0] + Pi[1] * Pi[1] / inertia[1] + Pi[2] * Pi[2] / inertia[2]);
  }

  double energy(const State& s) const { return kinetic(Vec3(s.p)) + potential(quat::verticalInBody(Vec4(s.q))); }

  // Energy ½ΠᵀI⁻¹Π + V(R), spatial momentum RΠ (the free body conserves all three
  // components, the heavy top the vertical one), body momentum Π, | |q| − 1 |.
  Diagnostics diagnostics(const State& s) const {
    Diagnostics d;
    const Vec4 q = s.q;
    const Vec3 Pi = s.p;
    const Mat3 R = quat::matrix(q);
    d.energy = kinetic(Pi) + potential(R.row(2).transpose());
    const Vec3 spatial = R * Pi;
    d.momentumSize = 3;
    d.hasBodyMomentum = true;
    for (int i = 0; i < 3; ++i) {
      d.momentum[i] = spatial[i];
      d.bodyMomentum[i] = Pi[i];
    }
    d.constraint = quaternionNormError(q);
    return d;
  }

  // What the renderer draws: the orientation quaternion.
  void visual(const State& s, std::vector<double>& out) const { out.assign(s.q.data(), s.q.data() + 4); }

  // Kinetic energy of the mean body angular velocity of a step: the rotation
  // q_a* ⊗ q_b (taken the short way) by angle θ about the unit axis n gives
  // ω̄ = θ n / h. For the physical solution it is at most the energy up to the
  // method's O(h²) error; a spurious root rotates by nearly π per step.
  double meanKineticEnergy(const State& a, const State& b, double h) const {
    Vec4 r = quat::mul(quat::conj(Vec4(a.q)), Vec4(b.q));
    if (r[0] < 0) r = -r;
    const Vec3 v = r.tail<3>();
    const double s = dm::sqrt(v.squaredNorm());
    if (!(s > 0)) return 0.0;
    const double theta = 2.0 * dm::atan2(s, r[0]);
    const Vec3 omega = (theta / (s * h)) * v;
    return 0.5 *
           (inertia[0] * omega[0] * omega[0] + inertia[1] * omega[1] * omega[1] + inertia[2] * omega[2] * omega[2]);
  }

  // A typical energy: rotation at 1 rad/s about the largest axis, plus the weight
  // lifted by the centre of mass. Sets absolute slack only.
  double energyScale() const { return inertia.maxCoeff() + (heavy ? mass * g * comDistance() : 0.0); }

  // q must be a unit quaternion within kManifoldTolerance (then normalized exactly);
  // Π any finite vector.
  void project(State& s, const StateRules&, const std::string& qField, const std::string&) const {
    Vec4 q = s.q;
    const double err = quaternionNormError(q);
    if (!(err <= limits::kManifoldTolerance))
      throw InputError(InputErrorCode::OffManifold, qField,
                       "must be a unit quaternion [w, x, y, z]: | |q| − 1 | = " + formatNumber(err) + " > 1e-9");
    s.q = q / dm::sqrt(q.squaredNorm());
  }
};

}  // namespace vilab
