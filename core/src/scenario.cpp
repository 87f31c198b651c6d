#include "vilab/scenario.hpp"

#include "vilab/registry.hpp"

namespace vilab {

namespace {
constexpr std::size_t kMaxScenarioBytes = 4u << 20;
constexpr int kMaxScenarioDepth = 32;

std::string knownIds(const std::vector<std::string>& ids) {
  std::string s;
  for (const auto& id : ids) s += (s.empty() ? "" : ", ") + id;
  return s;
}
}  // namespace

Json Scenario::toJson() const {
  Json j = Json::object();
  j["system"] = system;
  j["integrator"] = integrator;
  j["h"] = h;
  j["params"] = params;
  j["initial"] = initial;
  j["options"] = options;
  return j;
}

Scenario parseScenario(const std::string& text) {
  if (text.size() > kMaxScenarioBytes)
    throw InputError("scenario", "too large (" + std::to_string(text.size()) + " bytes; the limit is 4 MiB)");
  Json j;
  try {
    // Bounded nesting: deeper documents are rejected while parsing, before a
    // recursive copy or destruction of the tree could overflow the stack.
    j = Json::parse(text, [](int depth, Json::parse_event_t, Json&) {
      if (depth > kMaxScenarioDepth)
        throw InputError("scenario", "nested too deeply (more than " + std::to_string(kMaxScenarioDepth) + " levels)");
      return true;
    });
  } catch (const Json::parse_error& e) {
    throw InputError("scenario", std::string("invalid JSON (") + e.what() + ")");
  }
  return parseScenario(j);
}

Scenario parseScenario(const Json& j) {
  requireObject(j, "scenario");
  rejectUnknownKeys(j, "", {"system", "integrator", "h", "params", "initial", "options"});

  Scenario s;
  // system
  if (!j.contains("system")) throw InputError("system", "is required");
  const Json& sys = j["system"];
  if (!sys.is_string()) throw InputError("system", "must be a string id, got " + describeJson(sys));
  const SystemEntry* entry = findSystem(sys.get<std::string>());
  if (!entry) {
    std::vector<std::string> ids;
    for (const auto& e : systemRegistry()) ids.push_back(e.id);
    throw InputError("system", "unknown id " + describeJson(sys).substr(7) + " (known: " + knownIds(ids) + ")");
  }
  s.system = entry->id;

  // integrator
  const IntegratorEntry* integ = findIntegrator(entry->defaultIntegrator);
  if (j.contains("integrator")) {
    const Json& ij = j["integrator"];
    if (!ij.is_string()) throw InputError("integrator", "must be a string id, got " + describeJson(ij));
    integ = findIntegrator(ij.get<std::string>());
    if (!integ) {
      std::vector<std::string> ids;
      for (const auto& e : integratorRegistry()) ids.push_back(e.id);
      throw InputError("integrator", "unknown id " + describeJson(ij).substr(7) + " (known: " + knownIds(ids) + ")");
    }
  }
  if (!integ->appliesTo(s.system)) {
    std::vector<std::string> ids;
    for (const auto& e : integratorRegistry())
      if (e.appliesTo(s.system)) ids.push_back(e.id);
    throw InputError("integrator", "\"" + integ->id + "\" does not apply to system \"" + s.system +
                                       "\" (use one of: " + knownIds(ids) + ")");
  }
  s.integrator = integ->id;

  // h
  s.h = j.contains("h") ? readNumberInRange(j["h"], "h", 0, entry->maxH, true) : entry->defaultH;

  // params
  const Json noParams = Json::object();
  const Json& pj = j.contains("params") ? j["params"] : noParams;
  requireObject(pj, "params");
  for (auto it = pj.begin(); it != pj.end(); ++it) {
    bool known = false;
    for (const auto& spec : entry->params) known = known || spec.name == it.key();
    if (!known) {
      std::vector<std::string> names;
      for (const auto& spec : entry->params) names.push_back(spec.name);
      throw InputError(joinField("params", it.key().size() <= 32 ? it.key() : it.key().substr(0, 32) + "…"),
                       "unknown parameter of " + s.system + " (known: " + knownIds(names) + ")");
    }
  }
  for (const auto& spec : entry->params)
    s.params[spec.name] = spec.read(pj.contains(spec.name) ? pj[spec.name] : Json(), "params." + spec.name);

  // options of the integrator
  const Json& oj = j.contains("options") ? j["options"] : noParams;
  requireObject(oj, "options");
  s.options = Json::object();
  for (auto it = oj.begin(); it != oj.end(); ++it) {
    bool known = false;
    for (const auto& spec : integ->options) known = known || spec.name == it.key();
    if (!known) {
      std::vector<std::string> names;
      for (const auto& spec : integ->options) names.push_back(spec.name);
      throw InputError(joinField("options", it.key().size() <= 32 ? it.key() : it.key().substr(0, 32) + "…"),
                       "not an option of integrator " + integ->id +
                           (names.empty() ? " (it has none)" : " (known: " + knownIds(names) + ")"));
    }
  }
  for (const auto& spec : integ->options)
    s.options[spec.name] = spec.read(oj.contains(spec.name) ? oj[spec.name] : Json(), "options." + spec.name);

  // initial data: validated and normalized by the system
  if (j.contains("initial")) {
    requireObject(j["initial"], "initial");
    s.initial = j["initial"];
  } else {
    s.initial = entry->defaultInitial(s.params);
  }
  entry->instantiate(s.params, s.initial);
  return s;
}

SystemInstance instantiateSystem(const Scenario& s) {
  const SystemEntry* entry = findSystem(s.system);
  if (!entry) throw InputError("system", "unknown id");
  Json initial = s.initial;
  return entry->instantiate(s.params, initial);
}

}  // namespace vilab
