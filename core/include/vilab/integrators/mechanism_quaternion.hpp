// The quaternion midpoint on a mechanism (integrator `quaternion`,
// core/src/integrators/mechanism_quaternion.cpp): the entry points tests use beyond the
// registry's factory.
#pragma once

#include <Eigen/Dense>
#include <memory>

#include "vilab/integrators/integrator.hpp"
#include "vilab/models/mechanism.hpp"

namespace vilab {

// The step with, for tests only, all of the damping impulse at the step's start
// (f_d^- = h(−c ω̄), f_d^+ = 0): a forcing of order one the energy balance must tell apart.
std::unique_ptr<Integrator> quaternionOnMechanism(const MechanismModel& model, double h, bool dampAllAtStart);

// Tests: the residual of the step's equations from the canonical (q, p) at time t, at
// Newton's unknowns z (per body Δx, δq, the unit multiplier; then the joints' w), and
// Newton's matrix there.
void quaternionMechanismResidual(const MechanismModel& model, double h, const VecX& q, const VecX& p, double t,
                                 const Eigen::VectorXd& z, Eigen::VectorXd& r, Eigen::MatrixXd& jacobian);

}  // namespace vilab
