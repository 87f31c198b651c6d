// The type-erased integrator bound to a system: what a Simulation drives.
// Constant model parameters live in the concrete stepper; the mutable state is
// (q, p) only, so a step is a pure function of (q, p) and the run fingerprint
// (hash of q, p, step) determines everything that follows.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "vilab/types.hpp"

namespace vilab {

struct Diagnostics {
  double energy = 0;
  // Momentum map components (discrete Noether, W–M §3.3): spatial angular
  // momentum components that the system's symmetry conserves.
  std::array<double, 3> momentum{};
  int momentumSize = 0;
  // Body angular momentum Π (rigid bodies only; |Π| is a Casimir).
  std::array<double, 3> bodyMomentum{};
  bool hasBodyMomentum = false;
  double constraint = 0;  // constraint residual, in the system's documented units
  int iterations = 0;     // Newton iterations of the last step
};

class Stepper {
 public:
  virtual ~Stepper() = default;

  // One step of size h. On failure the state is unchanged and the outcome says why.
  virtual StepOutcome step() = 0;

  virtual const VecX& q() const = 0;
  virtual const VecX& p() const = 0;
  // Replace the state; throws InputError when (q, p) is malformed or off the
  // constraint manifold by more than the scenario tolerance.
  virtual void setState(const VecX& q, const VecX& p) = 0;

  // Energy, momentum map and constraint residual at the current state.
  virtual Diagnostics diagnostics() const = 0;
  // What the renderer draws: particle systems give bob positions [x,y,z]*n,
  // rigid bodies give the orientation quaternion [w,x,y,z].
  virtual void visualState(std::vector<double>& out) const = 0;
};

}  // namespace vilab
