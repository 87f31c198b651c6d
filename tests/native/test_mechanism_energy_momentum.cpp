// Gonzalez's energy–momentum scheme on mechanisms (integrator `energy-momentum` on the
// `mechanism` system, core/src/integrators/mechanism_energy_momentum.cpp, Betsch &
// Steinmann's directors): the energy to Newton's tolerance on the scenes where the
// Lie-group step's oscillates (the control a symplectic-but-not-EM method fails), the
// angular momentum's conserved components, the joints and the directors' orthonormality,
// order 2 against DOP853, and the refusals of what it does not conserve.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "mechanisms.hpp"
#include "support.hpp"
#include "vilab/integrators/mechanism_baselines.hpp"
#include "vilab/integrators/mechanism_energy_momentum.hpp"

namespace {

using namespace vilab;
using namespace vilab::test;

// The scenes the claims are measured on: ball joints, hinges, a free flat body (the
// T-handle, whose normal director carries no inertia).
const char* const kScenes[] = {"compound-double-pendulum", "physical-pendulum", "lagrange-top", "gyroscope",
                               "middle-axis"};

// A scene's scenario with `integrator`, without its `about` block.
Json sceneWith(const char* name, const char* integrator) {
  Json scenario = testing::mechanismScene(name);
  scenario.erase("about");
  scenario["integrator"] = integrator;
  return scenario;
}

struct Drift {
  double energy = 0, momentum = 0, joint = 0, director = 0, hidden = 0;
};

// The largest relative energy and momentum errors over `steps` steps of the scene, the
// joints' gap and (for energy-momentum) the directors' error at every step. `components`:
// the angular momentum's conserved components (z alone under gravity; all three free).
Drift measure(const char* name, const char* integrator, long steps) {
  const Json scenario = sceneWith(name, integrator);
  const Scenario parsed = parseScenario(scenario.dump());
  const MechanismModel& model = std::get<MechanismModel>(parsed.model);
  const bool free = model.gravity.squaredNorm() == 0 && model.joints.empty();
  std::unique_ptr<Integrator> step;
  MechanismEnergyMomentum* core = nullptr;
  if (std::string(integrator) == "energy-momentum") {
    auto made =
        std::make_unique<CanonicalIntegrator<MechanismEnergyMomentum>>(MechanismEnergyMomentum(model, parsed.h));
    core = &made->core();
    step = std::move(made);
  } else {
    step = makeIntegrator(parsed);
  }
  State s = model.initialCanonical();
  step->load(s);
  step->store(s);
  const Diagnostics d0 = model.diagnostics(s);
  const double Jscale = std::max(1e-300, Vec3(d0.momentum[0], d0.momentum[1], d0.momentum[2]).norm());
  Drift out;
  for (long k = 0; k < steps; ++k) {
    const StepOutcome outcome = step->step();
    if (!outcome.ok) FAIL(name << ": step " << k << " refused: " << outcome.refusal.reason);
    step->store(s);
    const Diagnostics d = model.diagnostics(s);
    out.energy = std::max(out.energy, std::abs(d.energy - d0.energy) / std::abs(d0.energy));
    for (int a = free ? 0 : 2; a < 3; ++a)
      out.momentum = std::max(out.momentum, std::abs(d.momentum[a] - d0.momentum[a]) / Jscale);
    out.joint = std::max(out.joint, d.constraint);
    if (core) {
      out.director = std::max(out.director, core->directorError());
      out.hidden = std::max(out.hidden, core->hiddenConstraintError());
    }
  }
  return out;
}

}  // namespace

TEST_CASE(
    "mechanism energy-momentum: energy and momentum to 1e-12 over 1e4 steps where the Lie-group step's energy "
    "oscillates",
    "[mechanism]") {
  const long steps = 10000;
  for (const char* name : kScenes) {
    // The control: a method that is not energy-conserving. The symplectic Lie-group step
    // keeps the energy only in a band, except on the free body, where it is Moser–Veselov's
    // map, which keeps the energy too: there RK4 is the control.
    const bool free = std::string(name) == "middle-axis";
    const Drift em = measure(name, "energy-momentum", steps),
                control = measure(name, free ? "rk4" : "lie-group", steps);
    std::printf(
        "[mechanism] %s, energy-momentum, %ld steps: energy %.2e, momentum %.2e, joints %.2e, directors %.2e, "
        "joint rates %.2e; %s energy %.2e\n",
        name, steps, em.energy, em.momentum, em.joint, em.director, em.hidden, free ? "rk4" : "lie-group",
        control.energy);
    INFO(name);
    CHECK(em.energy <= 1e-12);
    CHECK(em.momentum <= 1e-12);
    CHECK(em.joint <= 1e-12);
    CHECK(em.director <= 1e-12);
    CHECK(em.hidden <= 1e-12);
    // The bound tells them apart: the controls' errors are 2.5e-7 (the gyroscope's band at
    // its h = 0.002) to 8e-5 under gravity, and RK4's 2.5e-11 on the free T-handle.
    CHECK(control.energy >= 10 * 1e-12);
  }
}

