// The survey's family around the midpoint rule (Marsden–West §1.1, §2.5, §3.5): the
// symplectic Euler adjoints, RATTLE, Newmark and the Yoshida compositions, each
// against what it claims and against a method that must fail the same test.
#include <catch2/catch.hpp>
#include <cmath>

#include "support.hpp"
#include "vilab/detmath.hpp"
#include "vilab/exact/oscillator.hpp"
#include "vilab/exact/pendulum.hpp"
#include "vilab/integrators/composition.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_family {

using namespace vilab;
using namespace vilab::test;

namespace {
std::string pendulum(const std::string& integrator, double h, const std::string& options = "{}") {
  return R"({"system":"pendulum","integrator":")" + integrator + R"(","h":)" + std::to_string(h) +
         R"(,"params":{"masses":[1],"lengths":[1],"g":1},"initial":{"angles":[1.0],"rates":[0]},"options":)" + options +
         "}";
}
double angleAt(const State& s) { return dm::atan2(s.q[0], -s.q[2]); }

// max over links of |d_i·(v_i − v_{i−1})| / l_i: the hidden constraint Dg(q)M⁻¹p (m/s).
double hiddenConstraint(const ChainModel& m, const State& s) {
  double worst = 0;
  Vec3 vPrev = Vec3::Zero();
  for (int i = 0; i < m.bobs(); ++i) {
    const Vec3 v = s.p.segment<3>(3 * i) / m.masses[i];
    worst = std::max(worst, std::abs(chainLink(s.q.data(), i).dot(v - vPrev)) / m.lengths[i]);
    vPrev = v;
  }
  return worst;
}

// The angle error at T = 10 of the planar pendulum (m = l = g = 1, θ0 = 1) stepped by `make`.
template <class Make>
std::vector<double> pendulumErrors(Make make, const std::vector<double>& steps) {
  const exact::Pendulum truth(1.0, 1.0, 1.0, 0.0);
  const double T = 10;
  std::vector<double> errors;
  for (double h : steps) {
    const Scenario sc = parseScenario(pendulum("midpoint", h));
    std::unique_ptr<Integrator> integrator = make(sc, h);
    integrator->load(sc.initial);
    const long n = std::lround(T / h);
    for (long k = 0; k < n; ++k) REQUIRE(integrator->step().ok);
    State s = sc.initial;
    integrator->store(s);
    errors.push_back(std::abs(angleAt(s) - truth.theta(T)));
  }
  return errors;
}

std::unique_ptr<Integrator> midpointOnChainStep(const Model& m, const Options&, double h) {
  return findPairing(*findSystem("pendulum"), *findIntegrator("midpoint"))->make(m, Options(), h);
}
}  // namespace

TEST_CASE("symplectic Euler: each variant is first order — half a step of each composes to order 2",
          "[family][symplectic-euler]") {
  const std::vector<double> steps = {0.02, 0.01, 0.005};
  for (int variant : {0, 1}) {
    const auto errors = pendulumErrors(
        [&](const Scenario& sc, double h) {
          Options o;
          o.set("variant", variant);
          return findPairing(*sc.system, *findIntegrator("symplectic-euler"))->make(sc.model, o, h);
        },
        steps);
    for (double order : observedOrders(errors)) {
      INFO("variant " << variant << " errors " << errors[0] << " " << errors[1] << " " << errors[2]);
      CHECK(std::abs(order - 1.0) <= 0.1);
    }
  }
  // Φ^B_{h/2} ∘ Φ^A_{h/2}: a composition with the adjoint is symmetric, hence order 2.
  const auto adjointPair = [](const Scenario& sc, double h) -> std::unique_ptr<Integrator> {
    struct Pair final : Integrator {
      std::unique_ptr<Integrator> a, b;
      State s;
      void load(const State& x) override { s = x; }
      StepOutcome step() override {
        a->load(s);
        StepOutcome o = a->step();
        if (!o.ok) return o;
        a->store(s);
        b->load(s);
        o = b->step();
        b->store(s);
        return o;
      }
      void store(State& x) const override { x = s; }
    };
    auto pair = std::make_unique<Pair>();
    Options A, B;
    A.set("variant", 0);
    B.set("variant", 1);
    const Pairing* row = findPairing(*sc.system, *findIntegrator("symplectic-euler"));
    pair->a = row->make(sc.model, A, h / 2);
    pair->b = row->make(sc.model, B, h / 2);
    return pair;
  };
  const auto errors = pendulumErrors(adjointPair, steps);
  for (double order : observedOrders(errors)) {
    INFO("A∘B errors " << errors[0] << " " << errors[1] << " " << errors[2]);
    CHECK(std::abs(order - 2.0) <= 0.1);
  }
}

