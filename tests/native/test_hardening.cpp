// Hostile input that reached the user unseen: a NUL that cut messages, text after a
// document's end, body positions and natural variables that were not finite, literals
// beyond ±1e300, and steps too small to be taken.
#include <catch2/catch.hpp>
#include <cstring>

#include "support.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_hardening {

using namespace vilab;
using namespace vilab::test;

namespace {

// The InputError parseScenario throws for `text`.
InputError scenarioError(const std::string& text) {
  try {
    parseScenario(text);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no error for " << text.substr(0, 80));
  return InputError(InputErrorCode::Internal, "", "");
}

// No control character (C0, DEL) is left in the text: each was written as \u00XX.
bool noControl(const std::string& s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return false;
  return true;
}

// A system defined by data: one coordinate x and one body at (f(x), 0, 0).
std::string bodyScenario(const std::string& position, double x, double xdot, const std::string& integrator) {
  return Json{
      {"system", "lagrangian"},
      {"integrator", integrator},
      {"h", 0.01},
      {"params",
       {{"coordinates", {"x"}}, {"lagrangian", "x'^2/2 - x^2/2"}, {"bodies", {{{"position", {position, "0", "0"}}}}}}},
      {"initial", {{"q", {x}}, {"qdot", {xdot}}}}}
      .dump();
}

}  // namespace

TEST_CASE("a NUL in user text cuts no message: the whole text, control characters escaped", "[hardening][messages]") {
  const std::string key("ab\0cd", 5);
  const InputError e = scenarioError(Json{{"system", "pendulum"}, {key, 1}}.dump());
  CHECK(e.field() == "ab\\u0000cd");
  CHECK_THAT(e.message(), Catch::StartsWith("ab\\u0000cd: unknown field (known: system, "));
  CHECK(std::strlen(e.what()) == e.message().size());  // a C string of it is whole too
  CHECK(noControl(e.message()));
  // In a value quoted by the message, and every control character, not only NUL.
  const InputError v = scenarioError(Json{{"system", std::string("x\x1b[2J\0\x7f", 7)}}.dump());
  CHECK_THAT(v.message(), Catch::Contains("unknown id \"x\\u001b[2J\\u0000\\u007f\""));
  CHECK(noControl(v.message()));
  const InputError c1 = scenarioError(Json{
      {"system", "pendulum"},
      {"\xC2\x9B"
       "31m",
       1}}.dump());
  CHECK(c1.field() == "\\u009b31m");
  // Escaped text is still cut at 32 bytes.
  const InputError longKey = scenarioError(Json{{"system", "pendulum"}, {std::string(40, '\0'), 1}}.dump());
  CHECK(longKey.field().size() <= 32 + 3);
  CHECK(noControl(longKey.message()));
}

TEST_CASE("only whitespace may follow a document: text after its end is refused with its byte",
          "[hardening][messages]") {
  const std::string doc = R"({"system":"pendulum"})";
  CHECK(scenarioError(doc + std::string("\0 garbage {{{", 13)).message() ==
        "scenario: unexpected text after the scenario at byte 22");
  CHECK(scenarioError(doc + std::string(" \n\0", 3)).message() ==
        "scenario: unexpected text after the scenario at byte 24");
  CHECK(scenarioError(doc + " x").message() == "scenario: unexpected text after the scenario at byte 23");
  CHECK(scenarioError(doc + doc).message() == "scenario: unexpected text after the scenario at byte 22");
  CHECK(scenarioError("42\xC3\xBF").message() == "scenario: unexpected text after the scenario at byte 3");
  CHECK(scenarioError("42\xC3\xBF").code() == InputErrorCode::Syntax);
  CHECK_NOTHROW(parseScenario(doc + " \n\t\r "));
  // A definition's params (the editor's inspectLagrangian) name their own field.
  try {
    parseJsonText(std::string("{}\0x", 4), "params", limits::kMaxScenarioDepth);
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.message() == "params: unexpected text after the JSON value at byte 3");
  }
  // Text that is not a whole document first keeps the parser's own message.
  CHECK_THAT(scenarioError(R"({"system":)" + std::string("\0", 1)).message(),
             Catch::StartsWith("scenario: invalid JSON ("));
}

