// The energy–momentum integrator of chains (integrators/chain_energy_momentum.hpp):
// Gonzalez's constrained formulation with the velocity-level constraint, full Newton in
// O(N) per iteration. Large steps without refusal (an independent Newton decides where
// one is refused), the hidden constraint at every node (and its failure in the index-3
// scheme), the physical energy and J_z to rounding, iteration counts, quadratic
// convergence, the Jacobian, one step against an independent dense solve, the position
// error against a fine reference; the index-3 scheme's structured solve against the
// block tridiagonal solver.
#include <Eigen/Dense>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "chain_accuracy.hpp"
#include "support.hpp"
#include "vilab/detmath.hpp"
#include "vilab/exact/pendulum.hpp"
#include "vilab/integrators/chain_energy_momentum.hpp"
#include "vilab/integrators/chain_index3_midpoint.hpp"
#include "vilab/json.hpp"
#include "vilab/registry.hpp"
#include "vilab/simulation.hpp"
#include "vilab/solver/block_tridiagonal.hpp"

using namespace vilab;

namespace {

const char* kDspFormat = R"({"system":"double-spherical-pendulum","integrator":"energy-momentum","h":%g})";

std::string dspScenario(double h) {
  char buf[160];
  std::snprintf(buf, sizeof buf, kDspFormat, h);
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
using test::maxAbs;
using test::simulate;

double maxRelativeDeviation(const std::vector<double>& x) {
  double m = 0;
  for (double v : x) m = std::max(m, std::abs(v - x[0]));
  return m / std::abs(x[0]);
}

// The step (2)–(4) of chain_energy_momentum.hpp written out densely in
// z = (q₁, p₁, λ, μ), straight from the formulation:
//     q₁ − q₀ − h M⁻¹ (p̄ + Dg(q̄)ᵀμ) = 0,   p₁ − p₀ + h ∇V + h Dg(q̄)ᵀλ + h (∂π/∂q)(q̄, p̄)ᵀμ = 0,
//     g(q₁) = 0,   Dg(q₁) M⁻¹ p₁ = 0,
// solved by Newton with a central-difference Jacobian and a dense LU from the explicit
// predictor (each link turned by its free flight and put back to length, p₁ = p₀). It
// is the reference for one step and the independent judge of a refused one.
struct DenseConstrained {
  ChainModel m;
  double h;
  VecX q0, p0;

  int n() const { return m.bobs(); }

  // (Dgᵀ a)_bob for link weights a and link vectors d (±d_i/l_i on bobs i, i−1).
  VecX linkForces(const VecX& weights, const std::vector<Vec3>& d) const {
    VecX f = VecX::Zero(3 * n());
    for (int i = 0; i < n(); ++i) {
      const Vec3 v = weights[i] * d[i] / m.lengths[i];
      f.segment<3>(3 * i) += v;
      if (i > 0) f.segment<3>(3 * i - 3) -= v;
    }
    return f;
  }

  VecX residual(const VecX& z) const {
    const int N = n();
    const VecX q1 = z.head(3 * N), p1 = z.segment(3 * N, 3 * N);
    const VecX lambda = z.segment(6 * N, N), mu = z.segment(7 * N, N);
    const VecX qBar = 0.5 * (q0 + q1), pBar = 0.5 * (p0 + p1);
    VecX vBar(3 * N), v1(3 * N);
    for (int i = 0; i < N; ++i) {
      vBar.segment<3>(3 * i) = pBar.segment<3>(3 * i) / m.masses[i];
      v1.segment<3>(3 * i) = p1.segment<3>(3 * i) / m.masses[i];
    }
    std::vector<Vec3> dBar(N), wBar(N);
    for (int i = 0; i < N; ++i) {
      dBar[i] = chainLink(qBar.data(), i);
      wBar[i] = chainLink(vBar.data(), i);
    }
    const VecX gMu = linkForces(mu, dBar), gLambda = linkForces(lambda, dBar), piMu = linkForces(mu, wBar);
    VecX r(8 * N);
    for (int i = 0; i < N; ++i) {
      r.segment<3>(3 * i) = q1.segment<3>(3 * i) - q0.segment<3>(3 * i) -
                            (h / m.masses[i]) * (pBar.segment<3>(3 * i) + gMu.segment<3>(3 * i));
      r.segment<3>(3 * N + 3 * i) =
          p1.segment<3>(3 * i) - p0.segment<3>(3 * i) + h * gLambda.segment<3>(3 * i) + h * piMu.segment<3>(3 * i);
      r[3 * N + 3 * i + 2] += h * m.masses[i] * m.g;
      const Vec3 d = chainLink(q1.data(), i);
      r[6 * N + i] = (d.squaredNorm() - m.lengths[i] * m.lengths[i]) / (2 * m.lengths[i]);
      r[7 * N + i] = d.dot(chainLink(v1.data(), i)) / m.lengths[i];
    }
    return r;
  }

  VecX predictor() const {
    VecX z = VecX::Zero(8 * n());
    Vec3 previous = Vec3::Zero(), previousNew = Vec3::Zero();
    for (int i = 0; i < n(); ++i) {
      const Vec3 x = q0.segment<3>(3 * i) + (h / m.masses[i]) * p0.segment<3>(3 * i);
      const Vec3 link = x - previous;
      previous = x;
      previousNew += m.lengths[i] * link.normalized();
      z.segment<3>(3 * i) = previousNew;
    }
    z.segment(3 * n(), 3 * n()) = p0;
    return z;
  }

  // Newton from the predictor; converged when the residual is at rounding.
  bool solve(VecX& z, int iterations = 40) const {
    z = predictor();
    for (int it = 0; it < iterations; ++it) {
      const VecX r = residual(z);
      if (!r.allFinite()) return false;
      if (r.cwiseAbs().maxCoeff() <= 1e-14 * (1 + p0.cwiseAbs().maxCoeff())) return true;
      Eigen::MatrixXd J(8 * n(), 8 * n());
      for (int k = 0; k < 8 * n(); ++k) {
        const double e = 1e-6 * std::max(1.0, std::abs(z[k]));
        VecX a = z, b = z;
        a[k] += e;
        b[k] -= e;
        J.col(k) = (residual(a) - residual(b)) / (2 * e);
      }
      z -= J.fullPivLu().solve(r);
    }
    return residual(z).cwiseAbs().maxCoeff() <= 1e-12 * (1 + p0.cwiseAbs().maxCoeff());
  }
};

// The largest rate of change of a link length, |Dg(q) M⁻¹ p| (m/s), over the largest bob
// speed |M⁻¹p|: zero for momenta tangent to the constraint manifold.
double hiddenConstraint(const ChainModel& m, const VecX& q, const VecX& p) {
  VecX v(p.size());
  double speed = 0, worst = 0;
  for (int i = 0; i < m.bobs(); ++i) {
    v.segment<3>(3 * i) = p.segment<3>(3 * i) / m.masses[i];
    speed = std::max(speed, v.segment<3>(3 * i).norm());
  }
  for (int i = 0; i < m.bobs(); ++i)
    worst = std::max(worst, std::abs(chainLink(q.data(), i).dot(chainLink(v.data(), i))) / m.lengths[i]);
  return worst / speed;
}

// The share of H(q, p)'s kinetic energy in velocity along the links.
double radialShare(const ChainModel& m, const VecX& q, const VecX& p) {
  return m.radialKinetic(q.data(), p.data()) / m.kinetic(p.data());
}

}  // namespace

TEST_CASE(
    "energy-momentum: the default DSP at h = 0.1 and 0.2 keeps the hidden constraint, the physical energy "
    "and J_z at every step",
    "[energy-momentum]") {
  // 100 s each, and at h = 0.2 on to 2000 s (the index-3 scheme was refused at step 7237).
  for (double h : {0.1, 0.2}) {
    // Beyond the largest h the registry offers (measured on accuracy): the figure.
    Simulation sim = test::simulateAt(Json::parse(dspScenario(0.01)), h, 1000000);
    const ChainModel& m = std::get<ChainModel>(sim.scenario().model);
    const Diagnostics first = sim.diagnostics();
    const double e0 = first.energy, j0 = first.momentum[0];
    const long steps = std::lround((h == 0.2 ? 2000 : 100) / h), judged = std::lround(100 / h);
    double worstHidden = 0, worstEnergy = 0, worstJz = 0, worstH = 0;
    int iterations = 0, most = 0;
    long refusedAt = 0;
    for (long k = 0; k < steps; ++k) {
      const VecX q = sim.q(), p = sim.p();
      try {
        sim.advance(1);
      } catch (const StepFailure& e) {
        // Refused: an independent Newton from the explicit predictor must find no root.
        refusedAt = k + 1;
        DenseConstrained judge{m, h, q, p};
        VecX z;
        INFO("h = " << h << ": refused at step " << refusedAt << " (" << e.what() << ")");
        CHECK_FALSE(judge.solve(z));
        break;
      }
      const Diagnostics d = sim.diagnostics();
      if (k < judged) {
        worstHidden = std::max(worstHidden, hiddenConstraint(m, sim.q(), sim.p()));
        worstEnergy = std::max(worstEnergy, std::abs(d.energy - e0) / e0);
        worstJz = std::max(worstJz, std::abs(d.momentum[0] - j0) / std::abs(j0));
        worstH = std::max(worstH, std::abs(m.hamiltonian({sim.q(), sim.p()}) - d.energy) / e0);
      }
      iterations += d.iterations;
      most = std::max(most, d.iterations);
    }
    std::printf(
        "[energy-momentum] DSP h = %.1f, 100 s: max |Dg M^-1 p|/|M^-1 p| %.1e, physical |dE/E| %.1e, |dJz/Jz| %.1e, "
        "|H - E|/E %.1e; %.2f iterations per step (max %d); %s\n",
        h, worstHidden, worstEnergy, worstJz, worstH, static_cast<double>(iterations) / steps, most,
        refusedAt ? "refused" : (h == 0.2 ? "2000 s without refusal" : "no refusal"));
    INFO("h = " << h);
    CHECK(refusedAt == 0);
    CHECK(worstHidden <= 1e-12);
    CHECK(worstEnergy <= 1e-12);
    CHECK(worstJz <= 1e-12);
    CHECK(worstH <= 1e-12);  // the momenta are tangent: H(q, p) is the physical energy
  }
}

TEST_CASE("energy-momentum: the index-3 scheme's momenta leave the hidden constraint (negative control)",
          "[energy-momentum]") {
  // The same equations without the velocity-level constraint keep H(q, p), but a large
  // part of it sits in velocity along the rods, and the motion drifts from the reference.
  for (double h : {0.05, 0.1, 0.2}) {
    const Scenario sc = parseScenario(dspScenario(0.01));
    const ChainModel& m = std::get<ChainModel>(sc.model);
    ChainIndexThreeMidpoint index3(m, h);
    ChainEnergyMomentumIntegrator em(m, h);
    VecX q = sc.initial.q, p = sc.initial.p, qe = q, pe = p;
    double hidden = 0, share = 0, hiddenEm = 0;
    for (long k = 0; k < std::lround(10 / h); ++k) {
      REQUIRE(index3.step(q, p).ok);
      REQUIRE(em.step(qe, pe).ok);
      hidden = std::max(hidden, hiddenConstraint(m, q, p));
      share = std::max(share, radialShare(m, q, p));
      hiddenEm = std::max(hiddenEm, hiddenConstraint(m, qe, pe));
    }
    std::printf(
        "[energy-momentum] DSP h = %.2f, 10 s: index-3 |Dg M^-1 p|/|M^-1 p| up to %.2f, share of T along the rods up "
        "to %.0f %%; energy-momentum %.1e\n",
        h, hidden, 100 * share, hiddenEm);
    INFO("h = " << h);
    CHECK(hidden > 1e-3);  // far above the bound the energy-momentum scheme meets
    CHECK(share > 0.01);
    CHECK(hiddenEm <= 1e-12);
  }
}

TEST_CASE("energy-momentum: position error against a fine RATTLE reference at T = 1 s, bounded at the largest h",
          "[energy-momentum]") {
  for (const char* system : {"pendulum", "spherical-pendulum", "double-spherical-pendulum", "chain"}) {
    const Json scenario = {{"system", system}, {"integrator", "energy-momentum"}};
    const VecX reference = test::chainReference(scenario);
    const double largest = measuredMaxStep(system, "energy-momentum");
    std::printf("[energy-momentum] %s, T = 1 s, error of the bobs over the chain's length:", system);
    for (double h : {0.01, 0.02, 0.05, 0.1, 0.2}) {
      if (h > 2 * largest && h > 0.05) break;
      try {
        const test::ChainAccuracy a = test::chainAccuracy(scenario, h, reference);
        std::printf(" h = %g: %.2e (energy %.0e)", h, a.position, a.energy);
        if (h <= largest) {
          INFO(system << ", h = " << h);
          CHECK(test::accurateEnough(a));
        }
      } catch (const StepFailure&) {
        std::printf(" h = %g: refused", h);
        CHECK(h > largest);
      }
    }
    std::printf("; largest h %g\n", largest);
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

    // The order: plain Newton iterations on the same equations from rest (Δ = s = 0,
    // multipliers 0), so that several iterates lie above rounding. Quadratic convergence
    // doubles the exponent of the residual from one iteration to the next; a linear rate
    // keeps it. (The updates stop at the Jacobian's conditioning times rounding: the
    // chain's tension system, about 1e-15 of the length for N = 64.)
    em.begin(q, p);
    const int unknowns = ChainEnergyMomentumIntegrator::kBlock * n;
    VecX x = VecX::Zero(unknowns), r(unknowns), dx(unknowns);
    std::vector<double> sizes, residuals;
    for (int k = 0; k < 8; ++k) {
      REQUIRE(em.evaluate(x, r, true) == NewtonEval::Ok);
      residuals.push_back(r.cwiseAbs().maxCoeff() / m.lengths[0]);
      dx = r;
      em.solve(dx);
      dx = -dx;
      sizes.push_back(em.size(dx));
      x += dx;
    }
    std::printf("[energy-momentum] N = %d, Newton from rest: updates", n);
    for (double s : sizes) std::printf(" %.1e", s);
    std::printf("; residuals");
    for (double s : residuals) std::printf(" %.1e", s);
    std::printf("\n");
    CHECK(sizes[4] <= 1e-14);                                              // rounding within five updates
    const double floor = *std::max_element(sizes.end() - 3, sizes.end());  // where it stays
    CHECK(floor <= 1e-15);
    const double residualFloor = *std::max_element(residuals.end() - 3, residuals.end());
    CHECK(residualFloor <= 1e-15);
    int last = 0;
    while (last + 1 < 8 && residuals[last + 1] > 100 * residualFloor) ++last;
    REQUIRE(last >= 2);
    const double order =
        std::log(residuals[last] / residuals[last - 1]) / std::log(residuals[last - 1] / residuals[last - 2]);
    INFO("observed order " << order);
    CHECK(order >= 1.8);
  }
}

TEST_CASE("energy-momentum: the index-3 predictor's Newton matrix is its Jacobian, and its O(N) solve inverts it",
          "[energy-momentum]") {
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
  ChainIndexThreeMidpoint em(m, h);
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

TEST_CASE("energy-momentum: the Newton blocks are the Jacobian, and the block solve inverts it", "[energy-momentum]") {
  ChainModel m;
  m.masses = {0.7, 1.3, 0.4, 0.9};
  m.lengths = {1.0, 0.6, 0.8, 0.5};
  const int n = 4, B = ChainEnergyMomentumIntegrator::kBlock;
  const double h = 0.1;
  std::mt19937 rng(5);
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
  VecX x(B * n), r(B * n);
  for (int i = 0; i < B * n; ++i) x[i] = 0.1 * u(rng);
  REQUIRE(em.evaluate(x, r, true) == NewtonEval::Ok);
  const auto residual = [&](const VecX& y) {
    VecX out(B * n);
    em.residual(y.data(), out.data());
    return out;
  };
  const Eigen::MatrixXd fd = test::finiteDifferenceJacobian(residual, x, 1e-4);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(B * n, B * n);
  const auto& blocks = em.jacobian();
  for (int i = 0; i < n; ++i) {
    J.block(B * i, B * i, B, B) = blocks.diag(i);
    if (i > 0) J.block(B * i, B * i - B, B, B) = blocks.lower(i);
    if (i + 1 < n) J.block(B * i, B * i + B, B, B) = blocks.upper(i);
  }
  const double mismatch = (J - fd).cwiseAbs().maxCoeff() / fd.cwiseAbs().maxCoeff();
  Eigen::MatrixXd inverse(B * n, B * n);
  for (int k = 0; k < B * n; ++k) {
    VecX e = VecX::Zero(B * n);
    e[k] = 1;
    em.solve(e);
    inverse.col(k) = e;
  }
  const double identity = (J * inverse - Eigen::MatrixXd::Identity(B * n, B * n)).cwiseAbs().maxCoeff();
  std::printf("[energy-momentum] 8x8 blocks vs central differences %.1e, J*solve - I %.1e\n", mismatch, identity);
  CHECK(mismatch <= 1e-10);
  CHECK(identity <= 1e-12);
}

TEST_CASE("energy-momentum: the exact Newton blocks match a central difference, and every term of them counts",
          "[energy-momentum]") {
  // Unequal masses and lengths, a random state and random unknowns (multipliers of 0.1–1
  // so that every term of the blocks is well above rounding), N = 5: first, interior and
  // last bobs, both neighbours of each.
  ChainModel m;
  m.masses = {0.7, 1.3, 0.4, 0.9, 0.25};
  m.lengths = {1.0, 0.6, 0.8, 0.5, 0.35};
  const int n = 5, B = ChainEnergyMomentumIntegrator::kBlock;
  const double h = 0.07;
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-1, 1);
  VecX q(3 * n), p(3 * n);
  Vec3 bob = Vec3::Zero();
  for (int i = 0; i < n; ++i) {
    bob += m.lengths[i] * Vec3(u(rng), u(rng), -1.2).normalized();
    q.segment<3>(3 * i) = bob;
    p.segment<3>(3 * i) = Vec3(u(rng), u(rng), u(rng));
  }
  ChainEnergyMomentumIntegrator em(m, h);
  em.begin(q, p);
  VecX x(B * n), r(B * n);
  for (int i = 0; i < B * n; ++i) x[i] = (i % B >= 6 ? 1.0 : 0.1) * (0.1 + 0.9 * std::abs(u(rng)));
  REQUIRE(em.evaluate(x, r, true) == NewtonEval::Ok);
  // Central differences, step 1e-6 (the residual is quadratic: exact but for rounding).
  Eigen::MatrixXd fd(B * n, B * n);
  VecX plus(B * n), minus(B * n);
  for (int k = 0; k < B * n; ++k) {
    VecX a = x, b = x;
    a[k] += 1e-6;
    b[k] -= 1e-6;
    em.residual(a.data(), plus.data());
    em.residual(b.data(), minus.data());
    fd.col(k) = (plus - minus) / 2e-6;
  }
  auto blocks = em.jacobian();
  const auto assemble = [&](const ChainEnergyMomentumIntegrator::Blocks& J) {
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(B * n, B * n);
    for (int i = 0; i < n; ++i) {
      dense.block(B * i, B * i, B, B) = J.diag(i);
      if (i > 0) dense.block(B * i, B * i - B, B, B) = J.lower(i);
      if (i + 1 < n) dense.block(B * i, B * i + B, B, B) = J.upper(i);
    }
    return dense;
  };
  const double scale = fd.cwiseAbs().maxCoeff();
  const auto error = [&](const Eigen::MatrixXd& J) { return (J - fd).cwiseAbs().maxCoeff() / scale; };
  const Eigen::MatrixXd J = assemble(blocks);
  const double mismatch = error(J);
  // Where the difference sees no dependence, the blocks have none either (structure).
  int nonzero = 0, smallest = 0;
  double smallestEntry = std::numeric_limits<double>::infinity();
  for (int r0 = 0; r0 < B * n; ++r0)
    for (int c0 = 0; c0 < B * n; ++c0) {
      if (J(r0, c0) != 0) {
        ++nonzero;
        if (std::abs(J(r0, c0)) < smallestEntry) smallestEntry = std::abs(J(r0, c0));
      }
      if (J(r0, c0) == 0) CHECK(std::abs(fd(r0, c0)) <= 1e-9 * scale);
    }
  // Negative controls: every nonzero term left out, and every block transposed (or a
  // bob's lower block swapped for its upper one), must show.
  double leastMissing = std::numeric_limits<double>::infinity();
  for (int r0 = 0; r0 < B * n; ++r0)
    for (int c0 = 0; c0 < B * n; ++c0) {
      if (J(r0, c0) == 0) continue;
      Eigen::MatrixXd wrong = J;
      wrong(r0, c0) = 0;
      leastMissing = std::min(leastMissing, error(wrong));
      ++smallest;
    }
  double leastTransposed = std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i)
    for (int which = 0; which < 4; ++which) {
      if ((which == 1 && i == 0) || ((which == 2 || which == 3) && (i == 0 || i + 1 == n))) continue;
      auto wrong = blocks;
      if (which == 0) wrong.diag(i).transposeInPlace();
      if (which == 1) wrong.lower(i).transposeInPlace();
      if (which == 2) wrong.upper(i).transposeInPlace();
      if (which == 3) std::swap(wrong.lower(i), wrong.upper(i));
      leastTransposed = std::min(leastTransposed, error(assemble(wrong)));
    }
  std::printf(
      "[energy-momentum] exact 8x8 blocks vs central differences (N = %d): %.1e of the largest entry; %d nonzero "
      "terms (smallest %.1e), each left out shows as at least %.1e, a transposed or swapped block as %.1e\n",
      n, mismatch, nonzero, smallestEntry / scale, leastMissing, leastTransposed);
  CHECK(mismatch <= 1e-7);
  CHECK(leastMissing >= 1e-4);
  CHECK(leastTransposed >= 1e-3);
  // Entry by entry too, relative to each entry where it is not tiny.
  double worstRelative = 0;
  for (int r0 = 0; r0 < B * n; ++r0)
    for (int c0 = 0; c0 < B * n; ++c0)
      if (std::abs(fd(r0, c0)) > 1e-3 * scale)
        worstRelative = std::max(worstRelative, std::abs(J(r0, c0) - fd(r0, c0)) / std::abs(fd(r0, c0)));
  INFO("entrywise relative error " << worstRelative);
  CHECK(worstRelative <= 1e-7);
}

