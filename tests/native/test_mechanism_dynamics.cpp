// The equations of motion of a mechanism (models/mechanism_dynamics.hpp) and the projected
// RK4 baseline and DOP853 reference on them (integrators/mechanism_baselines.hpp), and the
// registry's DOPRI5 (runge_kutta.hpp's DormandPrince on their canonical form).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "mechanisms.hpp"
#include "support.hpp"
#include "vilab/integrators/mechanism_baselines.hpp"
#include "vilab/integrators/runge_kutta.hpp"
#include "vilab/models/mechanism_dynamics.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_mechanism_dynamics {

namespace {

using namespace vilab;
using namespace vilab::test;
using vilab::testing::rod;
using vilab::testing::rotation;
using vilab::testing::stateDistance;

// The compound double pendulum of the shared fixture (mechanisms.hpp), validated.
MechanismModel compoundDoublePendulum() {
  MechanismModel m = testing::compoundDoublePendulum();
  m.validate();
  return m;
}

// The registry's `dopri5` on a mechanism: the project's DormandPrince on the canonical
// ODE (per body x, quaternion, p, Π), stepping by h with adaptive substeps.
class RegistryDopri5 {
 public:
  RegistryDopri5(const MechanismModel& m, double tol, double h, bool projects = true)
      : model_(m), dopri_(MechanismCanonicalOde(m, projects), h, tol), h_(h) {}
  void load(const MechanismState& s) {
    State c;
    model_.store(s, c);
    dopri_.load(c);
    t_ = s.t;
  }
  // Steps until t + duration (a multiple of h); false at a refused step.
  bool advance(double duration) {
    for (long k = std::lround(duration / h_); k > 0; --k) {
      const StepOutcome out = dopri_.step();
      if (!out.ok) return false;
      accepted_ += out.iterations;
      t_ += h_;
    }
    return true;
  }
  void store(MechanismState& s) const {
    State c;
    dopri_.store(c);
    s = model_.toMechanism(c);
    s.t = t_;
  }
  long acceptedSubsteps() const { return accepted_; }
  std::uint64_t rejectedSubsteps() const { return dopri_.rejectedSubsteps(); }

 private:
  const MechanismModel& model_;
  DormandPrince<MechanismCanonicalOde> dopri_;
  double h_, t_ = 0;
  long accepted_ = 0;
};

// Three bodies with every joint kind: a box on a hinge to the world (axis tilted from
// gravity), a second box welded to it by a fixed joint, a rod on a ball joint below;
// all moving at t = 0 with velocities that keep the joints closed.
MechanismModel everyJointKind() {
  MechanismModel m;
  MechanismBody box;
  box.mass = 2;
  box.inertia << 0.3, 0.02, -0.01, 0.02, 0.4, 0.03, -0.01, 0.03, 0.5;
  box.R = rotation(Vec3(0.3, -1, 0.4), 0.6);
  const Vec3 hingePoint(0.1, 0.2, 0.4), axisBody = Vec3(1, 0.2, 0.1).normalized();
  box.x = -box.R * hingePoint;
  const Vec3 omega0 = 1.7 * axisBody;  // about the hinge axis, body frame
  box.angularVelocity = omega0;
  box.velocity = box.R * omega0.cross(-hingePoint);
  MechanismBody welded = box;
  welded.mass = 0.7;
  welded.inertia = Vec3(0.05, 0.06, 0.08).asDiagonal();
  welded.R = box.R * rotation(Vec3(0, 0, 1), 0.5);
  const Vec3 weldPoint(0.3, -0.1, -0.2);  // on the box, its body frame
  welded.x = box.x + box.R * weldPoint;
  welded.angularVelocity = welded.R.transpose() * (box.R * omega0);
  welded.velocity = box.velocity + (box.R * omega0).cross(box.R * weldPoint);
  MechanismBody arm = rod(0.4, 0.8, rotation(Vec3(1, 1, 0), 0.9), Vec3::Zero());
  const Vec3 armTop(0, 0, 0.4), tip(0.2, 0.1, -0.3);  // tip on the welded body
  const Vec3 tipSpace = welded.x + welded.R * tip;
  arm.x = tipSpace - arm.R * armTop;
  arm.angularVelocity = Vec3(0.8, -1.1, 0.2);
  const Vec3 tipVelocity = welded.velocity + (welded.R * welded.angularVelocity).cross(welded.R * tip);
  arm.velocity = tipVelocity - (arm.R * arm.angularVelocity).cross(arm.R * armTop);
  m.bodies = {box, welded, arm};
  MechanismJoint hinge;
  hinge.kind = JointKind::Hinge;
  hinge.child = 0;
  hinge.childPoint = hingePoint;
  hinge.parentAxis = box.R * axisBody;
  hinge.childAxis = axisBody;
  MechanismJoint weld;
  weld.kind = JointKind::Fixed;
  weld.parent = 0;
  weld.child = 1;
  weld.parentPoint = weldPoint;
  MechanismJoint ball;
  ball.parent = 1;
  ball.child = 2;
  ball.parentPoint = tip;
  ball.childPoint = armTop;
  m.joints = {hinge, weld, ball};
  m.validate();
  return m;
}

// G(R) v for the orientations R_i exp(t ω̂_i), v fixed.
VecX velocityConstraintAlong(const MechanismModel& m, const std::vector<Mat3>& R, const VecX& v, double t) {
  std::vector<Mat3> Rt = R;
  for (std::size_t i = 0; i < R.size(); ++i) {
    const Vec3 w = v.segment<3>(6 * i + 3);
    Rt[i] = R[i] * rotation(w, t * w.norm());
  }
  Eigen::MatrixXd G(m.constraintCount(), 6 * static_cast<int>(R.size()));
  m.constraintJacobian(m.positions(), Rt, G);
  return G * v;
}

}  // namespace

