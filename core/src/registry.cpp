#include "vilab/registry.hpp"

#include <algorithm>

#include "vilab/detmath.hpp"
#include "vilab/forcing.hpp"
#include "vilab/limits.hpp"
#include "vilab/prose.hpp"

namespace vilab {

SystemEntry oscillatorEntry();
SystemEntry pendulumEntry();
SystemEntry sphericalPendulumEntry();
SystemEntry doubleSphericalPendulumEntry();
SystemEntry chainEntry();
SystemEntry rigidBodyEntry();
SystemEntry heavyTopEntry();
SystemEntry lagrangianEntry();
SystemEntry mechanismEntry();
Json mechanismParamsSchema();  // systems/mechanism_system.cpp: the JSON Schema of its params
SystemEntry fieldEntry();
Json fieldParamsSchema();  // systems/field_system.cpp

const std::vector<SystemEntry>& systemRegistry() {
  static const std::vector<SystemEntry> entries = {withProse(oscillatorEntry()),
                                                   withProse(pendulumEntry()),
                                                   withProse(sphericalPendulumEntry()),
                                                   withProse(doubleSphericalPendulumEntry()),
                                                   withProse(chainEntry()),
                                                   withProse(rigidBodyEntry()),
                                                   withProse(heavyTopEntry()),
                                                   withProse(lagrangianEntry()),
                                                   withProse(mechanismEntry()),
                                                   withProse(fieldEntry())};
  return entries;
}

const std::vector<const IntegratorEntry*>& integratorRegistry() {
  static const std::vector<const IntegratorEntry*> entries = [] {
    std::vector<const IntegratorEntry*> out;
    for (const Pairing& row : applicabilityTable()) {
      const IntegratorEntry* e = &row.integrator();
      bool seen = false;
      for (const auto* x : out) seen = seen || x == e;
      if (!seen) out.push_back(e);
    }
    return out;
  }();
  return entries;
}

const SystemEntry* findSystem(const std::string& id) {
  for (const auto& e : systemRegistry())
    if (e.id == id) return &e;
  return nullptr;
}

const IntegratorEntry* findIntegrator(const std::string& id) {
  for (const auto* e : integratorRegistry())
    if (e->id == id) return e;
  return nullptr;
}

const Pairing* findPairing(const SystemEntry& system, const IntegratorEntry& integrator) {
  if (integrator.maxBodies > 0 && system.maxBodies > integrator.maxBodies) return nullptr;
  for (const Pairing& row : applicabilityTable())
    if (row.model == system.model && &row.integrator() == &integrator) return &row;
  return nullptr;
}

std::vector<std::string> integratorsOf(const SystemEntry& system) {
  std::vector<std::string> ids;
  for (const auto* e : integratorRegistry())
    if (findPairing(system, *e)) ids.push_back(e->id);
  return ids;
}

std::vector<std::string> leanIntegratorsOf(const SystemEntry& system) {
  std::vector<std::string> ids;
  for (const auto* e : integratorRegistry()) {
    const Pairing* row = findPairing(system, *e);
    if (row && row->lean) ids.push_back(e->id);
  }
  return ids;
}

std::vector<std::string> systemsOf(const IntegratorEntry& integrator) {
  std::vector<std::string> ids;
  for (const auto& s : systemRegistry())
    if (findPairing(s, integrator)) ids.push_back(s.id);
  return ids;
}

// ---- parameter specs -----------------------------------------------------------------
ParamSpec ParamSpec::number(std::string name, std::string unit, double value, double min, double max,
                            bool minExclusive) {
  ParamSpec p;
  p.name = std::move(name);
  p.unit = std::move(unit);
  p.defaultValue = {value};
  p.min = min;
  p.max = max;
  p.minExclusive = minExclusive;
  return p;
}

ParamSpec ParamSpec::whole(std::string name, int value, int min, int max) {
  ParamSpec p = number(std::move(name), "", value, min, max, false);
  p.integer = true;
  return p;
}

ParamSpec ParamSpec::vector3(std::string name, std::string unit, const Vec3& value, double min, double max,
                             bool minExclusive) {
  ParamSpec p = number(std::move(name), std::move(unit), 0, min, max, minExclusive);
  p.kind = Kind::Vector3;
  p.defaultValue = {value[0], value[1], value[2]};
  return p;
}

ParamSpec ParamSpec::perBody(std::string name, std::string unit, double value, int count, int minCount, int maxCount,
                             double min, double max, bool minExclusive) {
  ParamSpec p = number(std::move(name), std::move(unit), 0, min, max, minExclusive);
  p.kind = Kind::PerBody;
  p.defaultValue = std::vector<double>(count, value);
  p.minCount = minCount;
  p.maxCount = maxCount;
  return p;
}

std::vector<double> ParamSpec::read(const Json& v, const std::string& field) const {
  if (v.is_null()) return defaultValue;
  switch (kind) {
    case Kind::Number: {
      const double x = readNumberInRange(v, field, min, max, minExclusive);
      if (integer && x != dm::floor(x))
        throw InputError(InputErrorCode::Range, field, "must be a whole number, got " + formatNumber(x));
      return {x};
    }
    case Kind::Vector3: {
      const auto xs = readNumbers(v, field, 3, 3);
      for (int i = 0; i < 3; ++i)
        readNumberInRange(v[i], field + "[" + std::to_string(i) + "]", min, max, minExclusive);
      return xs;
    }
    case Kind::PerBody:
    default: {
      const auto xs = readNumbers(v, field, minCount, maxCount);
      for (std::size_t i = 0; i < xs.size(); ++i)
        readNumberInRange(v[i], field + "[" + std::to_string(i) + "]", min, max, minExclusive);
      return xs;
    }
  }
}

Json ParamSpec::valueJson(const std::vector<double>& value) const {
  if (kind == Kind::Number) return value.at(0);
  return value;
}

Json ParamSpec::toJson() const {
  Json j = {{"name", name},
            {"title", title},
            {"unit", unit},
            {"description", description},
            {"default", valueJson(defaultValue)},
            {"min", min},
            {"max", max},
            {"minExclusive", minExclusive}};
  switch (kind) {
    case Kind::Number:
      j["kind"] = "number";
      if (integer) j["integer"] = true;
      break;
    case Kind::Vector3: j["kind"] = "vector3"; break;
    case Kind::PerBody:
      j["kind"] = "per-body";
      j["minCount"] = minCount;
      j["maxCount"] = maxCount;
      break;
  }
  if (quantity) j["quantity"] = idOf(*quantity);
  return j;
}

// ---- exact solutions ------------------------------------------------------------------
namespace {

std::string shownValue(const Json& v) {
  if (!v.is_array()) return v.is_number() ? formatNumber(v.get<double>()) : describeJson(v);
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + shownValue(v[i]);
  return out + "]";
}

// Every number of v (one, or each of an array's) passes the condition's test.
bool holds(const ExactCondition& c, const Json& v) {
  if (v.is_array()) {
    for (const auto& x : v)
      if (!holds(c, x)) return false;
    return true;
  }
  if (!v.is_number()) return false;
  const double x = v.get<double>();
  return c.test == ExactCondition::Test::Equals ? x == c.value : x > c.value;
}

// The value at a dotted path ("params.damping") of a JSON object, or null.
const Json& at(const Json& j, const std::string& path) {
  static const Json null;
  const Json* v = &j;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t dot = std::min(path.find('.', start), path.size());
    const std::string key = path.substr(start, dot - start);
    if (!v->is_object() || !v->contains(key)) return null;
    v = &(*v)[key];
    start = dot + 1;
  }
  return *v;
}

Json exactJson(const std::optional<ExactCapability>& exact) {
  if (!exact) return nullptr;
  Json conditions = Json::array();
  for (const auto& c : exact->conditions)
    conditions.push_back({{"field", c.field}, {c.test == ExactCondition::Test::Equals ? "equals" : "above", c.value}});
  return {{"solution", idOf(exact->solution)}, {"requires", conditions}};
}

}  // namespace

