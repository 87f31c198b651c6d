// Derivatives checked against finite differences, for every model and every Newton
// problem (Pinocchio's practice): the AD Lagrangians and discrete Lagrangians, the
// analytic Jacobians of the chain multiplier solve, the Cayley equation, the rigid
// energy–momentum equations and the Legendre transform, and the gravity moment of the
// heavy top. Plus the models' canonical-state bookkeeping.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "chain_states.hpp"
#include "vilab/integrators/lie_group.hpp"
#include "vilab/integrators/rigid_energy_momentum.hpp"
#include "vilab/integrators/variational.hpp"
#include "vilab/lagrangians/chain.hpp"
#include "vilab/lagrangians/oscillator.hpp"
#include "vilab/lagrangians/rigid_body.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

template <int N>
Vec<double, N> someVector(double offset) {
  Vec<double, N> x;
  for (int i = 0; i < N; ++i) x[i] = 0.3 + 0.17 * i + offset + 0.05 * dm::sin(1.0 + i);
  return x;
}

RigidBodyModel heavyTop() {
  RigidBodyModel m;
  m.inertia = Vec3(1.25, 1.1, 0.5);
  m.heavy = true;
  m.mass = 1.3;
  m.com = Vec3(0.1, -0.05, 0.5);
  m.g = 9.81;
  return m;
}

// ∂L/∂q and ∂L/∂v by AD against finite differences of L, and the generic engine's
// D1 L_d and its Newton block ∂(D1 L_d)/∂q_{k+1} against finite differences of L_d.
template <class System>
void checkLagrangian(const System& s, const Vec<double, System::N>& q, const Vec<double, System::N>& v) {
  constexpr int N = System::N;
  const VecX x = (VecX(2 * N) << q, v).finished();
  const auto L = [&](const VecX& y) {
    return VecX::Constant(1, s.lagrangian(Vec<double, N>(y.head<N>()), Vec<double, N>(y.tail<N>())));
  };
  const Eigen::MatrixXd fd = finiteDifferenceJacobian(L, x, 1e-5);
  Vec<double, N> Lq, Lv;
  gradient<N>(
      [&](const auto& qq) { return s.lagrangian(qq, constant<typename std::decay_t<decltype(qq)>::Scalar, N>(v)); }, q,
      Lq);
  Lv = Mechanics<System>::momentum(s, q, v);
  const double scale = 1 + fd.cwiseAbs().maxCoeff();
  CHECK((fd.leftCols(N).transpose() - Lq).cwiseAbs().maxCoeff() <= 1e-8 * scale);
  CHECK((fd.rightCols(N).transpose() - Lv).cwiseAbs().maxCoeff() <= 1e-8 * scale);

  const double h = 0.01;
  const VariationalIntegrator<System> vi(s, DiscreteRule::midpoint(), h);
  const Vec<double, N> q1 = q + h * v;
  Mat<double, N, N> J;
  const Vec<double, N> d1 = vi.d1(q, q1, &J);
  const Eigen::MatrixXd fdD1 = finiteDifferenceJacobian(
      [&](const VecX& y) {
        return VecX::Constant(1, discreteLagrangian(s, DiscreteRule::midpoint(), h, Vec<double, N>(y), q1));
      },
      q, 1e-6);
  CHECK((fdD1.transpose() - d1).cwiseAbs().maxCoeff() <= 1e-6 * (1 + d1.cwiseAbs().maxCoeff()));
  const Eigen::MatrixXd fdJ =
      finiteDifferenceJacobian([&](const VecX& y) { return VecX(vi.d1(q, Vec<double, N>(y))); }, q1, 1e-6);
  CHECK((fdJ - Eigen::MatrixXd(J)).cwiseAbs().maxCoeff() <= 1e-6 * (1 + J.cwiseAbs().maxCoeff()));
}

}  // namespace

