// The AVI on typed densities (models/field_avi_typed.hpp): the nonlinear string (one
// component, ℒ = ½u_t² − √(1 + u_x²)) and the whirling string (two, with the rotation as
// its symmetry) of scenes/fields/. With one common step it is the method of lines'
// leapfrog; with two its energy stays in a window, each element's impulses balance the
// momentum and the rotation's charge is kept per element (LMOW's discrete Noether
// theorem); each cell's step within its CFL limit, with cfl or without.
#include <catch2/catch.hpp>
#include <limits>

#include "field_scenes.hpp"
#include "support.hpp"
#include "vilab/models/field_avi.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

Json sceneFile(const std::string& name) { return fieldSceneFile(name); }

Json withIntegrator(Json j, const char* id, Json options = nullptr) {
  j["integrator"] = id;
  j.erase("options");
  if (!options.is_null()) j["options"] = std::move(options);
  return j;
}

// The nonlinear string typed as one component w: the method of lines' path (MultiLines),
// which steps it with the leapfrog and RK4.
Json nonlinearAsW() {
  Json j = sceneFile("nonlinear-string");
  j["params"]["density"] = {{"lagrangian", "0.5*w_t^2 - sqrt(1 + w_x^2)"}, {"fields", {"w"}}};
  j["initial"] = {{"w", j["initial"]["u"]}, {"wt", "0"}};
  return j;
}

// The whirling string's helix (field_scenes.hpp) drifting sideways: Σp of each component
// far from zero too.
Json helix() {
  Json j = whirlingHelix();
  j["initial"]["ut"] = j["initial"]["ut"].get<std::string>() + " + 0.3";
  j["initial"]["vt"] = j["initial"]["vt"].get<std::string>() + " - 0.1";
  return j;
}

// The left half of the cells step h, the right half h/fine (as options.from = 0.5).
std::vector<double> twoSteps(const field::Grid& g, double h, int fine) {
  const int cells = field::cellCount(g);
  std::vector<double> steps(static_cast<std::size_t>(cells), h);
  for (int c = cells / 2; c < cells; ++c) steps[static_cast<std::size_t>(c)] = h / fine;
  return steps;
}

}  // namespace

TEST_CASE("field avi typed: with one common step the AVI is the leapfrog of the method of lines",
          "[field][field-avi]") {
  // The nonlinear string as u (a DataDensity) and as w (a MultiDensity of one component)
  // against the leapfrog on w; the whirling string against its own leapfrog. 1000 steps.
  const Json lines[] = {nonlinearAsW(), nonlinearAsW(), sceneFile("whirling-string"), helix()};
  const Json avis[] = {sceneFile("nonlinear-string"), nonlinearAsW(), sceneFile("whirling-string"), helix()};
  for (int k = 0; k < 4; ++k) {
    Simulation avi = simulate(withIntegrator(avis[k], "avi", {{"fine", 1}}).dump(), 1000);
    Simulation leapfrog = simulate(withIntegrator(lines[k], "trapezoid").dump(), 1000);
    run(avi, 1000);
    run(leapfrog, 1000);
    const double dq = maxDifference(avi.state().q, leapfrog.state().q);
    const double dp = maxDifference(avi.state().p, leapfrog.state().p);
    INFO("case " << k << ": after 1000 steps |Δq| " << dq << ", |Δp| " << dp);
    CHECK(dq <= 1e-13);
    CHECK(dp <= 1e-13);
  }
}

TEST_CASE("field avi typed: with two steps the energy stays in its window over 2e4 steps, RK4's does not",
          "[field][field-avi]") {
  // fine = 3 on the right half: 20000 coarse and 60000 fine steps. The whirling string:
  // window ratio ≤ 1.5. The nonlinear string's pluck spreads its energy into shorter waves
  // over the run, so the leapfrog's own window (the AVI with one step) grows past its first
  // tenth's (ratio 4.1 here): the AVI's window is held to the leapfrog's instead.
  const Kept whirl = keptOver(withIntegrator(sceneFile("whirling-string"), "avi", {{"fine", 3}, {"from", 0.5}}), 20000);
  INFO("whirling string: AVI (h, h/3) energy window ratio over 20000 steps " << whirl.ratio);
  CHECK(whirl.ratio <= 1.5);
  const Json string = sceneFile("nonlinear-string");
  const Kept two = keptOver(withIntegrator(string, "avi", {{"fine", 3}, {"from", 0.5}}), 20000);
  const Kept one = keptOver(withIntegrator(string, "avi", {{"fine", 1}}), 20000);
  const Kept rk4 = keptOver(withIntegrator(nonlinearAsW(), "rk4"), 20000);  // the negative control, same h
  INFO("nonlinear string, 20000 steps of h = 0.004, relative energy window: AVI (h, h/3) "
       << two.window << " (ratio " << two.ratio << "), leapfrog " << one.window << " (ratio " << one.ratio << "), RK4 "
       << rk4.window << " (ratio " << rk4.ratio << ")");
  CHECK(two.window <= 1.5 * one.window);
  CHECK(two.window <= 2e-5);
  CHECK(rk4.window >= 3 * one.window);  // misses the AVI's threshold: it drifts (ratio ≥ 3)
  CHECK(rk4.ratio >= 3);
}

