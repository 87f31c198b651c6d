// Shared by the integrator entries: the factories' common shapes, and the claims.
// An entry's words are its prose, core/prose/integrators/<id>.en.json (vilab/prose.hpp):
// its accessor returns withProse(the entry).
#pragma once

#include <initializer_list>
#include <memory>

#include "vilab/integrators/chain_multiplier.hpp"
#include "vilab/integrators/lagrangian_del.hpp"
#include "vilab/integrators/lagrangian_ode.hpp"
#include "vilab/integrators/runge_kutta.hpp"
#include "vilab/integrators/variational.hpp"
#include "vilab/lagrangians/oscillator.hpp"
#include "vilab/prose.hpp"
#include "vilab/registry.hpp"

namespace vilab {

// What an integrator claims to conserve, by kind; the words are its prose's `claims`, in
// the same order.
inline std::vector<Claim> claims(std::initializer_list<ClaimKind> kinds) {
  std::vector<Claim> out;
  for (ClaimKind kind : kinds) out.push_back({kind, {}});
  return out;
}

// A member of the α-family (midpoint, trapezoid, α) on the oscillator: the generic
// engine on L = ½ m v² − ½ k x².
inline std::unique_ptr<Integrator> discreteRuleOnOscillator(const Model& model, DiscreteRule rule, double h) {
  return std::make_unique<DelIntegrator<OscillatorSystem, CanonicalCoordinates>>(
      OscillatorSystem{std::get<OscillatorModel>(model)}, rule, h);
}

// A member of the α-family on a chain: the O(N) multiplier path, with fixed-size
// storage for the pendulums, the double and the triple pendulum (the same bits).
template <int N>
std::unique_ptr<Integrator> chainMultiplierOf(const ChainModel& chain, DiscreteRule rule, double h) {
  return std::make_unique<CanonicalIntegrator<ChainMultiplierIntegratorT<N>>>(
      ChainMultiplierIntegratorT<N>(chain, rule, h));
}
inline std::unique_ptr<Integrator> discreteRuleOnChain(const Model& model, DiscreteRule rule, double h) {
  const ChainModel& chain = std::get<ChainModel>(model);
  switch (chain.bobs()) {
    case 1: return chainMultiplierOf<1>(chain, rule, h);
    case 2: return chainMultiplierOf<2>(chain, rule, h);
    case 3: return chainMultiplierOf<3>(chain, rule, h);
    default: return chainMultiplierOf<-1>(chain, rule, h);
  }
}

// A member of the α-family on a system defined by data: the DEL with multipliers on
// the compiled derivatives.
inline std::unique_ptr<Integrator> discreteRuleOnLagrangian(const Model& model, DiscreteRule rule, double h) {
  return std::make_unique<CanonicalIntegrator<LagrangianDel>>(LagrangianDel(std::get<LagrangianModel>(model), rule, h));
}

// The explicit baselines on a system defined by data: the Euler–Lagrange ODE in [q; q̇].
inline std::unique_ptr<Integrator> rungeKuttaOnLagrangian(const Model& model, RungeKuttaMethod method, double h) {
  return std::make_unique<ExplicitRungeKutta<LagrangianOde>>(LagrangianOde(std::get<LagrangianModel>(model)), method,
                                                             h);
}

}  // namespace vilab
