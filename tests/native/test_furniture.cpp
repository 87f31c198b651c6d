// Scene furniture of systems defined by data (params.bodies entries of kind hoop, pulley,
// wire, curve, floor, wall): validated with errors naming the field, evaluated in the
// visual state (position, angle, radius, points, in q, t and the constants), echoed so
// the echo is itself valid, and never part of the dynamics (the same hash without it).
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "support.hpp"
#include "vilab/expr/parse.hpp"
#include "vilab/scenario.hpp"

using namespace vilab;
using vilab::test::simulate;

namespace {

// The bead on a rotating hoop (R = 1.5, ω = 5) with `extra` entries after its bead.
std::string hoopScenario(const std::string& extra) {
  return R"j({"system":"lagrangian","integrator":"midpoint","h":0.005,
    "params":{"coordinates":["th"],"constants":{"m":1,"R":1.5,"g":9.81,"w":5},
      "lagrangian":"m/2*R^2*(th'^2 + w^2*sin(th)^2) + m*g*R*cos(th)",
      "bodies":[{"position":["R*sin(th)*cos(w*t)","R*sin(th)*sin(w*t)","-R*cos(th)"],"anchor":[0,0,0],"link":"none"})j" +
         extra + R"(]},
    "initial":{"q":[0.3],"qdot":[0]}})";
}

const char* kFurniture = R"(,
  {"kind":"hoop","radius":"R","axis":[0,0,1],"angle":"w*t"},
  {"kind":"wire","position":[0,0,"-R"],"points":[[-1,0,0],[1,0,"R"]]},
  {"kind":"curve","curve":["s","0","s^2"],"range":[-1,1],"samples":5},
  {"kind":"floor","position":[0,0,-2],"size":3},
  {"kind":"pulley","position":[0,0,"R"],"radius":0.1,"angle":"th"})";

