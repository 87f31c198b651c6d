// One-dimensional fields: the semi-discrete wave and its time integrators.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "vilab/detmath.hpp"
#include "vilab/models/field.hpp"

using namespace vilab::field;

namespace {

constexpr double kPi = 3.14159265358979323846;

// A Gaussian bump of width 0.05 at rest: its waves are resolved by ~10 points, so
// RK4's damping of them stays steady over the run instead of dying out early.
State bump(const Grid& g) {
  State s;
  for (int i = 0; i < g.points; ++i) {
    const double z = (g.x(i) - 0.5) / 0.05;
    s.u.push_back(vilab::dm::exp(-z * z));
    s.v.push_back(0);
  }
  return s;
}

// Energy window (max − min of E − E₀) over the whole run divided by the window
// over its first tenth: about 1 for a bounded oscillation, large for a drift.
template <class Method>
double energyWindowRatio(const Density& d, const Grid& g, State s, double dt, int steps) {
  Method m;
  const double e0 = energy(d, g, s);
  double lo = 0, hi = 0, early = 0;
  for (int k = 1; k <= steps; ++k) {
    m.step(d, g, s, dt);
    const double e = energy(d, g, s) - e0;
    lo = std::min(lo, e);
    hi = std::max(hi, e);
    if (k == steps / 10) early = hi - lo;
  }
  return (hi - lo) / early;
}

// Largest nodal error at t = 3/8 (where a phase error shows: cos(2πt) ≠ ±1) against d'Alembert's u = sin(2πx) cos(2πt).
double standingWaveError(int points) {
  const Density d;
  const Grid g{1.0, points, Ends::Periodic};
  State s;
  for (int i = 0; i < points; ++i) {
    s.u.push_back(vilab::dm::sin(2 * kPi * g.x(i)));
    s.v.push_back(0);
  }
  const double dt = 0.5 * g.spacing();
  const int steps = static_cast<int>(std::lround(0.375 / dt));
  Leapfrog m;
  for (int k = 0; k < steps; ++k) m.step(d, g, s, dt);
  double err = 0;
  for (int i = 0; i < points; ++i)
    err = std::max(err, std::abs(s.u[i] - vilab::dm::sin(2 * kPi * g.x(i)) * vilab::dm::cos(2 * kPi * s.t)));
  return err;
}

}  // namespace

TEST_CASE("field: the leapfrog's energy stays in its window over 1e5 steps, RK4's drifts out", "[field]") {
  const Density d;
  const Grid g{1.0, 256, Ends::Fixed};
  const double dt = 0.5 * g.spacing();
  const double leapfrog = energyWindowRatio<Leapfrog>(d, g, bump(g), dt, 100000);
  const double rk4 = energyWindowRatio<RungeKutta4>(d, g, bump(g), dt, 100000);
  INFO("leapfrog " << leapfrog << ", RK4 " << rk4);
  CHECK(leapfrog <= 1.5);
  CHECK(rk4 >= 3);  // the negative control: same grid, same h
}

TEST_CASE("field: the leapfrog is of order 2 in space-time against d'Alembert's solution", "[field]") {
  const double e64 = standingWaveError(64), e128 = standingWaveError(128), e256 = standingWaveError(256);
  const double p1 = std::log2(e64 / e128), p2 = std::log2(e128 / e256);
  INFO("errors " << e64 << " " << e128 << " " << e256 << ", orders " << p1 << " " << p2);
  CHECK(std::abs(p1 - 2) <= 0.1);
  CHECK(std::abs(p2 - 2) <= 0.1);
}

TEST_CASE("field: periodic ends keep the momentum of translation", "[field]") {
  const Density d;
  const Grid g{1.0, 128, Ends::Periodic};
  State s;
  for (int i = 0; i < g.points; ++i) {
    s.u.push_back(vilab::dm::sin(2 * kPi * g.x(i)));
    s.v.push_back(0.25 + vilab::dm::cos(4 * kPi * g.x(i)));
  }
  const double p0 = momentum(d, g, s);
  Leapfrog m;
  for (int k = 0; k < 10000; ++k) m.step(d, g, s, 0.5 * g.spacing());
  CHECK(std::abs(momentum(d, g, s) - p0) <= 1e-12);
}

TEST_CASE("field: bad grids and densities are refused by field", "[field]") {
  const Density good;
  CHECK(validate(good, Grid{1.0, 256, Ends::Fixed}).empty());
  CHECK(validate(good, Grid{1.0, 1, Ends::Fixed}).rfind("grid.points:", 0) == 0);
  CHECK(validate(good, Grid{1.0, kMaxFieldPoints + 1, Ends::Free}).rfind("grid.points:", 0) == 0);
  CHECK(validate(good, Grid{1.0, 2, Ends::Periodic}).rfind("grid.points:", 0) == 0);
  CHECK(validate(good, Grid{0.0, 16, Ends::Fixed}).rfind("grid.length:", 0) == 0);
  CHECK(validate(good, Grid{NAN, 16, Ends::Fixed}).rfind("grid.length:", 0) == 0);
  Density bad;
  bad.rho = -1;
  CHECK(validate(bad, Grid{1.0, 16, Ends::Fixed}).rfind("density.rho:", 0) == 0);
  bad = Density{};
  bad.kappa = INFINITY;
  CHECK(validate(bad, Grid{1.0, 16, Ends::Fixed}).rfind("density.kappa:", 0) == 0);
}
