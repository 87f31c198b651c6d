// Lagrangian form of the oscillator model for the generic engines.
#pragma once

#include "vilab/models/oscillator.hpp"
#include "vilab/types.hpp"

namespace vilab {

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
