// Integrator `rk4`: classical Runge–Kutta 4 on the equations of motion, projected onto
// the model's manifold after every step. The method is in
// vilab/integrators/runge_kutta.hpp, the equations and projections in
// vilab/integrators/odes.hpp; this file is its registry entry.
#include "common.hpp"
#include "vilab/integrators/field_steppers.hpp"
#include "vilab/integrators/mechanism_baselines.hpp"
#include "vilab/integrators/runge_kutta.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_rk4Integrator() {
  IntegratorEntry e;
  e.id = "rk4";
  e.family = IntegratorFamily::Baseline;
  e.order = 4;
  e.symplectic = false;
  e.symmetric = false;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = claims({ClaimKind::Constraints, ClaimKind::Constraints});
  e.linearizes = {ModelKind::Oscillator};  // Simulation::linearize
  return e;
}

const IntegratorEntry& rk4Entry() {
  static const IntegratorEntry e = withProse(make_rk4Integrator());
  return e;
}

std::unique_ptr<Integrator> rk4OnOscillator(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<OscillatorOde, OscillatorModel>(m, RungeKuttaMethod::RK4, h);
}
std::unique_ptr<Integrator> rk4OnChain(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<ChainIndex1Ode, ChainModel>(m, RungeKuttaMethod::RK4, h);
}
std::unique_ptr<Integrator> rk4OnLagrangian(const Model& m, const Options&, double h) {
  return rungeKuttaOnLagrangian(m, RungeKuttaMethod::RK4, h);
}
std::unique_ptr<Integrator> rk4OnRigidBody(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<RigidBodyOde, RigidBodyModel>(m, RungeKuttaMethod::RK4, h);
}

std::unique_ptr<Integrator> rk4OnMechanism(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<MechanismCanonicalOde, MechanismModel>(m, RungeKuttaMethod::RK4, h);
}

std::unique_ptr<Integrator> rk4OnField(const Model& m, const Options&, double h) {
  const FieldModel& field = std::get<FieldModel>(m);
  if (field.isTyped()) return std::make_unique<FieldMultiRungeKutta4>(field, h, "rk4", RungeKuttaMethod::RK4, h);
  return std::make_unique<FieldRungeKutta4>(field, h);
}

}  // namespace vilab
