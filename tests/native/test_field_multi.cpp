// Fields of several components (models/field_multi.hpp): the whirling string of
// scenes/fields/, its energy window and its Noether charge under the box scheme, the block
// scheme against the one-component scheme (one component, and two uncoupled ones), periodic
// ends, the state through setState, refusals by field, and its fixed fingerprint; the
// leapfrog, RK4 and DOPRI5 on it (field_lines.hpp): the charge kept by the leapfrog only,
// order 2, and one component as the one-component string; the multisymplectic law on the
// box scheme (its tangent against central differences, the law with and without the
// components' coupling).
#include <catch2/catch.hpp>

#include "field_scenes.hpp"
#include "support.hpp"
#include "vilab/models/field_box.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_field_multi {

using namespace vilab;
using namespace vilab::test;

namespace {

Json sceneFile(const std::string& name) { return fieldSceneFile(name); }

Json whirling() { return sceneFile("whirling-string"); }

// Σ_i (u_i p_v,i − v_i p_u,i) from the canonical state (component-major), whatever ℒ is.
double rotationCharge(const State& s, int n) {
  double q = 0;
  for (int i = 0; i < n; ++i) q += s.q[i] * s.p[n + i] - s.q[n + i] * s.p[i];
  return q;
}

}  // namespace

TEST_CASE("field multi: the whirling string keeps its energy window (ratio ≤ 1.5) and its charge to rounding",
          "[field][field-multi]") {
  const Json scene = whirling();
  Simulation sim = simulate(scene.dump());
  const FieldModel& m = std::get<FieldModel>(sim.scenario().model);
  REQUIRE(m.components() == 2);
  REQUIRE(sim.diagnostics().momentumSize == 1);
  const std::vector<std::string>& columns = sim.history().columns();
  CHECK(std::find(columns.begin(), columns.end(), "momentum.rotation") != columns.end());
  // The charge is Σ u p_v − v p_u: the angular momentum about the x axis.
  CHECK(sim.diagnostics().momentum[0] == Approx(rotationCharge(sim.state(), 128)).epsilon(1e-14));
  CHECK(sim.diagnostics().momentum[0] > 0);
  const Kept k = keptOver(scene, 20000);
  INFO("whirling string, box scheme, 20000 steps (80 s): energy window ratio "
       << k.ratio << ", largest relative charge drift " << k.charge);
  CHECK(k.ratio <= 1.5);
  CHECK(k.charge <= 1e-12);
}

TEST_CASE("field multi: a density that is not rotation-invariant does not keep Σ u p_v − v p_u",
          "[field][field-multi]") {
  Json j = whirling();
  j["params"]["density"]["lagrangian"] = "0.5*(u_t^2 + v_t^2) - (sqrt(1 + u_x^2 + 1.5*v_x^2) - 1)";
  j["params"]["density"].erase("symmetries");
  Simulation sim = simulate(j.dump());
  const double q0 = rotationCharge(sim.state(), 128);
  double worst = 0;
  for (int k = 0; k < 500; ++k) {
    run(sim, 1);
    worst = std::max(worst, std::abs(rotationCharge(sim.state(), 128) - q0) / std::abs(q0));
  }
  INFO("anisotropic stiffness: largest relative change of Σ u p_v − v p_u over 500 steps " << worst);
  CHECK(worst >= 1e-3);
  // Declared, the rotation is refused: ℒ changes along it.
  j["params"]["density"]["symmetries"] = {{"rotation", {{0, -1}, {1, 0}}}};
  CHECK(refusedAt(j) == "params.density.symmetries.rotation");
}

