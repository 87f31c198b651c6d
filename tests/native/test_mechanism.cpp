// Mechanisms defined by data (models/mechanism.hpp): bodies, joints, their constraint
// Jacobian, and every refusal by field.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "mechanisms.hpp"
#include "vilab/models/mechanism.hpp"

namespace {

using namespace vilab;
using namespace vilab::testing;

// The largest difference between G and central differences of the constraints.
double jacobianError(const MechanismModel& m, const Eigen::MatrixXd& G) {
  const double eps = 1e-6;
  double worst = 0;
  for (int col = 0; col < G.cols(); ++col) {
    MechanismModel plus = m, minus = m;
    const int body = col / 6, k = col % 6;
    if (k < 3) {
      plus.bodies[body].x[k] += eps;
      minus.bodies[body].x[k] -= eps;
    } else {
      plus.bodies[body].R = m.bodies[body].R * rotation(Vec3::Unit(k - 3), eps);
      minus.bodies[body].R = m.bodies[body].R * rotation(Vec3::Unit(k - 3), -eps);
    }
    const Eigen::VectorXd fd = (plus.constraints() - minus.constraints()) / (2 * eps);
    worst = std::max(worst, (fd - G.col(col)).cwiseAbs().maxCoeff());
  }
  return worst;
}

// The field an InputError names, or "" when validate() accepts.
std::string refusedField(MechanismModel m) {
  try {
    m.validate();
  } catch (const InputError& e) {
    return e.field();
  }
  return "";
}

}  // namespace

TEST_CASE("mechanism: the compound double pendulum closes and has 6 independent constraints", "[mechanism]") {
  MechanismModel m = compoundDoublePendulum();
  REQUIRE_NOTHROW(m.validate());
  CHECK(m.constraintCount() == 6);
  CHECK(m.constraints().cwiseAbs().maxCoeff() <= 1e-15);
}

TEST_CASE("mechanism: the constraint Jacobian is the derivative along x + δx, R exp(η̂)", "[mechanism]") {
  // Every joint kind, to a moving parent: a ball, a hinge and a fixed joint in a chain.
  MechanismModel m = compoundDoublePendulum();
  MechanismBody third = rod(0.3, 0.4, m.bodies[1].R * rotation(Vec3(0, 1, 0), 0.3), Vec3::Zero());
  const Vec3 end2 = m.bodies[1].x + m.bodies[1].R * Vec3(0, 0, -0.5);
  third.x = end2 - third.R * Vec3(0, 0, 0.2);
  m.bodies.push_back(third);
  MechanismJoint hinge;
  hinge.kind = JointKind::Hinge;
  hinge.parent = 1;
  hinge.child = 2;
  hinge.parentPoint = Vec3(0, 0, -0.5);
  hinge.childPoint = Vec3(0, 0, 0.2);
  hinge.parentAxis = Vec3(0, 1, 0);
  hinge.childAxis = third.R.transpose() * m.bodies[1].R * Vec3(0, 1, 0);
  m.joints.push_back(hinge);
  MechanismBody fourth = rod(0.2, 0.3, third.R * rotation(Vec3(1, 0, 0), 0.5), third.x + Vec3(0.1, 0, 0));
  m.bodies.push_back(fourth);
  MechanismJoint fixed;
  fixed.kind = JointKind::Fixed;
  fixed.parent = 2;
  fixed.child = 3;
  fixed.childPoint = fourth.R.transpose() * (third.x - fourth.x);
  m.joints.push_back(fixed);
  REQUIRE_NOTHROW(m.validate());
  REQUIRE(m.constraintCount() == 3 + 3 + 5 + 6);

  const Eigen::MatrixXd G = m.constraintJacobian();
  // Central differences: O(eps²) = 1e-12 plus rounding 1e-16/eps = 1e-10; a sign or a
  // frame error in any block is O(1).
  CHECK(jacobianError(m, G) <= 1e-8);
  // Negative controls: the ball rows' rotational block of the child in the space frame
  // instead of R_c ĉ, and the hinge rows' sign flipped.
  Eigen::MatrixXd wrongFrame = G;
  wrongFrame.block<3, 3>(3, 9) = hat(m.joints[1].childPoint);
  CHECK(jacobianError(m, wrongFrame) >= 0.05);
  Eigen::MatrixXd wrongSign = G;
  wrongSign.middleRows(9, 2) *= -1;
  CHECK(jacobianError(m, wrongSign) >= 0.05);
}