TEST_CASE("mechanism dynamics: Ġv equals finite differences of G(R(t)) v for ball, hinge and fixed joints",
          "[mechanism]") {
  for (const MechanismModel& m : {compoundDoublePendulum(), everyJointKind()}) {
    const int n = static_cast<int>(m.bodies.size());
    // v need not satisfy G v = 0: Ġv is a property of G alone.
    VecX v(6 * n);
    for (int k = 0; k < v.size(); ++k) v[k] = std::sin(1.3 * k + 0.4) * (1 + 0.5 * (k % 3));
    VecX exact(m.constraintCount());
    constraintVelocityProduct(m, m.positions(), m.orientations(), v, exact);
    const double eps = 1e-5;
    const VecX fd =
        (velocityConstraintAlong(m, m.orientations(), v, eps) - velocityConstraintAlong(m, m.orientations(), v, -eps)) /
        (2 * eps);
    const double scale = exact.cwiseAbs().maxCoeff(), error = (fd - exact).cwiseAbs().maxCoeff();
    INFO("|Ġv|∞ " << scale << ", |Ġv − finite differences|∞ " << error);
    CHECK(scale > 0.5);           // not trivially zero
    CHECK(error < 1e-8 * scale);  // central differences at ε = 1e-5: O(ε²)
    // Negative control: Ġv with the hinge's and fixed joint's rows taken as zero (a ball-only
    // formula) misses by O(1).
    VecX ballOnly = exact;
    if (m.joints[0].kind == JointKind::Hinge) {
      ballOnly.segment(3, 2).setZero();
      CHECK((fd - ballOnly).cwiseAbs().maxCoeff() > 1e-2 * scale);
    }
  }
}

TEST_CASE("mechanism dynamics: accelerations satisfy G a = −Ġv and the bare equations keep g, G v and E",
          "[mechanism]") {
  for (const MechanismModel& m : {compoundDoublePendulum(), everyJointKind()}) {
    const MechanismDynamics dyn(m);
    const MechanismState s0 = m.initialState();
    const MechanismRates r = dyn.rates(s0);
    const int n = static_cast<int>(m.bodies.size());
    VecX a(6 * n);
    for (int i = 0; i < n; ++i) {
      a.segment<3>(6 * i) = r.pdot[i] / m.bodies[i].mass;
      // J ω̇ = Π̇ − ω × J ω... Π = J ω in the body frame, so ω̇ = J⁻¹ Π̇.
      a.segment<3>(6 * i + 3) = dyn.inverseInertia(i) * r.Pidot[i];
    }
    const Eigen::MatrixXd G = m.constraintJacobian();
    VecX gv(m.constraintCount());
    constraintVelocityProduct(m, s0.x, s0.R, dyn.velocities(s0.p, s0.Pi), gv);
    CHECK((G * a + gv).cwiseAbs().maxCoeff() < 1e-12);
    // The bare index-1 system, integrated tightly without projection for 5 s: it keeps the
    // constraints and the energy to the integration error (a wrong Ġv drifts off g = 0,
    // a wrong reaction or gyroscopic sign changes E).
    RegistryDopri5 bare(m, 1e-12, 5.0, false);
    bare.load(s0);
    REQUIRE(bare.advance(5.0));
    MechanismState s;
    bare.store(s);
    const double e0 = m.energy(s0);
    INFO("after 5 s: constraint " << m.constraintError(s) << ", velocity constraint " << m.velocityConstraintError(s)
                                  << ", |ΔE| " << std::abs(m.energy(s) - e0));
    CHECK(m.constraintError(s) < 1e-10);
    CHECK(m.velocityConstraintError(s) < 1e-10);
    CHECK(std::abs(m.energy(s) - e0) < 1e-9 * std::max(1.0, std::abs(e0)));
    CHECK(stateDistance(s, s0) > 0.1);  // it moved
    // Hanging from the origin under vertical gravity, the double pendulum keeps L_z.
    if (m.joints[0].kind == JointKind::Ball) {
      const double drift = std::abs(m.angularMomentum(s)[2] - m.angularMomentum(s0)[2]);
      INFO("L_z drift " << drift);
      CHECK(drift < 1e-10);
    }
  }
}

