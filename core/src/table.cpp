// The applicability table: which integrator applies to which model, and the factory
// that binds it. One row per (model, integrator) pair; the registry, the scenario
// parser and the page derive everything else from it. A system accepts an integrator
// when the integrator has a row for the system's model and handles as many links as
// the system may have (IntegratorEntry::maxBodies).
#include "vilab/registry.hpp"

namespace vilab {

// Each integrator's entry and factories live in core/src/integrators/<id>.cpp.
#define VILAB_INTEGRATOR(name) const IntegratorEntry& name##Entry();
#define VILAB_FACTORY(name) std::unique_ptr<Integrator> name(const Model&, const Options&, double);
VILAB_INTEGRATOR(midpoint)
VILAB_INTEGRATOR(trapezoid)
VILAB_INTEGRATOR(alpha)
VILAB_INTEGRATOR(generalized)
VILAB_INTEGRATOR(anglesMidpoint)
VILAB_INTEGRATOR(penalty)
VILAB_INTEGRATOR(quaternion)
VILAB_INTEGRATOR(lieGroup)
VILAB_INTEGRATOR(energyMomentum)
VILAB_INTEGRATOR(rk4)
VILAB_INTEGRATOR(euler)
VILAB_INTEGRATOR(dopri5)
VILAB_INTEGRATOR(sem)
VILAB_INTEGRATOR(symplecticEuler)
VILAB_INTEGRATOR(rattle)
VILAB_INTEGRATOR(newmark)
VILAB_INTEGRATOR(composition4)
VILAB_INTEGRATOR(composition6)
VILAB_INTEGRATOR(lobatto)
VILAB_INTEGRATOR(penaltyEnergyMomentum)
VILAB_FACTORY(midpointOnOscillator)
VILAB_FACTORY(midpointOnChain)
VILAB_FACTORY(trapezoidOnOscillator)
VILAB_FACTORY(trapezoidOnChain)
VILAB_FACTORY(alphaOnOscillator)
VILAB_FACTORY(alphaOnChain)
VILAB_FACTORY(generalizedOnChain)
VILAB_FACTORY(anglesMidpointOnChain)
VILAB_FACTORY(penaltyOnChain)
VILAB_FACTORY(quaternionOnRigidBody)
VILAB_FACTORY(lieGroupOnRigidBody)
VILAB_FACTORY(energyMomentumOnOscillator)
VILAB_FACTORY(energyMomentumOnChain)
VILAB_FACTORY(energyMomentumOnRigidBody)
VILAB_FACTORY(rk4OnOscillator)
VILAB_FACTORY(rk4OnChain)
VILAB_FACTORY(rk4OnRigidBody)
VILAB_FACTORY(eulerOnOscillator)
VILAB_FACTORY(eulerOnChain)
VILAB_FACTORY(eulerOnRigidBody)
VILAB_FACTORY(dopri5OnOscillator)
VILAB_FACTORY(dopri5OnChain)
VILAB_FACTORY(dopri5OnRigidBody)
VILAB_FACTORY(midpointOnLagrangian)
VILAB_FACTORY(trapezoidOnLagrangian)
VILAB_FACTORY(alphaOnLagrangian)
VILAB_FACTORY(penaltyOnLagrangian)
VILAB_FACTORY(rk4OnLagrangian)
VILAB_FACTORY(eulerOnLagrangian)
VILAB_FACTORY(dopri5OnLagrangian)
VILAB_FACTORY(energyMomentumOnLagrangian)
VILAB_FACTORY(semOnOscillator)
VILAB_FACTORY(semOnLagrangian)
VILAB_FACTORY(symplecticEulerOnOscillator)
VILAB_FACTORY(symplecticEulerOnChain)
VILAB_FACTORY(symplecticEulerOnLagrangian)
VILAB_FACTORY(rattleOnOscillator)
VILAB_FACTORY(rattleOnChain)
VILAB_FACTORY(rattleOnLagrangian)
VILAB_FACTORY(newmarkOnOscillator)
VILAB_FACTORY(newmarkOnLagrangian)
VILAB_FACTORY(composition4OnModel)
VILAB_FACTORY(composition6OnModel)
VILAB_FACTORY(lobattoOnOscillator)
VILAB_FACTORY(lobattoOnChain)
VILAB_FACTORY(lobattoOnLagrangian)
VILAB_FACTORY(penaltyEnergyMomentumOnChain)
VILAB_FACTORY(penaltyEnergyMomentumOnLagrangian)
#undef VILAB_INTEGRATOR
#undef VILAB_FACTORY

// The lean build (VILAB_LEAN: the page's first-load module) keeps every row, so its
// registry is the full one, but binds the heavy integrators (automatic differentiation,
// Lobatto, compositions, anything on a Lagrangian given as data) to a factory that
// refuses; whole-program optimization then drops their code.
#ifdef VILAB_LEAN
[[noreturn]] static std::unique_ptr<Integrator> inFullModule(const Model&, const Options&, double) {
  throw NotInLeanBuild("integrator", "this integrator on this system");
}
#define VILAB_FULL(factory) &inFullModule
bool inThisBuild(const Pairing& pairing) { return pairing.make != &inFullModule; }
#else
#define VILAB_FULL(factory) &factory
bool inThisBuild(const Pairing&) { return true; }
#endif

const std::vector<Pairing>& applicabilityTable() {
  using K = ModelKind;
  static const std::vector<Pairing> rows = {
      // model          integrator              factory
      {K::Oscillator, &midpointEntry, &midpointOnOscillator},
      {K::Chain, &midpointEntry, &midpointOnChain},
      {K::Lagrangian, &midpointEntry, VILAB_FULL(midpointOnLagrangian)},
      {K::Oscillator, &trapezoidEntry, &trapezoidOnOscillator},
      {K::Chain, &trapezoidEntry, &trapezoidOnChain},
      {K::Lagrangian, &trapezoidEntry, VILAB_FULL(trapezoidOnLagrangian)},
      {K::Oscillator, &alphaEntry, &alphaOnOscillator},
      {K::Chain, &alphaEntry, &alphaOnChain},
      {K::Lagrangian, &alphaEntry, VILAB_FULL(alphaOnLagrangian)},
      {K::Oscillator, &symplecticEulerEntry, &symplecticEulerOnOscillator},
      {K::Chain, &symplecticEulerEntry, &symplecticEulerOnChain},
      {K::Lagrangian, &symplecticEulerEntry, VILAB_FULL(symplecticEulerOnLagrangian)},
      {K::Oscillator, &rattleEntry, &rattleOnOscillator},
      {K::Chain, &rattleEntry, &rattleOnChain},
      {K::Lagrangian, &rattleEntry, VILAB_FULL(rattleOnLagrangian)},
      {K::Oscillator, &newmarkEntry, &newmarkOnOscillator},
      {K::Lagrangian, &newmarkEntry, VILAB_FULL(newmarkOnLagrangian)},
      {K::Oscillator, &composition4Entry, VILAB_FULL(composition4OnModel)},
      {K::Chain, &composition4Entry, VILAB_FULL(composition4OnModel)},
      {K::RigidBody, &composition4Entry, VILAB_FULL(composition4OnModel)},
      {K::Lagrangian, &composition4Entry, VILAB_FULL(composition4OnModel)},
      {K::Oscillator, &composition6Entry, VILAB_FULL(composition6OnModel)},
      {K::Chain, &composition6Entry, VILAB_FULL(composition6OnModel)},
      {K::RigidBody, &composition6Entry, VILAB_FULL(composition6OnModel)},
      {K::Lagrangian, &composition6Entry, VILAB_FULL(composition6OnModel)},
      {K::Oscillator, &lobattoEntry, VILAB_FULL(lobattoOnOscillator)},
      {K::Chain, &lobattoEntry, VILAB_FULL(lobattoOnChain)},
      {K::Lagrangian, &lobattoEntry, VILAB_FULL(lobattoOnLagrangian)},
      {K::Chain, &generalizedEntry, VILAB_FULL(generalizedOnChain)},
      {K::Chain, &anglesMidpointEntry, VILAB_FULL(anglesMidpointOnChain)},
      {K::Chain, &penaltyEntry, VILAB_FULL(penaltyOnChain)},
      {K::Lagrangian, &penaltyEntry, VILAB_FULL(penaltyOnLagrangian)},
      {K::Chain, &penaltyEnergyMomentumEntry, VILAB_FULL(penaltyEnergyMomentumOnChain)},
      {K::Lagrangian, &penaltyEnergyMomentumEntry, VILAB_FULL(penaltyEnergyMomentumOnLagrangian)},
      {K::RigidBody, &quaternionEntry, VILAB_FULL(quaternionOnRigidBody)},
      {K::RigidBody, &lieGroupEntry, &lieGroupOnRigidBody},
      {K::Oscillator, &energyMomentumEntry, &energyMomentumOnOscillator},
      {K::Chain, &energyMomentumEntry, &energyMomentumOnChain},
      {K::RigidBody, &energyMomentumEntry, &energyMomentumOnRigidBody},
      {K::Lagrangian, &energyMomentumEntry, VILAB_FULL(energyMomentumOnLagrangian)},
      {K::Oscillator, &rk4Entry, &rk4OnOscillator},
      {K::Chain, &rk4Entry, &rk4OnChain},
      {K::RigidBody, &rk4Entry, &rk4OnRigidBody},
      {K::Lagrangian, &rk4Entry, VILAB_FULL(rk4OnLagrangian)},
      {K::Oscillator, &eulerEntry, &eulerOnOscillator},
      {K::Chain, &eulerEntry, &eulerOnChain},
      {K::RigidBody, &eulerEntry, &eulerOnRigidBody},
      {K::Lagrangian, &eulerEntry, VILAB_FULL(eulerOnLagrangian)},
      {K::Oscillator, &dopri5Entry, &dopri5OnOscillator},
      {K::Chain, &dopri5Entry, &dopri5OnChain},
      {K::RigidBody, &dopri5Entry, &dopri5OnRigidBody},
      {K::Lagrangian, &dopri5Entry, VILAB_FULL(dopri5OnLagrangian)},
      // sem: not on chains, whose default motions have no energy-conserving step after ~0.2 s.
      {K::Oscillator, &semEntry, &semOnOscillator},
      {K::Lagrangian, &semEntry, VILAB_FULL(semOnLagrangian)},
  };
  return rows;
}

}  // namespace vilab