TEST_CASE("energy-momentum: one step solves the constrained equations with the velocity-level constraint (dense solve)",
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
    const ChainModel& m = std::get<ChainModel>(sc.model);
    for (int k = 0; k < 3; ++k) {
      DenseConstrained reference{m, sc.h, sim.q(), sim.p()};
      VecX z;
      REQUIRE(reference.solve(z));
      const int n = reference.n();
      sim.advance(1);
      const double dq = (sim.q() - z.head(3 * n)).cwiseAbs().maxCoeff();
      const double dp = (sim.p() - z.segment(3 * n, 3 * n)).cwiseAbs().maxCoeff();
      std::printf("[energy-momentum] step %d against the dense solve (N = %d): |dq| %.1e, |dp| %.1e, |mu| %.1e\n",
                  k + 1, n, dq, dp, z.tail(n).cwiseAbs().maxCoeff());
      CHECK(dq <= 1e-13);
      CHECK(dp <= 1e-13);
    }
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
    const double hidden = hiddenConstraint(std::get<ChainModel>(sim.scenario().model), sim.q(), sim.p());
    std::printf("[energy-momentum] chain N = %2d, 1e4 steps: energy %.2e, J_z %.2e, |g| %.2e, hidden %.1e\n", n, energy,
                jz, g, hidden);
    INFO("N = " << n);
    CHECK(hidden <= 1e-12);
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
  // Projected onto the hidden constraint on load: tangent already, so only rounding moves.
  CHECK((sim.p() - back.p).cwiseAbs().maxCoeff() <= 1e-15 * back.p.cwiseAbs().maxCoeff());
  sim.advance(10000);
  const double dq = (sim.q() - x0).cwiseAbs().maxCoeff();
  INFO("|Δq| = " << dq);
  CHECK(dq <= 1e-10);
}

