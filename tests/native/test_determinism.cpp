// Determinism (Box2D style): fixed scenarios give fixed state hashes. The wasm
// tests check native = wasm at run time; these golden values also catch an
// unintended change of the numerics between commits. Change them only together
// with a deliberate change of an integrator, and say so in the commit.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace vilab;

TEST_CASE("golden run fingerprints after 1e4 steps", "[determinism]") {
  const std::pair<const char*, const char*> golden[] = {
      {R"({"system":"double-spherical-pendulum"})", "93ba938a355b42c6"},
      {R"({"system":"chain"})", "a2409ef2c6f57dc4"},
      {R"({"system":"rigid-body"})", "11614635783d8f1b"},
      {R"({"system":"heavy-top","integrator":"quaternion"})", "5191310327193d38"},
      {R"({"system":"pendulum","integrator":"generalized"})", "e7fc69ca58c9a0fd"},
      {R"({"system":"oscillator","integrator":"trapezoid"})", "722893171dec3029"},
      {R"({"system":"double-spherical-pendulum","integrator":"energy-momentum"})", "2ab9971c4105b7ec"},
      {R"({"system":"heavy-top","integrator":"energy-momentum"})", "564a49e2c8d92506"},
  };
  for (const auto& [scenario, hash] : golden) {
    Simulation sim = test::simulate(scenario);
    test::run(sim, 10000);
    INFO(scenario);
    CHECK(sim.hash() == hash);
  }
}

TEST_CASE("the hash does not depend on how the steps are batched", "[determinism]") {
  Simulation a = test::simulate(R"({"system":"double-spherical-pendulum"})");
  Simulation b = test::simulate(R"({"system":"double-spherical-pendulum"})");
  test::run(a, 1000);
  for (int k = 0; k < 1000; ++k) b.advance(1);
  CHECK(a.hash() == b.hash());
  // A different step count is a different fingerprint, even for an identical state.
  Simulation c = test::simulate(R"({"system":"oscillator","h":0.1,"initial":{"position":0,"velocity":0}})");
  const std::string h0 = c.hash();
  c.advance(1);
  CHECK(c.hash() != h0);
}
