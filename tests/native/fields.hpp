// Helpers shared by the field tests: a bump at rest, one step of any field method, the
// energy window ratio and the standing wave against d'Alembert's solution.
#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <type_traits>

#include "vilab/detmath.hpp"
#include "vilab/models/field.hpp"

namespace vilab::testing::fields {

using namespace vilab::field;
using vilab::field::State;  // not vilab::State, which a unity batch may have declared

constexpr double kPi = 3.14159265358979323846;

// A Gaussian bump of width 0.05 at rest: its waves are resolved by ~10 points, so
// RK4's damping of them stays steady over the run instead of dying out early.
inline State bump(const Grid& g) {
  State s;
  for (int i = 0; i < g.points; ++i) {
    const double z = (g.x(i) - 0.5) / 0.05;
    s.u.push_back(vilab::dm::exp(-z * z));
    s.v.push_back(0);
  }
  return s;
}

// The stiff string's density: κ = 1 with a segment of κ = 16 on [0.6, 0.8], one κ_c per
// cell of g (sampled at the cell centres, as params.density.kappa is).
inline Density stiffSegment(const Grid& g) {
  Density d;
  const int cells = g.ends == Ends::Periodic ? g.points : g.points - 1;
  for (int c = 0; c < cells; ++c) {
    const double x = (c + 0.5) * g.spacing();
    d.kappas.push_back(x > 0.6 && x < 0.8 ? 16.0 : 1.0);
  }
  return d;
}

// u = sin(2πx), at rest (d'Alembert's standing wave sin(2πx) cos(2πt) on a periodic grid)
// or moving with u_t = 0.25 + cos(4πx) (total momentum 0.25 with periodic ends).
inline State sineWave(const Grid& g, bool moving = false) {
  State s;
  for (int i = 0; i < g.points; ++i) {
    s.u.push_back(vilab::dm::sin(2 * kPi * g.x(i)));
    s.v.push_back(moving ? 0.25 + vilab::dm::cos(4 * kPi * g.x(i)) : 0.0);
  }
  return s;
}

// One step; a method that can refuse (the box scheme) must not.
template <class Method>
void advance(Method& m, const Density& d, const Grid& g, State& s, double dt) {
  if constexpr (std::is_void_v<decltype(m.step(d, g, s, dt))>)
    m.step(d, g, s, dt);
  else
    REQUIRE(m.step(d, g, s, dt).ok);
}

// Energy window (max − min of E − E₀) over the whole run divided by the window
// over its first tenth: about 1 for a bounded oscillation, large for a drift.
template <class Method>
double energyWindowRatio(const Density& d, const Grid& g, State s, double dt, int steps) {
  Method m;
  const double e0 = energy(d, g, s);
  double lo = 0, hi = 0, early = 0;
  for (int k = 1; k <= steps; ++k) {
    advance(m, d, g, s, dt);
    const double e = energy(d, g, s) - e0;
    lo = std::min(lo, e);
    hi = std::max(hi, e);
    if (k == steps / 10) early = hi - lo;
  }
  return (hi - lo) / early;
}

// Largest nodal error at t = 3/8 (where a phase error shows: cos(2πt) ≠ ±1) against d'Alembert's u = sin(2πx) cos(2πt).
template <class Method = Leapfrog>
double standingWaveError(int points) {
  const Density d;
  const Grid g{1.0, points, Ends::Periodic};
  State s = sineWave(g);
  const double dt = 0.5 * g.spacing();
  const int steps = static_cast<int>(std::lround(0.375 / dt));
  Method m;
  for (int k = 0; k < steps; ++k) advance(m, d, g, s, dt);
  double err = 0;
  for (int i = 0; i < points; ++i)
    err = std::max(err, std::abs(s.u[i] - vilab::dm::sin(2 * kPi * g.x(i)) * vilab::dm::cos(2 * kPi * s.t)));
  return err;
}

}  // namespace vilab::testing::fields
