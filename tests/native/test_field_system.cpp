// The `field` system: its scenario form, refusals by field, every shipped scene of
// scenes/fields/ on every integrator it accepts (energy window ratios over a long run),
// the registry's leapfrog and RK4 against the methods of models/field.hpp used directly,
// the canonical state through setState, and fixed fingerprints.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "field_scenes.hpp"
#include "support.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_field_system {

using namespace vilab;
using namespace vilab::test;

namespace {

const char* const kScenes[] = {"plucked-string", "nonlinear-string", "klein-gordon", "sine-gordon-kink",
                               "kink-antikink",  "breather",         "phi4-kink",    "stiff-string"};

// The explicit schemes a scene's h is beyond the CFL limit of: the stiff string's leapfrog
// and RK4 blow up, its lesson's point (test_field_stiff.cpp).
bool beyondLimit(const std::string& scene, const std::string& integrator) {
  return scene == "stiff-string" && (integrator == "trapezoid" || integrator == "rk4");
}

// The scene with another integrator: the scene's options are its own integrator's.
Json withIntegrator(Json scene, const std::string& integrator) {
  if (scene["integrator"] != integrator) scene.erase("options");
  scene["integrator"] = integrator;
  return scene;
}

// A scene's file: the scenario and its `about` block.
Json sceneFile(const std::string& name) {
  std::ifstream in(std::string(VILAB_SCENES_DIR) + "/fields/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

Json fieldScene(const std::string& name) {
  Json j = sceneFile(name);
  j.erase("about");
  return j;
}

// fields.hpp's energy window ratio, through the registry: max − min of E − E₀ over the
// whole run over the same over its first tenth.
double windowRatio(const Json& scenario, const std::string& integrator, int steps) {
  Simulation sim = simulate(withIntegrator(scenario, integrator).dump(), 1000);
  const double e0 = sim.diagnostics().energy;
  double lo = 0, hi = 0, early = 0;
  for (int k = 1; k <= steps; ++k) {
    sim.advance(1);
    const double e = sim.diagnostics().energy - e0;
    lo = std::min(lo, e);
    hi = std::max(hi, e);
    if (k == steps / 10) early = hi - lo;
  }
  return (hi - lo) / early;
}

}  // namespace

TEST_CASE("field system: the default is the plucked string, and the leapfrog is field.hpp's, bit for bit",
          "[field][field-system]") {
  Simulation sim = simulate(Json{{"system", "field"}}.dump());
  REQUIRE(sim.scenario().integrator->id == "trapezoid");
  const FieldModel& model = std::get<FieldModel>(sim.scenario().model);
  CHECK(model.points() == 128);
  field::State s;
  REQUIRE(model.toField(sim.state(), s));
  field::Leapfrog direct;
  run(sim, 1000);
  for (int k = 0; k < 1000; ++k) direct.step(model.density, model.grid, s, sim.scenario().h);
  State canonical;
  model.toCanonical(s, canonical);
  CHECK(canonical.q == sim.state().q);
  CHECK(canonical.p == sim.state().p);
  CHECK(sim.state().q[0] == 0);
  CHECK(sim.state().p[127] == 0);
}

TEST_CASE("field system: every refusal names its field", "[field][field-system]") {
  const Json good = fieldScene("sine-gordon-kink");
  REQUIRE(refusedAt(good).empty());
  auto with = [&](auto change) {
    Json j = good;
    change(j);
    return refusedAt(j);
  };
  CHECK(with([](Json& j) { j["params"]["grid"]["points"] = 4097; }) == "params.grid.points");
  CHECK(with([](Json& j) { j["params"]["grid"]["points"] = 2.5; }) == "params.grid.points");
  CHECK(with([](Json& j) { j["params"]["grid"].erase("points"); }) == "params.grid.points");
  CHECK(with([](Json& j) { j["params"]["grid"]["length"] = -1; }) == "params.grid.length");
  CHECK(with([](Json& j) { j["params"]["grid"]["ends"] = "clamped"; }) == "params.grid.ends");
  CHECK(with([](Json& j) { j["params"]["grid"]["width"] = 1; }) == "params.grid.width");
  CHECK(with([](Json& j) { j["params"].erase("grid"); }) == "params.grid");
  CHECK(with([](Json& j) { j["params"]["density"]["family"] = "korteweg"; }) == "params.density.family");
  CHECK(with([](Json& j) { j["params"]["density"]["rho"] = 0; }) == "params.density.rho");
  CHECK(with([](Json& j) { j["params"]["density"]["kappa"] = "0"; }) == "params.density.kappa");
  CHECK(with([](Json& j) { j["params"]["density"]["kappa"] = true; }) == "params.density.kappa");
  CHECK(with([](Json& j) { j["params"]["density"]["lambda"] = 1; }) == "params.density.lambda");
  CHECK(with([](Json& j) { j["params"]["density"]["lagrangian"] = "u_t^2"; }) == "params.density.family");
  CHECK(with([](Json& j) {
          j["params"]["density"] = {{"lagrangian", "0.5*u_t^2 - u_y^2"}};
        }) == "params.density.lagrangian");
  CHECK(with([](Json& j) {
          j["params"]["density"] = {{"lagrangian", "0.5*u_t^2 - t*u_x^2"}};
        }) == "params.density.lagrangian");
  CHECK(with([](Json& j) { j["params"]["constants"]["sin"] = 1; }) == "params.constants.sin");
  CHECK(with([](Json& j) { j["params"]["constants"]["u_x"] = 1; }) == "params.constants.u_x");
  CHECK(with([](Json& j) { j["params"]["colour"] = 1; }) == "params.colour");
  CHECK(with([](Json& j) { j["initial"]["u"] = "4*atan2(exp(y), 1)"; }) == "initial.u");
  CHECK(with([](Json& j) { j["initial"]["ut"] = "1/(x - x)"; }) == "initial.ut");
  CHECK(with([](Json& j) { j["initial"]["u"] = "1e7"; }) == "initial.u");
  CHECK(with([](Json& j) { j["initial"]["v"] = "0"; }) == "initial.v");
  CHECK(with([](Json& j) { j["integrator"] = "rattle"; }) == "integrator");
  CHECK(with([](Json& j) { j["options"] = {{"fine", 2}}; }) == "options.fine");
  // A typed density runs every field integrator.
  Json typed = fieldScene("nonlinear-string");
  for (const char* id : {"midpoint", "trapezoid", "rk4", "dopri5", "avi"}) {
    typed["integrator"] = id;
    INFO(id);
    CHECK(refusedAt(typed).empty());
  }
  // The AVI's options.
  Json avi = good;
  avi["integrator"] = "avi";
  avi["options"] = {{"fine", 0}};
  CHECK(refusedAt(avi) == "options.fine");
  avi["options"] = {{"fine", 4}, {"from", 1.5}};
  CHECK(refusedAt(avi) == "options.from");
}

// Over each scene's own run (about.steps). The kink–antikink collision comes after the
// first tenth by design (a quiet approach, then the collision's excursion): its energy is
// held to 1e-3 relative instead, test_field.cpp's threshold for the collision.
TEST_CASE("field system: every scene × variational integrator keeps its energy window (ratio ≤ 1.5)",
          "[field][field-system]") {
  for (const char* name : kScenes) {
    const Json scene = fieldScene(name);
    const int steps = sceneFile(name)["about"]["steps"].get<int>();
    const bool typed = scene["params"]["density"].contains("lagrangian");
    for (const char* id : {"trapezoid", "midpoint", "avi"}) {
      if ((typed && std::string(id) == "avi") || beyondLimit(name, id)) continue;
      if (std::string(name) == "kink-antikink") {
        Json j = scene;
        j["integrator"] = id;
        Simulation sim = simulate(j.dump());
        const double e0 = sim.diagnostics().energy;
        double worst = 0;
        for (int k = 0; k < steps; ++k) {
          sim.advance(1);
          worst = std::max(worst, std::abs(sim.diagnostics().energy - e0) / e0);
        }
        INFO(name << " / " << id << ": largest relative energy error over " << steps << " steps " << worst);
        CHECK(worst <= 1e-3);
        continue;
      }
      const double ratio = windowRatio(scene, id, steps);
      INFO(name << " / " << id << ": energy window ratio over " << steps << " steps " << ratio);
      CHECK(ratio <= 1.5);
    }
  }
}

TEST_CASE("field system: the AVI with two steps keeps the energy window, and equals the leapfrog with one",
          "[field][field-system]") {
  Json scene = fieldScene("plucked-string");
  scene["integrator"] = "avi";
  scene["options"] = {{"fine", 3}, {"from", 0.5}};
  const double ratio = windowRatio(scene, "avi", 20000);
  INFO("AVI fine = 3 on the right half: energy window ratio over 20000 steps " << ratio);
  CHECK(ratio <= 1.5);
  scene["options"] = {{"fine", 1}};
  Simulation avi = simulate(scene.dump());
  scene["integrator"] = "trapezoid";
  scene.erase("options");
  Simulation leapfrog = simulate(scene.dump());
  run(avi, 500);
  run(leapfrog, 500);
  const double gap = maxDifference(avi.state().q, leapfrog.state().q);
  INFO("AVI (one step) against the leapfrog after 500 steps: " << gap);
  CHECK(gap <= 1e-12);
}

TEST_CASE("field system: on the plucked string RK4's energy drifts out of its window (ratio ≥ 3) at the same h",
          "[field][field-system]") {
  const Json scene = fieldScene("plucked-string");
  const double leapfrog = windowRatio(scene, "trapezoid", 100000);
  const double rk4 = windowRatio(scene, "rk4", 100000);
  INFO("energy window ratio over 1e5 steps at h = 0.004, N = 128: leapfrog " << leapfrog << ", RK4 " << rk4);
  CHECK(leapfrog <= 1.5);
  CHECK(rk4 >= 3);
}

TEST_CASE("field system: RK4 and DOPRI5 run every built-in scene (RK4: where h is within its limit)",
          "[field][field-system]") {
  for (const char* name : kScenes) {
    for (const char* id : {"rk4", "dopri5"}) {
      const Json scene = fieldScene(name);
      if (scene["params"]["density"].contains("lagrangian") || beyondLimit(name, id)) continue;
      Simulation sim = simulate(withIntegrator(scene, id).dump(), 100);
      INFO(name << " / " << id);
      CHECK_NOTHROW(run(sim, 500));
      CHECK(std::isfinite(sim.diagnostics().energy));
    }
  }
}

TEST_CASE("field system: periodic ends report the momentum Σp, kept by the leapfrog when V = 0",
          "[field][field-system]") {
  Json j = fieldScene("plucked-string");
  j["params"]["grid"]["ends"] = "periodic";
  j["initial"] = {{"u", "0.05*sin(2*pi*x)"}, {"ut", "0.25 + cos(4*pi*x)"}};
  Simulation sim = simulate(j.dump());
  const Diagnostics d0 = sim.diagnostics();
  REQUIRE(d0.momentumSize == 1);
  run(sim, 5000);
  INFO("Σp " << d0.momentum[0] << " → " << sim.diagnostics().momentum[0]);
  CHECK(std::abs(sim.diagnostics().momentum[0] - d0.momentum[0]) <= 1e-13);
}

TEST_CASE("field system: the state goes through setState and back, and a fixed end's momentum is refused",
          "[field][field-system]") {
  for (const char* name : {"plucked-string", "nonlinear-string", "kink-antikink"}) {
    Simulation sim = simulate(fieldScene(name).dump());
    run(sim, 100);
    const State s = sim.state();
    const double e = sim.diagnostics().energy;
    sim.setState(s);
    INFO(name);
    CHECK(sim.state().q == s.q);
    CHECK(sim.state().p == s.p);
    CHECK(sim.diagnostics().energy == e);
    run(sim, 10);
    State moved = s;
    moved.p[0] = 1;
    try {
      sim.setState(moved);
      FAIL("a fixed end's momentum was accepted");
    } catch (const InputError& err) {
      CHECK(err.field() == "p[0]");
    }
  }
}

// The density says whether V = 0 (the string's only), and the energy's shortcut that skips V
// gives field::energy's bits on every built-in scene.
TEST_CASE("field system: the density says whether V is zero, and the energy keeps field::energy's bits",
          "[field][field-system]") {
  for (const char* name : kScenes) {
    Simulation sim = simulate(fieldScene(name).dump());
    const FieldModel& m = std::get<FieldModel>(sim.scenario().model);
    if (m.isTyped()) continue;
    INFO(name << " (" << m.family << ")");
    CHECK(!m.density.hasPotential() == (m.family == "wave"));
    run(sim, 50);
    field::State f;
    REQUIRE(m.toField(sim.state(), f));
    CHECK(m.energy(sim.state()) == field::energy(m.density, m.grid, f));
  }
  CHECK_FALSE(field::Density().hasPotential());
  CHECK(field::sineGordon().hasPotential());
}

// A step's checks read a field's state once: diagnostics(s, within) says, as the separate
// pass over q and p would, whether every number of s is finite and within ±1e300,
// wherever the bad number sits (an end, the interior; u or p), and its Σp keeps the bits
// of a separate sum (its energy's bits: the test of field::energy above).
TEST_CASE("field system: the diagnostics pass also says whether every number of the state is within ±1e300",
          "[field][field-system]") {
  constexpr double kMax = limits::kMaxMagnitude, kNaN = std::numeric_limits<double>::quiet_NaN(),
                   kInf = std::numeric_limits<double>::infinity();
  // Each value put in one place, and whether the state is then within ±1e300.
  const std::pair<double, bool> values[] = {
      {kNaN, false}, {kInf, false}, {-kInf, false}, {std::nextafter(kMax, kInf), false}, {-1e301, false}, {kMax, true},
      {-kMax, true}, {0.0, true},   {-0.0, true}};
  for (const char* name :
       {"plucked-string", "klein-gordon", "sine-gordon-kink", "phi4-kink", "nonlinear-string", "whirling-string"}) {
    Simulation sim = simulate(fieldScene(name).dump());
    const FieldModel& m = std::get<FieldModel>(sim.scenario().model);
    INFO(name << " (" << m.family << ")");
    run(sim, 50);
    const State s = sim.state();
    bool within = false;
    const Diagnostics d = m.diagnostics(s, within);
    CHECK(within);
    // Σp from the same pass: the bits of a separate sum in node order.
    if (m.grid.ends == field::Ends::Periodic && !m.multi) {
      double total = 0;
      for (Eigen::Index i = 0; i < s.p.size(); ++i) total += s.p[i];
      REQUIRE(d.momentumSize == 1);
      CHECK(d.momentum[0] == total);
    }
    const Eigen::Index n = s.q.size();
    for (const Eigen::Index at : {Eigen::Index{0}, Eigen::Index{1}, n / 2, n - 1})
      for (const bool inP : {false, true}) {
        for (const auto& [x, expected] : values) {
          State t = s;
          (inP ? t.p : t.q)[at] = x;
          m.diagnostics(t, within);
          INFO((inP ? "p[" : "q[") << at << "] = " << x);
          CHECK(within == expected);
        }
      }
  }
}

// Golden fingerprints (each scene with its own integrator, 300 steps): change them only
// with a deliberate change of a field integrator or a scene, and say so in the commit.
// tests/wasm/field.test.mjs checks that the wasm module gives the native hash.
TEST_CASE("field system: golden fingerprints of every scene after 300 steps", "[field][field-system][determinism]") {
  const std::pair<const char*, const char*> golden[] = {
      {"breather", "1099c0d4cba88e1e"},         {"kink-antikink", "0e49afca2973a035"},
      {"klein-gordon", "daa220bbb616fd80"},     {"nonlinear-string", "c1519124b4be96e5"},
      {"phi4-kink", "fec7881a6687ae68"},        {"plucked-string", "b8c69b8c3605fa64"},
      {"sine-gordon-kink", "7a3c57d8c027e2ef"}, {"stiff-string", "af12fdeec91aa115"},
  };
  for (const auto& [name, hash] : golden) {
    Simulation a = simulate(fieldScene(name).dump()), b = simulate(fieldScene(name).dump());
    run(a, 300);
    for (int k = 0; k < 300; ++k) b.advance(1);
    INFO(name);
    CHECK(a.hash() == hash);
    CHECK(b.hash() == hash);  // batched or not
  }
}

// A typed density's leapfrog and RK4 (the nonlinear string's) are held to the trapezoid
// cell of its own ℒ (MultiLines::cellHessian).
TEST_CASE("field system: the multisymplectic law per node: box and leapfrog to rounding on every scene, not RK4",
          "[field][field-system]") {
  for (const char* name : kScenes) {
    const Json scene = fieldScene(name);
    std::string law;
    const double box = lawResidual(scene, "midpoint", &law);
    CHECK(law == "midpoint");
    INFO(name << ": box " << box);
    CHECK(box <= 1e-12);
    const double leapfrog = lawResidual(scene, "trapezoid", &law);
    CHECK(law == "trapezoid");
    const double rk4 = lawResidual(scene, "rk4");
    INFO(name << ": leapfrog " << leapfrog << ", RK4 " << rk4);
    CHECK(leapfrog <= 1e-12);
    CHECK(rk4 >= 1e-8);
  }
}

TEST_CASE("field system: the law's probe leaves the run unchanged — DOPRI5, the AVI and particles refuse it",
          "[field][field-system]") {
  Json scene = fieldScene("sine-gordon-kink");
  scene["integrator"] = "midpoint";
  Simulation probed = simulate(scene.dump()), plain = simulate(scene.dump());
  std::string law;
  for (int k = 0; k < 20; ++k) {
    probed.multisymplecticResiduals(law);
    probed.advance(1);
    plain.advance(1);
  }
  CHECK(probed.hash() == plain.hash());
  // A typed density's leapfrog and RK4 (RK4's rows go on from a copy of its own momenta).
  Json typed = fieldScene("nonlinear-string");
  for (const char* id : {"trapezoid", "rk4"}) {
    typed["integrator"] = id;
    Simulation a = simulate(typed.dump()), b = simulate(typed.dump());
    for (int k = 0; k < 20; ++k) {
      a.multisymplecticResiduals(law);
      a.advance(1);
      b.advance(1);
    }
    INFO(id);
    CHECK(a.hash() == b.hash());
  }
  for (const char* id : {"dopri5", "avi"}) {
    scene["integrator"] = id;
    Simulation sim = simulate(scene.dump());
    CHECK_THROWS_WITH(sim.multisymplecticResiduals(law), Catch::Contains("integrator: '" + std::string(id)));
  }
  Simulation pendulum = simulate(Json{{"system", "pendulum"}}.dump());
  CHECK_THROWS_WITH(pendulum.multisymplecticResiduals(law), Catch::Contains("steps no field"));
}

// A built-in ℒ typed as text runs the method of lines and its law through MultiLines; the
// built-in runs field.hpp's and TrapezoidCell. The residuals agree to the rounding of the two
// runs' different sums (RK4's are of size 1e-8, the leapfrog's 1e-16): the plucked string's
// wave and the sine-Gordon kink's (V'' = cos u in the cells' Hessians).
TEST_CASE("field system: the law of a typed density equal to a built-in one is the built-in's",
          "[field][field-system]") {
  const std::pair<const char*, const char*> typedAs[] = {
      {"plucked-string", "0.5*u_t^2 - 0.5*u_x^2"},
      {"sine-gordon-kink", "0.5*u_t^2 - 0.5*u_x^2 - (1 - cos(u))"},
  };
  for (const auto& [name, lagrangian] : typedAs) {
    const Json builtIn = fieldScene(name);
    Json typed = builtIn;
    typed["params"]["density"] = {{"lagrangian", lagrangian}};
    for (const char* id : {"trapezoid", "rk4"}) {
      const auto residuals = [id](Json scene) {
        scene["integrator"] = id;
        Simulation sim = simulate(scene.dump());
        run(sim, 100);
        std::string law;
        return sim.multisymplecticResiduals(law);
      };
      const std::vector<double> a = residuals(builtIn), b = residuals(typed);
      double difference = 0, size = 0;
      for (std::size_t i = 0; i < a.size(); ++i) difference = std::max(difference, std::abs(a[i] - b[i]));
      for (double r : a) size = std::max(size, r);
      INFO(name << ", " << id << ": largest residual " << size << ", largest difference typed − built-in "
                << difference);
      CHECK(difference <= 1e-14);
      if (std::string(id) == "rk4") CHECK(size >= 1e-8);
    }
  }
}

}  // namespace test_field_system
