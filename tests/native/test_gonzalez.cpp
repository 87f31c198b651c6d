// Gonzalez's discrete gradient on a non-quadratic Hamiltonian: `penalty-energy-momentum`
// (integrators/chain_penalty_energy_momentum.hpp) on the penalty double spherical
// pendulum, H_μ = T + V + (μ/2) Σ g_i², and the discrete gradient of systems defined by
// data (integrators/lagrangian_energy_momentum.hpp). Energy to rounding where the
// implicit midpoint rule (the same code without the correction) drifts by ≥ 1e-4; J_z
// exact with the invariant discrete gradient and not with the Cartesian one; the link
// error against μ (seed 002's penalty panel); the midpoint variant is `penalty`.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support.hpp"
#include "vilab/integrators/chain_penalty_energy_momentum.hpp"
#include "vilab/integrators/lagrangian_energy_momentum.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/simulation.hpp"

using namespace vilab;
using Gradient = ChainPenaltyEnergyMomentum::Gradient;

namespace {

// The default double spherical pendulum (m = l = 1, H ≈ 37 J) and its initial state.
struct Dsp {
  ChainModel model;
  State initial;
  Dsp() {
    Simulation sim = test::simulate(R"({"system":"double-spherical-pendulum","integrator":"penalty-energy-momentum"})");
    model = std::get<ChainModel>(sim.scenario().model);
    initial = sim.state();
  }
};

struct Run {
  double energy = 0;      // max |H_μ − H_μ(0)| / H_μ(0)
  double momentum = 0;    // max |J_z − J_z(0)| / |J_z(0)|
  double constraint = 0;  // max_k max_i |g_i(q_k)|
  bool ok = true;
};

Run runChain(const ChainModel& model, State s, double mu, double h, long steps, Gradient gradient) {
  ChainPenaltyEnergyMomentum method(model, mu, h, gradient);
  const double H0 = method.energy(s.q, s.p), J0 = model.verticalMomentum(s);
  Run r;
  for (long k = 0; k < steps; ++k) {
    if (!method.step(s.q, s.p).ok) {
      r.ok = false;
      break;
    }
    r.energy = std::max(r.energy, std::abs(method.energy(s.q, s.p) - H0) / H0);
    r.momentum = std::max(r.momentum, std::abs(model.verticalMomentum(s) - J0) / std::abs(J0));
    for (int i = 0; i < model.bobs(); ++i) {
      const double l = model.lengths[i];
      r.constraint = std::max(r.constraint, std::abs((chainLink(s.q.data(), i).squaredNorm() - l * l) / (2 * l)));
    }
  }
  return r;
}

}  // namespace

TEST_CASE("gonzalez: H_mu to rounding on the penalty DSP at h = 0.001 — the implicit midpoint rule drifts",
          "[gonzalez]") {
  const Dsp dsp;
  // The implicit midpoint rule's energy error here is mostly the slow motion's O(h²)
  // (about 4e-5 for μ ≤ 1e7); it passes 1e-4 when the springs are unresolved
  // (μ = 1e8: hω = 10) or carry energy of their own (links stretched by 1e-3 at μ = 1e6).
  State stretched = dsp.initial;
  stretched.q *= 1.001;
  const struct {
    const char* what;
    State start;
    double mu;
  } cases[] = {{"default state, mu = 1e8", dsp.initial, 1e8}, {"links stretched 1e-3, mu = 1e6", stretched, 1e6}};
  for (const auto& c : cases) {
    const Run dg = runChain(dsp.model, c.start, c.mu, 0.001, 5000, Gradient::Invariant);
    const Run mid = runChain(dsp.model, c.start, c.mu, 0.001, 5000, Gradient::Midpoint);
    WARN(c.what << ": |dH_mu|/H_mu discrete gradient " << dg.energy << ", implicit midpoint " << mid.energy);
    REQUIRE(dg.ok);
    REQUIRE(mid.ok);
    CHECK(dg.energy <= 1e-12);
    CHECK(mid.energy >= 1e-4);
  }
}

