// The asynchronous variational integrator on one-dimensional fields (field_avi.hpp).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "fields.hpp"
#include "vilab/detmath.hpp"
#include "vilab/models/field_avi.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace vilab::field::test_field_avi {

using namespace vilab::testing::fields;

namespace {

int cells(const Grid& g) { return g.ends == Ends::Periodic ? g.points : g.points - 1; }

// The left half of the cells step h, the right half h·ratio.
std::vector<double> twoSteps(const Grid& g, double h, double ratio) {
  std::vector<double> steps(cells(g), h);
  for (int c = cells(g) / 2; c < cells(g); ++c) steps[c] = h * ratio;
  return steps;
}

struct Common {
  static constexpr double ratio = 1;
};
struct NonInteger {  // 0.37 = 37/100: the two clocks meet only every 37 coarse steps
  static constexpr double ratio = 0.37;
};
struct Third {
  static constexpr double ratio = 1.0 / 3;
};

// The AVI as a method of the field tests' form: each step(dt) advances to t₀ + n·dt (n
// counted, not summed) and synchronizes; the right half of the cells step dt·Ratio::ratio.
template <class Ratio>
class AviTwoSteps {
 public:
  void step(const Density& d, const Grid& g, State& s, double dt) {
    if (n_ == 0) {
      t0_ = s.t;
      REQUIRE(avi_.load(d, g, s, twoSteps(g, dt, Ratio::ratio)).empty());
    }
    ++n_;
    REQUIRE(avi_.advanceTo(t0_ + static_cast<double>(n_) * dt).empty());
    avi_.synchronize(s);
  }

 private:
  Avi avi_;
  long n_ = 0;
  double t0_ = 0;
};

double largestDifference(const State& a, const State& b, bool velocities) {
  double gap = 0;
  for (std::size_t i = 0; i < a.u.size(); ++i)
    gap = std::max(gap, velocities ? std::abs(a.v[i] - b.v[i]) : std::abs(a.u[i] - b.u[i]));
  return gap;
}

}  // namespace

TEST_CASE("field: the AVI with one common step is the leapfrog, to the leapfrog's own rounding", "[field]") {
  // 1000 steps, N = 256, every kind of end, the string and sine-Gordon. The floor: the
  // leapfrog against itself started one ulp away at one node (its Laplacian loses the
  // low bits of u times κΔt/(ρΔx²) ≈ 128, so no other coding of it can come closer).
  for (const Ends ends : {Ends::Fixed, Ends::Free, Ends::Periodic})
    for (const bool sine : {false, true}) {
      const Density d = sine ? sineGordon() : Density{};
      const Grid g{1.0, 256, ends};
      const double dt = 0.5 * g.spacing();
      State a = bump(g), nudged = a, out;
      nudged.u[100] = std::nextafter(nudged.u[100], 2.0);
      Leapfrog leapfrog, again;
      Avi avi;
      REQUIRE(avi.load(d, g, a, std::vector<double>(cells(g), dt)).empty());
      double du = 0, dv = 0, floorV = 0;
      for (int k = 1; k <= 1000; ++k) {
        leapfrog.step(d, g, a, dt);
        again.step(d, g, nudged, dt);
        REQUIRE(avi.advanceTo(k * dt).empty());
        avi.synchronize(out);
        du = std::max(du, largestDifference(a, out, false));
        dv = std::max(dv, largestDifference(a, out, true));
        floorV = std::max(floorV, largestDifference(a, nudged, true));
      }
      INFO("ends " << int(ends) << (sine ? ", sine-Gordon" : ", string") << ": |Δu| " << du << ", |Δv| " << dv
                   << ", the leapfrog's own |Δv| from one ulp " << floorV);
      CHECK(du <= 1e-14);
      CHECK(dv <= 2 * floorV);
      CHECK(dv <= 1e-12);
    }
}

TEST_CASE("field: the AVI with two steps (h, 0.37h) keeps its energy in the window over 1e5 steps, RK4 at h does not",
          "[field]") {
  const Density d;
  const Grid g{1.0, 256, Ends::Fixed};
  const double dt = 0.5 * g.spacing();
  const double avi = energyWindowRatio<AviTwoSteps<NonInteger>>(d, g, bump(g), dt, 100000);
  const double rk4 = energyWindowRatio<RungeKutta4>(d, g, bump(g), dt, 100000);
  INFO("AVI " << avi << ", RK4 " << rk4);
  CHECK(avi <= 1.5);
  CHECK(rk4 >= 3);  // the negative control: same grid, same start, same coarse h
}

