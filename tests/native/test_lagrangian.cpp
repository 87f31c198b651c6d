// Systems defined by data (system "lagrangian"): the parser and its errors, the
// compiled derivatives against finite differences, agreement with the built-in
// systems, conservation laws, convergence orders and refusals.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "support.hpp"
#include "vilab/expr/graph.hpp"
#include "vilab/expr/parse.hpp"
#include "vilab/integrators/lagrangian_del.hpp"
#include "vilab/json.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/scenario.hpp"
#include "vilab/simulation.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_lagrangian {

using namespace vilab;
using vilab::test::column;
using vilab::test::driftRatio;
using vilab::test::maxAbsDeviation;
using vilab::test::simulate;

namespace {

// The elastic pendulum of the registry default, with an integrator, h and options.
std::string elastic(const std::string& integrator, double h, const std::string& extra = "") {
  return R"({"system":"lagrangian","integrator":")" + integrator + R"(","h":)" + std::to_string(h) + extra + "}";
}

// A scenario whose params are `params` (a JSON object) and initial `initial`.
std::string defined(const std::string& params, const std::string& initial, const std::string& integrator = "midpoint",
                    double h = 0.01, const std::string& options = "{}") {
  return R"({"system":"lagrangian","integrator":")" + integrator + R"(","h":)" + std::to_string(h) + R"(,"params":)" +
         params + R"(,"initial":)" + initial + R"(,"options":)" + options + "}";
}

// The error a scenario gives: "<field>|<message>|<column>".
struct Failure {
  std::string field, message;
  int column = 0;
};
Failure failureOf(const std::string& scenario) {
  try {
    parseScenario(scenario);
  } catch (const expr::ExpressionError& e) {
    return {e.field(), e.what(), e.column()};
  } catch (const InputError& e) {
    return {e.field(), e.what(), 0};
  }
  return {"", "no error", 0};
}

const char* kPolar = R"j({"coordinates":["r","th"],"constants":{"m":1,"k":40,"l0":1,"g":9.81},
  "lagrangian":"m/2*(r'^2 + r^2*th'^2) - k/2*(r - l0)^2 + m*g*r*cos(th)"})j";

std::string polarWith(const std::string& lagrangian) {
  Json p = Json::parse(kPolar);
  p["lagrangian"] = lagrangian;
  return p.dump();
}

const std::string kPolarInitial = R"({"q":[1.2,0.8],"qdot":[0,0]})";

// The double spherical pendulum as data (two constraints, constant mass, J_z declared).
const std::string kDspAsData = R"({"coordinates":["x1","y1","z1","x2","y2","z2"],"constants":{"g":9.81},
    "lagrangian":"(x1'^2+y1'^2+z1'^2)/2 + (x2'^2+y2'^2+z2'^2)/2 - g*z1 - g*z2",
    "constraints":["x1^2+y1^2+z1^2-1","(x2-x1)^2+(y2-y1)^2+(z2-z1)^2-1"],
    "symmetries":{"Jz":["-y1","x1","0","-y2","x2","0"]}})";
const std::string kDspAsDataInitial = R"({"q":[0.6,0,-0.8,0.6,0.6,-1.6],"qdot":[0,0.8,0,0.5,0.8,0]})";

// Expression-program runs (interpreted or compiled) per step over the next `steps` steps.
double programRunsPerStep(Simulation& sim, int steps) {
  const auto before = expr::programCounts();
  sim.advance(static_cast<std::uint64_t>(steps));
  const auto after = expr::programCounts();
  return static_cast<double>((after.interpretedRuns + after.compiledRuns) -
                             (before.interpretedRuns + before.compiledRuns)) /
         steps;
}

}  // namespace

TEST_CASE("lagrangian: the registry default runs and its echo is complete", "[lagrangian]") {
  Simulation sim = simulate(R"({"system":"lagrangian"})");
  sim.advance(100);
  const Json echo = Json::parse(sim.scenario().normalized);
  CHECK(echo["params"]["coordinates"] == Json::array({"r", "th"}));
  CHECK(echo["params"].contains("bodies"));
  CHECK(echo["initial"]["q"] == Json::array({1.2, 0.8}));
  CHECK(std::isfinite(sim.diagnostics().energy));
  // The echo is itself a valid scenario with the same run.
  Simulation again = simulate(sim.scenario().normalized);
  again.advance(100);
  CHECK(again.hash() == sim.hash());
}

TEST_CASE("lagrangian: syntax errors and unknown names point at the column", "[lagrangian][errors]") {
  const auto f = failureOf(defined(polarWith("m/2*(r'^2 + r^2*thta'^2)"), kPolarInitial));
  CHECK(f.field == "params.lagrangian");
  CHECK(f.column == 17);
  CHECK(f.message.find("params.lagrangian: unknown name \"thta\" at column 17 (coordinates: r, th") == 0);

  const auto unclosed = failureOf(defined(polarWith("m/2*(r'^2"), kPolarInitial));
  CHECK(unclosed.field == "params.lagrangian");
  CHECK(unclosed.column == 10);
  CHECK(unclosed.message.find("expected ')'") != std::string::npos);

  const auto doubled = failureOf(defined(polarWith("r'^2 +* th'^2"), kPolarInitial));
  CHECK(doubled.column == 7);
  const auto juxtaposed = failureOf(defined(polarWith("2r'^2"), kPolarInitial));
  CHECK(juxtaposed.column == 2);
  CHECK(juxtaposed.message.find("unexpected \"r\"") != std::string::npos);
  CHECK(failureOf(defined(polarWith("  "), kPolarInitial)).message.find("is empty") != std::string::npos);
  CHECK(failureOf(defined(polarWith("foo(r)"), kPolarInitial)).message.find("unknown function \"foo\"") !=
        std::string::npos);
  CHECK(failureOf(defined(polarWith("atan2(r)"), kPolarInitial)).message.find("atan2 takes 2 arguments") !=
        std::string::npos);
  CHECK(failureOf(defined(polarWith("m'^2"), kPolarInitial)).message.find("only coordinates have velocities") !=
        std::string::npos);
  // t is allowed in L (time-dependent Lagrangians); constraints refuse it (test_lagrangian_forcing.cpp).
  CHECK(failureOf(defined(polarWith("r'^2 + th'^2 + t"), kPolarInitial)).message == "no error");
  // Non-ASCII characters are counted as one column each.
  const auto greek = failureOf(defined(polarWith("r'^2 + θ'^2"), kPolarInitial));
  CHECK(greek.column == 8);
  // qdot is the velocity of q, like q'.
  CHECK_NOTHROW(parseScenario(defined(polarWith("rdot^2/2 + r^2*thdot^2/2 - 40/2*(r-1)^2"), kPolarInitial)));
}

