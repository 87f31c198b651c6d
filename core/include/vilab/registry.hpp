// Self-describing registries of systems and integrators (REBOUND style), and the one
// table of which integrator applies to which model (core/src/table.cpp). The JS API's
// lab.systems / lab.integrators and the page's controls are generated from
// registryJson(); nothing is hand-copied.
//
// Adding an integrator: one file in core/src/integrators/ (its entry and one factory
// per model it applies to), its words in core/prose/integrators/ (vilab/prose.hpp), and
// its rows in core/src/table.cpp.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vilab/integrators/integrator.hpp"
#include "vilab/json.hpp"
#include "vilab/models/model.hpp"

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
  std::string name, title, unit, description;  // title, description: from the entry's prose
  Kind kind = Kind::Number;
  std::vector<double> defaultValue;  // one number, three, or one per body
  double min = 0, max = 0;
  bool minExclusive = false;
  bool integer = false;              // Number: whole numbers only (a choice among variants)
  int minCount = 1, maxCount = 1;    // PerBody: allowed array lengths
  std::optional<Quantity> quantity;  // what it is, where the page needs to know (vocabulary.hpp)
  Json toJson() const;
  // This spec, saying what quantity it is.
  ParamSpec as(Quantity q) && {
    quantity = q;
    return std::move(*this);
  }
  // Validates v (or takes the default when v is null) and returns the numbers.
  std::vector<double> read(const Json& v, const std::string& field) const;
  Json valueJson(const std::vector<double>& value) const;

  // A number in [min, max] (or (min, max] when minExclusive).
  static ParamSpec number(std::string name, std::string unit, double value, double min, double max, bool minExclusive);
  // A whole number in [min, max] (a choice among variants).
  static ParamSpec whole(std::string name, int value, int min, int max);
  // Three numbers, each in the range.
  static ParamSpec vector3(std::string name, std::string unit, const Vec3& value, double min, double max,
                           bool minExclusive);
  // One number per body, minCount..maxCount of them, each in the range; the default has `count`.
  static ParamSpec perBody(std::string name, std::string unit, double value, int count, int minCount, int maxCount,
                           double min, double max, bool minExclusive);
};

// Validated parameter values: numbers by name, in the order of the specs.
class ParamValues {
 public:
  void set(const std::string& name, std::vector<double> value) { values_.emplace_back(name, std::move(value)); }
  const std::vector<double>& get(const std::string& name) const {
    for (const auto& [n, v] : values_)
      if (n == name) return v;
    throw std::out_of_range("vilab: parameter " + name + " missing");
  }
  double number(const std::string& name) const { return get(name).at(0); }
  Vec3 vector3(const std::string& name) const {
    const auto& v = get(name);
    return Vec3(v.at(0), v.at(1), v.at(2));
  }

 private:
  std::vector<std::pair<std::string, std::vector<double>>> values_;
};

// A field of a system's `initial` data.
struct FieldDoc {
  FieldDoc(std::string name, std::string unit) : name(std::move(name)), unit(std::move(unit)) {}
  std::string name, title, unit, description;  // title, description: from the system's prose
};

// A condition under which a system's exact solution holds: a number of the normalized
// scenario (each of an array's numbers) equal to, or above, a value.
struct ExactCondition {
  enum class Test { Equals, Above };
  std::string field;  // e.g. "params.damping"
  Test test = Test::Equals;
  double value = 0;
};

// Which exact solution a system has (core/include/vilab/exact/), and when it holds.
struct ExactCapability {
  ExactSolution solution;
  std::vector<ExactCondition> conditions;
};

struct IntegratorEntry;

// An entry's words (title, description, those of its params and initial fields, the
// definition's) come from its prose, core/prose/systems/<id>.en.json (vilab/prose.hpp).
struct SystemEntry {
  std::string id, title, description;
  ModelKind model = ModelKind::Chain;
  std::optional<ViewKind> view;          // which scene draws it (every system says)
  std::optional<ExactCapability> exact;  // none: no exact solution is known
  std::vector<ParamSpec> params;
  std::vector<FieldDoc> initialFields;
  std::string defaultIntegrator;
  double defaultH = 0.01;
  int minBodies = 1, maxBodies = 1;  // links of a chain
  // The typed model from validated parameters (throws InputError for combinations).
  std::function<Model(const ParamValues&)> build;
  // Default initial data (the `initial` JSON) for these parameters.
  std::function<Json(const ParamValues&)> defaultInitial;
  // Parses and validates `initial` (missing fields take the defaults), normalizes it in
  // place for the echo, and returns the canonical state, projected onto the manifold.
  std::function<State(const Model&, Json& initial)> initialState;
  // Systems defined by data (no ParamSpecs): the model from the whole `params` object,
  // which it normalizes into `normalized`; their default params and the documentation
  // of the definition (registry "definition": fields, functions, notes, limits; the words
  // of its fields and its notes from the prose, which the lean build leaves out).
  std::function<Model(const Json& params, Json& normalized)> parseParams;
  // Refuses (InputError) an integrator the table pairs with the system's model but that
  // cannot run this model (a field's typed density runs the box scheme only); empty: none.
  std::function<void(const Model&, const IntegratorEntry&)> checkIntegrator;
  Json defaultParams;
  Json definition;
  Json toJson() const;
};

