// Lu (1995), "Conserving integrators by generating function" (seed 001): the α-family
// L_d = h L((1 − α) q_n + α q_{n+1}, (q_{n+1} − q_n)/h) (vilab's `alpha`) on the unit-mass
// oscillator, with the seed's misprints corrected and checked against the printed
// forms:
//  - eq. 14: E_{n+1} − E_n = (α − ½) h ω² (q_n p_n − q_{n+1} p_{n+1})
//    (printed: (α − ½) ω² (q_{n+1} p_n − q_n p_{n+1}));
//  - eq. 18: the midpoint step is the exact flow over Δt = (1/ω) arccos[(1 − (ωh)²/4)/
//    (1 + (ωh)²/4)] (printed without 1/ω), exact/midpoint_clock.hpp;
//  - eqs. 11–12: the type-2 and type-3 generating functions S(q_{n+1}, p_n) =
//    p_n·q_{n+1} − h H(q_{n+1}, p_n) and S(q_n, p_{n+1}) = −q_n·p_{n+1} − h H(q_n, p_{n+1})
//    give the two symplectic Euler methods, which are `alpha` at α = 1 and α = 0.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "support.hpp"
#include "vilab/exact/midpoint_clock.hpp"
#include "vilab/exact/oscillator.hpp"
#include "vilab/simulation.hpp"

using namespace vilab;

namespace {

// The unit-mass oscillator with stiffness ω², started at x₀, v₀.
Simulation oscillator(const std::string& integrator, double omega, double h, double alpha = 0.5, double x0 = 1.0,
                      double v0 = 0.5) {
  Json j = {{"system", "oscillator"}, {"integrator", integrator}, {"h", h}};
  j["params"] = {{"mass", 1.0}, {"stiffness", omega * omega}};
  j["initial"] = {{"position", x0}, {"velocity", v0}};
  if (integrator == "alpha") j["options"] = {{"alpha", alpha}};
  return test::simulate(j.dump(), 1000000);
}

// A Hamiltonian in canonical coordinates, by its partial derivatives.
struct Hamiltonian {
  std::function<VecX(const VecX&q, const VecX&p)> dq, dp;
};

// Newton on r(x) = 0 with a central-difference Jacobian, to rounding.
VecX solve(const std::function<VecX(const VecX&)>& r, VecX x) {
  for (int k = 0; k < 50; ++k) {
    Eigen::MatrixXd J(x.size(), x.size());
    for (Eigen::Index j = 0; j < x.size(); ++j) {
      VecX a = x, b = x;
      const double e = 1e-6 * (1 + std::abs(x[j]));
      a[j] += e;
      b[j] -= e;
      J.col(j) = (r(a) - r(b)) / (2 * e);
    }
    const VecX dx = J.partialPivLu().solve(-r(x));
    x += dx;
    if (dx.cwiseAbs().maxCoeff() <= 1e-16 * (1 + x.cwiseAbs().maxCoeff())) break;
  }
  return x;
}

// Type 2 (eq. 11) with S = p_n·q_{n+1} − h H(q_{n+1}, p_n): q_n = ∂S/∂p_n and
// p_{n+1} = ∂S/∂q_{n+1}, i.e.
//     q_{n+1} = q_n + h H_p(q_{n+1}, p_n),   p_{n+1} = p_n − h H_q(q_{n+1}, p_n).
State typeTwo(const Hamiltonian& H, const State& s, double h) {
  const VecX q1 = solve([&](const VecX& q) { return VecX(q - s.q - h * H.dp(q, s.p)); }, s.q + h * H.dp(s.q, s.p));
  return {q1, s.p - h * H.dq(q1, s.p)};
}

// Type 3 (eq. 12) with S = −q_n·p_{n+1} − h H(q_n, p_{n+1}): q_{n+1} = −∂S/∂p_{n+1} and
// p_n = −∂S/∂q_n, i.e.
//     p_{n+1} = p_n − h H_q(q_n, p_{n+1}),   q_{n+1} = q_n + h H_p(q_n, p_{n+1}).
State typeThree(const Hamiltonian& H, const State& s, double h) {
  const VecX p1 = solve([&](const VecX& p) { return VecX(p - s.p + h * H.dq(s.q, p)); }, s.p - h * H.dq(s.q, s.p));
  return {s.q + h * H.dp(s.q, p1), p1};
}

// Largest per-step difference between `alpha` (α = 1 or 0, in `scenario`) and the
// generating-function map over `steps` steps, relative to 1 + |z|.
double largestStepDifference(Json scenario, double alpha, const Hamiltonian& H, int steps) {
  scenario["integrator"] = "alpha";
  scenario["options"] = {{"alpha", alpha}};
  Simulation sim = test::simulate(scenario.dump(), 1000000);
  const double h = scenario["h"].get<double>();
  double worst = 0;
  for (int k = 0; k < steps; ++k) {
    const State s = sim.state();
    const State mapped = alpha == 1.0 ? typeTwo(H, s, h) : typeThree(H, s, h);
    sim.advance(1);
    const double scale = 1 + std::max(sim.q().cwiseAbs().maxCoeff(), sim.p().cwiseAbs().maxCoeff());
    worst = std::max(worst,
                     std::max(test::maxDifference(mapped.q, sim.q()), test::maxDifference(mapped.p, sim.p())) / scale);
  }
  return worst;
}

}  // namespace

