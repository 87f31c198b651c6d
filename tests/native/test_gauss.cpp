// The variational Gauss–Legendre integrators (`gauss2` … `gauss8`, s = 1…4 stages):
// s = 1 is the implicit midpoint rule on systems defined by data; order 2s in q and p on
// the exact pendulum in data form (Jacobi sn), on Kepler as data (Kepler's equation) and
// on the constrained pendulum, as a chain and as Cartesian data with its constraint; a
// wrong (non-symmetric) node set fails the order test; energy bounded without drift over
// long runs; on chains constraints, hidden constraints and J_z to rounding, s = 2 equal
// to Lobatto IIIA–IIIB (the same Galerkin map for a quadratic L), the block-tridiagonal
// Newton matrix against finite differences, and a refused step that keeps the state.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "support.hpp"
#include "vilab/exact/pendulum.hpp"
#include "vilab/integrators/gauss.hpp"
#include "vilab/integrators/lobatto.hpp"
#include "vilab/scenario.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_gauss {

using namespace vilab;
using vilab::test::simulate;

namespace {

std::string gaussId(int s) { return "gauss" + std::to_string(2 * s); }

// Mean of the observed orders over the step sizes.
double slope(const std::vector<double>& errors) {
  const auto orders = vilab::test::observedOrders(errors);
  double sum = 0;
  for (double o : orders) sum += o;
  return sum / static_cast<double>(orders.size());
}

struct Errors {
  std::vector<double> q, p;
};

std::string format(const char* pattern, const std::string& integrator, double h) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, pattern, integrator.c_str(), h);
  return buf;
}

// The pendulum in its angle (m = l = 1, g = 9.81): p = θ̇. From θ = 1 at rest to T = 2.
const char* kPendulumData = R"j({"system":"lagrangian","integrator":"%s","h":%.17g,"params":{"coordinates":["th"],
    "constants":{"g":9.81},"lagrangian":"th'^2/2 + g*cos(th)"},"initial":{"q":[1],"qdot":[0]}})j";

Errors pendulumDataErrors(const std::string& integrator, const std::vector<double>& hs) {
  const double T = 2.0;
  const exact::Pendulum exact(9.81, 1.0, 1.0, 0.0);
  Errors e;
  for (double h : hs) {
    Simulation sim = simulate(format(kPendulumData, integrator, h));
    sim.advance(static_cast<std::uint64_t>(std::llround(T / h)));
    e.q.push_back(std::abs(sim.q()[0] - exact.theta(T)));
    e.p.push_back(std::abs(sim.p()[0] - exact.omega(T)));
  }
  return e;
}

// Kepler with e = 0.6 from perihelion (a = 1, GM = 1: period 2π), at T = 2 against the
// exact position from Kepler's equation.
const char* kKepler = R"j({"system":"lagrangian","integrator":"%s","h":%.17g,"params":{"coordinates":["x","y"],
    "constants":{"k":1},"lagrangian":"(x'^2+y'^2)/2 + k/sqrt(x^2+y^2)"},"initial":{"q":[0.4,0],"qdot":[0,2]}})j";

Errors keplerErrors(const std::string& integrator, const std::vector<double>& hs) {
  const double T = 2.0, e = 0.6;
  double E = T;
  for (int i = 0; i < 50; ++i) E -= (E - e * dm::sin(E) - T) / (1 - e * dm::cos(E));
  const double b = dm::sqrt(1 - e * e), rate = 1 / (1 - e * dm::cos(E));
  const Eigen::Vector2d q(dm::cos(E) - e, b * dm::sin(E)), p(-dm::sin(E) * rate, b * dm::cos(E) * rate);
  Errors out;
  for (double h : hs) {
    Simulation sim = simulate(format(kKepler, integrator, h));
    sim.advance(static_cast<std::uint64_t>(std::llround(T / h)));
    out.q.push_back((sim.q() - q).norm());
    out.p.push_back((sim.p() - p).norm());
  }
  return out;
}

// The planar pendulum as a chain (one bob, m = l = 1) at angle θ, rate ω.
ChainModel planarPendulum() {
  ChainModel m;
  m.masses = {1.0};
  m.lengths = {1.0};
  m.planar = true;
  return m;
}
State pendulumState(double theta, double omega) {
  State s;
  s.q = VecX(3);
  s.p = VecX(3);
  s.q << dm::sin(theta), 0, -dm::cos(theta);
  s.p << omega * dm::cos(theta), 0, omega * dm::sin(theta);
  return s;
}

