// Mechanisms shared by the mechanism tests: the compound double pendulum and the
// Lagrange top, each with velocities that keep its joints closed.
#pragma once

#include "vilab/models/mechanism.hpp"

namespace vilab::testing {

inline Mat3 rotation(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// A rod of length ℓ and mass m along its body z axis, centre of mass at its middle.
inline MechanismBody rod(double m, double length, const Mat3& R, const Vec3& x) {
  MechanismBody b;
  b.mass = m;
  const double side = m * length * length / 12.0;
  b.inertia = Vec3(side, side, 1e-3 * side).asDiagonal();
  b.R = R;
  b.x = x;
  return b;
}

// The compound double pendulum: two rods hanging from the world by ball joints, tilted,
// turning with body angular velocities ω₁, ω₂ (the centres' velocities follow from the
// joints: a joint point's velocity ẋ + R(ω × c) is the same on both sides).
inline MechanismModel compoundDoublePendulum(const Vec3& omega1 = Vec3::Zero(), const Vec3& omega2 = Vec3::Zero()) {
  MechanismModel m;
  const Mat3 R1 = rotation(Vec3(1, 0.3, 0), 0.4), R2 = rotation(Vec3(0.2, 1, 0), -0.7);
  const Vec3 top(0, 0, 0.5), bottom(0, 0, -0.5);
  m.bodies.push_back(rod(1, 1, R1, -R1 * top));
  const Vec3 end1 = m.bodies[0].x + R1 * bottom;
  m.bodies.push_back(rod(0.5, 1, R2, end1 - R2 * top));
  m.bodies[0].angularVelocity = omega1;
  m.bodies[0].velocity = -R1 * omega1.cross(top);
  const Vec3 endVelocity = m.bodies[0].velocity + R1 * omega1.cross(bottom);
  m.bodies[1].angularVelocity = omega2;
  m.bodies[1].velocity = endVelocity - R2 * omega2.cross(top);
  MechanismJoint j0;
  j0.child = 0;
  j0.childPoint = top;
  MechanismJoint j1;
  j1.parent = 0;
  j1.child = 1;
  j1.parentPoint = bottom;
  j1.childPoint = top;
  m.joints = {j0, j1};
  return m;
}

// The Lagrange top as a mechanism: a symmetric body (moments about its centre
// (A, A, C)) whose centre sits at ρ = (0, 0, ℓ) in its body frame from a ball joint at the
// world's origin, at orientation R and body angular velocity ω.
inline MechanismModel lagrangeTop(double mass, double A, double C, double ell, const Mat3& R, const Vec3& omega,
                                  double g) {
  MechanismModel m;
  MechanismBody b;
  b.mass = mass;
  b.inertia = Vec3(A, A, C).asDiagonal();
  b.R = R;
  const Vec3 rho(0, 0, ell);
  b.x = R * rho;
  b.angularVelocity = omega;
  b.velocity = R * omega.cross(rho);
  m.bodies = {b};
  MechanismJoint pivot;
  pivot.child = 0;
  pivot.childPoint = -rho;
  m.joints = {pivot};
  m.gravity = Vec3(0, 0, -g);
  return m;
}

}  // namespace vilab::testing
