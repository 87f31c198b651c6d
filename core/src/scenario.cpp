#include "vilab/scenario.hpp"

#include "vilab/forcing.hpp"
#include "vilab/limits.hpp"

namespace vilab {

namespace {

std::string joinIds(const std::vector<std::string>& ids) {
  std::string s;
  for (const auto& id : ids) s += (s.empty() ? "" : ", ") + id;
  return s;
}

std::string shortKey(const std::string& key) { return cutForMessage(key); }

}  // namespace

Scenario parseScenario(const std::string& text) {
  if (text.size() > limits::kMaxScenarioBytes)
    throw InputError(InputErrorCode::TooLarge, "scenario",
                     "too large (" + std::to_string(text.size()) + " bytes; the limit is 4 MiB)");
  const Json j = parseJsonText(text, "scenario", limits::kMaxScenarioDepth);
  return parseScenario(j);
}

Scenario parseScenario(const Json& j) {
  requireObject(j, "scenario");
  rejectUnknownKeys(j, "", {"system", "integrator", "h", "params", "initial", "options", "about"});
  // `about` documents a scene (title, lesson, the invariants its tests check): the
  // engine ignores it, but it must be an object.
  if (j.contains("about")) requireObject(j["about"], "about");
  Scenario s;

  // system
  if (!j.contains("system")) throw InputError(InputErrorCode::Missing, "system", "is required");
  const Json& sys = j["system"];
  if (!sys.is_string())
    throw InputError(InputErrorCode::Type, "system", "must be a string id, got " + describeJson(sys));
  s.system = findSystem(sys.get<std::string>());
  if (!s.system) {
    std::vector<std::string> ids;
    for (const auto& e : systemRegistry()) ids.push_back(e.id);
    throw InputError(InputErrorCode::UnknownId, "system",
                     "unknown id " + describeJson(sys).substr(7) + " (known: " + joinIds(ids) + ")");
  }
  const SystemEntry& system = *s.system;

  // integrator
  s.integrator = findIntegrator(system.defaultIntegrator);
  if (j.contains("integrator")) {
    const Json& ij = j["integrator"];
    if (!ij.is_string())
      throw InputError(InputErrorCode::Type, "integrator", "must be a string id, got " + describeJson(ij));
    s.integrator = findIntegrator(ij.get<std::string>());
    if (!s.integrator) {
      std::vector<std::string> ids;
      for (const auto* e : integratorRegistry()) ids.push_back(e->id);
      throw InputError(InputErrorCode::UnknownId, "integrator",
                       "unknown id " + describeJson(ij).substr(7) + " (known: " + joinIds(ids) + ")");
    }
  }
  s.pairing = findPairing(system, *s.integrator);
  if (!s.pairing)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "\"" + s.integrator->id + "\" does not apply to system \"" + system.id +
                         "\" (use one of: " + joinIds(integratorsOf(system)) + ")");
  if (!inThisBuild(*s.pairing))
    throw NotInLeanBuild(system.parseParams ? "system" : "integrator",
                         "\"" + s.integrator->id + "\" on \"" + system.id + "\"");

  // h: from the smallest step that can still be taken up to the system's largest step (measured:
  // core/src/step_limits.cpp)
  const double hMax = maxStep(system);
  if (j.contains("h")) {
    s.h = readNumber(j["h"], "h");
    const std::string range = "must be in (0, " + formatNumber(hMax) + "], got " + formatNumber(s.h);
    if (!(s.h > 0)) throw InputError(InputErrorCode::Range, "h", range);
    const double hMin = minStep(system);
    if (s.h < hMin)
      throw InputError(InputErrorCode::Range, "h",
                       "must be at least " + formatNumber(hMin) + " s, got " + formatNumber(s.h) +
                           " (with a smaller step every step would be refused)");
    if (s.h > hMax)
      throw InputError(InputErrorCode::Range, "h",
                       range + " (with a larger step no structure-preserving integrator solves the default " +
                           system.id + " motion)");
  } else {
    s.h = system.defaultH;
  }