template <int S>
Errors chainPendulumErrors(const std::vector<double>& hs, GaussTableau table = GaussTableau::legendre(S)) {
  const ChainModel m = planarPendulum();
  const double T = 2.0;
  const exact::Pendulum exact(m.g, 1.0, 1.0, 0.0);
  const State reference = pendulumState(exact.theta(T), exact.omega(T));
  Errors e;
  for (double h : hs) {
    GaussChain<S> method(m, h, table);
    State s = pendulumState(1.0, 0.0);
    method.prepare(s);
    const long steps = std::lround(T / h);
    for (long k = 0; k < steps; ++k) REQUIRE(method.step(s.q, s.p).ok);
    e.q.push_back((s.q - reference.q).norm());
    e.p.push_back((s.p - reference.p).norm());
  }
  return e;
}

// The pendulum as Cartesian data with its constraint |x| = 1.
const char* kCartesianPendulum =
    R"j({"system":"lagrangian","integrator":"%s","h":%.17g,"params":{"coordinates":["x","z"],
    "constants":{"g":9.81},"lagrangian":"(x'^2+z'^2)/2 - g*z","constraints":["x^2+z^2-1"]},
    "initial":{"q":[0.8414709848078965,-0.5403023058681398],"qdot":[0,0]}})j";

Errors cartesianPendulumErrors(const std::string& integrator, const std::vector<double>& hs) {
  const double T = 2.0;
  const exact::Pendulum exact(9.81, 1.0, 1.0, 0.0);
  const double th = exact.theta(T), w = exact.omega(T);
  const Eigen::Vector2d q(dm::sin(th), -dm::cos(th)), p(w * dm::cos(th), w * dm::sin(th));
  Errors e;
  for (double h : hs) {
    Simulation sim = simulate(format(kCartesianPendulum, integrator, h));
    sim.advance(static_cast<std::uint64_t>(std::llround(T / h)));
    e.q.push_back((sim.q() - q).norm());
    e.p.push_back((sim.p() - p).norm());
  }
  return e;
}

// Step sizes in the asymptotic range of each s, errors well above rounding.
const std::vector<double> kPendulumSteps[4] = {
    {0.02, 0.01, 0.005}, {0.1, 0.05, 0.025}, {0.2, 0.1, 0.05}, {0.2, 0.1, 0.05}};
const std::vector<double> kKeplerSteps[4] = {
    {0.01, 0.005, 0.0025}, {0.02, 0.01, 0.005}, {0.04, 0.02, 0.01}, {0.08, 0.04, 0.02}};

void checkOrder(const char* what, int s, const Errors& e, double tolerance) {
  const double sq = slope(e.q), sp = slope(e.p);
  std::string errors;
  for (std::size_t k = 0; k < e.q.size(); ++k) {
    char pair[64];
    std::snprintf(pair, sizeof pair, " (%.3e, %.3e)", e.q[k], e.p[k]);
    errors += pair;
  }
  INFO(what << " s = " << s << ": errors (q, p)" << errors << "; slopes q " << sq << ", p " << sp);
  CHECK(std::abs(sq - 2 * s) <= tolerance);
  CHECK(std::abs(sp - 2 * s) <= tolerance);
}

// The double spherical pendulum with the registry's masses and lengths.
std::string dsp(const std::string& integrator, double h, const std::string& initial) {
  return R"({"system":"double-spherical-pendulum","integrator":")" + integrator + R"(","h":)" + std::to_string(h) +
         R"(,"initial":)" + initial + "}";
}
const char* kRegular = R"({"angles":[[0.3,0],[0.5,0.4]],"rates":[[0,0.5],[0,-0.3]]})";

double hiddenConstraint(const ChainModel& m, const VecX& q, const VecX& p) {
  double worst = 0;
  for (int i = 0; i < m.bobs(); ++i) {
    Vec3 w = p.segment<3>(3 * i) / m.masses[i];
    if (i > 0) w -= p.segment<3>(3 * i - 3) / m.masses[i - 1];
    worst = std::max(worst, std::abs(chainLink(q.data(), i).dot(w)) / m.lengths[i]);
  }
  return worst;
}

}  // namespace

