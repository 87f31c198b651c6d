// The globalized Newton (solver/newton.hpp) and the Lagrangians it opens: the damped,
// domain-keeping iteration where plain Newton is refused (and the plain one, bit for bit,
// where it converges), the velocity recovery and the DEL of non-quadratic Lagrangians
// (the relativistic particle, a |q̇|⁴ kinetic energy), and the measured advice of a
// refused step.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>

#include "support.hpp"
#include "vilab/integrators/lagrangian_del.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/scenario.hpp"
#include "vilab/solver/newton.hpp"

using namespace vilab;
using vilab::test::column;
using vilab::test::driftRatio;
using vilab::test::lagrangianScene;

namespace {

using Vec2 = Eigen::Vector2d;

// A scalar problem f(x) = 0 with f' given: the solver's interface on one unknown.
template <class F, class D>
struct Scalar {
  using Vector = SmallVec;
  F f;
  D df;
  double slope = 1;
  NewtonEval evaluate(const SmallVec& x, SmallVec& r, bool linearize) {
    r.resize(1);
    r[0] = f(x[0]);
    if (!std::isfinite(r[0])) return NewtonEval::NonFinite;
    if (linearize) {
      slope = df(x[0]);
      if (!std::isfinite(slope)) return NewtonEval::NonFinite;
      if (slope == 0) return NewtonEval::Singular;
    }
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return 1; }
  void solve(SmallVec& b) const { b[0] /= slope; }
  double size(const SmallVec& dx) const { return std::abs(dx[0]); }
};
template <class F, class D>
Scalar<F, D> scalar(F f, D df) {
  return Scalar<F, D>{f, df};
}

NewtonSettings policy(bool globalize) {
  NewtonSettings s;
  s.globalize = globalize;
  return s;
}

SmallVec one(double x) {
  SmallVec v(1);
  v[0] = x;
  return v;
}

// The relativistic particle of scenes/lagrangian/relativistic-particle.json:
// L = −√(1 − |q̇|²) − V(q), V = (x² + y²)/2 + x⁴/4; p = γ q̇ with γ = 1/√(1 − |q̇|²).
Vec2 gradV(const Vec2& q) { return Vec2(q[0] + q[0] * q[0] * q[0], q[1]); }

// An independent midpoint DEL step of that particle, in closed form: with v = (q₁ − q₀)/h
// and q̄ = q₀ + hv/2 the DEL p₀ + D1 L_d = 0 read R(v) = γ(v) v + (h/2)∇V(q̄) − p₀ = 0,
// with R' = γ I + γ³ v vᵀ + (h²/4) ∇²V(q̄), ∇²V = diag(1 + 3x̄², 1). Damped Newton
// (Armijo on ½|R|², the step halved while |v| ≥ 1) from v = 0; then
// p₁ = D2 L_d = γ(v) v − (h/2)∇V(q̄).
void relativisticStep(const Vec2& q0, const Vec2& p0, double h, Vec2& q1, Vec2& p1) {
  const auto residual = [&](const Vec2& v, Vec2& R) {
    const double s = 1 - v.squaredNorm();
    if (!(s > 0)) return false;
    R = v / std::sqrt(s) + 0.5 * h * gradV(q0 + 0.5 * h * v) - p0;
    return true;
  };
  Vec2 v = Vec2::Zero(), R;
  REQUIRE(residual(v, R));
  for (int k = 0; k < 200; ++k) {
    const double s = 1 - v.squaredNorm(), g = 1 / std::sqrt(s);
    const Vec2 xb = q0 + 0.5 * h * v;
    Eigen::Matrix2d J = g * Eigen::Matrix2d::Identity() + g * g * g * v * v.transpose();
    J(0, 0) += 0.25 * h * h * (1 + 3 * xb[0] * xb[0]);
    J(1, 1) += 0.25 * h * h;
    const Vec2 dv = -J.lu().solve(R);
    if (dv.cwiseAbs().maxCoeff() <= 1e-15) {  // at rounding: the full step, and done
      v += dv;
      break;
    }
    double lambda = 1;
    Vec2 trial, Rt;
    while (!(residual(trial = v + lambda * dv, Rt) && Rt.squaredNorm() <= (1 - 1e-4 * lambda) * R.squaredNorm())) {
      lambda /= 2;
      REQUIRE(lambda > 1e-12);
    }
    v = trial;
    R = Rt;
  }
  const Vec2 xb = q0 + 0.5 * h * v;
  q1 = q0 + h * v;
  p1 = v / std::sqrt(1 - v.squaredNorm()) - 0.5 * h * gradV(xb);
}

std::string relativistic(double qdot, double h = 0.01) {
  Json j = lagrangianScene("relativistic-particle");
  j["initial"]["qdot"] = {0, qdot};
  j["h"] = h;
  return j.dump();
}

std::shared_ptr<const LagrangianProblem> sceneProblem(const std::string& id) {
  Json normalized;
  return compileLagrangian(lagrangianScene(id)["params"], normalized);
}

}  // namespace