  // params
  const Json none = Json::object();
  const Json& pj = j.contains("params") ? j["params"] : none;
  requireObject(pj, "params");
  ParamValues params;
  Json paramsJson = Json::object();
  if (system.parseParams) {
    // A system defined by data: the definition is the params object as a whole.
    s.model = system.parseParams(j.contains("params") ? pj : system.defaultParams, paramsJson);
  }
  for (auto it = pj.begin(); it != pj.end() && !system.parseParams; ++it) {
    bool known = false;
    for (const auto& spec : system.params) known = known || spec.name == it.key();
    if (!known) {
      std::vector<std::string> names;
      for (const auto& spec : system.params) names.push_back(spec.name);
      throw InputError(InputErrorCode::UnknownKey, joinField("params", shortKey(it.key())),
                       "unknown parameter of " + system.id + " (known: " + joinIds(names) + ")");
    }
  }
  for (const auto& spec : system.params) {
    auto value = spec.read(pj.contains(spec.name) ? pj[spec.name] : Json(), "params." + spec.name);
    paramsJson[spec.name] = spec.valueJson(value);
    params.set(spec.name, std::move(value));
  }
  if (!system.parseParams) s.model = system.build(params);
  if (system.checkIntegrator) system.checkIntegrator(s.model, *s.integrator);

  // forcing (damping, torque, a driving force): only integrators that model it
  if (!modelsForcing(*s.integrator, system.model) && std::visit([](const auto& m) { return m.forced(); }, s.model)) {
    std::vector<std::string> ids;
    for (const auto& id : integratorsOf(system))
      if (modelsForcing(*findIntegrator(id), system.model)) ids.push_back(id);
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "\"" + s.integrator->id +
                         "\" does not model forcing, and this system is forced (damping, torque or a "
                         "driving force): use one of: " +
                         joinIds(ids));
  }

  // options of the integrator
  const Json& oj = j.contains("options") ? j["options"] : none;
  requireObject(oj, "options");
  const IntegratorEntry& integ = *s.integrator;
  for (auto it = oj.begin(); it != oj.end(); ++it) {
    bool known = false;
    for (const auto& spec : integ.options) known = known || spec.name == it.key();
    if (!known) {
      std::vector<std::string> names;
      for (const auto& spec : integ.options) names.push_back(spec.name);
      throw InputError(InputErrorCode::UnknownKey, joinField("options", shortKey(it.key())),
                       "not an option of integrator " + integ.id +
                           (names.empty() ? " (it has none)" : " (known: " + joinIds(names) + ")"));
    }
  }
  Json optionsJson = Json::object();
  for (const auto& spec : integ.options) {
    const auto value = spec.read(oj.contains(spec.name) ? oj[spec.name] : Json(), "options." + spec.name);
    optionsJson[spec.name] = spec.valueJson(value);
    s.options.set(spec.name, value.at(0));
  }

  // initial data: validated, normalized and projected by the system
  Json initial;
  if (j.contains("initial")) {
    requireObject(j["initial"], "initial");
    initial = j["initial"];
  } else if (system.parseParams && j.contains("params")) {
    initial = Json::object();  // a new definition has no default state: the system says what it needs
  } else {
    initial = system.defaultInitial(params);
  }
  s.initial = system.initialState(s.model, initial);

  Json normalized = Json::object();
  normalized["system"] = system.id;
  normalized["integrator"] = integ.id;
  normalized["h"] = s.h;
  normalized["params"] = paramsJson;
  normalized["initial"] = initial;
  normalized["options"] = optionsJson;
  // replace, not throw, should a string ever hold invalid UTF-8: a dump never fails
  s.normalized = normalized.dump(-1, ' ', false, Json::error_handler_t::replace);
  return s;
}

std::unique_ptr<Integrator> makeIntegrator(const Scenario& s) {
  std::unique_ptr<Integrator> integrator = s.pairing->make(s.model, s.options, s.h);
  integrator->load(s.initial);
  integrator->checkStart(s.initial);
  return integrator;
}

}  // namespace vilab
