// The midpoint rule on unit quaternions for mechanisms (integrator `quaternion` on the
// `mechanism` system, core/src/integrators/mechanism_quaternion.cpp): its order against a
// DOP853 reference, the joints and |q| = 1 at every step, bounded energy against RK4's
// drift, the vertical angular momentum (discrete Noether), the free body against Jacobi's
// solution, and the same motion as the Lie-group step (on the constraint manifold its
// midpoint L_d is the Lie-group step's: Moser–Veselov's for the rotations, the same
// translational L_d for gravity, which is linear in x).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "mechanisms.hpp"
#include "support.hpp"
#include "vilab/exact/free_rigid_body.hpp"
#include "vilab/integrators/composition.hpp"
#include "vilab/integrators/mechanism_baselines.hpp"
#include "vilab/integrators/mechanism_lgvi.hpp"

namespace vilab {
// The registry's factories (core/src/table.cpp binds them).
std::unique_ptr<Integrator> quaternionOnMechanism(const Model&, const Options&, double);
std::unique_ptr<Integrator> rk4OnMechanism(const Model&, const Options&, double);
}  // namespace vilab

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_mechanism_quaternion {

namespace {

using namespace vilab;
using namespace vilab::test;
using testing::distance;

// The compound double pendulum of the shared fixture, turning, validated.
MechanismModel pendulum() {
  MechanismModel m = testing::compoundDoublePendulum(Vec3(0.8, -0.5, 0.3), Vec3(-1.1, 0.7, 0.4));
  m.validate();
  return m;
}

// An integrator of the registry on a mechanism, from its initial state.
struct Run {
  const MechanismModel& model;
  std::unique_ptr<Integrator> integrator;
  State state;
  Run(const MechanismModel& m, std::unique_ptr<Integrator> i) : model(m), integrator(std::move(i)) {
    state = model.initialCanonical();
    integrator->load(state);
  }
  void step() {
    const StepOutcome out = integrator->step();
    if (!out.ok) FAIL("step refused: " << out.refusal.reason);
    integrator->store(state);
  }
  MechanismState mechanism() const { return model.toMechanism(state); }
  // The largest | |q| − 1 | over the bodies.
  double unitError() const {
    double e = 0;
    for (int i = 0; i < model.bodyCount(); ++i)
      e = std::max(e, quaternionNormError(Vec4(state.q.segment<4>(7 * i + 3))));
    return e;
  }
};

Run quaternionRun(const MechanismModel& m, double h) { return Run(m, quaternionOnMechanism(Model(m), Options(), h)); }

}  // namespace

TEST_CASE("mechanism quaternion midpoint: order 2, and 4 for its triple jump, against DOP853", "[mechanism]") {
  // The compound double pendulum at T = 1; the triple jump (Yoshida) composes the step
  // through the registry's factory, negative substep included.
  const MechanismModel m = pendulum();
  const double T = 1.0;
  MechanismState exactEnd = m.initialState();
  REQUIRE(integrateFinely(m, exactEnd, T));
  const std::vector<double> hs = {0.04, 0.02, 0.01};
  std::vector<double> second, fourth;
  for (double h : hs) {
    Run run = quaternionRun(m, h);
    Run composed(m, std::make_unique<CompositionIntegrator>(Model(m), IntegratorFactory(&quaternionOnMechanism),
                                                            CompositionScheme::tripleJump(), h));
    for (long k = 0; k < std::lround(T / h); ++k) {
      run.step();
      composed.step();
    }
    second.push_back(distance(run.mechanism(), exactEnd));
    fourth.push_back(distance(composed.mechanism(), exactEnd));
  }
  const auto [order2, order4] = testing::reportedOrders("quaternion midpoint at T = 1 against DOP853 (rtol 1e-13)", hs,
                                                        second, fourth, fittedOrder);
  CHECK(std::abs(order2 - 2) <= 0.05);
  CHECK(std::abs(order4 - 4) <= 0.2);
}

TEST_CASE("mechanism quaternion midpoint: joints, |q| = 1 and J_z to rounding, energy bounded where RK4 drifts",
          "[mechanism]") {
  // h = 0.01 over 1e5 steps (1000 s), as the RK4 baseline's drift test.
  const MechanismModel m = pendulum();
  const double h = 0.01;
  const long steps = 100000, every = 10;
  Run run = quaternionRun(m, h);
  Run rk4(m, rk4OnMechanism(Model(m), Options(), h));
  const MechanismState s0 = run.mechanism();
  const double Jz0 = m.angularMomentum(s0)[2];
  std::vector<double> E = {m.energy(s0)}, Erk4 = E;
  double joint = 0, velocityJoint = 0, unit = 0, Jz = 0;
  for (long k = 1; k <= steps; ++k) {
    run.step();
    rk4.step();
    if (k % every) continue;
    const MechanismState s = run.mechanism();
    E.push_back(m.energy(s));
    Erk4.push_back(m.energy(rk4.mechanism()));
    joint = std::max(joint, m.constraintError(s));
    velocityJoint = std::max(velocityJoint, m.velocityConstraintError(s));
    unit = std::max(unit, run.unitError());
    Jz = std::max(Jz, std::abs(m.angularMomentum(s)[2] - Jz0));
  }
  const double ratio = driftRatio(E), ratioRk4 = driftRatio(Erk4);
  std::printf(
      "[mechanism] compound double pendulum, quaternion midpoint h = %.2g, %ld steps: joint %.2e, joint rate %.2e, "
      "| |q| - 1 | %.2e, J_z drift %.2e, energy window %.2e (ratio %.2f); RK4 ratio %.2f\n",
      h, steps, joint, velocityJoint, unit, Jz, maxAbsDeviation(E) / std::abs(E[0]), ratio, ratioRk4);
  CHECK(joint <= 1e-12);
  CHECK(velocityJoint <= 1e-12);
  CHECK(unit <= 1e-12);
  CHECK(Jz <= 1e-11);
  CHECK(ratio <= 1.5);
  CHECK(ratioRk4 >= 3);
}

TEST_CASE("mechanism quaternion midpoint: the free body keeps RΠ and |Π|, second order against Jacobi", "[mechanism]") {
  const Vec3 I(1, 2.8, 2), omega(0.5, 0.3, 0.4);
  const Vec4 q0 = Vec4(0.9, 0.2, -0.3, 0.25).normalized();
  const exact::FreeRigidBodyExact exactBody(I, q0, omega);
  const MechanismModel free = testing::freeBody(I, quat::matrix(q0), omega, Vec3(0.1, 0.2, 0.3), Vec3(0.3, -0.1, 0.2));
  const MechanismBody& b = free.bodies[0];
  const std::vector<double> hs = {0.1, 0.05, 0.025, 0.0125};
  std::vector<double> errs;
  for (double h : hs) {
    Run run = quaternionRun(free, h);
    const MechanismState s0 = run.mechanism();
    const Vec3 spatial0 = s0.R[0] * s0.Pi[0];
    double spatial = 0, size = 0;
    for (long k = 0; k < std::lround(10.0 / h); ++k) {
      run.step();
      const MechanismState s = run.mechanism();
      spatial = std::max(spatial, (s.R[0] * s.Pi[0] - spatial0).cwiseAbs().maxCoeff());
      size = std::max(size, std::abs(s.Pi[0].norm() - s0.Pi[0].norm()));
    }
    const MechanismState s = run.mechanism();
    CHECK(spatial <= 1e-13);
    CHECK(size <= 1e-13);
    // The centre moves uniformly, exactly.
    CHECK((s.x[0] - (b.x + 10.0 * b.velocity)).cwiseAbs().maxCoeff() <= 1e-13);
    errs.push_back((s.Pi[0] - exactBody.Pi(10.0)).norm() / exactBody.Pi(10.0).norm());
  }
  const double order = fittedOrder(hs, errs);
  std::printf(
      "[mechanism] free body, quaternion midpoint, |ΔΠ(10)|/|Π| at h = 0.1..0.0125: %.2e %.2e %.2e %.2e, "
      "order %.3f\n",
      errs[0], errs[1], errs[2], errs[3], order);
  CHECK(std::abs(order - 2) <= 0.05);
}

TEST_CASE("mechanism quaternion midpoint: the Lie-group step's motion to rounding, on every scene's joints",
          "[mechanism]") {
  // Ball, hinge and fixed joints: the scenes of scenes/mechanisms, through the registry,
  // the gravity-gradient satellite's potential V(R, t) included (both steps take the
  // loads half at each end, so they are one forced DEL on the constraint manifold).
  for (const char* name : testing::kMechanismScenes) {
    Json scenario = testing::mechanismScene(name);
    scenario.erase("about");
    auto endState = [&](const char* integrator) {
      scenario["integrator"] = integrator;
      Simulation sim = simulate(scenario.dump(), 100, 1 << 12);
      run(sim, 2000);
      return sim.state();
    };
    const State quaternion = endState("quaternion"), lieGroup = endState("lie-group");
    const double dq = maxDifference(quaternion.q, lieGroup.q), dp = maxDifference(quaternion.p, lieGroup.p);
    INFO(name << ": after 2000 steps |Δq| " << dq << ", |Δp| " << dp);
    CHECK(dq <= 1e-10);
    CHECK(dp <= 1e-9);
  }
}

TEST_CASE("mechanism quaternion midpoint: a fixed joint's pair and a hinge chain against the Lie-group step",
          "[mechanism]") {
  // The pendulum with its lower joint fixed (the two rods one rigid body) and then hinged.
  // Thick rods (axial moment a tenth of the transverse one): the thin rods' axial spin is a
  // fast mode that h = 0.01 resolves poorly, and there the two Newton solves, each within
  // its matrix's rounding floor, part by up to 5e-7 after 1000 steps.
  for (const JointKind kind : {JointKind::Fixed, JointKind::Hinge}) {
    const MechanismModel m = testing::jointedPair(kind);
    Run run = quaternionRun(m, 0.01);
    MechanismLGVI lgvi(m, 0.01);
    MechanismState s = m.initialState();
    double joint = 0;
    for (int k = 0; k < 1000; ++k) {
      run.step();
      REQUIRE(lgvi.step(s).ok);
      joint = std::max(joint, m.constraintError(run.mechanism()));
    }
    INFO((kind == JointKind::Fixed ? "fixed" : "hinge") << ": distance " << distance(run.mechanism(), s));
    CHECK(distance(run.mechanism(), s) <= 1e-10);
    CHECK(joint <= 1e-12);
  }
}

TEST_CASE("mechanism quaternion midpoint: the registry offers it on mechanisms, and it runs the default",
          "[mechanism]") {
  const std::vector<std::string> ids = integratorsOf(*findSystem("mechanism"));
  CHECK(std::find(ids.begin(), ids.end(), "quaternion") != ids.end());
  CHECK(findIntegrator("quaternion")->order == 2);
  Simulation sim = simulate(Json{{"system", "mechanism"}, {"integrator", "quaternion"}}.dump());
  run(sim, 1000);
  const Diagnostics d = sim.diagnostics();
  CHECK(d.constraint <= 1e-12);
  // Newton converges quadratically from the free-flight start: 2 or 3 iterations here. A
  // Newton matrix with one block 20 % off (the joint forces' columns) took 17 to 19.
  CHECK(maxAbs(column(sim, "iterations")) <= 3);
  // It models forcing on mechanisms (test_mechanism_loads.cpp); its rigid-body step has no
  // load terms, so a forced rigid body refuses it, naming the integrator and the ones that
  // do; the registry says so per system.
  for (const char* system : {"rigid-body", "heavy-top"})
    CHECK_THROWS_WITH(
        simulate(Json{{"system", system}, {"integrator", "quaternion"}, {"params", {{"damping", 0.1}}}}.dump()),
        Catch::Contains(
            "integrator: \"quaternion\" does not model forcing, and this system is forced (damping, "
            "torque or a driving force): use one of: composition4, composition6, lie-group, rk4, euler, dopri5"));
  const Json entry = findIntegrator("quaternion")->toJson();
  CHECK(entry["forces"] == false);
  CHECK(entry["forcedSystems"] == Json::array({"mechanism"}));
  CHECK(entry["systems"] == Json::array({"rigid-body", "heavy-top", "mechanism"}));
  CHECK(findIntegrator("lie-group")->toJson()["forces"] == true);
  Simulation unforced = simulate(Json{{"system", "rigid-body"}, {"integrator", "quaternion"}}.dump());
  run(unforced, 10);
}

}  // namespace test_mechanism_quaternion