// What an integrator claims to conserve: what it is about (a badge applies where the
// run's system has that structure), and the words, the prose's claim at the same place.
struct Claim {
  ClaimKind kind;
  std::string text;
};

// An entry's words (title, summary, docs, equations, citation, its claims' and options'
// texts) come from its prose, core/prose/integrators/<id>.en.json (vilab/prose.hpp).
struct IntegratorEntry {
  std::string id, title;
  IntegratorFamily family = IntegratorFamily::Baseline;  // a family claims something: each entry says
  int order = 2;
  // Claims the property tests check for every pair (tests/native/test_properties.cpp).
  bool symplectic = false;
  bool symmetric = false;  // time-reversible: Φ_{−h} = Φ_h⁻¹
  std::vector<Claim> conserves;
  std::string summary;  // one line
  // Left out of the lean build (its prose lacks them), and then of its registry JSON:
  std::string docs;       // a paragraph: why it conserves what it conserves
  std::string equations;  // LaTeX, rendered by the page's Explain drawer
  std::string citation;
  std::vector<ParamSpec> options;
  StateRules stateRules;
  int maxBodies = 0;  // the most links it handles (0: any)
  // Accepts a system's forcing (damping, torque, driving force): by the discrete
  // Lagrange–d'Alembert principle or the forced ODE. Others refuse a forced system.
  bool forces = false;
  // Chooses its own step sizes (Integrator::lastStep); the history then has a column "dt".
  bool variableStep = false;
  // The models on which it gives the Jacobian of its step (Simulation::linearize); the
  // others refuse it.
  std::vector<ModelKind> linearizes;
  bool linearizesOn(ModelKind model) const;
  Json toJson() const;
};

using IntegratorFactory = std::unique_ptr<Integrator> (*)(const Model&, const Options&, double h);

// One row of the applicability table: this integrator applies to this model.
struct Pairing {
  ModelKind model;
  const IntegratorEntry& (*integrator)();
  IntegratorFactory make;
  bool lean = true;  // the lean build runs it too (the same in both builds: the registry says so)
};

const std::vector<Pairing>& applicabilityTable();
// False for the pairs the lean build (the page's first-load module) leaves out; the
// scenario parser refuses those with NotInLeanBuild. Always true in the full build.
bool inThisBuild(const Pairing& pairing);
// The largest time steps, measured on the default scenario (core/src/step_limits.cpp):
// of a (system, integrator) pair (0: it breaks down at every step on the ladder), and
// of a system, which the scenario parser enforces: the largest of its structure-
// preserving integrators'. measuredMaxStep is the table's raw value (−1: not measured).
double maxStep(const SystemEntry& system, const IntegratorEntry& integrator);
double maxStep(const SystemEntry& system);
// The smallest h a system accepts (s): below it a step's increments are lost to rounding
// and the implicit equations cannot be solved, so every step would be refused.
double minStep(const SystemEntry& system);
double measuredMaxStep(const std::string& system, const std::string& integrator);
const std::vector<SystemEntry>& systemRegistry();
// Every integrator in the table, in table order of first appearance.
const std::vector<const IntegratorEntry*>& integratorRegistry();
const SystemEntry* findSystem(const std::string& id);
const IntegratorEntry* findIntegrator(const std::string& id);
// The row for (system, integrator), or nullptr when it does not apply.
const Pairing* findPairing(const SystemEntry& system, const IntegratorEntry& integrator);
std::vector<std::string> integratorsOf(const SystemEntry& system);
// The integrators of the system that the lean build runs (none: it leaves the system out).
std::vector<std::string> leanIntegratorsOf(const SystemEntry& system);
std::vector<std::string> systemsOf(const IntegratorEntry& integrator);
// The exact solution of a normalized scenario (JSON) of `system`: the system's `exact`
// capability when all its conditions hold, else InputError(NoExactSolution) naming the
// unmet field ("system" when the system has none).
ExactSolution exactSolutionFor(const SystemEntry& system, const Json& scenario);
Json registryJson();

}  // namespace vilab
