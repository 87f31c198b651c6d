// The Lobatto IIIA–IIIB integrator (`lobatto`): order 4 in q and p against the exact
// pendulum, a wrong coefficient table caught by the same test, the energy band of the
// double spherical pendulum shrinking 16× per halving of h, constraints, hidden
// constraints and J_z to rounding, the block-tridiagonal Newton matrix against finite
// differences, and the Galerkin form on a system defined by data against the chain path.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "support.hpp"
#include "vilab/exact/pendulum.hpp"
#include "vilab/integrators/lobatto.hpp"
#include "vilab/scenario.hpp"

using namespace vilab;
using vilab::test::simulate;

namespace {

// The planar pendulum (the "pendulum" system: one bob, planar) at angle θ, rate ω.
State pendulumState(const ChainModel& m, double theta, double omega) {
  const double l = m.lengths[0], ml = m.masses[0] * l;
  State s;
  s.q = VecX(3);
  s.p = VecX(3);
  s.q << l * dm::sin(theta), 0, -l * dm::cos(theta);
  s.p << ml * omega * dm::cos(theta), 0, ml * omega * dm::sin(theta);
  return s;
}

ChainModel planarPendulum() {
  ChainModel m;
  m.masses = {1.0};
  m.lengths = {1.0};
  m.planar = true;
  return m;
}

struct Errors {
  std::vector<double> q, p;
  bool ok = true;
};

// Errors in q and p at T = 2 s from θ = 1 at rest, for h = 0.1, 0.05, 0.025.
Errors pendulumErrors(const LobattoTableau& table) {
  const ChainModel m = planarPendulum();
  const double T = 2.0;
  const exact::Pendulum exact(m.g, m.lengths[0], 1.0, 0.0);
  const State reference = pendulumState(m, exact.theta(T), exact.omega(T));
  Errors e;
  for (double h : {0.1, 0.05, 0.025}) {
    LobattoChain method(m, h, table);
    State s = pendulumState(m, 1.0, 0.0);
    method.prepare(s);
    const long steps = std::lround(T / h);
    for (long k = 0; k < steps && e.ok; ++k) e.ok = method.step(s.q, s.p).ok;
    e.q.push_back((s.q - reference.q).norm());
    e.p.push_back((s.p - reference.p).norm());
  }
  return e;
}

// Slope of log error against log h over the three step sizes (least squares).
double slope(const std::vector<double>& errors) {
  const auto orders = vilab::test::observedOrders(errors);
  return 0.5 * (orders[0] + orders[1]);
}

// The double spherical pendulum with the registry's masses and lengths.
std::string dsp(double h, const std::string& initial) {
  return R"({"system":"double-spherical-pendulum","integrator":"lobatto","h":)" + std::to_string(h) + R"(,"initial":)" +
         initial + "}";
}
const char* kRegular = R"({"angles":[[0.3,0],[0.5,0.4]],"rates":[[0,0.5],[0,-0.3]]})";

// Rate of change of each link's length, the hidden constraint Dg(q) M⁻¹ p.
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

TEST_CASE("lobatto: order 4 in q and p against the exact pendulum", "[lobatto][order]") {
  const Errors e = pendulumErrors(LobattoTableau::iiiaIiib());
  REQUIRE(e.ok);
  const double sq = slope(e.q), sp = slope(e.p);
  INFO("errors q " << e.q[0] << " " << e.q[1] << " " << e.q[2] << "; slopes q " << sq << ", p " << sp);
  CHECK(std::abs(sq - 4) <= 0.2);
  CHECK(std::abs(sp - 4) <= 0.2);
}

TEST_CASE("lobatto: a wrong coefficient table fails the order test", "[lobatto][order]") {
  // The IIIB columns of stages 1 and 2 exchanged (a wrong stage order): still consistent
  // and still converging, but of order 2.
  LobattoTableau swappedStages = LobattoTableau::iiiaIiib();
  for (auto& row : swappedStages.aHat) std::swap(row[0], row[1]);
  // The Simpson weights in the wrong order, b = (1/6, 1/6, 2/3): order 1.
  LobattoTableau swappedWeights = LobattoTableau::iiiaIiib();
  std::swap(swappedWeights.b[1], swappedWeights.b[2]);
  for (const LobattoTableau& wrong : {swappedStages, swappedWeights}) {
    const Errors e = pendulumErrors(wrong);
    REQUIRE(e.ok);
    const double sq = slope(e.q), sp = slope(e.p);
    INFO("wrong table: slopes q " << sq << ", p " << sp);
    CHECK(sq < 3.5);
    CHECK(sp < 3.5);
  }
}

TEST_CASE("lobatto: the double spherical pendulum's energy band shrinks 16x per halving of h", "[lobatto][energy]") {
  // Band = max − min of E over 1 s ≤ t ≤ 20 s, for h = 0.02, 0.01, 0.005.
  std::vector<double> bands;
  for (double h : {0.02, 0.01, 0.005}) {
    Simulation sim = simulate(dsp(h, kRegular));
    const auto transient = std::lround(1.0 / h), steps = std::lround(20.0 / h);
    double lo = INFINITY, hi = -INFINITY;
    for (long k = 1; k <= steps; ++k) {
      sim.advance(1);
      if (k < transient) continue;
      const double E = sim.diagnostics().energy;
      lo = std::min(lo, E);
      hi = std::max(hi, E);
    }
    bands.push_back(hi - lo);
  }
  const double r1 = bands[0] / bands[1], r2 = bands[1] / bands[2];
  INFO("bands " << bands[0] << " " << bands[1] << " " << bands[2] << "; ratios " << r1 << " " << r2);
  CHECK(std::abs(r1 - 16) <= 3);
  CHECK(std::abs(r2 - 16) <= 3);
}

TEST_CASE("lobatto: constraints, hidden constraints and J_z to rounding over 1e4 steps", "[lobatto][structure]") {
  for (const char* initial : {kRegular, R"({"angles":[[1.6,0],[2.2,0.8]],"rates":[[0,1.2],[0,-0.6]]})"}) {
    Simulation sim = simulate(dsp(0.01, initial));
    const ChainModel& m = std::get<ChainModel>(sim.scenario().model);
    const double J0 = sim.diagnostics().momentum[0];
    double links = 0, hidden = 0, jz = 0;
    for (int k = 0; k < 100; ++k) {
      sim.advance(100);
      links = std::max(links, m.linkLengthError(sim.q().data()));
      hidden = std::max(hidden, hiddenConstraint(m, sim.q(), sim.p()));
      jz = std::max(jz, std::abs(sim.diagnostics().momentum[0] - J0) / std::abs(J0));
    }
    INFO(initial << ": links " << links << ", hidden " << hidden << ", J_z relative " << jz);
    CHECK(links <= 1e-12);
    CHECK(hidden <= 1e-12);
    CHECK(jz <= 1e-12);
  }
}

TEST_CASE("lobatto: the chain's block-tridiagonal Newton matrix is the residual's Jacobian", "[lobatto][newton]") {
  Simulation sim = simulate(R"({"system":"chain","integrator":"lobatto","h":0.01,"params":{"masses":[1,1.25,1.5,1.75],
      "lengths":[1,0.95,0.9,0.85]},"initial":{"angles":[[0.7,0],[1.0,0.4],[0.5,0.8],[0.9,1.2]],
      "rates":[[0,1],[0.5,0.2],[0,-0.4],[0.3,0.6]]}})");
  const ChainModel& m = std::get<ChainModel>(sim.scenario().model);
  REQUIRE(m.bobs() == 4);
  LobattoChain method(m, 0.05);
  const VecX q = sim.q(), p = sim.p();
  method.begin(q, p);
  VecX x = method.unknowns();
  for (int i = 0; i < 4; ++i) x[8 * i + 6] += 0.01 * (i + 1), x[8 * i + 7] -= 0.02 * (i + 1);  // nonzero multipliers
  const double defect = vilab::test::newtonJacobianDefect(method, x, 1e-6);
  INFO("max |J⁻¹ J_FD − I| = " << defect);
  CHECK(defect <= 1e-7);
}