ExactSolution exactSolutionFor(const SystemEntry& system, const Json& scenario) {
  if (!system.exact)
    throw InputError(InputErrorCode::NoExactSolution, "system", "no exact solution is known for \"" + system.id + "\"");
  for (const auto& c : system.exact->conditions) {
    const Json& value = at(scenario, c.field);
    if (holds(c, value)) continue;
    const bool equals = c.test == ExactCondition::Test::Equals;
    throw InputError(InputErrorCode::NoExactSolution, c.field,
                     std::string("the exact solution (") + idOf(system.exact->solution) + ") holds when it is " +
                         (equals ? "" : "above ") + formatNumber(c.value) + ", got " + shownValue(value));
  }
  return system.exact->solution;
}

Json SystemEntry::toJson() const {
  if (!view) throw std::logic_error("vilab: system " + id + " says no view");
  Json j = {{"id", id},
            {"title", title},
            {"description", description},
            {"model", modelKindName(model)},
            {"view", idOf(*view)},
            {"state", idOf(stateKindOf(model))},
            {"exact", exactJson(exact)}};
  j["params"] = Json::array();
  for (const auto& p : params) j["params"].push_back(p.toJson());
  j["initialFields"] = Json::array();
  for (const auto& f : initialFields)
    j["initialFields"].push_back(
        {{"name", f.name}, {"title", f.title}, {"unit", f.unit}, {"description", f.description}});
  Json defaults = Json::object();
  ParamValues values;
  for (const auto& p : params) {
    defaults[p.name] = p.valueJson(p.defaultValue);
    values.set(p.name, p.defaultValue);
  }
  if (parseParams) {
    // Params given as data travel whole (share links: def=); a definition's documentation
    // is what the page's editor of typed Lagrangians reads.
    defaults = defaultParams;
    j["dataParams"] = true;
    if (definition.is_object()) j["definition"] = definition;
    if (model == ModelKind::Mechanism) j["paramsSchema"] = mechanismParamsSchema();
    if (model == ModelKind::Field) j["paramsSchema"] = fieldParamsSchema();
  }
  j["defaultIntegrator"] = defaultIntegrator;
  Json byIntegrator = Json::object();
  for (const auto& id : integratorsOf(*this)) byIntegrator[id] = vilab::maxStep(*this, *findIntegrator(id));
  j["h"] = {
      {"default", defaultH}, {"min", vilab::minStep(*this)},   {"max", vilab::maxStep(*this)}, {"minExclusive", false},
      {"unit", "s"},         {"maxByIntegrator", byIntegrator}};
  j["defaults"] = {{"system", id},       {"integrator", defaultIntegrator},   {"h", defaultH},
                   {"params", defaults}, {"initial", defaultInitial(values)}, {"options", Json::object()}};
  j["integrators"] = integratorsOf(*this);
  // What the lean build (the page's first load) runs of it, from the applicability table.
  const auto lean = leanIntegratorsOf(*this);
  j["lean"] = {{"system", !lean.empty()}, {"integrators", lean}};
  return j;
}

