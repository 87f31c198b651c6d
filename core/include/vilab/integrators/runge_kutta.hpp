// Baselines: classical RK4 and explicit Euler on a first-order ODE y' = f(y).
// They are not variational: energy drifts, and on constrained systems (index-1
// multiplier form) the constraint drifts too. That contrast is the lesson.
#pragma once

#include "vilab/types.hpp"

namespace vilab {

enum class RungeKuttaMethod { Euler, RK4 };

// Ode provides `bool operator()(const VecX& y, VecX& dydt)` (false when f is undefined).
template <class Ode>
class RungeKutta {
 public:
  RungeKutta(Ode ode, RungeKuttaMethod method, double h) : ode_(std::move(ode)), method_(method), h_(h) {}
  const Ode& ode() const { return ode_; }

  StepOutcome step(VecX& y) {
    StepOutcome out;
    const Eigen::Index n = y.size();
    k1_.resize(n);
    if (!ode_(y, k1_)) return out.refused("the ODE right-hand side is undefined at y_k");
    if (method_ == RungeKuttaMethod::Euler) {
      tmp_ = y + h_ * k1_;
    } else {
      k2_.resize(n), k3_.resize(n), k4_.resize(n);
      tmp_ = y + (0.5 * h_) * k1_;
      if (!ode_(tmp_, k2_)) return out.refused("the ODE right-hand side is undefined at stage 2");
      tmp_ = y + (0.5 * h_) * k2_;
      if (!ode_(tmp_, k3_)) return out.refused("the ODE right-hand side is undefined at stage 3");
      tmp_ = y + h_ * k3_;
      if (!ode_(tmp_, k4_)) return out.refused("the ODE right-hand side is undefined at stage 4");
      tmp_ = y + (h_ / 6) * (k1_ + 2 * k2_ + 2 * k3_ + k4_);
    }
    if (!tmp_.allFinite()) return out.refused("the new state is not finite; reduce h");
    y.swap(tmp_);
    return out;
  }

 private:
  Ode ode_;
  RungeKuttaMethod method_;
  double h_;
  VecX k1_, k2_, k3_, k4_, tmp_;
};

}  // namespace vilab
