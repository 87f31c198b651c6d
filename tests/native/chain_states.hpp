// Chain models and states on their manifold, shared by the structure tests.
#pragma once

#include <catch2/catch.hpp>

#include "support.hpp"
#include "vilab/integrators/chain_multiplier.hpp"

namespace vilab::test {

inline ChainModel chainModel(int n) {
  ChainModel m;
  for (int i = 0; i < n; ++i) {
    m.masses.push_back(1.0 + 0.25 * i);
    m.lengths.push_back(1.0 - 0.05 * i);
  }
  return m;
}

// A state on the chain's manifold: links tilted by varying angles, tangent momenta.
inline State chainState(const ChainModel& m, double phase) {
  const int n = m.bobs();
  State s;
  s.q.resize(3 * n);
  VecX v(3 * n);
  Vec3 x = Vec3::Zero(), vel = Vec3::Zero();
  for (int i = 0; i < n; ++i) {
    const double th = 0.7 + 0.3 * dm::sin(phase + i), ph = 0.4 * i + phase;
    const Vec3 e(dm::sin(th) * dm::cos(ph), dm::sin(th) * dm::sin(ph), -dm::cos(th));
    const Vec3 et(dm::cos(th) * dm::cos(ph), dm::cos(th) * dm::sin(ph), dm::sin(th));
    const Vec3 ep(-dm::sin(ph), dm::cos(ph), 0.0);
    x += m.lengths[i] * e;
    vel += m.lengths[i] * ((0.5 - 0.1 * i) * et + (1.0 + 0.2 * i) * dm::sin(th) * ep);
    s.q.segment<3>(3 * i) = x;
    v.segment<3>(3 * i) = vel;
  }
  s.p = v;
  for (int i = 0; i < n; ++i) s.p.segment<3>(3 * i) *= m.masses[i];
  return s;
}

// One step of the O(N) multiplier path.
inline State fastStep(const ChainModel& m, DiscreteRule rule, double h, const State& s) {
  ChainMultiplierIntegrator fast(m, rule, h);
  State out = s;
  REQUIRE(fast.step(out.q, out.p).ok);
  return out;
}

}  // namespace vilab::test
