#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_alphaIntegrator() {
  IntegratorEntry e;
  e.id = "alpha";
  e.family = IntegratorFamily::Variational;
  e.order = 1;
  e.symplectic = true;
  e.symmetric = false;  // its adjoint is the rule with 1 − α
  e.forces = true;      // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::EnergyBounded});
  e.options = {ParamSpec::number("alpha", "", 0.25, 0, 1, false)};
  e.linearizes = {ModelKind::Lagrangian};  // Simulation::linearize
  return e;
}

const IntegratorEntry& alphaEntry() {
  static const IntegratorEntry e = withProse(make_alphaIntegrator());
  return e;
}
std::unique_ptr<Integrator> alphaOnOscillator(const Model& m, const Options& o, double h) {
  return discreteRuleOnOscillator(m, DiscreteRule::alphaFamily(o.get("alpha")), h);
}
std::unique_ptr<Integrator> alphaOnChain(const Model& m, const Options& o, double h) {
  return discreteRuleOnChain(m, DiscreteRule::alphaFamily(o.get("alpha")), h);
}
std::unique_ptr<Integrator> alphaOnLagrangian(const Model& m, const Options& o, double h) {
  return discreteRuleOnLagrangian(m, DiscreteRule::alphaFamily(o.get("alpha")), h);
}

}  // namespace vilab