TEST_CASE("lagrangian: limits on size, nesting and counts", "[lagrangian][errors]") {
  const std::string big(1 << 20, '1');
  const auto huge = failureOf(defined(polarWith(big), kPolarInitial));
  CHECK(huge.field == "params.lagrangian");
  CHECK(huge.message.find("too long (1048576 bytes; the limit is 4096)") != std::string::npos);

  // 10 000 nested parentheses exceed the size limit; 1000 (2 KB) the nesting limit, at
  // the column where the 65th level opens.
  const std::string deepest = std::string(10000, '(') + "r" + std::string(10000, ')');
  CHECK(failureOf(defined(polarWith(deepest), kPolarInitial)).message.find("too long") != std::string::npos);
  const std::string deep = std::string(1000, '(') + "r" + std::string(1000, ')');
  const auto nested = failureOf(defined(polarWith(deep), kPolarInitial));
  CHECK(nested.field == "params.lagrangian");
  INFO(nested.message);
  CHECK(nested.message.find("nested more than 64 levels deep") != std::string::npos);
  CHECK(nested.column == 65);
  const std::string signs = std::string(2000, '-') + "r";
  CHECK(failureOf(defined(polarWith(signs), kPolarInitial)).message.find("nested more than 64") != std::string::npos);
  // 60 levels are fine.
  const std::string ok = "r'^2/2 + th'^2/2 + " + std::string(60, '(') + "r" + std::string(60, ')');
  CHECK_NOTHROW(parseScenario(defined(polarWith(ok), kPolarInitial)));

  Json p = Json::parse(kPolar);
  p["coordinates"] = Json::array();
  for (int i = 0; i < 17; ++i) p["coordinates"].push_back("q" + std::to_string(i));
  CHECK(failureOf(defined(p.dump(), kPolarInitial)).message.find("params.coordinates: at most 16 coordinates") == 0);
  Json c = Json::parse(kPolar);
  c["coordinates"] = Json::array({"x", "x"});
  CHECK(failureOf(defined(c.dump(), kPolarInitial)).field == "params.coordinates[1]");
  Json r = Json::parse(kPolar);
  r["coordinates"] = Json::array({"r", "sin"});
  CHECK(failureOf(defined(r.dump(), kPolarInitial)).message.find("reserved") != std::string::npos);
}

TEST_CASE("lagrangian: bad numbers, singular mass matrices and violated constraints are refused",
          "[lagrangian][errors]") {
  Json nan = Json::parse(kPolar);
  nan["constants"]["k"] = "NaN";
  CHECK(failureOf(defined(nan.dump(), kPolarInitial)).field == "params.constants.k");
  nan["constants"]["k"] = "Infinity";
  CHECK(failureOf(defined(nan.dump(), kPolarInitial)).field == "params.constants.k");
  CHECK(failureOf(defined(polarWith("1e400*r'^2"), kPolarInitial)).message.find("out of range") != std::string::npos);

  const auto singular = failureOf(defined(polarWith("m/2*r'^2 + m*g*r*cos(th)"), kPolarInitial));
  CHECK(singular.field == "params.lagrangian");
  CHECK(singular.message.find("mass matrix") != std::string::npos);
  CHECK(singular.message.find("th'") != std::string::npos);

  const auto notFinite = failureOf(defined(polarWith("r'^2/2 + th'^2/2 + log(r - 5)"), kPolarInitial));
  CHECK(notFinite.field == "params.lagrangian");
  CHECK(notFinite.message.find("not finite") != std::string::npos);

  const std::string pendulum =
      R"({"coordinates":["x","z"],"lagrangian":"(x'^2+z'^2)/2 - 9.81*z","constraints":["x^2+z^2-1"]})";
  const auto off = failureOf(defined(pendulum, R"({"q":[0.6,-0.8000001],"qdot":[0,0]})"));
  CHECK(off.field == "initial.q");
  CHECK(off.message.find("off the constraint manifold") != std::string::npos);
  const auto moving = failureOf(defined(pendulum, R"({"q":[0.6,-0.8],"qdot":[1,0]})"));
  CHECK(moving.field == "initial.qdot");
  // Within 1e-9: projected onto the manifold.
  Simulation sim = simulate(defined(pendulum, R"({"q":[0.6,-0.8000000001],"qdot":[0.8,0.6]})"));
  CHECK(sim.diagnostics().constraint <= 1e-15);

  const auto velocityInG =
      failureOf(defined(R"({"coordinates":["x","z"],"lagrangian":"(x'^2+z'^2)/2","constraints":["x'+z"]})",
                        R"({"q":[0,0],"qdot":[0,0]})"));
  CHECK(velocityInG.field == "params.constraints[0]");
  CHECK(velocityInG.message.find("not allowed here") != std::string::npos);

  const auto wrongSymmetry = failureOf(defined(
      R"({"coordinates":["x","y"],"lagrangian":"(x'^2+y'^2)/2 - x^2/2 - 2*y^2","symmetries":{"Lz":["-y","x"]}})",
      R"({"q":[1,0.5],"qdot":[0,0.3]})"));
  CHECK(wrongSymmetry.field == "params.symmetries.Lz");
  CHECK(wrongSymmetry.message.find("is not a symmetry of L") != std::string::npos);

  CHECK(failureOf(defined(kPolar, R"({"q":[1.2],"qdot":[0,0]})")).field == "initial.q");
  // A new definition without initial data says what it needs.
  CHECK(failureOf(R"({"system":"lagrangian","params":)" + std::string(kPolar) + "}").field == "initial");
}

