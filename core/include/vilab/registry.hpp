// Self-describing registries of systems and integrators (REBOUND style). The JS
// API's lab.systems / lab.integrators and the page's controls are generated from
// registryJson(); nothing is hand-copied. Adding an integrator means adding one
// file in core/src/integrators/ plus one line in core/src/registry.cpp.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vilab/scenario.hpp"
#include "vilab/stepper.hpp"

// Functions that build the registries run once: optimize them for size (the wasm
// is downloaded on first load), never for speed.
#if defined(__clang__)
#define VILAB_COLD __attribute__((cold, minsize))
#elif defined(__GNUC__)
#define VILAB_COLD __attribute__((cold))
#else
#define VILAB_COLD
#endif

namespace vilab {

struct ParamSpec {
  enum class Kind { Number, PerBody, Vector3 };
  std::string name, title, unit, description;
  Kind kind = Kind::Number;
  Json defaultValue;
  double min = 0, max = 0;
  bool minExclusive = false;
  int minCount = 1, maxCount = 1;  // PerBody: allowed array lengths
  Json toJson() const;
  // Validates v (or takes the default when v is null) and returns the normalized value.
  Json read(const Json& v, const std::string& field) const;

  // A number in [min, max] (or (min, max] when minExclusive).
  static ParamSpec number(std::string name, std::string title, std::string unit, std::string description,
                          double value, double min, double max, bool minExclusive);
  // Three numbers, each in the range.
  static ParamSpec vector3(std::string name, std::string title, std::string unit, std::string description,
                           const Vec3& value, double min, double max, bool minExclusive);
  // One number per body, minCount..maxCount of them, each in the range; the default has `count`.
  static ParamSpec perBody(std::string name, std::string title, std::string unit, std::string description,
                           double value, int count, int minCount, int maxCount, double min, double max,
                           bool minExclusive);
};

struct FieldDoc {
  std::string name, title, unit, description;
};

struct SystemEntry {
  std::string id, title, description;
  std::vector<ParamSpec> params;
  std::vector<FieldDoc> initialFields;
  std::string defaultIntegrator;
  double defaultH = 0.01, maxH = 1;
  // Steps one advance() call may take, so that a call stays well under 100 ms.
  std::function<long(const Json& params)> maxAdvance;
  // Default initial data for (normalized) params.
  std::function<Json(const Json& params)> defaultInitial;
  // Validates params (already normalized) and initial, builds the model and the
  // Cartesian initial state; normalizes `initial` in place (defaults filled).
  std::function<SystemInstance(const Json& params, Json& initial)> instantiate;
  Json toJson() const;
};

struct IntegratorEntry {
  std::string id, title;
  std::string family;  // "variational", "energy-momentum" or "baseline"
  int order = 2;
  std::vector<std::string> conserves;
  std::vector<std::string> systems;
  std::string summary;   // one line
  std::string docs;      // a paragraph: why it conserves what it conserves
  std::string equations; // LaTeX, rendered by the page's Explain drawer
  std::string citation;
  std::vector<ParamSpec> options;
  std::function<std::unique_ptr<Stepper>(const SystemInstance&, const Scenario&)> make;
  bool appliesTo(const std::string& system) const;
  Json toJson() const;
};

const std::vector<SystemEntry>& systemRegistry();
const std::vector<IntegratorEntry>& integratorRegistry();
const SystemEntry* findSystem(const std::string& id);
const IntegratorEntry* findIntegrator(const std::string& id);
Json registryJson();

std::unique_ptr<Stepper> makeStepper(const Scenario& s);

}  // namespace vilab