namespace {

// A one-component scene on `ends` against the same density declared as component w
// (`density`): within 1e-12 after 300 steps, u and the energy.
void checkAsOneComponent(Json single, const char* ends, const Json& density) {
  single["params"]["grid"]["ends"] = ends;
  if (std::string(ends) == "periodic") single["initial"] = {{"u", "0.05*sin(2*pi*x)"}, {"ut", "0.3*cos(2*pi*x)"}};
  Json renamed = single;
  renamed["params"]["density"] = density;
  renamed["initial"] = {{"w", single["initial"]["u"]}, {"wt", single["initial"]["ut"]}};
  Simulation a = simulate(single.dump()), b = simulate(renamed.dump());
  REQUIRE(std::get<FieldModel>(b.scenario().model).multi != nullptr);
  run(a, 300);
  run(b, 300);
  const double gap = maxDifference(a.state().q, b.state().q);
  INFO(ends << " ends: largest |Δu| after 300 steps " << gap << ", energies " << a.diagnostics().energy << " / "
            << b.diagnostics().energy);
  CHECK(gap <= 1e-12);
  CHECK(b.diagnostics().energy == Approx(a.diagnostics().energy).epsilon(1e-12));
}

}  // namespace

TEST_CASE("field multi: one component through the block scheme is the one-component box scheme",
          "[field][field-multi]") {
  for (const char* ends : {"fixed", "free", "periodic"})
    checkAsOneComponent(sceneFile("nonlinear-string"), ends,
                        {{"lagrangian", "0.5*w_t^2 - sqrt(1 + w_x^2)"}, {"fields", {"w"}}});
  // Declared as ["u"], the density is the one-component one, bit for bit.
  Json j = sceneFile("nonlinear-string");
  j["params"]["density"]["fields"] = {"u"};
  Simulation a = simulate(j.dump());
  run(a, 300);
  CHECK(a.hash() == "c1519124b4be96e5");
}

TEST_CASE("field multi: two uncoupled components each step as the one-component scheme", "[field][field-multi]") {
  for (const char* ends : {"fixed", "periodic"}) {
    Json j = whirling();
    j["params"]["grid"]["ends"] = ends;
    j["params"]["density"]["lagrangian"] = "0.5*(u_t^2 + v_t^2) - sqrt(1 + u_x^2) - sqrt(1 + v_x^2)";
    j["params"]["density"].erase("symmetries");
    j["initial"] = {{"u", "0.1*sin(2*pi*x)"}, {"ut", "0"}, {"v", "0.05*sin(4*pi*x)"}, {"vt", "0.2*sin(2*pi*x)"}};
    Json single = sceneFile("nonlinear-string");
    single["params"]["grid"]["ends"] = ends;
    Simulation both = simulate(j.dump());
    run(both, 200);
    const int n = 128;
    const char* initial[2][2] = {{"0.1*sin(2*pi*x)", "0"}, {"0.05*sin(4*pi*x)", "0.2*sin(2*pi*x)"}};
    for (int a = 0; a < 2; ++a) {
      single["initial"] = {{"u", initial[a][0]}, {"ut", initial[a][1]}};
      Simulation one = simulate(single.dump());
      run(one, 200);
      const double gap = maxDifference(one.state().q, both.state().q.segment(a * n, n));
      INFO(ends << " ends, component " << a << ": largest |Δu| after 200 steps " << gap);
      CHECK(gap <= 1e-12);
    }
  }
}

TEST_CASE("field multi: periodic ends keep the charge to rounding", "[field][field-multi]") {
  const Kept k = keptOver(whirlingHelix(), 5000);
  INFO("periodic whirl, 5000 steps: energy window ratio " << k.ratio << ", largest relative charge drift " << k.charge);
  CHECK(k.ratio <= 1.5);
  CHECK(k.charge <= 1e-12);
}

