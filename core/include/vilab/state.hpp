// The canonical state of a model and the diagnostics read off it.
//
// One state per model, whatever the integrator (after REBOUND's particle state):
//  - pendulums and chains: q = Cartesian bob positions [x1,y1,z1, …] on the
//    constraint manifold, p = Cartesian momenta (M ẋ);
//  - oscillator: q = [x], p = [m ẋ];
//  - rigid bodies (free body, heavy top): q = unit quaternion [w,x,y,z] (body →
//    space), p = body angular momentum Π.
// Integrators keep whatever coordinates they step in (angles, R ∈ SO(3), [q; v]) and
// load from / store to this state. sim.q, sim.p, setState, CSV, links and run
// fingerprints all use it.
#pragma once

#include <array>

#include "vilab/types.hpp"

namespace vilab {

struct State {
  VecX q, p;
};
// The vectors' buffers exchanged (std::swap's moves would free a temporary's empty ones).
inline void swap(State& a, State& b) noexcept {
  a.q.swap(b.q);
  a.p.swap(b.p);
}

// Every number of s finite and within ±limits::kMaxMagnitude (NaN fails the comparison):
// the check of every step's state (simulation.cpp).
bool withinMagnitude(const State& s);

// What an integrator's states look like: on the model's constraint manifold with
// tangent momenta (the default), or not (penalty springs let positions leave the
// manifold; energy–momentum momenta are tangent only at midpoints). setState checks
// and projects accordingly.
struct StateRules {
  bool positionsOnManifold = true;
  bool tangentMomentum = true;
};

struct Diagnostics {
  double energy = 0;
  // Momentum map components (discrete Noether, W–M §3.3): J_z for pendulums and
  // chains, the spatial angular momentum RΠ for rigid bodies.
  // Data-defined systems: the Noether momenta of the declared symmetries (up to 8).
  std::array<double, 8> momentum{};
  int momentumSize = 0;
  // Data-defined systems: the user's conserved quantities, in declaration order.
  std::array<double, 16> conserved{};
  int conservedSize = 0;
  // Body angular momentum Π (rigid bodies only; |Π| is a Casimir of the free body).
  std::array<double, 3> bodyMomentum{};
  bool hasBodyMomentum = false;
  double constraint = 0;  // constraint residual in the model's units (m for links, 1 for |q|)
  int iterations = 0;     // Newton iterations (or substeps) of the last step
};

}  // namespace vilab
