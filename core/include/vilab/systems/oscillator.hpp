// Harmonic oscillator: L = ½ m v² − ½ k q². Exact solution in exact/oscillator.hpp.
#pragma once

#include "vilab/types.hpp"

namespace vilab {

struct OscillatorModel {
  double mass = 1;
  double stiffness = 1;
};

struct OscillatorSystem {
  static constexpr int N = 1;
  static constexpr int C = 0;
  OscillatorModel model;

  template <class S>
  S lagrangian(const Vec<S, 1>& q, const Vec<S, 1>& v) const {
    return 0.5 * model.mass * v[0] * v[0] - 0.5 * model.stiffness * q[0] * q[0];
  }
  template <class S>
  Vec<S, 0> constraints(const Vec<S, 1>&) const {
    return Vec<S, 0>();
  }
};

}  // namespace vilab