namespace {

// Loads the AVI with steps h and 0.37h and calls visit(avi) after each of n coarse steps h.
template <class Visit>
void runTwoSteps(const Density& d, const Grid& g, const State& s, double h, int n, Visit visit) {
  Avi avi;
  REQUIRE(avi.load(d, g, s, twoSteps(g, h, 0.37)).empty());
  for (int k = 1; k <= n; ++k) {
    REQUIRE(avi.advanceTo(k * h).empty());
    visit(avi);
  }
}

}  // namespace

TEST_CASE("field: the AVI's momentum: kept with periodic ends, and balanced by the elements' impulses", "[field]") {
  // Periodic ends, V = 0, steps h and 0.37h: every element's two impulses cancel to the bit.
  {
    const Density d;
    const Grid g{1.0, 128, Ends::Periodic};
    const State start = sineWave(g, true);
    const double p0 = momentum(d, g, start);
    double worst = 0, worstOut = 0, largestImpulse = 0;
    std::uint64_t events = 0;
    State s;
    runTwoSteps(d, g, start, 0.5 * g.spacing(), 10000, [&](const Avi& avi) {
      avi.synchronize(s);
      worst = std::max(worst, std::abs(avi.momentum() - p0));  // Σp_i at load: ρΔx Σv_i = p0
      worstOut = std::max(worstOut, std::abs(momentum(d, g, s) - p0));
      for (double j : avi.impulses()) largestImpulse = std::max(largestImpulse, std::abs(j));
      events = avi.events();
    });
    INFO("Σp = " << p0 << ": largest change " << worst << " (momenta), " << worstOut << " (synchronized); " << events
                 << " events; largest element impulse " << largestImpulse);
    CHECK(worst <= 1e-12);
    CHECK(worstOut <= 1e-12);
    CHECK(largestImpulse == 0);
  }
  // The same with κ varying along x (16 on [0.6, 0.8], within the fine half: 0.37h is
  // below its limit Δx/4): each element's impulses are ±h_c κ_c(u_j − u_i)/Δx, still equal and opposite.
  {
    const Grid g{1.0, 128, Ends::Periodic};
    const Density d = stiffSegment(g);
    const State start = sineWave(g, true);
    const double p0 = momentum(d, g, start);
    double worst = 0, largestImpulse = 0, e0 = energy(d, g, start), drift = 0;
    State s;
    runTwoSteps(d, g, start, 0.5 * g.spacing(), 10000, [&](const Avi& avi) {
      avi.synchronize(s);
      worst = std::max(worst, std::abs(avi.momentum() - p0));
      for (double j : avi.impulses()) largestImpulse = std::max(largestImpulse, std::abs(j));
      drift = std::max(drift, std::abs(energy(d, g, s) - e0) / e0);
    });
    INFO("κ varying: Σp = " << p0 << ", largest change " << worst << ", largest element impulse " << largestImpulse
                            << ", largest relative energy error " << drift);
    CHECK(worst <= 1e-12);
    CHECK(largestImpulse == 0);
    CHECK(drift <= 0.05);
  }
  // Sine-Gordon with fixed ends, steps h and 0.37h: the ends and V take momentum out;
  // the change of Σp equals the sum of the impulses the elements recorded.
  {
    const Grid g{1.0, 256, Ends::Fixed};
    double worst = 0, change = 0, size = 0;  // the bump starts at rest: Σp_i = 0 at load
    std::uint64_t events = 0;
    runTwoSteps(sineGordon(), g, bump(g), 0.5 * g.spacing(), 2000, [&](const Avi& avi) {
      double applied = 0;
      for (double j : avi.impulses()) applied += j;
      change = std::max(change, std::abs(avi.momentum()));
      worst = std::max(worst, std::abs(avi.momentum() - applied));
      size = avi.impulseSize(), events = avi.events();
    });
    INFO("largest |ΔΣp − Σ impulses| " << worst << "; largest |ΔΣp| " << change << "; Σ|impulses| " << size << " over "
                                       << events << " events");
    CHECK(worst <= 1e-13 * change);
    CHECK(change >= 1);  // the balance is not the trivial 0 = 0
  }
}