TEST_CASE("gauss: the tableaux integrate polynomials of degree 2s − 1 exactly", "[gauss][tableau]") {
  for (int s = 1; s <= 4; ++s) {
    const GaussTableau t = GaussTableau::legendre(s);
    for (int k = 0; k < 2 * s; ++k) {
      double sum = 0;
      for (int i = 0; i < s; ++i) sum += t.b[i] * std::pow(t.c[i], k);
      INFO("s = " << s << ", degree " << k);
      CHECK(std::abs(sum - 1.0 / (k + 1)) <= 4e-16);
    }
    double miss = 0;  // degree 2s is not integrated exactly
    for (int i = 0; i < s; ++i) miss += t.b[i] * std::pow(t.c[i], 2 * s);
    CHECK(std::abs(miss - 1.0 / (2 * s + 1)) > 1e-6);
  }
}

TEST_CASE("gauss: s = 1 is the implicit midpoint rule on systems defined by data", "[gauss][lagrangian]") {
  // Kepler, Hénon–Heiles (cubic potential), a pendulum in its angle and the Cartesian
  // pendulum with its constraint: along 2000 midpoint steps, one gauss2 step from each
  // state equals the midpoint step to rounding.
  Json henon = vilab::test::lagrangianScene("henon-heiles");
  for (const std::string& base : {format(kKepler, "gauss2", 0.01), henon.dump(), format(kPendulumData, "gauss2", 0.05),
                                  format(kCartesianPendulum, "gauss2", 0.01)}) {
    Json scene = Json::parse(base);
    scene["integrator"] = "midpoint";
    Simulation midpoint = simulate(scene.dump());
    const LagrangianModel& model = std::get<LagrangianModel>(midpoint.scenario().model);
    GaussLagrangian gauss(model.problem, midpoint.scenario().h, GaussTableau::legendre(1));
    double worst = 0;
    for (int k = 0; k < 2000; ++k) {
      State s = midpoint.state();
      gauss.prepare(s);
      REQUIRE(gauss.step(s.q, s.p).ok);
      midpoint.advance(1);
      const double scale = 1 + midpoint.q().cwiseAbs().maxCoeff() + midpoint.p().cwiseAbs().maxCoeff();
      worst = std::max({worst, vilab::test::maxDifference(s.q, midpoint.q()) / scale,
                        vilab::test::maxDifference(s.p, midpoint.p()) / scale});
    }
    INFO(scene["params"].dump().substr(0, 90) << ": largest one-step difference " << worst << " (relative)");
    CHECK(worst <= 1e-14);
  }
}

TEST_CASE("gauss: order 2s on the exact pendulum in data form (Jacobi sn)", "[gauss][order]") {
  for (int s = 1; s <= 4; ++s)
    checkOrder("pendulum (data)", s, pendulumDataErrors(gaussId(s), kPendulumSteps[s - 1]), 0.15);
}

TEST_CASE("gauss: order 2s on Kepler as data (Kepler's equation)", "[gauss][order]") {
  for (int s = 1; s <= 4; ++s) checkOrder("Kepler (data)", s, keplerErrors(gaussId(s), kKeplerSteps[s - 1]), 0.15);
}

TEST_CASE("gauss: order 2s on the constrained pendulum, as a chain and as Cartesian data",
          "[gauss][order][constraints]") {
  checkOrder("pendulum (chain)", 1, chainPendulumErrors<1>(kPendulumSteps[0]), 0.15);
  checkOrder("pendulum (chain)", 2, chainPendulumErrors<2>(kPendulumSteps[1]), 0.15);
  checkOrder("pendulum (chain)", 3, chainPendulumErrors<3>(kPendulumSteps[2]), 0.15);
  checkOrder("pendulum (chain)", 4, chainPendulumErrors<4>(kPendulumSteps[3]), 0.15);
  for (int s = 1; s <= 4; ++s)
    checkOrder("pendulum (Cartesian data)", s, cartesianPendulumErrors(gaussId(s), kPendulumSteps[s - 1]), 0.15);
}

