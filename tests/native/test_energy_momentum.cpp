// The energy–momentum integrator of chains (integrators/chain_energy_momentum.hpp): full
// Newton on the implicit midpoint equations with the impulse at q̄, solved in O(N) per
// iteration. Large steps without refusal, iteration counts, quadratic convergence, the
// Jacobian against finite differences, one step against an independent dense solve,
// energy, J_z and the links to rounding; the block tridiagonal solver on its own.
#include <Eigen/Dense>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "support.hpp"
#include "vilab/detmath.hpp"
#include "vilab/exact/pendulum.hpp"
#include "vilab/integrators/chain_energy_momentum.hpp"
#include "vilab/json.hpp"
#include "vilab/simulation.hpp"
#include "vilab/solver/block_tridiagonal.hpp"

using namespace vilab;

namespace {

const char* kDsp = R"({"system":"double-spherical-pendulum","integrator":"energy-momentum","h":%g})";

std::string dspScenario(double h) {
  char buf[160];
  std::snprintf(buf, sizeof buf, kDsp, h);
  return buf;
}

// The benchmark chain: N links of 0.1 kg and 0.25 m, all at θ = 0.6, turning at 1 rad/s.
std::string chainScenario(int n, double h) {
  Json s = {{"system", "chain"}, {"integrator", "energy-momentum"}, {"h", h}};
  s["params"] = {{"masses", std::vector<double>(n, 0.1)}, {"lengths", std::vector<double>(n, 0.25)}};
  s["initial"] = {{"angles", std::vector<std::vector<double>>(n, {0.6, 0.0})},
                  {"rates", std::vector<std::vector<double>>(n, {0.0, 1.0})}};
  return s.dump();
}

using test::column;
using test::simulate;

double maxRelativeDeviation(const std::vector<double>& x) {
  double m = 0;
  for (double v : x) m = std::max(m, std::abs(v - x[0]));
  return m / std::abs(x[0]);
}

double maxAbs(const std::vector<double>& x) {
  double m = 0;
  for (double v : x) m = std::max(m, std::abs(v));
  return m;
}

// The midpoint equations written out densely in (q₁, Λ), with p₁ eliminated:
//     q₁ − q₀ − (h/2) M⁻¹ (p₀ + p₁) = 0,   p₁ = p₀ − h∇V + Dg(q̄)ᵀΛ,   g(q₁) = 0,
// and solved by Newton with a central-difference Jacobian (exact for these quadratic
// equations up to rounding) and a dense LU: the reference for one step.
struct DenseMidpoint {
  ChainModel m;
  double h;
  VecX q0, p0;

  int n() const { return m.bobs(); }

  VecX momentum(const VecX& z) const {
    const VecX q1 = z.head(3 * n());
    VecX p1 = p0;
    for (int i = 0; i < n(); ++i) {
      p1[3 * i + 2] -= h * m.masses[i] * m.g;
      const Vec3 dBar = 0.5 * (chainLink(q0.data(), i) + chainLink(q1.data(), i));
      const Vec3 f = z[3 * n() + i] * dBar / m.lengths[i];
      p1.segment<3>(3 * i) += f;
      if (i > 0) p1.segment<3>(3 * i - 3) -= f;
    }
    return p1;
  }

  VecX residual(const VecX& z) const {
    const VecX q1 = z.head(3 * n()), p1 = momentum(z);
    VecX r(4 * n());
    for (int i = 0; i < n(); ++i) {
      r.segment<3>(3 * i) = q1.segment<3>(3 * i) - q0.segment<3>(3 * i) -
                            (0.5 * h / m.masses[i]) * (p0.segment<3>(3 * i) + p1.segment<3>(3 * i));
      const Vec3 d = chainLink(q1.data(), i);
      r[3 * n() + i] = (d.squaredNorm() - m.lengths[i] * m.lengths[i]) / (2 * m.lengths[i]);
    }
    return r;
  }

  // The converged (q₁, Λ).
  VecX solve() const {
    VecX z = VecX::Zero(4 * n());
    for (int i = 0; i < n(); ++i) z.segment<3>(3 * i) = q0.segment<3>(3 * i) + (h / m.masses[i]) * p0.segment<3>(3 * i);
    for (int it = 0; it < 30; ++it) {
      Eigen::MatrixXd J(4 * n(), 4 * n());
      for (int k = 0; k < 4 * n(); ++k) {
        const double e = 1e-6 * std::max(1.0, std::abs(z[k]));
        VecX a = z, b = z;
        a[k] += e;
        b[k] -= e;
        J.col(k) = (residual(a) - residual(b)) / (2 * e);
      }
      z -= J.fullPivLu().solve(residual(z));
    }
    return z;
  }
};

}  // namespace

