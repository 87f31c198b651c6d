#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_midpointIntegrator() {
  IntegratorEntry e;
  e.id = "midpoint";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::EnergyBounded});
  e.linearizes = {ModelKind::Lagrangian, ModelKind::Chain};  // Simulation::linearize
  return e;
}

const IntegratorEntry& midpointEntry() {
  static const IntegratorEntry e = withProse(make_midpointIntegrator());
  return e;
}
std::unique_ptr<Integrator> midpointOnOscillator(const Model& m, const Options&, double h) {
  return discreteRuleOnOscillator(m, DiscreteRule::midpoint(), h);
}
std::unique_ptr<Integrator> midpointOnChain(const Model& m, const Options&, double h) {
  return discreteRuleOnChain(m, DiscreteRule::midpoint(), h);
}
std::unique_ptr<Integrator> midpointOnLagrangian(const Model& m, const Options&, double h) {
  return discreteRuleOnLagrangian(m, DiscreteRule::midpoint(), h);
}

}  // namespace vilab
