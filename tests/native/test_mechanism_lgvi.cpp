// The Lie-group variational integrator for mechanisms (integrators/mechanism_lgvi.hpp):
// its Newton matrix against finite differences, the Lagrange top built from data against
// the built-in heavy top, the free body against the built-in and the exact solution,
// joints and momenta to rounding, bounded energy, and the orders 2 and 4 against a DOP853
// reference.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <vector>

#include "mechanisms.hpp"
#include "support.hpp"
#include "vilab/exact/free_rigid_body.hpp"
#include "vilab/integrators/composition.hpp"
#include "vilab/integrators/lie_group.hpp"
#include "vilab/integrators/mechanism_baselines.hpp"
#include "vilab/integrators/mechanism_lgvi.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_mechanism_lgvi {

namespace {

using namespace vilab;
using namespace vilab::testing;
using namespace vilab::test;

// Steps n times; fails the test on a refusal.
void run(MechanismLGVI& lgvi, MechanismState& s, long n) {
  for (long k = 0; k < n; ++k) {
    const StepOutcome out = lgvi.step(s);
    if (!out.ok) FAIL("step " << k << " refused: " << out.refusal.reason);
  }
}

// The triple jump of the LGVI (Yoshida): order 4 from order 2.
struct TripleJump {
  std::vector<MechanismLGVI> substeps;
  TripleJump(const MechanismModel& m, double h) {
    for (double g : CompositionScheme::tripleJump().gamma) substeps.emplace_back(m, g * h);
  }
  void run(MechanismState& s, long n) {
    for (long k = 0; k < n; ++k)
      for (MechanismLGVI& sub : substeps) REQUIRE(sub.step(s).ok);
  }
};

}  // namespace

TEST_CASE("mechanism LGVI: Newton's matrix is the derivative of the step's residual", "[mechanism]") {
  MechanismModel m = compoundDoublePendulum(Vec3(0.8, -0.5, 0.3), Vec3(-1.1, 0.7, 0.4));
  m.validate();
  MechanismLGVI lgvi(m, 0.01);
  MechanismState s = m.initialState();
  run(lgvi, s, 7);
  // A point near the root: small rotations and joint impulses.
  Eigen::VectorXd z(12);
  z << 0.004, -0.002, 0.001, -0.005, 0.003, 0.002, 1e-4, -2e-4, 3e-4, 5e-5, -1e-4, 2e-4;
  Eigen::VectorXd r0, rp, rm;
  Eigen::MatrixXd J;
  lgvi.residual(s, z, r0, &J);
  double worst = 0, largest = 0;
  for (int col = 0; col < z.size(); ++col) {
    const double eps = 1e-7 * std::max(1e-3, std::abs(z[col]));
    Eigen::VectorXd zp = z, zm = z;
    zp[col] += eps;
    zm[col] -= eps;
    lgvi.residual(s, zp, rp, nullptr);
    lgvi.residual(s, zm, rm, nullptr);
    const Eigen::VectorXd fd = (rp - rm) / (2 * eps);
    worst = std::max(worst, (fd - J.col(col)).cwiseAbs().maxCoeff());
    largest = std::max(largest, J.col(col).cwiseAbs().maxCoeff());
  }
  INFO("largest |∂r/∂z| " << largest << ", worst difference " << worst);
  CHECK(worst <= 1e-6 * largest);
}

TEST_CASE("mechanism LGVI: the Lagrange top built from data is the built-in heavy top to 1e-12 after 1e4 steps",
          "[mechanism]") {
  // The body on a ball joint at the origin: its centre of mass ρ = (0, 0, ℓ) from the
  // pivot, moments (A, A, C) about the centre; the built-in heavy top takes the moments
  // about the pivot, (A + mℓ², A + mℓ², C).
  const double mass = 2, A = 0.05, C = 0.08, ell = 0.3, g = 9.81, h = 1e-3;
  const Mat3 R0 = rotation(Vec3(1, 0.4, 0), 0.5);
  const Vec3 omega(0.7, -0.4, 25);
  MechanismModel top = lagrangeTop(mass, A, C, ell, R0, omega, g);
  top.validate();
  MechanismLGVI lgvi(top, h);
  MechanismState s = top.initialState();

  RigidBodyModel heavy;
  heavy.heavy = true;
  heavy.inertia = Vec3(A + mass * ell * ell, A + mass * ell * ell, C);
  heavy.mass = mass;
  heavy.com = Vec3(0, 0, ell);
  heavy.g = g;
  const LieGroupStepper builtIn(heavy, h);
  Mat3 R = R0;
  Vec3 Pi = heavy.inertia.cwiseProduct(omega);

  double worstR = 0, worstOmega = 0, worstJoint = 0;
  for (int k = 1; k <= 10000; ++k) {
    REQUIRE(lgvi.step(s).ok);
    REQUIRE(builtIn.step(R, Pi).ok);
    worstR = std::max(worstR, (s.R[0] - R).cwiseAbs().maxCoeff());
    const Vec3 omegaData = top.bodies[0].inertia.inverse() * s.Pi[0], omegaBuiltIn = Pi.cwiseQuotient(heavy.inertia);
    worstOmega = std::max(worstOmega, (omegaData - omegaBuiltIn).cwiseAbs().maxCoeff() / omega.norm());
    worstJoint = std::max(worstJoint, top.constraintError(s));
  }
  std::printf("[mechanism] Lagrange top from data vs built-in, 1e4 steps: |ΔR| %.2e, |Δω|/|ω| %.2e, joint %.2e\n",
              worstR, worstOmega, worstJoint);
  CHECK(worstR <= 1e-12);
  CHECK(worstOmega <= 1e-12);
  CHECK(worstJoint <= 1e-14);
}