TEST_CASE("energy-momentum: the default DSP runs 100 s at h = 0.1 and h = 0.2, energy to rounding",
          "[energy-momentum]") {
  for (double h : {0.1, 0.2}) {
    Simulation sim = simulate(dspScenario(h), 1000000);
    const double e0 = sim.diagnostics().energy;
    const long steps = std::lround(100 / h);
    double worst = 0;
    int iterations = 0, most = 0;
    for (long k = 0; k < steps; ++k) {
      INFO("h = " << h << ", step " << k + 1);
      REQUIRE_NOTHROW(sim.advance(1));
      const Diagnostics d = sim.diagnostics();
      worst = std::max(worst, std::abs(d.energy - e0) / e0);
      iterations += d.iterations;
      most = std::max(most, d.iterations);
    }
    std::printf("[energy-momentum] DSP h = %.1f, 100 s: max |dE/E| %.2e, iterations %.2f per step (max %d)\n", h, worst,
                static_cast<double>(iterations) / steps, most);
    INFO("h = " << h);
    CHECK(sim.step() == static_cast<std::uint64_t>(steps));
    CHECK(worst <= 1e-12);
  }
}

TEST_CASE("energy-momentum: Newton iterations per step on the default DSP", "[energy-momentum]") {
  // The earlier frozen-normal iteration converged linearly: 7 iterations at h = 0.01,
  // up to 40 at h = 0.05.
  for (double h : {0.01, 0.05}) {
    Simulation sim = simulate(dspScenario(h), 1000000);
    const long steps = 2000;
    long iterations = 0;
    for (long k = 0; k < steps; ++k) {
      sim.advance(1);
      iterations += sim.diagnostics().iterations;
    }
    const double mean = static_cast<double>(iterations) / steps;
    std::printf("[energy-momentum] DSP h = %.2f: %.2f Newton iterations per step\n", h, mean);
    INFO("h = " << h);
    CHECK(mean <= (h == 0.01 ? 3.0 : 6.0));
  }
}

TEST_CASE("energy-momentum: Newton converges quadratically, in a few O(N) iterations", "[energy-momentum]") {
  const double h = 0.01;
  for (int n : {2, 64}) {
    INFO("N = " << n);
    const Scenario sc = parseScenario(n == 2 ? dspScenario(h) : chainScenario(n, h));
    const ChainModel& m = std::get<ChainModel>(sc.model);
    ChainEnergyMomentumIntegrator em(m, h);
    VecX q = sc.initial.q, p = sc.initial.p;
    // The production steps, from the predictor: a handful of iterations, the last update
    // at rounding level.
    int iterations = 0;
    for (int k = 0; k < 20; ++k) {
      REQUIRE(em.step(q, p).ok);
      const NewtonReport& r = em.lastReport();
      REQUIRE(r.iterations >= 2);
      REQUIRE(r.iterations <= 4);
      // What the last update leaves is about the next one: C e_k² with C = e_k/e_{k−1}²
      // for Newton's quadratic convergence (checked from rest below).
      const double last = r.updates[r.iterations - 1], before = r.updates[r.iterations - 2];
      INFO("last " << last << " before " << before);
      CHECK(last * last * last / (before * before) <= 1e-16);
      iterations += r.iterations;
    }
    std::printf("[energy-momentum] N = %d, h = 0.01: %.2f iterations per step from the predictor\n", n,
                iterations / 20.0);
    CHECK(iterations <= 3 * 20);  // the frozen-normal iteration took 7 (N = 2) to 18 (N = 64)

    // The order: plain Newton iterations on the same equations from rest (Δ = 0, Λ = 0),
    // so that several updates lie above rounding. Quadratic convergence doubles the
    // exponent of the update size from one update to the next; a linear rate keeps it.
    em.begin(q, p);
    VecX x = VecX::Zero(4 * n), r(4 * n), dx(4 * n);
    std::vector<double> sizes;
    for (int k = 0; k < 8; ++k) {
      REQUIRE(em.evaluate(x, r, true) == NewtonEval::Ok);
      dx = r;
      em.solve(dx);
      dx = -dx;
      sizes.push_back(em.size(dx));
      x += dx;
    }
    std::printf("[energy-momentum] N = %d, Newton from rest: updates", n);
    for (double s : sizes) std::printf(" %.1e", s);
    std::printf("\n");
    CHECK(sizes[4] <= 1e-14);                                              // rounding within five updates
    const double floor = *std::max_element(sizes.end() - 3, sizes.end());  // where it stays
    CHECK(floor <= 1e-16);
    int last = 0;
    while (last + 1 < 8 && sizes[last + 1] > 100 * floor) ++last;
    REQUIRE(last >= 2);
    const double order = std::log(sizes[last] / sizes[last - 1]) / std::log(sizes[last - 1] / sizes[last - 2]);
    INFO("observed order " << order);
    CHECK(order >= 1.8);
  }
}

