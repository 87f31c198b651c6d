// The accuracy criterion of an energy–momentum pair on a chain's default motion, for the
// largest step the registry publishes (core/data/step_limits.json): at h, over T = 1 s,
//  - the physical energy (ChainModel::energy, the tangent motion's) keeps
//    max |E − E₀|/E₀ ≤ kEnergyBound, and
//  - the bobs end within kPositionBound of the chain's length (Σ l_i) of a fine RATTLE
//    reference (h = 1e-4, order 2: its own error is far below the bound).
// A step that runs without refusal but misses the motion or its energy is not offered.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include "support.hpp"

namespace vilab::test {

struct ChainAccuracy {
  double position = 0;  // max_i |x_i − x_i^ref| at T, over Σ l_i
  double energy = 0;    // max over the steps to T of |E − E₀|/E₀
};

inline constexpr double kAccuracyTime = 1.0;
inline constexpr double kPositionBound = 0.05;
inline constexpr double kEnergyBound = 1e-9;
inline constexpr double kReferenceH = 1e-4;

// The reference positions at T of a scenario (its integrator replaced by RATTLE).
inline VecX chainReference(Json scenario) {
  scenario["integrator"] = "rattle";
  scenario["h"] = kReferenceH;
  Simulation sim = simulate(scenario.dump(), limits::kMaxHistoryStride);
  sim.advance(static_cast<std::uint64_t>(std::lround(kAccuracyTime / kReferenceH)));
  return sim.q();
}

// A scenario run at h, past the registry's largest step if need be (a measurement).
inline Simulation simulateAt(const Json& scenario, double h, int stride = limits::kMaxHistoryStride) {
  Scenario s = parseScenario(scenario);
  s.h = h;
  SimulationOptions o;
  o.historyStride = stride;
  return Simulation(s, o);
}

// The scenario at h to T (throws StepFailure on a refusal), against the reference.
inline ChainAccuracy chainAccuracy(const Json& scenario, double h, const VecX& reference) {
  Simulation sim = simulateAt(scenario, h);
  const ChainModel& m = std::get<ChainModel>(sim.scenario().model);
  const double e0 = sim.diagnostics().energy;
  ChainAccuracy a;
  const long steps = std::lround(kAccuracyTime / h);
  for (long k = 0; k < steps; ++k) {
    sim.advance(1);
    a.energy = std::max(a.energy, std::abs(sim.diagnostics().energy - e0) / e0);
  }
  double length = 0, worst = 0;
  for (int i = 0; i < m.bobs(); ++i) {
    length += m.lengths[i];
    worst = std::max(worst, (sim.q().segment<3>(3 * i) - reference.segment<3>(3 * i)).norm());
  }
  a.position = worst / length;
  return a;
}

inline bool accurateEnough(const ChainAccuracy& a) { return a.position <= kPositionBound && a.energy <= kEnergyBound; }

// Whether the criterion applies: an energy–momentum integrator on a chain, with its
// positions on the manifold (the penalty form leaves it by design).
inline bool chainAccuracyApplies(const Scenario& s) {
  return s.integrator->family == IntegratorFamily::EnergyMomentum && std::holds_alternative<ChainModel>(s.model) &&
         s.integrator->stateRules.positionsOnManifold;
}

}  // namespace vilab::test
