// The registries' claims, checked: the applicability table is consistent with the
// entries, and every pair's largest step (core/data/step_limits.json) is the one measured
// now on the default scenario (−1, no entry, for a pair that refuses the default
// definition). With VILAB_UPDATE_LIMITS=1 the measurement rewrites that file instead,
// like a golden file: run it after adding an integrator or changing a default scenario.
// An energy–momentum pair on a chain must also meet the accuracy criterion of
// chain_accuracy.hpp at its largest step (physical energy, positions at T = 1 s).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "chain_accuracy.hpp"
#include "support.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {
// Does the default scenario run 100 s (or 10⁴ steps, when fewer) at h without a refused step?
bool runsAt(const SystemEntry& system, const std::string& integrator, double h) {
  Scenario s = parseScenario(Json{{"system", system.id}, {"integrator", integrator}});
  s.h = h;  // past the registry's limit on purpose: this is the measurement
  SimulationOptions o;
  o.historyStride = limits::kMaxHistoryStride;
  try {
    // sem runs its first steps at load, and refuses there a level it cannot hold.
    Simulation sim(s, o);
    sim.advance(static_cast<std::uint64_t>(std::min<long>(std::lround(100.0 / h), 10000)));
    return true;
  } catch (const StepFailure&) {
    return false;
  } catch (const InputError&) {
    return false;
  }
}

// runsAt, and for an energy–momentum pair on a chain the accuracy criterion too.
bool acceptableAt(const SystemEntry& system, const std::string& integrator, double h) {
  if (!runsAt(system, integrator, h)) return false;
  const Json scenario = {{"system", system.id}, {"integrator", integrator}};
  if (!chainAccuracyApplies(parseScenario(scenario))) return true;
  static std::map<std::string, VecX> references;
  if (!references.count(system.id)) references[system.id] = chainReference(scenario);
  try {
    const ChainAccuracy a = chainAccuracy(scenario, h, references[system.id]);
    std::cout << "step limits: " << system.id << " / " << integrator << " at h = " << h << ": position error "
              << a.position << " of the length, physical energy " << a.energy << "\n";
    return accurateEnough(a);
  } catch (const StepFailure&) {
    return false;
  }
}
}  // namespace

TEST_CASE("every pair's largest step is the measured one", "[registry][max-h]") {
  const std::vector<double> ladder = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0};
  const char* update = std::getenv("VILAB_UPDATE_LIMITS");
  const bool updating = update && std::string(update) == "1";
  Json measuredTable = Json::object();
  for (const auto& system : systemRegistry()) {
    for (const auto& id : integratorsOf(system)) {
      if (!acceptsDefault(system.id, id)) {
        // Not applicable to the default definition (it needs e.g. a constant mass
        // matrix): nothing to measure, and the table says so.
        INFO(system.id << " / " << id << ": refuses the default scenario, table " << measuredMaxStep(system.id, id));
        if (!updating) CHECK(measuredMaxStep(system.id, id) == -1);
        continue;
      }
      double measured = 0;
      for (double h : ladder) {
        if (!acceptableAt(system, id, h)) break;
        measured = h;
      }
      measuredTable[system.id][id] = measured;
      INFO(system.id << " / " << id << ": measured " << measured << ", table " << measuredMaxStep(system.id, id));
      if (updating) {
        if (measuredMaxStep(system.id, id) != measured)
          std::cout << "step limits: " << system.id << " / " << id << ": " << measuredMaxStep(system.id, id) << " -> "
                    << measured << "\n";
      } else {
        CHECK(measuredMaxStep(system.id, id) == measured);
      }
    }
  }
  if (updating) {
    // The build embeds the file: rebuild for the new values to take effect.
    std::ofstream(VILAB_STEP_LIMITS_FILE) << measuredTable.dump(2) << "\n";
    std::cout << "step limits: wrote " << VILAB_STEP_LIMITS_FILE << " (rebuild to embed it)\n";
  }
}

TEST_CASE("the scenario parser enforces each pair's largest step and names it", "[registry][max-h]") {
  CHECK_NOTHROW(parseScenario(std::string(R"({"system":"double-spherical-pendulum","integrator":"lobatto","h":0.1})")));
  CHECK_THROWS_WITH(
      parseScenario(std::string(R"({"system":"double-spherical-pendulum","integrator":"rk4","h":0.3})")),
      Catch::Equals("h: must be in (0, 0.1], got 0.3 (with a larger step no structure-preserving integrator "
                    "solves the default double-spherical-pendulum motion)"));
  const Json reg = registryJson();
  for (const auto& s : reg["systems"]) {
    double largest = 0;
    for (const auto& [id, h] : s["h"]["maxByIntegrator"].items()) {
      const IntegratorFamily family = findIntegrator(id)->family;
      if (family == IntegratorFamily::Variational || family == IntegratorFamily::EnergyMomentum)
        largest = std::max(largest, h.get<double>());
    }
    INFO(s["id"]);
    // A system defined by data has no default motion to measure its limit on: 1 s.
    CHECK(s["h"]["max"].get<double>() == (s.value("dataParams", false) ? 1.0 : largest));
    CHECK(s["h"]["default"].get<double>() <= largest);
  }
}

TEST_CASE("the table and the entries agree", "[registry]") {
  for (const auto* integrator : integratorRegistry()) {
    INFO(integrator->id);
    CHECK_FALSE(systemsOf(*integrator).empty());
    CHECK_FALSE(integrator->docs.empty());
    CHECK_FALSE(integrator->equations.empty());
    CHECK_FALSE(integrator->citation.empty());
    // A symplectic claim comes with a variational family; baselines claim nothing.
    if (integrator->symplectic) CHECK(integrator->family == IntegratorFamily::Variational);
    if (integrator->family == IntegratorFamily::Baseline) CHECK_FALSE(integrator->symplectic);
  }
  for (const auto& system : systemRegistry()) {
    INFO(system.id);
    const auto ids = integratorsOf(system);
    CHECK(std::find(ids.begin(), ids.end(), system.defaultIntegrator) != ids.end());
    // The default scenario parses with every integrator, and its normalized form again
    // to the same bits (share links).
    for (const auto& id : ids) {
      const Scenario s = parseScenario(Json{{"system", system.id}, {"integrator", id}});
      const Scenario again = parseScenario(s.normalized);
      CHECK(again.initial.q == s.initial.q);
      CHECK(again.initial.p == s.initial.p);
      CHECK(again.h == s.h);
    }
  }
}
