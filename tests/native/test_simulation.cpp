// The stepping contract: advance(n) takes exactly n steps or throws at the first
// refused one with the state kept at the last good step; advanceFor() bounds a call
// by time; every step is checked (finite, and no spurious roots); setState checks
// and projects the canonical state.
#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <optional>
#include <tuple>

#include "support.hpp"
#include "vilab/csv.hpp"

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
  for (const char* s :
       {R"({"system":"double-spherical-pendulum"})", R"({"system":"rigid-body","integrator":"quaternion"})",
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

TEST_CASE("a refused step throws with code, reason, suggestion and stepsTaken — the state stays",
          "[simulation][failure]") {
  // The default DSP with the midpoint rule at h = 0.1 (step 24): its discrete equations have no
  // solution near the motion (the midpoint DEL of the DSP has no real root beyond
  // h ≈ 0.05 here).
  Simulation sim = simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.1})");
  std::string before;
  std::uint64_t stepBefore = 0;
  std::string reason;
  bool failed = false;
  for (int k = 0; k < 1000 && !failed; ++k) {
    before = sim.hash();
    stepBefore = sim.step();
    try {
      sim.advance(3);
    } catch (const StepFailure& e) {
      failed = true;
      reason = e.refusal().reason;
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
  // Unrecorded steps (the fused chain checks) are refused at the same step, alike.
  Simulation sparse = simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.1})", 1000);
  try {
    sparse.advance(3000);
    FAIL("the unrecorded steps were not refused");
  } catch (const StepFailure& e) {
    CHECK(e.refusal().reason == reason);
  }
  CHECK(sparse.step() == sim.step());
  CHECK(sparse.hash() == sim.hash());
  // The state is that of the last good step: re-running to it gives the same hash.
  Simulation again = simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.1})");
  again.advance(sim.step());
  CHECK(again.hash() == sim.hash());
  // And the simulation stays usable.
  CHECK(std::isfinite(sim.diagnostics().energy));
  sim.setState(sim.scenario().initial);
  CHECK(sim.step() == 0);
}

TEST_CASE("every step is checked: a jump far beyond the energy, or a non-finite state, is refused",
          "[simulation][failure]") {
  // Recorded steps (stride 1) and unrecorded ones (stride 1000: the fused chain checks)
  // refuse alike, with the same reason.
  std::string reasons[2][2];
  for (int stride : {1, 1000})
    for (Misbehaving::Mode mode : {Misbehaving::Mode::Jump, Misbehaving::Mode::NotFinite}) {
      INFO("stride " << stride);
      gMode = mode;
      Scenario s = parseScenario(std::string(R"({"system":"double-spherical-pendulum"})"));
      const Pairing fake{s.pairing->model, s.pairing->integrator, &makeMisbehaving};
      s.pairing = &fake;
      SimulationOptions options;
      options.historyStride = stride;
      Simulation sim(s, options);
      sim.advance(5);
      const State good = sim.state();
      try {
        sim.advance(10);
        FAIL("the bad step was not refused");
      } catch (const StepFailure& e) {
        INFO(e.what());
        CHECK(e.step() == 6);
        CHECK(e.stepsTaken() == 0);
        CHECK(e.refusal().code ==
              (mode == Misbehaving::Mode::Jump ? RefusalCode::SpuriousRoot : RefusalCode::NonFinite));
        reasons[stride == 1 ? 0 : 1][mode == Misbehaving::Mode::Jump ? 0 : 1] = e.refusal().reason;
      }
      CHECK(sim.step() == 5);
      CHECK(maxDifference(sim.q(), good.q) == 0);
      CHECK(maxDifference(sim.p(), good.p) == 0);
      CHECK(std::isfinite(sim.diagnostics().energy));
    }
  for (int mode = 0; mode < 2; ++mode) {
    CHECK(!reasons[0][mode].empty());
    CHECK(reasons[0][mode] == reasons[1][mode]);
  }
}

TEST_CASE("advanceFor bounds a call by time and never changes the trajectory", "[simulation]") {
  const std::string s = R"({"system":"double-spherical-pendulum","integrator":"penalty","h":0.001})";
  Simulation sim = simulate(s, 1000000);
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  const AdvanceProgress p = sim.advanceFor(100000000, 20);
  // The call's own time is its CPU time: CTest runs this beside other processes, and a
  // preempted call's wall time includes theirs (one took 89 ms of wall time in CI). A call
  // that checked its clock too rarely would overrun in CPU time too.
  const double cpuMs = 1000.0 * static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  INFO(p.steps << " steps in " << cpuMs << " ms of CPU (" << ms << " ms of wall time)");
  CHECK(!p.done);
  CHECK(p.steps >= 1);
  CHECK(cpuMs < 20 + 50);  // the budget, plus at most one chunk of about 1 ms (generous on a loaded machine)
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

  // Energy–momentum takes any finite p (projected onto the hidden constraint when it runs).
  Simulation em = simulate(R"({"system":"double-spherical-pendulum","integrator":"energy-momentum"})");
  State n = em.state();
  n.p.segment<3>(0) += 0.3 * n.q.segment<3>(0);
  em.setState(n);
  CHECK(maxDifference(em.p(), n.p) == 0);
}