TEST_CASE("mechanism: every refusal names its field", "[mechanism]") {
  const MechanismModel good = compoundDoublePendulum();
  REQUIRE(refusedField(good).empty());
  auto with = [&](auto change) {
    MechanismModel m = good;
    change(m);
    return refusedField(m);
  };
  CHECK(with([](MechanismModel& m) { m.bodies.clear(); }) == "bodies");
  CHECK(with([](MechanismModel& m) { m.bodies.resize(limits::kMaxMechanismBodies + 1, m.bodies[0]); }) == "bodies");
  CHECK(with([](MechanismModel& m) { m.joints.resize(limits::kMaxMechanismJoints + 1, m.joints[0]); }) == "joints");
  CHECK(with([](MechanismModel& m) { m.gravity[2] = NAN; }) == "gravity");
  CHECK(with([](MechanismModel& m) { m.bodies[1].mass = 0; }) == "bodies[1].mass");
  CHECK(with([](MechanismModel& m) { m.bodies[1].mass = INFINITY; }) == "bodies[1].mass");
  CHECK(with([](MechanismModel& m) { m.bodies[0].inertia(0, 1) = 0.01; }) == "bodies[0].inertia");   // not symmetric
  CHECK(with([](MechanismModel& m) { m.bodies[0].inertia(2, 2) = -1e-3; }) == "bodies[0].inertia");  // not definite
  // Principal moments 1, 1, 3: 1 + 1 < 3, no mass distribution has them.
  CHECK(with([](MechanismModel& m) { m.bodies[1].inertia = Vec3(1, 1, 3).asDiagonal(); }) == "bodies[1].inertia");
  // The same moments in a rotated frame: the check is on the eigenvalues, not the diagonal.
  CHECK(with([](MechanismModel& m) {
          const Mat3 Q = rotation(Vec3(1, 2, 3), 0.9);
          m.bodies[1].inertia = Q * Vec3(1, 1, 3).asDiagonal() * Q.transpose();
        }) == "bodies[1].inertia");
  // Moments 1, 2, 3 (equality, a flat plate) are physical.
  CHECK(with([](MechanismModel& m) { m.bodies[1].inertia = Vec3(1, 2, 3).asDiagonal(); }).empty());
  CHECK(with([](MechanismModel& m) { m.bodies[0].R(0, 0) *= 1 + 1e-6; }) == "bodies[0].orientation");
  CHECK(with([](MechanismModel& m) { m.bodies[0].R = -m.bodies[0].R; }) == "bodies[0].orientation");  // a reflection
  CHECK(with([](MechanismModel& m) { m.bodies[0].x[0] = NAN; }) == "bodies[0].position");
  CHECK(with([](MechanismModel& m) { m.joints[1].child = 2; }) == "joints[1].child");
  CHECK(with([](MechanismModel& m) { m.joints[1].parent = -2; }) == "joints[1].parent");
  CHECK(with([](MechanismModel& m) { m.joints[1].parent = 1; }) == "joints[1].parent");
  CHECK(with([](MechanismModel& m) { m.joints[0].childPoint[1] = INFINITY; }) == "joints[0].childPoint");
  CHECK(with([](MechanismModel& m) {
          m.joints[1].kind = JointKind::Hinge;
          m.joints[1].childAxis = Vec3::Zero();
        }) == "joints[1].childAxis");
  // Not closing at t = 0: the second rod 1 µm off its pin; 1e-10 off is within tolerance.
  CHECK(with([](MechanismModel& m) { m.bodies[1].x[0] += 1e-6; }) == "joints[1]");
  CHECK(with([](MechanismModel& m) { m.bodies[1].x[0] += 1e-10; }).empty());
  // A hinge whose axes disagree at t = 0.
  CHECK(with([](MechanismModel& m) {
          m.joints[1].kind = JointKind::Hinge;
          m.joints[1].parentAxis = Vec3::UnitX();
          m.joints[1].childAxis = Vec3::UnitX();
        }) == "joints[1]");
  // Disconnected: the second rod without its joint.
  CHECK(with([](MechanismModel& m) { m.joints.pop_back(); }) == "bodies[1]");
  // Over-constrained: the same ball joint twice, and a fixed joint over a ball joint.
  CHECK(with([](MechanismModel& m) { m.joints.push_back(m.joints[1]); }) == "joints[2]");
  CHECK(with([](MechanismModel& m) {
          MechanismJoint f = m.joints[1];
          f.kind = JointKind::Fixed;
          m.joints.push_back(f);
        }) == "joints[2]");
  // Velocities: not finite, and pulling the second joint apart (the lower rod's centre
  // moving off its consistent velocity); consistent ones are accepted.
  CHECK(with([](MechanismModel& m) { m.bodies[0].velocity[0] = NAN; }) == "bodies[0].velocity");
  CHECK(with([](MechanismModel& m) { m.bodies[1].angularVelocity[1] = INFINITY; }) == "bodies[1].angularVelocity");
  CHECK(with([](MechanismModel& m) {
          m = compoundDoublePendulum(Vec3(0.3, -0.2, 0.1), Vec3(-0.5, 0.4, 0.2));
          m.bodies[1].velocity[0] += 1e-3;
        }) == "joints[1]");
  CHECK(refusedField(compoundDoublePendulum(Vec3(0.3, -0.2, 0.1), Vec3(-0.5, 0.4, 0.2))).empty());
}