std::string failureField(const std::string& scenario) {
  try {
    parseScenario(scenario);
  } catch (const expr::ExpressionError& e) {
    return e.field();
  } catch (const InputError& e) {
    return e.field() + "|" + e.what();
  }
  return "no error";
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

TEST_CASE("furniture: the visual state holds each entry's position, then angles, radii and points", "[furniture]") {
  Simulation sim = simulate(hoopScenario(kFurniture));
  sim.advance(100);
  const double t = sim.time();
  REQUIRE(std::abs(t - 0.5) <= 1e-12);
  std::vector<double> v;
  sim.visualState(v);
  // 6 entries × 3, then hoop (angle, radius), wire (angle, 2 points), curve (angle, 5
  // points), floor (angle), pulley (angle, radius)
  REQUIRE(v.size() == 18u + 2 + (1 + 6) + (1 + 15) + 1 + 2);
  const double th = sim.state().q[0];
  // the bead on the hoop: |bead − hoop centre| = R, in the hoop's plane turned by ω t
  CHECK(std::abs(std::hypot(v[0], v[1], v[2]) - 1.5) <= 1e-12);
  CHECK(std::abs(v[0] - 1.5 * std::sin(th) * std::cos(5 * t)) <= 1e-12);
  CHECK(std::abs(v[1] - 1.5 * std::sin(th) * std::sin(5 * t)) <= 1e-12);
  std::size_t at = 18;
  CHECK(v[at] == 5 * t);    // the hoop's angle: w*t
  CHECK(v[at + 1] == 1.5);  // its radius: R
  at += 2;
  CHECK(v[3 * 2 + 2] == -1.5);  // the wire's position z = -R
  CHECK(v[at] == 0);            // the wire's angle (default)
  CHECK(v[at + 6] == 1.5);      // its second point's z = R
  at += 7;
  for (int k = 0; k < 5; ++k) {
    const double s = -1 + 0.5 * k;
    CHECK(std::abs(v[at + 1 + 3 * k] - s) <= 1e-15);
    CHECK(std::abs(v[at + 3 + 3 * k] - s * s) <= 1e-15);
  }
  at += 16;
  CHECK(v[at] == 0);  // the floor's angle
  at += 1;
  CHECK(v[at] == th);  // the pulley turns with q
  CHECK(v[at + 1] == 0.1);
}

TEST_CASE("furniture: drawn only: the run's bits are those without it, and the echo is valid", "[furniture]") {
  Simulation with = simulate(hoopScenario(kFurniture));
  Simulation without = simulate(hoopScenario(""));
  with.advance(2000);
  without.advance(2000);
  CHECK(with.hash() == without.hash());
  // the echo names every default and is itself a valid scenario with the same run
  const Json echo = Json::parse(with.scenario().normalized);
  const Json& hoop = echo["params"]["bodies"][1];
  CHECK(hoop["kind"] == "hoop");
  CHECK(hoop["radius"] == "R");
  CHECK(hoop["normal"] == Json::array({0, 1, 0}));
  CHECK(hoop["position"] == Json::array({"0", "0", "0"}));
  CHECK(echo["params"]["bodies"][0].contains("kind") == false);  // a body's echo is unchanged
  CHECK(echo["params"]["bodies"][3]["samples"] == 5);
  Simulation again = simulate(with.scenario().normalized);
  again.advance(2000);
  CHECK(again.hash() == with.hash());
  CHECK(again.scenario().normalized == with.scenario().normalized);
}

TEST_CASE("furniture: bad entries are refused naming the field", "[furniture][errors]") {
  const auto field = [](const std::string& entry) { return failureField(hoopScenario(",\n" + entry)); };
  CHECK(startsWith(field(R"({"kind":"hoops","radius":1})"), "params.bodies[1].kind|"));
  CHECK(field(R"({"kind":"hoops","radius":1})").find("\"hoop\"") != std::string::npos);  // says what is known
  CHECK(startsWith(field(R"({"kind":3})"), "params.bodies[1].kind|"));
  CHECK(startsWith(field(R"({"kind":"hoop"})"), "params.bodies[1].radius|"));
  CHECK(startsWith(field(R"({"kind":"hoop","radius":-1})"), "params.bodies[1].radius|"));
  CHECK(startsWith(field(R"({"kind":"hoop","radius":"Rr"})"), "params.bodies[1].radius"));            // unknown name
  CHECK(startsWith(field(R"({"kind":"hoop","radius":1,"angle":"th'"})"), "params.bodies[1].angle"));  // no velocity
  CHECK(startsWith(field(R"({"kind":"hoop","radius":1,"axis":[0,0,0]})"), "params.bodies[1].axis|"));
  CHECK(startsWith(field(R"({"kind":"hoop","radius":1,"normal":[0,1]})"), "params.bodies[1].normal|"));
  CHECK(startsWith(field(R"({"kind":"hoop","radius":1,"points":[]})"), "params.bodies[1].points|"));  // unknown key
  CHECK(startsWith(field(R"({"kind":"wire"})"), "params.bodies[1].points|"));
  CHECK(startsWith(field(R"({"kind":"wire","points":[[0,0,0]]})"), "params.bodies[1].points|"));
  CHECK(startsWith(field(R"({"kind":"wire","points":[[0,0,0],[1,0,"1+"]]})"), "params.bodies[1].points[1][2]"));
  CHECK(startsWith(field(R"({"kind":"wire","points":[[0,0,0],[1,0]]})"), "params.bodies[1].points[1]|"));
  CHECK(startsWith(field(R"({"kind":"wire","points":[[0,0,0],[1,0,0]],"closed":"yes"})"), "params.bodies[1].closed|"));
  CHECK(startsWith(field(R"({"kind":"curve","range":[0,1]})"), "params.bodies[1].curve|"));
  CHECK(startsWith(field(R"({"kind":"curve","curve":["s","0","0"]})"), "params.bodies[1].range|"));
  CHECK(startsWith(field(R"({"kind":"curve","curve":["s","0","0"],"range":[1,0]})"), "params.bodies[1].range|"));
  CHECK(startsWith(field(R"({"kind":"curve","curve":["s","0","0"],"range":[0,1],"samples":500})"),
                   "params.bodies[1].samples|"));
  CHECK(startsWith(field(R"({"kind":"curve","curve":["u","0","0"],"range":[0,1]})"), "params.bodies[1].curve[0]"));
  CHECK(startsWith(field(R"({"kind":"curve","curve":["R","0","0"],"range":[0,1],"parameter":"R"})"),
                   "params.bodies[1].parameter|"));
  CHECK(startsWith(field(R"({"kind":"floor","size":0})"), "params.bodies[1].size|"));
  CHECK(startsWith(field(R"({"kind":"floor","radius":1})"), "params.bodies[1].radius|"));  // not a floor's
  // a body may hang from furniture (an earlier entry), not from a later one
  CHECK(failureField(hoopScenario(R"(,{"kind":"pulley","radius":0.1},{"position":["0","0","-1"],"anchor":1})")) ==
        "no error");
  CHECK(startsWith(
      failureField(hoopScenario(R"(,{"position":["0","0","-1"],"anchor":2},{"kind":"pulley","radius":0.1})")),
      "params.bodies[1].anchor|"));
  // the count of points is limited
  std::string many = R"({"kind":"wire","points":[)";
  for (int i = 0; i < 129; ++i) many += std::string(i ? "," : "") + "[0,0," + std::to_string(i) + "]";
  CHECK(startsWith(field(many + "]}"), "params.bodies[1].points|"));
}

TEST_CASE("furniture: every shipped scene's furniture is valid and leaves its run unchanged", "[furniture]") {
  for (const char* id : {"rotating-hoop", "cart-pendulum", "swinging-atwood", "kapitza", "fput", "henon-heiles",
                         "driven-damped-pendulum"}) {
    INFO(id);
    std::ifstream in(std::string(VILAB_SCENES_DIR) + "/lagrangian/" + id + ".json");
    std::stringstream text;
    text << in.rdbuf();
    Json scene = Json::parse(text.str());
    scene.erase("about");
    Json bare = scene;
    Json bodies = Json::array();
    bool furnished = false;
    for (const auto& b : scene["params"]["bodies"]) {
      if (b.contains("kind") && b["kind"] != "body")
        furnished = true;
      else
        bodies.push_back(b);
    }
    CHECK(furnished);
    bare["params"]["bodies"] = bodies;
    Simulation with = simulate(scene.dump());
    Simulation without = simulate(bare.dump());
    with.advance(500);
    without.advance(500);
    CHECK(with.hash() == without.hash());
    std::vector<double> v;
    with.visualState(v);
    for (double x : v) CHECK(std::isfinite(x));
  }
}
