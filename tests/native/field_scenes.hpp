// Helpers shared by the tests of fields of several components and of the AVI on typed
// densities: the scenes of scenes/fields/, the whirling string's periodic helix, what a
// run keeps (energy window, first declared charge) and the multisymplectic law's probe.
#pragma once
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "support.hpp"

namespace vilab::test {

// A scene of scenes/fields/ as a scenario (without its `about` block), as lagrangianScene.
inline Json fieldSceneFile(const std::string& name) {
  std::ifstream in(std::string(VILAB_SCENES_DIR) + "/fields/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  Json j = Json::parse(text.str());
  j.erase("about");
  return j;
}

// The helix u + iv = a e^{i(kx − ωt)} of the whirling string on a periodic ring (N = 64):
// its slope |(u_x, v_x)| = ak is the same everywhere, so is the tension, and it turns
// rigidly (ω = k (1 + a²k²)^{−1/4}: the phase speed of the tension (1 + a²k²)^{−1/2} per
// unit mass, times k).
inline Json whirlingHelix() {
  Json j = fieldSceneFile("whirling-string");
  j["params"]["grid"]["ends"] = "periodic";
  j["params"]["grid"]["points"] = 64;
  j["params"]["constants"] = {{"a", 0.05}, {"k", 2 * 3.14159265358979323846}};
  const std::string w = "k*(1 + (a*k)^2)^(-0.25)";
  j["initial"] = {
      {"u", "a*cos(k*x)"}, {"ut", "a*" + w + "*sin(k*x)"}, {"v", "a*sin(k*x)"}, {"vt", "-a*" + w + "*cos(k*x)"}};
  return j;
}

// Energy window ratio (test_field_system.cpp's): max − min of E − E₀ over the run over the
// same over its first tenth; the largest |Q − Q₀|/|Q₀| of the first charge; and the
// window over |E₀|.
struct Kept {
  double ratio = 0, charge = 0, window = 0;
};
inline Kept keptOver(const Json& scenario, int steps) {
  Simulation sim = simulate(scenario.dump(), 1000);
  const Diagnostics d0 = sim.diagnostics();
  double lo = 0, hi = 0, early = 0, charge = 0;
  for (int k = 1; k <= steps; ++k) {
    sim.advance(1);
    const Diagnostics d = sim.diagnostics();
    lo = std::min(lo, d.energy - d0.energy);
    hi = std::max(hi, d.energy - d0.energy);
    if (k == steps / 10) early = hi - lo;
    if (d0.momentumSize > 0)
      charge = std::max(charge, std::abs(d.momentum[0] - d0.momentum[0]) / std::abs(d0.momentum[0]));
  }
  return {(hi - lo) / early, charge, (hi - lo) / std::abs(d0.energy)};
}

// The largest law residual over the next two steps (sim.multisymplecticResiduals) on
// `integrator`, probed at steps 80, 90, …, 120 of a scene (before the stiff string's
// leapfrog and RK4 at its h blow up, at steps 135 and 175; RK4's residual swings with the
// breather, 3.4e-9 to 3.1e-7, so one probe is not enough for the negative control).
inline double lawResidual(Json scenario, const std::string& integrator, std::string* law = nullptr) {
  if (scenario["integrator"] != integrator) scenario.erase("options");  // the scene's own integrator's
  scenario["integrator"] = integrator;
  Simulation sim = simulate(scenario.dump(), 1000);
  run(sim, 80);
  double largest = 0;
  for (int probe = 0; probe < 5; ++probe) {
    if (probe > 0) run(sim, 10);
    std::string density;
    const std::vector<double> nodes = sim.multisymplecticResiduals(density);
    if (law) *law = density;
    REQUIRE(nodes.size() == static_cast<std::size_t>(std::get<FieldModel>(sim.scenario().model).points()));
    largest = std::max(largest, *std::max_element(nodes.begin(), nodes.end()));
  }
  return largest;
}

}  // namespace vilab::test