TEST_CASE("energy-momentum: the Newton matrix is the Jacobian, and the O(N) solve inverts it", "[energy-momentum]") {
  ChainModel m;
  m.masses = {0.7, 1.3, 0.4};
  m.lengths = {1.0, 0.6, 0.8};
  const int n = 3;
  const double h = 0.1;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  VecX q(3 * n), p(3 * n);
  Vec3 bob = Vec3::Zero();
  for (int i = 0; i < n; ++i) {
    bob += m.lengths[i] * Vec3(u(rng), u(rng), -1.5).normalized();
    q.segment<3>(3 * i) = bob;
    p.segment<3>(3 * i) = Vec3(u(rng), u(rng), u(rng));
  }
  ChainEnergyMomentumIntegrator em(m, h);
  em.begin(q, p);
  VecX x(4 * n), r(4 * n);
  for (int i = 0; i < 4 * n; ++i) x[i] = 0.1 * u(rng);
  for (int i = 0; i < n; ++i) x[4 * i + 3] = 2 * u(rng);  // impulses of either sign
  REQUIRE(em.evaluate(x, r, true) == NewtonEval::Ok);

  // Central differences (exact for these quadratic residuals up to rounding).
  Eigen::MatrixXd fd(4 * n, 4 * n);
  VecX rp(4 * n), rm(4 * n);
  for (int k = 0; k < 4 * n; ++k) {
    VecX a = x, b = x;
    a[k] += 1e-6;
    b[k] -= 1e-6;
    em.evaluate(a, rp, false);
    em.evaluate(b, rm, false);
    fd.col(k) = (rp - rm) / 2e-6;
  }
  em.evaluate(x, r, true);

  // The 4×4 blocks as assembled from the formulas.
  BlockTridiagonal<4> blocks;
  em.jacobian(blocks);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(4 * n, 4 * n);
  for (int i = 0; i < n; ++i) {
    J.block<4, 4>(4 * i, 4 * i) = blocks.diag(i);
    if (i > 0) J.block<4, 4>(4 * i, 4 * i - 4) = blocks.lower(i);
    if (i + 1 < n) J.block<4, 4>(4 * i, 4 * i + 4) = blocks.upper(i);
  }
  const double scale = fd.cwiseAbs().maxCoeff();
  const double mismatch = (J - fd).cwiseAbs().maxCoeff() / scale;
  // The structured solve, column by column.
  Eigen::MatrixXd inverse(4 * n, 4 * n);
  for (int k = 0; k < 4 * n; ++k) {
    VecX e = VecX::Zero(4 * n);
    e[k] = 1;
    em.solve(e);
    inverse.col(k) = e;
  }
  const double identity = (J * inverse - Eigen::MatrixXd::Identity(4 * n, 4 * n)).cwiseAbs().maxCoeff();
  // The general block LU on the assembled blocks agrees with it.
  REQUIRE(blocks.factorize());
  VecX b(4 * n);
  for (int i = 0; i < 4 * n; ++i) b[i] = u(rng);
  VecX viaBlocks = b, viaChain = b;
  blocks.solve(viaBlocks.data());
  em.solve(viaChain);
  const double agree = (viaBlocks - viaChain).cwiseAbs().maxCoeff() / viaChain.cwiseAbs().maxCoeff();
  std::printf("[energy-momentum] Jacobian vs central differences %.1e, J·solve − I %.1e, block LU %.1e\n", mismatch,
              identity, agree);
  CHECK(mismatch <= 1e-6);
  CHECK(identity <= 1e-12);
  CHECK(agree <= 1e-12);
}

