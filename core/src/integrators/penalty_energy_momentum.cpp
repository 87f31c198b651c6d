// Integrator `penalty-energy-momentum`: Gonzalez's discrete gradient on the penalty
// Hamiltonian H_μ = T + V + (μ/2) Σ g_i². The methods are in
// vilab/integrators/chain_penalty_energy_momentum.hpp (chains) and
// vilab/integrators/lagrangian_energy_momentum.hpp (systems defined by data); this file
// is the registry entry.
#include "vilab/integrators/chain_penalty_energy_momentum.hpp"
#include "vilab/integrators/lagrangian_energy_momentum.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_penaltyEnergyMomentumIntegrator() {
  IntegratorEntry e;
  e.id = "penalty-energy-momentum";
  e.title = "Energy–momentum with penalty springs";
  e.family = IntegratorFamily::EnergyMomentum;
  e.order = 2;
  e.symplectic = false;
  e.symmetric = true;
  e.stateRules.positionsOnManifold = false;  // the links stretch by O(1/μ)
  e.stateRules.tangentMomentum = false;
  e.maxBodies = 2;
  e.conserves = {{ClaimKind::Energy, "energy incl. springs (exactly, to rounding)"},
                 {ClaimKind::Momentum, "momentum map (J_z of chains)"}};
  e.summary = "Each rigid link replaced by a stiff spring of stiffness μ; Hamilton's equations discretized with a "
              "discrete gradient: energy including the springs and J_z exact, not symplectic.";
  e.docs =
      "The links are stiff springs, as in `penalty`, but instead of the midpoint DEL the scheme discretizes "
      "Hamilton's equations of H_μ = T + V + (μ/2)Σ g_i² with a discrete gradient (Gonzalez 1996): "
      "H_μ(q_{k+1}, p_{k+1}) − H_μ(q_k, p_k) = ∇̄V_μ·Δq − ∇̄V_μ·hM⁻¹p̄ = 0, for every μ and h. The penalty is not "
      "quadratic, so its discrete gradient is not the midpoint gradient (which would give the implicit midpoint "
      "rule, the same map as `penalty`, whose energy only stays bounded). On chains the discrete gradient is taken "
      "through the rotation invariants |d_i|² of the links (Gonzalez 1996, §4): each spring pulls along the "
      "midpoint link d̄_i with the mean tension μ(g_i(q_k) + g_i(q_{k+1}))/2, a central force, so J_z is kept "
      "exactly too. (Gonzalez's midpoint discrete gradient in Cartesian coordinates, whose correction points along "
      "Δq, keeps the energy but not J_z.) On a system defined by data the constraints become penalty terms of L and "
      "the general discrete gradient of `energy-momentum` is applied. The links violate their lengths by O(1/μ); "
      "the map is not symplectic.";
  e.equations =
      "H_\\mu = T(p) + V(q) + \\tfrac{\\mu}{2}\\sum_i g_i(q)^2,\\quad g_i = \\frac{|x_i-x_{i-1}|^2-l_i^2}{2l_i}\\\\"
      "q_{k+1}-q_k = hM^{-1}\\bar p,\\quad p_{k+1}-p_k = -h\\,\\bar\\nabla V_\\mu(q_k,q_{k+1})\\\\"
      "\\bar\\nabla V_\\mu = \\nabla V + \\sum_i \\mu\\,\\frac{g_i(q_k)+g_i(q_{k+1})}{2}\\,\\nabla g_i(\\bar q)";
  e.citation = "O. Gonzalez, Time integration and discrete Hamiltonian systems (1996), discrete gradients through "
               "invariants (§4); penalty potential (μ/2)Σ g_i² as in `penalty`";
  e.options = {ParamSpec::number("mu", "stiffness μ", "N/m", "penalty stiffness; the link error falls like 1/μ", 1e4, 0,
                                 1e12, true)};
  return e;
}

const IntegratorEntry& penaltyEnergyMomentumEntry() {
  static const IntegratorEntry e = make_penaltyEnergyMomentumIntegrator();
  return e;
}

std::unique_ptr<Integrator> penaltyEnergyMomentumOnChain(const Model& model, const Options& o, double h) {
  return std::make_unique<CanonicalIntegrator<ChainPenaltyEnergyMomentum>>(
      ChainPenaltyEnergyMomentum(std::get<ChainModel>(model), o.get("mu"), h));
}

// L − (μ/2) Σ g_i², compiled from the definition, stepped by the general discrete gradient.
std::unique_ptr<Integrator> penaltyEnergyMomentumOnLagrangian(const Model& model, const Options& o, double h) {
  const LagrangianModel& m = std::get<LagrangianModel>(model);
  if (m.problem->timeDependent)
    throw InputError(InputErrorCode::NotApplicable, "integrator", "penalty-energy-momentum conserves H(q, p), and this L depends on t (a driven "
                                   "system whose energy is not conserved): use penalty, midpoint or rk4");
  if (!m.problem->quadratic)
    throw InputError(InputErrorCode::NotApplicable, "integrator", "penalty-energy-momentum needs H(q, p), which this L does not give in closed "
                                   "form: L must be quadratic in the velocities (∂²L/∂q'² independent of q')");
  return std::make_unique<CanonicalIntegrator<LagrangianEnergyMomentum>>(
      LagrangianEnergyMomentum(penalizedLagrangian(*m.problem, o.get("mu")), h));
}

}  // namespace vilab
