// Magnitude bounds of expression programs (expr::magnitudeBound), and the unrecorded
// steps of systems defined by data that take their rows' checks from them
// (LagrangianModel::rowSurelyRepresentable): the same states, refusals and reasons as the
// steps that form their rows.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <string>

#include "support.hpp"
#include "vilab/expr/parse.hpp"
#include "vilab/models/lagrangian.hpp"

using namespace vilab;
using vilab::test::dspAsData;
using vilab::test::simulate;

namespace magnitude_bound_test {

// An expression's program over the scope's variables (q, q̇, t) and its bound over q and t.
struct Bounded {
  expr::Program program;
  expr::MagnitudeBound bound;
};
Bounded boundOf(const std::string& text, int n) {
  static const char* const names[] = {"x", "y", "z"};
  expr::Scope scope;
  for (int i = 0; i < n; ++i) scope.coordinates.push_back(names[i]);
  scope.constants = {{"m", 1.5}, {"l", 0.75}};
  scope.velocities = true;
  scope.time = true;
  scope.timeUse = "here";
  expr::Graph graph;
  const int node = expr::parseExpression(text, "lagrangian", scope, graph).node;
  Bounded b{expr::Program(graph, {node}), {}};
  b.bound = expr::magnitudeBound(b.program, 0, 1, n, 2 * n);
  return b;
}

// Sums, products, integer powers and bounded functions of x, y, t and constants, and now
// and then an operation no bound covers.
std::string randomBoundedExpression(std::mt19937_64& rng, int depth) {
  static const char* const atoms[] = {"x", "y", "t", "m", "l", "2", "-3.5", "1e3"};
  static const char* const functions[] = {"sin", "cos", "abs", "sqrt", "exp", "log", "tan"};
  const auto pick = [&](int size) { return static_cast<int>(rng() % static_cast<unsigned>(size)); };
  if (depth <= 0 || pick(5) == 0) return atoms[pick(8)];
  const std::string a = randomBoundedExpression(rng, depth - 1);
  switch (pick(12)) {
    case 0:
    case 1:
    case 2: return "(" + a + " + " + randomBoundedExpression(rng, depth - 1) + ")";
    case 3: return "(" + a + " - " + randomBoundedExpression(rng, depth - 1) + ")";
    case 4:
    case 5:
    case 6: return a + "*" + randomBoundedExpression(rng, depth - 1);
    case 7: return "(" + a + ")^" + std::to_string(pick(4));
    case 8: return "atan2(" + a + ", " + randomBoundedExpression(rng, depth - 1) + ")";
    case 9: return "(" + a + ")/(" + randomBoundedExpression(rng, depth - 1) + ")";
    default: return std::string(functions[pick(7)]) + "(" + a + ")";
  }
}

// One coordinate x, L = x'²/2 (free motion), a body at (f(x), 0, 0).
std::string freeBody(const std::string& position, double x, double xdot) {
  return Json{{"system", "lagrangian"},
              {"integrator", "midpoint"},
              {"h", 0.01},
              {"params",
               {{"coordinates", {"x"}}, {"lagrangian", "x'^2/2"}, {"bodies", {{{"position", {position, "0", "0"}}}}}}},
              {"initial", {{"q", {x}}, {"qdot", {xdot}}}}}
      .dump();
}

}  // namespace magnitude_bound_test

using namespace magnitude_bound_test;

TEST_CASE("a magnitude bound holds at every point of 4,000 random programs, and is absent where nothing bounds them",
          "[expr][bound]") {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  int bounded = 0, unbounded = 0;
  long checked = 0;
  for (int k = 0; k < 4000; ++k) {
    const std::string text = randomBoundedExpression(rng, 2 + static_cast<int>(rng() % 3));
    Bounded b;
    try {
      b = boundOf(text, 2);
    } catch (const std::exception&) {
      continue;
    }
    if (!b.bound.bounded) {
      ++unbounded;
      continue;
    }
    ++bounded;
    INFO(text);
    std::vector<double> registers;
    for (int p = 0; p < 20; ++p) {
      // Points from |x| ≤ 1 to |x| ≈ 1e12: the bound's degree matters at the large ones.
      const double size = std::pow(10.0, 12.0 * (p % 5) / 4.0);
      const double vars[5] = {size * unit(rng), size * unit(rng), unit(rng), unit(rng), size * unit(rng)};
      double m = 1;
      for (const int i : {0, 1, 4}) m = std::max(m, std::abs(vars[i]));
      const double scale = b.bound.scale * std::pow(m, b.bound.degree);
      if (!(scale <= 1e290)) continue;
      double out = 0;
      b.program.run(vars, &out, registers);
      ++checked;
      REQUIRE(std::abs(out) <= scale * (1 + 1e-9));
      CHECK(b.bound.surelyWithin(m, scale * 1.01));
    }
  }
  CHECK(bounded > 1000);
  CHECK(unbounded > 1000);
  CHECK(checked > 20000);
}

