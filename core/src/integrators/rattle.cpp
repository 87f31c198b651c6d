// Integrator `rattle`: Andersen's RATTLE, the constrained Störmer–Verlet method.
#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_rattleIntegrator() {
  IntegratorEntry e;
  e.id = "rattle";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::Constraints,
                        ClaimKind::EnergyBounded});
  e.linearizes = {ModelKind::Chain};  // Simulation::linearize
  return e;
}

const IntegratorEntry& rattleEntry() {
  static const IntegratorEntry e = withProse(make_rattleIntegrator());
  return e;
}

// The chains' trapezoid path is RATTLE already: multipliers on λ (O(N)), the impulse
// p_k + Dg(q_k)ᵀλ − h∇V, then the projection onto tangent momenta (the μ half kick).
std::unique_ptr<Integrator> rattleOnOscillator(const Model& m, const Options&, double h) {
  return discreteRuleOnOscillator(m, DiscreteRule::trapezoid(), h);
}
std::unique_ptr<Integrator> rattleOnChain(const Model& m, const Options&, double h) {
  return discreteRuleOnChain(m, DiscreteRule::trapezoid(), h);
}
std::unique_ptr<Integrator> rattleOnLagrangian(const Model& m, const Options&, double h) {
  const auto& problem = *std::get<LagrangianModel>(m).problem;
  if (!problem.constantMass)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "rattle needs a constant mass matrix (∂²L/∂q̇² constant): this L's depends on q; "
                     "use trapezoid or midpoint");
  return discreteRuleOnLagrangian(m, DiscreteRule::trapezoid(), h);
}

}  // namespace vilab