TEST_CASE("lagrangian: compiled derivatives match finite differences", "[lagrangian][derivatives]") {
  Json normalized;
  const Json params = Json::parse(R"({"coordinates":["x","y"],"constants":{"a":0.7},
    "lagrangian":"a*sin(x)*y'^2 + exp(-x^2)*cos(y) + log(2+x^2)*x'*y' + atan2(y, 1+x^2)*x' + sqrt(1+y^2)*tan(0.3*x) + (1+x^2)^1.5*y'^2/2 + x'^2/2 + abs(y)*x + (2+y)^x"})");
  const auto problem = compileLagrangian(params, normalized);
  LagrangianEval eval(problem);
  const Eigen::Vector2d q(0.4, -0.3), v(0.9, 1.7);
  const auto value = [&](const Eigen::Vector4d& z) {
    SmallVec Lv;
    SmallMat M;
    return eval.energyTerms(z.data(), z.data() + 2, Lv, M);
  };
  const auto grad = [&](const VecX& z) {
    SmallVec Lq, Lv;
    eval.gradient(z.data(), z.data() + 2, Lq, Lv);
    VecX g(4);
    g << Lq, Lv;
    return g;
  };
  Eigen::Vector4d z;
  z << q, v;
  const VecX g = grad(z);
  for (int i = 0; i < 4; ++i) {
    const double e = 1e-4;
    Eigen::Vector4d a = z, b = z, c = z, d = z;
    a[i] += e;
    b[i] -= e;
    c[i] += 2 * e;
    d[i] -= 2 * e;
    const double fd = (8 * (value(a) - value(b)) - (value(c) - value(d))) / (12 * e);
    CHECK(std::abs(fd - g[i]) <= 1e-9 * (1 + std::abs(g[i])));
  }
  SmallMat Lqq, Lqv, Lvv;
  eval.hessian(q.data(), v.data(), Lqq, Lqv, Lvv);
  Eigen::Matrix4d H;
  H << Lqq, Lqv, Lqv.transpose(), Lvv;
  const Eigen::MatrixXd J = vilab::test::finiteDifferenceJacobian(grad, z, VecX::Constant(4, 1e-4));
  CHECK((J - H).cwiseAbs().maxCoeff() <= 1e-8);
  CHECK(problem->quadratic);  // L is quadratic in the velocities (with a configuration-dependent mass matrix)
  CHECK(!problem->constantMass);
}

TEST_CASE("lagrangian: a Cartesian pendulum as data is the built-in pendulum's midpoint trajectory", "[lagrangian]") {
  const double s = dm::sin(1.0), c = dm::cos(1.0);
  char initial[160];
  std::snprintf(initial, sizeof initial, R"({"q":[%.17g,0,%.17g],"qdot":[0,0,0]})", s, -c);
  Simulation data = simulate(defined(
      R"({"coordinates":["x","y","z"],"constants":{"m":1,"g":9.81,"l":1},"lagrangian":"m/2*(x'^2+y'^2+z'^2) - m*g*z",
          "constraints":["x^2+y^2+z^2-l^2"],"symmetries":{"Jz":["-y","x","0"]}})",
      initial));
  Simulation builtin = simulate(R"({"system":"pendulum","integrator":"midpoint","h":0.01})");
  double worst = 0;
  for (int k = 0; k < 100; ++k) {
    data.advance(100);
    builtin.advance(100);
    worst = std::max(
        {worst, vilab::test::maxDifference(data.q(), builtin.q()), vilab::test::maxDifference(data.p(), builtin.p())});
  }
  INFO("max difference over 1e4 steps: " << worst);
  CHECK(worst <= 1e-12);
  // Energies differ by the constant m g l of the built-in's reference level.
  CHECK(std::abs(data.diagnostics().energy + 9.81 - builtin.diagnostics().energy) <= 1e-12);
}

namespace {
// The built-in double spherical pendulum and the same system as data (Cartesian, two
// constraints) from the same state, stepped side by side; the largest difference in
// (q, p) over `steps` steps.
double dspDifference(const std::string& builtinScenario, int steps) {
  Simulation builtin = simulate(builtinScenario);
  const VecX x = builtin.q(), p = builtin.p();
  Json initial;
  initial["q"] = std::vector<double>(x.data(), x.data() + 6);
  initial["qdot"] = std::vector<double>(p.data(), p.data() + 6);  // masses 1
  const std::string params = R"({"coordinates":["x1","y1","z1","x2","y2","z2"],"constants":{"g":9.81},
      "lagrangian":"(x1'^2+y1'^2+z1'^2)/2 + (x2'^2+y2'^2+z2'^2)/2 - g*z1 - g*z2",
      "constraints":["x1^2+y1^2+z1^2-1","(x2-x1)^2+(y2-y1)^2+(z2-z1)^2-1"],
      "symmetries":{"Jz":["-y1","x1","0","-y2","x2","0"]}})";
  Simulation data = simulate(defined(params, initial.dump()));
  double worst = vilab::test::maxDifference(data.q(), builtin.q());
  for (int k = 0; k < steps / 100; ++k) {
    data.advance(100);
    builtin.advance(100);
    worst = std::max(
        {worst, vilab::test::maxDifference(data.q(), builtin.q()), vilab::test::maxDifference(data.p(), builtin.p())});
  }
  worst = std::max(worst, std::abs(data.diagnostics().momentum[0] - builtin.diagnostics().momentum[0]));
  return worst;
}
}  // namespace

TEST_CASE("lagrangian: the double spherical pendulum as data is the built-in one", "[lagrangian]") {
  // A regular (small-amplitude) motion over 1e4 steps.
  const double regular = dspDifference(
      R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.01,
          "initial":{"angles":[[0.3,0],[0.5,0.4]],"rates":[[0,0.5],[0,-0.3]]}})",
      10000);
  INFO("regular motion, 1e4 steps: " << regular);
  CHECK(regular <= 1e-12);
  // The default motion is chaotic: rounding differences grow about e-fold per 0.4 s
  // (2.5e-13 after 5 s, 7e-8 after 20 s), so two implementations that are not bitwise
  // identical agree to 1e-12 only within the first few seconds.
  const double chaotic =
      dspDifference(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.01})", 500);
  INFO("chaotic default, 500 steps: " << chaotic);
  CHECK(chaotic <= 1e-12);
}

namespace {
// Kepler with e = 0.6 from perihelion (a = 1, GM = 1: r = 0.4, speed 2, period 2π).
const char* kKepler = R"j({"coordinates":["x","y"],"constants":{"k":1},
  "lagrangian":"(x'^2+y'^2)/2 + k/sqrt(x^2+y^2)","symmetries":{"Lz":["-y","x"]}})j";
const char* kKeplerInitial = R"({"q":[0.4,0],"qdot":[0,2]})";
}  // namespace

