// The discrete mechanics engine (issue 3): AD derivatives, orders, conservation,
// symplecticity, reversibility, the three constraint treatments, the chain.
#include <catch2/catch.hpp>

#include <functional>

#include "support.hpp"
#include "vilab/detmath.hpp"
#include "vilab/exact/oscillator.hpp"
#include "vilab/exact/pendulum.hpp"
#include "vilab/steppers.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

ChainModel dspModel() {
  ChainModel m;
  m.masses = {1.0, 1.5};
  m.lengths = {1.0, 0.8};
  m.g = 9.81;
  return m;
}

template <int N>
Vec<double, N> someVector(double offset) {
  Vec<double, N> x;
  for (int i = 0; i < N; ++i) x[i] = 0.3 + 0.17 * i + offset + 0.05 * dm::sin(1.0 + i);
  return x;
}

// Central-difference derivative of a vector function along each input.
template <int N, int M, class F>
Mat<double, M, N> finiteDifferenceJacobian(const F& f, const Vec<double, N>& x, double eps = 1e-6) {
  Mat<double, M, N> J;
  for (int j = 0; j < N; ++j) {
    Vec<double, N> xp = x, xm = x;
    xp[j] += eps;
    xm[j] -= eps;
    J.col(j) = (f(xp) - f(xm)) / (2 * eps);
  }
  return J;
}

// Spherical angles of the links of a Cartesian chain state.
Vec<double, 4> anglesOf(const VecX& x) {
  Vec<double, 4> u;
  Vec3 prev = Vec3::Zero();
  for (int i = 0; i < 2; ++i) {
    const Vec3 d = x.segment<3>(3 * i) - prev;
    prev = x.segment<3>(3 * i);
    u[2 * i] = dm::atan2(dm::hypot(d[0], d[1]), -d[2]);
    u[2 * i + 1] = dm::atan2(d[1], d[0]);
  }
  return u;
}

// ∂X/∂u of the DSP position map, by AD.
Mat<double, 6, 4> positionJacobian(const ChainAngles<2>& s, const Vec<double, 4>& u) {
  Mat<double, 6, 4> J;
  jacobian<4, 6>(
      [&](const auto& uu) {
        using S = typename std::decay_t<decltype(uu)>::Scalar;
        Vec<S, 6> x, v;
        s.cartesian(uu, Vec<S, 4>::Constant(S(0.0)).eval(), x, v);
        return x;
      },
      u, J);
  return J;
}

Vec<double, 6> positionsOf(const ChainAngles<2>& s, const Vec<double, 4>& u) {
  Vec<double, 6> x, v;
  s.cartesian(u, Vec<double, 4>::Zero().eval(), x, v);
  return x;
}

// ‖JᵀΩJ − Ω‖_max for a map of canonical coordinates z = (u, p_u) ∈ R⁸.
double symplecticDefect(const std::function<Vec<double, 8>(const Vec<double, 8>&)>& map, const Vec<double, 8>& z) {
  const Mat<double, 8, 8> J = finiteDifferenceJacobian<8, 8>(map, z, 1e-6);
  Mat<double, 8, 8> Omega = Mat<double, 8, 8>::Zero();
  Omega.topRightCorner<4, 4>().setIdentity();
  Omega.bottomLeftCorner<4, 4>() = -Mat<double, 4, 4>::Identity();
  return (J.transpose() * Omega * J - Omega).cwiseAbs().maxCoeff();
}

}  // namespace