TEST_CASE("AD Lagrangians and discrete Lagrangians of every model agree with finite differences",
          "[models][derivatives]") {
  const ChainModel dsp = chainModel(2);
  SECTION("oscillator") { checkLagrangian(OscillatorSystem{{1.3, 4.0}}, Vec<double, 1>(0.7), Vec<double, 1>(-0.4)); }
  SECTION("chain, multipliers") { checkLagrangian(ChainCartesian<2>{dsp}, someVector<6>(0.1), someVector<6>(-0.9)); }
  SECTION("chain, penalty springs") {
    checkLagrangian(ChainPenalty<2>{ChainCartesian<2>{dsp}, 500.0}, someVector<6>(0.1), someVector<6>(-0.9));
  }
  SECTION("chain, spherical angles") { checkLagrangian(ChainAngles<2>{dsp}, someVector<4>(0.4), someVector<4>(-0.9)); }
  SECTION("rigid body, quaternion") {
    Vec4 q = someVector<4>(0.2);
    q /= q.norm();
    checkLagrangian(RigidBodyQuaternion(heavyTop()), q, someVector<4>(-0.5));
  }
}

TEST_CASE("every Newton problem's Jacobian is the derivative of its residual", "[models][derivatives]") {
  SECTION("generic discrete Euler–Lagrange equations (quaternion rigid body)") {
    const RigidBodyQuaternion s(heavyTop());
    const VariationalIntegrator<RigidBodyQuaternion> vi(s, DiscreteRule::midpoint(), 0.01);
    Vec4 q = someVector<4>(0.2);
    q /= q.norm();
    const Vec4 p = RigidBodyQuaternion::momentumFromBody(q, Vec3(0.3, 1.2, -0.4));
    VariationalIntegrator<RigidBodyQuaternion>::DelProblem problem(vi, q, p);
    const Vec<double, 5> x(0.003, -0.002, 0.004, 0.001, 0.2);
    CHECK(newtonJacobianDefect(problem, x, 1e-7) <= 1e-6);
  }
  SECTION("chain multipliers (tridiagonal), N = 5") {
    const ChainModel m = chainModel(5);
    const State s = chainState(m, 0.6);
    ChainMultiplierIntegrator integrator(m, DiscreteRule::midpoint(), 0.01);
    integrator.begin(s.q, s.p);
    const VecX lambda = (VecX(5) << 0.02, -0.01, 0.03, 0.005, -0.02).finished();
    CHECK(newtonJacobianDefect(integrator, lambda, 1e-7) <= 1e-6);
  }
  SECTION("Cayley equation of the Lie-group integrator") {
    LieGroupStepper::CayleyProblem problem{Vec3(0.02, -0.05, 0.03), Vec3(1.0, 2.0, 3.0), 1.0, {}};
    CHECK(newtonJacobianDefect(problem, Vec3(0.01, -0.012, 0.005), 1e-7) <= 1e-6);
  }
  SECTION("discrete Lie–Poisson equations of the rigid energy–momentum integrator") {
    const RigidEnergyMomentumStepper em(heavyTop(), 0.05);
    RigidEnergyMomentumStepper::Problem problem(em, Vec3(0.3, 1.2, -0.4), Vec3(0.1, 0.2, 0.97).normalized());
    Vec<double, 6> x;
    x << 0.32, 1.18, -0.41, 0.11, 0.19, 0.975;
    CHECK(newtonJacobianDefect(problem, x, 1e-7) <= 1e-6);
  }
  SECTION("Legendre transform of the spherical-angle chart") {
    const ChainAngles<2> s{chainModel(2)};
    const Vec<double, 4> u = someVector<4>(0.4), pu = someVector<4>(-0.3);
    Mechanics<ChainAngles<2>>::LegendreProblem problem{s, u, pu, {}, {}, 1.0};
    CHECK(newtonJacobianDefect(problem, Vec<double, 4>(0.2, -0.1, 0.3, 0.05), 1e-6) <= 1e-6);
  }
}