TEST_CASE("mechanism LGVI: the free body from data is the built-in Moser–Veselov body and second order against Jacobi",
          "[mechanism]") {
  const Vec3 I(1, 2.8, 2), omega(0.5, 0.3, 0.4);
  const Vec4 q0 = Vec4(0.9, 0.2, -0.3, 0.25).normalized();
  const Mat3 R0 = quat::matrix(q0);
  const exact::FreeRigidBodyExact exactBody(I, q0, omega);
  const MechanismModel free = freeBody(I, R0, omega, Vec3(0.1, 0.2, 0.3), Vec3(0.3, -0.1, 0.2));
  const MechanismBody& b = free.bodies[0];
  const std::vector<double> hs = {0.1, 0.05, 0.025, 0.0125};
  std::vector<double> errs;
  for (double h : hs) {
    MechanismLGVI lgvi(free, h);
    MechanismState s = free.initialState();
    RigidBodyModel body;
    body.inertia = I;
    const LieGroupStepper builtIn(body, h);
    Mat3 R = R0;
    Vec3 Pi = I.cwiseProduct(omega);
    const long n = std::lround(10.0 / h);
    double worst = 0;
    for (long k = 0; k < n; ++k) {
      REQUIRE(lgvi.step(s).ok);
      REQUIRE(builtIn.step(R, Pi).ok);
      worst = std::max({worst, (s.R[0] - R).cwiseAbs().maxCoeff(), (s.Pi[0] - Pi).cwiseAbs().maxCoeff()});
    }
    CHECK(worst <= 1e-13);
    // The centre moves uniformly, exactly.
    CHECK((s.x[0] - (b.x + 10.0 * b.velocity)).cwiseAbs().maxCoeff() <= 1e-13);
    errs.push_back((s.Pi[0] - exactBody.Pi(10.0)).norm() / exactBody.Pi(10.0).norm());
  }
  const double order = fittedOrder(hs, errs);
  std::printf("[mechanism] free body from data, |ΔΠ(10)|/|Π| at h = 0.1..0.0125: %.2e %.2e %.2e %.2e, order %.3f\n",
              errs[0], errs[1], errs[2], errs[3], order);
  CHECK(std::abs(order - 2) <= 0.05);
}

TEST_CASE("mechanism LGVI: the compound double pendulum keeps its joints and J_z to rounding, its energy bounded",
          "[mechanism]") {
  MechanismModel m = compoundDoublePendulum(Vec3(0.8, -0.5, 0.3), Vec3(-1.1, 0.7, 0.4));
  m.validate();
  const double h = 0.01;
  const long steps = 1000000, every = 100;
  MechanismLGVI lgvi(m, h);
  MechanismState s = m.initialState();
  const double Jz0 = m.angularMomentum(s)[2];
  std::vector<double> E = {m.energy(s)};
  double joint = 0, velocityJoint = 0, Jz = 0;
  for (long k = 1; k <= steps; ++k) {
    REQUIRE(lgvi.step(s).ok);
    if (k % every) continue;
    E.push_back(m.energy(s));
    joint = std::max(joint, m.constraintError(s));
    velocityJoint = std::max(velocityJoint, m.velocityConstraintError(s));
    Jz = std::max(Jz, std::abs(m.angularMomentum(s)[2] - Jz0));
  }
  const double ratio = driftRatio(E), window = maxAbsDeviation(E) / std::abs(E[0]);
  std::printf(
      "[mechanism] compound double pendulum LGVI h = %.2g, %ld steps: joint %.2e, joint rate %.2e, J_z drift %.2e, "
      "energy window %.2e (ratio %.2f)\n",
      h, steps, joint, velocityJoint, Jz, window, ratio);
  CHECK(joint <= 1e-13);
  CHECK(velocityJoint <= 1e-12);
  CHECK(Jz <= 1e-11);
  CHECK(ratio <= 1.5);
}

