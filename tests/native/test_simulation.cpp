// The stepping contract: advance(n) takes exactly n steps or throws at the first
// refused one with the state kept at the last good step; advanceFor() bounds a call
// by time; every step is checked (finite, and no spurious roots); setState checks
// and projects the canonical state.
#include <catch2/catch.hpp>

#include <chrono>

#include "support.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

// An integrator that behaves for `good` steps and then misbehaves as asked.
class Misbehaving final : public Integrator {
 public:
  enum class Mode { Jump, NotFinite };
  Misbehaving(int good, Mode mode) : good_(good), mode_(mode) {}
  void load(const State& s) override { s_ = s; }
  StepOutcome step() override {
    if (count_++ >= good_) {
      if (mode_ == Mode::NotFinite) {
        s_.p[0] = std::numeric_limits<double>::quiet_NaN();
      } else {
        // Bob 1 swings to the far side of the anchor: the links keep their lengths,
        // but the step moved the system far beyond what its energy allows.
        const Vec3 d1 = s_.q.segment<3>(0), d2 = s_.q.segment<3>(3) - d1;
        s_.q.segment<3>(0) = -d1;
        s_.q.segment<3>(3) = -d1 + d2;
      }
    }
    return {true, 1, {}};
  }
  void store(State& s) const override { s = s_; }

 private:
  int good_, count_ = 0;
  Mode mode_;
  State s_;
};

Misbehaving::Mode gMode = Misbehaving::Mode::Jump;
std::unique_ptr<Integrator> makeMisbehaving(const Model&, const Options&, double) {
  return std::make_unique<Misbehaving>(5, gMode);
}

}  // namespace

TEST_CASE("advance(n) takes exactly n steps, whatever n and the pair", "[simulation]") {
  for (const char* s : {R"({"system":"double-spherical-pendulum"})", R"({"system":"rigid-body","integrator":"quaternion"})",
                        R"({"system":"chain","integrator":"energy-momentum"})", R"({"system":"oscillator"})"}) {
    Simulation sim = simulate(s, 1000);
    sim.advance(0);
    CHECK(sim.step() == 0);
    sim.advance(12345);
    CHECK(sim.step() == 12345);
    CHECK(sim.time() == Approx(12345 * sim.scenario().h).epsilon(1e-15));
    CHECK(sim.history().total() == 1 + 12345 / 1000);
  }
}

TEST_CASE("a refused step throws with code, reason, suggestion and stepsTaken; the state stays", "[simulation][failure]") {
  // The default DSP with the midpoint rule at h = 0.2: its discrete equations have no
  // solution near the motion (the midpoint DEL of the DSP has no real root beyond
  // h ≈ 0.05 here).
  Simulation sim = simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.2})");
  std::string before;
  std::uint64_t stepBefore = 0;
  bool failed = false;
  for (int k = 0; k < 1000 && !failed; ++k) {
    before = sim.hash();
    stepBefore = sim.step();
    try {
      sim.advance(3);
    } catch (const StepFailure& e) {
      failed = true;
      INFO(e.what());
      CHECK(e.refusal().code != RefusalCode::None);
      CHECK(!e.refusal().reason.empty());
      CHECK(e.refusal().suggestion == "reduce h");
      CHECK(e.step() == sim.step() + 1);
      CHECK(e.stepsTaken() == sim.step() - stepBefore);
      CHECK(std::string(e.what()).find("(the state stays at step " + std::to_string(sim.step()) + ")") !=
            std::string::npos);
    }
  }
  REQUIRE(failed);
  // The state is that of the last good step: re-running to it gives the same hash.
  Simulation again = simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.2})");
  again.advance(sim.step());
  CHECK(again.hash() == sim.hash());
  // And the simulation stays usable.
  CHECK(std::isfinite(sim.diagnostics().energy));
  sim.setState(sim.scenario().initial);
  CHECK(sim.step() == 0);
}