TEST_CASE("lobatto: a Cartesian pendulum as data follows the built-in pendulum", "[lobatto][lagrangian]") {
  const double s = dm::sin(1.0), c = dm::cos(1.0);
  char initial[160];
  std::snprintf(initial, sizeof initial, R"({"q":[%.17g,0,%.17g],"qdot":[0,0,0]})", s, -c);
  Simulation data = simulate(
      R"({"system":"lagrangian","integrator":"lobatto","h":0.01,"params":{"coordinates":["x","y","z"],
          "constants":{"m":1,"g":9.81,"l":1},"lagrangian":"m/2*(x'^2+y'^2+z'^2) - m*g*z",
          "constraints":["x^2+y^2+z^2-l^2"],"symmetries":{"Jz":["-y","x","0"]}},"initial":)" +
      std::string(initial) + "}");
  Simulation builtin = simulate(R"({"system":"pendulum","integrator":"lobatto","h":0.01})");
  double worst = 0;
  for (int k = 0; k < 20; ++k) {
    data.advance(100);
    builtin.advance(100);
    worst = std::max(
        {worst, vilab::test::maxDifference(data.q(), builtin.q()), vilab::test::maxDifference(data.p(), builtin.p())});
  }
  INFO("max difference over 2000 steps: " << worst);
  CHECK(worst <= 1e-12);
}

