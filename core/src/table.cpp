// The applicability table: which integrator applies to which model, the factory that
// binds it, and whether the lean build (the page's first-load module) runs it. One line per
// (integrator, model) pair in VILAB_PAIRS, expanded below into the declarations and the
// rows; the registry, the scenario parser and the page derive everything else from it. A
// system accepts an integrator when the integrator has a row for the system's model and
// handles as many links as the system may have (IntegratorEntry::maxBodies).
//
// Adding an integrator: its file core/src/integrators/<id>.cpp (its entry `<name>Entry()`
// and one factory per model), its prose (core/prose/integrators/), and one line here per
// model it applies to (docs/layout.md).
#include "vilab/forcing.hpp"
#include "vilab/registry.hpp"

namespace vilab {

// X(integrator, model, factory, build): build Lean runs in both builds; Full only in the
// full one (automatic differentiation, Lobatto, compositions, anything on a Lagrangian
// given as data), so the lean build's whole-program optimization drops its code. The
// registry lists the integrators in the order of their first line.
// clang-format off
#define VILAB_PAIRS(X) \
  X(midpoint,              Oscillator, midpointOnOscillator,              Lean)                \
  X(midpoint,              Chain,      midpointOnChain,                   Lean)                \
  X(midpoint,              Lagrangian, midpointOnLagrangian,              Full)                \
  X(midpoint,              Field,      midpointOnField,                   Full)                \
  X(trapezoid,             Oscillator, trapezoidOnOscillator,             Lean)                \
  X(trapezoid,             Chain,      trapezoidOnChain,                  Lean)                \
  X(trapezoid,             Lagrangian, trapezoidOnLagrangian,             Full)                \
  X(trapezoid,             Field,      trapezoidOnField,                  Full)                \
  X(alpha,                 Oscillator, alphaOnOscillator,                 Lean)                \
  X(alpha,                 Chain,      alphaOnChain,                      Lean)                \
  X(alpha,                 Lagrangian, alphaOnLagrangian,                 Full)                \
  X(symplecticEuler,       Oscillator, symplecticEulerOnOscillator,       Lean)                \
  X(symplecticEuler,       Chain,      symplecticEulerOnChain,            Lean)                \
  X(symplecticEuler,       Lagrangian, symplecticEulerOnLagrangian,       Full)                \
  X(rattle,                Oscillator, rattleOnOscillator,                Lean)                \
  X(rattle,                Chain,      rattleOnChain,                     Lean)                \
  X(rattle,                Lagrangian, rattleOnLagrangian,                Full)                \
  X(newmark,               Oscillator, newmarkOnOscillator,               Lean)                \
  X(newmark,               Lagrangian, newmarkOnLagrangian,               Full)                \
  X(composition4,          Oscillator, composition4OnModel,               Full)                \
  X(composition4,          Chain,      composition4OnModel,               Full)                \
  X(composition4,          RigidBody,  composition4OnModel,               Full)                \
  X(composition4,          Lagrangian, composition4OnModel,               Full)                \
  X(composition4,          Mechanism,  composition4OnModel,               Full)                \
  X(composition6,          Oscillator, composition6OnModel,               Full)                \
  X(composition6,          Chain,      composition6OnModel,               Full)                \
  X(composition6,          RigidBody,  composition6OnModel,               Full)                \
  X(composition6,          Lagrangian, composition6OnModel,               Full)                \
  X(composition6,          Mechanism,  composition6OnModel,               Full)                \
  X(lobatto,               Oscillator, lobattoOnOscillator,               Full)                \
  X(lobatto,               Chain,      lobattoOnChain,                    Full)                \
  X(lobatto,               Lagrangian, lobattoOnLagrangian,               Full)                \
  X(gauss2,                Chain,      gauss2OnChain,                     Full)                \
  X(gauss2,                Lagrangian, gauss2OnLagrangian,                Full)                \
  X(gauss4,                Chain,      gauss4OnChain,                     Full)                \
  X(gauss4,                Lagrangian, gauss4OnLagrangian,                Full)                \
  X(gauss6,                Chain,      gauss6OnChain,                     Full)                \
  X(gauss6,                Lagrangian, gauss6OnLagrangian,                Full)                \
  X(gauss8,                Chain,      gauss8OnChain,                     Full)                \
  X(gauss8,                Lagrangian, gauss8OnLagrangian,                Full)                \
  X(generalized,           Chain,      generalizedOnChain,                Full)                \
  X(anglesMidpoint,        Chain,      anglesMidpointOnChain,             Full)                \
  X(penalty,               Chain,      penaltyOnChain,                    Full)                \
  X(penalty,               Lagrangian, penaltyOnLagrangian,               Full)                \
  X(penaltyEnergyMomentum, Chain,      penaltyEnergyMomentumOnChain,      Full)                \
  X(penaltyEnergyMomentum, Lagrangian, penaltyEnergyMomentumOnLagrangian, Full)                \
  X(quaternion,            RigidBody,  quaternionOnRigidBody,             Full)                \
  X(quaternion,            Mechanism,  quaternionOnMechanism,             Full)                \
  X(lieGroup,              RigidBody,  lieGroupOnRigidBody,               Lean)                \
  X(lieGroup,              Mechanism,  lieGroupOnMechanism,               Full)                \
  X(energyMomentum,        Oscillator, energyMomentumOnOscillator,        Lean)                \
  X(energyMomentum,        Chain,      energyMomentumOnChain,             Lean)                \
  X(energyMomentum,        RigidBody,  energyMomentumOnRigidBody,         Lean)                \
  X(energyMomentum,        Lagrangian, energyMomentumOnLagrangian,        Full)                \
  X(energyMomentum,        Mechanism,  energyMomentumOnMechanism,         Full)                \
  X(rk4,                   Oscillator, rk4OnOscillator,                   Lean)                \
  X(rk4,                   Chain,      rk4OnChain,                        Lean)                \
  X(rk4,                   RigidBody,  rk4OnRigidBody,                    Lean)                \
  X(rk4,                   Lagrangian, rk4OnLagrangian,                   Full)                \
  X(rk4,                   Mechanism,  rk4OnMechanism,                    Full)                \
  X(rk4,                   Field,      rk4OnField,                        Full)                \
  X(euler,                 Oscillator, eulerOnOscillator,                 Lean)                \
  X(euler,                 Chain,      eulerOnChain,                      Lean)                \
  X(euler,                 RigidBody,  eulerOnRigidBody,                  Lean)                \
  X(euler,                 Lagrangian, eulerOnLagrangian,                 Full)                \
  X(dopri5,                Oscillator, dopri5OnOscillator,                Lean)                \
  X(dopri5,                Chain,      dopri5OnChain,                     Lean)                \
  X(dopri5,                RigidBody,  dopri5OnRigidBody,                 Lean)                \
  X(dopri5,                Lagrangian, dopri5OnLagrangian,                Full)                \
  X(dopri5,                Mechanism,  dopri5OnMechanism,                 Full)                \
  X(dopri5,                Field,      dopri5OnField,                     Full)                \
  /* sem: not on chains, whose default motions have no energy-conserving step after ~0.2 s. */ \
  X(sem,                   Oscillator, semOnOscillator,                   Lean)                \
  X(sem,                   Lagrangian, semOnLagrangian,                   Full)                \
  X(avi,                   Field,      aviOnField,                        Full)
// clang-format on

// Each integrator's entry and factories live in core/src/integrators/<id>.cpp
// (declaring a function again is allowed: one declaration per line of the list).
#define VILAB_DECLARE(integrator, model, factory, build) \
  const IntegratorEntry& integrator##Entry();            \
  std::unique_ptr<Integrator> factory(const Model&, const Options&, double);
VILAB_PAIRS(VILAB_DECLARE)
#undef VILAB_DECLARE

// The lean build (VILAB_LEAN) keeps every row, so its registry is the full one, but binds
// the Full rows to a factory that refuses (the scenario parser refuses them first, with
// NotInLeanBuild: inThisBuild).
#ifdef VILAB_LEAN
[[noreturn]] static std::unique_ptr<Integrator> inFullModule(const Model&, const Options&, double) {
  throw NotInLeanBuild("integrator", "this integrator on this system");
}
#define VILAB_FACTORY_Lean(factory) &factory
#define VILAB_FACTORY_Full(factory) &inFullModule
bool inThisBuild(const Pairing& pairing) { return pairing.lean; }
extern const bool kMechanismsInThisBuild = false;  // read by simulation.cpp
extern const bool kFieldsInThisBuild = false;
extern const bool kDataDefinedInThisBuild = false;
#else
#define VILAB_FACTORY_Lean(factory) &factory
#define VILAB_FACTORY_Full(factory) &factory
bool inThisBuild(const Pairing&) { return true; }
extern const bool kMechanismsInThisBuild = true;
extern const bool kFieldsInThisBuild = true;
extern const bool kDataDefinedInThisBuild = true;
#endif

// X(integrator, model): pairs whose step has no load terms though the entry models forcing
// elsewhere. The quaternion midpoint's mechanism step has the discrete Lagrange–d'Alembert
// terms (Marsden–West §3.2), its rigid-body step none.
#define VILAB_UNFORCED_PAIRS(X) X(quaternion, RigidBody)

bool modelsForcing(const IntegratorEntry& integrator, ModelKind model) {
#define VILAB_UNFORCED(name, kind) \
  if (&integrator == &name##Entry() && model == ModelKind::kind) return false;
  VILAB_UNFORCED_PAIRS(VILAB_UNFORCED)
#undef VILAB_UNFORCED
  return integrator.forces;
}

const std::vector<Pairing>& applicabilityTable() {
#define VILAB_ROW(integrator, model, factory, build) \
  {ModelKind::model, &integrator##Entry, VILAB_FACTORY_##build(factory), Build::build == Build::Lean},
  enum class Build { Lean, Full };
  static const std::vector<Pairing> rows = {VILAB_PAIRS(VILAB_ROW)};
#undef VILAB_ROW
  return rows;
}

}  // namespace vilab
