// The energy–momentum integrator (Gonzalez; integrators/energy_momentum.hpp) on the
// pendulum family and the chain: energy and J_z to rounding where the variational
// midpoint only bounds the energy, constraints at every node, order 2 against the exact
// pendulum, reversibility, refusal of a step it cannot solve. The rigid-body cases are
// in test_rigid_body.cpp, the symplecticity check (it is not symplectic) in test_engine.cpp.
#include <catch2/catch.hpp>

#include "support.hpp"
#include "vilab/detmath.hpp"
#include "vilab/exact/pendulum.hpp"
#include "vilab/steppers.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {
double maxRelativeDeviation(const std::vector<double>& x) { return maxAbsDeviation(x) / std::abs(x[0]); }
}  // namespace

TEST_CASE("energy-momentum: DSP, 1e6 steps at h = 0.01 keep energy, J_z and constraints to rounding",
          "[energy-momentum][long]") {
  Simulation em = simulate(R"({"system":"double-spherical-pendulum","integrator":"energy-momentum","h":0.01})", 100);
  run(em, 1000000);
  const double energy = maxRelativeDeviation(column(em, "energy"));
  const double jz = maxRelativeDeviation(column(em, "momentum"));
  const double g = maxAbs(column(em, "constraint"));
  // Negative control: the variational midpoint on the same run keeps the energy only
  // within its O(h²) band, far above the bound the energy–momentum scheme meets.
  Simulation mid = simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.01})", 100);
  run(mid, 100000);
  const double midEnergy = maxRelativeDeviation(column(mid, "energy"));
  std::printf("[energy-momentum] DSP 1e6 steps h=0.01: energy %.2e (midpoint %.2e over 1e5), J_z %.2e, |g| %.2e\n",
              energy, midEnergy, jz, g);
  CHECK(energy <= 1e-11);
  CHECK(midEnergy > 1e-7);
  CHECK(jz <= 1e-11);
  CHECK(g <= 1e-13);
}

TEST_CASE("energy-momentum: chain invariants for N = 2, 8 and 64", "[energy-momentum][chain]") {
  for (int n : {2, 8, 64}) {
    Json s = {{"system", "chain"}, {"integrator", "energy-momentum"}, {"h", 0.01}};
    s["params"] = {{"masses", std::vector<double>(n, 0.1)}, {"lengths", std::vector<double>(n, 0.25)}};
    s["initial"] = {{"angles", std::vector<std::vector<double>>(n, {0.6, 0.0})},
                    {"rates", std::vector<std::vector<double>>(n, {0.0, 1.0})}};
    Simulation sim = simulate(s.dump(), 10);
    run(sim, n == 64 ? 20000 : 100000);
    const double energy = maxRelativeDeviation(column(sim, "energy"));
    const double jz = maxRelativeDeviation(column(sim, "momentum"));
    const double g = maxAbs(column(sim, "constraint"));
    std::printf("[energy-momentum] chain N = %2d: energy %.2e, J_z %.2e, |g| %.2e, iterations %g\n", n, energy, jz, g,
                column(sim, "iterations").back());
    INFO("N = " << n);
    CHECK(energy <= 1e-11);
    CHECK(jz <= 1e-11);
    CHECK(g <= 1e-13);
  }
}

TEST_CASE("energy-momentum: order 2 against the exact pendulum (Jacobi sn)", "[energy-momentum][order]") {
  const exact::Pendulum truth(1.0, 1.0, 1.0, 0.0);
  const double T = 10;
  std::vector<double> errors;
  for (double h : {0.02, 0.01, 0.005, 0.0025}) {
    Simulation sim = simulate(R"({"system":"pendulum","integrator":"energy-momentum","h":)" + std::to_string(h) +
                              R"(,"params":{"masses":[1],"lengths":[1],"g":1},"initial":{"angles":[1],"rates":[0]}})");
    run(sim, std::lround(T / h));
    errors.push_back(std::abs(dm::atan2(sim.q()[0], -sim.q()[2]) - truth.theta(T)));
  }
  const auto orders = observedOrders(errors);
  std::printf("[energy-momentum] pendulum θ(10) errors %.2e %.2e %.2e %.2e, orders %.3f %.3f %.3f\n", errors[0],
              errors[1], errors[2], errors[3], orders[0], orders[1], orders[2]);
  for (double order : orders) CHECK(std::abs(order - 2.0) <= 0.1);
}

