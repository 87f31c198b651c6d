// The symplectic–energy–momentum integrator with variable steps (Kane, Marsden & Ortiz
// 1999): the discrete energy E_d is conserved to rounding, the steps stay in (0, 4h],
// the momentum map and the constraints are kept, the Simulation sums the steps into
// its clock, reversibility at a fixed level, and the refusal where no step size
// conserves the energy (the chains' default motions), and a level the first steps cannot
// hold refused at load.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "claims_systems.hpp"
#include "support.hpp"
#include "vilab/integrators/sem.hpp"
#include "vilab/scenario.hpp"

using namespace vilab;
using vilab::test::column;
using vilab::test::maxDifference;
using vilab::test::simulate;

namespace {

// The elastic pendulum: the default of system "lagrangian" (scenes/lagrangian/elastic-pendulum.json).
std::string elasticPendulum(const std::string& integrator) {
  return R"({"system":"lagrangian","integrator":")" + integrator + R"("})";
}

// What a run of n steps measured: the largest |E_d − E|/|E|, |H − H_0|/|H_0|, step
// sizes, and the steps taken before a refusal (n when none).
struct RunReport {
  long steps = 0;
  double energyError = 0, hamiltonianDrift = 0, hMin = 1e300, hMax = 0, time = 0;
  double trials = 0, iterations = 0;
  Refusal refusal;
};

template <class Fixed, class EnergyOf, class Each>
RunReport runSem(SymplecticEnergyMomentum<Fixed>& sem, const State& initial, long n, EnergyOf energyOf, Each each) {
  RunReport r;
  sem.load(initial);
  const double level = sem.energyLevel(), H0 = energyOf(initial);
  State s = initial, next = initial;
  for (; r.steps < n; ++r.steps) {
    const StepOutcome o = sem.step();
    if (!o.ok) {
      r.refusal = o.refusal;
      break;
    }
    sem.store(next);
    const double h = sem.lastStep();
    r.energyError = std::max(r.energyError, std::abs(sem.discreteEnergy(s.q, next.q, h) - level) / std::abs(level));
    r.hamiltonianDrift = std::max(r.hamiltonianDrift, std::abs(energyOf(next) - H0) / std::abs(H0));
    r.hMin = std::min(r.hMin, h);
    r.hMax = std::max(r.hMax, h);
    r.time += h;
    r.trials += sem.lastTrials();
    r.iterations += o.iterations;
    each(next);
    s = next;
  }
  r.trials /= std::max<long>(r.steps, 1);
  r.iterations /= std::max<long>(r.steps, 1);
  return r;
}

}  // namespace

TEST_CASE("sem: the elastic pendulum keeps E_d to rounding over 1e5 variable steps", "[sem]") {
  const Scenario sc = parseScenario(elasticPendulum("midpoint"));
  const LagrangianModel& m = std::get<LagrangianModel>(sc.model);
  SymplecticEnergyMomentum<LagrangianMidpointStep> sem(LagrangianMidpointStep(m.problem), sc.h);
  const RunReport r = runSem(
      sem, sc.initial, 100000, [&](const State& s) { return m.energy(s); }, [](const State&) {});
  INFO("h = " << sc.h << ": |E_d − E|/|E| ≤ " << r.energyError << ", |H − H0|/|H0| ≤ " << r.hamiltonianDrift
              << ", h_k/h in [" << r.hMin / sc.h << ", " << r.hMax / sc.h << "], trials/step " << r.trials
              << ", Newton iterations/step " << r.iterations << ", " << r.refusal.reason);
  REQUIRE(r.steps == 100000);
  CHECK(r.energyError <= 1e-12);
  // The Hamiltonian is not the conserved quantity: it moves, within O(h²).
  CHECK(r.hamiltonianDrift > 1e-9);
  CHECK(r.hamiltonianDrift < 1e-4);
  CHECK(r.hMin > 0);
  CHECK(r.hMax <= sem::kMaxStepRatio * sc.h);
  // docs/methods.md's figures: h_k in [0.75h, 1.08h], E_d to 1.4e-14.
  CHECK(r.hMin >= 0.75 * sc.h);
  CHECK(r.hMax <= 1.08 * sc.h);
  CHECK(r.energyError <= 1.5e-14);
  WARN("sem elastic pendulum: |E_d − E|/|E| ≤ "
       << r.energyError << ", |H − H0|/|H0| ≤ " << r.hamiltonianDrift << ", h_k/h in [" << r.hMin / sc.h << ", "
       << r.hMax / sc.h << "], trials/step " << r.trials << ", iterations/step " << r.iterations);
}