TEST_CASE("energy-momentum: a step Newton cannot solve is refused, the state kept", "[energy-momentum]") {
  // Turns of 30 rad/s at h = 0.2: six radians per step, beyond what the equations resolve.
  Simulation sim = test::simulateAt(Json::parse(R"({"system":"double-spherical-pendulum","integrator":"energy-momentum",
      "initial":{"angles":[[1.6,0],[2.2,0.8]],"rates":[[5,0],[0,-30]]}})"),
                                    0.2, 1000000);
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
  check(std::integral_constant<int, 8>{});  // the pivoted-LU blocks (Lobatto, Gauss s = 2)
  check(std::integral_constant<int, 12>{});
}

namespace {
// The double spherical pendulum typed as data (Cartesian, two constraints) from the
// built-in default state.
std::string dspAsData(const std::string& integrator, double h) {
  Simulation builtin = simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.01})");
  const VecX x = builtin.q(), p = builtin.p();
  Json s = {{"system", "lagrangian"}, {"integrator", integrator}, {"h", h}};
  s["params"] = Json::parse(R"({"coordinates":["x1","y1","z1","x2","y2","z2"],"constants":{"g":9.81},
      "lagrangian":"(x1'^2+y1'^2+z1'^2)/2 + (x2'^2+y2'^2+z2'^2)/2 - g*z1 - g*z2",
      "constraints":["x1^2+y1^2+z1^2-1","(x2-x1)^2+(y2-y1)^2+(z2-z1)^2-1"]})");
  s["initial"] = {{"q", std::vector<double>(x.data(), x.data() + 6)},
                  {"qdot", std::vector<double>(p.data(), p.data() + 6)}};
  return s.dump();
}
}  // namespace

