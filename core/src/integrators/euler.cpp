// Integrator `euler`: explicit Euler on the equations of motion, projected onto the
// model's manifold after every step. The method is in vilab/integrators/runge_kutta.hpp,
// the equations and projections in vilab/integrators/odes.hpp; this file is its
// registry entry.
#include "common.hpp"
#include "vilab/integrators/runge_kutta.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_eulerIntegrator() {
  IntegratorEntry e;
  e.id = "euler";
  e.family = IntegratorFamily::Baseline;
  e.order = 1;
  e.symplectic = false;
  e.symmetric = false;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = claims({ClaimKind::Constraints, ClaimKind::Constraints});
  e.linearizes = {ModelKind::Oscillator};  // Simulation::linearize
  return e;
}

const IntegratorEntry& eulerEntry() {
  static const IntegratorEntry e = withProse(make_eulerIntegrator());
  return e;
}

std::unique_ptr<Integrator> eulerOnOscillator(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<OscillatorOde, OscillatorModel>(m, RungeKuttaMethod::Euler, h);
}
std::unique_ptr<Integrator> eulerOnChain(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<ChainIndex1Ode, ChainModel>(m, RungeKuttaMethod::Euler, h);
}
std::unique_ptr<Integrator> eulerOnLagrangian(const Model& m, const Options&, double h) {
  return rungeKuttaOnLagrangian(m, RungeKuttaMethod::Euler, h);
}
std::unique_ptr<Integrator> eulerOnRigidBody(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<RigidBodyOde, RigidBodyModel>(m, RungeKuttaMethod::Euler, h);
}

}  // namespace vilab
