// Integrator `penalty-energy-momentum`: Gonzalez's discrete gradient on the penalty
// Hamiltonian H_μ = T + V + (μ/2) Σ g_i². The methods are in
// vilab/integrators/chain_penalty_energy_momentum.hpp (chains) and
// vilab/integrators/lagrangian_energy_momentum.hpp (systems defined by data); this file
// is the registry entry.
#include "common.hpp"
#include "vilab/integrators/chain_penalty_energy_momentum.hpp"
#include "vilab/integrators/lagrangian_energy_momentum.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_penaltyEnergyMomentumIntegrator() {
  IntegratorEntry e;
  e.id = "penalty-energy-momentum";
  e.family = IntegratorFamily::EnergyMomentum;
  e.order = 2;
  e.symplectic = false;
  e.symmetric = true;
  e.stateRules.positionsOnManifold = false;  // the links stretch by O(1/μ)
  e.stateRules.tangentMomentum = false;
  e.maxBodies = 2;
  e.conserves = claims({ClaimKind::Energy, ClaimKind::Momentum});
  e.options = {ParamSpec::number("mu", "N/m", 1e4, 0, 1e12, true)};
  return e;
}

const IntegratorEntry& penaltyEnergyMomentumEntry() {
  static const IntegratorEntry e = withProse(make_penaltyEnergyMomentumIntegrator());
  return e;
}

std::unique_ptr<Integrator> penaltyEnergyMomentumOnChain(const Model& model, const Options& o, double h) {
  return std::make_unique<CanonicalIntegrator<ChainPenaltyEnergyMomentum>>(
      ChainPenaltyEnergyMomentum(std::get<ChainModel>(model), o.get("mu"), h));
}

// L − (μ/2) Σ g_i², compiled from the definition with its symmetries (the penalty of
// invariant constraints is invariant), stepped by the discrete gradient that keeps them.
std::unique_ptr<Integrator> penaltyEnergyMomentumOnLagrangian(const Model& model, const Options& o, double h) {
  const LagrangianModel& m = std::get<LagrangianModel>(model);
  if (m.problem->timeDependent)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "penalty-energy-momentum conserves H(q, p), and this L depends on t (a driven "
                     "system whose energy is not conserved): use penalty, midpoint or rk4");
  if (!m.problem->quadratic)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "penalty-energy-momentum needs H(q, p), which this L does not give in closed "
                     "form: L must be quadratic in the velocities (∂²L/∂q'² independent of q')");
  return std::make_unique<CanonicalIntegrator<LagrangianEnergyMomentum>>(
      LagrangianEnergyMomentum(penalizedLagrangian(*m.problem, o.get("mu")), h));
}

}  // namespace vilab
