#include "common.hpp"
#include "vilab/integrators/field_steppers.hpp"

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
// On a field: the midpoint discrete density is the box scheme (models/field_box.hpp).
std::unique_ptr<Integrator> midpointOnField(const Model& m, const Options&, double h) {
  return std::make_unique<FieldBox>(std::get<FieldModel>(m), h);
}

}  // namespace vilab