bool IntegratorEntry::linearizesOn(ModelKind model) const {
  for (ModelKind m : linearizes)
    if (m == model) return true;
  return false;
}

Json IntegratorEntry::toJson() const {
  // the systems it applies to, those where it gives its step's Jacobian, those where it models forcing
  Json systems = Json::array(), linearizable = Json::array(), forced = Json::array();
  for (const SystemEntry& s : systemRegistry()) {
    if (!findPairing(s, *this)) continue;
    systems.push_back(s.id);
    if (linearizesOn(s.model)) linearizable.push_back(s.id);
    if (modelsForcing(*this, s.model)) forced.push_back(s.id);
  }
  Json texts = Json::array(), claims = Json::array();
  for (const auto& c : conserves) {
    texts.push_back(c.text);
    claims.push_back({{"kind", idOf(c.kind)}, {"text", c.text}});
  }
  Json j = {{"id", id},
            {"title", title},
            {"family", idOf(family)},
            {"order", order},
            {"symplectic", symplectic},
            {"symmetric", symmetric},
            {"conserves", texts},
            {"systems", systems},
            {"summary", summary},
            {"forces", forced.size() == systems.size()},  // on every system it applies to
            {"forcedSystems", forced},
            {"variableStep", variableStep},
            {"linearizes", linearizable}};
  // The lean build's prose leaves these out (core/prose/README.md): so does its JSON.
  if (!docs.empty()) j["docs"] = docs;
  if (!equations.empty()) j["equations"] = equations;
  if (!citation.empty()) j["citation"] = citation;
  j["options"] = Json::array();
  for (const auto& o : options) j["options"].push_back(o.toJson());
  j["claims"] = claims;
  return j;
}

namespace {

template <class E>
Json idsOf() {
  Json ids = Json::array();
  for (const char* id : Vocabulary<E>::ids) ids.push_back(id);
  return ids;
}

}  // namespace

Json registryJson() {
  Json j = {{"version", VILAB_VERSION}};
  j["vocabulary"] = {{"models", idsOf<ModelKind>()},
                     {"views", idsOf<ViewKind>()},
                     {"states", idsOf<StateKind>()},
                     {"exactSolutions", idsOf<ExactSolution>()},
                     {"families", idsOf<IntegratorFamily>()},
                     {"claimKinds", idsOf<ClaimKind>()},
                     {"quantities", idsOf<Quantity>()},
                     {"refusalCodes", idsOf<RefusalCode>()},
                     {"suggestionActions", idsOf<SuggestionAction>()},
                     {"inputErrorCodes", idsOf<InputErrorCode>()}};
  j["systems"] = Json::array();
  for (const auto& e : systemRegistry()) j["systems"].push_back(e.toJson());
  j["integrators"] = Json::array();
  for (const auto* e : integratorRegistry()) j["integrators"].push_back(e->toJson());
  j["limits"] = {{"manifoldTolerance", limits::kManifoldTolerance},
                 {"maxScenarioBytes", limits::kMaxScenarioBytes},
                 {"maxScenarioDepth", limits::kMaxScenarioDepth},
                 {"historyStride", {{"min", limits::kMinHistoryStride}, {"max", limits::kMaxHistoryStride}}},
                 {"historyCapacity",
                  {{"min", limits::kMinHistoryCapacity},
                   {"max", limits::kMaxHistoryCapacity},
                   {"default", limits::kDefaultHistoryCapacity}}},
                 {"budgetMs", {{"min", limits::kMinBudgetMs}, {"max", limits::kMaxBudgetMs}}},
                 {"maxStateSize", limits::kMaxStateSize},
                 {"maxLinks", limits::kMaxLinks},
                 {"maxSteps", limits::kMaxSteps},
                 {"maxTrajectoryValues", limits::kMaxTrajectoryValues},
                 {"maxExactTime", limits::kMaxExactTime}};
  return j;
}

}  // namespace vilab