TEST_CASE("gonzalez: J_z exact with the invariant discrete gradient, not with the Cartesian one", "[gonzalez]") {
  const Dsp dsp;
  const Run invariant = runChain(dsp.model, dsp.initial, 1e6, 0.001, 5000, Gradient::Invariant);
  const Run cartesian = runChain(dsp.model, dsp.initial, 1e6, 0.001, 5000, Gradient::Cartesian);
  const Run midpoint = runChain(dsp.model, dsp.initial, 1e6, 0.001, 5000, Gradient::Midpoint);
  WARN("mu = 1e6, h = 0.001, 5000 steps, |dJ_z|/J_z: invariant "
       << invariant.momentum << ", Cartesian " << cartesian.momentum << ", midpoint " << midpoint.momentum
       << "; |dH_mu|/H_mu: " << invariant.energy << ", " << cartesian.energy << ", " << midpoint.energy);
  CHECK(invariant.momentum <= 1e-12);
  CHECK(invariant.energy <= 1e-12);
  // Gonzalez's midpoint discrete gradient in R^{3n} keeps H_μ but its correction along Δq
  // has a torque about z (ΔJ_z = −h k Σ x̄_i × Δq_i): the reason the entry uses invariants.
  CHECK(cartesian.energy <= 1e-12);
  CHECK(cartesian.momentum >= 1e-7);
  // The implicit midpoint keeps the bilinear J_z (central forces at q̄).
  CHECK(midpoint.momentum <= 1e-12);
}

TEST_CASE("gonzalez: the link error falls like 1/mu (seed 002, penalty panel)", "[gonzalez]") {
  const Dsp dsp;
  const double mus[] = {1e3, 1e4, 1e5, 1e6};
  std::vector<double> x, y;
  std::string table = "penalty-energy-momentum, DSP, h = 0.001, 5 s: mu | max_k |g(q_k)| | |dH_mu|/H_mu\n";
  for (double mu : mus) {
    const Run r = runChain(dsp.model, dsp.initial, mu, 0.001, 5000, Gradient::Invariant);
    REQUIRE(r.ok);
    char line[120];
    std::snprintf(line, sizeof line, "  %8.0e | %.4e | %.2e\n", mu, r.constraint, r.energy);
    table += line;
    x.push_back(std::log10(mu));
    y.push_back(std::log10(r.constraint));
  }
  // Least-squares slope of log |g| against log μ.
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  WARN(table << "  log-log slope " << slope);
  CHECK(std::abs(slope + 1) <= 0.15);
}

TEST_CASE("gonzalez: without the correction the scheme is the variational midpoint rule (penalty)", "[gonzalez]") {
  const Dsp dsp;
  const double mu = 1e4, h = 0.001;
  Json scenario = {{"system", "double-spherical-pendulum"}, {"integrator", "penalty"}, {"h", h}};
  scenario["options"] = {{"mu", mu}};
  Simulation sim = test::simulate(scenario.dump());
  ChainPenaltyEnergyMomentum midpoint(dsp.model, mu, h, Gradient::Midpoint);
  State s = sim.state();
  for (int k = 0; k < 200; ++k) REQUIRE(midpoint.step(s.q, s.p).ok);
  sim.advance(200);
  const double dq = test::maxDifference(s.q, sim.q()), dp = test::maxDifference(s.p, sim.p());
  INFO("|dq| = " << dq << ", |dp| = " << dp);
  CHECK(dq <= 1e-12);
  CHECK(dp <= 1e-11);
}