TEST_CASE("field avi typed: the rotation's charge is kept per element with two steps, to rounding",
          "[field][field-avi]") {
  // The whirling string's declared charge (momentum.rotation) on the periodic helix and
  // on the scene's fixed ends (a fixed end at u = v = 0 adds nothing), 5000 steps of (h, h/3).
  for (const Json& scene : {helix(), sceneFile("whirling-string")}) {
    const Kept avi = keptOver(withIntegrator(scene, "avi", {{"fine", 3}, {"from", 0.5}}), 5000);
    INFO(scene["params"]["grid"]["ends"] << ": AVI (h, h/3): largest relative change of the charge " << avi.charge
                                         << ", energy window ratio " << avi.ratio);
    CHECK(avi.charge <= 1e-12);
    CHECK(avi.ratio <= 1.5);
  }
  // A wrong method misses it: RK4 on the helix.
  const Kept rk4 = keptOver(withIntegrator(helix(), "rk4"), 5000);
  INFO("helix, RK4: charge " << rk4.charge);
  CHECK(rk4.charge >= 1e-9);
}

TEST_CASE("field avi typed: each element's impulses balance the momentum with periodic ends", "[field][field-avi]") {
  // Σp of each component changes by the sum of the impulses the elements recorded, and
  // with periodic ends and no V that sum is zero: Σp is kept to the rounding of its sum.
  for (const Json& scene : {helix(), [] {
                              Json j = sceneFile("nonlinear-string");
                              j["params"]["grid"]["ends"] = "periodic";
                              j["initial"]["ut"] = "0.2 + 0.3*sin(2*pi*x)";
                              return j;
                            }()}) {
    Simulation sim = simulate(withIntegrator(scene, "avi", {{"fine", 3}}).dump());
    const FieldModel& m = std::get<FieldModel>(sim.scenario().model);
    field::State s;
    REQUIRE(m.toField(sim.state(), s));
    field::Avi avi;
    const double h = 0.004;
    REQUIRE(
        avi.load(std::make_shared<const field::TypedCells>(linesDensity(m), m.grid), m.grid, s, twoSteps(m.grid, h, 3))
            .empty());
    const int cells = field::cellCount(m.grid);
    std::vector<double> p0;
    for (int b = 0; b < avi.components(); ++b) p0.push_back(avi.momentum(b));
    double balance = 0, change = 0, size = 0;
    for (int k = 1; k <= 5000; ++k) {
      REQUIRE(avi.advanceTo(k * h).empty());
      for (int b = 0; b < avi.components(); ++b) {
        double applied = 0;
        for (int c = 0; c < cells; ++c) applied += avi.impulses()[static_cast<std::size_t>(b * cells + c)];
        change = std::max(change, std::abs(avi.momentum(b) - p0[static_cast<std::size_t>(b)]));
        balance = std::max(balance, std::abs(avi.momentum(b) - p0[static_cast<std::size_t>(b)] - applied));
      }
      size = avi.impulseSize();
    }
    INFO(m.components() << " component(s), " << avi.events() << " events: largest |ΔΣp| " << change
                        << ", largest |ΔΣp − Σ impulses| " << balance << ", Σ|impulse| " << size);
    CHECK(change <= 1e-15 * size);
    CHECK(balance <= 1e-15 * size);
    CHECK(size >= 1);  // the elements did push: the balance is not vacuous
  }
}