TEST_CASE("every step is checked: a jump far beyond the energy, or a non-finite state, is refused", "[simulation][failure]") {
  for (Misbehaving::Mode mode : {Misbehaving::Mode::Jump, Misbehaving::Mode::NotFinite}) {
    gMode = mode;
    Scenario s = parseScenario(std::string(R"({"system":"double-spherical-pendulum"})"));
    const Pairing fake{s.pairing->model, s.pairing->integrator, &makeMisbehaving};
    s.pairing = &fake;
    Simulation sim(s);
    sim.advance(5);
    const State good = sim.state();
    try {
      sim.advance(10);
      FAIL("the bad step was not refused");
    } catch (const StepFailure& e) {
      INFO(e.what());
      CHECK(e.step() == 6);
      CHECK(e.stepsTaken() == 0);
      CHECK(e.refusal().code == (mode == Misbehaving::Mode::Jump ? RefusalCode::SpuriousRoot : RefusalCode::NonFinite));
    }
    CHECK(sim.step() == 5);
    CHECK(maxDifference(sim.q(), good.q) == 0);
    CHECK(maxDifference(sim.p(), good.p) == 0);
    CHECK(std::isfinite(sim.diagnostics().energy));
  }
}

TEST_CASE("advanceFor bounds a call by time and never changes the trajectory", "[simulation]") {
  const std::string s = R"({"system":"double-spherical-pendulum","integrator":"penalty","h":0.001})";
  Simulation sim = simulate(s, 1000000);
  const auto t0 = std::chrono::steady_clock::now();
  const AdvanceProgress p = sim.advanceFor(100000000, 20);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  INFO(p.steps << " steps in " << ms << " ms");
  CHECK(!p.done);
  CHECK(p.steps >= 1);
  CHECK(ms < 20 + 50);  // the budget, plus at most one chunk of about 1 ms (generous on a loaded machine)
  const AdvanceProgress rest = sim.advanceFor(3, 1000);
  CHECK(rest.done);
  CHECK(rest.steps == 3);
  Simulation exact = simulate(s, 1000000);
  exact.advance(p.steps + 3);
  CHECK(exact.hash() == sim.hash());
  CHECK_THROWS_AS(sim.advanceFor(10, 0), InputError);
  CHECK_THROWS_AS(sim.advanceFor(10, std::numeric_limits<double>::quiet_NaN()), InputError);
}

TEST_CASE("setState checks the canonical state and names the field", "[simulation][input]") {
  Simulation dsp = simulate(R"({"system":"double-spherical-pendulum"})");
  State s = dsp.state();
  State wrong = s;
  wrong.q.conservativeResize(5);
  CHECK_THROWS_WITH(dsp.setState(wrong), Catch::StartsWith("q: expected 6 numbers, got 5"));
  wrong = s;
  wrong.p[4] = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(dsp.setState(wrong), Catch::StartsWith("p[4]: must be finite"));
  wrong = s;
  wrong.q[3] += 0.01;
  CHECK_THROWS_WITH(dsp.setState(wrong), Catch::StartsWith("q[1]: off the constraint manifold"));
  wrong = s;
  wrong.p[3] += 0.5;  // bob 2 gains a velocity along link 2
  wrong.p.segment<3>(3) += 0.5 * (s.q.segment<3>(3) - s.q.segment<3>(0));
  CHECK_THROWS_WITH(dsp.setState(wrong), Catch::StartsWith("p[1]: not tangent"));
  // Within the tolerance: projected exactly onto the manifold.
  State close = s;
  close.q[0] += 1e-12;
  dsp.setState(close);
  CHECK(dsp.diagnostics().constraint <= 1e-15);

  Simulation body = simulate(R"({"system":"rigid-body"})");
  State q = body.state();
  q.q *= 1.001;
  CHECK_THROWS_WITH(body.setState(q), Catch::StartsWith("q: must be a unit quaternion"));

  // Energy–momentum momenta are tangent only at midpoints: any finite p is accepted.
  Simulation em = simulate(R"({"system":"double-spherical-pendulum","integrator":"energy-momentum"})");
  State n = em.state();
  n.p.segment<3>(0) += 0.3 * n.q.segment<3>(0);
  em.setState(n);
  CHECK(maxDifference(em.p(), n.p) == 0);
}