TEST_CASE("gonzalez: second order (self-convergence on a resolved penalty DSP)", "[gonzalez]") {
  const Dsp dsp;
  const double mu = 1e3, T = 0.5;
  auto finalState = [&](double h) {
    ChainPenaltyEnergyMomentum method(dsp.model, mu, h);
    State s = dsp.initial;
    for (long k = 0, n = std::lround(T / h); k < n; ++k) REQUIRE(method.step(s.q, s.p).ok);
    return s.q;
  };
  const VecX reference = finalState(0.0005 / 8);
  std::vector<double> errors;
  for (double h : {0.002, 0.001, 0.0005}) errors.push_back(test::maxDifference(finalState(h), reference));
  const auto orders = test::observedOrders(errors);
  INFO("errors " << errors[0] << ", " << errors[1] << ", " << errors[2] << "; orders " << orders[0] << ", "
                 << orders[1]);
  for (double p : orders) CHECK(std::abs(p - 2) <= 0.1);
}

TEST_CASE("gonzalez: the data-system discrete gradient keeps E on the elastic pendulum, the midpoint rule does not",
          "[gonzalez]") {
  // h = 0.02 (hω ≈ 0.13 for the spring): the midpoint rule's error grows like h² and
  // is 1e-5 at the scene's h = 0.005, 4e-5 at 0.01.
  const double h = 0.02;
  Json j = test::lagrangianScene("elastic-pendulum");
  j["integrator"] = "energy-momentum";
  j["h"] = h;
  const Scenario scenario = parseScenario(j);
  const auto& problem = std::get<LagrangianModel>(scenario.model).problem;
  double errors[2] = {0, 0};
  for (bool correction : {true, false}) {
    LagrangianEnergyMomentum method(
        problem, h,
        correction ? LagrangianEnergyMomentum::Gradient::Projected : LagrangianEnergyMomentum::Gradient::Midpoint);
    LagrangianEval eval(problem);
    State s = scenario.initial;
    const double E0 = eval.energy(s.q.data(), s.p.data());
    double worst = 0;
    for (int k = 0; k < 2000; ++k) {
      REQUIRE(method.step(s.q, s.p).ok);
      worst = std::max(worst, std::abs(eval.energy(s.q.data(), s.p.data()) - E0) / std::abs(E0));
    }
    errors[correction ? 0 : 1] = worst;
  }
  WARN("elastic pendulum, h = 0.02, 2000 steps, |dE|/|E|: discrete gradient " << errors[0] << ", implicit midpoint "
                                                                              << errors[1]);
  CHECK(errors[0] <= 1e-12);
  CHECK(errors[1] >= 1e-4);
}

TEST_CASE("gonzalez: penalty-energy-momentum on a constrained system defined by data keeps H_mu", "[gonzalez]") {
  // A planar pendulum in Cartesian coordinates with the constraint (x² + z² − l²)/(2l).
  const double mu = 1e4, h = 0.002;
  Json scenario = {{"system", "lagrangian"}, {"integrator", "penalty-energy-momentum"}, {"h", h}};
  scenario["params"] = Json::parse(R"j({"coordinates":["x","z"],"constants":{"m":1,"l":1,"g":9.81},
    "lagrangian":"m/2*(x'^2 + z'^2) - m*g*z","constraints":["(x^2 + z^2 - l^2)/(2*l)"]})j");
  scenario["initial"] = Json::parse(R"({"q":[0.8,-0.6],"qdot":[1.8,2.4]})");
  scenario["options"] = {{"mu", mu}};
  Simulation sim = test::simulate(scenario.dump());
  const auto& problem = std::get<LagrangianModel>(sim.scenario().model).problem;
  LagrangianEval penalized(penalizedLagrangian(*problem, mu));
  const double H0 = penalized.energy(sim.q().data(), sim.p().data());
  double energy = 0, link = 0;
  for (int k = 0; k < 2000; ++k) {
    sim.advance(1);
    energy = std::max(energy, std::abs(penalized.energy(sim.q().data(), sim.p().data()) - H0) / std::abs(H0));
    link = std::max(link, std::abs(sim.q().norm() - 1));
  }
  INFO("|dH_mu|/H_mu = " << energy << ", max | |q| - l | = " << link);
  CHECK(energy <= 1e-12);
  CHECK(link > 1e-4);  // the springs stretch (m(v²/l + g)/μ ≈ 2e-3) ...
  CHECK(link < 1e-2);  // ... by O(1/μ)
}
