#include "common.hpp"
#include "vilab/integrators/field_steppers.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_trapezoidIntegrator() {
  IntegratorEntry e;
  e.id = "trapezoid";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::EnergyBounded});
  e.linearizes = {ModelKind::Chain};  // Simulation::linearize
  return e;
}

const IntegratorEntry& trapezoidEntry() {
  static const IntegratorEntry e = withProse(make_trapezoidIntegrator());
  return e;
}
std::unique_ptr<Integrator> trapezoidOnOscillator(const Model& m, const Options&, double h) {
  return discreteRuleOnOscillator(m, DiscreteRule::trapezoid(), h);
}
std::unique_ptr<Integrator> trapezoidOnChain(const Model& m, const Options&, double h) {
  return discreteRuleOnChain(m, DiscreteRule::trapezoid(), h);
}
std::unique_ptr<Integrator> trapezoidOnLagrangian(const Model& m, const Options&, double h) {
  return discreteRuleOnLagrangian(m, DiscreteRule::trapezoid(), h);
}
// On a field: the trapezoid discrete density is the leapfrog (Störmer–Verlet, models/field.hpp).
std::unique_ptr<Integrator> trapezoidOnField(const Model& m, const Options&, double h) {
  const FieldModel& field = std::get<FieldModel>(m);
  if (field.isTyped()) return std::make_unique<FieldMultiLeapfrog>(field, h);
  return std::make_unique<FieldLeapfrog>(field, h);
}

}  // namespace vilab