// ---------------------------------------------------------------------------------
TEST_CASE("AD: gradients and mixed second derivatives agree with finite differences", "[engine][ad]") {
  const ChainAngles<2> angles{dspModel()};
  const ChainPenalty<2> penalty{ChainCartesian<2>{dspModel()}, 500.0};
  const double h = 0.01;

  SECTION("generalized-coordinate DSP Lagrangian") {
    const Vec<double, 4> u = someVector<4>(0.4), du = someVector<4>(-0.9);
    const auto cd = crossDerivatives<4>(
        [&](const auto& q, const auto& v) { return angles.lagrangian(q, v); }, u, du);
    // ∂L/∂q by finite differences, and ∂(∂L/∂q)/∂v by finite differences of AD gradients.
    const auto Lq = [&](const Vec<double, 4>& q) {
      Vec<double, 4> g;
      gradient<4>([&](const auto& qq) { return angles.lagrangian(qq, constant<typename std::decay_t<decltype(qq)>::Scalar, 4>(du)); }, q, g);
      return g;
    };
    const Mat<double, 1, 4> fd =
        finiteDifferenceJacobian<4, 1>([&](const Vec<double, 4>& q) { return Vec<double, 1>(angles.lagrangian(q, du)); }, u);
    CHECK((cd.gradX.transpose() - fd).cwiseAbs().maxCoeff() <= 1e-8);
    const Mat<double, 4, 4> fdMixed = finiteDifferenceJacobian<4, 4>(
        [&](const Vec<double, 4>& v) {
          Vec<double, 4> g;
          gradient<4>([&](const auto& qq) { return angles.lagrangian(qq, constant<typename std::decay_t<decltype(qq)>::Scalar, 4>(v)); }, u, g);
          return g;
        },
        du);
    CHECK((cd.jacGradXY - fdMixed).cwiseAbs().maxCoeff() <= 1e-7);
    CHECK((Lq(u) - cd.gradX).cwiseAbs().maxCoeff() <= 1e-14);
  }

  SECTION("D1 L_d and its Newton matrix for the penalty DSP") {
    const VariationalIntegrator<ChainPenalty<2>> vi(penalty, DiscreteRule::midpoint(), h);
    const Vec<double, 6> q0 = someVector<6>(0.1), q1 = q0 + 0.01 * someVector<6>(-0.2);
    Mat<double, 6, 6> J;
    const Vec<double, 6> d1 = vi.d1(q0, q1, &J);
    const Mat<double, 1, 6> fd = finiteDifferenceJacobian<6, 1>(
        [&](const Vec<double, 6>& x) {
          return Vec<double, 1>(discreteLagrangian(penalty, DiscreteRule::midpoint(), h, x, q1));
        },
        q0, 1e-7);
    CHECK((d1.transpose() - fd).cwiseAbs().maxCoeff() <= 1e-6 * (1 + d1.cwiseAbs().maxCoeff()));
    const Mat<double, 6, 6> fdJ =
        finiteDifferenceJacobian<6, 6>([&](const Vec<double, 6>& x) { return vi.d1(q0, x); }, q1, 1e-7);
    CHECK((J - fdJ).cwiseAbs().maxCoeff() <= 1e-5 * (1 + J.cwiseAbs().maxCoeff()));
  }
}