TEST_CASE("generating functions: the corrected eq. 14 holds per step for every alpha, the printed one does not",
          "[generating-functions]") {
  const double omega = 3, h = 0.1;
  for (double alpha : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    Simulation sim = oscillator("alpha", omega, h, alpha);
    double corrected = 0, printed = 0, change = 0;
    for (int k = 0; k < 200; ++k) {
      const double q0 = sim.q()[0], p0 = sim.p()[0];
      sim.advance(1);
      const double q1 = sim.q()[0], p1 = sim.p()[0];
      const double dE = 0.5 * (p1 * p1 + omega * omega * q1 * q1) - 0.5 * (p0 * p0 + omega * omega * q0 * q0);
      change = std::max(change, std::abs(dE));
      corrected = std::max(corrected, std::abs(dE - (alpha - 0.5) * h * omega * omega * (q0 * p0 - q1 * p1)));
      printed = std::max(printed, std::abs(dE - (alpha - 0.5) * omega * omega * (q1 * p0 - q0 * p1)));
    }
    INFO("alpha = " << alpha << ": max |dE| = " << change << ", residual of the corrected eq. 14 " << corrected
                    << ", of the printed one " << printed);
    CHECK(corrected <= 1e-13);
    if (alpha != 0.5) {
      CHECK(change >= 1e-2);
      CHECK(printed >= 1e-2);
    }
  }
}

