// The variational integrators: orders against exact solutions, long-run invariants
// with the fair RK4 as negative control, the identities the registry claims
// (trapezoid = Verlet = SHAKE/RATTLE, the O(N) chain path = the generic engine, the
// adjoint of α is 1 − α), penalty convergence in 1/μ, discrete Noether.
#include <catch2/catch.hpp>
#include <functional>

#include "chain_states.hpp"
#include "vilab/exact/oscillator.hpp"
#include "vilab/exact/pendulum.hpp"
#include "vilab/integrators/variational.hpp"
#include "vilab/lagrangians/chain.hpp"
#include "vilab/lagrangians/oscillator.hpp"

using namespace vilab;
using namespace vilab::test;

TEST_CASE("order: midpoint 2, α = 1/4 order 1, against the exact oscillator and pendulum (Jacobi sn)",
          "[variational][order]") {
  const auto orders = [](const std::string& system, const std::string& integrator, const std::string& extra,
                         const std::function<double(const Simulation&)>& error, double h0) {
    std::vector<double> errors;
    for (double h = h0; h > h0 / 9; h /= 2) {
      Simulation sim = simulate(R"({"system":")" + system + R"(","integrator":")" + integrator + R"(","h":)" +
                                    std::to_string(h) + extra + "}",
                                1000000);
      run(sim, std::lround(10.0 / h));
      errors.push_back(error(sim));
    }
    return observedOrders(errors);
  };
  const exact::Oscillator osc(1.0, 4.0, 1.0, 0.5);
  const auto oscError = [&](const Simulation& s) { return std::abs(s.q()[0] - osc.position(10.0)); };
  const std::string oscData = R"(,"params":{"mass":1,"stiffness":4},"initial":{"position":1,"velocity":0.5})";
  const exact::Pendulum pend(1.0, 1.0, 1.2, 0.0);
  const auto pendError = [&](const Simulation& s) {
    return std::abs(dm::atan2(s.q()[0], -s.q()[2]) - pend.theta(10.0));
  };
  const std::string pendData = R"(,"params":{"masses":[1],"lengths":[1],"g":1},"initial":{"angles":[1.2]})";

  for (const char* integrator : {"midpoint", "trapezoid"})
    for (double order : orders("oscillator", integrator, oscData, oscError, 0.04)) {
      INFO(integrator << " oscillator order " << order);
      CHECK(std::abs(order - 2) <= 0.1);
    }
  for (const char* integrator : {"midpoint", "generalized", "angles-midpoint", "energy-momentum"})
    for (double order : orders("pendulum", integrator, pendData, pendError, 0.04)) {
      INFO(integrator << " pendulum order " << order);
      CHECK(std::abs(order - 2) <= 0.1);
    }
  for (double order : orders("oscillator", "alpha", oscData + R"(,"options":{"alpha":0.25})", oscError, 0.01)) {
    INFO("alpha oscillator order " << order);
    CHECK(std::abs(order - 1) <= 0.1);
  }
  for (double order : orders("pendulum", "alpha", pendData + R"(,"options":{"alpha":0.25})", pendError, 0.01)) {
    INFO("alpha pendulum order " << order);
    CHECK(std::abs(order - 1) <= 0.1);
  }
}

TEST_CASE("DSP, 1e6 midpoint steps at h = 0.01: constraints, J_z, no energy drift — the fair RK4 drifts",
          "[variational][dsp][long]") {
  Simulation mid = simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.01})", 100);
  run(mid, 1000000);
  const auto J = column(mid, "momentum");
  const double jDrift = maxAbsDeviation(J) / std::abs(J[0]);
  const double gMax = maxAbs(column(mid, "constraint"));
  const double ratio = driftRatio(column(mid, "energy"));
  INFO("constraint " << gMax << ", J_z drift " << jDrift << ", energy window ratio " << ratio);
  CHECK(gMax <= 1e-13);
  CHECK(jDrift <= 1e-11);
  CHECK(ratio <= 1.5);

  // Negative control: RK4 with positions and velocities projected onto the manifold
  // after every step keeps the links (and runs all the way), but its energy drifts.
  Simulation rk4 = simulate(R"({"system":"double-spherical-pendulum","integrator":"rk4","h":0.01})", 100);
  run(rk4, 100000);
  const double rk4Ratio = driftRatio(column(rk4, "energy"));
  INFO("rk4 energy window ratio " << rk4Ratio << ", constraint " << maxAbs(column(rk4, "constraint")));
  CHECK(rk4Ratio >= 3);
  CHECK(maxAbs(column(rk4, "constraint")) <= 1e-12);
}

