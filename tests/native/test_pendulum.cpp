// The planar pendulum through the whole core: midpoint DEL with a multiplier
// (W–M 4.1, 4.5, 4.8) against the exact solution, the fair RK4 as negative control.
#include <catch2/catch.hpp>

#include "support.hpp"
#include "vilab/detmath.hpp"
#include "vilab/exact/pendulum.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {
std::string pendulum(const std::string& integrator, double h, double theta0 = 1.0) {
  return R"({"system":"pendulum","integrator":")" + integrator + R"(","h":)" + std::to_string(h) +
         R"(,"params":{"masses":[1],"lengths":[1],"g":1},"initial":{"angles":[)" + std::to_string(theta0) +
         R"(],"rates":[0]}})";
}
double angleAt(const Simulation& sim) { return dm::atan2(sim.q()[0], -sim.q()[2]); }
}  // namespace

TEST_CASE("pendulum: midpoint converges with order 2 to the exact solution (Jacobi sn)", "[pendulum][order]") {
  const exact::Pendulum truth(1.0, 1.0, 1.0, 0.0);
  const double T = 10;
  std::vector<double> errors;
  for (double h : {0.02, 0.01, 0.005, 0.0025}) {
    Simulation sim = simulate(pendulum("midpoint", h));
    run(sim, std::lround(T / h));
    REQUIRE(sim.time() == Approx(T));
    errors.push_back(std::abs(angleAt(sim) - truth.theta(T)));
  }
  for (double order : observedOrders(errors)) {
    INFO("errors " << errors[0] << " " << errors[1] << " " << errors[2] << " " << errors[3]);
    CHECK(std::abs(order - 2.0) <= 0.1);
  }
}

TEST_CASE("pendulum: the exact solution's reference value", "[pendulum][exact]") {
  // m = l = g = 1, θ(0) = 0, θ'(0) = 2k with k = 0.5: θ(10) = 0.114252255017604.
  CHECK(exact::Pendulum(1, 1, 0, 1.0).theta(10) == Approx(0.114252255017604).margin(1e-14));
}

TEST_CASE("pendulum: energy has no secular drift over 1e5 steps — RK4 drifts", "[pendulum][energy]") {
  Simulation mid = simulate(pendulum("midpoint", 0.05, 2.5), 10);
  Simulation rk4 = simulate(pendulum("rk4", 0.05, 2.5), 10);
  run(mid, 100000);
  run(rk4, 100000);  // projected onto |x| = l after every step: it runs on, and drifts
  const double midRatio = driftRatio(column(mid, "energy"));
  const double rk4Ratio = driftRatio(column(rk4, "energy"));
  INFO("midpoint last/first window " << midRatio << ", rk4 " << rk4Ratio);
  CHECK(midRatio <= 1.5);
  CHECK(rk4Ratio > 1.5);
  // The constraint is kept at every step (|x| = l to rounding), by both.
  CHECK(maxAbs(column(mid, "constraint")) <= 1e-13);
  CHECK(maxAbs(column(rk4, "constraint")) <= 1e-13);
}

TEST_CASE("pendulum: the motion stays exactly in the x-z plane", "[pendulum]") {
  Simulation sim = simulate(pendulum("midpoint", 0.01));
  run(sim, 10000);
  CHECK(sim.q()[1] == 0.0);
  CHECK(sim.p()[1] == 0.0);
}

TEST_CASE("pendulum: initial data off the plane is an error naming the field", "[pendulum][input]") {
  const std::string bad = R"({"system":"pendulum","initial":{"positions":[[0.6,0.1,-0.78]],"velocities":[[0,0,0]]}})";
  try {
    parseScenario(bad);
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("initial.positions[0]") == 0);
  }
}