TEST_CASE("lagrangian: Kepler keeps angular momentum and bounded energy — RK4 and DOPRI5 drift", "[lagrangian][slow]") {
  // h = 0.01 for 1e6 steps: about 1590 orbits.
  Simulation sim = simulate(defined(kKepler, kKeplerInitial, "midpoint", 0.01), 100, 1 << 15);
  sim.advance(1000000);
  const auto L = column(sim, "momentum.Lz");
  const auto E = column(sim, "energy");
  const double drift = maxAbsDeviation(L) / std::abs(L[0]);
  INFO("midpoint: Lz drift " << drift << ", energy window ratio " << driftRatio(E));
  CHECK(drift <= 1e-11);
  CHECK(driftRatio(E) <= 1.5);
  CHECK(std::abs(E[0] + 0.5) <= 1e-12);  // E = ½·4 − 1/0.4

  for (const char* baseline : {"rk4", "dopri5"}) {
    Simulation b = simulate(defined(kKepler, kKeplerInitial, baseline, 0.01), 100, 1 << 15);
    b.advance(1000000);
    const double ratio = driftRatio(column(b, "energy"));
    INFO(baseline << ": energy window ratio " << ratio << ", Lz drift "
                  << maxAbsDeviation(column(b, "momentum.Lz")) / 0.8);
    CHECK(ratio > 1.5);
  }
}

namespace {
// q(T) of the elastic pendulum at T = 1 s.
VecX elasticAt(const std::string& integrator, double h, const std::string& options = "{}") {
  Simulation sim = simulate(elastic(integrator, h, R"(,"options":)" + options));
  sim.advance(static_cast<std::uint64_t>(std::llround(1.0 / h)));
  return sim.q();
}
}  // namespace

TEST_CASE("lagrangian: convergence orders on the elastic pendulum", "[lagrangian][order]") {
  const VecX reference = elasticAt("rk4", 1e-4);
  std::vector<double> midpoint, alpha, gap;
  for (double h : {0.02, 0.01, 0.005}) {
    midpoint.push_back((elasticAt("midpoint", h) - reference).norm());
    alpha.push_back((elasticAt("alpha", h, R"({"alpha":0.25})") - reference).norm());
    gap.push_back((elasticAt("trapezoid", h) - elasticAt("midpoint", h)).norm());
  }
  const auto om = vilab::test::observedOrders(midpoint), oa = vilab::test::observedOrders(alpha),
             og = vilab::test::observedOrders(gap);
  INFO("midpoint " << om[0] << " " << om[1] << "; alpha 1/4 " << oa[0] << " " << oa[1] << "; trapezoid − midpoint "
                   << og[0] << " " << og[1] << " (" << gap[1] << " at h = 0.01)");
  for (double o : om) CHECK(std::abs(o - 2) <= 0.1);
  for (double o : oa) CHECK(std::abs(o - 1) <= 0.1);
  // Not conjugate: with a configuration-dependent mass matrix and a non-uniform force,
  // trapezoid and midpoint positions differ at O(h²) per unit time (for the built-in
  // systems with uniform gravity they coincide).
  for (double o : og) CHECK(std::abs(o - 2) <= 0.1);
  CHECK(gap[1] >= 1e-5);
}

TEST_CASE("lagrangian: a step that cannot be resolved is refused and the state kept", "[lagrangian][errors]") {
  // Kepler from near the centre with h far too large for the perihelion passage.
  Simulation sim = simulate(defined(kKepler, R"({"q":[0.05,0],"qdot":[0,6.3]})", "midpoint", 0.5));
  const std::string before = sim.hash();
  bool refused = false;
  try {
    sim.advance(20);
  } catch (const StepFailure& e) {
    refused = true;
    INFO(e.what());
    CHECK(sim.step() == e.step() - 1);
  }
  CHECK(refused);
  CHECK(sim.q().allFinite());
  CHECK(sim.step() == 0);
  CHECK(sim.hash() == before);  // refused at step 1: the initial state, untouched
}

TEST_CASE("lagrangian: energy-momentum conserves energy and constraints where H exists",
          "[lagrangian][energy-momentum]") {
  Simulation builtin = simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.01})");
  const VecX x = builtin.q(), p = builtin.p();
  Json initial;
  initial["q"] = std::vector<double>(x.data(), x.data() + 6);
  initial["qdot"] = std::vector<double>(p.data(), p.data() + 6);
  const std::string params = R"({"coordinates":["x1","y1","z1","x2","y2","z2"],"constants":{"g":9.81},
      "lagrangian":"(x1'^2+y1'^2+z1'^2)/2 + (x2'^2+y2'^2+z2'^2)/2 - g*z1 - g*z2",
      "constraints":["x1^2+y1^2+z1^2-1","(x2-x1)^2+(y2-y1)^2+(z2-z1)^2-1"],
      "symmetries":{"Jz":["-y1","x1","0","-y2","x2","0"]}})";
  Simulation em = simulate(defined(params, initial.dump(), "energy-momentum", 0.01));
  em.advance(5000);
  const auto E = column(em, "energy"), J = column(em, "momentum.Jz"), g = column(em, "constraint");
  INFO("energy " << maxAbsDeviation(E) / E[0] << ", Jz " << maxAbsDeviation(J) / std::abs(J[0]) << ", |g| "
                 << vilab::test::maxAbs(g));
  CHECK(maxAbsDeviation(E) / E[0] <= 1e-12);
  CHECK(maxAbsDeviation(J) / std::abs(J[0]) <= 1e-12);
  CHECK(vilab::test::maxAbs(g) <= 1e-13);
  // Negative control: the midpoint rule's energy oscillates at O(h²).
  Simulation mid = simulate(defined(params, initial.dump(), "midpoint", 0.01));
  mid.advance(5000);
  const auto Em = column(mid, "energy");
  CHECK(maxAbsDeviation(Em) / Em[0] >= 1e-4);

  // Kepler: a configuration-dependent potential, no constraints.
  Simulation kepler = simulate(defined(kKepler, kKeplerInitial, "energy-momentum", 0.01));
  kepler.advance(5000);
  const auto Ek = column(kepler, "energy");
  CHECK(maxAbsDeviation(Ek) / 0.5 <= 1e-12);

  // Without H in closed form (L not quadratic in the velocities) it is refused.
  CHECK_THROWS_WITH(simulate(defined(R"({"coordinates":["x"],"lagrangian":"sqrt(1 + x'^2) - x^2/2"})",
                                     R"({"q":[1],"qdot":[0]})", "energy-momentum")),
                    Catch::Contains("integrator: energy-momentum needs H(q, p)"));
}

