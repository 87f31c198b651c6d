// Generalized coordinates, W–M §4.2: the restricted discrete Lagrangian is the
// multiplier method's map, runs through the poles of spherical angles with a chart
// centred on every step, and keeps J_z; the global-chart midpoint rule
// (`angles-midpoint`) is a different map and breaks down at a pole.
#include <catch2/catch.hpp>

#include "support.hpp"
#include "vilab/integrators/generalized.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_generalized {

using namespace vilab;
using namespace vilab::test;

namespace {
const std::string kDsp = R"({"system":"double-spherical-pendulum")";
}

TEST_CASE("generalized: after 100 steps the bobs are where midpoint puts them (≤ 1e-10)", "[generalized]") {
  for (double h : {0.01, 0.005}) {
    const std::string hs = R"(,"h":)" + std::to_string(h);
    Simulation a = simulate(kDsp + R"(,"integrator":"generalized")" + hs + "}", 1000000);
    Simulation b = simulate(kDsp + R"(,"integrator":"midpoint")" + hs + "}", 1000000);
    run(a, 100);
    run(b, 100);
    INFO("h = " << h << ": |Δx| = " << maxDifference(a.q(), b.q()) << ", |Δp| = " << maxDifference(a.p(), b.p()));
    CHECK(maxDifference(a.q(), b.q()) <= 1e-10);
    CHECK(maxDifference(a.p(), b.p()) <= 1e-10);
  }
}

TEST_CASE("generalized: the default DSP runs 1000 s at h = 0.01 and 0.005 — J_z to 1e-11", "[generalized][long]") {
  for (double h : {0.01, 0.005}) {
    Simulation sim = simulate(kDsp + R"(,"integrator":"generalized","h":)" + std::to_string(h) + "}", 100);
    run(sim, std::lround(1000 / h));  // throws on a refused step
    const auto J = column(sim, "momentum");
    const double drift = maxAbsDeviation(J) / std::abs(J[0]);
    const double g = maxAbs(column(sim, "constraint"));
    const double ratio = driftRatio(column(sim, "energy"));
    INFO("h = " << h << ": J_z drift " << drift << ", constraint " << g << ", energy window ratio " << ratio);
    CHECK(drift <= 1e-11);
    CHECK(g <= 1e-13);
    CHECK(ratio <= 1.5);
  }
}

TEST_CASE("angles-midpoint: a different map, refused at the chart's pole where generalized runs on", "[generalized]") {
  // Over 50 steps it differs from midpoint at O(h²): halving h divides the gap by ~4.
  std::vector<double> gaps;
  for (double h : {0.004, 0.002}) {
    const std::string hs = R"(,"h":)" + std::to_string(h);
    Simulation a = simulate(kDsp + R"(,"integrator":"angles-midpoint")" + hs + "}", 1000000);
    Simulation b = simulate(kDsp + R"(,"integrator":"midpoint")" + hs + "}", 1000000);
    run(a, std::lround(0.2 / h));
    run(b, std::lround(0.2 / h));
    gaps.push_back(maxDifference(a.q(), b.q()));
  }
  INFO("gap to midpoint at t = 0.2 s: " << gaps[0] << " (h = 0.004), " << gaps[1] << " (h = 0.002)");
  CHECK(gaps[0] >= 1e-7);
  CHECK(std::abs(std::log2(gaps[0] / gaps[1]) - 2) <= 0.2);

  // The default DSP's first link passes near straight down at t ≈ 0.87 s, where the
  // φ-inertia m l² sin²θ nearly vanishes: the chart's midpoint rule takes a jump in
  // energy there (its energy error is no longer O(h²)), while generalized, which never
  // sits near a pole, keeps its O(h²) band.
  const auto energyError = [&](const std::string& integrator) {
    Simulation sim = simulate(kDsp + R"(,"integrator":")" + integrator + R"("})");
    run(sim, 150);
    const auto E = column(sim, "energy");
    return maxAbsDeviation(E) / E[0];
  };
  const double angles = energyError("angles-midpoint"), generalized = energyError("generalized");
  INFO("max |ΔE/E| over 1.5 s: angles-midpoint " << angles << ", generalized " << generalized);
  CHECK(angles >= 3e-3);
  CHECK(generalized <= 1e-3);
  CHECK(angles >= 5 * generalized);
}

TEST_CASE("angles-midpoint: the gap to midpoint at T = 2 s on the default DSP (docs/methods.md's figure)",
          "[generalized]") {
  Simulation a = simulate(kDsp + R"(,"integrator":"angles-midpoint","h":0.01})", 1000000);
  Simulation b = simulate(kDsp + R"(,"integrator":"midpoint","h":0.01})", 1000000);
  run(a, 200);
  run(b, 200);
  const double gap = maxDifference(a.q(), b.q());
  WARN("angles-midpoint − midpoint at T = 2 s, h = 0.01: max |Δx| = " << gap << " m");
  CHECK(gap >= 0.356);
  CHECK(gap <= 0.358);
}

TEST_CASE("generalized: the chart Newton matrix is the derivative of the chart residual",
          "[generalized][derivatives]") {
  Simulation sim = simulate(kDsp + R"(,"integrator":"midpoint"})", 1000000);
  run(sim, 37);
  const ChainModel& m = std::get<ChainModel>(sim.scenario().model);
  RestrictedChartStepper stepper(m, 0.01);
  RestrictedChartStepper::Chart chart(m);
  for (int i = 0; i < 2; ++i) chart.frame(i, chainLink(sim.q().data(), i));
  const VecX p = sim.p();
  RestrictedChartStepper::Problem problem(stepper, chart, p);
  const VecX u = (VecX(4) << 0.013, -0.021, 0.017, 0.008).finished();
  const double defect = newtonJacobianDefect(problem, u, 1e-7);
  INFO("J⁻¹ J_FD − I: " << defect);
  CHECK(defect <= 1e-6);
}

}  // namespace test_generalized