// ---------------------------------------------------------------------------------
TEST_CASE("order: midpoint is 2 and α = 1/4 is 1 against the exact oscillator and pendulum", "[engine][order]") {
  const auto orders = [](const std::string& system, const std::string& integrator, const std::string& extra,
                         const std::function<double(const Simulation&)>& error, double h0) {
    std::vector<double> errors;
    for (double h = h0; h > h0 / 9; h /= 2) {
      Simulation sim = simulate(R"({"system":")" + system + R"(","integrator":")" + integrator + R"(","h":)" +
                                std::to_string(h) + extra + "}");
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

  for (const char* integrator : {"midpoint", "trapezoid"}) {
    for (double order : orders("oscillator", integrator, oscData, oscError, 0.04)) {
      INFO(integrator << " oscillator order " << order);
      CHECK(std::abs(order - 2) <= 0.1);
    }
  }
  for (double order : orders("pendulum", "midpoint", pendData, pendError, 0.04)) {
    INFO("pendulum order " << order);
    CHECK(std::abs(order - 2) <= 0.1);
  }
  for (double order : orders("pendulum", "generalized", pendData, [&](const Simulation& s) {
         return std::abs(s.q()[0] - pend.theta(10.0));
       }, 0.04)) {
    INFO("generalized pendulum order " << order);
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

// ---------------------------------------------------------------------------------
TEST_CASE("DSP, 1e6 midpoint steps at h = 0.01: constraints, J_z, no energy drift; RK4 drifts",
          "[engine][dsp][long]") {
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

  // RK4 on the same scenario: its energy drifts until, here, the index-1 form
  // breaks down (links far off their lengths) and a step is refused.
  Simulation rk4 = simulate(R"({"system":"double-spherical-pendulum","integrator":"rk4","h":0.01})", 100);
  try {
    run(rk4, 1000000);
  } catch (const StepFailure& e) {
    INFO("rk4 stopped: " << e.what());
  }
  const double rk4Ratio = driftRatio(column(rk4, "energy"));
  INFO("rk4 energy window ratio " << rk4Ratio << ", rk4 constraint " << maxAbs(column(rk4, "constraint")));
  CHECK(rk4Ratio > 1.5);
  CHECK(maxAbs(column(rk4, "constraint")) > 1e-9);
}

// ---------------------------------------------------------------------------------
TEST_CASE("symplecticity: the one-step map preserves the canonical form; RK4 does not", "[engine][symplectic]") {
  const ChainModel m = dspModel();
  const ChainAngles<2> angles{m};
  const double h = 0.05;
  Vec<double, 8> z0;
  z0 << 1.1, 0.4, 1.9, 1.2, 0.3, 0.5, -0.2, 0.25;

  // Lift (u, p_u) to Cartesian (x, p) with p = M ẋ, ẋ = X'(u) u̇, u̇ = (X'ᵀMX')⁻¹ p_u.
  const auto lift = [&](const Vec<double, 8>& z, VecX& x, VecX& v) {
    const Vec<double, 4> u = z.head<4>(), pu = z.tail<4>();
    const Mat<double, 6, 4> Xu = positionJacobian(angles, u);
    Mat<double, 6, 6> M = Mat<double, 6, 6>::Zero();
    for (int i = 0; i < 6; ++i) M(i, i) = m.masses[i / 3];
    const Vec<double, 4> du = (Xu.transpose() * M * Xu).ldlt().solve(pu);
    x = positionsOf(angles, u);
    v = Xu * du;
  };
  const auto lower = [&](const VecX& x, const VecX& p) {
    const Vec<double, 4> u = anglesOf(x);
    Vec<double, 8> z;
    z << u, positionJacobian(angles, u).transpose() * Vec<double, 6>(p);
    return z;
  };

  SECTION("midpoint with multipliers, in local canonical coordinates on T*Q") {
    const auto map = [&](const Vec<double, 8>& z) {
      VecX x, v;
      lift(z, x, v);
      ChainMultiplierStepper stepper(m, DiscreteRule::midpoint(), h, x, v);
      REQUIRE(stepper.step().ok);
      return lower(stepper.q(), stepper.p());
    };
    const double defect = symplecticDefect(map, z0);
    INFO("midpoint defect " << defect);
    CHECK(defect <= 1e-7);
  }
  SECTION("midpoint in generalized coordinates") {
    const VariationalIntegrator<ChainAngles<2>> vi(angles, DiscreteRule::midpoint(), h);
    const auto map = [&](const Vec<double, 8>& z) {
      Vec<double, 4> q = z.head<4>(), p = z.tail<4>();
      REQUIRE(vi.step(q, p).ok);
      Vec<double, 8> out;
      out << q, p;
      return out;
    };
    const double defect = symplecticDefect(map, z0);
    INFO("generalized defect " << defect);
    CHECK(defect <= 1e-7);
  }
  SECTION("energy-momentum conserves energy but is not symplectic") {
    const auto map = [&](const Vec<double, 8>& z) {
      VecX x, v;
      lift(z, x, v);
      ChainEnergyMomentumStepper stepper(m, h, x, v);
      REQUIRE(stepper.step().ok);
      return lower(stepper.q(), stepper.p());
    };
    const double defect = symplecticDefect(map, z0);
    INFO("energy-momentum defect " << defect);
    CHECK(defect > 1e-7);
  }
  SECTION("negative control: RK4 (index-1 form)") {
    const auto map = [&](const Vec<double, 8>& z) {
      VecX x, v;
      lift(z, x, v);
      ChainOdeStepper stepper(m, RungeKuttaMethod::RK4, h, x, v);
      REQUIRE(stepper.step().ok);
      return lower(stepper.q(), stepper.p());
    };
    const double defect = symplecticDefect(map, z0);
    INFO("rk4 defect " << defect);
    CHECK(defect > 1e-7);
  }
}

// ---------------------------------------------------------------------------------
TEST_CASE("reversibility: 1e4 steps, flip momenta, 1e4 steps returns to the start", "[engine][reversible]") {
  for (const char* scenario :
       {R"({"system":"spherical-pendulum","integrator":"midpoint","h":0.01})",
        R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.01,
            "initial":{"angles":[[0.3,0],[0.4,0.5]],"rates":[[0,0.4],[0.2,0]]}})",
        R"({"system":"double-spherical-pendulum","integrator":"generalized","h":0.01,
            "initial":{"angles":[[0.3,0],[0.35,0.1]],"rates":[[0.1,3.0],[0,3.2]]}})",
        R"({"system":"oscillator","integrator":"midpoint","h":0.1})"}) {
    Simulation sim = simulate(scenario);
    std::vector<double> x0, x1;  // compare positions: angles are kept modulo 2π
    sim.visualState(x0);
    run(sim, 10000);
    sim.setState(sim.q(), -sim.p());
    run(sim, 10000);
    sim.visualState(x1);
    double dq = 0;
    for (std::size_t i = 0; i < x0.size(); ++i) dq = std::max(dq, std::abs(x1[i] - x0[i]));
    INFO(scenario << "\n|Δq| = " << dq);
    CHECK(dq <= 1e-10);
  }
}

