// Integrators `generalized` (W–M §4.2: the restricted discrete Lagrangian with a
// chart centred on every step) and `angles-midpoint` (the midpoint rule in one
// global chart of spherical angles, kept as the lesson about coordinate
// singularities). The methods are in vilab/integrators/generalized.hpp.
#include "vilab/integrators/generalized.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry makeGeneralized() {
  IntegratorEntry e;
  e.id = "generalized";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.maxBodies = 2;
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::EnergyBounded});
  return e;
}

VILAB_COLD static IntegratorEntry makeAnglesMidpoint() {
  IntegratorEntry e;
  e.id = "angles-midpoint";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.maxBodies = 2;
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::EnergyBounded});
  return e;
}

const IntegratorEntry& generalizedEntry() {
  static const IntegratorEntry e = withProse(makeGeneralized());
  return e;
}
const IntegratorEntry& anglesMidpointEntry() {
  static const IntegratorEntry e = withProse(makeAnglesMidpoint());
  return e;
}

std::unique_ptr<Integrator> generalizedOnChain(const Model& model, const Options&, double h) {
  return std::make_unique<CanonicalIntegrator<RestrictedChartStepper>>(
      RestrictedChartStepper(std::get<ChainModel>(model), h));
}

std::unique_ptr<Integrator> anglesMidpointOnChain(const Model& model, const Options&, double h) {
  const ChainModel& m = std::get<ChainModel>(model);
  if (m.planar) return std::make_unique<AnglesIntegrator<1, true>>(m, h);
  if (m.bobs() == 1) return std::make_unique<AnglesIntegrator<1, false>>(m, h);
  return std::make_unique<AnglesIntegrator<2, false>>(m, h);
}

}  // namespace vilab