TEST_CASE("a magnitude bound: its degree and scale, and the operations and variables that have none", "[expr][bound]") {
  const Bounded cubic = boundOf("3*x^3 - sin(y)*x + l", 2);
  REQUIRE(cubic.bound.bounded);
  CHECK(cubic.bound.degree == 3);
  CHECK(cubic.bound.surelyWithin(10.0, 1e4));
  CHECK_FALSE(cubic.bound.surelyWithin(1e100, 1e290));
  CHECK_FALSE(cubic.bound.surelyWithin(std::nan(""), 1e290));
  CHECK_FALSE(cubic.bound.surelyWithin(INFINITY, 1e290));
  CHECK(boundOf("cos(t)*x*y + atan2(x, y)", 2).bound.bounded);  // t is one of the variables bounded
  for (const char* none :
       {"1/x", "sqrt(x^2 + 1)", "exp(x)", "log(2 + sin(x))", "tan(x)", "x^(1/2)", "x^-2", "sin(1/x)", "x'", "x*y'"}) {
    INFO(none);
    CHECK_FALSE(boundOf(none, 2).bound.bounded);
  }
}

TEST_CASE(
    "a system defined by data with bounded rows: its unrecorded steps keep the recorded steps' states and "
    "refusals",
    "[lagrangian][bound]") {
  // The DSP as data: every program of its row is a polynomial.
  Json normalized;
  const Json dsp = dspAsData();
  const auto problem = compileLagrangian(dsp.at("params"), normalized);
  REQUIRE(problem->rowBounded);
  CHECK(problem->constraintBound.degree == 2);
  CHECK(problem->generatorBound.degree == 1);
  const LagrangianModel model(problem);
  State s;
  s.q = Eigen::Map<const VecX>(std::vector<double>{0.6, 0, -0.8, 1.4, 0, -1.4}.data(), 6);
  s.p = VecX::Constant(6, 0.5);
  CHECK(model.rowSurelyRepresentable(s, 1.0, 3.0));
  CHECK_FALSE(model.rowSurelyRepresentable(s, 1.0, INFINITY));
  s.p[2] = 1e290;  // Σ p_i ξ_i may then pass 1e300
  CHECK_FALSE(model.rowSurelyRepresentable(s, 1.0, 3.0));
  // The early acceptance of an unrecorded step: only when the energy jump is within a
  // quarter of |E_a| (implausibleStep's first test) and the row is vouched for.
  double energy = 0;
  s.p = VecX::Constant(6, 0.5);
  s.p.head(3) = VecX::Zero(3);
  REQUIRE(model.stepSurelyAccepted(s, model.energy(s), 1.0, energy));
  CHECK(energy == model.energy(s));
  CHECK(model.stepSurelyAccepted(s, 0.9 * energy, 1.0, energy));
  CHECK_FALSE(model.stepSurelyAccepted(s, 0.5 * energy, 1.0, energy));  // the general checks decide
  CHECK(model.implausibleStep(s, s, 0.9 * energy, energy, 0.01).empty());
  s.q[0] = std::nan("");
  CHECK_FALSE(model.stepSurelyAccepted(s, 1.0, 1.0, energy));
  // Every step recorded (each row formed) and none: the same bits.
  Simulation every = simulate(dsp.dump(), 1), none = simulate(dsp.dump(), 1000000);
  every.advance(3000);
  none.advance(3000);
  CHECK(every.state().q == none.state().q);
  CHECK(every.state().p == none.state().p);
  CHECK(every.diagnostics().energy == none.diagnostics().energy);
  CHECK(every.diagnostics().momentum[0] == none.diagnostics().momentum[0]);

  // A body at x^60 moving out: x^60 passes 1e300 at x = 1e5. Its first steps are vouched
  // for by the bound (x ≤ 6.8e4), the next ones checked in full, then the step that
  // cannot be drawn is refused: at the same step, for the same reason, recorded or not.
  const std::string outward = freeBody("x^60", 5e4, 1e6);
  Json n2;
  const auto body = compileLagrangian(Json::parse(outward).at("params"), n2);
  REQUIRE(body->rowBounded);
  const LagrangianModel bodyModel(body);
  State start;
  start.q = VecX::Constant(1, 5e4);
  start.p = VecX::Constant(1, 1e6);
  CHECK(bodyModel.rowSurelyRepresentable(start, 0.0, 5e11));
  start.q[0] = 7e4;
  CHECK_FALSE(bodyModel.rowSurelyRepresentable(start, 0.0, 5e11));
  std::string reasons[2];
  std::uint64_t steps[2] = {0, 0};
  int k = 0;
  for (const int stride : {1, 1000000}) {
    Simulation sim = simulate(outward, stride);
    try {
      sim.advance(100);
      FAIL("not refused");
    } catch (const StepFailure& e) {
      reasons[k] = e.refusal().reason;
      steps[k] = e.step();
      CHECK(sim.step() == e.step() - 1);
    }
    ++k;
  }
  CHECK(steps[0] > 3);
  CHECK(steps[0] == steps[1]);
  CHECK(reasons[0] == reasons[1]);
  CHECK_THAT(reasons[0], Catch::Contains("bodies[0].position[0] = x^60 is"));
  // A conserved quantity reads q̇: no bounds, every row formed.
  Json withConserved = Json::parse(freeBody("x", 0, 1));
  withConserved["params"]["conserved"] = {{"E", "x'^2/2"}};
  Json n3;
  CHECK_FALSE(compileLagrangian(withConserved.at("params"), n3)->rowBounded);
}