TEST_CASE("mechanism dynamics: a free asymmetric body keeps its spatial angular momentum RΠ", "[mechanism]") {
  // Without joints the equations are Euler's, Π̇ = Π × ω: a wrong gyroscopic sign keeps
  // the energy but turns RΠ.
  MechanismModel m;
  MechanismBody b;
  b.inertia = Vec3(1, 2, 3).asDiagonal();
  b.R = rotation(Vec3(1, 2, 3), 0.8);
  b.angularVelocity = Vec3(0.3, 1.5, 0.2);  // near the unstable middle axis: Π tumbles
  b.velocity = Vec3(0.5, 0, 1);
  m.bodies = {b};
  m.validate();
  const MechanismState s0 = m.initialState();
  MechanismDop853 fine(m, 1e-13, 1e-13);
  fine.load(s0);
  REQUIRE(fine.advance(10.0));
  MechanismState s;
  fine.store(s);
  const Vec3 L0 = s0.R[0] * s0.Pi[0], L = s.R[0] * s.Pi[0];
  INFO("|RΠ − R₀Π₀| " << (L - L0).norm() << ", |Π − Π₀| " << (s.Pi[0] - s0.Pi[0]).norm());
  CHECK((L - L0).norm() < 1e-11);
  CHECK((s.Pi[0] - s0.Pi[0]).norm() > 0.5);  // the body-frame momentum moved
  CHECK(std::abs(m.energy(s) - m.energy(s0)) < 1e-11);
  // Free fall: x = x₀ + v₀ t + ½ g t².
  const Vec3 x = s0.x[0] + 10.0 * b.velocity + 50.0 * m.gravity;
  CHECK((s.x[0] - x).norm() < 1e-11 * x.norm());
}

TEST_CASE("mechanism baselines: the DOP853 reference agrees with itself at 1e-12 and with DOPRI5 at 1e-13",
          "[mechanism]") {
  for (const MechanismModel& m : {compoundDoublePendulum(), everyJointKind()}) {
    MechanismState fine = m.initialState();
    REQUIRE(integrateFinely(m, fine, 1.0));
    const auto run = [&](auto&& method) {
      method.load(m.initialState());
      REQUIRE(method.advance(1.0));
      MechanismState s;
      method.store(s);
      return stateDistance(fine, s);
    };
    const double looser = run(MechanismDop853(m, 1e-12, 1e-12)), dopri = run(RegistryDopri5(m, 1e-13, 1.0));
    INFO("|DOP853(1e-13) − DOP853(1e-12)| " << looser << ", |DOP853(1e-13) − DOPRI5(1e-13)| " << dopri);
    CHECK(looser < 2e-12);
    CHECK(dopri < 2e-12);
  }
}

// The error of projected RK4 at T = 1 s against the DOP853 reference, at T/steps.
std::vector<double> rk4Errors(const MechanismModel& m, const std::vector<int>& stepCounts) {
  MechanismState reference = m.initialState();
  const double T = 1.0;
  REQUIRE(integrateFinely(m, reference, T));
  std::vector<double> errors;
  for (const int steps : stepCounts) {
    MechanismProjectedRk4 rk4(m, T / steps);
    rk4.load(m.initialState());
    for (int k = 0; k < steps; ++k) REQUIRE(rk4.step());
    MechanismState s;
    rk4.store(s);
    errors.push_back(stateDistance(s, reference));
  }
  return errors;
}

TEST_CASE(
    "mechanism baselines: projected RK4 has order 4 on the compound double pendulum and on a hinge, fixed and ball "
    "mechanism",
    "[mechanism]") {
  const std::vector<int> stepCounts{80, 160, 320, 640};
  for (const MechanismModel& m : {compoundDoublePendulum(), everyJointKind()}) {
    const std::vector<double> errors = rk4Errors(m, stepCounts);
    const std::vector<double> orders = observedOrders(errors);
    for (std::size_t i = 0; i < orders.size(); ++i) {
      INFO("h = 1/" << stepCounts[i] << " → 1/" << stepCounts[i + 1] << ": errors " << errors[i] << ", "
                    << errors[i + 1] << ", order " << orders[i]);
      CHECK(orders[i] == Approx(4.0).margin(0.2));
    }
    CHECK(errors.back() > 50 * 2e-12);  // above the reference's own error (< 2e-12, checked above)
  }
}

