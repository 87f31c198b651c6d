// Integrator `symplectic-euler`: the two first-order ends of the α-family, α = 0 and
// α = 1, which are each other's adjoints and Lu's type-3 and type-2 generating functions.
#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_symplecticEulerIntegrator() {
  IntegratorEntry e;
  e.id = "symplectic-euler";
  e.family = IntegratorFamily::Variational;
  e.order = 1;
  e.symplectic = true;
  e.symmetric = false;  // the two variants are each other's adjoints
  e.forces = true;      // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::EnergyBounded});
  e.options = {ParamSpec::whole("variant", 0, 0, 1)};
  return e;
}

const IntegratorEntry& symplecticEulerEntry() {
  static const IntegratorEntry e = withProse(make_symplecticEulerIntegrator());
  return e;
}

// Variant A is α = 0, variant B is α = 1.
static DiscreteRule endpointRule(const Options& o) { return DiscreteRule::alphaFamily(o.get("variant")); }

std::unique_ptr<Integrator> symplecticEulerOnOscillator(const Model& m, const Options& o, double h) {
  return discreteRuleOnOscillator(m, endpointRule(o), h);
}
std::unique_ptr<Integrator> symplecticEulerOnChain(const Model& m, const Options& o, double h) {
  return discreteRuleOnChain(m, endpointRule(o), h);
}
std::unique_ptr<Integrator> symplecticEulerOnLagrangian(const Model& m, const Options& o, double h) {
  return discreteRuleOnLagrangian(m, endpointRule(o), h);
}

}  // namespace vilab
