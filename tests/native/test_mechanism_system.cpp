// The `mechanism` system: its scenario form, refusals by field, runs through the
// registry's integrators (the Lie-group step and its compositions), the same run as the
// integrator used directly, and the scenes of scenes/mechanisms/.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "mechanisms.hpp"
#include "support.hpp"
#include "vilab/integrators/mechanism_lgvi.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

Json defaultParams() { return findSystem("mechanism")->defaultParams; }

}  // namespace

TEST_CASE("mechanism system: the default runs and equals the integrator used directly, bit for bit", "[mechanism]") {
  Simulation sim = simulate(Json{{"system", "mechanism"}}.dump());
  REQUIRE(sim.scenario().integrator->id == "lie-group");
  const MechanismModel& model = std::get<MechanismModel>(sim.scenario().model);
  MechanismLGVI direct(model, sim.scenario().h);
  MechanismState s = model.initialState();
  const double E0 = sim.diagnostics().energy;
  run(sim, 2000);
  for (int k = 0; k < 2000; ++k) REQUIRE(direct.step(s).ok);
  State canonical = sim.state();
  model.store(s, canonical);
  CHECK(canonical.q == sim.state().q);
  CHECK(canonical.p == sim.state().p);
  const Diagnostics d = sim.diagnostics();
  CHECK(d.constraint <= 1e-14);
  CHECK(std::abs(d.energy - E0) <= 1e-3 * std::abs(E0));
  CHECK(d.momentumSize == 3);
}

TEST_CASE("mechanism system: every refusal names its field", "[mechanism]") {
  const Json good = Json{{"system", "mechanism"}, {"params", defaultParams()}};
  REQUIRE(refusedAt(good).empty());
  auto with = [&](auto change) {
    Json j = good;
    change(j["params"]);
    return refusedAt(j);
  };
  CHECK(with([](Json& p) { p["bodies"] = Json::array(); }) == "params.bodies");
  CHECK(with([](Json& p) { p.erase("bodies"); }) == "params.bodies");
  CHECK(with([](Json& p) { p["wheels"] = 1; }) == "params.wheels");
  CHECK(with([](Json& p) { p["gravity"] = {0, 0}; }) == "params.gravity");
  CHECK(with([](Json& p) { p["bodies"][1]["mass"] = -1; }) == "params.bodies[1].mass");
  CHECK(with([](Json& p) { p["bodies"][1].erase("mass"); }) == "params.bodies[1].mass");
  CHECK(with([](Json& p) { p["bodies"][0]["inertia"] = {1, 1, 3}; }) == "params.bodies[0].inertia");
  CHECK(with([](Json& p) {
          p["bodies"][0]["inertia"] = {{1, 0.5, 0}, {0, 1, 0}, {0, 0, 1}};
        }) == "params.bodies[0].inertia");
  CHECK(with([](Json& p) { p["bodies"][0]["orientation"] = {1, 1, 0, 0}; }) == "params.bodies[0].orientation");
  CHECK(with([](Json& p) { p["bodies"][0]["shape"] = {{"type", "torus"}}; }) == "params.bodies[0].shape.type");
  CHECK(with([](Json& p) {
          p["bodies"][0]["shape"] = {{"type", "box"}, {"size", {0.1, 0.2}}};
        }) == "params.bodies[0].shape.size");
  CHECK(with([](Json& p) {
          p["bodies"][0]["shape"] = {{"type", "tee"}, {"size", {0.4}}};
        }) == "params.bodies[0].shape.size");
  CHECK(with([](Json& p) { p["bodies"][0]["shape"] = {{"type", "tee"}, {"size", {0.4, 0.3, 0.04}}}; }).empty());
  CHECK(with([](Json& p) { p["bodies"][1]["name"] = "upper"; }) == "params.bodies[1].name");
  CHECK(with([](Json& p) { p["joints"][1]["type"] = "slider"; }) == "params.joints[1].type");
  CHECK(with([](Json& p) { p["joints"][1]["parent"] = "middle"; }) == "params.joints[1].parent");
  CHECK(with([](Json& p) { p["joints"][1]["child"] = 7; }) == "params.joints[1].child");
  CHECK(with([](Json& p) { p["joints"][1]["parentAxis"] = {0, 0, 1}; }) == "params.joints[1].parentAxis");
  // The joint does not close, and the velocities pull it apart.
  CHECK(with([](Json& p) { p["joints"][1]["childPoint"] = {0, 0, 0.4}; }) == "params.joints[1]");
  CHECK(with([](Json& p) { p["bodies"][1]["velocity"] = {0, 0, 0}; }) == "params.joints[1]");
  // Disconnected, and over-constrained.
  CHECK(with([](Json& p) { p["joints"].erase(1); }) == "params.bodies[1]");
  CHECK(with([](Json& p) { p["joints"].push_back(p["joints"][1]); }) == "params.joints[2]");
  // initial takes nothing: the bodies hold the initial state.
  Json j = good;
  j["initial"] = {{"q", {1}}};
  CHECK(refusedAt(j) == "initial.q");
}

TEST_CASE("mechanism system: the compositions run at orders 4 and 6 on it", "[mechanism]") {
  // Errors at T = 0.5 against composition6 at h/8.
  auto endState = [](const char* integrator, double h) {
    Json j = {{"system", "mechanism"}, {"integrator", integrator}, {"h", h}};
    Simulation sim = simulate(j.dump());
    run(sim, std::lround(0.5 / h));
    return sim.state().q;
  };
  const VecX reference = endState("composition6", 0.05 / 16);
  const std::vector<double> hs = {0.05, 0.025, 0.0125};
  for (const auto& [integrator, order] : {std::pair{"lie-group", 2.0}, {"composition4", 4.0}}) {
    std::vector<double> errs;
    for (double h : hs) errs.push_back((endState(integrator, h) - reference).cwiseAbs().maxCoeff());
    const double measured = fittedOrder(hs, errs);
    INFO(integrator << ": errors " << errs[0] << " " << errs[1] << " " << errs[2] << ", order " << measured);
    CHECK(std::abs(measured - order) <= (order == 2 ? 0.05 : 0.2));
  }
}

TEST_CASE("mechanism system: every scene of scenes/mechanisms keeps its joints and its stated invariants",
          "[mechanism]") {
  for (const char* name : {"compound-double-pendulum", "physical-pendulum", "lagrange-top", "gyroscope", "middle-axis",
                           "gravity-gradient-satellite"}) {
    std::ifstream in(std::string(VILAB_SCENES_DIR) + "/mechanisms/" + name + ".json");
    std::stringstream text;
    text << in.rdbuf();
    const Json file = Json::parse(text.str());
    Json scenario = file;
    scenario.erase("about");
    Simulation sim = simulate(scenario.dump(), 10, 1 << 16);
    const long steps = file["about"]["steps"].get<long>();
    run(sim, steps);
    INFO(name);
    CHECK(maxAbs(column(sim, "constraint")) <= 1e-12);
    for (const auto& [quantity, bound] : file["about"]["invariants"].items()) {
      const std::vector<double> values = column(sim, quantity);
      const double deviation = maxAbsDeviation(values);
      INFO(quantity << ": deviation " << deviation);
      if (bound.contains("relative")) CHECK(deviation <= bound["relative"].get<double>() * std::abs(values[0]));
      if (bound.contains("absolute")) CHECK(deviation <= bound["absolute"].get<double>());
    }
  }
}