TEST_CASE("sem: on the oscillator the level sets a constant step and H is kept", "[sem]") {
  // The midpoint DEL of the oscillator conserves H exactly and E_d = H − H(Δz/2): the
  // level set by the nominal step gives h_k = h at every step.
  const Scenario sc = parseScenario(std::string(R"({"system":"oscillator","integrator":"midpoint","h":0.1})"));
  const OscillatorModel& m = std::get<OscillatorModel>(sc.model);
  SymplecticEnergyMomentum<OscillatorMidpointStep> sem(OscillatorMidpointStep{m}, sc.h);
  const RunReport r = runSem(
      sem, sc.initial, 20000, [&](const State& s) { return m.energy(s); }, [](const State&) {});
  INFO(r.energyError << " " << r.hamiltonianDrift << " [" << r.hMin << ", " << r.hMax << "]");
  REQUIRE(r.steps == 20000);
  CHECK(r.energyError <= 1e-12);
  CHECK(r.hamiltonianDrift <= 1e-12);
  CHECK(std::abs(r.hMin - sc.h) <= 1e-12 * sc.h);
  CHECK(std::abs(r.hMax - sc.h) <= 1e-12 * sc.h);
  // E < H: the loaded state's own H would be no level at all (no root but h = 0).
  CHECK(sem.energyLevel() < m.energy(sc.initial));
}