TEST_CASE("a body position that is not finite refuses the definition or the step, naming body and expression",
          "[hardening][lagrangian]") {
  // log(x) at x = −0.5: refused where it starts, naming the expression's field.
  try {
    simulate(bodyScenario("log(x)", -0.5, 0, "midpoint"));
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.field() == "params.bodies[0].position[0]");
    CHECK(e.message() == "params.bodies[0].position[0]: log(x) is NaN at the initial state");
  }
  try {
    simulate(bodyScenario("1/x", 0, 0, "midpoint"));
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.message() == "params.bodies[0].position[0]: 1/x is Infinity at the initial state");
  }
  // Moving into the domain's edge: log(x) from x = 0.05 towards negative x. The step
  // that leaves it is refused and the state stays at the last good step.
  Simulation sim = simulate(bodyScenario("log(x)", 0.05, -1, "midpoint"));
  try {
    sim.advance(100);
    FAIL("not refused");
  } catch (const StepFailure& e) {
    CHECK(e.refusal().code == RefusalCode::NonFinite);
    CHECK_THAT(e.refusal().reason, Catch::Contains("bodies[0].position[0] = log(x) is NaN"));
    CHECK(sim.step() == e.step() - 1);
    std::vector<double> drawn;
    sim.visualState(drawn);
    for (double x : drawn) CHECK(std::isfinite(x));
  }
  // setState into it names the body too.
  Simulation ok = simulate(bodyScenario("log(x)", 0.5, 0, "midpoint"));
  State s;
  s.q = VecX::Constant(1, -0.5);
  s.p = VecX::Zero(1);
  CHECK_THROWS_WITH(ok.setState(s), Catch::Contains("bodies[0].position[0] = log(x) is NaN at this state"));
  // Negative control: inside the domain it runs and draws finite numbers.
  Simulation fine = simulate(bodyScenario("log(2 + x)", 0.5, 0, "midpoint"));
  fine.advance(1000);
  std::vector<double> drawn;
  fine.visualState(drawn);
  CHECK(std::isfinite(drawn[0]));
}

TEST_CASE("a literal beyond ±1e300 in an expression is refused like any number", "[hardening][lagrangian]") {
  for (const std::string literal : {"1.7e308", "1e301", "2e300"}) {
    INFO(literal);
    try {
      simulate(bodyScenario(literal + "*x", 0.5, 0, "midpoint"));
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(e.field() == "params.bodies[0].position[0]");
      CHECK_THAT(e.message(), Catch::Contains("number " + literal + " is out of range (beyond ±1e300) at column 1"));
    }
  }
  CHECK_NOTHROW(simulate(bodyScenario("1e300*x", 0.5, 0, "midpoint")));
}

TEST_CASE("a penalty bob on the pivot is refused: its angles and rates are not defined", "[hardening][chain]") {
  Simulation sim = simulate(R"({"system":"double-spherical-pendulum","integrator":"penalty","h":0.005})");
  State s;
  s.q = sim.q();
  s.p = sim.p();
  s.q.head<3>().setZero();  // bob 1 on the pivot
  CHECK_THROWS_WITH(sim.setState(s), Catch::StartsWith("q: link 1 has collapsed (bob 1 is on the pivot)"));
  s.q = sim.q();
  s.q.segment<3>(3) = s.q.head<3>();  // bob 2 on bob 1
  CHECK_THROWS_WITH(sim.setState(s), Catch::StartsWith("q: link 2 has collapsed (bob 2 is on the bob above it)"));
  // Off the manifold but not collapsed: penalty takes it.
  s.q = sim.q() * 0.5;
  CHECK_NOTHROW(sim.setState(s));
}

TEST_CASE("an h so small that every step would be refused is refused at load — the smallest accepted h steps",
          "[hardening][registry]") {
  CHECK_THROWS_WITH(parseScenario(std::string(R"({"system":"pendulum","h":4.9e-324})")),
                    Catch::Equals("h: must be at least 1e-12 s, got 4.94066e-324 (with a smaller step every step "
                                  "would be refused)"));
  const Json reg = registryJson();
  for (const auto& system : reg["systems"]) {
    const double hMin = system["h"]["min"].get<double>();
    // 1e-12 s, or 1e-5 s where the rigid body's quaternion DEL applies (its Newton matrix is
    // singular below ~2e-6 s; the mechanism's scales its rows and steps at 1e-12 s)
    const auto& ids = system["integrators"];
    const bool quaternion =
        system["model"] == "rigid-body" && std::find(ids.begin(), ids.end(), "quaternion") != ids.end();
    CHECK(hMin == (quaternion ? 1e-5 : 1e-12));
    CHECK_FALSE(system["h"]["minExclusive"].get<bool>());
    for (const auto& integrator : system["integrators"]) {
      const std::string id = system["id"], integ = integrator;
      Json scenario = acceptsDefault(id, integ) ? Json{{"system", id}} : lagrangianScene("henon-heiles");
      if (!acceptsDefault(id, integ) && !system.contains("definition")) continue;
      scenario["integrator"] = integ;
      scenario["h"] = hMin;
      INFO(id << " " << integ);
      Json below = scenario;
      below["h"] = hMin * (1 - 1e-15);
      CHECK_THROWS_AS(parseScenario(below), InputError);
      Simulation sim(parseScenario(scenario));
      CHECK_NOTHROW(sim.advance(10));
      CHECK(sim.step() == 10);
    }
  }
}

}  // namespace test_hardening