TEST_CASE("energy-momentum: one step is the implicit midpoint rule with the impulse at q̄ (dense solve)",
          "[energy-momentum]") {
  const std::string scenarios[] = {
      R"({"system":"double-spherical-pendulum","integrator":"energy-momentum","h":0.05,
          "params":{"masses":[1,1.5],"lengths":[1,0.8],"g":9.81},
          "initial":{"angles":[[0.6,0],[0.9,0.4]],"rates":[[0,1.2],[0.5,0.3]]}})",
      R"({"system":"chain","integrator":"energy-momentum","h":0.02,
          "params":{"masses":[0.3,0.2,0.5,0.1,0.4],"lengths":[0.5,0.3,0.4,0.2,0.6]},
          "initial":{"angles":[[1.2,0],[0.7,1],[2.0,2],[0.4,3],[1.5,4]],"rates":[[1,0.5],[0,2],[-1,0],[0.3,0.3],[2,-1]]}})"};
  for (const std::string& json : scenarios) {
    Simulation sim = simulate(json);
    const Scenario& sc = sim.scenario();
    DenseMidpoint reference{std::get<ChainModel>(sc.model), sc.h, sim.q(), sim.p()};
    const VecX z = reference.solve();
    REQUIRE(reference.residual(z).cwiseAbs().maxCoeff() <= 1e-15);
    const VecX q1 = z.head(3 * reference.n()), p1 = reference.momentum(z);
    sim.advance(1);
    const double dq = (sim.q() - q1).cwiseAbs().maxCoeff(), dp = (sim.p() - p1).cwiseAbs().maxCoeff();
    std::printf("[energy-momentum] one step against the dense solve (N = %d): |Δq| %.1e, |Δp| %.1e\n", reference.n(),
                dq, dp);
    CHECK(dq <= 1e-13);
    CHECK(dp <= 1e-13);
  }
}

TEST_CASE("energy-momentum: DSP, 1e6 steps at h = 0.01 keep energy, J_z and the links to rounding",
          "[energy-momentum][long]") {
  Simulation em = simulate(dspScenario(0.01), 100, 1 << 14);
  em.advance(1000000);
  const double energy = maxRelativeDeviation(column(em, "energy"));
  const double jz = maxRelativeDeviation(column(em, "momentum"));
  const double g = maxAbs(column(em, "constraint"));
  // Negative control: the variational midpoint rule keeps the energy only within O(h²).
  Simulation mid = simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.01})", 100);
  mid.advance(100000);
  const double midEnergy = maxRelativeDeviation(column(mid, "energy"));
  std::printf("[energy-momentum] DSP 1e6 steps h = 0.01: energy %.2e (midpoint %.2e over 1e5), J_z %.2e, |g| %.2e\n",
              energy, midEnergy, jz, g);
  CHECK(energy <= 1e-11);
  CHECK(jz <= 1e-11);
  CHECK(g <= 1e-13);
  CHECK(midEnergy > 1e-7);
}

TEST_CASE("energy-momentum: chains of 2, 8 and 64 links keep energy, J_z and the links", "[energy-momentum]") {
  for (int n : {2, 8, 64}) {
    Simulation sim = simulate(chainScenario(n, 0.01), 10);
    sim.advance(10000);
    const double energy = maxRelativeDeviation(column(sim, "energy"));
    const double jz = maxRelativeDeviation(column(sim, "momentum"));
    const double g = maxAbs(column(sim, "constraint"));
    std::printf("[energy-momentum] chain N = %2d, 1e4 steps: energy %.2e, J_z %.2e, |g| %.2e\n", n, energy, jz, g);
    INFO("N = " << n);
    CHECK(energy <= 1e-12);
    CHECK(jz <= 1e-12);
    CHECK(g <= 1e-13);
  }
}

