// Property sweep over the registry: every (system, integrator) pair is checked for
// what its entry claims. Symplectic entries must preserve the canonical form of the
// 50-step map to 1e-9 at h = 0.01 (finite differences in local canonical
// coordinates on the constraint manifold), and the non-symplectic ones must FAIL that
// threshold on every nonlinear system (negative control); symmetric entries must be
// time-reversible. The same on a gyroscopic system defined by data (a charged particle
// in a magnetic field: L_q̇q ≠ 0), for every entry that accepts it.
#include <catch2/catch.hpp>

#include "charts.hpp"
#include "claims_systems.hpp"
#include "field_scenes.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

// The system's default scenario with this integrator at step h. The oscillator runs
// with k = 100 (ω = 10) so that h ω = 0.1, like the pendulums' h √(g/l) ≈ 0.03.
std::string scenarioFor(const SystemEntry& s, const IntegratorEntry& i, double h) {
  Json j = {{"system", s.id}, {"integrator", i.id}, {"h", h}};
  if (s.model == ModelKind::Lagrangian && !acceptsDefault(s.id, i.id)) {
    j = lagrangianScene("henon-heiles");
    j["integrator"] = i.id;
    j["h"] = h;
  }
  if (s.id == "oscillator") j["params"] = {{"stiffness", 100.0}};
  // A field on 32 points: the leapfrog's stable steps reach 1/31 (at the default 128 points
  // h = 0.01 is beyond them), and the Jacobians stay 60 × 60.
  if (s.model == ModelKind::Field) {
    j["params"] = s.defaultParams;
    j["params"]["grid"]["points"] = 32;
    j["initial"] = s.defaultInitial(ParamValues());
  }
  // Penalty springs as stiff as the oscillator's: at the default μ = 1e4 they vibrate at
  // 100 rad/s, unresolved at h = 0.01, and finite differences of the 50-step map lose
  // the accuracy the 1e-9 threshold needs (μ does not change what is being tested).
  if (i.id == "penalty") j["options"] = {{"mu", 100.0}};
  return j.dump();
}

// The map z ↦ z' of `steps` steps in canonical coordinates centred on the start and
// on the end of the unperturbed run.
struct CanonicalMap {
  Simulation sim;
  CotangentChart start, end;
  long steps;
  CanonicalMap(const std::string& scenario, long n)
      : sim(simulate(scenario, 1000000)),
        start(sim.scenario().model, sim.state(), sim.scenario().integrator->stateRules.positionsOnManifold),
        end(start),
        steps(n) {
    sim.advance(static_cast<std::uint64_t>(n));
    end = CotangentChart(sim.scenario().model, sim.state(), sim.scenario().integrator->stateRules.positionsOnManifold);
    sim.setState(sim.scenario().initial);
  }
  VecX z0() const { return start.lower(sim.scenario().initial); }
  VecX operator()(const VecX& z) {
    sim.setState(start.lift(z));
    sim.advance(static_cast<std::uint64_t>(steps));
    return end.lower(sim.state());
  }
};

}  // namespace

TEST_CASE("every pair: symplectic entries preserve the canonical form, the others do not", "[properties][symplectic]") {
  const double h = 0.01;
  for (const auto& system : systemRegistry()) {
    // A mechanism's canonical state (x and a quaternion per body, on the joints'
    // manifold) has its own chart: test_mechanism_symplectic.cpp, on every scene.
    if (system.model == ModelKind::Mechanism) continue;
    for (const auto& id : integratorsOf(system)) {
      const IntegratorEntry& integrator = *findIntegrator(id);
      CanonicalMap map(scenarioFor(system, integrator, h), 50);
      const VecX z0 = map.z0();
      // Steps of 1e-3 rad in the positions and 1e-3 of the largest momentum (charts.hpp).
      const Eigen::MatrixXd J = canonicalJacobian([&](const VecX& z) { return map(z); }, z0, 1e-3);
      const double defect = symplecticDefect(J);
      INFO(system.id << " / " << id << ": ‖JᵀΩJ − Ω‖ = " << defect << ", max|J| = " << J.cwiseAbs().maxCoeff());
      if (integrator.symplectic) {
        CHECK(defect <= 1e-9);
      } else if (system.id != "oscillator" && integrator.id != "dopri5") {
        // Negative controls on every nonlinear system. Linear equations are the
        // exception: there the discrete gradient is the midpoint rule (symplectic) and
        // RK4's defect is O((hω)⁶) per step. DOPRI5 is reported, not required to fail:
        // at h = 0.01 it takes one fifth-order substep per step, whose defect over 50
        // steps (about 2e-10) is below what finite differences resolve here.
        CHECK(defect > 1e-9);
      }
    }
  }
}

namespace {
// ‖JᵀΩJ − Ω‖ of the 50-step map of this scenario (steps as above).
double fiftyStepDefect(const std::string& scenario) {
  CanonicalMap map(scenario, 50);
  return symplecticDefect(canonicalJacobian([&](const VecX& z) { return map(z); }, map.z0(), 1e-3));
}
}  // namespace

TEST_CASE("every pair on a gyroscopic data system: symplectic entries preserve the canonical form, the others do not",
          "[properties][symplectic]") {
  int symplectic = 0, controls = 0;
  for (const auto& id : integratorsOf(*findSystem("lagrangian"))) {
    const IntegratorEntry& integrator = *findIntegrator(id);
    Json j = chargedParticle();
    j["integrator"] = id;
    if (id == "penalty") j["options"] = {{"mu", 100.0}};
    try {
      makeIntegrator(parseScenario(j));
    } catch (const InputError& e) {
      // Refused where its claim would be false (newmark), or where the energy level
      // cannot be held (sem): both tested in test_claims.cpp.
      INFO(id << " refuses: " << e.message());
      CHECK((id == "newmark" || id == "sem"));
      continue;
    }
    const double defect = fiftyStepDefect(j.dump());
    INFO(id << ": ‖JᵀΩJ − Ω‖ = " << defect);
    if (integrator.symplectic) {
      CHECK(defect <= 1e-9);
      ++symplectic;
    } else if (id != "dopri5") {
      CHECK(defect > 1e-9);
      ++controls;
    }
  }
  CHECK(symplectic >= 8);
  CHECK(controls >= 3);
}