// ---------------------------------------------------------------------------------
TEST_CASE("penalty: the constraint violation falls as the stiffness μ grows", "[engine][penalty]") {
  std::vector<double> violation;
  for (double mu : {1e2, 1e3, 1e4, 1e5}) {
    Simulation sim = simulate(R"({"system":"double-spherical-pendulum","integrator":"penalty","h":0.0005,
                                  "options":{"mu":)" + std::to_string(mu) + "}}");
    run(sim, 4000);
    violation.push_back(maxAbs(column(sim, "constraint")));
    // Variational: J_z exact, energy (with the springs) bounded.
    const auto J = column(sim, "momentum");
    CHECK(maxAbsDeviation(J) / std::abs(J[0]) <= 1e-11);
  }
  INFO("max link error at μ = 1e2..1e5: " << violation[0] << " " << violation[1] << " " << violation[2] << " "
                                          << violation[3]);
  for (std::size_t i = 1; i < violation.size(); ++i) CHECK(violation[i] < violation[i - 1] / 5);
}

// ---------------------------------------------------------------------------------
TEST_CASE("chain: invariants hold for N = 2, 8 and 64", "[engine][chain][long]") {
  for (int n : {2, 8, 64}) {
    Json s = {{"system", "chain"}, {"h", 0.01}};
    s["params"] = {{"masses", std::vector<double>(n, 0.1)}, {"lengths", std::vector<double>(n, 0.25)}};
    // Links tilted 0.6 rad, every link swinging around the vertical (J_z well away
    // from 0). The energy-error amplitude of a long chain depends on how much energy
    // sits in short-wavelength modes; from this start it is stationary from the
    // beginning, so the first and last windows compare like with like. (Started
    // closer to the vertical, the amplitude grows for the first ~1000 s as the
    // motion develops: a change of regime, not a drift.)
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

// ---------------------------------------------------------------------------------
TEST_CASE("structure: the O(N) multiplier path is the same map as the generic AD engine", "[engine][structure]") {
  // One step of each from the same states along a trajectory: the maps agree to
  // rounding. (Over many steps the chaos of the DSP would amplify the rounding
  // differences of the two solvers, which says nothing about the maps.)
  const ChainModel m = dspModel();
  Simulation traj = simulate(R"({"system":"double-spherical-pendulum",
      "params":{"masses":[1,1.5],"lengths":[1,0.8]},"initial":{"angles":[[1.1,0.2],[1.7,1.0]],"rates":[[0.3,1],[0,-0.6]]}})");
  const VariationalIntegrator<ChainCartesian<2>> generic(ChainCartesian<2>{m}, DiscreteRule::midpoint(), 0.01);
  double worstQ = 0, worstP = 0;
  for (int k = 0; k < 1000; ++k) {
    VecX v = traj.p();
    for (int i = 0; i < 6; ++i) v[i] /= m.masses[i / 3];
    ChainMultiplierStepper fast(m, DiscreteRule::midpoint(), 0.01, traj.q(), v);
    Vec<double, 6> q = fast.q(), p = fast.p();
    REQUIRE(fast.step().ok);
    REQUIRE(generic.step(q, p).ok);
    worstQ = std::max(worstQ, (fast.q() - VecX(q)).cwiseAbs().maxCoeff());
    worstP = std::max(worstP, (fast.p() - VecX(p)).cwiseAbs().maxCoeff() / (1 + p.cwiseAbs().maxCoeff()));
    traj.advance(10);
  }
  INFO("max one-step difference: q " << worstQ << ", p (relative) " << worstP);
  CHECK(worstQ <= 1e-14);
  CHECK(worstP <= 1e-13);
}

// ---------------------------------------------------------------------------------
TEST_CASE("Newton failure refuses the step and keeps the last good state", "[engine][failure]") {
  for (const char* scenario : {R"({"system":"double-spherical-pendulum","h":0.2})",
                               R"({"system":"double-spherical-pendulum","integrator":"generalized","h":0.01})"}) {
    Simulation sim = simulate(scenario);
    std::string before;
    std::uint64_t stepBefore = 0;
    bool failed = false;
    for (int k = 0; k < 100000 && !failed; ++k) {
      before = sim.hash();
      stepBefore = sim.step();
      try {
        sim.advance(1);
      } catch (const StepFailure& e) {
        failed = true;
        CHECK(e.step() == stepBefore + 1);
        CHECK(std::string(e.what()).find("reduce h") != std::string::npos);
      }
    }
    INFO(scenario);
    REQUIRE(failed);
    CHECK(sim.hash() == before);
    CHECK(sim.step() == stepBefore);
  }
}

// ---------------------------------------------------------------------------------
TEST_CASE("discrete Noether: J_z is conserved by every variational treatment of the DSP", "[engine][noether]") {
  for (const char* integrator : {"midpoint", "trapezoid", "alpha", "generalized"}) {
    Simulation sim = simulate(R"({"system":"double-spherical-pendulum","integrator":")" + std::string(integrator) +
                                  R"(","h":0.005,"initial":{"angles":[[1.0,0],[1.3,0.7]],"rates":[[0,1.8],[0.3,1.5]]}})",
                              10);
    run(sim, 100000);
    const auto J = column(sim, "momentum");
    const double drift = maxAbsDeviation(J) / std::abs(J[0]);
    INFO(integrator << " J_z drift " << drift);
    CHECK(drift <= 1e-11);
  }
  // RK4 does not conserve it (negative control).
  Simulation rk4 = simulate(R"({"system":"double-spherical-pendulum","integrator":"rk4","h":0.005,
                                "initial":{"angles":[[1.0,0],[1.3,0.7]],"rates":[[0,1.8],[0.3,1.5]]}})");
  run(rk4, 20000);
  const auto J = column(rk4, "momentum");
  CHECK(maxAbsDeviation(J) / std::abs(J[0]) > 1e-10);
}