TEST_CASE("symplectic Euler: variant is a whole number 0 or 1", "[family][symplectic-euler][input]") {
  try {
    parseScenario(pendulum("symplectic-euler", 0.01, R"({"variant":0.5})"));
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.field() == "options.variant");
    CHECK(std::string(e.what()).find("whole number") != std::string::npos);
  }
}

TEST_CASE("RATTLE: the hidden constraint Dg(q)M⁻¹p stays below 1e-13 over 1e6 DSP steps", "[family][rattle]") {
  const Scenario sc =
      parseScenario(std::string(R"({"system":"double-spherical-pendulum","integrator":"rattle","h":0.01})"));
  const ChainModel& m = std::get<ChainModel>(sc.model);
  std::unique_ptr<Integrator> integrator = makeIntegrator(sc);
  State s = sc.initial;
  double hidden = hiddenConstraint(m, s), links = 0;
  for (long k = 0; k < 1000000; ++k) {
    REQUIRE(integrator->step().ok);
    if (k % 100 == 99) {
      integrator->store(s);
      hidden = std::max(hidden, hiddenConstraint(m, s));
      links = std::max(links, m.linkLengthError(s.q.data()));
    }
  }
  INFO("hidden constraint " << hidden << " m/s, link error " << links << " m");
  CHECK(hidden <= 1e-13);
  CHECK(links <= 1e-13);
}