TEST_CASE("globalized Newton: plain Newton's bits where it converges, damped where it diverges",
          "[newton][globalized]") {
  // atan x = 0: plain Newton converges from |x₀| < 1.39 and diverges beyond.
  const auto f = [](double x) { return std::atan(x); };
  const auto df = [](double x) { return 1 / (1 + x * x); };
  for (double x0 : {0.3, 0.9, 1.3}) {
    auto a = scalar(f, df), b = scalar(f, df);
    SmallVec xa = one(x0), xb = one(x0);
    NewtonReport ra, rb;
    const StepOutcome oa = solveNewton(a, xa, policy(false), &ra);
    const StepOutcome ob = solveNewton(b, xb, policy(true), &rb);
    REQUIRE(oa.ok);
    REQUIRE(ob.ok);
    CHECK(xa[0] == xb[0]);  // the same bits
    CHECK(oa.iterations == ob.iterations);
    CHECK(rb.dampedIterations == 0);
    // An accepted outcome (StepOutcome::accepted) carries no refusal.
    CHECK(oa.refusal.code == RefusalCode::None);
    CHECK(oa.refusal.reason.empty());
    CHECK(oa.refusal.suggestion.empty());
    CHECK(oa.refusal.action == SuggestionAction::ReduceH);
  }
  for (double x0 : {1.5, 3.0, 20.0}) {
    auto a = scalar(f, df), b = scalar(f, df);
    SmallVec xa = one(x0), xb = one(x0);
    NewtonReport rb;
    const StepOutcome oa = solveNewton(a, xa, policy(false));
    const StepOutcome ob = solveNewton(b, xb, policy(true), &rb);
    INFO("x0 = " << x0 << ": plain " << oa.refusal.reason);
    CHECK_FALSE(oa.ok);  // the negative control: the undamped iteration diverges
    REQUIRE(ob.ok);
    CHECK(std::abs(xb[0]) <= 1e-15);
    CHECK(rb.dampedIterations > 0);
    CHECK(rb.smallestDamping < 1);
  }
}

TEST_CASE("globalized Newton keeps its iterates in the domain: a trial point there is halved back",
          "[newton][globalized]") {
  // log x = 0 from x₀ = 3: plain Newton's first update lands at x = 3 − 3 log 3 < 0.
  const auto f = [](double x) { return std::log(x); };
  const auto df = [](double x) { return 1 / x; };
  auto a = scalar(f, df), b = scalar(f, df);
  SmallVec xa = one(3), xb = one(3);
  const StepOutcome oa = solveNewton(a, xa, policy(false));
  NewtonReport rb;
  const StepOutcome ob = solveNewton(b, xb, policy(true), &rb);
  CHECK_FALSE(oa.ok);
  CHECK(oa.refusal.code == RefusalCode::NonFinite);
  REQUIRE(ob.ok);
  CHECK(std::abs(xb[0] - 1) <= 4e-16);
  CHECK(rb.smallestDamping <= 0.5);
  // No root inside the domain (√x + 1 > 0): refused as not finite once the damped
  // iteration reaches the domain's edge, never a number outside it.
  auto c = scalar([](double x) { return std::sqrt(x) + 1; }, [](double x) { return 0.5 / std::sqrt(x); });
  SmallVec xc = one(1);
  const StepOutcome oc = solveNewton(c, xc, policy(true));
  INFO(oc.refusal.reason);
  CHECK_FALSE(oc.ok);
  CHECK(oc.refusal.code == RefusalCode::NonFinite);
}