TEST_CASE("a refusal's message stays within its bound, the reason cut and the step numbers kept",
          "[simulation][failure][input]") {
  // A reason of 400 bytes with multi-byte characters (as the velocity-jump refusal's Δq' and ½):
  // the message, with the longest call name before it, fits kMaxMessageBytes.
  std::string reason;
  while (reason.size() < 400) reason += "Δq' ½ jump ";
  const Refusal refusal = Refusal::of(RefusalCode::NonFinite, reason, Suggestion::reduceH());
  const StepFailure e(123456789, refusal, 3);
  CHECK(e.message().size() + StepFailure::kCallRoom <= limits::kMaxMessageBytes);
  CHECK(std::string(e.what()) == e.message());
  CHECK(e.message().rfind("step 123456789 refused: Δq' ½ jump", 0) == 0);
  CHECK_THAT(e.message(), Catch::EndsWith("…; reduce h (the state stays at step 123456788)"));
  CHECK(invalidUtf8Offset(e.message()) == std::string::npos);
  CHECK(e.refusal().reason == reason);  // the refusal itself keeps its words
  // A short reason is not cut.
  const StepFailure brief(2, Refusal::of(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH()),
                          1);
  CHECK(brief.message() == "step 2 refused: the new state is not finite; reduce h (the state stays at step 1)");
}

namespace {

// Steps until the first refusal (at most n); returns it, or nullopt when all ran.
std::optional<StepFailure> runUntilRefused(Simulation& sim, std::uint64_t n) {
  try {
    sim.advance(n);
  } catch (const StepFailure& e) {
    return e;
  }
  return std::nullopt;
}

// Every number the simulation reports is finite and within ±kMaxMagnitude.
void checkReported(const Simulation& sim) {
  const auto ok = [](double x) { return std::abs(x) <= limits::kMaxMagnitude; };
  CHECK(std::all_of(sim.q().data(), sim.q().data() + sim.q().size(), ok));
  CHECK(std::all_of(sim.p().data(), sim.p().data() + sim.p().size(), ok));
  std::vector<double> rows;
  std::uint64_t count = 0;
  sim.history().read(0, rows, count);
  CHECK(std::all_of(rows.begin(), rows.end(), ok));
  const std::string row = csvRow(sim);
  CHECK(row.find("inf") == std::string::npos);
  CHECK(row.find("nan") == std::string::npos);
}

}  // namespace

TEST_CASE("a step that overflows is refused at once, with the state of the step before", "[simulation][failure]") {
  // RK4 at ωh ≈ 3.2 grows the state 2.1-fold per step: the energy passes 1e300 at step
  // 464 and the double range at 470; the state itself would overflow only near 938.
  // Explicit Euler at ωh = 1 doubles the energy per step (overflow near step 1024).
  for (const auto& [text, first, last] : std::vector<std::tuple<std::string, int, int>>{
           {R"({"system":"oscillator","integrator":"rk4","h":0.1,"params":{"stiffness":1000}})", 430, 470},
           {R"({"system":"oscillator","integrator":"euler","h":1})", 950, 1025}}) {
    Simulation sim = simulate(text, 1);
    const auto refused = runUntilRefused(sim, 3000);
    REQUIRE(refused);
    INFO(refused->what());
    CHECK(refused->refusal().code == RefusalCode::NonFinite);
    CHECK(refused->step() >= static_cast<std::uint64_t>(first));
    CHECK(refused->step() <= static_cast<std::uint64_t>(last));
    CHECK(sim.step() == refused->step() - 1);
    CHECK(sim.diagnostics().energy <= limits::kMaxMagnitude);
    checkReported(sim);
    // the refusal repeats; the state does not move
    const std::string hash = sim.hash();
    CHECK(runUntilRefused(sim, 1));
    CHECK(sim.hash() == hash);
  }
}