TEST_CASE("mechanism baselines: projection holds the joints at rounding and RK4's energy drifts", "[mechanism]") {
  // h = 0.01 over 1e5 steps (1000 s): the drift grows linearly, so the last tenth's
  // deviation is several times the first's; a symplectic method stays bounded (ratio ≈ 1).
  const MechanismModel m = compoundDoublePendulum();
  const int steps = 100000;
  MechanismProjectedRk4 rk4(m, 0.01);
  MechanismState s = m.initialState();
  rk4.load(s);
  double g = 0, gv = 0;
  std::vector<double> E{m.energy(s)};
  for (int k = 0; k < steps; ++k) {
    REQUIRE(rk4.step());
    rk4.store(s);
    g = std::max(g, m.constraintError(s));
    gv = std::max(gv, m.velocityConstraintError(s));
    E.push_back(m.energy(s));
  }
  const double ratio = driftRatio(E);
  std::printf(
      "[mechanism] projected RK4, compound double pendulum, h = 0.01, 1e5 steps: constraint %.1e, "
      "velocity constraint %.1e, energy window ratio %.2f, max |dE| %.1e\n",
      g, gv, ratio, maxAbsDeviation(E));
  CHECK(g < 1e-14);
  CHECK(gv < 1e-13);
  CHECK(ratio >= 3);
  CHECK(E.back() < E.front());  // RK4 dissipates here
}

TEST_CASE("mechanism baselines: adaptive DOPRI5 meets its tolerance, stays on the joints, repeats its bits",
          "[mechanism]") {
  const MechanismModel m = everyJointKind();
  MechanismState reference = m.initialState();
  const double T = 2.0;
  REQUIRE(integrateFinely(m, reference, T));
  std::vector<double> errors;
  for (const double tol : {1e-6, 1e-8, 1e-10}) {
    RegistryDopri5 dopri(m, tol, T / 20);
    dopri.load(m.initialState());
    double g = 0;
    MechanismState s;
    for (int k = 0; k < 20; ++k) {
      REQUIRE(dopri.advance(T / 20));
      dopri.store(s);
      g = std::max({g, m.constraintError(s), m.velocityConstraintError(s)});
    }
    errors.push_back(stateDistance(s, reference));
    INFO("tol " << tol << ": error " << errors.back() << ", constraint " << g << ", substeps "
                << dopri.acceptedSubsteps() << " accepted, " << dopri.rejectedSubsteps() << " rejected");
    CHECK(errors.back() < 1e3 * tol);
    CHECK(g < 1e-13);
  }
  // Tolerance proportionality: 100× tighter gives at least 30× smaller errors.
  CHECK(errors[0] > 30 * errors[1]);
  CHECK(errors[1] > 30 * errors[2]);
  // The same run twice: the same bits.
  MechanismState a, b;
  for (MechanismState* out : {&a, &b}) {
    RegistryDopri5 dopri(m, 1e-8, T / 20);
    dopri.load(m.initialState());
    REQUIRE(dopri.advance(T));
    dopri.store(*out);
  }
  CHECK(stateDistance(a, b) == 0);
}

TEST_CASE("mechanism baselines: a bad step or tolerance is refused by name, a bad advance keeps the state",
          "[mechanism]") {
  const MechanismModel m = compoundDoublePendulum();
  const auto field = [](auto&& make) -> std::string {
    try {
      make();
    } catch (const InputError& e) {
      return e.field();
    }
    return "";
  };
  const double nan = std::nan("");
  CHECK(field([&] { MechanismProjectedRk4(m, 0.0); }) == "h");
  CHECK(field([&] { MechanismProjectedRk4(m, -0.01); }) == "h");
  CHECK(field([&] { MechanismProjectedRk4(m, nan); }) == "h");
  CHECK(field([&] { MechanismProjectedRk4(m, 0.01); }).empty());
  CHECK(field([&] { MechanismDop853(m, 0.0, 1e-8); }) == "rtol");
  CHECK(field([&] { MechanismDop853(m, nan, 1e-8); }) == "rtol");
  CHECK(field([&] { MechanismDop853(m, 1e-8, -1.0); }) == "atol");
  CHECK(field([&] { MechanismDop853(m, 1e-8, std::numeric_limits<double>::infinity()); }) == "atol");
  CHECK(field([&] { MechanismDop853(m, 1e-8, 0.0); }).empty());
  MechanismDop853 dopri(m, 1e-8, 1e-8);
  dopri.load(m.initialState());
  REQUIRE(dopri.advance(0.1));
  MechanismState before, after;
  dopri.store(before);
  CHECK_FALSE(dopri.advance(nan));
  CHECK_FALSE(dopri.advance(-0.1));
  dopri.store(after);
  CHECK(stateDistance(before, after) == 0);
  CHECK(after.t == before.t);
}

}  // namespace test_mechanism_dynamics