// The AVI's claim with elements on two step sizes (the sweep above runs it with one, where
// it is the leapfrog): its map over whole steps h, after which every element has reached
// the same time, is a composition of each element's kick and the nodes' drifts (Lew,
// Marsden, Ortiz & West 2003, §3), each symplectic. On the built-in string, the stiff
// string as shipped (steps chosen by each cell's CFL limit), and typed densities of one
// component and of two; RK4 at the same h (the stiff string: at its fine step, where it is
// stable) must miss the threshold.
TEST_CASE("fields: the AVI with two step sizes preserves the canonical form over whole steps, RK4 does not",
          "[properties][symplectic][field-avi]") {
  struct Case {
    const char* scene;
    int points;  // 0: the scene's grid
  };
  for (const Case& c : {Case{"plucked-string", 32}, Case{"stiff-string", 0}, Case{"nonlinear-string", 32},
                        Case{"whirling-string", 24}}) {
    Json j = fieldSceneFile(c.scene);
    if (c.points > 0) j["params"]["grid"]["points"] = c.points;
    if (j["integrator"] != "avi") j["options"] = {{"fine", 3}, {"from", 0.5}};
    j["integrator"] = "avi";
    const double avi = fiftyStepDefect(j.dump());
    // RK4 where it is stable: at the AVI's fine step when its stiff cells need one (at h
    // it blows up there, which would prove nothing about its form).
    j["integrator"] = "rk4";
    if (c.points == 0) j["h"] = j["h"].get<double>() / j["options"]["fine"].get<double>();
    j.erase("options");
    const double rk4 = fiftyStepDefect(j.dump());
    WARN(c.scene << ": ‖JᵀΩJ − Ω‖ of 50 steps, AVI " << avi << ", RK4 " << rk4);
    CHECK(avi <= 1e-9);
    CHECK(rk4 > 1e-9);
  }
}

TEST_CASE("every pair: symmetric entries are time-reversible", "[properties][reversible]") {
  for (const auto& system : systemRegistry()) {
    for (const auto& id : integratorsOf(system)) {
      const IntegratorEntry& integrator = *findIntegrator(id);
      if (!integrator.symmetric) continue;
      Simulation sim = simulate(scenarioFor(system, integrator, 0.01), 1000000);
      const State s0 = sim.state();
      // 80 steps out, momenta reversed, 80 steps back (the default double spherical
      // pendulum is chaotic, and `angles-midpoint` meets a pole at step 87).
      sim.advance(80);
      sim.setState({sim.q(), -sim.p()});
      sim.advance(80);
      const double dq = maxDifference(sim.q(), s0.q), dp = maxDifference(-sim.p(), s0.p);
      INFO(system.id << " / " << id << ": |Δq| = " << dq << ", |Δp| = " << dp);
      CHECK(dq <= 1e-10 * (1 + s0.q.cwiseAbs().maxCoeff()));
      CHECK(dp <= 1e-10 * (1 + s0.p.cwiseAbs().maxCoeff()));
    }
  }
}

TEST_CASE("every pair: the canonical state round-trips and the hash ignores batching", "[properties][state]") {
  for (const auto& system : systemRegistry()) {
    for (const auto& id : integratorsOf(system)) {
      const std::string scenario = scenarioFor(system, *findIntegrator(id), system.defaultH);
      Simulation a = simulate(scenario, 7), b = simulate(scenario, 1000000);
      // 60 steps: `angles-midpoint` meets its chart's pole on the default double
      // spherical pendulum at step 87 (tested in test_generalized.cpp).
      a.advance(60);
      for (int k = 0; k < 3; ++k) b.advance(20);
      INFO(system.id << " / " << id);
      CHECK(a.hash() == b.hash());
      // setState of the state just read: the same state, step 0. Explicit Euler on the
      // stiff oscillator (ωh = 1) doubles the energy per step and leaves the magnitudes
      // initial data may have (|x| ≤ 1e6): setState refuses that, naming the field.
      const State s = a.state();
      if (id == "euler" && system.id == "oscillator") {
        CHECK(std::abs(s.q[0]) > limits::kMaxCoordinate);
        CHECK_THROWS_WITH(a.setState(s), Catch::StartsWith("q[0]: must be at most 1e6 m"));
        continue;
      }
      a.setState(s);
      CHECK(maxDifference(a.q(), s.q) <= 1e-15 * (1 + s.q.cwiseAbs().maxCoeff()));
      CHECK(maxDifference(a.p(), s.p) <= 1e-14 * (1 + s.p.cwiseAbs().maxCoeff()));
      CHECK(a.step() == 0);
      // A state off the manifold by 1e-6 is refused, naming q.
      // (The oscillator, the default system defined by data and fields have no constraints.)
      if (system.model != ModelKind::Oscillator && system.model != ModelKind::Lagrangian &&
          system.model != ModelKind::Field && findIntegrator(id)->stateRules.positionsOnManifold) {
        State bad = s;
        bad.q[0] += 1e-6;
        CHECK_THROWS_WITH(a.setState(bad), Catch::Contains("q"));
      }
    }
  }
}