TEST_CASE("setState takes no more than initial data may give", "[simulation][input]") {
  Simulation osc = simulate(R"({"system":"oscillator"})");
  State s = osc.state();
  s.p[0] = 1e300;  // the audit's p × 1e300: energy Infinity
  CHECK_THROWS_WITH(osc.setState(s), Catch::StartsWith("p[0]: the velocity p/m must be at most 1e6 m/s"));
  s = osc.state();
  s.q[0] = 2e6;
  CHECK_THROWS_WITH(osc.setState(s), Catch::StartsWith("q[0]: must be at most 1e6 m"));
  s.q[0] = 1e6;  // the bound itself is initial data
  osc.setState(s);

  Simulation body = simulate(R"({"system":"rigid-body"})");
  State b = body.state();
  b.p = Vec3(1e6, 0, 0);  // ω1 = 1e6 rad/s
  CHECK_THROWS_WITH(body.setState(b), Catch::StartsWith("p[0]: the angular velocity Π/I must be at most 1e4 rad/s"));
  b.p = Vec3(1e4, 0, 0);
  body.setState(b);

  Simulation dsp = simulate(R"({"system":"double-spherical-pendulum"})");
  State d = dsp.state();
  d.p *= 1e300;
  CHECK_THROWS_WITH(dsp.setState(d), Catch::Contains("must be at most") && Catch::StartsWith("p["));
  d = dsp.state();
  d.p *= 1e3;  // about 2e3 m/s: what rates up to 1e4 rad/s give on 2 m of chain
  dsp.setState(d);
  checkReported(dsp);

  // A system defined by data: q and the velocity recovered from p, as initial.q and qdot.
  Simulation data = simulate(R"({"system":"lagrangian"})");
  State l = data.state();
  l.q[0] = 1e7;
  CHECK_THROWS_WITH(data.setState(l), Catch::StartsWith("q[0]: must be at most 1e6"));
  l = data.state();
  l.p[0] = 1e300;
  CHECK_THROWS_WITH(data.setState(l), Catch::StartsWith("p[0]: the velocity must be at most 1e6"));
  CHECK(data.step() == 0);
}

TEST_CASE("a definition's diagnostics must be finite at the initial state and after every step",
          "[simulation][lagrangian]") {
  Json scenario = Json::parse(R"({"system":"lagrangian","integrator":"midpoint","h":0.01,
    "params":{"coordinates":["x"],"lagrangian":"x'^2/2 - x^2/2","conserved":{"inv":"1/x"}},
    "initial":{"q":[0],"qdot":[1]}})");
  try {
    Simulation sim(parseScenario(scenario));
    FAIL("a conserved quantity that is infinite at the start was accepted");
  } catch (const InputError& e) {
    CHECK(e.field() == "params");
    CHECK_THAT(e.what(), Catch::Contains("conserved.inv"));
  }
  // x = sin t: exp(1000 x) passes 1e300 where x ≈ 0.6908, at t ≈ 0.763 s (step 76).
  scenario["params"]["conserved"] = Json::parse(R"j({"big":"exp(1000*x)"})j");
  Simulation sim(parseScenario(scenario));
  const auto refused = runUntilRefused(sim, 1000);
  REQUIRE(refused);
  INFO(refused->what());
  CHECK(refused->refusal().code == RefusalCode::NonFinite);
  CHECK_THAT(refused->refusal().reason, Catch::Contains("conserved.big"));
  CHECK(refused->step() >= 70);
  CHECK(refused->step() <= 80);
  checkReported(sim);
}

TEST_CASE("a chain's rows skipped between records change nothing: stride k holds every k-th row of stride 1",
          "[simulation][determinism]") {
  // A step that is not recorded forms no diagnostics row (when its state is surely
  // representable); the rows recorded, diagnostics() and the states are the same bits.
  for (const char* text : {R"({"system":"double-spherical-pendulum"})", R"({"system":"chain"})",
                           R"({"system":"pendulum","integrator":"trapezoid"})"}) {
    INFO(text);
    Simulation every = simulate(text, 1), sparse = simulate(text, 7);
    run(every, 700);
    run(sparse, 700);
    CHECK(every.hash() == sparse.hash());
    std::vector<double> a, b;
    std::uint64_t na = 0, nb = 0;
    every.history().read(0, a, na);
    sparse.history().read(0, b, nb);
    REQUIRE(na == 701);
    REQUIRE(nb == 101);
    const int columns = every.history().columnCount();
    REQUIRE(columns == sparse.history().columnCount());
    int same = 0;
    for (std::uint64_t k = 0; k < nb; ++k)
      for (int c = 0; c < columns; ++c) same += a[c * na + 7 * k] == b[c * nb + k];
    CHECK(same == static_cast<int>(nb) * columns);
    const Diagnostics da = every.diagnostics(), db = sparse.diagnostics();
    CHECK(da.energy == db.energy);
    CHECK(da.constraint == db.constraint);
    CHECK(da.momentum[0] == db.momentum[0]);
  }
}