TEST_CASE("sem: the chains' default motions have no energy-conserving step after a few steps", "[sem]") {
  // With uniform gravity (V linear) E_d − ½(H_k + H_{k+1}) ≈ −m|a|²h²/8: the step the
  // level asks for scales like 1/|a|, and along the default pendulum and double
  // spherical pendulum motions |a| falls by more than the factor 4 the steps may grow.
  // The step is refused, the state unchanged; what was taken keeps E_d, J_z and the links.
  for (const char* system : {"double-spherical-pendulum", "pendulum"}) {
    for (double h : {0.01, 0.0025}) {
      const Scenario sc = parseScenario(std::string(R"({"system":")") + system + R"(","integrator":"midpoint"})");
      const ChainModel& m = std::get<ChainModel>(sc.model);
      SymplecticEnergyMomentum<ChainMidpointStep> sem(ChainMidpointStep(m), h);
      const double J0 = m.verticalMomentum(sc.initial);
      double jz = 0, links = 0;
      const RunReport r = runSem(
          sem, sc.initial, 100000, [&](const State& s) { return m.energy(s); },
          [&](const State& s) {
            jz = std::max(jz, std::abs(m.verticalMomentum(s) - J0));
            for (int i = 0; i < m.bobs(); ++i)
              links = std::max(links, std::abs(chainLink(s.q.data(), i).norm() - m.lengths[i]) / m.lengths[i]);
          });
      INFO(system << " h = " << h << ": " << r.steps << " steps (t = " << r.time << " s), h_k/h up to " << r.hMax / h
                  << ", |E_d − E|/|E| ≤ " << r.energyError << ", |ΔJ_z| ≤ " << jz << ", links ≤ " << links);
      WARN("sem " << system << " h = " << h << ": refused after " << r.steps << " steps (t = " << r.time
                  << " s), h_k/h up to " << r.hMax / h << ", |E_d − E|/|E| ≤ " << r.energyError << ", |ΔJ_z| ≤ " << jz
                  << ", links ≤ " << links);
      CHECK(r.steps < 100000);
      CHECK(r.refusal.reason == "no step size conserves the energy here");
      // The same physical time at both h: a property of the motion, not of the step.
      CHECK(r.time > 0.1);
      CHECK(r.time < 0.5);
      CHECK(r.energyError <= 1e-12);
      CHECK(jz <= 1e-11 * (1 + std::abs(J0)));
      CHECK(links <= 1e-12);
      // The refused step left the state as it was.
      State before, after;
      sem.store(before);
      CHECK_FALSE(sem.step().ok);
      sem.store(after);
      CHECK(after.q == before.q);
      CHECK(after.p == before.p);
    }
  }
}

TEST_CASE("sem: reversible on a fixed energy level", "[sem]") {
  const Scenario sc = parseScenario(elasticPendulum("midpoint"));
  SymplecticEnergyMomentum<LagrangianMidpointStep> sem(
      LagrangianMidpointStep(std::get<LagrangianModel>(sc.model).problem), sc.h);
  sem.load(sc.initial);
  const double level = sem.energyLevel();
  // Away from the initial rest: at a turning point (q̇ = 0) E_d hardly depends on h,
  // and h_k (so p_{k+1} = p_k + h_k L_q + …) is fixed only to about 1e-9.
  for (int k = 0; k < 50; ++k) REQUIRE(sem.step().ok);
  State start, s;
  sem.store(start);
  sem.loadOnLevel(start, level);
  for (int k = 0; k < 200; ++k) REQUIRE(sem.step().ok);
  sem.store(s);
  sem.loadOnLevel({s.q, -s.p}, level);
  for (int k = 0; k < 200; ++k) REQUIRE(sem.step().ok);
  sem.store(s);
  const double dq = maxDifference(s.q, start.q), dp = maxDifference(-s.p, start.p);
  INFO("|Δq| = " << dq << ", |Δp| = " << dp);
  CHECK(dq <= 1e-10 * (1 + start.q.cwiseAbs().maxCoeff()));
  CHECK(dp <= 1e-10 * (1 + start.p.cwiseAbs().maxCoeff()));
}

TEST_CASE("sem: through a Simulation the clock is the sum of the steps, history column dt", "[sem]") {
  Simulation sim = simulate(elasticPendulum("sem"));
  const auto& columns = sim.history().columns();
  REQUIRE(std::find(columns.begin(), columns.end(), "dt") != columns.end());
  sim.advance(2000);
  const std::vector<double> dt = column(sim, "dt"), t = column(sim, "t");
  REQUIRE(dt.size() == 2001);
  double sum = 0;
  for (std::size_t k = 1; k < dt.size(); ++k) {
    sum += dt[k];
    CHECK(t[k] == sum);
  }
  CHECK(sim.time() == sum);
  CHECK(dt[1] == sim.scenario().h);  // the first step is the nominal midpoint step
  CHECK(sim.time() != 2000 * sim.scenario().h);
}

TEST_CASE(
    "sem: a level it cannot hold is refused at load, naming the step — every shipped scene it accepts runs 1e5 steps",
    "[sem][long]") {
  // KMO's solvability limit, measured on every shipped autonomous scene and on a charged
  // particle on a sphere: where the level fails within the steps run at load, the
  // scenario is refused with that step; every scene accepted runs 1e5 steps.
  std::vector<std::pair<std::string, Json>> subjects;
  for (const char* scene : {"cart-pendulum", "double-pendulum", "driven-damped-pendulum", "elastic-pendulum", "fput",
                            "henon-heiles", "kapitza", "kepler", "newmark-vs-rk4", "rotating-hoop", "swinging-atwood"})
    subjects.emplace_back(scene, test::lagrangianScene(scene));
  subjects.emplace_back("charged particle on a sphere", test::chargedOnSphere());
  int refused = 0, accepted = 0;
  for (auto& [name, j] : subjects) {
    j["integrator"] = "sem";
    j.erase("options");
    std::optional<Scenario> parsed;
    try {
      parsed = parseScenario(j);
    } catch (const InputError& e) {
      // Damped: no energy to conserve, refused as before.
      INFO(name << ": " << e.message());
      CHECK(e.field() == "integrator");
      continue;
    }
    const Scenario& sc = *parsed;
    const LagrangianModel& m = std::get<LagrangianModel>(sc.model);
    if (m.problem->timeDependent) {
      // Driven: refused as before, whatever its first steps.
      CHECK_THROWS_WITH(makeIntegrator(sc), Catch::Contains("time-dependent"));
      continue;
    }
    SymplecticEnergyMomentum<LagrangianMidpointStep> sem(LagrangianMidpointStep(m.problem), sc.h);
    const RunReport r = runSem(
        sem, sc.initial, 100000, [&](const State& s) { return m.energy(s); }, [](const State&) {});
    std::string atLoad;
    try {
      makeIntegrator(sc);
    } catch (const InputError& e) {
      atLoad = e.message();
    }
    WARN("sem on " << name << " (h = " << sc.h << "): " << r.steps << " steps, t = " << r.time << " s"
                   << (atLoad.empty() ? "" : "; at load: " + atLoad));
    if (r.steps < sem::kProbeSteps) {
      CHECK_THAT(atLoad, Catch::StartsWith("integrator: sem cannot hold this motion's energy level: at step " +
                                           std::to_string(r.steps + 1) + " ") &&
                             Catch::Contains("solvability"));
      ++refused;
    } else {
      CHECK(atLoad.empty());
      CHECK(r.steps == 100000);
      CHECK(r.energyError <= 1e-12);
      ++accepted;
    }
  }
  // Measured: the cart pendulum (step 140), the double pendulum (221), Kepler (44) and
  // the swinging Atwood machine (375) are refused; the elastic pendulum, FPUT,
  // Hénon–Heiles, Marsden–West's pendulum, the rotating hoop and the charged particle
  // on a sphere run 1e5 steps.
  CHECK(refused == 4);
  CHECK(accepted == 6);
}

TEST_CASE("sem: Kepler's shipped scene is refused at load at step 44", "[sem]") {
  Json j = test::lagrangianScene("kepler");
  j["integrator"] = "sem";
  CHECK_THROWS_WITH(simulate(j.dump()),
                    Catch::StartsWith("integrator: sem cannot hold this motion's energy level: at "
                                      "step 44 (t = 0.785966 s) no step size conserves the energy"));
}

namespace {
// SEM's trial steps as they were first written: a new LagrangianDel per trial h (the
// reference for the restarted stepper's bits).
struct NewStepperPerTrial : LagrangianMidpointStep {
  using LagrangianMidpointStep::LagrangianMidpointStep;
  std::shared_ptr<const LagrangianProblem> problem;
  StepOutcome solve(const VecX& q, const VecX& p, double h, VecX& q1, VecX& p1) {
    LagrangianDel fresh(problem, DiscreteRule::midpoint(), h);
    q1 = q;
    p1 = p;
    return fresh.step(q1, p1);
  }
};
}  // namespace

TEST_CASE("sem: one stepper restarted per trial h gives the bits of a new stepper per trial", "[sem]") {
  // Quadratic L (shared evaluator answers), constant mass with constraints (the reduced
  // Newton and its J11 of each h), and L not quadratic in q̇ (evaluator renewed).
  for (const char* scene : {"elastic-pendulum", "fput", "cart-pendulum", "henon-heiles", "relativistic-particle",
                            "quartic-kinetic", "rotating-hoop"}) {
    INFO(scene);
    const Scenario sc = parseScenario(test::lagrangianScene(scene));
    const auto& problem = std::get<LagrangianModel>(sc.model).problem;
    SymplecticEnergyMomentum<LagrangianMidpointStep> restarted(LagrangianMidpointStep(problem), sc.h);
    NewStepperPerTrial reference(problem);
    reference.problem = problem;
    SymplecticEnergyMomentum<NewStepperPerTrial> fresh(reference, sc.h);
    restarted.load(sc.initial);
    fresh.load(sc.initial);
    CHECK(restarted.energyLevel() == fresh.energyLevel());
    int steps = 0, trials = 0;
    for (; steps < 300; ++steps) {
      const StepOutcome a = restarted.step(), b = fresh.step();
      REQUIRE(a.ok == b.ok);
      if (!a.ok) break;
      REQUIRE(a.iterations == b.iterations);
      REQUIRE(restarted.lastTrials() == fresh.lastTrials());
      REQUIRE(restarted.lastStep() == fresh.lastStep());
      trials += restarted.lastTrials();
    }
    State x, y;
    restarted.store(x);
    fresh.store(y);
    CHECK(x.q == y.q);
    CHECK(x.p == y.p);
    // Each step tried more than one h: the stepper was restarted at several.
    CHECK(trials > steps);
    CHECK(steps >= 100);
  }
}
