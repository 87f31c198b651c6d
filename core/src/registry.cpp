#include "vilab/registry.hpp"

#include "integrators/common.hpp"

namespace vilab {

// ---- the entries ------------------------------------------------------------------
SystemEntry oscillatorEntry();
SystemEntry pendulumEntry();
SystemEntry sphericalPendulumEntry();
SystemEntry doubleSphericalPendulumEntry();
SystemEntry chainEntry();
SystemEntry rigidBodyEntry();
SystemEntry heavyTopEntry();

IntegratorEntry midpointIntegrator();
IntegratorEntry trapezoidIntegrator();
IntegratorEntry alphaIntegrator();
IntegratorEntry generalizedIntegrator();
IntegratorEntry penaltyIntegrator();
IntegratorEntry quaternionIntegrator();
IntegratorEntry lieGroupIntegrator();
IntegratorEntry energyMomentumIntegrator();
IntegratorEntry rk4Integrator();
IntegratorEntry eulerIntegrator();

const std::vector<SystemEntry>& systemRegistry() {
  static const std::vector<SystemEntry> entries = {oscillatorEntry(), pendulumEntry(), sphericalPendulumEntry(),
                                                   doubleSphericalPendulumEntry(), chainEntry(),
                                                   rigidBodyEntry(),        heavyTopEntry()};
  return entries;
}

const std::vector<IntegratorEntry>& integratorRegistry() {
  static const std::vector<IntegratorEntry> entries = {midpointIntegrator(),    trapezoidIntegrator(),
                                                       alphaIntegrator(),       generalizedIntegrator(),
                                                       penaltyIntegrator(),     quaternionIntegrator(),
                                                       lieGroupIntegrator(),    energyMomentumIntegrator(),
                                                       rk4Integrator(),         eulerIntegrator()};
  return entries;
}

const std::vector<std::string>& multiplierSystems() {
  static const std::vector<std::string> ids = {"oscillator", "pendulum", "spherical-pendulum",
                                               "double-spherical-pendulum", "chain"};
  return ids;
}

const std::vector<std::string>& allSystems() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> out;
    for (const auto& e : systemRegistry()) out.push_back(e.id);
    return out;
  }();
  return ids;
}

const SystemEntry* findSystem(const std::string& id) {
  for (const auto& e : systemRegistry())
    if (e.id == id) return &e;
  return nullptr;
}

const IntegratorEntry* findIntegrator(const std::string& id) {
  for (const auto& e : integratorRegistry())
    if (e.id == id) return &e;
  return nullptr;
}

bool IntegratorEntry::appliesTo(const std::string& system) const {
  for (const auto& s : systems)
    if (s == system) return true;
  return false;
}

std::unique_ptr<Stepper> makeStepper(const Scenario& s) {
  const IntegratorEntry* integ = findIntegrator(s.integrator);
  if (!integ) throw InputError("integrator", "unknown id");
  return integ->make(instantiateSystem(s), s);
}

// ---- parameter specs -----------------------------------------------------------------
ParamSpec ParamSpec::number(std::string name, std::string title, std::string unit, std::string description,
                            double value, double min, double max, bool minExclusive) {
  ParamSpec p;
  p.name = std::move(name);
  p.title = std::move(title);
  p.unit = std::move(unit);
  p.description = std::move(description);
  p.defaultValue = value;
  p.min = min;
  p.max = max;
  p.minExclusive = minExclusive;
  return p;
}

ParamSpec ParamSpec::vector3(std::string name, std::string title, std::string unit, std::string description,
                             const Vec3& value, double min, double max, bool minExclusive) {
  ParamSpec p = number(std::move(name), std::move(title), std::move(unit), std::move(description), 0, min, max,
                       minExclusive);
  p.kind = Kind::Vector3;
  p.defaultValue = std::vector<double>{value[0], value[1], value[2]};
  return p;
}

ParamSpec ParamSpec::perBody(std::string name, std::string title, std::string unit, std::string description,
                             double value, int count, int minCount, int maxCount, double min, double max,
                             bool minExclusive) {
  ParamSpec p = number(std::move(name), std::move(title), std::move(unit), std::move(description), 0, min, max,
                       minExclusive);
  p.kind = Kind::PerBody;
  p.defaultValue = std::vector<double>(count, value);
  p.minCount = minCount;
  p.maxCount = maxCount;
  return p;
}

Json ParamSpec::read(const Json& v, const std::string& field) const {
  if (v.is_null()) return defaultValue;
  switch (kind) {
    case Kind::Number:
      return readNumberInRange(v, field, min, max, minExclusive);
    case Kind::Vector3: {
      const auto xs = readNumbers(v, field, 3, 3);
      for (int i = 0; i < 3; ++i) readNumberInRange(v[i], field + "[" + std::to_string(i) + "]", min, max, minExclusive);
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

Json ParamSpec::toJson() const {
  Json j = {{"name", name},
            {"title", title},
            {"unit", unit},
            {"description", description},
            {"default", defaultValue},
            {"min", min},
            {"max", max},
            {"minExclusive", minExclusive}};
  switch (kind) {
    case Kind::Number:
      j["kind"] = "number";
      break;
    case Kind::Vector3:
      j["kind"] = "vector3";
      break;
    case Kind::PerBody:
      j["kind"] = "per-body";
      j["minCount"] = minCount;
      j["maxCount"] = maxCount;
      break;
  }
  return j;
}

Json SystemEntry::toJson() const {
  Json j = {{"id", id}, {"title", title}, {"description", description}};
  j["params"] = Json::array();
  for (const auto& p : params) j["params"].push_back(p.toJson());
  j["initialFields"] = Json::array();
  for (const auto& f : initialFields)
    j["initialFields"].push_back(
        {{"name", f.name}, {"title", f.title}, {"unit", f.unit}, {"description", f.description}});
  Json defaults = Json::object();
  for (const auto& p : params) defaults[p.name] = p.defaultValue;
  j["defaultIntegrator"] = defaultIntegrator;
  j["h"] = {{"default", defaultH}, {"min", 0}, {"max", maxH}, {"minExclusive", true}, {"unit", "s"}};
  j["defaults"] = {{"system", id},
                   {"integrator", defaultIntegrator},
                   {"h", defaultH},
                   {"params", defaults},
                   {"initial", defaultInitial(defaults)},
                   {"options", Json::object()}};
  j["integrators"] = Json::array();
  for (const auto& integ : integratorRegistry())
    if (integ.appliesTo(id)) j["integrators"].push_back(integ.id);
  return j;
}

Json IntegratorEntry::toJson() const {
  Json j = {{"id", id},         {"title", title},     {"family", family},       {"order", order},
            {"conserves", conserves}, {"systems", systems}, {"summary", summary}, {"docs", docs},
            {"equations", equations}, {"citation", citation}};
  j["options"] = Json::array();
  for (const auto& o : options) j["options"].push_back(o.toJson());
  return j;
}

Json registryJson() {
  Json j = {{"version", VILAB_VERSION}};
  j["systems"] = Json::array();
  for (const auto& e : systemRegistry()) j["systems"].push_back(e.toJson());
  j["integrators"] = Json::array();
  for (const auto& e : integratorRegistry()) j["integrators"].push_back(e.toJson());
  return j;
}

}  // namespace vilab