TEST_CASE("energy-momentum on a constrained system defined by data keeps the hidden constraint and the physical energy",
          "[energy-momentum][lagrangian]") {
  for (double h : {0.01, 0.05}) {
    Simulation sim = simulate(dspAsData("energy-momentum", h), 1, 1 << 12);
    const auto& problem = std::get<LagrangianModel>(sim.scenario().model).problem;
    LagrangianEval eval(problem);
    const double e0 = sim.diagnostics().energy;
    double hidden = 0, energy = 0, hamiltonian = 0;
    for (int k = 0; k < 2000; ++k) {
      sim.advance(1);
      SmallVec g, v;
      SmallMat G;
      eval.constraints(sim.q().data(), g, &G);
      REQUIRE(eval.velocity(sim.q().data(), sim.p().data(), v));
      hidden = std::max(hidden, SmallVec(G.lazyProduct(v)).cwiseAbs().maxCoeff() / v.cwiseAbs().maxCoeff());
      energy = std::max(energy, std::abs(sim.diagnostics().energy - e0) / e0);
      hamiltonian = std::max(hamiltonian, std::abs(eval.energy(sim.q().data(), sim.p().data()) - e0) / e0);
    }
    std::printf(
        "[energy-momentum] DSP as data, h = %.2f, 2000 steps: |Dg v|/|v| %.1e, physical |dE/E| %.1e, "
        "|H(q, p) - E0|/E0 %.1e\n",
        h, hidden, energy, hamiltonian);
    INFO("h = " << h);
    CHECK(hidden <= 1e-12);
    CHECK(energy <= 1e-12);
    CHECK(hamiltonian <= 1e-12);
  }
}