TEST_CASE("gauss: order 2s on the double spherical pendulum (two constraints) against a fine run",
          "[gauss][order][constraints]") {
  // Errors at T = 1 s against gauss8 at h = 1/800 (its own error below 1e-15 here).
  const double T = 1.0;
  Simulation fine = simulate(dsp("gauss8", 0.00125, kRegular));
  fine.advance(800);
  const VecX q = fine.q(), p = fine.p();
  // s = 4 from h = 0.1 (the pair's largest) to 0.05 only: at 0.025 its error is rounding.
  const std::vector<double> steps[4] = {{0.01, 0.005, 0.0025}, {0.04, 0.02, 0.01}, {0.1, 0.05, 0.025}, {0.1, 0.05}};
  for (int s = 1; s <= 4; ++s) {
    Errors e;
    for (double h : steps[s - 1]) {
      Simulation sim = simulate(dsp(gaussId(s), h, kRegular));
      sim.advance(static_cast<std::uint64_t>(std::llround(T / h)));
      e.q.push_back((sim.q() - q).norm());
      e.p.push_back((sim.p() - p).norm());
    }
    checkOrder("double spherical pendulum", s, e, 0.15);
  }
}

TEST_CASE("gauss: a non-symmetric node set fails the order test", "[gauss][order]") {
  // The 2-point Gauss nodes moved right by 0.05 with the same weights: still consistent,
  // but neither symmetric nor of order 4.
  const GaussTableau right =
      GaussTableau::withNodes(2, {0.5 - 0.28867513459481288 + 0.05, 0.5 + 0.28867513459481288 + 0.05}, {0.5, 0.5});
  const Errors e = chainPendulumErrors<2>(kPendulumSteps[1], right);
  const double sq = slope(e.q), sp = slope(e.p);
  INFO("shifted nodes: slopes q " << sq << ", p " << sp);
  CHECK(sq < 3);
  CHECK(sp < 3);
  // The same node set on a system defined by data (Kepler): the Galerkin DEL.
  std::vector<double> errors;
  for (double h : kKeplerSteps[1]) {
    Simulation sim = simulate(format(kKepler, "gauss4", h));
    const LagrangianModel& model = std::get<LagrangianModel>(sim.scenario().model);
    GaussLagrangian method(model.problem, h, right);
    State state = sim.state();
    method.prepare(state);
    const long steps = std::lround(2.0 / h);
    for (long k = 0; k < steps; ++k) REQUIRE(method.step(state.q, state.p).ok);
    sim.advance(static_cast<std::uint64_t>(steps));
    errors.push_back((state.q - sim.q()).norm());  // against the true gauss4: the wrong table's own error
  }
  INFO("Kepler, shifted nodes: errors " << errors[0] << " " << errors[1] << " " << errors[2]);
  CHECK(slope(errors) < 3);
}

TEST_CASE("gauss: energy stays bounded without drift over long runs", "[gauss][energy]") {
  // Kepler (e = 0.6) for 1e5 steps and the double spherical pendulum for 2e4 steps, at
  // steps where the energy error of order h^{2s} is well above rounding: the energy
  // error of the last tenth is no larger than that of the first (drift ratio ≤ 1.5).
  const double keplerH[4] = {0.01, 0.02, 0.05, 0.08}, chainH[4] = {0.01, 0.02, 0.05, 0.1};
  for (int s = 1; s <= 4; ++s) {
    Simulation kepler = simulate(format(kKepler, gaussId(s), keplerH[s - 1]), 100);
    kepler.advance(100000);
    const std::vector<double> keplerEnergy = vilab::test::column(kepler, "energy");
    const double keplerRatio = vilab::test::driftRatio(keplerEnergy);
    Simulation chain = simulate(dsp(gaussId(s), chainH[s - 1], kRegular), 20);
    chain.advance(20000);
    const std::vector<double> chainEnergy = vilab::test::column(chain, "energy");
    const double chainRatio = vilab::test::driftRatio(chainEnergy);
    INFO("s = " << s << ": Kepler max |ΔE| " << vilab::test::maxAbsDeviation(keplerEnergy) << ", drift ratio "
                << keplerRatio << "; DSP max |ΔE| " << vilab::test::maxAbsDeviation(chainEnergy) << ", drift ratio "
                << chainRatio);
    CHECK(vilab::test::maxAbsDeviation(keplerEnergy) >= 1e-11);  // the method's error, not rounding
    CHECK(vilab::test::maxAbsDeviation(chainEnergy) >= 1e-11);
    CHECK(keplerRatio <= 1.5);
    CHECK(chainRatio <= 1.5);
  }
}