TEST_CASE("chain: invariants hold for N = 2, 8 and 64", "[variational][chain][long]") {
  for (int n : {2, 8, 64}) {
    Json s = {{"system", "chain"}, {"h", 0.01}};
    s["params"] = {{"masses", std::vector<double>(n, 0.1)}, {"lengths", std::vector<double>(n, 0.25)}};
    // Links tilted 0.6 rad, every link swinging around the vertical (J_z well away
    // from 0). From this start the energy-error amplitude is stationary from the
    // beginning, so the first and last windows compare like with like.
    s["initial"] = {{"angles", std::vector<std::vector<double>>(n, {0.6, 0.0})},
                    {"rates", std::vector<std::vector<double>>(n, {0.0, 1.0})}};
    Simulation sim = simulate(s.dump(), 10);
    run(sim, n == 64 ? 200000 : 100000);
    const auto J = column(sim, "momentum");
    const double g = maxAbs(column(sim, "constraint"));
    const double drift = maxAbsDeviation(J) / std::abs(J[0]);
    const double ratio = driftRatio(column(sim, "energy"));
    INFO("N = " << n << ": constraint " << g << ", J_z drift " << drift << ", energy ratio " << ratio);
    CHECK(g <= 1e-13);
    CHECK(drift <= 1e-11);
    CHECK(ratio <= 1.5);
  }
}

TEST_CASE("trapezoid is Störmer–Verlet on the oscillator and SHAKE/RATTLE on the DSP", "[variational][identity]") {
  SECTION("oscillator: the trapezoid DEL is Verlet, step by step") {
    const double m = 1.3, k = 4.0, h = 0.1;
    const VariationalIntegrator<OscillatorSystem> vi(OscillatorSystem{{m, k}}, DiscreteRule::trapezoid(), h);
    Vec<double, 1> q(1.0), p(0.4);
    double x = 1.0, v = 0.4 / m, worst = 0;
    for (int n = 0; n < 1000; ++n) {
      REQUIRE(vi.step(q, p).ok);
      // Störmer–Verlet (velocity form): v½ = v − (h/2) k x/m, x' = x + h v½, v' = v½ − (h/2) k x'/m.
      const double vHalf = v - 0.5 * h * k * x / m;
      x += h * vHalf;
      v = vHalf - 0.5 * h * k * x / m;
      worst = std::max({worst, std::abs(q[0] - x), std::abs(p[0] / m - v)});
      q[0] = x;  // compare single steps: restart both from the same state
      p[0] = m * v;
    }
    INFO("max one-step difference " << worst);
    CHECK(worst <= 1e-14);
  }
  SECTION("DSP: trapezoid (with the tangent momentum) is RATTLE, step by step") {
    const ChainModel m = chainModel(2);
    const double h = 0.01;
    double worst = 0;
    for (double phase = 0; phase < 6; phase += 0.3) {
      const State s = chainState(m, phase);
      const State a = fastStep(m, DiscreteRule::trapezoid(), h, s);
      // RATTLE (Andersen 1983; Hairer–Lubich–Wanner VII.1): with f = −∇V,
      //   p½ = p − (h/2)(∇V − Dg(q)ᵀλ),  q' = q + h M⁻¹ p½,  g(q') = 0,
      //   p' = p½ − (h/2)(∇V − Dg(q')ᵀμ),  Dg(q') M⁻¹ p' = 0.
      // Solved densely here (Newton on λ, a linear solve for μ), independently of vilab.
      const int n = 2;
      Eigen::VectorXd gradV(6), minv(6);
      for (int i = 0; i < n; ++i) {
        gradV.segment<3>(3 * i) = Vec3(0, 0, m.masses[i] * m.g);
        minv.segment<3>(3 * i).setConstant(1.0 / m.masses[i]);
      }
      const auto Dg = [&](const VecX& q) {
        Eigen::MatrixXd G = Eigen::MatrixXd::Zero(n, 6);
        for (int i = 0; i < n; ++i) {
          const Vec3 d = chainLink(q.data(), i) / m.lengths[i];
          G.block<1, 3>(i, 3 * i) = d.transpose();
          if (i > 0) G.block<1, 3>(i, 3 * i - 3) = -d.transpose();
        }
        return G;
      };
      const auto g = [&](const VecX& q) {
        VecX r(n);
        for (int i = 0; i < n; ++i) {
          const Vec3 d = chainLink(q.data(), i);
          r[i] = (d.squaredNorm() - m.lengths[i] * m.lengths[i]) / (2 * m.lengths[i]);
        }
        return r;
      };
      const Eigen::MatrixXd G0 = Dg(s.q);
      VecX lambda = VecX::Zero(n), q1;
      for (int it = 0; it < 30; ++it) {
        const VecX pHalf = s.p - 0.5 * h * (gradV - G0.transpose() * lambda);
        q1 = s.q + h * minv.cwiseProduct(pHalf);
        const Eigen::MatrixXd J = Dg(q1) * (0.5 * h * h) * minv.asDiagonal() * G0.transpose();
        lambda -= J.fullPivLu().solve(g(q1));
      }
      const VecX pHalf = s.p - 0.5 * h * (gradV - G0.transpose() * lambda);
      q1 = s.q + h * minv.cwiseProduct(pHalf);
      const Eigen::MatrixXd G1 = Dg(q1);
      const VecX pPre = pHalf - 0.5 * h * gradV;
      const VecX mu = (G1 * minv.asDiagonal() * G1.transpose()).ldlt().solve(-G1 * minv.cwiseProduct(pPre));
      const VecX p1 = pPre + G1.transpose() * mu;
      worst = std::max({worst, maxDifference(a.q, q1), maxDifference(a.p, p1)});
    }
    INFO("max one-step difference to RATTLE " << worst);
    CHECK(worst <= 1e-14);
  }
}

