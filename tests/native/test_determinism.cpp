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

TEST_CASE("golden fingerprints of systems defined by data after 1e4 steps", "[determinism][lagrangian]") {
  // The typed step's loops run with the coordinates' count as a constant for n = 1 to 6
  // and at run time above (the FPUT chain, n = 16): both paths are pinned, on the reduced
  // Newton with constraints (the DSP and the pendulum as data), a constant mass without
  // them (Kepler) and a configuration-dependent mass (the double pendulum, the swinging
  // Atwood machine).
  const std::pair<Json, const char*> golden[] = {
      {Json::parse(
           R"j({"system":"lagrangian","h":0.01,"params":{"coordinates":["x1","y1","z1","x2","y2","z2"],"constants":{"g":9.81},"lagrangian":"(x1'^2+y1'^2+z1'^2)/2 + (x2'^2+y2'^2+z2'^2)/2 - g*z1 - g*z2","constraints":["x1^2+y1^2+z1^2-1","(x2-x1)^2+(y2-y1)^2+(z2-z1)^2-1"],"symmetries":{"Jz":["-y1","x1","0","-y2","x2","0"]}},"initial":{"q":[0.9995736030415052,0,0.02919952230128882,1.5628584720656689,0.5799798197503433,0.6177006395566348],"qdot":[0,1.1994883236498062,0,0.3479878918502059,0.861517402235308,1.633418725986285e-17]},"integrator":"midpoint"})j"),
       "2944fe1b4498fd0e"},
      {Json::parse(
           R"j({"system":"lagrangian","h":0.01,"integrator":"midpoint","params":{"coordinates":["x","z"],"constants":{"g":9.81},"lagrangian":"(x'^2+z'^2)/2 - g*z","constraints":["x^2+z^2-1"]},"initial":{"q":[0.8414709848078965,-0.5403023058681398],"qdot":[0,0]}})j"),
       "725bf0566b833049"},
      {test::lagrangianScene("kepler"), "3dd13ff00c6dc5ee"},
      {test::lagrangianScene("fput"), "93784c7de3ff7600"},
      {test::lagrangianScene("double-pendulum"), "74ff1c40c1e14e85"},
      {test::lagrangianScene("swinging-atwood"), "1e360bb2c82ca0d4"},
  };
  for (const auto& [scenario, hash] : golden) {
    Simulation sim = test::simulate(scenario.dump());
    test::run(sim, 10000);
    INFO(scenario.dump().substr(0, 160));
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
