// Integrator `sem`: the symplectic–energy–momentum method with variable time steps
// (Kane, Marsden & Ortiz 1999). The method is in vilab/integrators/sem.hpp; this file
// is the registry entry.
#include "vilab/integrators/sem.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_semIntegrator() {
  IntegratorEntry e;
  e.id = "sem";
  e.family = IntegratorFamily::EnergyMomentum;
  e.order = 2;
  // Symplectic on each energy level (and in the extended phase space), not for the
  // canonical form of the map the Simulation runs, whose level is set at load (docs).
  e.symplectic = false;
  // Reversible on a fixed level (tested); a reload sets a new level (docs).
  e.symmetric = false;
  e.variableStep = true;
  e.conserves = claims({ClaimKind::Energy, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::Symplectic});
  return e;
}

const IntegratorEntry& semEntry() {
  static const IntegratorEntry e = withProse(make_semIntegrator());
  return e;
}
std::unique_ptr<Integrator> semOnOscillator(const Model& m, const Options&, double h) {
  return std::make_unique<SymplecticEnergyMomentum<OscillatorMidpointStep>>(
      OscillatorMidpointStep{std::get<OscillatorModel>(m)}, h);
}
std::unique_ptr<Integrator> semOnLagrangian(const Model& m, const Options&, double h) {
  // Energy is conserved only when L does not depend on t (M–W §4.2).
  if (std::get<LagrangianModel>(m).problem->timeDependent)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "sem conserves the energy, which a time-dependent L does not conserve: L must not "
                     "use t");
  return std::make_unique<SymplecticEnergyMomentum<LagrangianMidpointStep>>(
      LagrangianMidpointStep(std::get<LagrangianModel>(m).problem), h);
}

}  // namespace vilab
