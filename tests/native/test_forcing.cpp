// Forcing and damping on the built-in systems: the discrete Lagrange–d'Alembert
// principle (M–W §3.2) in the generic DEL (oscillator), the O(N) chain multiplier
// integrator and the Lie-group integrator of the rigid body, the forced ODEs of the
// baselines, and the exact damped oscillator. Orders against exact or converged
// solutions, the forced discrete Noether theorems, bit-for-bit agreement of the forced
// arithmetic with the unforced one when the forces vanish.
//
// The integrators are built directly (the registry's `forces` flags are not set here).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "support.hpp"
#include "vilab/exact/oscillator.hpp"
#include "vilab/integrators/chain_multiplier.hpp"
#include "vilab/integrators/lie_group.hpp"
#include "vilab/integrators/runge_kutta.hpp"
#include "vilab/integrators/variational.hpp"
#include "vilab/lagrangians/oscillator.hpp"
#include "vilab/registry.hpp"
#include "vilab/scenario.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_forcing {

using namespace vilab;

namespace {

// A built-in system's model from `params` through its ParamSpecs (as the scenario
// parser reads them), and its initial state from `initial` (defaults when empty).
struct Built {
  Model model;
  State initial;
};
Built buildSystem(const std::string& id, const Json& params, Json initial = Json::object()) {
  const SystemEntry* system = findSystem(id);
  REQUIRE(system != nullptr);
  ParamValues values;
  for (const auto& spec : system->params)
    values.set(spec.name, spec.read(params.contains(spec.name) ? params[spec.name] : Json(), "params." + spec.name));
  Built b{system->build(values), {}};
  b.initial = system->initialState(b.model, initial);
  return b;
}

// Least-squares slope of log e against log h.
double logLogSlope(const std::vector<double>& h, const std::vector<double>& e) {
  const double n = static_cast<double>(h.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(e[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

bool sameBits(const VecX& a, const VecX& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

// ---- the damped oscillator m x'' + c x' + k x = 0: m = 1, k = 4, c = 0.4 (ζ = 0.1) ----
constexpr double kMass = 1, kStiffness = 4, kDamping = 0.4, kX0 = 1, kV0 = 0.5, kT = 5;

OscillatorModel dampedOscillator() {
  const Built b = buildSystem("oscillator", Json{{"mass", kMass}, {"stiffness", kStiffness}, {"damping", kDamping}});
  return std::get<OscillatorModel>(b.model);
}

// max(|x − x(T)|, |p − m x'(T)|) after T/h steps of `integrator` from (x0, m v0).
double oscillatorError(Integrator& integrator, double h) {
  const exact::DampedOscillator truth(kMass, kStiffness, kDamping, kX0, kV0);
  State s{VecX::Constant(1, kX0), VecX::Constant(1, kMass * kV0)};
  integrator.load(s);
  const long steps = std::lround(kT / h);
  for (long k = 0; k < steps; ++k) REQUIRE(integrator.step().ok);
  integrator.store(s);
  return std::max(std::abs(s.q[0] - truth.position(kT)), std::abs(s.p[0] - kMass * truth.velocity(kT)));
}

using OscillatorDel = DelIntegrator<OscillatorSystem, CanonicalCoordinates>;

double delOscillatorError(DiscreteRule rule, double h, bool oneSided) {
  OscillatorDel del(OscillatorSystem{dampedOscillator()}, rule, h);
  REQUIRE(del.integrator().forced());
  del.integrator().setOneSidedForcing(oneSided);
  return oscillatorError(del, h);
}

}  // namespace

TEST_CASE("forcing: the exact damped oscillator solves m x'' + c x' + k x = 0 in every regime", "[forcing]") {
  // (m, k, c): underdamped, critical (c² = 4mk), overdamped, and k = 0.
  const double cases[][3] = {{1, 4, 0.4}, {2, 8, 8}, {1, 1, 5}, {1, 0, 0.7}};
  const exact::DampedOscillator::Regime regimes[] = {
      exact::DampedOscillator::Regime::Underdamped, exact::DampedOscillator::Regime::Critical,
      exact::DampedOscillator::Regime::Overdamped, exact::DampedOscillator::Regime::Overdamped};
  for (int i = 0; i < 4; ++i) {
    const double m = cases[i][0], k = cases[i][1], c = cases[i][2];
    const exact::DampedOscillator o(m, k, c, 0.8, -1.3);
    CHECK(o.regime() == regimes[i]);
    CHECK(o.position(0) == Approx(0.8).margin(1e-15));
    CHECK(o.velocity(0) == Approx(-1.3).margin(1e-15));
    // x' by central differences matches velocity(); the equation's residual with
    // x'' from central differences of velocity() vanishes to the difference error.
    const double eps = 1e-5;
    for (double t : {0.3, 1.7, 4.2}) {
      const double dx = (o.position(t + eps) - o.position(t - eps)) / (2 * eps);
      const double ddx = (o.velocity(t + eps) - o.velocity(t - eps)) / (2 * eps);
      CHECK(std::abs(dx - o.velocity(t)) < 1e-8);
      CHECK(std::abs(m * ddx + c * o.velocity(t) + k * o.position(t)) < 1e-7 * (m + c + k));
    }
  }
  // Critical damping is the limit of both sides.
  const exact::DampedOscillator critical(1, 1, 2, 1, 0), under(1, 1, 2 - 1e-9, 1, 0), over(1, 1, 2 + 1e-9, 1, 0);
  CHECK(std::abs(critical.position(2.5) - under.position(2.5)) < 1e-8);
  CHECK(std::abs(critical.position(2.5) - over.position(2.5)) < 1e-8);
  CHECK_THROWS_AS(exact::DampedOscillator(1, 1, 0, 1, 0), std::domain_error);
}

TEST_CASE("forcing: the systems' damping and torque parameters reach the models", "[forcing]") {
  CHECK_FALSE(std::get<OscillatorModel>(buildSystem("oscillator", Json::object()).model).forced());
  CHECK(dampedOscillator().damping == kDamping);
  CHECK(dampedOscillator().forced());
  for (const char* id : {"pendulum", "spherical-pendulum", "double-spherical-pendulum", "chain"}) {
    INFO(id);
    CHECK_FALSE(std::get<ChainModel>(buildSystem(id, Json::object()).model).forced());
    const ChainModel m = std::get<ChainModel>(buildSystem(id, Json{{"damping", 0.3}}).model);
    CHECK(m.damping == 0.3);
    CHECK(m.forced());
  }
  for (const char* id : {"rigid-body", "heavy-top"}) {
    INFO(id);
    CHECK_FALSE(std::get<RigidBodyModel>(buildSystem(id, Json::object()).model).forced());
    const RigidBodyModel t = std::get<RigidBodyModel>(buildSystem(id, Json{{"torque", {0.0, 0.0, 0.5}}}).model);
    CHECK(t.torque == Vec3(0, 0, 0.5));
    CHECK(t.forced());
    const RigidBodyModel d = std::get<RigidBodyModel>(buildSystem(id, Json{{"damping", 0.2}}).model);
    CHECK(d.damping == 0.2);
    CHECK(d.forced());
  }
  CHECK_THROWS_AS(buildSystem("oscillator", Json{{"damping", -1}}), InputError);
  CHECK_THROWS_AS(buildSystem("chain", Json{{"damping", -0.1}}), InputError);
  CHECK_THROWS_AS(buildSystem("rigid-body", Json{{"damping", -0.1}}), InputError);
}

TEST_CASE("forcing: damped oscillator, midpoint order 2 (symmetric split) and order 1 (one-sided split)", "[forcing]") {
  // The symmetric split f_d^− = f_d^+ = (h/2) F(q̄, v̄) keeps the midpoint rule symmetric,
  // hence of even order: 2. The one-sided split f_d^− = h F(q̄, v̄), f_d^+ = 0 (selectable
  // in VariationalIntegrator for this test only) shifts the force by (h/2) dF/dt in the
  // position equations (derivation in integrators/variational.hpp): order 1.
  // The one-sided errors carry a sizeable O(h²) part (local slopes 1.22, 1.12 over
  // h = 0.1 … 0.025): its order is measured at h = 0.01 … 0.0025, where the O(h) term
  // dominates.
  const std::vector<double> hs = {0.1, 0.05, 0.025}, hsOne = {0.01, 0.005, 0.0025};
  std::vector<double> sym, one, trap;
  for (double h : hs) {
    sym.push_back(delOscillatorError(DiscreteRule::midpoint(), h, false));
    trap.push_back(delOscillatorError(DiscreteRule::trapezoid(), h, false));
  }
  for (double h : hsOne) one.push_back(delOscillatorError(DiscreteRule::midpoint(), h, true));
  const double slopeSym = logLogSlope(hs, sym), slopeOne = logLogSlope(hsOne, one), slopeTrap = logLogSlope(hs, trap);
  const auto pairSym = test::observedOrders(sym), pairOne = test::observedOrders(one);
  std::printf("[forcing] damped oscillator T = 5: midpoint errors %.3e %.3e %.3e, slope %.4f (pairs %.4f %.4f)\n",
              sym[0], sym[1], sym[2], slopeSym, pairSym[0], pairSym[1]);
  std::printf("[forcing]   one-sided split errors (h = 0.01 … 0.0025) %.3e %.3e %.3e, slope %.4f (pairs %.4f %.4f)\n",
              one[0], one[1], one[2], slopeOne, pairOne[0], pairOne[1]);
  std::printf("[forcing]   trapezoid errors %.3e %.3e %.3e, slope %.4f\n", trap[0], trap[1], trap[2], slopeTrap);
  CHECK(std::abs(slopeSym - 2.0) <= 0.1);
  CHECK(std::abs(slopeOne - 1.0) <= 0.1);
  CHECK(std::abs(slopeTrap - 2.0) <= 0.1);
}

TEST_CASE("forcing: RK4 on the damped oscillator is of order 4", "[forcing]") {
  const std::vector<double> hs = {0.1, 0.05, 0.025};
  std::vector<double> rk, eu;
  for (double h : hs) {
    ExplicitRungeKutta<OscillatorOde> integrator(OscillatorOde(dampedOscillator()), RungeKuttaMethod::RK4, h);
    rk.push_back(oscillatorError(integrator, h));
  }
  for (double h : {1e-3, 5e-4, 2.5e-4}) {
    ExplicitRungeKutta<OscillatorOde> integrator(OscillatorOde(dampedOscillator()), RungeKuttaMethod::Euler, h);
    eu.push_back(oscillatorError(integrator, h));
  }
  const double slopeRk = logLogSlope(hs, rk), slopeEu = logLogSlope({1e-3, 5e-4, 2.5e-4}, eu);
  std::printf("[forcing] damped oscillator T = 5: rk4 errors %.3e %.3e %.3e, slope %.4f; euler slope %.4f\n", rk[0],
              rk[1], rk[2], slopeRk, slopeEu);
  CHECK(std::abs(slopeRk - 4.0) <= 0.2);
  CHECK(std::abs(slopeEu - 1.0) <= 0.1);
}

TEST_CASE("forcing: zero forces on the forced path reproduce the unforced integrators bit for bit", "[forcing]") {
  const long steps = 1000;
  SECTION("oscillator, midpoint (generic DEL)") {
    Simulation sim = test::simulate(R"({"system":"oscillator","integrator":"midpoint","h":0.1})");
    const Scenario& sc = sim.scenario();
    OscillatorDel del(OscillatorSystem{std::get<OscillatorModel>(sc.model)}, DiscreteRule::midpoint(), sc.h);
    REQUIRE_FALSE(del.integrator().forced());
    del.integrator().setForcedPath(true);
    State s = sc.initial;
    del.load(s);
    for (long k = 0; k < steps; ++k) REQUIRE(del.step().ok);
    del.store(s);
    test::run(sim, steps);
    CHECK(sameBits(s.q, sim.q()));
    CHECK(sameBits(s.p, sim.p()));
  }
  SECTION("double spherical pendulum and chain, midpoint (O(N) multipliers)") {
    for (const char* id : {"double-spherical-pendulum", "chain"}) {
      INFO(id);
      Simulation sim = test::simulate(std::string(R"({"system":")") + id + R"(","integrator":"midpoint"})");
      const Scenario& sc = sim.scenario();
      ChainMultiplierIntegrator forced(std::get<ChainModel>(sc.model), DiscreteRule::midpoint(), sc.h);
      forced.setForcedPath(true);
      VecX q = sc.initial.q, p = sc.initial.p;
      for (long k = 0; k < steps; ++k) REQUIRE(forced.step(q, p).ok);
      test::run(sim, steps);
      CHECK(sameBits(q, sim.q()));
      CHECK(sameBits(p, sim.p()));
    }
  }
  SECTION("free rigid body and heavy top, Lie-group") {
    for (const char* id : {"rigid-body", "heavy-top"}) {
      INFO(id);
      Simulation sim = test::simulate(std::string(R"({"system":")") + id + R"(","integrator":"lie-group"})");
      const Scenario& sc = sim.scenario();
      LieGroupStepper stepper(std::get<RigidBodyModel>(sc.model), sc.h);
      stepper.setForcedPath(true);
      RotationIntegrator<LieGroupStepper> forced(stepper);
      State s = sc.initial;
      forced.load(s);
      for (long k = 0; k < steps; ++k) {
        REQUIRE(forced.step().ok);
        forced.store(s);
      }
      test::run(sim, steps);
      CHECK(sameBits(s.q, sim.q()));
      CHECK(sameBits(s.p, sim.p()));
    }
  }
}

TEST_CASE("forcing: a constant space-frame torque changes RΠ by exactly h τ per step (Lie-group)", "[forcing]") {
  // Discrete Noether with forcing on SO(3): π = RΠ, and (E3) with M_k ∋ R_kᵀτ gives
  //   π_{k+1} = R_k F_k F_kᵀ (Π_k + (h/2) M_k) + (h/2) R_{k+1} M_{k+1} = π_k + (h/2) τ + (h/2) τ
  // for any F_k ∈ SO(3) (free body: no other moment).
  const Vec3 tau(0.3, -0.2, 0.5);
  const Built b = buildSystem("rigid-body", Json{{"torque", {tau[0], tau[1], tau[2]}}});
  const double h = 0.01;
  RotationIntegrator<LieGroupStepper> integrator(LieGroupStepper(std::get<RigidBodyModel>(b.model), h));
  State s = b.initial;
  integrator.load(s);
  Vec3 pi = quat::matrix(Vec4(s.q)) * Vec3(s.p);
  double worst = 0;
  for (int k = 0; k < 10000; ++k) {
    REQUIRE(integrator.step().ok);
    integrator.store(s);
    const Vec3 pi1 = quat::matrix(Vec4(s.q)) * Vec3(s.p);
    worst = std::max(worst, (pi1 - pi - h * tau).norm() / std::max(pi.norm(), pi1.norm()));
    pi = pi1;
  }
  std::printf(
      "[forcing] rigid body, torque: max |π_{k+1} − π_k − hτ| / |π| over 1e4 steps = %.2e (|π| = %.2f at the "
      "end)\n",
      worst, pi.norm());
  CHECK(worst <= 1e-13);
}

TEST_CASE("forcing: the damped, torqued rigid body (Lie-group order 2, RK4 order 4 — damping dissipates)",
          "[forcing]") {
  // Heavy top with a torque and damping, against RK4 at h = 1e-4 (error ~1e-16).
  const Built b = buildSystem("heavy-top", Json{{"torque", {0.4, -0.3, 0.2}}, {"damping", 0.3}});
  const RigidBodyModel& model = std::get<RigidBodyModel>(b.model);
  const double T = 1;
  auto run = [&](Integrator& integrator, double h) {
    State s = b.initial;
    integrator.load(s);
    const long steps = std::lround(T / h);
    for (long k = 0; k < steps; ++k) {
      REQUIRE(integrator.step().ok);
      integrator.store(s);
    }
    return s;
  };
  ExplicitRungeKutta<RigidBodyOde> fine(RigidBodyOde(model), RungeKuttaMethod::RK4, 1e-4);
  const State ref = run(fine, 1e-4);
  const Mat3 Rref = quat::matrix(Vec4(ref.q));
  auto error = [&](const State& s) {
    return std::max((quat::matrix(Vec4(s.q)) - Rref).cwiseAbs().maxCoeff(), (s.p - ref.p).cwiseAbs().maxCoeff());
  };
  const std::vector<double> hs = {0.02, 0.01, 0.005};
  std::vector<double> lg, rk;
  for (double h : hs) {
    RotationIntegrator<LieGroupStepper> lie(LieGroupStepper(model, h));
    lg.push_back(error(run(lie, h)));
    ExplicitRungeKutta<RigidBodyOde> rk4(RigidBodyOde(model), RungeKuttaMethod::RK4, h);
    rk.push_back(error(run(rk4, h)));
  }
  const double slopeLg = logLogSlope(hs, lg), slopeRk = logLogSlope(hs, rk);
  std::printf(
      "[forcing] heavy top with torque and damping, T = 1: lie-group errors %.3e %.3e %.3e slope %.4f; rk4 "
      "%.3e %.3e %.3e slope %.4f\n",
      lg[0], lg[1], lg[2], slopeLg, rk[0], rk[1], rk[2], slopeRk);
  CHECK(std::abs(slopeLg - 2.0) <= 0.1);
  CHECK(std::abs(slopeRk - 4.0) <= 0.2);

  // Damping alone on the free body: the kinetic energy decreases every step.
  const Built d = buildSystem("rigid-body", Json{{"damping", 0.2}});
  RotationIntegrator<LieGroupStepper> lie(LieGroupStepper(std::get<RigidBodyModel>(d.model), 0.01));
  State s = d.initial;
  lie.load(s);
  double E = std::get<RigidBodyModel>(d.model).energy(s);
  const double E0 = E;
  bool monotone = true;
  for (int k = 0; k < 2000; ++k) {
    REQUIRE(lie.step().ok);
    lie.store(s);
    const double E1 = std::get<RigidBodyModel>(d.model).energy(s);
    monotone = monotone && E1 < E;
    E = E1;
  }
  std::printf("[forcing] damped free body: energy %.4f -> %.4f over 20 s, monotone %d\n", E0, E, monotone ? 1 : 0);
  CHECK(monotone);
}

TEST_CASE("forcing: damped double spherical pendulum, forced discrete Noether for J_z and energy decay", "[forcing]") {
  // Discrete Noether with forcing (M–W §3.2): rotations about e_z, ξ(q) = (e_z × x_i)_i,
  // leave L_d and g invariant, so D1 L_d·ξ(q_k) + D2 L_d·ξ(q_{k+1}) = 0 and
  // Dg(q_k) ξ(q_k) = 0. With p_k + D1 L_d + f_d^− + Dg(q_k)ᵀλ = 0 and p_{k+1} = D2 L_d + f_d^+:
  //   J_{k+1} = p_{k+1}·ξ(q_{k+1}) = −D1 L_d·ξ(q_k) + f_d^+·ξ(q_{k+1})
  //           = J_k + f_d^−·ξ(q_k) + f_d^+·ξ(q_{k+1}),
  // i.e. J_{k+1} − J_k = Σ_i (x_i^k × f_i^−)·e_z + (x_i^{k+1} × f_i^+)·e_z, with the drag
  // f_i^± = −(c/2) δ_i, δ_i = x_i^{k+1} − x_i^k (the tangent projection of p_{k+1} removes
  // Dg(q_{k+1})ᵀμ, which has no J_z). Since x^k × δ = x^{k+1} × δ = x^k × x^{k+1}, this is
  //   J_{k+1} − J_k = −(c/2) Σ_i (x_i^k × δ_i + x_i^{k+1} × δ_i)·e_z.
  // The energy: the midpoint rule alone lets it oscillate by O(h²); the drag removes
  // about h c |v|² per step. At h = 0.01 over 30 s the decrease is monotone for c ≥ 0.05
  // (c = 0.02 shows 10 increases, c = 0.01 65): c = 0.1 here, which leaves E(30 s) ≈ 2.1
  // of 36.9.
  const double c = 0.1;
  const Built b = buildSystem("double-spherical-pendulum", Json{{"damping", c}});
  const ChainModel& model = std::get<ChainModel>(b.model);
  ChainMultiplierIntegrator integrator(model, DiscreteRule::midpoint(), 0.01);
  VecX q = b.initial.q, p = b.initial.p;
  double J = model.verticalMomentum(State{q, p}), E = model.energy(State{q, p});
  const double J0 = J, E0 = E;
  double worst = 0;
  int increases = 0;
  for (int k = 0; k < 3000; ++k) {
    const VecX q0 = q;
    REQUIRE(integrator.step(q, p).ok);
    double moment = 0, scale = 0;
    for (int i = 0; i < model.bobs(); ++i) {
      const Vec3 x0 = q0.segment<3>(3 * i), x1 = q.segment<3>(3 * i), d = x1 - x0;
      moment += -0.5 * c * (x0.cross(d)[2] + x1.cross(d)[2]);
      scale += x1.norm() * Vec3(p.segment<3>(3 * i)).norm();
    }
    const double J1 = model.verticalMomentum(State{q, p}), E1 = model.energy(State{q, p});
    worst = std::max(worst, std::abs(J1 - J - moment) / scale);
    if (!(E1 < E)) ++increases;
    J = J1;
    E = E1;
  }
  std::printf(
      "[forcing] damped DSP (c = %.1f), 3000 steps: max |ΔJ_z − moment| / Σ|x_i||p_i| = %.2e; J_z %.4f -> "
      "%.4f; energy %.4f -> %.4f, %d increases\n",
      c, worst, J0, J, E0, E, increases);
  CHECK(worst <= 1e-13);
  CHECK(increases == 0);
}

TEST_CASE("forcing: damped chains, midpoint order 2 and projected RK4 order 4 against a converged solution",
          "[forcing]") {
  // The double spherical pendulum with drag, T = 1, against RK4 at h = 1e-4.
  const Built b = buildSystem("double-spherical-pendulum", Json{{"damping", 0.7}, {"masses", {1.0, 2.0}}});
  const ChainModel& model = std::get<ChainModel>(b.model);
  const double T = 1;
  auto run = [&](Integrator& integrator, double h) {
    State s = b.initial;
    integrator.load(s);
    const long steps = std::lround(T / h);
    for (long k = 0; k < steps; ++k) REQUIRE(integrator.step().ok);
    integrator.store(s);
    return s;
  };
  ExplicitRungeKutta<ChainIndex1Ode> fine(ChainIndex1Ode(model), RungeKuttaMethod::RK4, 1e-4);
  const State ref = run(fine, 1e-4);
  auto error = [&](const State& s) {
    return std::max((s.q - ref.q).cwiseAbs().maxCoeff(), (s.p - ref.p).cwiseAbs().maxCoeff());
  };
  // The one-sided split (tests only) is first order; its slope approaches 1 from below
  // (0.81 over h = 0.01 … 0.0025), so it is measured at smaller h.
  std::vector<double> mid, one, rk;
  const std::vector<double> hsMid = {0.01, 0.005, 0.0025}, hsOne = {0.0025, 0.00125, 0.000625},
                            hsRk = {0.02, 0.01, 0.005};
  for (double h : hsMid) {
    CanonicalIntegrator<ChainMultiplierIntegrator> m(ChainMultiplierIntegrator(model, DiscreteRule::midpoint(), h));
    mid.push_back(error(run(m, h)));
  }
  for (double h : hsOne) {
    CanonicalIntegrator<ChainMultiplierIntegrator> o(ChainMultiplierIntegrator(model, DiscreteRule::midpoint(), h));
    o.core().setOneSidedForcing(true);
    one.push_back(error(run(o, h)));
  }
  for (double h : hsRk) {
    ExplicitRungeKutta<ChainIndex1Ode> r(ChainIndex1Ode(model), RungeKuttaMethod::RK4, h);
    rk.push_back(error(run(r, h)));
  }
  const double slopeMid = logLogSlope(hsMid, mid), slopeOne = logLogSlope(hsOne, one), slopeRk = logLogSlope(hsRk, rk);
  std::printf(
      "[forcing] damped DSP T = 1: midpoint errors %.3e %.3e %.3e slope %.4f; one-sided slope %.4f; rk4 "
      "%.3e %.3e %.3e slope %.4f\n",
      mid[0], mid[1], mid[2], slopeMid, slopeOne, rk[0], rk[1], rk[2], slopeRk);
  CHECK(std::abs(slopeMid - 2.0) <= 0.1);
  CHECK(std::abs(slopeOne - 1.0) <= 0.1);
  CHECK(std::abs(slopeRk - 4.0) <= 0.2);
}

TEST_CASE("forcing: the Newton matrices include the derivative of the discrete forcing", "[forcing]") {
  // Generic DEL, damped oscillator: ∂(D1 L_d + f_d^−)/∂q_{k+1} = −m/h − (h/4) k − c/2.
  for (bool oneSided : {false, true}) {
    VariationalIntegrator<OscillatorSystem> vi(OscillatorSystem{dampedOscillator()}, DiscreteRule::midpoint(), 0.1);
    vi.setOneSidedForcing(oneSided);
    const Vec<double, 1> q(0.7), p(-0.3);
    VariationalIntegrator<OscillatorSystem>::DelProblem problem(vi, q, p);
    CHECK(test::newtonJacobianDefect(problem, Vec<double, 1>(0.02), 1e-6) < 1e-8);
  }
  // Lie group with damping: G(f) = g₀ + g₀ × f + (g₀ᵀf) f − h c (1 + |f|²) f − 2 J f; its
  // root satisfies (E1) with the damped impulse, h (Π + (h/2)M)^ − h c f^ = F J_d − J_d Fᵀ.
  const Vec3 J(1, 2, 3), g0(0.05, 0.21, -0.08);
  const double drag = 0.1 * 0.7;  // h c
  LieGroupStepper::CayleyProblem problem{g0, J, 1.0, {}, drag};
  CHECK(test::newtonJacobianDefect(problem, Vec3(0.03, -0.02, 0.05), 1e-7) < 1e-7);
  Vec3 f = g0.cwiseQuotient(2.0 * J + Vec3::Constant(drag));
  problem.scale = f.cwiseAbs().maxCoeff();
  REQUIRE(solveNewton(problem, f).ok);
  const Mat3 F = cayley(f), Jd = 0.5 * J.sum() * Mat3::Identity() - Mat3(J.asDiagonal());
  CHECK((hat(g0 - drag * f) - (F * Jd - Jd * F.transpose())).cwiseAbs().maxCoeff() < 1e-15);
}

TEST_CASE("forcing: DOPRI5 on the damped oscillator meets its tolerance", "[forcing]") {
  DormandPrince<OscillatorOde> integrator(OscillatorOde(dampedOscillator()), 0.5, 1e-9);
  const double error = oscillatorError(integrator, 0.5);
  std::printf("[forcing] damped oscillator T = 5: dopri5 (h = 0.5, tol 1e-9) error %.2e\n", error);
  CHECK(error < 1e-7);
}

}  // namespace test_forcing