TEST_CASE("RATTLE is trapezoid (SHAKE with tangent momenta) bit for bit when M is constant", "[family][rattle]") {
  for (const char* system : {"double-spherical-pendulum", "oscillator"}) {
    Simulation a = simulate(std::string(R"({"system":")") + system + R"(","integrator":"rattle","h":0.01})");
    Simulation b = simulate(std::string(R"({"system":")") + system + R"(","integrator":"trapezoid","h":0.01})");
    run(a, 2000);
    run(b, 2000);
    CHECK(a.hash() == b.hash());
  }
}

TEST_CASE("RATTLE refuses a configuration-dependent mass matrix", "[family][rattle][input]") {
  // The pendulum in polar coordinates of a spring: M depends on r.
  const std::string polar =
      R"({"system":"lagrangian","integrator":"rattle","h":0.01,"params":{"coordinates":["r","th"],)"
      R"("lagrangian":"0.5*(r'^2 + r^2*th'^2) - 0.5*(r-1)^2"},"initial":{"q":[1.2,0],"qdot":[0,0.5]}})";
  try {
    Simulation sim = simulate(polar);
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.field() == "integrator");
    CHECK(std::string(e.what()).find("constant mass") != std::string::npos);
  }
}

TEST_CASE("compositions: order 4 and 6 against the exact pendulum — a wrong ordering is caught",
          "[family][composition]") {
  const auto composed = [](const CompositionScheme& scheme) {
    return [scheme](const Scenario& sc, double h) -> std::unique_ptr<Integrator> {
      return std::make_unique<CompositionIntegrator>(sc.model, &midpointOnChainStep, scheme, h);
    };
  };
  const auto order4 = pendulumErrors(composed(CompositionScheme::tripleJump()), {0.2, 0.1, 0.05});
  for (double order : observedOrders(order4)) {
    INFO("order-4 errors " << order4[0] << " " << order4[1] << " " << order4[2]);
    CHECK(std::abs(order - 4.0) <= 0.2);
  }
  const auto order6 = pendulumErrors(composed(CompositionScheme::yoshida6()), {0.2, 0.1, 0.05});
  for (double order : observedOrders(order6)) {
    INFO("order-6 errors " << order6[0] << " " << order6[1] << " " << order6[2]);
    CHECK(std::abs(order - 6.0) <= 0.3);
  }
  // The registry's entries are these schemes.
  const auto viaRegistry = pendulumErrors(
      [](const Scenario& sc, double h) {
        return findPairing(*sc.system, *findIntegrator("composition4"))->make(sc.model, Options(), h);
      },
      {0.2});
  CHECK(viaRegistry[0] == order4[0]);
  // Negative controls: the same coefficients out of palindromic order.
  CompositionScheme wrong4 = CompositionScheme::tripleJump();
  std::swap(wrong4.gamma[0], wrong4.gamma[1]);
  const auto bad4 = pendulumErrors(composed(wrong4), {0.2, 0.1, 0.05});
  CompositionScheme wrong6 = CompositionScheme::yoshida6();
  std::swap(wrong6.gamma[0], wrong6.gamma[2]);
  const auto bad6 = pendulumErrors(composed(wrong6), {0.2, 0.1, 0.05});
  const auto slopes4 = observedOrders(bad4), slopes6 = observedOrders(bad6);
  INFO("wrong order-4 slopes " << slopes4[0] << " " << slopes4[1] << ", wrong order-6 slopes " << slopes6[0] << " "
                               << slopes6[1]);
  CHECK(slopes4.back() < 3.8);
  CHECK(slopes6.back() < 5.7);
}

TEST_CASE("compositions: the DSP energy band shrinks 16-fold (order 4) per halving of h", "[family][composition]") {
  // A regular (non-chaotic) motion over 20 s: on the chaotic default the runs at
  // different h separate within seconds and their bands measure different paths.
  std::vector<double> bands;
  for (double h : {0.02, 0.01, 0.005}) {
    Simulation sim =
        simulate(R"({"system":"double-spherical-pendulum","integrator":"composition4","h":)" + std::to_string(h) +
                 R"(,"initial":{"angles":[[0.3,0],[0.5,0.4]],"rates":[[0,0.5],[0,-0.3]]}})");
    run(sim, std::lround(20 / h));
    const auto e = column(sim, "energy");
    double lo = e[0], hi = e[0];
    for (double x : e) lo = std::min(lo, x), hi = std::max(hi, x);
    bands.push_back(hi - lo);
    CHECK(maxAbs(column(sim, "constraint")) <= 1e-12);
    CHECK(maxAbsDeviation(column(sim, "momentum")) <= 1e-12 * (1 + std::abs(column(sim, "momentum")[0])));
  }
  INFO("bands " << bands[0] << " " << bands[1] << " " << bands[2]);
  CHECK(std::abs(bands[0] / bands[1] - 16) <= 3);
  CHECK(std::abs(bands[1] / bands[2] - 16) <= 3);
}

TEST_CASE("Newmark γ = ½, β = 0 is Störmer–Verlet — γ = ½ is order 2 — γ = 0.6 is order 1 and damps",
          "[family][newmark]") {
  const auto osc = [](double h, const std::string& integrator, const std::string& options) {
    return R"({"system":"oscillator","integrator":")" + integrator + R"(","h":)" + std::to_string(h) +
           R"(,"params":{"mass":1,"stiffness":4},"initial":{"position":1,"velocity":0},"options":)" + options + "}";
  };
  // Verlet = trapezoid on the oscillator: the same map up to rounding.
  Simulation nm = simulate(osc(0.05, "newmark", "{}")), tr = simulate(osc(0.05, "trapezoid", "{}"));
  run(nm, 1000);
  run(tr, 1000);
  CHECK(std::abs(nm.q()[0] - tr.q()[0]) <= 1e-12);
  CHECK(std::abs(nm.p()[0] - tr.p()[0]) <= 1e-12);

  const exact::Oscillator truth(1, 4, 1, 0);
  const auto errors = [&](const std::string& options) {
    std::vector<double> e;
    for (double h : {0.02, 0.01, 0.005}) {
      Simulation sim = simulate(osc(h, "newmark", options));
      run(sim, std::lround(10 / h));
      e.push_back(std::abs(sim.q()[0] - truth.position(10)));
    }
    return e;
  };
  for (const char* options : {R"({"gamma":0.5,"beta":0})", R"({"gamma":0.5,"beta":0.25})"}) {
    const auto e = errors(options);
    for (double order : observedOrders(e)) {
      INFO(options << " errors " << e[0] << " " << e[1] << " " << e[2]);
      CHECK(std::abs(order - 2.0) <= 0.1);
    }
  }
  const auto damped = errors(R"({"gamma":0.6,"beta":0.3})");
  for (double order : observedOrders(damped)) {
    INFO("γ = 0.6 errors " << damped[0] << " " << damped[1] << " " << damped[2]);
    CHECK(std::abs(order - 1.0) <= 0.15);
  }
  // Not symplectic: the one-step map of the linear oscillator has det ≠ 1 (it contracts).
  Simulation diss = simulate(osc(0.05, "newmark", R"({"gamma":0.6,"beta":0.3})"));
  run(diss, 2000);
  const double e0 = 2.0, e1 = diss.diagnostics().energy;
  INFO("energy after 100 s with γ = 0.6: " << e1);
  CHECK(e1 < 0.5 * e0);
  // γ = ½, β = ¼ (average acceleration) keeps the oscillator's energy exactly (a linear system).
  Simulation avg = simulate(osc(0.05, "newmark", R"({"gamma":0.5,"beta":0.25})"));
  run(avg, 2000);
  CHECK(std::abs(avg.diagnostics().energy - e0) <= 1e-12 * e0);
}

TEST_CASE("Newmark refuses constraints and a configuration-dependent mass", "[family][newmark][input]") {
  const std::string constrained =
      R"({"system":"lagrangian","integrator":"newmark","h":0.01,"params":{"coordinates":["x","z"],)"
      R"("lagrangian":"0.5*(x'^2+z'^2) - z","constraints":["x^2+z^2-1"]},"initial":{"q":[0.6,-0.8],"qdot":[0,0]}})";
  try {
    Simulation sim = simulate(constrained);
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.field() == "integrator");
    CHECK(std::string(e.what()).find("rattle") != std::string::npos);
  }
}

