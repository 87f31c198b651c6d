// Integrators `composition4` and `composition6`: Yoshida's compositions of the symmetric
// second-order variational step of each model (vilab/integrators/composition.hpp).
#include "vilab/integrators/composition.hpp"

#include "common.hpp"

namespace vilab {

// The symmetric base step of each model.
std::unique_ptr<Integrator> midpointOnOscillator(const Model&, const Options&, double);
std::unique_ptr<Integrator> midpointOnChain(const Model&, const Options&, double);
std::unique_ptr<Integrator> midpointOnLagrangian(const Model&, const Options&, double);
std::unique_ptr<Integrator> lieGroupOnRigidBody(const Model&, const Options&, double);
std::unique_ptr<Integrator> lieGroupOnMechanism(const Model&, const Options&, double);
std::unique_ptr<Integrator> midpointOnField(const Model&, const Options&, double);

namespace {
VILAB_COLD IntegratorEntry compositionEntry(int order) {
  IntegratorEntry e;
  e.id = "composition" + std::to_string(order);
  e.family = IntegratorFamily::Variational;
  e.order = order;
  e.symplectic = true;
  e.symmetric = true;
  e.forces = true;  // the forced midpoint and Lie-group steps (symmetric split) compose alike
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::EnergyBounded});
  return e;
}

IntegratorFactory baseOf(const Model& model) {
  switch (kindOf(model)) {
    case ModelKind::Oscillator: return &midpointOnOscillator;
    case ModelKind::Chain: return &midpointOnChain;
    case ModelKind::Lagrangian: return &midpointOnLagrangian;
    case ModelKind::RigidBody: return &lieGroupOnRigidBody;
    case ModelKind::Mechanism: return &lieGroupOnMechanism;
    case ModelKind::Field: return &midpointOnField;  // not in the table: the box scheme would be the base
  }
  return &midpointOnOscillator;
}

std::unique_ptr<Integrator> composed(const Model& model, const CompositionScheme& scheme, double h) {
  return std::make_unique<CompositionIntegrator>(model, baseOf(model), scheme, h);
}
}  // namespace

const IntegratorEntry& composition4Entry() {
  static const IntegratorEntry e = withProse(compositionEntry(4));
  return e;
}
const IntegratorEntry& composition6Entry() {
  static const IntegratorEntry e = withProse(compositionEntry(6));
  return e;
}
std::unique_ptr<Integrator> composition4OnModel(const Model& m, const Options&, double h) {
  return composed(m, CompositionScheme::tripleJump(), h);
}
std::unique_ptr<Integrator> composition6OnModel(const Model& m, const Options&, double h) {
  return composed(m, CompositionScheme::yoshida6(), h);
}

}  // namespace vilab