TEST_CASE("heavy top: the potential is zero at rest and the gravity moment is −∂V along body rotations", "[models]") {
  const RigidBodyModel m = heavyTop();
  // At rest the centre of mass hangs straight below the pivot: Rᵀe₃ = −ρ/|ρ|.
  CHECK(std::abs(m.potential(-m.com / m.com.norm())) <= 1e-15 * m.mass * m.g * m.com.norm());
  Vec4 q = someVector<4>(0.7);
  q /= q.norm();
  const Mat3 R = quat::matrix(q);
  for (int k = 0; k < 3; ++k) {
    const double eps = 1e-6;
    const Vec3 e = Vec3::Unit(k);
    // R ↦ R exp(η̂): the body-frame rotation; Rᵀe₃ ↦ exp(−η̂) Rᵀe₃.
    const auto V = [&](double t) {
      const Mat3 Rt = R * (Mat3::Identity() + t * hat(e) + 0.5 * t * t * hat(e) * hat(e));
      return m.potential(Rt.row(2).transpose());
    };
    const double dV = (V(eps) - V(-eps)) / (2 * eps);
    CHECK(std::abs(-dV - m.gravityMoment(R.row(2).transpose())[k]) <= 1e-7);
  }
}

TEST_CASE("models: canonical bookkeeping (energies, momentum maps, mean kinetic energy)", "[models]") {
  SECTION("chain: energy and J_z from Cartesian positions and momenta") {
    const ChainModel m = chainModel(3);
    const State s = chainState(m, 0.4);
    double T = 0, V = 0, J = 0, depth = 0;
    for (int i = 0; i < 3; ++i) {
      depth += m.lengths[i];
      T += s.p.segment<3>(3 * i).squaredNorm() / (2 * m.masses[i]);
      V += m.masses[i] * m.g * (s.q[3 * i + 2] + depth);
      J += s.q[3 * i] * s.p[3 * i + 1] - s.q[3 * i + 1] * s.p[3 * i];
    }
    const Diagnostics d = m.diagnostics(s);
    CHECK(d.energy == Approx(T + V).epsilon(1e-15));
    CHECK(d.momentum[0] == Approx(J).epsilon(1e-15));
    CHECK(d.constraint <= 1e-15);
    // The mean kinetic energy of a step is T of the mean velocity.
    State later = s;
    later.q += 0.01 * s.p.cwiseQuotient((VecX(9) << VecX::Constant(3, m.masses[0]), VecX::Constant(3, m.masses[1]),
                                         VecX::Constant(3, m.masses[2]))
                                            .finished());
    CHECK(m.meanKineticEnergy(s, later, 0.01) == Approx(T).epsilon(1e-12));
  }
  SECTION("rigid body: a rotation by θ about a body axis has mean angular velocity θ/h") {
    RigidBodyModel m;
    m.inertia = Vec3(1, 2, 3);
    State a{Vec4(1, 0, 0, 0), Vec3::Zero()}, b = a;
    const double theta = 0.3;
    b.q = Vec4(dm::cos(theta / 2), 0, dm::sin(theta / 2), 0);
    CHECK(m.meanKineticEnergy(a, b, 0.1) == Approx(0.5 * 2 * 9).epsilon(1e-12));
    b.q = -b.q;  // the same rotation
    CHECK(m.meanKineticEnergy(a, b, 0.1) == Approx(0.5 * 2 * 9).epsilon(1e-12));
  }
}

TEST_CASE("chain: x/m by a multiplication only where it gives the division's bits", "[models][chain]") {
  // exactInverse(m) is 1/m for a power of two whose inverse is normal, else 0; then
  // overMass(x, m) = x·(1/m) must equal x/m bit for bit, subnormal results included.
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int multiplied = 0;
  for (int e = -1022; e <= 1023; ++e) {
    const double m = std::ldexp(1.0, e);
    const double inverse = vilab::exactInverse(m);
    CHECK(inverse == (e == 1023 ? 0.0 : std::ldexp(1.0, -e)));  // 2^-1023 is not normal
    for (int k = 0; k < 20; ++k) {
      std::uint64_t bits = next();
      double x;
      std::memcpy(&x, &bits, sizeof x);
      if (!std::isfinite(x)) continue;
      const double a = vilab::overMass(x, m, inverse), b = x / m;
      REQUIRE(std::memcmp(&a, &b, sizeof a) == 0);
      multiplied += inverse != 0;
    }
  }
  CHECK(multiplied > 30000);
  for (const double m : {3.0, 0.1, 1.5, 1e6, 0.0, -1.0, -2.0, std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::denorm_min()})
    CHECK(vilab::exactInverse(m) == 0);
}