TEST_CASE("field avi typed: every cell's step within its CFL limit, with cfl or without", "[field][field-avi]") {
  // The nonlinear string at N = 128: c² = 1 at rest (the largest −ℒ_{u_x u_x}), so an inner
  // cell's limit is Δx = 1/127 ≈ 0.00787, an end cell's (one node fixed) √2 Δx ≈ 0.0111.
  Json j = withIntegrator(sceneFile("nonlinear-string"), "avi");
  j["h"] = 0.01;
  try {
    parseScenario(j);
    Simulation sim = simulate(j.dump());
    FAIL("h = 0.01 beyond the inner cells' limit was not refused");
  } catch (const InputError& e) {
    INFO(e.what());
    CHECK(e.field() == "h");
    CHECK(std::string(e.what()).find("0.00787") != std::string::npos);
  }
  // The same for the built-in string (the plucked string, κ = ρ = 1: the same limits).
  Json built = withIntegrator(sceneFile("plucked-string"), "avi");
  built["h"] = 0.01;
  CHECK_THROWS_WITH(simulate(built.dump()), Catch::Contains("h: is beyond the stability limit 0.00787"));
  // Fine steps beyond it name options.fine: the stiff string's segment (κ = 16) at h/2.
  Json stiff = withIntegrator(sceneFile("stiff-string"), "avi", {{"fine", 2}, {"from", 0.5}});
  CHECK_THROWS_WITH(simulate(stiff.dump()), Catch::Contains("options.fine: is too few: h/fine is beyond"));
  stiff["options"]["fine"] = 3;
  CHECK_NOTHROW(simulate(stiff.dump()));
  // cfl = 0.9 gives the inner cells 2 steps per h and keeps the end cells at h; the run stays in its window.
  j["options"] = {{"fine", 2}, {"cfl", 0.9}};
  const Kept kept = keptOver(j, 5000);
  INFO("nonlinear string at h = 0.01, cfl = 0.9: energy window ratio " << kept.ratio);
  CHECK(kept.ratio <= 1.5);
  // The whirling string's too (the largest c² of its components).
  Json w = withIntegrator(sceneFile("whirling-string"), "avi");
  w["h"] = 0.01;
  CHECK_THROWS_WITH(simulate(w.dump()), Catch::Contains("h: is beyond the stability limit 0.00787"));
}

TEST_CASE("field avi typed: coupled components get the limit of their fastest wave, where the leapfrog does blow up",
          "[field][field-avi]") {
  // Two strings coupled through their slopes, K_x = [[1, b], [b, 1]]: the fastest wave has
  // c² = 1 + b (v = u), faster than either component alone (c² = 1, the blocks' diagonal).
  // N = 128, b = 0.9: an inner cell's limit is Δx/√1.9 ≈ 0.005712, not Δx ≈ 0.007874.
  Json j = withIntegrator(sceneFile("whirling-string"), "avi");
  j["params"]["density"]["lagrangian"] = "0.5*(u_t^2 + v_t^2) - 0.5*(u_x^2 + v_x^2 + 2*b*u_x*v_x)";
  j["params"]["density"].erase("symmetries");
  j["params"]["constants"] = {{"a", 0.1}, {"b", 0.9}};
  j["h"] = 0.007;
  CHECK_THROWS_WITH(simulate(j.dump()), Catch::Contains("h: is beyond the stability limit 0.005712"));
  j["h"] = 0.0056;
  CHECK_NOTHROW(simulate(j.dump()));
  // The limit is the leapfrog's (the AVI with one step): past it the run grows without
  // bound, just below it the energy stays in its window.
  const auto growth = [&](double h) {
    Json l = j;
    l["integrator"] = "trapezoid";
    l.erase("options");
    l["h"] = h;
    Simulation sim = simulate(l.dump(), 1000);
    const double e0 = sim.diagnostics().energy;
    double worst = 0;
    for (int k = 0; k < 4000; ++k) {
      try {
        sim.advance(1);
      } catch (const StepFailure&) {
        return std::numeric_limits<double>::infinity();  // a state no longer finite
      }
      worst = std::max(worst, std::abs(sim.diagnostics().energy - e0) / std::abs(e0));
    }
    return worst;
  };
  const double below = growth(0.0056), past = growth(0.0059);
  INFO("coupled strings, 4000 leapfrog steps: energy error " << below << " at h = 0.0056, " << past
                                                             << " at h = 0.0059");
  CHECK(below <= 1e-2);
  CHECK(past >= 1);
}

TEST_CASE("field avi typed: a kinetic part other than ½ u_tᵀ M u_t is refused naming integrator",
          "[field][field-avi]") {
  Json j = withIntegrator(sceneFile("nonlinear-string"), "avi");
  j["params"]["density"]["lagrangian"] = "0.5*u_t^2*(1 + u^2) - sqrt(1 + u_x^2)";
  CHECK(refusedAt(j) == "integrator");
  Json w = withIntegrator(sceneFile("whirling-string"), "avi");
  w["params"]["density"]["lagrangian"] = "0.5*(u_t^2 + v_t^2)*(1 + v^2) - (sqrt(1 + u_x^2 + v_x^2) - 1)";
  w["params"]["density"].erase("symmetries");
  CHECK(refusedAt(w) == "integrator");
}
