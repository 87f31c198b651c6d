// A string with a stiff segment (scenes/fields/stiff-string.json): κ(x) read as an
// expression and sampled at the cell centres, the refusals of a bad κ(x), and every number
// the scene's lesson states — the leapfrog's step at h against the stiff cells' limit, the
// AVI's steps from the cells' own limits, its energy, its cell updates against the leapfrog
// at h/4, and the box scheme at h.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

#include "support.hpp"
#include "vilab/integrators/field_steppers.hpp"
#include "vilab/models/field_cells.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

Json stiffFile() {
  std::ifstream in(std::string(VILAB_SCENES_DIR) + "/fields/stiff-string.json");
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

Json stiffScene() {
  Json j = stiffFile();
  j.erase("about");
  return j;
}

// The scene with another integrator (the AVI's options dropped, as the page's B drops them).
Json withIntegrator(const std::string& id) {
  Json j = stiffScene();
  j["integrator"] = id;
  j.erase("options");
  return j;
}

const FieldModel& modelOf(const Simulation& sim) { return std::get<FieldModel>(sim.scenario().model); }

bool inStiffSegment(const FieldModel& m, int c) {
  const double x = (c + 0.5) * m.grid.spacing();
  return x > 0.6 && x < 0.8;
}

// Energy over the run: max |E − E₀|/E₀, and the window ratio (max − min of E − E₀ over the
// run over the same over its first tenth).
struct EnergyRun {
  double relative = 0, ratio = 0;
};
EnergyRun energyRun(Simulation& sim, long steps) {
  const double e0 = sim.diagnostics().energy;
  double lo = 0, hi = 0, early = 0;
  for (long k = 1; k <= steps; ++k) {
    sim.advance(1);
    const double e = sim.diagnostics().energy - e0;
    lo = std::min(lo, e), hi = std::max(hi, e);
    if (k == steps / 10) early = hi - lo;
  }
  return {std::max(hi, -lo) / e0, (hi - lo) / early};
}

// Cell updates (the AVI's events) of `steps` steps of h, the cells' steps chosen by (fine, from, cfl).
std::uint64_t cellUpdates(const Simulation& sim, int fine, double from, double cfl, long steps) {
  FieldAvi avi(modelOf(sim), sim.scenario().h, fine, from, cfl);
  avi.load(sim.state());
  for (long k = 0; k < steps; ++k) REQUIRE(avi.step().ok);
  return avi.events();
}

}  // namespace

TEST_CASE("stiff string: κ(x) is sampled at the cell centres, 16 on [0.6, 0.8] and 1 elsewhere",
          "[field][field-stiff]") {
  Simulation sim = simulate(stiffScene().dump());
  const FieldModel& m = modelOf(sim);
  const int cells = field::cellCount(m.grid);
  REQUIRE(static_cast<int>(m.density.kappas.size()) == cells);
  int stiff = 0;
  for (int c = 0; c < cells; ++c) {
    INFO("cell " << c);
    CHECK(m.density.kappas[static_cast<std::size_t>(c)] == (inStiffSegment(m, c) ? 16.0 : 1.0));
    stiff += inStiffSegment(m, c);
  }
  CHECK(stiff == 25);  // of 125 cells of Δx = 0.008
  // waves four times faster there: c = √(κ/ρ)
  CHECK(std::sqrt(m.density.largestKappa() / m.density.rho) == 4.0);
  // A κ(x) with the same value in every cell is that number: the constant density, bit for bit.
  Json constant = stiffScene(), number = stiffScene();
  constant["params"]["density"]["kappa"] = "ks/16";
  number["params"]["density"]["kappa"] = 1;
  for (Json* j : {&constant, &number}) {
    (*j)["integrator"] = "midpoint";
    j->erase("options");
  }
  Simulation a = simulate(constant.dump()), b = simulate(number.dump());
  CHECK(modelOf(a).density.kappas.empty());
  run(a, 200);
  run(b, 200);
  CHECK(a.hash() == b.hash());
}

TEST_CASE("stiff string: a κ(x) not above 0 or above 1e6 at a cell centre is refused, naming the field and the x",
          "[field][field-stiff]") {
  const auto refusal = [](const char* kappa) {
    Json j = stiffScene();
    j["params"]["density"]["kappa"] = kappa;
    try {
      simulate(j.dump());
    } catch (const InputError& e) {
      return e.field() + ": " + e.what();
    }
    return std::string("accepted");
  };
  const std::string negative = refusal("1 - 2*x"), huge = refusal("1e8*x"), pole = refusal("1/(x - 0.004)");
  INFO(negative << "\n" << huge << "\n" << pole);
  CHECK(negative.rfind("params.density.kappa: ", 0) == 0);
  CHECK(negative.find("at x = 0.5") != std::string::npos);  // the first centre past 0.5: (62 + ½)·0.008
  CHECK(huge.rfind("params.density.kappa: ", 0) == 0);
  CHECK(huge.find("at x = 0.012") != std::string::npos);  // 1.2e6
  CHECK(pole.rfind("params.density.kappa: ", 0) == 0);    // x = 0.004 is the first cell's centre
  CHECK(refusal("t").rfind("params.density.kappa: ", 0) == 0);
  CHECK(refusal("y").rfind("params.density.kappa: ", 0) == 0);
  // κ(x) belongs to the built-in families, not to a typed ℒ
  Json typed = stiffScene();
  typed["params"]["density"] = {{"lagrangian", "0.5*u_t^2 - 0.5*u_x^2"}, {"kappa", "1 + x"}};
  CHECK(refusedAt(typed) == "params.density.kappa");
}

