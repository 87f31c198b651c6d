// Integrator `energy-momentum`: Gonzalez's discrete-gradient scheme (on chains with the
// velocity-level constraint, so that nodal momenta are tangent). The
// methods are in vilab/integrators/{chain,rigid}_energy_momentum.hpp; this file is the
// registry entry.
#include "common.hpp"
#include "vilab/integrators/chain_energy_momentum.hpp"
#include "vilab/integrators/lagrangian_energy_momentum.hpp"
#include "vilab/integrators/rigid_energy_momentum.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_energyMomentumIntegrator() {
  IntegratorEntry e;
  e.id = "energy-momentum";
  e.family = IntegratorFamily::EnergyMomentum;
  e.order = 2;
  e.symplectic = false;
  e.symmetric = true;
  // Any finite momentum is taken; the step projects it onto the hidden constraint.
  e.stateRules.tangentMomentum = false;
  e.conserves = claims(
      {ClaimKind::Energy, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::Constraints, ClaimKind::Casimir});
  return e;
}

const IntegratorEntry& energyMomentumEntry() {
  static const IntegratorEntry e = withProse(make_energyMomentumIntegrator());
  return e;
}

// The oscillator's equations are linear: the discrete gradient is ∇H(x̄), the midpoint rule.
std::unique_ptr<Integrator> energyMomentumOnOscillator(const Model& m, const Options&, double h) {
  return discreteRuleOnOscillator(m, DiscreteRule::midpoint(), h);
}
std::unique_ptr<Integrator> energyMomentumOnChain(const Model& m, const Options&, double h) {
  return std::make_unique<CanonicalIntegrator<ChainEnergyMomentumIntegrator>>(
      ChainEnergyMomentumIntegrator(std::get<ChainModel>(m), h));
}
std::unique_ptr<Integrator> energyMomentumOnRigidBody(const Model& m, const Options&, double h) {
  return std::make_unique<RotationIntegrator<RigidEnergyMomentumStepper>>(
      RigidEnergyMomentumStepper(std::get<RigidBodyModel>(m), h));
}

// A system defined by data: the general discrete gradient, where H(q, p) exists.
std::unique_ptr<Integrator> energyMomentumOnLagrangian(const Model& model, const Options&, double h) {
  const LagrangianModel& m = std::get<LagrangianModel>(model);
  // A time-dependent L has no conserved H(q, p) for the discrete gradient to keep.
  if (m.problem->timeDependent)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "energy-momentum conserves H(q, p), and this L depends on t (a driven system "
                     "whose energy is not conserved): use midpoint, trapezoid or rk4");
  if (!m.problem->quadratic)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "energy-momentum needs H(q, p), which this L does not give in closed form: L must "
                     "be quadratic in the velocities (∂²L/∂q'² independent of q')");
  return std::make_unique<CanonicalIntegrator<LagrangianEnergyMomentum>>(LagrangianEnergyMomentum(m.problem, h));
}

}  // namespace vilab