TEST_CASE("the diagnostics' energy is the physical one: velocity along the links is not counted",
          "[energy-momentum][lagrangian]") {
  // A momentum with a part along the links (the index-3 scheme's nodal momenta have one):
  // H(q, p) counts it, the physical energy does not, for a chain and for the same system
  // typed as data.
  Simulation chain = simulate(dspScenario(0.01));
  const ChainModel& m = std::get<ChainModel>(chain.scenario().model);
  const VecX q = chain.q(), p = chain.p();
  VecX radial = p;
  const Vec3 e1 = chainLink(q.data(), 0).normalized(), e2 = chainLink(q.data(), 1).normalized();
  radial.segment<3>(0) += 0.7 * e1 - 0.4 * e2;
  radial.segment<3>(3) += 0.4 * e2;
  const double tangent = m.energy({q, p}), physical = m.energy({q, radial}), H = m.hamiltonian({q, radial});
  Simulation data = simulate(dspAsData("energy-momentum", 0.01));
  const LagrangianModel& typed = std::get<LagrangianModel>(data.scenario().model);
  // (its potential is zero at z = 0, the chain's at rest: compare each with itself)
  const double dataPhysical = typed.energy({q, radial}), dataTangent = typed.energy({q, p});
  std::printf("[energy-momentum] physical energy %.15g (tangent momentum %.15g, data %.15g), H(q, p) %.15g\n", physical,
              tangent, dataPhysical, H);
  CHECK(std::abs(physical - tangent) <= 1e-13 * tangent);
  CHECK(std::abs(dataPhysical - dataTangent) <= 1e-12 * tangent);
  CHECK(H - tangent > 0.05);  // ½ (0.7² + 0.4²)-ish more, as the negative control
  CHECK(m.radialKinetic(q.data(), p.data()) <= 1e-28);
}
