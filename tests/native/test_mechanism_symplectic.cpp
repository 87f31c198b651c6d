// Symplecticity of the mechanism integrators, measured: the Jacobian J of the 50-step
// map read in canonical coordinates of T*Q (mechanism_chart.hpp) must satisfy
// JᵀΩJ = Ω to 1e-9 for every entry that claims the symplectic form, on every scene of
// scenes/mechanisms at the scene's own h (ball, hinge and free bodies; a time-dependent
// potential), and RK4 must fail that threshold (the negative control). Measured: the
// symplectic entries 1.4e-12 – 1.7e-10, RK4 5.2e-9 – 2.5e-5, DOPRI5 2.0e-11 – 1.3e-7
// (reported, not required: its error control makes it nearly symplectic at small h).
#include <catch2/catch.hpp>

#include "charts.hpp"
#include "mechanism_chart.hpp"
#include "mechanisms.hpp"
#include "support.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

// The map z ↦ z' of `steps` steps in charts centred on the start and the end of the
// unperturbed run.
struct MechanismMap {
  Simulation sim;
  const MechanismModel& model;
  State initial;
  MechanismChart start, end;
  long steps;
  MechanismMap(const std::string& scenario, long n)
      : sim(simulate(scenario, 1000000)),
        model(std::get<MechanismModel>(sim.scenario().model)),
        initial(sim.state()),
        start(model, initial),
        end(start),
        steps(n) {
    sim.advance(static_cast<std::uint64_t>(n));
    end = MechanismChart(model, sim.state());
    sim.setState(initial);
  }
  VecX operator()(const VecX& z) {
    sim.setState(start.lift(z));
    sim.advance(static_cast<std::uint64_t>(steps));
    return end.lower(sim.state());
  }
};

// ‖JᵀΩJ − Ω‖ of the 50-step map (charts.hpp's differences) with steps 3e-4, not the other
// models' 1e-3: a thin rod's axial moment (1e-3 of its others) turns a momentum step of
// 1e-3 into a spin of ~10 rad/s, and the differences then measure the map's curvature
// (1.8e-6 for every method), not its symplecticity.
double mechanismFiftyStepDefect(const std::string& scenario) {
  MechanismMap map(scenario, 50);
  return symplecticDefect(canonicalJacobian([&](const VecX& z) { return map(z); }, map.start.lower(map.initial), 3e-4));
}

}  // namespace

TEST_CASE("mechanism chart: lower and lift are inverse, and the start state is its centre", "[mechanism][symplectic]") {
  for (const char* name : testing::kMechanismScenes) {
    Simulation sim = simulate(testing::mechanismScene(name).dump());
    run(sim, 20);
    const MechanismModel& model = std::get<MechanismModel>(sim.scenario().model);
    const MechanismChart chart(model, sim.state());
    const VecX z = chart.lower(sim.state());
    const State back = chart.lift(z);
    INFO(name << ": |u| = " << z.head(z.size() / 2).cwiseAbs().maxCoeff() << ", state round trip "
              << maxDifference(back.q, sim.state().q) << " / " << maxDifference(back.p, sim.state().p));
    CHECK(z.head(z.size() / 2).cwiseAbs().maxCoeff() <= 1e-15);
    CHECK(maxDifference(back.q, sim.state().q) <= 1e-14);
    CHECK(maxDifference(back.p, sim.state().p) <= 1e-12 * std::max(1.0, sim.state().p.cwiseAbs().maxCoeff()));
    // Away from the centre: the chart's configuration closes the joints.
    VecX moved = z;
    moved.head(z.size() / 2).setConstant(0.01);
    const State s = chart.lift(moved);
    const VecX again = chart.lower(s);
    CHECK(maxDifference(again, moved) <= 1e-12);
    CHECK(model.constraintError(model.toMechanism(s)) <= 1e-14);
  }
}

TEST_CASE("mechanisms: symplectic entries preserve the canonical form on every scene, RK4 does not",
          "[mechanism][symplectic]") {
  for (const char* name : testing::kMechanismScenes) {
    for (const auto& id : integratorsOf(*findSystem("mechanism"))) {
      const IntegratorEntry& integrator = *findIntegrator(id);
      Json scene = testing::mechanismScene(name);
      scene["integrator"] = id;

      scene.erase("about");
      try {
        makeIntegrator(parseScenario(scene));
      } catch (const InputError& e) {
        WARN(name << " / " << id << ": refused (" << e.what() << ")");
        continue;
      }
      const double defect = mechanismFiftyStepDefect(scene.dump());
      INFO(name << " / " << id << ": ‖JᵀΩJ − Ω‖ = " << defect);
      if (integrator.symplectic) {
        CHECK(defect <= 1e-9);
      } else if (id == "rk4") {
        CHECK(defect > 1e-9);
      } else {
        WARN(name << " / " << id << " (not symplectic, reported): ‖JᵀΩJ − Ω‖ = " << defect);
      }
    }
  }
}
