// Shared by the integrator entries: the factories' common shapes.
#pragma once

#include <memory>

#include "vilab/integrators/chain_multiplier.hpp"
#include "vilab/integrators/variational.hpp"
#include "vilab/lagrangians/oscillator.hpp"
#include "vilab/registry.hpp"

namespace vilab {

// A member of the α-family (midpoint, trapezoid, α) on the oscillator: the generic
// engine on L = ½ m v² − ½ k x².
inline std::unique_ptr<Integrator> discreteRuleOnOscillator(const Model& model, DiscreteRule rule, double h) {
  return std::make_unique<DelIntegrator<OscillatorSystem, CanonicalCoordinates>>(
      OscillatorSystem{std::get<OscillatorModel>(model)}, rule, h);
}

// A member of the α-family on a chain: the O(N) multiplier path.
inline std::unique_ptr<Integrator> discreteRuleOnChain(const Model& model, DiscreteRule rule, double h) {
  return std::make_unique<CanonicalIntegrator<ChainMultiplierIntegrator>>(
      ChainMultiplierIntegrator(std::get<ChainModel>(model), rule, h));
}

}  // namespace vilab