namespace {

// Largest nodal error at t = 3/8 of the AVI with steps (h, 0.37h) against the exact
// solution of the semi-discrete system from u = sin(2πx) at rest on a periodic grid:
// sin(2πx_i) cos(ω_N t), ω_N = 2 sin(π/N)/Δx (the grid's frequency of that mode).
double semiDiscreteError(int points, double h) {
  const Density d;
  const Grid g{1.0, points, Ends::Periodic};
  State s = sineWave(g);
  Avi avi;
  REQUIRE(avi.load(d, g, s, twoSteps(g, h, 0.37)).empty());
  REQUIRE(avi.advanceTo(static_cast<double>(std::lround(0.375 / h)) * h).empty());
  avi.synchronize(s);
  const double omega = 2 * vilab::dm::sin(kPi / points) / g.spacing();
  double err = 0;
  for (int i = 0; i < points; ++i)
    err = std::max(err, std::abs(s.u[i] - vilab::dm::sin(2 * kPi * g.x(i)) * vilab::dm::cos(omega * s.t)));
  return err;
}

}  // namespace

TEST_CASE("field: the AVI with two steps is of order 2 in time, of order 1 in space-time against d'Alembert",
          "[field]") {
  // In time on a fixed grid (N = 64, h = Δx/2 … Δx/16, ratio 0.37), against the grid's own solution.
  const Grid g64{1.0, 64, Ends::Periodic};
  double e[4];
  for (int r = 0; r < 4; ++r) e[r] = semiDiscreteError(64, 0.5 * g64.spacing() / (1 << r));
  const double q1 = std::log2(e[1] / e[2]), q2 = std::log2(e[2] / e[3]);
  // In space-time at fixed Courant numbers (h = Δx/2 and 0.37h, N = 64 … 256): the cells'
  // forces are O(κu_x) each, 1/Δx larger than their sum, and the interface between the
  // clocks samples them at different times: it emits an O(Δx) error that the waves carry
  // over the whole string (the largest errors are at x = ¼ and ¾, not at the interfaces).
  // One common step is the leapfrog, of order 2 (test_field.cpp).
  const double e64 = standingWaveError<AviTwoSteps<NonInteger>>(64),
               e128 = standingWaveError<AviTwoSteps<NonInteger>>(128),
               e256 = standingWaveError<AviTwoSteps<NonInteger>>(256);
  const double t64 = standingWaveError<AviTwoSteps<Third>>(64), t256 = standingWaveError<AviTwoSteps<Third>>(256);
  const double c64 = standingWaveError<AviTwoSteps<Common>>(64), c256 = standingWaveError<AviTwoSteps<Common>>(256);
  const double p1 = std::log2(e64 / e128), p2 = std::log2(e128 / e256), third = 0.5 * std::log2(t64 / t256),
               common = 0.5 * std::log2(c64 / c256);
  INFO("in time: errors " << e[0] << " " << e[1] << " " << e[2] << " " << e[3] << ", orders " << q1 << " " << q2
                          << "; space-time, ratio 0.37: errors " << e64 << " " << e128 << " " << e256 << ", orders "
                          << p1 << " " << p2 << "; ratio 1/3: " << t64 << " " << t256 << ", order " << third
                          << "; one step: " << c64 << " " << c256 << ", order " << common);
  CHECK(std::abs(q1 - 2) <= 0.1);
  CHECK(std::abs(q2 - 2) <= 0.1);
  CHECK(std::abs(p1 - 1) <= 0.15);
  CHECK(std::abs(p2 - 1) <= 0.15);
  CHECK(std::abs(third - 1) <= 0.2);
  CHECK(std::abs(common - 2) <= 0.1);
  CHECK(e256 <= 1e-3);
}

TEST_CASE("field: where the AVI is stopped for output does not change its run", "[field]") {
  const Density d = sineGordon();
  const Grid g{1.0, 128, Ends::Free};
  const double dt = 0.5 * g.spacing();
  Avi once, often;
  REQUIRE(once.load(d, g, bump(g), twoSteps(g, dt, 0.37)).empty());
  REQUIRE(often.load(d, g, bump(g), twoSteps(g, dt, 0.37)).empty());
  State a, b;
  for (int k = 1; k <= 1000; ++k) {
    REQUIRE(often.advanceTo(k * dt * 0.61).empty());  // stops between the events of both clocks
    often.synchronize(b);
  }
  REQUIRE(once.advanceTo(1000 * dt * 0.61).empty());
  once.synchronize(a);
  CHECK(a.u == b.u);
  CHECK(a.v == b.v);
  CHECK(once.events() == often.events());
}

