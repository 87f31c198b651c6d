// integrate(): one call records what stepping one by one reads, bit for bit.
#include <catch2/catch.hpp>
#include <cstring>

#include "support.hpp"
#include "vilab/trajectory.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Steps a twin simulation one step at a time and compares every sample of `traj` with
// its time, q, p and diagnostics row; returns the samples compared.
std::uint64_t compareWithStepping(Simulation& twin, const Trajectory& traj) {
  const auto& names = twin.history().columns();
  std::vector<double> row;
  const std::uint64_t n = traj.samples;
  const auto at = [&](std::size_t column, std::uint64_t k) { return traj.data[column * n + k]; };
  for (std::uint64_t k = 0; k < n; ++k) {
    if (k > 0)
      for (std::uint64_t s = 0; s < traj.every; ++s) twin.advance(1);
    std::size_t c = 0;
    REQUIRE(sameBits(at(c++, k), twin.time()));
    for (int i = 0; i < traj.qSize; ++i) REQUIRE(sameBits(at(c++, k), twin.q()[i]));
    for (int i = 0; i < traj.pSize; ++i) REQUIRE(sameBits(at(c++, k), twin.p()[i]));
    twin.diagnosticsRow(row);
    for (; c < traj.columns.size(); ++c) {
      const auto d = std::find(names.begin(), names.end(), traj.columns[c]) - names.begin();
      REQUIRE(sameBits(at(c, k), row[static_cast<std::size_t>(d)]));
    }
  }
  return n;
}

}  // namespace

TEST_CASE("integrate records what advance(1) and q, p read, bit for bit", "[trajectory]") {
  struct Case {
    Json scenario;
    std::uint64_t steps, every;
    std::vector<std::string> include;
  };
  const std::vector<Case> cases = {
      {Json{{"system", "pendulum"}, {"integrator", "midpoint"}}, 400, 1, {"energy", "constraint", "iterations"}},
      {Json{{"system", "double-spherical-pendulum"}, {"integrator", "trapezoid"}}, 300, 7, {"energy", "momentum"}},
      {Json{{"system", "rigid-body"}}, 200, 3, {"energy", "momentum", "bodyMomentum"}},
      {Json{{"system", "oscillator"}, {"integrator", "sem"}}, 250, 1, {"energy", "dt", "iterations"}},
      {lagrangianScene("kepler"), 300, 2, {"energy", "momentum", "conserved"}},
      {lagrangianScene("elastic-pendulum"), 200, 1, {}},
  };
  for (const auto& c : cases) {
    INFO(c.scenario.dump());
    Simulation sim(parseScenario(c.scenario), trajectorySimulationOptions());
    Simulation twin(parseScenario(c.scenario));
    const Trajectory traj = integrate(sim, TrajectoryRequest{c.steps, c.every, c.include});
    CHECK(!traj.refusal);
    CHECK(traj.samples == c.steps / c.every + 1);
    CHECK(traj.data.size() == traj.samples * traj.columns.size());
    CHECK(compareWithStepping(twin, traj) == traj.samples);
    CHECK(sim.step() == c.steps);  // the steps past the last sample are taken too
    twin.advance(c.steps - twin.step());
    CHECK(sim.hash() == twin.hash());
  }
}

TEST_CASE("integrate's columns are named after q, p and the history", "[trajectory]") {
  Simulation sim = simulate(R"({"system":"double-spherical-pendulum"})");
  const Trajectory traj = integrate(sim, TrajectoryRequest{10, 5, {"momentum", "energy"}});
  const std::vector<std::string> expected = {"t",    "q[0]", "q[1]", "q[2]", "q[3]", "q[4]",     "q[5]",  "p[0]",
                                             "p[1]", "p[2]", "p[3]", "p[4]", "p[5]", "momentum", "energy"};
  CHECK(traj.columns == expected);
  CHECK(traj.samples == 3);
}

TEST_CASE("integrate refuses oversize and malformed requests by field", "[trajectory]") {
  Simulation sim = simulate(R"({"system":"pendulum"})");
  const auto fieldOf = [&](const TrajectoryRequest& r) {
    try {
      integrate(sim, r);
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("(accepted)");
  };
  // pendulum: t + 3 q + 3 p = 7 columns; 8388608 / 7 = 1198372 samples fit.
  CHECK(fieldOf(TrajectoryRequest{1198371, 1, {}}) == "(accepted)");
  CHECK(fieldOf(TrajectoryRequest{1198372, 1, {}}) == "steps");
  CHECK(fieldOf(TrajectoryRequest{1198372, 2, {}}) == "(accepted)");
  CHECK(fieldOf(TrajectoryRequest{10, 1, {"energy", "constraint"}}) == "(accepted)");
  CHECK(fieldOf(TrajectoryRequest{10, 1, {"momentum"}}) == "include[0]");  // the planar pendulum has none
  CHECK(fieldOf(TrajectoryRequest{limits::kMaxSteps, 1, {}}) == "steps");
  CHECK(fieldOf(TrajectoryRequest{10, 0, {}}) == "every");
  CHECK(fieldOf(TrajectoryRequest{10, 1, {"energy", "enrgy"}}) == "include[1]");
  CHECK(fieldOf(TrajectoryRequest{10, 1, {"energy", "energy"}}) == "include[1]");
  CHECK(fieldOf(TrajectoryRequest{10, 1, {"dt"}}) == "include[0]");  // a fixed step has no dt
  try {
    integrate(sim, TrajectoryRequest{1198372, 1, {}});
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("raise every") != std::string::npos);
  }
}

TEST_CASE("a refused step ends the trajectory with the samples before it", "[trajectory][failure]") {
  // The midpoint DEL of the double spherical pendulum has no real root near the motion
  // at this h after some steps (step 24; test_simulation.cpp).
  const char* json = R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.1})";
  Simulation sim(parseScenario(std::string(json)), trajectorySimulationOptions());
  const Trajectory traj = integrate(sim, TrajectoryRequest{3000, 1, {"energy"}});
  REQUIRE(traj.refusal);
  const std::uint64_t refused = traj.refusal->step;
  CHECK(traj.samples == refused);  // steps 0 … refused − 1
  CHECK(traj.refusal->stepsTaken == refused - 1);
  CHECK(sim.step() == refused - 1);
  CHECK(traj.data.size() == traj.samples * traj.columns.size());
  CHECK(traj.refusal->message.find("step " + std::to_string(refused) + " refused") != std::string::npos);
  Simulation twin = simulate(json);
  CHECK(compareWithStepping(twin, traj) == refused);
  CHECK_THROWS_AS(twin.advance(1), StepFailure);  // stepping one by one is refused there too
}
