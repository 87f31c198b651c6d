#include "common.hpp"
#include "vilab/lagrangians/chain.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_penaltyIntegrator() {
  IntegratorEntry e;
  e.id = "penalty";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.stateRules.positionsOnManifold = false;  // the links stretch by O(1/μ)
  e.stateRules.tangentMomentum = false;
  e.maxBodies = 2;
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::EnergyBounded});
  e.options = {ParamSpec::number("mu", "N/m", 1e4, 0, 1e12, true)};
  return e;
}

const IntegratorEntry& penaltyEntry() {
  static const IntegratorEntry e = withProse(make_penaltyIntegrator());
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