TEST_CASE("energy-momentum: the scheme is the implicit midpoint rule with the impulse at q̄", "[energy-momentum]") {
  // One step, checked equation by equation (energy_momentum.hpp): q₁ − q₀ = h M⁻¹ p̄,
  // p₁ − p₀ = −h∇V + Dg(q̄)ᵀΛ (so p₁ − p₀ + h∇V is, per link, along d̄_i), g(q₁) = 0.
  const double h = 0.05;
  Simulation sim = simulate(R"({"system":"double-spherical-pendulum","integrator":"energy-momentum","h":0.05,
      "params":{"masses":[1,1.5],"lengths":[1,0.8],"g":9.81},
      "initial":{"angles":[[0.6,0],[0.9,0.4]],"rates":[[0,1.2],[0.5,0.3]]}})");
  ChainModel m;
  m.masses = {1.0, 1.5};
  m.lengths = {1.0, 0.8};
  const VecX q0 = sim.q(), p0 = sim.p();
  sim.advance(1);
  const VecX q1 = sim.q(), p1 = sim.p();
  double kinematic = 0;
  for (int i = 0; i < 6; ++i) kinematic = std::max(kinematic, std::abs(q1[i] - q0[i] - h * 0.5 * (p0[i] + p1[i]) / m.masses[i / 3]));
  CHECK(kinematic <= 1e-15);
  // Bob 1 carries only link 2's impulse, along −d̄₂: the force on it is parallel to d̄₂.
  const Vec3 dBar2 = 0.5 * ((q0.segment<3>(3) - q0.segment<3>(0)) + (q1.segment<3>(3) - q1.segment<3>(0)));
  Vec3 impulse2 = p1.segment<3>(3) - p0.segment<3>(3);
  impulse2[2] += h * m.masses[1] * m.g;
  CHECK(impulse2.cross(dBar2).norm() <= 1e-14 * impulse2.norm() * dBar2.norm());
  CHECK(linkLengthError(m, q1.data()) <= 1e-15);
  // Not a projection method: p₁ is tangent only to O(h²), yet nonzero normal part.
  const Vec3 e1 = q1.segment<3>(0).normalized();
  CHECK(std::abs(e1.dot(p1.segment<3>(0)) / m.masses[0]) > 1e-8);
}

TEST_CASE("energy-momentum: reversible, and setState keeps its non-tangent momenta", "[energy-momentum]") {
  Simulation sim = simulate(R"({"system":"double-spherical-pendulum","integrator":"energy-momentum","h":0.01,
      "initial":{"angles":[[0.3,0],[0.4,0.5]],"rates":[[0,0.4],[0.2,0]]}})");
  const VecX x0 = sim.q();
  run(sim, 10000);
  const VecX p = sim.p();
  sim.setState(sim.q(), -p);
  CHECK(sim.p() == -p);  // taken as given: the scheme's momenta are not tangent at the nodes
  run(sim, 10000);
  const double dq = (sim.q() - x0).cwiseAbs().maxCoeff();
  INFO("|Δq| = " << dq);
  CHECK(dq <= 1e-10);
  // Positions off the manifold are still an error naming the field.
  VecX off = sim.q();
  off[0] += 1e-6;
  CHECK_THROWS_WITH(sim.setState(off, sim.p()), Catch::Contains("q[0]") && Catch::Contains("off the constraint manifold"));
}

TEST_CASE("energy-momentum: an unsolvable step is refused, the state kept", "[energy-momentum][failure]") {
  Simulation sim = simulate(R"({"system":"double-spherical-pendulum","integrator":"energy-momentum","h":0.5})");
  bool failed = false;
  for (int k = 0; k < 1000 && !failed; ++k) {
    const std::string hash = sim.hash();
    const auto step = sim.step();
    try {
      sim.advance(1);
    } catch (const StepFailure& e) {
      failed = true;
      CHECK(e.step() == step + 1);
      CHECK(std::string(e.what()).find("reduce h") != std::string::npos);
      CHECK(sim.hash() == hash);
    }
  }
  CHECK(failed);
}