TEST_CASE("energy-momentum: order 2 against the exact pendulum (Jacobi sn)", "[energy-momentum]") {
  const exact::Pendulum truth(1.0, 1.0, 1.0, 0.0);
  const double T = 10;
  std::vector<double> errors;
  for (double h : {0.02, 0.01, 0.005, 0.0025}) {
    Simulation sim =
        simulate(R"({"system":"pendulum","integrator":"energy-momentum","h":)" + std::to_string(h) +
                     R"(,"params":{"masses":[1],"lengths":[1],"g":1},"initial":{"angles":[1],"rates":[0]}})",
                 1000000);
    sim.advance(static_cast<std::uint64_t>(std::lround(T / h)));
    errors.push_back(std::abs(dm::atan2(sim.q()[0], -sim.q()[2]) - truth.theta(T)));
  }
  for (std::size_t i = 1; i < errors.size(); ++i) {
    const double order = std::log2(errors[i - 1] / errors[i]);
    INFO("h = " << 0.02 / (1 << i) << ": error " << errors[i] << ", order " << order);
    CHECK(std::abs(order - 2.0) <= 0.1);
  }
}

TEST_CASE("energy-momentum: reversible, and a state loaded with setState starts afresh", "[energy-momentum]") {
  const std::string json = R"({"system":"double-spherical-pendulum","integrator":"energy-momentum","h":0.01,
      "initial":{"angles":[[0.3,0],[0.4,0.5]],"rates":[[0,0.4],[0.2,0]]}})";
  Simulation sim = simulate(json, 1000000);
  const VecX x0 = sim.q();
  sim.advance(10000);
  // Same scenario, same steps, same bits (the carried rounding is deterministic too).
  Simulation again = simulate(json, 1000000);
  again.advance(10000);
  CHECK(again.hash() == sim.hash());
  State back{sim.q(), -sim.p()};
  sim.setState(back);
  CHECK(sim.p() == back.p);  // momenta are not tangent at the nodes: taken as given
  sim.advance(10000);
  const double dq = (sim.q() - x0).cwiseAbs().maxCoeff();
  INFO("|Δq| = " << dq);
  CHECK(dq <= 1e-10);
}

TEST_CASE("energy-momentum: a step Newton cannot solve is refused, the state kept", "[energy-momentum]") {
  // Turns of 30 rad/s at h = 0.2: six radians per step, beyond what the equations resolve.
  Simulation sim = simulate(R"({"system":"double-spherical-pendulum","integrator":"energy-momentum","h":0.2,
      "initial":{"angles":[[1.6,0],[2.2,0.8]],"rates":[[5,0],[0,-30]]}})",
                            1000000);
  bool refused = false;
  for (int k = 0; k < 1000 && !refused; ++k) {
    const std::string hash = sim.hash();
    const auto step = sim.step();
    try {
      sim.advance(1);
    } catch (const StepFailure& e) {
      refused = true;
      CHECK(e.step() == step + 1);
      CHECK(std::string(e.what()).find("reduce h") != std::string::npos);
      CHECK(sim.hash() == hash);
    }
  }
  CHECK(refused);
}

TEST_CASE("block tridiagonal: block LU against a dense solve", "[solver]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  auto check = [&](auto tag) {
    constexpr int B = decltype(tag)::value;
    const int n = 7;
    BlockTridiagonal<B> m;
    m.resize(n);
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(B * n, B * n);
    for (int i = 0; i < n; ++i) {
      for (int r = 0; r < B; ++r)
        for (int c = 0; c < B; ++c) {
          m.diag(i)(r, c) = 0.3 * u(rng) + (r == c ? 2.0 : 0.0);
          m.lower(i)(r, c) = i > 0 ? 0.3 * u(rng) : 0.0;
          m.upper(i)(r, c) = i + 1 < n ? 0.3 * u(rng) : 0.0;
        }
      dense.block<B, B>(B * i, B * i) = m.diag(i);
      if (i > 0) dense.block<B, B>(B * i, B * i - B) = m.lower(i);
      if (i + 1 < n) dense.block<B, B>(B * i, B * i + B) = m.upper(i);
    }
    REQUIRE(m.factorize());
    VecX b(B * n);
    for (int i = 0; i < B * n; ++i) b[i] = u(rng);
    VecX x = b;
    m.solve(x.data());
    const VecX reference = dense.partialPivLu().solve(b);
    INFO("B = " << B);
    CHECK((x - reference).cwiseAbs().maxCoeff() <= 1e-13 * reference.cwiseAbs().maxCoeff());
    CHECK(m.pivotRatio() >= 1);
    CHECK(m.pivotRatio() < 10);
    // A singular block is reported, not divided by.
    m.diag(3).setZero();
    m.lower(3).setZero();
    CHECK_FALSE(m.factorize());
  };
  check(std::integral_constant<int, 1>{});
  check(std::integral_constant<int, 3>{});
  check(std::integral_constant<int, 4>{});
}
