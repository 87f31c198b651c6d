// Shared construction of steppers for the integrator entries.
#pragma once

#include <memory>

#include "vilab/registry.hpp"
#include "vilab/steppers.hpp"

namespace vilab {

// Multiplier-based variational integrators (midpoint, trapezoid, α) on the
// oscillator and the pendulum-like systems.
inline std::unique_ptr<Stepper> makeMultiplierVariational(const SystemInstance& sys, const Scenario& s,
                                                          DiscreteRule rule) {
  if (const auto* osc = std::get_if<OscillatorModel>(&sys.model)) {
    const Vec<double, 1> q0 = sys.q0, p0 = osc->mass * sys.v0;
    return std::make_unique<DenseVariationalStepper<OscillatorSystem, OscillatorTraits>>(OscillatorSystem{*osc}, rule,
                                                                                         s.h, q0, p0);
  }
  if (const auto* chain = std::get_if<ChainModel>(&sys.model))
    return std::make_unique<ChainMultiplierStepper>(*chain, rule, s.h, sys.q0, sys.v0);
  throw InputError("integrator", "does not apply to system " + s.system);
}

// RK4 / explicit Euler baselines on every system (runge_kutta.cpp).
std::unique_ptr<Stepper> makeRungeKutta(const SystemInstance& sys, const Scenario& s, RungeKuttaMethod method);

// Rigid-body baselines: Euler's equations with quaternion kinematics (rigid_body.cpp).
std::unique_ptr<Stepper> makeRigidBodyRungeKutta(const RigidBodyModel& m, const SystemInstance& sys, const Scenario& s,
                                                 RungeKuttaMethod method);

const std::vector<std::string>& multiplierSystems();
const std::vector<std::string>& allSystems();

}  // namespace vilab