TEST_CASE("Marsden–West Fig. 1: variational Newmark keeps the pendulum's energy, RK4 damps it over 300 s",
          "[family][newmark]") {
  const Json scene = lagrangianScene("newmark-vs-rk4");
  const auto energies = [&](const std::string& integrator) {
    Json j = scene;
    j["integrator"] = integrator;
    if (integrator != "newmark") j.erase("options");
    Simulation sim = simulate(j.dump());
    run(sim, 1000);  // 300 s
    return column(sim, "energy");
  };
  const auto newmark = energies("newmark"), rk4 = energies("rk4");
  const double e0 = newmark.front();
  double lowest = e0, highest = e0;
  for (double e : newmark) lowest = std::min(lowest, e), highest = std::max(highest, e);
  INFO("Newmark energy in [" << lowest << ", " << highest << "] of " << e0 << "; RK4 " << rk4.front() << " → "
                             << rk4.back());
  CHECK(lowest > 0.9 * e0);
  CHECK(highest < 1.01 * e0);
  CHECK(driftRatio(newmark) <= 1.5);  // bounded: the last tenth no farther than the first
  CHECK(rk4.back() < 0.7 * e0);       // RK4: a third of the energy gone
}

TEST_CASE("compositions keep their order with damping: composition4 on the damped oscillator",
          "[family][composition]") {
  // The forced midpoint step (symmetric split of the discrete Lagrange–d'Alembert force) is
  // symmetric, so the triple jump lifts it to order 4 as it does without forcing.
  const exact::DampedOscillator truth(1, 4, 0.4, 1, 0);
  std::vector<double> errors;
  for (double h : {0.1, 0.05, 0.025}) {
    Simulation sim =
        simulate(R"({"system":"oscillator","integrator":"composition4","h":)" + std::to_string(h) +
                 R"(,"params":{"mass":1,"stiffness":4,"damping":0.4},"initial":{"position":1,"velocity":0}})");
    run(sim, std::lround(5 / h));
    errors.push_back(std::abs(sim.q()[0] - truth.position(5)));
  }
  for (double order : observedOrders(errors)) {
    INFO("errors " << errors[0] << " " << errors[1] << " " << errors[2]);
    CHECK(std::abs(order - 4.0) <= 0.2);
  }
}

}  // namespace test_family