TEST_CASE("lobatto: order 4 on a system defined by data (Kepler)", "[lobatto][lagrangian][order]") {
  // Kepler with e = 0.6 from perihelion (a = 1, GM = 1: period 2π), compared at T = 2
  // with the exact position from Kepler's equation.
  const char* kepler = R"j({"system":"lagrangian","integrator":"lobatto","h":%.17g,"params":{"coordinates":["x","y"],
      "constants":{"k":1},"lagrangian":"(x'^2+y'^2)/2 + k/sqrt(x^2+y^2)"},"initial":{"q":[0.4,0],"qdot":[0,2]}})j";
  const double T = 2.0, e = 0.6;
  // Mean anomaly T from perihelion: E − e sin E = T by Newton; x = cos E − e, y = √(1−e²) sin E.
  double E = T;
  for (int i = 0; i < 50; ++i) E -= (E - e * dm::sin(E) - T) / (1 - e * dm::cos(E));
  const double b = dm::sqrt(1 - e * e), rate = 1 / (1 - e * dm::cos(E));
  Eigen::Vector2d q(dm::cos(E) - e, b * dm::sin(E)), p(-dm::sin(E) * rate, b * dm::cos(E) * rate);
  std::vector<double> eq, ep;
  for (double h : {0.02, 0.01, 0.005}) {
    char buf[512];
    std::snprintf(buf, sizeof buf, kepler, h);
    Simulation sim = simulate(buf);
    sim.advance(static_cast<std::uint64_t>(std::llround(T / h)));
    eq.push_back((sim.q() - q).norm());
    ep.push_back((sim.p() - p).norm());
  }
  const double sq = slope(eq), sp = slope(ep);
  INFO("Kepler errors q " << eq[0] << " " << eq[1] << " " << eq[2] << "; slopes q " << sq << ", p " << sp);
  CHECK(std::abs(sq - 4) <= 0.2);
  CHECK(std::abs(sp - 4) <= 0.2);
}

TEST_CASE("lobatto: a step whose stages cannot be solved is refused and the state kept", "[lobatto][errors]") {
  // The spherical pendulum at h = 1 s (a third of its period): Newton diverges at step 1.
  // Beyond the system's largest h (0.5 s), so set past the parser, as a measurement would.
  Scenario scenario = parseScenario(std::string(R"({"system":"spherical-pendulum","integrator":"lobatto"})"));
  scenario.h = 1;
  Simulation sim(scenario, SimulationOptions{});
  const std::string before = sim.hash();
  bool refused = false;
  try {
    sim.advance(1);
  } catch (const StepFailure& e) {
    refused = true;
    INFO(e.what());
    CHECK(std::string(e.what()).find("Lobatto") != std::string::npos);
  }
  CHECK(refused);
  CHECK(sim.step() == 0);
  CHECK(sim.hash() == before);
  // The core itself leaves (q, p) untouched on refusal.
  const ChainModel& m = std::get<ChainModel>(sim.scenario().model);
  LobattoChain method(m, 1.0);
  VecX q = sim.q(), p = sim.p();
  CHECK(!method.step(q, p).ok);
  CHECK(q == sim.q());
  CHECK(p == sim.p());
}