TEST_CASE("stiff string: h is twice the stiff cells' limit — the AVI steps them at 0.4 of it, the others at 0.5",
          "[field][field-stiff]") {
  Simulation sim = simulate(stiffScene().dump());
  const FieldModel& m = modelOf(sim);
  const double h = sim.scenario().h;
  const std::vector<double> limits = field::aviLargestSteps(m.density, m.grid);
  const double stiffest = *std::min_element(limits.begin(), limits.end());
  INFO("h = " << h << ", the stiff cells' limit " << stiffest << ", the leapfrog's "
              << field::leapfrogLargestStep(m.density, m.grid));
  CHECK(std::abs(h / stiffest - 2) <= 1e-12);
  CHECK(field::leapfrogLargestStep(m.density, m.grid) < h);
  const Json options = stiffScene()["options"];
  REQUIRE(options["fine"] == 5);
  const std::vector<double> steps = FieldAvi::stepsByLimit(m, h, 5, options["cfl"].get<double>());
  for (std::size_t c = 0; c < steps.size(); ++c) {
    const bool stiff = inStiffSegment(m, static_cast<int>(c)),
               inner = c > 0 && c + 1 < steps.size();  // both nodes move
    INFO("cell " << c << ": step " << steps[c] << ", limit " << limits[c]);
    CHECK(steps[c] == (stiff ? h / 5 : h));
    if (inner) CHECK(std::abs(steps[c] / limits[c] - (stiff ? 0.4 : 0.5)) <= 1e-12);
  }
  // A `fine` too small for the stiff cells (h/2 is their limit itself) is refused, naming it.
  Json few = stiffScene();
  few["options"]["fine"] = 2;
  try {
    simulate(few.dump());
    FAIL("fine = 2 was accepted");
  } catch (const InputError& e) {
    INFO(e.what());
    CHECK(e.field() == "options.fine");
    CHECK(std::string(e.what()).find("needs 3 steps per h") != std::string::npos);
  }
}

// The element bound is necessary, not sufficient: with two steps AVIs have resonances
// (Fong, Darve & Lew 2008). At fine = 3 every cell is within 0.67 of its limit, yet the
// energy grows without bound; at the scene's fine = 5 it does not (the test below).
TEST_CASE("stiff string: fine = 3, within every cell's limit, still grows (a resonance of the two steps)",
          "[field][field-stiff]") {
  Json three = stiffScene();
  three["options"]["fine"] = 3;
  Simulation sim = simulate(three.dump(), 1000);
  const double e0 = sim.diagnostics().energy;
  run(sim, 10000);
  const double growth = sim.diagnostics().energy / e0;
  INFO("energy after 10000 steps at fine = 3: " << growth << " E₀");
  CHECK(growth >= 1e6);
}

TEST_CASE("stiff string: the leapfrog at h blows up within the scene's run — RK4 too", "[field][field-stiff]") {
  const long steps = stiffFile()["about"]["steps"].get<long>();
  for (const char* id : {"trapezoid", "rk4"}) {
    Simulation sim = simulate(withIntegrator(id).dump());
    std::uint64_t refused = 0;
    try {
      run(sim, steps);
    } catch (const StepFailure& e) {
      refused = e.step();
    }
    INFO(id << " refused at step " << refused << " of " << steps);
    CHECK(refused > 0);
  }
}

TEST_CASE("stiff string: the AVI keeps its energy (window ratio ≤ 1.5, within 1 %) — the box scheme at h is stable",
          "[field][field-stiff]") {
  const long steps = stiffFile()["about"]["steps"].get<long>();
  const double bound = stiffFile()["about"]["invariants"]["energy"]["relative"].get<double>();
  Simulation avi = simulate(stiffScene().dump(), 1000);
  const EnergyRun e = energyRun(avi, steps);
  INFO("AVI over " << steps << " steps: window ratio " << e.ratio << ", largest relative energy error " << e.relative);
  CHECK(e.ratio <= 1.5);
  CHECK(e.relative <= bound);
  // The box scheme has no CFL limit: at h (twice the stiff cells' limit) its energy stays in
  // its window, though the stiff segment's short waves, at ωh up to 4, make that window wide.
  Simulation box = simulate(withIntegrator("midpoint").dump(), 1000);
  const EnergyRun b = energyRun(box, steps);
  INFO("box over " << steps << " steps: window ratio " << b.ratio << ", largest relative energy error " << b.relative);
  CHECK(b.ratio <= 1.5);
  CHECK(b.relative <= 0.1);
}