TEST_CASE("lagrangian: a step runs each program once per point — repeated questions are answered from the last run",
          "[lagrangian][speed]") {
  // The DSP as data (two constraints, constant mass): the step's Newton, its momentum
  // projection and the simulation's checks and diagnostics ask for the same points'
  // constraints, gradient and energy terms several times. 17.8 program runs per step
  // before each program kept its last outputs; 10.4 after (counted here, natively).
  const std::string& params = kDspAsData;
  const std::string& initial = kDspAsDataInitial;
  for (const int stride : {1, 1000000}) {
    SimulationOptions options;
    options.historyStride = stride;
    Simulation sim(parseScenario(defined(params, initial)), options);
    sim.advance(100);
    const double perStep = programRunsPerStep(sim, 1000);
    INFO("history stride " << stride << ": " << perStep << " program runs per step");
    CHECK(perStep <= 11);
  }
  // The same point twice: one run, the same bits; another point: a run.
  Json normalized;
  const auto problem = compileLagrangian(Json::parse(params), normalized);
  LagrangianEval eval(problem);
  const double q[6] = {0.6, 0, -0.8, 0.6, 0.6, -1.6}, v[6] = {0, 0.8, 0, 0.5, 0.8, 0};
  SmallVec Lq1, Lv1, Lq2, Lv2;
  const auto c0 = expr::programCounts().interpretedRuns;
  eval.gradient(q, v, Lq1, Lv1);
  eval.gradient(q, v, Lq2, Lv2);
  CHECK(expr::programCounts().interpretedRuns - c0 == 1);
  CHECK(Lq1 == Lq2);
  CHECK(Lv1 == Lv2);
  double q2[6] = {0.6, 0, -0.8, 0.6, 0.6, -1.6};
  q2[5] = std::nextafter(q2[5], 0.0);  // one ulp away: not the same point
  eval.gradient(q2, v, Lq2, Lv2);
  CHECK(expr::programCounts().interpretedRuns - c0 == 2);
}

TEST_CASE("lagrangian: the model and its integrator share one evaluator — the step's end state serves the model",
          "[lagrangian][speed]") {
  // L quadratic in the velocities: every answer an evaluator keeps is a function of its
  // arguments, so the step's Dg(q₁), velocities at q₁ and the factorization of Dg M⁻¹ Dgᵀ
  // there serve the model's energy and diagnostics. The DSP as data: the same bits as
  // with an evaluator each (the hash pinned before they were shared), fewer program runs.
  const std::string& params = kDspAsData;
  const std::string& initial = kDspAsDataInitial;
  Simulation sim(parseScenario(defined(params, initial)));
  sim.advance(100);
  const double perStep = programRunsPerStep(sim, 1900);
  // 10.1–10.4 runs per step with an evaluator each (the test above, before), 9.1 shared,
  // 7.2 since the velocity cache keeps the step's start for the plausibility check
  // (eight slots: a constrained step asks for three new velocities before it) and its
  // gradient at (q_k, 0) is not formed again (counted here, natively).
  INFO(perStep << " program runs per step");
  CHECK(perStep <= 8);
  CHECK(sim.hash() == "4e80f5e715536106");

  // The kept factorization of Dg M⁻¹ Dgᵀ: projecting at q_a, at q_b, then at q_a again
  // gives a fresh evaluator's bits each time.
  Json normalized;
  const auto problem = compileLagrangian(Json::parse(params), normalized);
  LagrangianEval kept(problem);
  const double qa[6] = {0.6, 0, -0.8, 0.6, 0.6, -1.6}, qb[6] = {0.8, 0, -0.6, 0.8, 0.6, -1.4};
  const double p0[6] = {0.1, 0.8, 0.2, 0.5, 0.8, -0.3};
  for (const double* q : {qa, qb, qa}) {
    double pk[6], pf[6];
    std::copy(p0, p0 + 6, pk);
    std::copy(p0, p0 + 6, pf);
    LagrangianEval fresh(problem);
    REQUIRE(kept.projectMomentum(q, pk));
    REQUIRE(fresh.projectMomentum(q, pf));
    for (int i = 0; i < 6; ++i) CHECK(std::memcmp(pk + i, pf + i, sizeof(double)) == 0);
  }
}