TEST_CASE("field: the AVI's largest stable step per element is where it blows up", "[field]") {
  // One common step at the smallest element limit, and two steps with the right half at
  // its own limit while the left half steps 0.4 of it.
  const Density d;
  const Grid g{1.0, 65, Ends::Fixed};
  const std::vector<double> limits = aviLargestSteps(d, g);
  const double inner = limits[cells(g) / 2];
  CHECK(inner <= leapfrogLargestStep(d, g));
  CHECK(limits[0] > inner);  // a cell at a fixed end moves one node: a larger limit
  for (const bool common : {true, false}) {
    double peak[2];
    for (int side = 0; side < 2; ++side) {
      const double factor = side == 0 ? 0.995 : 1.005;
      std::vector<double> steps = twoSteps(g, 0.4 * inner, factor / 0.4);
      if (common) steps.assign(cells(g), factor * inner);
      Avi avi;
      REQUIRE(avi.load(d, g, bump(g), steps).empty());
      State s;
      peak[side] = 0;
      for (int k = 1; k <= 5000; ++k) {
        REQUIRE(avi.advanceTo(k * inner).empty());
        avi.synchronize(s);
        for (double u : s.u) peak[side] = std::max(peak[side], std::abs(u));
      }
    }
    INFO((common ? "one step" : "two steps") << ": element limit " << inner << " (leapfrog's "
                                             << leapfrogLargestStep(d, g) << "), peaks " << peak[0] << " " << peak[1]);
    CHECK(peak[0] <= 2);
    CHECK(peak[1] >= 1e3);
  }
}

TEST_CASE("field: the AVI refuses bad steps, sizes and times by field, the state kept", "[field]") {
  const Density d;
  const Grid g{1.0, 32, Ends::Fixed};
  const double dt = 0.5 * g.spacing();
  Avi avi;
  REQUIRE(avi.load(d, g, bump(g), twoSteps(g, dt, 0.37)).empty());
  REQUIRE(avi.advanceTo(10 * dt).empty());
  State before;
  avi.synchronize(before);
  const std::uint64_t events = avi.events();

  std::vector<double> steps = twoSteps(g, dt, 0.37);
  const auto refuse = [&](const State& s, const std::vector<double>& st, const std::string& field) {
    const std::string why = avi.load(d, g, s, st);
    INFO(why);
    CHECK(why.rfind(field, 0) == 0);
  };
  steps[17] = NAN;
  refuse(bump(g), steps, "avi.steps[17]: must be a finite number > 0");
  steps[17] = 0;
  refuse(bump(g), steps, "avi.steps[17]: must be a finite number > 0");
  steps[17] = -dt;
  refuse(bump(g), steps, "avi.steps[17]: must be a finite number > 0");
  steps[17] = INFINITY;
  refuse(bump(g), steps, "avi.steps[17]: must be a finite number > 0");
  refuse(bump(g), std::vector<double>(32, dt), "avi.steps: must have 31 values (one per cell), not 32");
  State shortState = bump(g);
  shortState.u.pop_back();
  refuse(shortState, twoSteps(g, dt, 0.37), "state.u: must have 32 values");
  State badVelocity = bump(g);
  badVelocity.v[3] = NAN;
  refuse(badVelocity, twoSteps(g, dt, 0.37), "state.v[3]: must be a finite number");
  const Grid tiny{1.0, 1, Ends::Fixed};
  CHECK(avi.load(d, tiny, bump(g), twoSteps(g, dt, 0.37)).rfind("grid.points:", 0) == 0);
  Avi fresh;
  CHECK(fresh.advanceTo(dt) == "avi: nothing loaded");
  CHECK(avi.advanceTo(5 * dt).rfind("avi.time:", 0) == 0);
  CHECK(avi.advanceTo(NAN).rfind("avi.time:", 0) == 0);

  State after;
  avi.synchronize(after);
  CHECK(after.u == before.u);
  CHECK(after.v == before.v);
  CHECK(after.t == before.t);
  CHECK(avi.events() == events);
}

}  // namespace vilab::field::test_field_avi
