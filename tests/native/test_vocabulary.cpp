// The vocabularies (core/include/vilab/vocabulary.hpp) as the registry publishes them,
// the codes bad input carries, and each system's capabilities: its view and the
// conditions of its exact solution, checked by exactSolutionFor.
#include <catch2/catch.hpp>
#include <set>

#include "support.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

// The code of the InputError parseScenario throws for `scenario`.
std::string inputCode(const Json& scenario) {
  try {
    parseScenario(scenario);
  } catch (const InputError& e) {
    return idOf(e.code());
  }
  FAIL("no error for " << scenario.dump());
  return "";
}

// The field of the no-exact-solution error for a scenario, or "" when the solution holds.
std::string unmetField(const Json& scenario) {
  const Scenario s = parseScenario(scenario);
  try {
    exactSolutionFor(*s.system, Json::parse(s.normalized));
    return "";
  } catch (const InputError& e) {
    CHECK(e.code() == InputErrorCode::NoExactSolution);
    return e.field();
  }
}

}  // namespace

TEST_CASE("every vocabulary is published once: non-empty lists of distinct ids", "[vocabulary]") {
  const Json vocabulary = registryJson()["vocabulary"];
  const std::set<std::string> keys = {
      "models",     "views",      "states",       "exactSolutions",    "families",
      "claimKinds", "quantities", "refusalCodes", "suggestionActions", "inputErrorCodes"};
  CHECK(vocabulary.size() == keys.size());
  for (const auto& [key, ids] : vocabulary.items()) {
    INFO(key);
    CHECK(keys.count(key) == 1);
    REQUIRE(ids.is_array());
    CHECK(!ids.empty());
    std::set<std::string> seen;
    for (const auto& id : ids) CHECK(seen.insert(id.get<std::string>()).second);
  }
  CHECK(vocabulary["refusalCodes"] ==
        Json::array({"no-convergence", "diverged", "singular-matrix", "non-finite", "spurious-root"}));
  CHECK(std::string(refusalCodeName(RefusalCode::None)) == "none");
  CHECK(std::string(refusalCodeName(RefusalCode::SpuriousRoot)) == "spurious-root");
  CHECK(std::string(modelKindName(ModelKind::Lagrangian)) == "lagrangian");
}

TEST_CASE("registry entries use only the published ids", "[vocabulary]") {
  const Json reg = registryJson();
  const auto in = [&](const char* list, const Json& id) {
    for (const auto& x : reg["vocabulary"][list])
      if (x == id) return true;
    return false;
  };
  for (const auto& s : reg["systems"]) {
    INFO(s["id"]);
    CHECK(in("models", s["model"]));
    CHECK(in("views", s["view"]));
    CHECK(in("states", s["state"]));
    if (!s["exact"].is_null()) CHECK(in("exactSolutions", s["exact"]["solution"]));
  }
  for (const auto& i : reg["integrators"]) {
    INFO(i["id"]);
    CHECK(in("families", i["family"]));
    REQUIRE(i["claims"].size() == i["conserves"].size());
    for (std::size_t k = 0; k < i["claims"].size(); ++k) {
      CHECK(in("claimKinds", i["claims"][k]["kind"]));
      CHECK(i["claims"][k]["text"] == i["conserves"][k]);
    }
  }
}

TEST_CASE("claims tell exact from bounded energy", "[vocabulary]") {
  const auto kinds = [](const char* id) {
    std::vector<ClaimKind> out;
    for (const auto& c : findIntegrator(id)->conserves) out.push_back(c.kind);
    return out;
  };
  CHECK(kinds("midpoint") == std::vector<ClaimKind>{ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Constraints,
                                                    ClaimKind::EnergyBounded});
  for (const char* id : {"energy-momentum", "penalty-energy-momentum", "sem"}) {
    INFO(id);
    const auto k = kinds(id);
    CHECK(std::count(k.begin(), k.end(), ClaimKind::Energy) == 1);
  }
  CHECK(kinds("rk4") == std::vector<ClaimKind>{ClaimKind::Constraints, ClaimKind::Constraints});
}