TEST_CASE("lagrangian: ∂L/∂q̇ at rest is formed once when it reads neither q nor t", "[lagrangian][speed]") {
  const auto compiled = [](const std::string& params) {
    Json normalized;
    return compileLagrangian(Json::parse(params), normalized);
  };
  // Constant: the DSP as data (b = 0), and a constant linear term b = 3.
  CHECK(compiled(kDspAsData)->constantRestMomentum);
  const auto shifted = compiled(R"({"coordinates":["x"],"lagrangian":"x'^2/2 + 3*x' - x^2/2"})");
  CHECK(shifted->constantRestMomentum);
  // Not constant: a magnetic term reads q, a time-dependent one t, a mass matrix q.
  CHECK_FALSE(
      compiled(R"({"coordinates":["x","y"],"lagrangian":"(x'^2+y'^2)/2 + (x*y' - y*x')/2"})")->constantRestMomentum);
  CHECK_FALSE(compiled(R"({"coordinates":["x"],"lagrangian":"x'^2/2 + t*x' - x^2/2"})")->constantRestMomentum);
  CHECK_FALSE(compiled(R"({"coordinates":["x"],"lagrangian":"(2 + x^2)*x'^2/2"})")->constantRestMomentum);

  // v = M⁻¹ (p − b) with b kept from the first answer: a fresh evaluator's bits at every q,
  // and no program run by the kept evaluator at three new q (the magnetic term, formed at
  // each q, for contrast: three runs).
  for (const auto& [params, expectedRuns] :
       {std::pair<std::string, long>{R"({"coordinates":["x"],"lagrangian":"x'^2/2 + 3*x' - x^2/2"})", 0},
        std::pair<std::string, long>{R"({"coordinates":["x","y"],"lagrangian":"(x'^2+y'^2)/2 + (x*y' - y*x')/2"})",
                                     3}}) {
    const auto problem = compiled(params);
    LagrangianEval kept(problem);
    const int n = problem->n;
    SmallVec warm;
    const double q0[2] = {9.0, 9.0}, p0[2] = {0, 0};
    REQUIRE(kept.velocity(q0, p0, warm));  // M⁻¹ (and b) formed here, outside the count
    long keptRuns = 0;
    for (const double x : {0.0, 0.7, -2.5}) {
      const double q[2] = {x, 1.0 - x}, p[2] = {0.3, -0.1};
      SmallVec vk, vf;
      LagrangianEval fresh(problem);
      const auto before = expr::programCounts().interpretedRuns;
      REQUIRE(kept.velocity(q, p, vk));
      keptRuns += static_cast<long>(expr::programCounts().interpretedRuns - before);
      REQUIRE(fresh.velocity(q, p, vf));
      for (int i = 0; i < n; ++i) CHECK(std::memcmp(&vk[i], &vf[i], sizeof(double)) == 0);
    }
    INFO(params);
    CHECK(keptRuns == expectedRuns);
  }
}

TEST_CASE("lagrangian: the velocity cache answers for arguments that compare equal, −0 as +0", "[lagrangian]") {
  // The cache compares (q, p, t) with ==, so a −0 finds the answer kept for +0: its key
  // (which passes over the other slots) must be equal too. Were it not, the second answer
  // would be formed again from −0, and its zero components would change sign. The mass
  // matrix is constant, ∂L/∂q̇ at rest (0, 0, y) is not: the answers go through the cache.
  Json normalized;
  const auto problem = compileLagrangian(
      Json::parse(R"({"coordinates":["x","y","z"],"lagrangian":"(x'^2+y'^2+z'^2)/2 + y*z' - z"})"), normalized);
  REQUIRE_FALSE(problem->constantRestMomentum);
  LagrangianEval eval(problem);
  const double q[3] = {0.6, 0.7, -0.8};
  // x's momentum ±0 and the others negative: M⁻¹'s zeros times them are −0, so v_x = −0
  // when formed from −0.
  const double plus[3] = {0.0, -0.5, -0.3}, minus[3] = {-0.0, -0.5, -0.3};
  SmallVec a, b, fromMinus;
  REQUIRE(eval.velocity(q, plus, a));
  REQUIRE(eval.velocity(q, minus, b));
  LagrangianEval fresh(problem);
  REQUIRE(fresh.velocity(q, minus, fromMinus));
  for (int i = 0; i < 3; ++i) CHECK(std::memcmp(&a[i], &b[i], sizeof(double)) == 0);
  // The test can tell: formed from −0 the answer differs in the sign of a zero.
  bool signDiffers = false;
  for (int i = 0; i < 3; ++i) signDiffers = signDiffers || std::signbit(a[i]) != std::signbit(fromMinus[i]);
  CHECK(signDiffers);
}

TEST_CASE("lagrangian: with M and ∂L/∂q̇ at rest constant, a velocity is formed from its arguments' bits alone",
          "[lagrangian][speed]") {
  // v = M⁻¹ (p − b) is one product, cheaper than a look-up: no cache, so an answer depends
  // on (q, p) alone, never on what was asked before (here a +0 before a −0), and no
  // program runs once b is kept.
  Json normalized;
  const auto problem = compileLagrangian(Json::parse(kDspAsData), normalized);
  REQUIRE(problem->constantRestMomentum);
  LagrangianEval eval(problem);
  const double q[6] = {0.6, 0, -0.8, 0.6, 0.6, -1.6};
  const double plus[6] = {0.0, -0.8, 0.0, -0.5, 0.0, -0.3}, minus[6] = {-0.0, -0.8, -0.0, -0.5, -0.0, -0.3};
  SmallVec a, b, fromMinus;
  REQUIRE(eval.velocity(q, plus, a));
  const auto before = expr::programCounts();
  REQUIRE(eval.velocity(q, minus, b));
  const auto after = expr::programCounts();
  CHECK(after.interpretedRuns + after.compiledRuns == before.interpretedRuns + before.compiledRuns);
  LagrangianEval fresh(problem);
  REQUIRE(fresh.velocity(q, minus, fromMinus));
  bool signDiffers = false;
  for (int i = 0; i < 6; ++i) {
    CHECK(std::memcmp(&b[i], &fromMinus[i], sizeof(double)) == 0);
    signDiffers = signDiffers || std::signbit(a[i]) != std::signbit(b[i]);
  }
  CHECK(signDiffers);  // the −0 answer is not the +0 one
}

TEST_CASE(
    "lagrangian: the plausibility check passes a jump within a quarter of |E| without T, and lets |E| + T decide "
    "beyond",
    "[lagrangian]") {
  // L = (1 + x²) x'²/2 at (q, p) = (0, 1): E = T = 0.5, the size |E| + T = 1. Its mass
  // matrix is not constant, so T needs a velocity recovery, which runs L's programs.
  Json normalized;
  const LagrangianModel model(
      compileLagrangian(Json::parse(R"({"coordinates": ["x"], "lagrangian": "(1 + x^2)*x'^2/2"})"), normalized));
  State a, b;
  a.q = VecX::Zero(1);
  a.p = VecX::Constant(1, 1.0);
  b = a;
  const auto runs = [] { return expr::programCounts().interpretedRuns + expr::programCounts().compiledRuns; };
  const auto before = runs();
  CHECK(model.implausibleStep(a, b, 0.5, 0.5 + 0.1, 0.01).empty());  // within |E|/4: no T needed
  CHECK(runs() == before);                                           // so no velocity recovered
  CHECK(model.implausibleStep(a, b, 0.5, 0.5 + 0.2, 0.01).empty());  // beyond |E|/4, within (|E| + T)/4
  CHECK(runs() > before);
  const std::string why = model.implausibleStep(a, b, 0.5, 0.5 + 0.3, 0.01);
  CHECK(why.find("more than a quarter of its size (1") != std::string::npos);
  CHECK_FALSE(model.implausibleStep(a, b, 0.0, 0.2, 0.01).empty());  // E = 0: the size is T = 0.5
}

TEST_CASE(
    "lagrangian: diagnostics written in place are diagnostics()'s numbers, and the fields a system defined by "
    "data does not set keep what they held",
    "[lagrangian]") {
  // The DSP as data with a conserved quantity (a momentum and a conserved column, two
  // constraints), and an unconstrained oscillator (its constraint column must read 0 even
  // in a Diagnostics that held another number).
  Json params = Json::parse(kDspAsData);
  params["conserved"] = Json::parse(R"({"z2dot":"z2'"})");
  Simulation dsp = simulate(defined(params.dump(), kDspAsDataInitial));
  Simulation free =
      simulate(defined(R"({"coordinates":["x"],"lagrangian":"x'^2/2 - x^2/2"})", R"({"q":[0.3],"qdot":[1]})"));
  for (Simulation* sim : {&dsp, &free}) {
    sim->advance(7);
    const auto& model = std::get<LagrangianModel>(sim->scenario().model);
    const double t = sim->time();
    const Diagnostics fresh = model.diagnostics(sim->state(), t);
    Diagnostics reused;
    reused.energy = reused.constraint = 5;
    reused.bodyMomentum = {7, 8, 9};
    reused.hasBodyMomentum = true;
    reused.momentum.fill(3);
    reused.conserved.fill(4);
    model.diagnosticsInto(sim->state(), t, reused);
    const auto same = [](double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; };
    CHECK(same(reused.energy, fresh.energy));
    CHECK(same(reused.constraint, fresh.constraint));
    REQUIRE(reused.momentumSize == fresh.momentumSize);
    REQUIRE(reused.conservedSize == fresh.conservedSize);
    for (int i = 0; i < fresh.momentumSize; ++i) CHECK(same(reused.momentum[i], fresh.momentum[i]));
    for (int i = 0; i < fresh.conservedSize; ++i) CHECK(same(reused.conserved[i], fresh.conserved[i]));
    // What a system defined by data does not set is left as it was.
    CHECK(reused.bodyMomentum == std::array<double, 3>{7, 8, 9});
    CHECK(reused.hasBodyMomentum);
    for (std::size_t i = static_cast<std::size_t>(fresh.momentumSize); i < reused.momentum.size(); ++i)
      CHECK(reused.momentum[i] == 3);
  }
  CHECK(std::get<LagrangianModel>(dsp.scenario().model).diagnostics(dsp.state(), dsp.time()).conservedSize == 1);
  CHECK(std::get<LagrangianModel>(free.scenario().model).diagnostics(free.state(), free.time()).constraint == 0);
}

TEST_CASE("lagrangian: the reduced step written out in place gives the general path's bits, and its refusals",
          "[lagrangian][determinism]") {
  // Constant mass, constraints, no forces: after its first step LagrangianDel takes
  // stepReducedInPlace. Against the same integrator with it off, step by step: the
  // coordinates' and constraints' counts as constants (n ≤ 6, c ≤ 3) and at run time
  // (n = 8, c = 4), the midpoint rule and an α member, L depending on t; M⁻¹ and J11⁻¹
  // diagonal (point masses in Cartesian coordinates: for n > 2 their products skip the
  // zero terms). Where L_q is
  // constant (gravity in Cartesian coordinates) the step in place knows L's gradient
  // without running its program; elsewhere it runs it.
  struct Case {
    const char* params;
    std::vector<double> q, p;
    DiscreteRule rule;
    bool knownGradient = true;  // L_q constant
  };
  const std::string planar = R"j("lagrangian":"(x1'^2+z1'^2)/2 + (x2'^2+z2'^2)/2 + (x3'^2+z3'^2)/2 - g*(z1+z2+z3)")j";
  const std::string links3 = R"j("x1^2+z1^2-1","(x2-x1)^2+(z2-z1)^2-1","(x3-x2)^2+(z3-z2)^2-1")j";
  const std::string triple = R"j({"coordinates":["x1","z1","x2","z2","x3","z3"],"constants":{"g":9.81},)j" + planar +
                             R"j(,"constraints":[)j" + links3 + "]}";
  const std::string quadruple =
      R"j({"coordinates":["x1","z1","x2","z2","x3","z3","x4","z4"],"constants":{"g":9.81},)j"
      R"j("lagrangian":"(x1'^2+z1'^2+x2'^2+z2'^2+x3'^2+z3'^2+x4'^2+z4'^2)/2 - g*(z1+z2+z3+z4)","constraints":[)j" +
      links3 + R"j(,"(x4-x3)^2+(z4-z3)^2-1"]})j";
  const Case cases[] = {
      {kDspAsData.c_str(), {0.6, 0, -0.8, 0.6, 0.6, -1.6}, {0, 0.8, 0, 0.5, 0.8, 0}, DiscreteRule::midpoint()},
      // In the plane y = 0: the y rows of M⁻¹ (p − b), δ0 and B are zeros, whose signs the
      // diagonal matrices' products (diagonalTimes) give as the sums in full do.
      {kDspAsData.c_str(), {0.6, 0, -0.8, 1.2, 0, -1.6}, {0.8, 0, 0.6, 1.2, 0, 0.9}, DiscreteRule::midpoint()},
      {R"j({"coordinates":["x","z"],"constants":{"g":9.81},"lagrangian":"(x'^2+z'^2)/2 - g*z*(1 + sin(3*t)/5)",)j"
       R"j("constraints":["x^2+z^2-1"]})j",
       {0.6, -0.8},
       {0.8, 0.6},
       DiscreteRule::alphaFamily(0.3),
       false},
      // L reads t, L_q does not.
      {R"j({"coordinates":["x","z"],"constants":{"g":9.81},"lagrangian":"(x'^2+z'^2)/2 - g*z + sin(3*t)/5",)j"
       R"j("constraints":["x^2+z^2-1"]})j",
       {0.6, -0.8},
       {0.8, 0.6},
       DiscreteRule::alphaFamily(0.3)},
      {triple.c_str(), {0.6, -0.8, 1.2, -1.6, 1.8, -2.4}, {0.8, 0.6, 0.4, 0.3, 0, 0}, DiscreteRule::midpoint()},
      {quadruple.c_str(),
       {0.6, -0.8, 1.2, -1.6, 1.8, -2.4, 2.4, -3.2},
       {0.8, 0.6, 0.4, 0.3, 0, 0, -0.4, -0.3},
       DiscreteRule::alphaFamily(0.7)},
  };
  const auto same = [](const VecX& a, const VecX& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
  };
  for (const Case& k : cases) {
    INFO(k.params);
    Json normalized;
    const auto problem = compileLagrangian(Json::parse(k.params), normalized);
    const double h = 0.01;
    LagrangianDel inPlace(problem, k.rule, h), general(problem, k.rule, h);
    general.setStepInPlace(false);
    VecX qa = Eigen::Map<const VecX>(k.q.data(), k.q.size()), pa = Eigen::Map<const VecX>(k.p.data(), k.p.size());
    VecX qb = qa, pb = pa;
    constexpr int kSteps = 1500;
    bool identical = true;
    std::uint64_t gradientRuns = 0;  // the step in place's runs of L's gradient program
    for (int step = 0; step < kSteps && identical; ++step) {
      inPlace.setTime(step * h);
      general.setTime(step * h);
      const expr::ProgramCounts before = expr::programCounts();
      const StepOutcome a = inPlace.step(qa, pa);
      const expr::ProgramCounts after = expr::programCounts();
      const StepOutcome b = general.step(qb, pb);
      identical = a.ok && b.ok && a.iterations == b.iterations && same(qa, qb) && same(pa, pb);
      // Each in-place step runs the constraints once a Newton iteration and once at
      // q_{k+1}, L once for the energy it keeps (L not reading t), and L's gradient twice
      // unless it is known.
      const std::uint64_t runs =
          after.compiledRuns + after.interpretedRuns - before.compiledRuns - before.interpretedRuns;
      const std::uint64_t others = static_cast<std::uint64_t>(a.iterations) + (problem->timeDependent ? 1 : 2);
      if (step > 0) gradientRuns += runs - others;
    }
    CHECK(identical);
    CHECK(problem->constantLq == k.knownGradient);
    CHECK(gradientRuns == (k.knownGradient ? 0 : 2 * (kSteps - 1)));
    CHECK(inPlace.stepsInPlace() == kSteps - 1);  // all but the first (no previous step)
    CHECK(inPlace.diagonalNewtonMatrix());        // point masses in Cartesian coordinates
    CHECK(general.stepsInPlace() == 0);

    // A momentum that is not finite: both refuse, for the same reason, keeping the state.
    VecX q0 = qa, p0 = pa;
    pa[0] = pb[0] = std::numeric_limits<double>::quiet_NaN();
    p0 = pa;
    const StepOutcome a = inPlace.step(qa, pa), b = general.step(qb, pb);
    CHECK_FALSE(a.ok);
    CHECK(a.refusal.reason == b.refusal.reason);
    CHECK(a.iterations == b.iterations);
    CHECK(same(qa, q0));
    CHECK(std::memcmp(pa.data(), p0.data(), sizeof(double) * p0.size()) == 0);
    CHECK(inPlace.stepsInPlace() == kSteps - 1);
  }

  // The energy the step formed beside its projection and kept is the one a fresh
  // evaluator forms (the DSP as data, state by state, recorded or not).
  for (const int stride : {1, 1000000}) {
    SimulationOptions options;
    options.historyStride = stride;
    Simulation sim(parseScenario(defined(kDspAsData, kDspAsDataInitial)), options);
    const auto& model = std::get<LagrangianModel>(sim.scenario().model);
    Json normalized;
    const LagrangianModel fresh(compileLagrangian(Json::parse(kDspAsData), normalized));
    int kept = 0;
    bool identical = true;
    for (int step = 0; step < 300; ++step) {
      sim.advance(1);
      const State& s = sim.state();
      double energy = 0;
      kept += model.eval->keptEnergy(s.q.data(), s.p.data(), energy) ? 1 : 0;
      const double a = model.physicalEnergy(s, sim.time()), b = fresh.physicalEnergy(s, sim.time());
      identical = identical && std::memcmp(&a, &b, sizeof(double)) == 0;
    }
    CHECK(identical);
    CHECK(kept == 299);  // every step but the first, which takes the general path
  }
}

// Simulation takes a system's DEL steps in its own loop (LagrangianSteps): n steps in one
// call and one step a call give the same bits, history and refusal, recorded every step
// or not, on the step in place and on the general path, with L reading t or not, and a
// refusal at the first step or within a batch (by the step, or by the checks); and the
// loop's states are those of the integrator stepped through its virtual calls.
TEST_CASE("lagrangian: steps in one call or one a call give the same run and the same refusal",
          "[lagrangian][simulation][determinism]") {
  const std::string pendulum = R"j({"coordinates":["x","z"],"constants":{"g":9.81},)j"
                               R"j("lagrangian":"(x'^2+z'^2)/2 - g*z","constraints":["x^2+z^2-1"]})j";
  const std::string pendulumInitial = R"({"q":[0.6,-0.8],"qdot":[0.8,0.6]})";
  const std::pair<std::string, bool> scenarios[] = {
      // the scenario, and whether it is refused within 500 steps
      {defined(pendulum, pendulumInitial), false},               // the step in place
      {defined(pendulum, pendulumInitial, "trapezoid"), false},  // the general path
      {defined(kDspAsData, kDspAsDataInitial), false},           // in place, c = 2
      {defined(polarWith("m/2*(r'^2 + r^2*th'^2) - k/2*(r - l0)^2*(1 + sin(t)/4) + m*g*r*cos(th)"), kPolarInitial),
       false},                                                                        // L reads t
      {defined(kKepler, R"({"q":[0.05,0],"qdot":[0,6.3]})", "midpoint", 0.5), true},  // refused at step 1
      {defined(kKepler, R"({"q":[1,0],"qdot":[0,0.3]})", "midpoint", 0.1), true},     // by the step, at step 12
      {defined(kKepler, R"({"q":[1,0],"qdot":[0,0.1]})", "midpoint", 0.1), true}};    // by the checks, at step 11
  for (const auto& [text, refused] : scenarios)
    for (int stride : {1, 7}) {
      INFO(text << ", history every " << stride);
      CHECK(test::batchedDiffersFromSingle(text, stride, refused) == "");
    }
  for (const auto& [text, refused] : scenarios) {
    if (refused) continue;
    INFO(text);
    Simulation sim = simulate(text);
    const std::unique_ptr<Integrator> integrator = makeIntegrator(sim.scenario());
    State s = sim.state();
    integrator->load(s);
    bool stepped = true;
    for (int k = 0; k < 500 && stepped; ++k) {
      integrator->setTime(k * sim.scenario().h);
      stepped = integrator->stepAndStore(s).ok;
    }
    sim.advance(500);
    CHECK(stepped);
    CHECK(std::memcmp(s.q.data(), sim.state().q.data(), sizeof(double) * s.q.size()) == 0);
    CHECK(std::memcmp(s.p.data(), sim.state().p.data(), sizeof(double) * s.p.size()) == 0);
  }
}

// The energy's program is L alone: energyTerms' first output, the same bits, at any point.
TEST_CASE("lagrangian: the energy's program gives energyTerms' L bit for bit", "[lagrangian][determinism]") {
  for (const std::string& params : {kDspAsData, std::string(kPolar), std::string(kKepler)}) {
    INFO(params);
    Json normalized;
    const auto problem = compileLagrangian(Json::parse(params), normalized);
    const int n = problem->n;
    std::vector<double> vars(static_cast<std::size_t>(2 * n + 1)), terms(static_cast<std::size_t>(1 + n + n * n));
    std::vector<double> registers, registers2;
    double L = 0;
    int differ = 0;
    for (int k = 0; k < 200; ++k) {
      for (std::size_t i = 0; i < vars.size(); ++i) vars[i] = std::sin(1.7 * k + 0.37 * i) * (1 + k % 5);
      problem->energyTerms.run(vars.data(), terms.data(), registers);
      problem->lagrangian.run(vars.data(), &L, registers2);
      differ += std::memcmp(&L, &terms[0], sizeof L) != 0 ? 1 : 0;
    }
    CHECK(differ == 0);
    CHECK(problem->lagrangian.outputs() == 1);
  }
}

}  // namespace test_lagrangian
