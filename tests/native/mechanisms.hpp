// Mechanisms shared by the mechanism tests: the compound double pendulum, the Lagrange
// top and a free body, each with velocities that keep its joints closed; the scenes of
// scenes/mechanisms; the distance between two configurations; a chain's bobs against a
// mechanism's bodies.
#pragma once

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "vilab/json.hpp"
#include "vilab/models/mechanism.hpp"

namespace vilab::testing {

// The largest difference of a chain's bobs (x, p: 3 + 3 per bob) and the first bodies of
// a mechanism (x, ·; p, ·: 7 + 6 per body), bob i against body i.
inline double bobGap(const State& chain, const State& mech) {
  double gap = 0;
  for (Eigen::Index i = 0; 3 * i < chain.q.size(); ++i) {
    gap = std::max(gap, (chain.q.segment<3>(3 * i) - mech.q.segment<3>(7 * i)).cwiseAbs().maxCoeff());
    gap = std::max(gap, (chain.p.segment<3>(3 * i) - mech.p.segment<3>(6 * i)).cwiseAbs().maxCoeff());
  }
  return gap;
}

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

// The compound double pendulum with its lower joint of `kind` (fixed: the two rods one
// rigid body; hinge: about the y axis), both turning at one ω, thick rods (axial moment a
// tenth of the transverse one), validated.
inline MechanismModel jointedPair(JointKind kind) {
  const Vec3 omega(0.8, -0.5, 0.3);
  MechanismModel m = compoundDoublePendulum(omega, omega);
  m.bodies[1].R = m.bodies[0].R;
  m.bodies[1].x = m.bodies[0].x + m.bodies[0].R * Vec3(0, 0, -1);
  m.bodies[1].velocity = m.bodies[0].velocity + m.bodies[0].R * omega.cross(Vec3(0, 0, -1));
  for (MechanismBody& b : m.bodies) b.inertia(2, 2) = 0.1 * b.inertia(0, 0);
  m.joints[1].kind = kind;
  m.joints[1].parentAxis = m.joints[1].childAxis = Vec3(0, 1, 0);
  m.validate();
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

// One free body in zero gravity, turning at ω (body frame) and drifting at v, validated.
inline MechanismModel freeBody(const Vec3& inertia, const Mat3& R, const Vec3& omega, const Vec3& x, const Vec3& v) {
  MechanismModel m;
  MechanismBody b;
  b.inertia = inertia.asDiagonal();
  b.R = R;
  b.x = x;
  b.angularVelocity = omega;
  b.velocity = v;
  m.bodies = {b};
  m.gravity = Vec3::Zero();
  m.validate();
  return m;
}

// The configuration's distance between two states: the largest entry of x and R.
inline double distance(const MechanismState& a, const MechanismState& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.x.size(); ++i)
    d = std::max({d, (a.x[i] - b.x[i]).cwiseAbs().maxCoeff(), (a.R[i] - b.R[i]).cwiseAbs().maxCoeff()});
  return d;
}

// The largest difference of two states, entry by entry (x, R, p, Π).
inline double stateDistance(const MechanismState& a, const MechanismState& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.x.size(); ++i)
    d = std::max({d, (a.x[i] - b.x[i]).cwiseAbs().maxCoeff(), (a.R[i] - b.R[i]).cwiseAbs().maxCoeff(),
                  (a.p[i] - b.p[i]).cwiseAbs().maxCoeff(), (a.Pi[i] - b.Pi[i]).cwiseAbs().maxCoeff()});
  return d;
}

// The fitted orders of a step's errors and its triple jump's at the steps hs, printed
// with the errors under `label`: {second, fourth}.
template <class Fit>
std::pair<double, double> reportedOrders(const char* label, const std::vector<double>& hs,
                                         const std::vector<double>& second, const std::vector<double>& fourth,
                                         Fit fittedOrder) {
  const double order2 = fittedOrder(hs, second), order4 = fittedOrder(hs, fourth);
  std::printf("[mechanism] %s: errors %.2e %.2e %.2e (order %.3f), triple jump %.2e %.2e %.2e (order %.3f)\n", label,
              second[0], second[1], second[2], order2, fourth[0], fourth[1], fourth[2], order4);
  return {order2, order4};
}

// The scenes of scenes/mechanisms, by file name.
inline const char* const kMechanismScenes[] = {
    "compound-double-pendulum",  "physical-pendulum", "lagrange-top", "gyroscope", "middle-axis",
    "gravity-gradient-satellite"};

// A scene file of scenes/mechanisms (with its `about` block).
inline Json mechanismScene(const std::string& name) {
  std::ifstream in(std::string(VILAB_SCENES_DIR) + "/mechanisms/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

}  // namespace vilab::testing