TEST_CASE("gauss: chains keep constraints, hidden constraints and J_z to rounding over 1e4 steps",
          "[gauss][structure]") {
  for (int s = 1; s <= 4; ++s) {
    Simulation sim = simulate(dsp(gaussId(s), 0.01, R"({"angles":[[1.6,0],[2.2,0.8]],"rates":[[0,1.2],[0,-0.6]]})"));
    const ChainModel& m = std::get<ChainModel>(sim.scenario().model);
    const double J0 = sim.diagnostics().momentum[0];
    double links = 0, hidden = 0, jz = 0;
    for (int k = 0; k < 100; ++k) {
      sim.advance(100);
      links = std::max(links, m.linkLengthError(sim.q().data()));
      hidden = std::max(hidden, hiddenConstraint(m, sim.q(), sim.p()));
      jz = std::max(jz, std::abs(sim.diagnostics().momentum[0] - J0) / std::abs(J0));
    }
    INFO("s = " << s << ": links " << links << ", hidden " << hidden << ", J_z relative " << jz);
    CHECK(links <= 1e-12);
    CHECK(hidden <= 1e-12);
    CHECK(jz <= 1e-12);
  }
}

TEST_CASE("gauss: s = 2 on a chain is the Lobatto IIIA–IIIB map (the same Galerkin L_d)", "[gauss][structure]") {
  Simulation gauss = simulate(dsp("gauss4", 0.01, kRegular)), lobatto = simulate(dsp("lobatto", 0.01, kRegular));
  double worst = 0;
  for (int k = 0; k < 10; ++k) {
    gauss.advance(100);
    lobatto.advance(100);
    worst = std::max({worst, vilab::test::maxDifference(gauss.q(), lobatto.q()),
                      vilab::test::maxDifference(gauss.p(), lobatto.p())});
  }
  INFO("max difference over 1000 steps: " << worst);
  CHECK(worst <= 1e-11);
}

TEST_CASE("gauss: the chain's block-tridiagonal Newton matrix is the residual's Jacobian", "[gauss][newton]") {
  Simulation sim = simulate(R"({"system":"chain","integrator":"gauss8","h":0.01,"params":{"masses":[1,1.25,1.5,1.75],
      "lengths":[1,0.95,0.9,0.85]},"initial":{"angles":[[0.7,0],[1.0,0.4],[0.5,0.8],[0.9,1.2]],
      "rates":[[0,1],[0.5,0.2],[0,-0.4],[0.3,0.6]]}})");
  const ChainModel& m = std::get<ChainModel>(sim.scenario().model);
  REQUIRE(m.bobs() == 4);
  GaussChain<4> method(m, 0.05);
  const VecX q = sim.q(), p = sim.p();
  method.begin(q, p);
  VecX x = method.unknowns();
  for (int i = 0; i < 4; ++i)
    for (int a = 0; a < 4; ++a) x[16 * i + 12 + a] += 0.01 * (i + 1) * (a % 2 ? -1 : 1);  // nonzero multipliers
  const double defect = vilab::test::newtonJacobianDefect(method, x, 1e-6);
  INFO("max |J⁻¹ J_FD − I| = " << defect);
  CHECK(defect <= 1e-7);
}

TEST_CASE("gauss: a step whose stages cannot be solved is refused and the state kept", "[gauss][errors]") {
  // The spherical pendulum at h = 1 s (a third of its period), past the registry's limit
  // on purpose: Newton fails at step 1.
  Scenario scenario = parseScenario(Json{{"system", "spherical-pendulum"}, {"integrator", "gauss4"}});
  scenario.h = 1;
  Simulation sim(scenario, SimulationOptions{});
  const std::string before = sim.hash();
  bool refused = false;
  try {
    sim.advance(1);
  } catch (const StepFailure& e) {
    refused = true;
    INFO(e.what());
    CHECK(std::string(e.what()).find("Gauss") != std::string::npos);
  }
  CHECK(refused);
  CHECK(sim.step() == 0);
  CHECK(sim.hash() == before);
  // The core itself leaves (q, p) untouched on refusal.
  GaussChain<2> method(std::get<ChainModel>(sim.scenario().model), 1.0);
  VecX q = sim.q(), p = sim.p();
  CHECK(!method.step(q, p).ok);
  CHECK(q == sim.q());
  CHECK(p == sim.p());
}

}  // namespace test_gauss