TEST_CASE("relativistic particle: the velocity is recovered from any p, where undamped Newton from 0 fails",
          "[newton][lagrangian][relativistic]") {
  LagrangianEval damped(sceneProblem("relativistic-particle"));
  LagrangianEval plain(sceneProblem("relativistic-particle"));
  plain.setGlobalized(false);
  const double q[2] = {0.3, -0.2};
  for (double size : {0.5, 0.99, 1.2, 1.63, 5.0, 50.0}) {
    const double p[2] = {0.6 * size, 0.8 * size};
    SmallVec v;
    REQUIRE(damped.velocity(q, p, v));
    // q̇ = p/√(1 + |p|²), |q̇| < 1
    const double g = std::sqrt(1 + size * size);
    CHECK(std::abs(v[0] - p[0] / g) <= 2e-16 * (1 + size));
    CHECK(std::abs(v[1] - p[1] / g) <= 2e-16 * (1 + size));
    CHECK(v.norm() < 1);
    SmallVec w;
    INFO("|p| = " << size << ", plain: " << plain.velocityFailure());
    // Undamped Newton from q̇ = 0 steps to q̇ = p: outside |q̇| < 1 once |p| ≥ 1.
    if (size >= 1) CHECK_FALSE(plain.velocity(q, p, w));
  }
}

TEST_CASE("relativistic particle: a midpoint step equals an independent damped-Newton DEL solve",
          "[newton][lagrangian][relativistic]") {
  Simulation sim = vilab::test::simulate(relativistic(0.75));
  double worst = 0;
  int checked = 0;
  for (int k = 0; k < 400; ++k) {
    const Vec2 q0 = sim.q(), p0 = sim.p();
    sim.advance(1);
    if (k % 40 != 0 && p0.norm() < 1.5) continue;
    Vec2 q1, p1;
    relativisticStep(q0, p0, 0.01, q1, p1);
    const double dq = (Vec2(sim.q()) - q1).cwiseAbs().maxCoeff() / (1 + q1.cwiseAbs().maxCoeff());
    const double dp = (Vec2(sim.p()) - p1).cwiseAbs().maxCoeff() / (1 + p1.cwiseAbs().maxCoeff());
    worst = std::max({worst, dq, dp});
    ++checked;
  }
  std::printf("[newton] relativistic midpoint against the closed-form DEL: %d steps, largest difference %.1e\n",
              checked, worst);
  CHECK(checked >= 10);
  CHECK(worst <= 1e-13);
}

TEST_CASE("relativistic particle: 1e5 midpoint steps with no refusal, |p| > 1.5, bounded energy error",
          "[newton][lagrangian][relativistic]") {
  Simulation sim = vilab::test::simulate(relativistic(0.75), 10, 1 << 14);
  double largestP = 0, largestSpeed = 0;
  for (int k = 0; k < 100000; ++k) {
    sim.advance(1);  // throws at a refused step
    largestP = std::max(largestP, sim.p().norm());
  }
  for (double v : column(sim, "conserved.speed")) largestSpeed = std::max(largestSpeed, v);
  const std::vector<double> E = column(sim, "energy");
  double band = 0;
  for (double e : E) band = std::max(band, std::abs(e - E[0]) / std::abs(E[0]));
  const double ratio = driftRatio(E);
  std::printf(
      "[newton] relativistic particle, 1e5 midpoint steps: |p| up to %.3f, |q'| up to %.4f, |dE/E| <= %.1e, "
      "energy window ratio %.2f\n",
      largestP, largestSpeed, band, ratio);
  CHECK(largestP > 1.5);
  CHECK(largestSpeed < 1);
  CHECK(ratio <= 1.5);
  CHECK(band <= 1e-4);
}

TEST_CASE("relativistic particle: qdot [0, 0.7] and [0, 0.75] load and step", "[newton][lagrangian][relativistic]") {
  for (double v : {0.7, 0.75, 0.95, 0.999}) {
    INFO("qdot [0, " << v << "]");
    Simulation sim = vilab::test::simulate(relativistic(v));
    const double E0 = sim.diagnostics().energy;
    CHECK(std::isfinite(E0));
    CHECK(std::abs(E0 - (1 / std::sqrt(1 - v * v) + 0.75)) <= 1e-14 * E0);  // γ + V(1, 0)
    sim.advance(2000);
    CHECK(std::isfinite(sim.diagnostics().energy));
  }
}

