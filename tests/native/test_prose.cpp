// The registry's words (core/prose/README.md), checked against the entries: each entry
// has its complete English prose, with as many claims as it claims, and no prose names an
// entry, option, parameter or field that does not exist.
#include <catch2/catch.hpp>
#include <set>

#include "support.hpp"
#include "vilab/prose.hpp"

using namespace vilab;

namespace {

template <class Spec>
void checkDescribed(const std::vector<Spec>& specs) {
  for (const Spec& spec : specs) {
    INFO(spec.name);
    CHECK_FALSE(spec.title.empty());
    CHECK_FALSE(spec.description.empty());
  }
}

// Every key of `prose` is one of `allowed`.
void checkKeys(const Json& prose, const std::set<std::string>& allowed) {
  REQUIRE(prose.is_object());
  for (const auto& [key, value] : prose.items()) {
    INFO("key " << key);
    CHECK(allowed.count(key) == 1);
  }
}

// Every name of {name: {title, description}} is one of the specs'.
template <class Spec>
void checkNames(const Json& prose, const std::vector<Spec>& specs) {
  std::set<std::string> names;
  for (const Spec& spec : specs) names.insert(spec.name);
  for (const auto& [name, words] : prose.items()) {
    INFO(name);
    CHECK(names.count(name) == 1);
    checkKeys(words, {"title", "description"});
  }
}

}  // namespace

TEST_CASE("every registry entry has its complete English prose", "[registry][prose]") {
  for (const auto* integrator : integratorRegistry()) {
    INFO(integrator->id);
    CHECK_FALSE(integrator->title.empty());
    CHECK_FALSE(integrator->summary.empty());
    CHECK_FALSE(integrator->docs.empty());
    CHECK_FALSE(integrator->equations.empty());
    CHECK_FALSE(integrator->citation.empty());
    REQUIRE(englishProse().at("integrators").contains(integrator->id));
    const Json& prose = englishProse().at("integrators").at(integrator->id);
    CHECK(prose.at("claims").size() == integrator->conserves.size());
    for (const Claim& claim : integrator->conserves) CHECK_FALSE(claim.text.empty());
    for (const auto& line : prose.at("equations")) CHECK_FALSE(line.get<std::string>().empty());
    checkDescribed(integrator->options);
  }
  for (const auto& system : systemRegistry()) {
    INFO(system.id);
    CHECK_FALSE(system.title.empty());
    CHECK_FALSE(system.description.empty());
    checkDescribed(system.params);
    checkDescribed(system.initialFields);
    if (system.definition.is_null()) continue;
    CHECK_FALSE(system.definition.value("notes", "").empty());
    for (const auto& field : system.definition.at("fields")) {
      INFO(field.at("name"));
      CHECK_FALSE(field.value("title", "").empty());
      CHECK_FALSE(field.value("description", "").empty());
    }
  }
}

TEST_CASE("no prose names an entry, option, parameter or field that does not exist", "[registry][prose]") {
  checkKeys(englishProse(), {"integrators", "systems"});
  for (const auto& [id, prose] : englishProse().at("integrators").items()) {
    INFO("integrators/" << id);
    const IntegratorEntry* integrator = findIntegrator(id);
    REQUIRE(integrator);
    checkKeys(prose, {"title", "summary", "docs", "equations", "citation", "claims", "options"});
    if (prose.contains("options")) checkNames(prose.at("options"), integrator->options);
  }
  for (const auto& [id, prose] : englishProse().at("systems").items()) {
    INFO("systems/" << id);
    const SystemEntry* system = findSystem(id);
    REQUIRE(system);
    checkKeys(prose, {"title", "description", "params", "initialFields", "definition"});
    if (prose.contains("params")) checkNames(prose.at("params"), system->params);
    if (prose.contains("initialFields")) checkNames(prose.at("initialFields"), system->initialFields);
    if (!prose.contains("definition")) continue;
    REQUIRE(system->definition.is_object());
    checkKeys(prose.at("definition"), {"fields", "notes"});
    std::set<std::string> fields;
    for (const auto& field : system->definition.at("fields")) fields.insert(field.at("name").get<std::string>());
    for (const auto& [name, words] : prose.at("definition").at("fields").items()) {
      INFO(name);
      CHECK(fields.count(name) == 1);
      checkKeys(words, {"title", "description"});
    }
  }
}
