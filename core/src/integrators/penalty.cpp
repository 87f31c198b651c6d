#include "common.hpp"
#include "vilab/lagrangians/chain.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_penaltyIntegrator() {
  IntegratorEntry e;
  e.id = "penalty";
  e.title = "Midpoint with penalty springs";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.stateRules.positionsOnManifold = false;  // the links stretch by O(1/μ)
  e.stateRules.tangentMomentum = false;
  e.maxBodies = 2;
  e.conserves = {{ClaimKind::Symplectic, "symplectic form"},
                 {ClaimKind::Momentum, "momentum map"},
                 {ClaimKind::EnergyBounded, "energy incl. springs (bounded, no drift)"}};
  e.summary = "Each rigid link replaced by a stiff spring of stiffness μ; unconstrained midpoint DEL.";
  e.docs =
      "Instead of imposing g(q) = 0, a penalty potential (μ/2)Σ g_i² is added to the Lagrangian, so the "
      "links stretch slightly. The midpoint rule on this unconstrained system is still variational: symplectic, "
      "J_z exact, energy (including the springs' energy) bounded. The constraint is violated by O(1/μ): stiffer "
      "springs keep the links closer to their lengths but make the system stiff, so h must shrink like 1/√μ.";
  e.equations =
      "L_\\mu(q,\\dot q) = \\tfrac12\\dot q^{\\mathsf T}M\\dot q - V(q) - \\tfrac{\\mu}{2}\\sum_i g_i(q)^2,\\quad "
      "g_i = \\frac{|x_i-x_{i-1}|^2-l_i^2}{2l_i}\\\\"
      "D_2L_d(q_{k-1},q_k) + D_1L_d(q_k,q_{k+1}) = 0";
  e.citation = "Penalty potential (μ/2)Σ g_i² added to L; Wendlandt & Marsden eq. 4.1 (midpoint L_d)";
  e.options = {ParamSpec::number("mu", "stiffness μ", "N/m", "penalty stiffness; the link error falls like 1/μ", 1e4, 0,
                            1e12, true)};
  return e;
}

const IntegratorEntry& penaltyEntry() {
  static const IntegratorEntry e = make_penaltyIntegrator();
  return e;
}

std::unique_ptr<Integrator> penaltyOnChain(const Model& model, const Options& o, double h) {
  const ChainModel& m = std::get<ChainModel>(model);
  const double mu = o.get("mu");
  if (m.bobs() == 1)
    return std::make_unique<DelIntegrator<ChainPenalty<1>, CanonicalCoordinates>>(
        ChainPenalty<1>{ChainCartesian<1>{m}, mu}, DiscreteRule::midpoint(), h);
  return std::make_unique<DelIntegrator<ChainPenalty<2>, CanonicalCoordinates>>(
      ChainPenalty<2>{ChainCartesian<2>{m}, mu}, DiscreteRule::midpoint(), h);
}
// L − (μ/2) Σ g_i², compiled from the definition, stepped by the midpoint DEL without multipliers.
std::unique_ptr<Integrator> penaltyOnLagrangian(const Model& model, const Options& o, double h) {
  const LagrangianModel& m = std::get<LagrangianModel>(model);
  return std::make_unique<CanonicalIntegrator<LagrangianDel>>(
      LagrangianDel(penalizedLagrangian(*m.problem, o.get("mu")), DiscreteRule::midpoint(), h));
}

}  // namespace vilab