TEST_CASE("field multi: the state goes through setState, and a fixed end's momentum is refused",
          "[field][field-multi]") {
  Simulation sim = simulate(whirling().dump());
  run(sim, 50);
  const State s = sim.state();
  REQUIRE(s.q.size() == 256);
  const Diagnostics d = sim.diagnostics();
  sim.setState(s);
  CHECK(sim.state().q == s.q);
  CHECK(sim.state().p == s.p);
  CHECK(sim.diagnostics().energy == d.energy);
  CHECK(sim.diagnostics().momentum[0] == d.momentum[0]);
  State moved = s;
  moved.p[128] = 1;  // v's node 0, a fixed end
  try {
    sim.setState(moved);
    FAIL("a fixed end's momentum was accepted");
  } catch (const InputError& err) {
    CHECK(err.field() == "p[128]");
  }
  State shorter = s;
  shorter.q.conservativeResize(128);
  CHECK_THROWS(sim.setState(shorter));
}

TEST_CASE("field multi: every refusal names its field", "[field][field-multi]") {
  const Json good = whirling();
  REQUIRE(refusedAt(good).empty());
  auto with = [&](auto change) {
    Json j = good;
    change(j);
    return refusedAt(j);
  };
  CHECK(with([](Json& j) { j["params"]["density"]["fields"] = {"u", "u"}; }) == "params.density.fields[1]");
  CHECK(with([](Json& j) { j["params"]["density"]["fields"] = {"u", "ut"}; }) == "params.density.fields[1]");
  CHECK(with([](Json& j) { j["params"]["density"]["fields"] = {"u", "v_1"}; }) == "params.density.fields[1]");
  CHECK(with([](Json& j) { j["params"]["density"]["fields"] = {"x", "v"}; }) == "params.density.fields[0]");
  CHECK(with([](Json& j) { j["params"]["density"]["fields"] = {"u", "sin"}; }) == "params.density.fields[1]");
  CHECK(with([](Json& j) { j["params"]["density"]["fields"] = {"u", "a"}; }) == "params.density.fields[1]");
  CHECK(with([](Json& j) { j["params"]["density"]["fields"] = {"u", 3}; }) == "params.density.fields[1]");
  CHECK(with([](Json& j) { j["params"]["density"]["fields"] = Json::array(); }) == "params.density.fields");
  CHECK(with([](Json& j) { j["params"]["density"]["fields"] = {"u", "v", "w", "y", "z"}; }) == "params.density.fields");
  CHECK(with([](Json& j) { j["params"]["density"]["fields"] = "u"; }) == "params.density.fields");
  CHECK(with([](Json& j) { j["params"]["density"]["fields"] = {"u", "w"}; }) == "params.density.lagrangian");
  CHECK(with([](Json& j) { j["initial"].erase("v"); }) == "initial.v");
  CHECK(with([](Json& j) { j["initial"]["w"] = "0"; }) == "initial.w");
  CHECK(with([](Json& j) { j["initial"]["vt"] = "1/(x - x)"; }) == "initial.vt");
  CHECK(with([](Json& j) {
          j["params"]["density"]["symmetries"]["rotation"] = {{0, -1}};
        }) == "params.density.symmetries.rotation");
  CHECK(with([](Json& j) {
          j["params"]["density"]["symmetries"]["rotation"] = {{0, 0}, {0, 0}};
        }) == "params.density.symmetries.rotation");
  CHECK(with([](Json& j) {
          j["params"]["density"]["symmetries"]["stretch"] = {{1, 0}, {0, 1}};
        }) == "params.density.symmetries.stretch");
  CHECK(with([](Json& j) { j["params"]["density"]["symmetries"]["rotation"][0][1] = "a"; }) ==
        "params.density.symmetries.rotation[0][1]");
  CHECK(with([](Json& j) {
          j["params"]["density"] = {{"family", "wave"}, {"fields", {"u", "v"}}};
        }) == "params.density.fields");
  // The explicit methods and the AVI need ½ u_tᵀ M u_t with M constant: a mass that varies with u is refused.
  for (const char* id : {"trapezoid", "rk4", "dopri5", "avi"}) {
    Json j = good;
    j["integrator"] = id;
    INFO(id);
    CHECK(refusedAt(j).empty());
    j["params"]["density"]["lagrangian"] = "0.5*((1 + u^2 + v^2)*(u_t^2 + v_t^2)) - (sqrt(1 + u_x^2 + v_x^2) - 1)";
    CHECK(refusedAt(j) == "integrator");
    j["params"]["density"]["lagrangian"] = "0.5*(u_t^2 + v_t^2) + u_t*v_x - (sqrt(1 + u_x^2 + v_x^2) - 1)";
    j["params"]["density"].erase("symmetries");
    CHECK(refusedAt(j) == "integrator");
  }
}

