// The harmonic oscillator: L = ½ m ẋ² − ½ k x², with an optional linear damping force
// F = −c ẋ outside L (Lagrange–d'Alembert, M–W §3.2). Canonical state q = [x], p = [m ẋ]
// (for the variational integrators the discrete Legendre transform plus f_d^+).
// Exact solutions (undamped, under-, critically and overdamped) in exact/oscillator.hpp.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "vilab/state.hpp"

namespace vilab {

struct OscillatorModel {
  double mass = 1;
  double stiffness = 1;
  double damping = 0;  // c ≥ 0: the force −c ẋ

  double energy(const State& s) const { return 0.5 * s.p[0] * s.p[0] / mass + 0.5 * stiffness * s.q[0] * s.q[0]; }
  Diagnostics diagnostics(const State& s) const {
    Diagnostics d;
    diagnosticsInto(s, d);
    return d;
  }
  // The same into d, writing only the energy (the rest keep what d holds).
  void diagnosticsInto(const State& s, Diagnostics& d) const { d.energy = energy(s); }
  void visual(const State& s, std::vector<double>& out) const { out.assign({s.q[0], 0.0, 0.0}); }
  double meanKineticEnergy(const State& a, const State& b, double h) const {
    const double v = (b.q[0] - a.q[0]) / h;
    return 0.5 * mass * v * v;
  }
  double energyScale() const { return mass + stiffness; }
  // Forces other than the potential's: damping.
  bool forced() const { return damping != 0; }
  // The force outside L, F(x, ẋ) = −c ẋ, over any scalar (the variational integrators
  // differentiate it).
  template <class S>
  Vec<S, 1> force(const Vec<S, 1>&, const Vec<S, 1>& velocity) const {
    return velocity * (-damping);
  }
  // No constraint: any finite state is valid.
  void project(State&, const StateRules&, const std::string&, const std::string&) const {}
};

}  // namespace vilab