TEST_CASE("relativistic particle: the undamped Newton (the old policy) fails on the DEL where the damped one steps",
          "[newton][lagrangian][relativistic]") {
  // The state of the run where |p| first exceeds 1.2: a loaded state there (no previous
  // step to predict from) defeats plain Newton; the globalized one takes the step.
  Simulation sim = vilab::test::simulate(relativistic(0.75));
  while (sim.p().norm() < 1.2) sim.advance(1);
  const State s = sim.state();
  for (bool globalized : {false, true}) {
    LagrangianDel del(sceneProblem("relativistic-particle"), DiscreteRule::midpoint(), 0.01);
    del.setGlobalized(globalized);
    State loaded = s;
    del.prepare(loaded);
    VecX q = s.q, p = s.p;
    const StepOutcome o = del.step(q, p);
    INFO("globalized " << globalized << ": " << o.refusal.reason);
    CHECK(o.ok == globalized);
    if (globalized) {
      Vec2 q1, p1;
      relativisticStep(s.q, s.p, 0.01, q1, p1);
      CHECK((Vec2(q) - q1).cwiseAbs().maxCoeff() <= 1e-13);
      CHECK((Vec2(p) - p1).cwiseAbs().maxCoeff() <= 1e-13);
    }
  }
}

TEST_CASE("a |q'|^4 kinetic energy: the velocity recovery and the midpoint run keep Lz and a bounded energy",
          "[newton][lagrangian]") {
  Simulation sim = vilab::test::simulate(lagrangianScene("quartic-kinetic").dump(), 10, 1 << 14);
  sim.advance(100000);
  const std::vector<double> E = column(sim, "energy"), Lz = column(sim, "momentum.Lz");
  double band = 0, lz = 0;
  for (double e : E) band = std::max(band, std::abs(e - E[0]) / std::abs(E[0]));
  for (double l : Lz) lz = std::max(lz, std::abs(l - Lz[0]) / std::abs(Lz[0]));
  std::printf(
      "[newton] |q'|^4 kinetic energy, 1e5 midpoint steps: |dE/E| <= %.1e (window ratio %.2f), |dLz/Lz| <= %.1e\n",
      band, driftRatio(E), lz);
  CHECK(lz <= 5e-12);  // RK4 drifts by ~1e-9 (the scene's claim)
  CHECK(driftRatio(E) <= 1.5);
  // p = (m + b|q̇|²) q̇: the recovery inverts it (m = 1, b = 0.5).
  LagrangianEval eval(sceneProblem("quartic-kinetic"));
  const double q[2] = {0.4, 0.1}, v[2] = {1.5, -2.0};
  const double s = 1 + 0.5 * (v[0] * v[0] + v[1] * v[1]);
  const double p[2] = {s * v[0], s * v[1]};
  SmallVec w;
  REQUIRE(eval.velocity(q, p, w));
  CHECK(std::abs(w[0] - v[0]) <= 1e-15 * 4);
  CHECK(std::abs(w[1] - v[1]) <= 1e-15 * 4);
}

TEST_CASE("a refused step suggests reduce h only where two steps of h/2 were measured to succeed",
          "[newton][failure]") {
  // V = √x pulls the particle onto x = 0, where L ends: from x = 1e-9 moving at −1 no
  // step of any h stays where L is defined, so a smaller h does not help.
  const std::string edge = R"json({"system":"lagrangian","integrator":"midpoint","h":0.01,
    "params":{"coordinates":["x"],"constants":{},"lagrangian":"x'^2/2 - sqrt(x)","constraints":[],
    "conserved":{},"symmetries":{},"bodies":[]},"initial":{"q":[1e-9],"qdot":[-1]}})json";
  Simulation sim = vilab::test::simulate(edge);
  try {
    sim.advance(1);
    FAIL("the step was not refused");
  } catch (const StepFailure& e) {
    INFO(e.what());
    CHECK(e.refusal().action == SuggestionAction::ChangeScenario);
    CHECK(e.refusal().suggestion.find("a smaller h does not help") != std::string::npos);
    CHECK(e.refusal().suggestion != "reduce h");
    CHECK(sim.step() == 0);
  }
  // The DSP with the midpoint rule at its largest h, 0.1: refused at step 24, and two
  // steps of 0.05 from there succeed, so the advice stays "reduce h" (the positive control).
  Simulation dsp = vilab::test::simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.1})");
  bool refused = false;
  for (int k = 0; k < 1000 && !refused; ++k) {
    try {
      dsp.advance(1);
    } catch (const StepFailure& e) {
      refused = true;
      INFO(e.what());
      CHECK(e.refusal().action == SuggestionAction::ReduceH);
      CHECK(e.refusal().suggestion == "reduce h");
      // measured here again: two steps of h/2 from the last good state are taken
      Json half = Json::parse(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.05})");
      Simulation check(parseScenario(half));
      check.setState(dsp.state());
      CHECK_NOTHROW(check.advance(2));
    }
  }
  CHECK(refused);
}