TEST_CASE("mechanism energy-momentum: order 2 against DOP853 on the compound double pendulum", "[mechanism]") {
  MechanismModel m = testing::compoundDoublePendulum(Vec3(0.8, -0.5, 0.3), Vec3(-1.1, 0.7, 0.4));
  m.validate();
  const double T = 1.0;
  MechanismState exactEnd = m.initialState();
  REQUIRE(integrateFinely(m, exactEnd, T));
  const std::vector<double> hs = {0.04, 0.02, 0.01};
  std::vector<double> errors;
  for (double h : hs) {
    CanonicalIntegrator<MechanismEnergyMomentum> step(MechanismEnergyMomentum(m, h));
    State s = m.initialCanonical();
    step.load(s);
    for (long k = 0; k < std::lround(T / h); ++k) REQUIRE(step.step().ok);
    step.store(s);
    errors.push_back(testing::distance(m.toMechanism(s), exactEnd));
  }
  const double order = fittedOrder(hs, errors);
  std::printf("[mechanism] energy-momentum at T = 1 against DOP853: errors %.2e %.2e %.2e (order %.3f)\n", errors[0],
              errors[1], errors[2], order);
  CHECK(std::abs(order - 2) <= 0.05);
}

TEST_CASE("mechanism energy-momentum: refuses a potential, applied torques and damping, naming the integrator",
          "[mechanism]") {
  const Json base = sceneWith("physical-pendulum", "energy-momentum");
  REQUIRE(refusedAt(base).empty());
  Json potential = base, torque = base, damping = base, linear = base;
  potential["params"]["potential"] = "z0^2";
  torque["params"]["bodies"][0]["torque"] = Json::array({"0", "0", "1"});
  damping["params"]["bodies"][0]["damping"] = 0.1;
  linear["params"]["bodies"][0]["linearDamping"] = 0.1;
  const std::pair<Json*, const char*> cases[] = {
      {&potential, "potential"}, {&torque, "torque"}, {&damping, "damping"}, {&linear, "linear damping"}};
  for (const auto& [scenario, why] : cases) {
    INFO(why);
    CHECK(refusedAt(*scenario) == "integrator");
    try {
      parseScenario(scenario->dump());
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find(why) != std::string::npos);
    }
  }
}

TEST_CASE("mechanism energy-momentum: a fixed joint's pair and a hinge chain keep energy, J_z and joints",
          "[mechanism]") {
  // The compound double pendulum with its lower joint fixed (the two rods one rigid body)
  // and then hinged, as the quaternion midpoint's test builds them; 2000 steps at h = 0.01.
  for (const JointKind kind : {JointKind::Fixed, JointKind::Hinge}) {
    const MechanismModel m = testing::jointedPair(kind);
    CanonicalIntegrator<MechanismEnergyMomentum> step(MechanismEnergyMomentum(m, 0.01));
    State s = m.initialCanonical();
    step.load(s);
    step.store(s);
    const Diagnostics d0 = m.diagnostics(s);
    double energy = 0, Jz = 0, joint = 0;
    for (int k = 0; k < 2000; ++k) {
      REQUIRE(step.step().ok);
      step.store(s);
      const Diagnostics d = m.diagnostics(s);
      energy = std::max(energy, std::abs(d.energy - d0.energy) / std::abs(d0.energy));
      Jz = std::max(Jz, std::abs(d.momentum[2] - d0.momentum[2]) / std::abs(d0.momentum[2]));
      joint = std::max(joint, d.constraint);
    }
    std::printf("[mechanism] energy-momentum, %s pair, 2000 steps: energy %.2e, J_z %.2e, joints %.2e\n",
                kind == JointKind::Fixed ? "fixed" : "hinge", energy, Jz, joint);
    CHECK(energy <= 1e-12);
    CHECK(Jz <= 1e-12);
    CHECK(joint <= 1e-12);
  }
}