TEST_CASE("the adjoint of the α rule is the 1 − α rule: Φ*_{1−α, −h} ∘ Φ_{α, h} = id", "[variational][adjoint]") {
  const ChainModel m = chainModel(2);
  for (double alpha : {0.0, 0.25, 0.7}) {
    for (double phase : {0.3, 1.9}) {
      const State s = chainState(m, phase);
      // Forward with α and h, back with 1 − α and −h (W–M: the adjoint of L_d(q0, q1; h)
      // is −L_d(q1, q0; −h), which for the α rule is the 1 − α rule).
      const State a = fastStep(m, DiscreteRule::alphaFamily(alpha), 0.01, s);
      const State b = fastStep(m, DiscreteRule::alphaFamily(1 - alpha), -0.01, a);
      const State c = fastStep(m, DiscreteRule::alphaFamily(alpha), -0.01, a);  // not the adjoint (α ≠ ½)
      INFO("α = " << alpha << ": |Δq| " << maxDifference(b.q, s.q) << ", |Δp| " << maxDifference(b.p, s.p)
                  << "; with α itself: |Δq| " << maxDifference(c.q, s.q));
      CHECK(maxDifference(b.q, s.q) <= 1e-14);
      CHECK(maxDifference(b.p, s.p) <= 1e-13);
      CHECK(maxDifference(c.q, s.q) >= 1e-6);
    }
  }
}

TEST_CASE("penalty: the trajectory converges to the constrained one at rate 1 in 1/μ", "[variational][penalty]") {
  // Positions after 1 s from the same start, h = 1e-4 (the springs resolved), against
  // the multiplier midpoint rule with the same h: the difference is the O(1/μ)
  // stretching of the links, and what it does to the motion.
  const std::string base = R"({"system":"double-spherical-pendulum","h":0.0001)";
  Simulation constrained = simulate(base + R"(,"integrator":"midpoint"})", 1000000);
  run(constrained, 10000);
  std::vector<double> errors;
  for (double mu : {1e3, 1e4, 1e5}) {
    Simulation pen =
        simulate(base + R"(,"integrator":"penalty","options":{"mu":)" + std::to_string(mu) + "}}", 1000000);
    run(pen, 10000);
    errors.push_back(maxDifference(pen.q(), constrained.q()));
  }
  const double rate1 = std::log10(errors[0] / errors[1]), rate2 = std::log10(errors[1] / errors[2]);
  INFO("position errors at μ = 1e3, 1e4, 1e5: " << errors[0] << " " << errors[1] << " " << errors[2] << "; rates "
                                                << rate1 << " " << rate2);
  CHECK(std::abs(rate1 - 1) <= 0.1);
  CHECK(std::abs(rate2 - 1) <= 0.1);
}

TEST_CASE("discrete Noether: J_z is conserved by every variational treatment of the DSP", "[variational][noether]") {
  const std::string start = R"(,"h":0.005,"initial":{"angles":[[1.0,0],[1.3,0.7]],"rates":[[0,1.8],[0.3,1.5]]}})";
  for (const char* integrator : {"midpoint", "trapezoid", "alpha", "generalized", "penalty"}) {
    Simulation sim = simulate(
        R"({"system":"double-spherical-pendulum","integrator":")" + std::string(integrator) + "\"" + start, 10);
    run(sim, 100000);
    const auto J = column(sim, "momentum");
    const double drift = maxAbsDeviation(J) / std::abs(J[0]);
    INFO(integrator << " J_z drift " << drift);
    CHECK(drift <= 1e-11);
  }
  // Negative control: the fair RK4 does not conserve it.
  Simulation rk4 = simulate(R"({"system":"double-spherical-pendulum","integrator":"rk4")" + start);
  run(rk4, 20000);
  const auto J = column(rk4, "momentum");
  CHECK(maxAbsDeviation(J) / std::abs(J[0]) > 1e-10);
}