TEST_CASE("generating functions: the midpoint rule is the exact oscillator on the clock of eq. 18 (corrected)",
          "[generating-functions]") {
  const double omega = 2, h = 0.05, x0 = 1, v0 = 0.5;
  const exact::Oscillator truth(1.0, omega * omega, x0, v0);
  // Eq. 18 with its 1/ω, in the arccos form, against the helper's arctangent form.
  const double wh = omega * h, dt = exact::midpointClockStep(h, omega);
  const double arccos = std::acos((1 - wh * wh / 4) / (1 + wh * wh / 4));
  CHECK(std::abs(arccos / omega - dt) <= 1e-15);
  CHECK(std::abs(arccos - dt) >= 0.04);  // the printed eq. 18 (no 1/ω) is off by the factor ω
  Simulation sim = oscillator("midpoint", omega, h, 0.5, x0, v0);
  double onClock = 0;
  for (long n = 1; n <= 10000; ++n) {
    sim.advance(1);
    const double t = exact::midpointClock(h, omega, n);
    onClock =
        std::max(onClock, std::max(std::abs(sim.q()[0] - truth.position(t)), std::abs(sim.p()[0] - truth.velocity(t))));
  }
  INFO("10^4 midpoint steps against the exact flow at n dt: max error " << onClock);
  CHECK(onClock <= 1e-12);
  // Negative control: at t = n h the midpoint rule is behind by n h (ωh)²/12, a global
  // error O(h²): about 4 times smaller at h/2.
  double errors[2];
  for (int i = 0; i < 2; ++i) {
    const double step = h / (1 << i);
    const long n = std::lround(10.0 / step);
    Simulation run = oscillator("midpoint", omega, step, 0.5, x0, v0);
    run.advance(static_cast<std::uint64_t>(n));
    errors[i] = std::abs(run.q()[0] - truth.position(n * step));
  }
  INFO("at t = n h = 10: errors " << errors[0] << " (h = 0.05), " << errors[1] << " (h = 0.025)");
  CHECK(errors[0] >= 1e-3);
  CHECK(std::abs(std::log2(errors[0] / errors[1]) - 2) <= 0.05);
}

TEST_CASE("generating functions: type 2 and type 3 are alpha = 1 and alpha = 0", "[generating-functions]") {
  // The oscillator (ω = 3).
  const double omega = 3;
  const Hamiltonian oscillatorH{[=](const VecX& q, const VecX&) { return VecX(omega * omega * q); },
                                [](const VecX&, const VecX& p) { return p; }};
  Json osc = {{"system", "oscillator"}, {"h", 0.1}};
  osc["params"] = {{"mass", 1.0}, {"stiffness", omega * omega}};
  osc["initial"] = {{"position", 1.0}, {"velocity", 0.5}};
  // Hénon–Heiles, H = |p|²/2 + (x² + y²)/2 + x²y − y³/3 (separable: both maps explicit).
  const Hamiltonian henonHeilesH{[](const VecX& q, const VecX&) {
                                   VecX g(2);
                                   g << q[0] + 2 * q[0] * q[1], q[1] + q[0] * q[0] - q[1] * q[1];
                                   return g;
                                 },
                                 [](const VecX&, const VecX& p) { return p; }};
  // The elastic pendulum in (r, θ): H = p_r²/(2m) + p_θ²/(2 m r²) + k(r − l₀)²/2 − m g r cos θ,
  // not separable (H_p depends on r).
  const Json elastic = test::lagrangianScene("elastic-pendulum");
  const Json& c = elastic["params"]["constants"];
  const double m = c["m"], k = c["k"], l0 = c["l0"], g = c["g"];
  const Hamiltonian elasticH{[=](const VecX& q, const VecX& p) {
                               VecX d(2);
                               d << -p[1] * p[1] / (m * q[0] * q[0] * q[0]) + k * (q[0] - l0) - m * g * dm::cos(q[1]),
                                   m * g * q[0] * dm::sin(q[1]);
                               return d;
                             },
                             [=](const VecX& q, const VecX& p) {
                               VecX d(2);
                               d << p[0] / m, p[1] / (m * q[0] * q[0]);
                               return d;
                             }};
  const struct {
    const char* name;
    Json scenario;
    const Hamiltonian& H;
  } systems[] = {{"oscillator", osc, oscillatorH},
                 {"Henon-Heiles", test::lagrangianScene("henon-heiles"), henonHeilesH},
                 {"elastic pendulum", elastic, elasticH}};
  for (const auto& s : systems) {
    for (double alpha : {1.0, 0.0}) {
      const double d = largestStepDifference(s.scenario, alpha, s.H, 500);
      INFO(s.name << ", alpha = " << alpha << " against type " << (alpha == 1.0 ? 2 : 3)
                  << ": largest per-step difference " << d);
      CHECK(d <= 1e-12);
    }
  }
}