TEST_CASE("stiff string: the AVI over 1e5 coarse steps keeps its energy window", "[field][field-stiff][slow]") {
  Simulation sim = simulate(stiffScene().dump(), 1000);
  const EnergyRun e = energyRun(sim, 100000);
  INFO("AVI over 1e5 steps: window ratio " << e.ratio << ", largest relative energy error " << e.relative);
  CHECK(e.ratio <= 1.5);
  CHECK(e.relative <= 0.01);
}

TEST_CASE("stiff string: the leapfrog at h/5 is stable too, and makes 2.8 times as many cell updates as the AVI",
          "[field][field-stiff]") {
  const long steps = stiffFile()["about"]["steps"].get<long>();
  Json fine = withIntegrator("trapezoid");
  const double h = fine["h"].get<double>();
  fine["h"] = h / 5;
  Simulation leapfrog = simulate(fine.dump(), 1000);
  const EnergyRun e = energyRun(leapfrog, 5 * steps);
  INFO("leapfrog at h/5 over " << 5 * steps << " steps: window ratio " << e.ratio << ", largest relative energy error "
                               << e.relative);
  CHECK(e.ratio <= 1.5);

  Simulation sim = simulate(stiffScene().dump());
  const FieldModel& m = modelOf(sim);
  const std::uint64_t avi = cellUpdates(sim, 5, 0.5, 0.9, steps);
  const std::uint64_t everywhere = cellUpdates(sim, 5, 0.0, 0.0, steps);  // h/5 in every cell
  const std::uint64_t cells = static_cast<std::uint64_t>(field::cellCount(m.grid));
  const double ratio = static_cast<double>(everywhere) / static_cast<double>(avi);
  INFO("cell updates over " << steps << " steps: AVI " << avi << ", h/5 everywhere " << everywhere << ", ratio "
                            << ratio);
  CHECK(everywhere == 5 * cells * static_cast<std::uint64_t>(steps));  // the leapfrog's: every cell, every h/5
  CHECK(std::abs(ratio - 2.8) <= 0.05);                                // 625/225 = 25/9: 100 cells at h, 25 at h/5
}

// The core's stiffness per cell (models/field_cells.hpp): c² = κ_c/ρ here, 16 in the stiff
// segment and 1 elsewhere, and V'' = 0 (the string has no mass term).
TEST_CASE("stiff string: the core gives c² = κ_c/ρ per cell and V'' = 0", "[field][field-stiff]") {
  Json heavy = stiffScene();
  heavy["params"]["density"]["rho"] = 4;
  for (const Json& j : {stiffScene(), heavy}) {
    Simulation sim = simulate(j.dump());
    const FieldModel& m = modelOf(sim);
    const field::CellStiffness cells = field::cellStiffness(m);
    REQUIRE(cells.speed2.size() == 125);
    for (std::size_t c = 0; c < cells.speed2.size(); ++c) {
      INFO("cell " << c);
      CHECK(cells.speed2[c] == (inStiffSegment(m, static_cast<int>(c)) ? 16.0 : 1.0) / m.density.rho);
      CHECK(cells.curvature[c] == 0);
      CHECK(cells.inertia[c] == m.density.rho);
    }
  }
}

// The AVI's per-cell limit counts the mass term: h ω_c ≤ 2 with ω_c² = 4κ_c/(ρΔx²) + V''/ρ
// (field_avi.hpp). A Klein–Gordon string of m = 100 (V'' = 10⁴) on 32 points at h = 0.02 and
// cfl = 0.9: within 0.9 of the strain's limit alone (0.032 inside), beyond that of strain
// and mass (0.017): refused naming options.fine, and run at fine = 2.
TEST_CASE("stiff string: the AVI's cell limit counts V'' - a Klein-Gordon run within the strain's limit is refused",
          "[field][field-stiff]") {
  Json j = stiffScene();
  j["params"]["density"] = {{"family", "klein-gordon"}, {"kappa", 1}, {"mass", 100}};
  j["params"]["grid"]["points"] = 32;
  j["h"] = 0.02;
  j["options"] = {{"fine", 1}, {"cfl", 0.9}};
  Json twice = j;
  twice["options"]["fine"] = 2;
  Simulation sim = simulate(twice.dump());
  const FieldModel& m = modelOf(sim);
  CHECK(field::cellStiffness(m).curvature[10] == 1e4);
  const std::vector<double> strain = field::aviLargestSteps(m.density, m.grid),
                            both = field::aviLargestSteps(m.density, m.grid, 1e4);
  const double strainLimit = *std::min_element(strain.begin(), strain.end()),
               limit = *std::min_element(both.begin(), both.end());
  INFO("the tightest cell's limit: " << strainLimit << " from the strain alone, " << limit << " with V''");
  CHECK(0.02 <= 0.9 * strainLimit);
  CHECK(0.02 > 0.9 * limit);
  CHECK(0.01 <= 0.9 * limit);
  run(sim, 500);
  CHECK(std::isfinite(sim.diagnostics().energy));
  try {
    simulate(j.dump());
    FAIL("h beyond the mass term's limit was accepted");
  } catch (const InputError& e) {
    INFO(e.what());
    CHECK(e.field() == "options.fine");
  }
}
