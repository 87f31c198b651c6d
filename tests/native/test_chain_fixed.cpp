// The fixed-size chain path (ChainMultiplierIntegratorT<N>, the hot path of the short
// chains) against the path sized at run time: the same arithmetic in the same order,
// so the same bits at every step, for every rule, with and without damping, and the
// same refusals.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "chain_states.hpp"
#include "vilab/simulation.hpp"

using namespace vilab;

namespace {

bool sameBits(const VecX& a, const VecX& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

// Steps both paths from the same state; returns the steps taken with identical bits
// and iteration counts (all of them when the paths agree), and counts the Newton
// iterations seen, so that a trivial run cannot pass.
template <int N>
int agreeingSteps(const ChainModel& m, DiscreteRule rule, double h, int steps, long& iterations) {
  ChainMultiplierIntegratorT<N> fixed(m, rule, h);
  ChainMultiplierIntegrator dynamic(m, rule, h);
  State a = test::chainState(m, 0.3), b = a;
  for (int k = 0; k < steps; ++k) {
    const StepOutcome oa = fixed.step(a.q, a.p), ob = dynamic.step(b.q, b.p);
    if (oa.ok != ob.ok || oa.iterations != ob.iterations || !sameBits(a.q, b.q) || !sameBits(a.p, b.p)) return k;
    if (!oa.ok) return oa.refusal.code == ob.refusal.code && oa.refusal.reason == ob.refusal.reason ? steps : k;
    iterations += oa.iterations;
  }
  return steps;
}

template <int N>
void checkChain() {
  const std::pair<const char*, DiscreteRule> rules[] = {{"midpoint", DiscreteRule::midpoint()},
                                                        {"trapezoid", DiscreteRule::trapezoid()},
                                                        {"alpha 0.3", DiscreteRule::alphaFamily(0.3)}};
  for (double damping : {0.0, 0.4}) {
    ChainModel m = test::chainModel(N);
    m.damping = damping;
    for (const auto& [name, rule] : rules) {
      INFO("N = " << N << ", " << name << ", damping " << damping);
      long iterations = 0;
      CHECK(agreeingSteps<N>(m, rule, 0.01, 2000, iterations) == 2000);
      CHECK(iterations >= 2 * 2000);  // Newton really ran: at least two iterations a step
    }
  }
}

// Two bobs of unit mass on unit links, no gravity: the Newton refusals' chain.
ChainModel unitPairWithoutGravity() {
  ChainModel m;
  m.masses = {1, 1};
  m.lengths = {1, 1};
  m.g = 0;
  return m;
}

}  // namespace

TEST_CASE("the fixed-size chain path gives the bits of the dynamic one (N = 1, 2, 3, 8)", "[chain][determinism]") {
  checkChain<1>();
  checkChain<2>();
  checkChain<3>();
  checkChain<8>();
}

TEST_CASE("the fixed-size chain path refuses where the dynamic one does, with the same reason", "[chain]") {
  // h = 2 s on a fast chain: Newton fails or the links fold within a few steps.
  ChainModel m = test::chainModel(2);
  ChainMultiplierIntegratorT<2> fixed(m, DiscreteRule::midpoint(), 2.0);
  ChainMultiplierIntegrator dynamic(m, DiscreteRule::midpoint(), 2.0);
  State a = test::chainState(m, 0.3), b = a;
  a.p *= 40.0;
  b.p *= 40.0;
  bool refused = false;
  for (int k = 0; k < 50 && !refused; ++k) {
    const StepOutcome oa = fixed.step(a.q, a.p), ob = dynamic.step(b.q, b.p);
    REQUIRE(oa.ok == ob.ok);
    CHECK(oa.iterations == ob.iterations);
    CHECK(sameBits(a.q, b.q));
    CHECK(sameBits(a.p, b.p));
    if (!oa.ok) {
      refused = true;
      CHECK(oa.refusal.code == ob.refusal.code);
      CHECK(oa.refusal.reason == ob.refusal.reason);
    }
  }
  CHECK(refused);
}

// The Newton loop's refusals, each with its reason, on both paths. The loop forms an
// iteration whole and tests once; a failing test then names the first failing check in
// the order residual, pivots, pivot ratio, update, so a state failing several at once is
// refused as testing each in turn would refuse it.
TEST_CASE("the chain step's Newton refusals name the first failing check", "[chain]") {
  const ChainModel m = unitPairWithoutGravity();
  const double h = 0.01;
  const auto refusalOf = [&](State s) {
    ChainMultiplierIntegratorT<2> fixed(m, DiscreteRule::midpoint(), h);
    ChainMultiplierIntegrator dynamic(m, DiscreteRule::midpoint(), h);
    State a = s, b = s;
    const StepOutcome oa = fixed.step(a.q, a.p), ob = dynamic.step(b.q, b.p);
    CHECK(!oa.ok);
    CHECK(oa.refusal.reason == ob.refusal.reason);
    CHECK(oa.iterations == 1);
    CHECK(ob.iterations == 1);
    return oa.refusal;
  };
  State s;
  s.q.resize(6);
  s.p.resize(6);
  {
    INFO("the residual overflows (and with it the pivots): the residual is named");
    s.q << 1e200, 0, 0, 2e200, 0, 0;
    s.p.setZero();
    const Refusal r = refusalOf(s);
    CHECK(r.code == RefusalCode::NonFinite);
    CHECK(r.reason == "the link constraints of the step are not finite at the current iterate");
  }
  {
    // Free flight carries bob 1 from (1, 0, 0) to (0, 1, 0) exactly: its link's end normal
    // is orthogonal to its start normal, the first pivot is 0 and the update not finite.
    INFO("a zero pivot and an update that is not finite: the pivot is named");
    s.q << 1, 0, 0, 2, 0, 0;
    s.p << -100, 100, 0, -100, 100, 0;
    const Refusal r = refusalOf(s);
    CHECK(r.code == RefusalCode::SingularMatrix);
    CHECK(r.reason == "the Newton matrix of the link constraints of the step is singular (pivot ratio inf)");
  }
  {
    // The same flight 1e-14 short of orthogonal: finite pivots beyond kSingularPivotRatio.
    INFO("finite pivots too far apart: the pivot ratio is named");
    s.q << 1, 0, 0, 2, 0, 0;
    s.p << -100 + 1e-12, 100, 0, -100, 100, 0;
    const Refusal r = refusalOf(s);
    CHECK(r.code == RefusalCode::SingularMatrix);
    const std::string head = "the Newton matrix of the link constraints of the step is singular (pivot ratio ";
    REQUIRE(r.reason.rfind(head, 0) == 0);
    const double ratio = std::stod(r.reason.substr(head.size()));
    CAPTURE(r.reason);
    CHECK(std::isfinite(ratio));
    CHECK(ratio > limits::kSingularPivotRatio);
  }
}

// The loop's one test is cheaper than the checks it stands for (no extreme pivots): it
// passes only when they pass, and misses some iterations that pass them, pivots between
// 4e12 and kSingularPivotRatio apart among them. Such an iteration must go on, as the
// checks one by one would let it, not be refused.
TEST_CASE("a chain Newton iteration the one test misses is decided by the checks one by one", "[chain]") {
  const ChainModel m = unitPairWithoutGravity();
  const double h = 0.01;
  State s;
  s.q.resize(6);
  s.p.resize(6);
  // The flight of the pivot-ratio refusal above, a little further from orthogonal: the
  // first iteration's pivot ratio falls as the offset grows; bisect for about 7e12.
  const auto firstRatio = [&](double offset) {
    s.q << 1, 0, 0, 2, 0, 0;
    s.p << -100 + offset, 100, 0, -100, 100, 0;
    ChainMultiplierIntegratorT<2> problem(m, DiscreteRule::midpoint(), h);
    problem.begin(s.q, s.p);
    Eigen::Vector2d lambda = Eigen::Vector2d::Zero(), r;
    REQUIRE(problem.evaluate(lambda, r, true) == NewtonEval::Ok);
    return problem.conditionEstimate();
  };
  double near = 1e-12, far = 1e-9;
  REQUIRE(firstRatio(near) > limits::kSingularPivotRatio);
  REQUIRE(firstRatio(far) < 4e12);
  for (int k = 0; k < 200; ++k) {
    const double mid = std::sqrt(near * far);
    (firstRatio(mid) > 7e12 ? near : far) = mid;
  }
  const double ratio = firstRatio(near);
  CAPTURE(ratio);
  REQUIRE(ratio > 4e12);
  REQUIRE(ratio <= limits::kSingularPivotRatio);
  ChainMultiplierIntegratorT<2> fixed(m, DiscreteRule::midpoint(), h);
  ChainMultiplierIntegrator dynamic(m, DiscreteRule::midpoint(), h);
  State a = s, b = s;
  const StepOutcome oa = fixed.step(a.q, a.p), ob = dynamic.step(b.q, b.p);
  CAPTURE(oa.refusal.reason);
  // Not refused at its first iteration: the step goes on to a later one.
  CHECK((oa.ok || oa.iterations > 1));
  CHECK(oa.ok == ob.ok);
  CHECK(oa.iterations == ob.iterations);
  CHECK(oa.refusal.reason == ob.refusal.reason);
  CHECK(sameBits(a.q, b.q));
  CHECK(sameBits(a.p, b.p));
}

TEST_CASE("the fixed-size chain path refuses a model of another size", "[chain]") {
  CHECK_THROWS(ChainMultiplierIntegratorT<2>(test::chainModel(3), DiscreteRule::midpoint(), 0.01));
}

// The fused checks of a chain step that is not recorded (chainStepSurelyAccepted, the
// hot path of Simulation::checkStep): the energy they return is ChainModel::energy to
// the bit, and they accept only steps the general checks accept.
TEST_CASE("the fused step checks give the energy's bits and accept only what the general checks accept",
          "[chain][simulation]") {
  for (int n : {1, 2, 3, 8}) {
    INFO("N = " << n);
    const ChainModel m = test::chainModel(n);
    const double h = 0.01, invH = 1.0 / h, scale = m.energyScale();
    const ChainEnergyBound bound(m);
    ChainMultiplierIntegrator integrator(m, DiscreteRule::midpoint(), h);
    State a = test::chainState(m, 0.3), b = a;
    int accepted = 0;
    for (int k = 0; k < 500; ++k) {
      REQUIRE(integrator.step(b.q, b.p).ok);
      const double energyA = m.energy(a);
      double energy = 0;
      const bool ok = chainStepSurelyAccepted(m, bound, a, b, energyA, invH, scale, energy);
      const double general = m.energy(b);
      CHECK(std::memcmp(&energy, &general, sizeof energy) == 0);
      CHECK(ok == (m.meanKineticEnergy(a, b, h) <= 4.0 * energyA + 1e-9 * scale));  // far from the bound here
      accepted += ok;
      a = b;
    }
    CHECK(accepted == 500);
    // Negative controls: each check alone refuses the fast path.
    double energy = 0;
    const double energyA = m.energy(a);
    State jump = a;  // bob 1 to the far side of the anchor: far more motion than the energy allows
    jump.q.head<3>() = -a.q.head<3>();
    CHECK_FALSE(chainStepSurelyAccepted(m, bound, a, jump, energyA, invH, scale, energy));
    CHECK(m.meanKineticEnergy(a, jump, h) > 4.0 * energyA + 1e-9 * scale);
    State nan = a;
    nan.p[3 * n - 1] = std::numeric_limits<double>::quiet_NaN();
    CHECK_FALSE(chainStepSurelyAccepted(m, bound, a, nan, energyA, invH, scale, energy));
    State huge = a;  // representable, but beyond the row's sure bound
    huge.p[3 * n - 2] = 1e101;
    CHECK_FALSE(chainStepSurelyAccepted(m, bound, a, huge, 1e300, invH, scale, energy));
    huge.p[3 * n - 2] = 1e99;  // within it: the bound on |p| through T is not stricter than |p_c| ≤ 1e100 needs
    CHECK(chainStepSurelyAccepted(m, bound, a, huge, 1e300, invH, scale, energy));
    State far = a;  // a bob beyond the sure bound on |q|, and one not finite
    far.q[3 * n - 3] = 1e101;
    CHECK_FALSE(chainStepSurelyAccepted(m, bound, a, far, 1e300, invH, scale, energy));
    far.q[3 * n - 3] = std::numeric_limits<double>::quiet_NaN();
    CHECK_FALSE(chainStepSurelyAccepted(m, bound, a, far, 1e300, invH, scale, energy));
    CHECK(chainStepSurelyAccepted(m, bound, a, a, energyA, invH, scale, energy));  // positive control
  }
}

// A step that also writes its new state into the caller's copy (Integrator::stepAndStore,
// Simulation's path) gives the bits of a step followed by store(), for the fixed-size and
// the run-time-sized chains, and leaves the copy alone when the step is refused.
template <int N>
void checkStepAndStore(int bobs) {
  const ChainModel m = test::chainModel(bobs);
  CanonicalIntegrator<ChainMultiplierIntegratorT<N>> copying(
      ChainMultiplierIntegratorT<N>(m, DiscreteRule::midpoint(), 0.01));
  CanonicalIntegrator<ChainMultiplierIntegratorT<N>> storing(
      ChainMultiplierIntegratorT<N>(m, DiscreteRule::midpoint(), 0.01));
  const State start = test::chainState(m, 0.3);
  copying.load(start);
  storing.load(start);
  State copy, stored;  // empty: the first step sizes the copy
  for (int k = 0; k < 200; ++k) {
    const StepOutcome a = copying.stepAndStore(copy), b = storing.step();
    REQUIRE(a.ok);
    REQUIRE(b.ok);
    CHECK(a.iterations == b.iterations);
    storing.store(stored);
    REQUIRE(sameBits(copy.q, stored.q));
    REQUIRE(sameBits(copy.p, stored.p));
  }
  State held;
  copying.store(held);
  CHECK(sameBits(held.q, copy.q));
  CHECK(sameBits(held.p, copy.p));
  State folded = start;  // every bob on the anchor: the step is refused, the copy unchanged
  folded.q.setZero();
  copying.load(folded);
  const State before = copy;
  CHECK_FALSE(copying.stepAndStore(copy).ok);
  CHECK(sameBits(copy.q, before.q));
  CHECK(sameBits(copy.p, before.p));
}

TEST_CASE("a chain step that writes the caller's copy gives the bits of a step and a store", "[chain]") {
  checkStepAndStore<2>(2);
  checkStepAndStore<3>(3);
  checkStepAndStore<-1>(5);
}

// The chain's own loop of steps (ChainMultiplierIntegratorT::steps, Simulation's batch):
// each step's bits and iterations are those of one stepAndStore at a time, accept() sees
// every new state in the caller's copy, the loop stops where accept() says, and a refused
// step is neither written nor handed to accept().
template <int N>
void checkStepsLoop() {
  const ChainModel m = test::chainModel(N);
  CanonicalIntegrator<ChainMultiplierIntegratorT<N>> one(
      ChainMultiplierIntegratorT<N>(m, DiscreteRule::midpoint(), 0.01));
  ChainMultiplierIntegratorT<N> looping(m, DiscreteRule::midpoint(), 0.01);
  const State start = test::chainState(m, 0.3);
  one.load(start);
  State own = start, copy, stored;
  int steps = 0;
  bool same = true;
  const StepOutcome o = looping.steps(own.q, own.p, copy, 200, [&](int iterations) {
    const StepOutcome b = one.stepAndStore(stored);
    same = same && b.ok && b.iterations == iterations && sameBits(copy.q, stored.q) && sameBits(copy.p, stored.p) &&
           sameBits(own.q, stored.q) && sameBits(own.p, stored.p);
    return ++steps < 150;
  });
  CHECK(o.ok);
  CHECK(steps == 150);  // accept() said stop at the 150th
  CHECK(same);
  State folded = start;  // every bob on the anchor: the first step is refused
  folded.q.setZero();
  const State before = copy;
  int called = 0;
  const StepOutcome refused = looping.steps(folded.q, folded.p, copy, 10, [&](int) { return ++called > 0; });
  CHECK_FALSE(refused.ok);
  CHECK(refused.refusal.code != RefusalCode::None);
  CHECK(called == 0);
  CHECK(folded.q.isZero());
  CHECK(sameBits(folded.p, start.p));
  CHECK(sameBits(copy.q, before.q));
  CHECK(sameBits(copy.p, before.p));
}

TEST_CASE("a chain's own loop of steps gives the bits of one step at a time and stops where told", "[chain]") {
  checkStepsLoop<1>();
  checkStepsLoop<2>();
  checkStepsLoop<3>();
}

// Simulation takes a fixed-size chain's steps in the chain's own loop: n steps in one call
// and one step a call give the same bits, history and refusal, recorded every step or not.
TEST_CASE("a chain's steps in one call or one a call give the same run and the same refusal",
          "[chain][simulation][determinism]") {
  const std::pair<const char*, bool> scenarios[] = {
      // the scenario, and whether it is refused within 500 steps
      {R"({"system":"pendulum","integrator":"midpoint"})", false},
      {R"({"system":"spherical-pendulum","integrator":"trapezoid"})", false},
      {R"({"system":"double-spherical-pendulum","integrator":"midpoint","params":{"damping":0.3}})", false},
      {R"({"system":"chain","integrator":"midpoint","params":{"masses":[0.1,0.2,0.1],"lengths":[0.25,0.3,0.25]}})",
       false},
      {R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.1})", true}};  // near step 24
  for (const auto& [text, refused] : scenarios)
    for (int stride : {1, 7}) {
      INFO(text << ", history every " << stride);
      CHECK(test::batchedDiffersFromSingle(text, stride, refused) == "");
    }
}