TEST_CASE("bad input carries the code of its problem", "[vocabulary][input]") {
  CHECK(inputCode(Json{{"integrator", "midpoint"}}) == "missing");
  CHECK(inputCode(Json{{"system", 3}}) == "type");
  CHECK(inputCode(Json{{"system", "pendulum2"}}) == "unknown-id");
  CHECK(inputCode(Json{{"system", "pendulum"}, {"h", -1}}) == "range");
  CHECK(inputCode(Json{{"system", "pendulum"}, {"bogus", 1}}) == "unknown-key");
  CHECK(inputCode(Json{{"system", "pendulum"}, {"params", {{"masses", {1, 2}}}}}) == "length");
  CHECK(inputCode(Json{{"system", "pendulum"}, {"integrator", "quaternion"}}) == "not-applicable");
  CHECK(inputCode(Json{{"system", "rigid-body"}, {"initial", {{"orientation", {1, 1, 0, 0}}}}}) == "off-manifold");
  CHECK(inputCode(Json{{"system", "rigid-body"}, {"params", {{"inertia", {1, 2, 4}}}}}) == "invalid");
  CHECK(inputCode(Json{{"system", "chain"},
                       {"initial", {{"angles", {{1, 0}}}, {"positions", {{0, 0, -1}}}}},
                       {"params", {{"masses", {1}}, {"lengths", {1}}}}}) == "conflict");
  CHECK(inputCode(Json{{"system", "lagrangian"}, {"params", {{"coordinates", {"x"}}, {"lagrangian", "x'^2 +"}}}}) ==
        "syntax");
  try {
    parseScenario(std::string("{\"system\": "));
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.code() == InputErrorCode::Syntax);
  }
}

TEST_CASE("each system names its view, and its exact solution with the conditions it needs", "[vocabulary][exact]") {
  const Json reg = registryJson();
  // The scene follows from the model, and for a rigid body from whether gravity acts (a
  // parameter of quantity "gravity"): a heavy top about its fixed point, else a free body.
  for (const auto& s : reg["systems"]) {
    INFO(s["id"]);
    bool gravity = false;
    for (const auto& p : s["params"]) gravity = gravity || p.value("quantity", "") == "gravity";
    const std::string model = s["model"];
    const std::string expected = model == "chain"        ? "linkage"
                                 : model == "oscillator" ? "oscillator"
                                 : model == "lagrangian" ? "bodies"
                                 : model == "mechanism"  ? "mechanism"
                                 : model == "field"      ? "field"
                                 : gravity               ? "top"
                                                         : "rigid";
    CHECK(s["view"] == expected);
  }
  CHECK(findSystem("heavy-top")->toJson()["view"] == "top");
  CHECK(findSystem("rigid-body")->toJson()["view"] == "rigid");
  CHECK(findSystem("pendulum")->toJson()["exact"] ==
        Json::parse(R"({"solution": "pendulum", "requires": [{"field": "params.damping", "equals": 0},
                                                              {"field": "params.g", "above": 0}]})"));
  CHECK(findSystem("heavy-top")->toJson()["exact"].is_null());

  CHECK(unmetField(Json{{"system", "oscillator"}}).empty());
  CHECK(unmetField(Json{{"system", "oscillator"}, {"params", {{"damping", 0.1}}}}) == "params.damping");
  CHECK(unmetField(Json{{"system", "pendulum"}}).empty());
  CHECK(unmetField(Json{{"system", "pendulum"}, {"params", {{"g", 0}}}}) == "params.g");
  CHECK(unmetField(Json{{"system", "pendulum"}, {"params", {{"damping", 0.2}}}}) == "params.damping");
  CHECK(unmetField(Json{{"system", "rigid-body"}}).empty());
  CHECK(unmetField(Json{{"system", "rigid-body"}, {"params", {{"torque", {0, 1, 0}}}}}) == "params.torque");
  CHECK(unmetField(Json{{"system", "heavy-top"}}) == "system");
  CHECK(unmetField(Json{{"system", "spherical-pendulum"}}) == "system");
  try {
    const Scenario s = parseScenario(Json{{"system", "rigid-body"}, {"params", {{"torque", {0, 1, 0}}}}});
    exactSolutionFor(*s.system, Json::parse(s.normalized));
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "params.torque: the exact solution (rigid-body) holds when it is 0, got [0, 1, 0]");
  }
}

TEST_CASE("a refused step carries its action beside its words", "[vocabulary][failure]") {
  Scenario s = parseScenario(Json{{"system", "double-spherical-pendulum"}, {"integrator", "midpoint"}, {"h", 0.1}});
  Simulation sim(s);
  try {
    sim.advance(5000);
    FAIL("no refusal");
  } catch (const StepFailure& e) {
    CHECK(e.refusal().action == SuggestionAction::ReduceH);
    CHECK(e.refusal().suggestion == "reduce h");
  }
}