TEST_CASE("field multi: four components keep their two charges", "[field][field-multi]") {
  Json j = whirling();
  j["params"]["density"] = {
      {"lagrangian", "0.5*(a_t^2 + b_t^2 + c_t^2 + d_t^2) - (sqrt(1 + a_x^2 + b_x^2 + c_x^2 + d_x^2) - 1)"},
      {"fields", {"a", "b", "c", "d"}},
      {"symmetries",
       {{"ab", {{0, -1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
        {"cd", {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, -1}, {0, 0, 1, 0}}}}}};
  j["params"]["constants"] = Json::object();
  j["initial"] = {{"a", "0.1*sin(pi*x)"},    {"bt", "0.3*sin(pi*x)"},   {"b", "0"},
                  {"c", "0.05*sin(2*pi*x)"}, {"dt", "0.3*sin(2*pi*x)"}, {"d", "0"}};
  const Kept k = keptOver(j, 2000);
  INFO("four components, 2000 steps: energy window ratio " << k.ratio << ", charge drift " << k.charge);
  CHECK(k.charge <= 1e-12);
  // The step's cost in N (the block-tridiagonal solve is O(N m³)) is measured by
  // `npm run bench` (fields: four components at N = 256 and 1024), not by a timed test.
}

// Golden fingerprint (its own integrator, 300 steps); tests/wasm/field.test.mjs checks
// that the wasm module gives the native hash.
TEST_CASE("field multi: golden fingerprint of the whirling string after 300 steps",
          "[field][field-multi][determinism]") {
  Simulation a = simulate(whirling().dump()), b = simulate(whirling().dump());
  run(a, 300);
  for (int k = 0; k < 300; ++k) b.advance(1);
  CHECK(a.hash() == b.hash());
  CHECK(a.hash() == "c2201290ebd69554");
}

// The explicit methods on several components (models/field_lines.hpp).

namespace {

// The leapfrog and RK4 on a scene at its h: the energy window and charge of each, and a line
// reporting them.
struct LeapfrogAndRk4 {
  Kept leapfrog, rk4;
  std::string report() const {
    std::ostringstream out;
    out << "leapfrog energy window ratio " << leapfrog.ratio << ", charge drift " << leapfrog.charge << "; RK4 ratio "
        << rk4.ratio << ", charge drift " << rk4.charge;
    return out.str();
  }
};
LeapfrogAndRk4 leapfrogAndRk4(Json scene, int steps) {
  scene["integrator"] = "trapezoid";
  const Kept leapfrog = keptOver(scene, steps);
  scene["integrator"] = "rk4";
  return {leapfrog, keptOver(scene, steps)};
}

}  // namespace

TEST_CASE("field multi: the leapfrog keeps the whirling string's energy window and its charge to rounding, RK4 drifts",
          "[field][field-multi][field-lines]") {
  Json j = whirling();
  const LeapfrogAndRk4 k = leapfrogAndRk4(j, 20000);
  INFO("whirling string, 20000 steps of h = 0.004: " << k.report());
  CHECK(k.leapfrog.ratio <= 1.5);
  CHECK(k.leapfrog.charge <= 1e-12);
  CHECK(k.rk4.ratio >= 3);
  CHECK(k.rk4.charge >= 1e-10);
}

// The multisymplectic law of the typed ℒ's trapezoid cell (4m × 4m Hessians, a mode per
// component): the largest per-node residual over probes at steps 80, 90, …, 120.
TEST_CASE("field multi: the whirling string's leapfrog keeps the multisymplectic law to rounding, RK4 breaks it",
          "[field][field-multi][field-lines]") {
  Json j = whirling();
  const auto largestResidual = [&j](const char* id) {
    j["integrator"] = id;
    Simulation sim = simulate(j.dump(), 1000);
    run(sim, 80);
    double largest = 0, smallest = 1;
    for (int probe = 0; probe < 5; ++probe) {
      if (probe > 0) run(sim, 10);
      std::string law;
      const std::vector<double> nodes = sim.multisymplecticResiduals(law);
      CHECK(law == "trapezoid");
      REQUIRE(nodes.size() == 128);
      const double top = *std::max_element(nodes.begin(), nodes.end());
      largest = std::max(largest, top), smallest = std::min(smallest, top);
    }
    return std::make_pair(largest, smallest);
  };
  const auto leapfrog = largestResidual("trapezoid"), rk4 = largestResidual("rk4");
  INFO("whirling string: leapfrog's largest residual " << leapfrog.first << ", RK4's smallest probe maximum "
                                                       << rk4.second);
  CHECK(leapfrog.first <= 1e-12);
  CHECK(rk4.second >= 1e-8);
  // DOPRI5's substeps adapt: its rows are not one mesh.
  j["integrator"] = "dopri5";
  Simulation sim = simulate(j.dump());
  std::string law;
  CHECK_THROWS_WITH(sim.multisymplecticResiduals(law), Catch::Contains("substeps adapt"));
}

TEST_CASE("field multi: the leapfrog keeps the periodic helix's charge to rounding, RK4 does not",
          "[field][field-multi][field-lines]") {
  const LeapfrogAndRk4 k = leapfrogAndRk4(whirlingHelix(), 5000);
  INFO("periodic helix, 5000 steps: " << k.report());
  CHECK(k.leapfrog.ratio <= 1.5);
  CHECK(k.leapfrog.charge <= 1e-12);
  CHECK(k.rk4.ratio >= 3);
  CHECK(k.rk4.charge >= 1e-9);
}

namespace {

// Order 2: the leapfrog's error at t = 0.4 against a run of h/32, at h = 0.004 and 0.002.
void checkLeapfrogOrder2(const Json& scene) {
  const auto at = [&scene](double h) {
    Json j = scene;
    j["integrator"] = "trapezoid";
    j["h"] = h;
    Simulation sim = simulate(j.dump(), 100000);
    run(sim, std::lround(0.4 / h));
    return sim.state().q;
  };
  const VecX reference = at(0.004 / 32);
  const double coarse = maxDifference(at(0.004), reference), fine = maxDifference(at(0.002), reference);
  const double order = std::log2(coarse / fine);
  INFO("largest |Δu| at t = 0.4: " << coarse << " at h = 0.004, " << fine << " at h = 0.002 (order " << order << ")");
  CHECK(order >= 1.9);
  CHECK(order <= 2.1);
}

// The scene on the leapfrog, RK4 and DOPRI5 and every kind of ends against ℒ in w declared
// as component w (checkAsOneComponent).
void explicitAsComponentW(const char* scene, const char* lagrangian) {
  for (const char* ends : {"fixed", "free", "periodic"})
    for (const char* id : {"trapezoid", "rk4", "dopri5"}) {
      Json single = sceneFile(scene);
      single["integrator"] = id;
      INFO(id);
      checkAsOneComponent(single, ends, {{"lagrangian", lagrangian}, {"fields", {"w"}}});
    }
}

}  // namespace

TEST_CASE("field multi: the leapfrog on the whirling string is of order 2", "[field][field-multi][field-lines]") {
  checkLeapfrogOrder2(whirling());
}

// One component through the method of lines: ℒ = ½w_t² − ½w_x² declared as component w
// is the string of the wave family (field.hpp's leapfrog, RK4 and DOPRI5) to rounding.
TEST_CASE("field multi: one component through the method of lines is the one-component string",
          "[field][field-multi][field-lines]") {
  explicitAsComponentW("plucked-string", "0.5*w_t^2 - 0.5*w_x^2");
}

// DOPRI5 at its tolerance: the charge drifts at that size, far above the leapfrog's rounding.
TEST_CASE("field multi: DOPRI5 runs the whirling string, its charge kept to its tolerance only",
          "[field][field-multi][field-lines]") {
  Json j = whirling();
  j["integrator"] = "dopri5";
  const Kept k = keptOver(j, 5000);
  INFO("whirling string, DOPRI5 at its default tol, 5000 steps: energy window ratio " << k.ratio << ", charge drift "
                                                                                      << k.charge);
  CHECK(k.charge <= 1e-6);
  CHECK(k.charge >= 1e-13);
}

// A typed density of one component through the method of lines (field_lines.hpp's
// LinesDensity reads its program): the nonlinear string ℒ = ½u_t² − √(1 + u_x²).

// Plucked to a = 0.03 (slopes up to 0.09): at the scene's a = 0.1 the pluck's corners
// steepen within the run (the wave speed (1 + u_x²)^(−3/4) falls with the slope) and every
// method's energy band widens with the fine scales they make, whatever its drift (over
// 20000 steps the window ratio is 4.1 for the leapfrog and 23 for the box scheme), so
// the ratio would measure the steepening, not the method.
TEST_CASE("field multi: the leapfrog keeps the nonlinear string's energy window, RK4 at the same h drifts",
          "[field][field-multi][field-lines]") {
  Json j = sceneFile("nonlinear-string");
  j["params"]["constants"]["a"] = 0.03;
  const LeapfrogAndRk4 k = leapfrogAndRk4(j, 20000);
  INFO("nonlinear string plucked to a = 0.03, 20000 steps of h = 0.004: " << k.report());
  CHECK(k.leapfrog.ratio <= 1.5);
  CHECK(k.rk4.ratio >= 3);
}

TEST_CASE("field multi: the leapfrog on the nonlinear string is of order 2", "[field][field-multi][field-lines]") {
  checkLeapfrogOrder2(sceneFile("nonlinear-string"));
}

// The typed u and the same ℒ declared as component w take the one method-of-lines path.
TEST_CASE("field multi: a typed density of one component steps as the same density declared as component w",
          "[field][field-multi][field-lines]") {
  explicitAsComponentW("nonlinear-string", "0.5*w_t^2 - sqrt(1 + w_x^2)");
}

// A kinetic part the explicit methods cannot step (a mass that changes with u) is refused
// by `integrator`, saying why; the box scheme runs it.
TEST_CASE("field multi: a one-component density of non-constant mass is refused by the explicit methods",
          "[field][field-multi][field-lines]") {
  Json j = sceneFile("nonlinear-string");
  j["params"]["density"]["lagrangian"] = "0.5*(1 + u^2)*u_t^2 - sqrt(1 + u_x^2)";
  CHECK(refusedAt(j).empty());
  for (const char* id : {"trapezoid", "rk4", "dopri5"}) {
    j["integrator"] = id;
    INFO(id);
    CHECK(refusedAt(j) == "integrator");
    CHECK_THROWS_WITH(simulate(j.dump()), Catch::Contains("∂ℒ/∂u_t depends on u"));
  }
}

// The multisymplectic law on the box scheme of several components (field_box.hpp's check,
// Marsden, Patrick & Shkoller 1998, Thm 4.1): rows of the scheme and of two variations
// carried by its tangent (MultiBox::tangent), the cell Hessians multiCell's.
namespace {

// cos(πkx/ℓ + φ + 0.7a) in component a at the moving nodes, component-major.
std::vector<double> mode(const FieldModel& m, double k, double phase) {
  const field::Grid& g = m.grid;
  const int n = g.points;
  std::vector<double> out(static_cast<std::size_t>(m.components() * n), 0.0);
  for (int a = 0; a < m.components(); ++a)
    for (int i = 0; i < n; ++i)
      if (m.moves(i)) out[a * n + i] = std::cos(3.14159265358979323846 * (k + a) * g.x(i) / g.length + phase + 0.7 * a);
  return out;
}

// A scene after 80 steps: its model, h and field state.
struct Probe {
  Simulation sim;
  const FieldModel& model;
  double h;
  field::State state;
  explicit Probe(const Json& scene)
      : sim(simulate(scene.dump(), 1000)), model(std::get<FieldModel>(sim.scenario().model)), h(sim.scenario().h) {
    run(sim, 80);
    REQUIRE(model.toField(sim.state(), state));
  }
};

// Rows 0–2 of the scheme from the probe's state and of two variations (a mode per
// component in u, one in p) carried by the tangent.
struct LawRows {
  std::vector<double> base[3], xi[3], eta[3];
};
LawRows lawRows(const Probe& p) {
  LawRows r;
  field::State s = p.state;
  field::State ds[2];
  ds[0].u = mode(p.model, 6, 0.3), ds[0].v = std::vector<double>(ds[0].u.size(), 0.0);
  ds[1].v = mode(p.model, 2, 0.3), ds[1].u = std::vector<double>(ds[1].v.size(), 0.0);
  for (int k = 0; k < 3; ++k) {
    if (k > 0) {
      const std::vector<double> old = s.u;
      const auto box = field::makeMultiBox(p.model.components());
      REQUIRE(box->step(*p.model.multi, p.model.grid, s, p.h).ok);
      for (field::State& d : ds) REQUIRE(box->tangent(*p.model.multi, p.model.grid, p.h, 0, old, s.u, d.u, d.v));
    }
    r.base[k] = s.u, r.xi[k] = ds[0].u, r.eta[k] = ds[1].u;
  }
  return r;
}

// The largest residual of those rows with multiCell's Hessians, or with their blocks
// coupling two components zeroed (the Hessian of a density that is not this one).
double lawOf(const Probe& p, const LawRows& r, bool coupling) {
  const int m = p.model.components(), corners = 4 * m;
  const double dx = p.model.grid.spacing();
  std::vector<double> out, gradient(static_cast<std::size_t>(corners));
  field::multisymplecticResiduals(
      p.model.grid, m, r.base, r.xi, r.eta,
      [&](int c, int, const double* y, double* h) {
        field::multiCell(*p.model.multi, dx, p.h, (c + 0.5) * dx, y, gradient.data(), h);
        if (coupling) return;
        for (int row = 0; row < corners; ++row)
          for (int col = 0; col < corners; ++col)
            if (row % m != col % m) h[row * corners + col] = 0;
      },
      out);
  return *std::max_element(out.begin(), out.end());
}

// One step of a fresh scheme from the state moved by ε(δu, δp): ∂ℒ/∂u_t^a = u_t^a for the
// whirling string, so p = w_i Δx u_t (field_multi.cpp's lumped Legendre transform).
field::State stepShifted(const Probe& p, const std::vector<double>& du, const std::vector<double>& dp, double eps) {
  field::State s = p.state;
  const field::Grid& g = p.model.grid;
  const int n = g.points;
  for (std::size_t k = 0; k < s.u.size(); ++k) {
    const double mass = field::weight(g, static_cast<int>(k) % n) * g.spacing();
    s.u[k] += eps * du[k], s.v[k] += eps * dp[k] / mass;
  }
  REQUIRE(field::makeMultiBox(p.model.components())->step(*p.model.multi, g, s, p.h).ok);
  return s;
}

// The tangent's (δu', δp') against central differences of the step, relative to the
// tangent's largest entry; wrongRow: linearized about the old row a instead of the new b.
double tangentError(const Probe& p, const std::vector<double>& du, const std::vector<double>& dp, bool wrongRow) {
  // The differences' own error is ε² times the step's third derivative (4.5e-7 at ε = 1e-5,
  // 4.5e-9 at 1e-6), their rounding 1e-16/ε.
  const double eps = 1e-6;
  field::State next = p.state;
  REQUIRE(field::makeMultiBox(p.model.components())->step(*p.model.multi, p.model.grid, next, p.h).ok);
  std::vector<double> tu = du, tp = dp;
  const std::vector<double>& row = wrongRow ? p.state.u : next.u;
  REQUIRE(
      field::makeMultiBox(p.model.components())->tangent(*p.model.multi, p.model.grid, p.h, 0, p.state.u, row, tu, tp));
  const field::State plus = stepShifted(p, du, dp, eps), minus = stepShifted(p, du, dp, -eps);
  const field::Grid& g = p.model.grid;
  double gap = 0, size = 0;
  for (std::size_t k = 0; k < tu.size(); ++k) {
    const double mass = field::weight(g, static_cast<int>(k) % g.points) * g.spacing();
    const double fu = (plus.u[k] - minus.u[k]) / (2 * eps), fp = mass * (plus.v[k] - minus.v[k]) / (2 * eps);
    gap = std::max({gap, std::abs(fu - tu[k]), std::abs(fp - tp[k])});
    size = std::max({size, std::abs(tu[k]), std::abs(tp[k])});
  }
  return gap / size;
}

}  // namespace

TEST_CASE("field multi: the box scheme keeps the multisymplectic law to rounding, fixed and periodic ends",
          "[field][field-multi][field-law]") {
  std::string law[2];
  const double fixed = lawResidual(whirling(), "midpoint", &law[0]);
  const double periodic = lawResidual(whirlingHelix(), "midpoint", &law[1]);
  CHECK(law[0] == "midpoint");
  CHECK(law[1] == "midpoint");
  INFO("box scheme, largest law residual over 5 probes: whirling string " << fixed << ", periodic helix " << periodic);
  CHECK(fixed <= 1e-12);
  CHECK(periodic <= 1e-12);
  // The probe steps copies: the run is unchanged.
  Simulation probed = simulate(whirling().dump()), plain = simulate(whirling().dump());
  for (int k = 0; k < 10; ++k) {
    probed.multisymplecticResiduals(law[0]);
    probed.advance(1);
    plain.advance(1);
  }
  CHECK(probed.hash() == plain.hash());
}

TEST_CASE("field multi: the box scheme's tangent is the step's derivative (central differences)",
          "[field][field-multi][field-law]") {
  for (const Json& scene : {whirling(), whirlingHelix()}) {
    const Probe p(scene);
    const std::vector<double> inU = mode(p.model, 6, 0.3), inP = mode(p.model, 2, 0.3);
    const std::vector<double> none(inU.size(), 0.0);
    const double u = tangentError(p, inU, none, false), both = tangentError(p, inU, inP, false);
    // Linearized about the old row instead of the new one: a wrong tangent.
    const double wrong = tangentError(p, inU, inP, true);
    INFO(scene["params"]["grid"]["ends"] << " ends: relative error δu " << u << ", (δu, δp) " << both
                                         << ", linearized about the old row " << wrong);
    CHECK(u <= 1e-6);
    CHECK(both <= 1e-6);
    CHECK(wrong >= 1e-5);
  }
}

TEST_CASE("field multi: the law sees the components' coupling — without its cross blocks the Hessian breaks it",
          "[field][field-multi][field-law]") {
  for (const Json& scene : {whirling(), whirlingHelix()}) {
    const Probe p(scene);
    const LawRows r = lawRows(p);
    const double kept = lawOf(p, r, true), uncoupled = lawOf(p, r, false);
    INFO(scene["params"]["grid"]["ends"] << " ends: law residual " << kept << ", cross blocks zeroed " << uncoupled);
    CHECK(kept <= 1e-12);
    CHECK(uncoupled >= 1e-8);
  }
}

}  // namespace test_field_multi