TEST_CASE("mechanism LGVI: order 2, and 4 for its triple jump", "[mechanism]") {
  MechanismModel m = compoundDoublePendulum(Vec3(0.8, -0.5, 0.3), Vec3(-1.1, 0.7, 0.4));
  m.validate();
  const double T = 1.0;
  // The reference, independent of the method under test: the core's own equations of
  // motion (Newton–Euler with the joints' reactions) by DOP853 at rtol = atol = 1e-13.
  MechanismState exactEnd = m.initialState();
  REQUIRE(integrateFinely(m, exactEnd, T));
  const std::vector<double> hs = {0.04, 0.02, 0.01};
  std::vector<double> second, fourth;
  for (double h : hs) {
    MechanismLGVI lgvi(m, h);
    MechanismState s = m.initialState();
    run(lgvi, s, std::lround(T / h));
    second.push_back(distance(s, exactEnd));
    TripleJump tj(m, h);
    MechanismState c = m.initialState();
    tj.run(c, std::lround(T / h));
    fourth.push_back(distance(c, exactEnd));
  }
  const auto [order2, order4] = reportedOrders("compound double pendulum at T = 1 against DOP853 (rtol 1e-13), LGVI",
                                               hs, second, fourth, fittedOrder);
  CHECK(std::abs(order2 - 2) <= 0.05);
  CHECK(std::abs(order4 - 4) <= 0.2);
}

TEST_CASE("mechanism LGVI: a free mechanism keeps its linear and angular momentum to rounding (discrete Noether)",
          "[mechanism]") {
  // Two rods hinged end to end, tumbling in zero gravity: translations and rotations of
  // the whole leave L_d and the hinge invariant.
  // Thick rods (axial moment a tenth of the transverse one): with the thin rods of the
  // pendulum, the first rod's axial spin is a fast mode that h = 0.01 does not resolve
  // (the step is refused there; h = 0.001 runs).
  MechanismModel m = compoundDoublePendulum();
  for (MechanismBody& b : m.bodies) b.inertia(2, 2) = 0.1 * b.inertia(0, 0);
  m.gravity = Vec3::Zero();
  MechanismJoint& hinge = m.joints[1];
  hinge.kind = JointKind::Hinge;
  hinge.parentAxis = Vec3(0, 1, 0);
  hinge.childAxis = m.bodies[1].R.transpose() * m.bodies[0].R * Vec3(0, 1, 0);
  m.joints.erase(m.joints.begin());
  m.joints[0].kind = JointKind::Hinge;
  // Velocities: the first rod spins, the second follows about the hinge's axis.
  const Vec3 w1(0.6, -0.4, 0.9);
  const Vec3 axisSpace = m.bodies[0].R * Vec3(0, 1, 0);
  const Vec3 w2 = m.bodies[1].R.transpose() * (m.bodies[0].R * w1 + 1.3 * axisSpace);
  m.bodies[0].angularVelocity = w1;
  m.bodies[0].velocity = Vec3(0.2, 0.1, -0.3);
  const Vec3 endVelocity = m.bodies[0].velocity + m.bodies[0].R * w1.cross(Vec3(0, 0, -0.5));
  m.bodies[1].angularVelocity = w2;
  m.bodies[1].velocity = endVelocity - m.bodies[1].R * w2.cross(Vec3(0, 0, 0.5));
  // The centre of mass at rest, so that the bodies stay near the origin (x × p is then
  // not dominated by rounding in a growing x); a uniform velocity keeps the hinge.
  const Vec3 centre = (m.bodies[0].mass * m.bodies[0].velocity + m.bodies[1].mass * m.bodies[1].velocity) /
                      (m.bodies[0].mass + m.bodies[1].mass);
  for (MechanismBody& b : m.bodies) b.velocity -= centre;
  m.validate();
  MechanismLGVI lgvi(m, 0.01);
  MechanismState s = m.initialState();
  const Vec3 P0 = m.linearMomentum(s), L0 = m.angularMomentum(s);
  double dP = 0, dL = 0, joint = 0;
  for (int k = 0; k < 20000; ++k) {
    const StepOutcome out = lgvi.step(s);
    if (!out.ok) FAIL("step " << k << " refused: " << out.refusal.reason);
    dP = std::max(dP, (m.linearMomentum(s) - P0).cwiseAbs().maxCoeff());
    dL = std::max(dL, (m.angularMomentum(s) - L0).cwiseAbs().maxCoeff());
    joint = std::max(joint, m.constraintError(s));
  }
  std::printf("[mechanism] free hinged pair, 2e4 steps: |ΔP| %.2e, |ΔL| %.2e, joint %.2e\n", dP, dL, joint);
  CHECK(dP <= 1e-14);
  CHECK(dL <= 1e-12 * std::max(1.0, L0.norm()));
  CHECK(joint <= 1e-13);
}

}  // namespace test_mechanism_lgvi
