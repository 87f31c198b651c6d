// Integrator `lobatto`: the 3-stage Lobatto IIIA–IIIB pair with SPARK/RATTLE multipliers.
#include "vilab/integrators/lobatto.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_lobattoIntegrator() {
  IntegratorEntry e;
  e.id = "lobatto";
  e.family = IntegratorFamily::Variational;
  e.order = 4;
  e.symplectic = true;
  e.symmetric = true;
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::Constraints,
                        ClaimKind::EnergyBounded});
  return e;
}

const IntegratorEntry& lobattoEntry() {
  static const IntegratorEntry e = withProse(make_lobattoIntegrator());
  return e;
}

std::unique_ptr<Integrator> lobattoOnOscillator(const Model& m, const Options&, double h) {
  return std::make_unique<CanonicalIntegrator<LobattoOscillator>>(LobattoOscillator(std::get<OscillatorModel>(m), h));
}
std::unique_ptr<Integrator> lobattoOnChain(const Model& m, const Options&, double h) {
  return std::make_unique<CanonicalIntegrator<LobattoChain>>(LobattoChain(std::get<ChainModel>(m), h));
}
std::unique_ptr<Integrator> lobattoOnLagrangian(const Model& m, const Options&, double h) {
  return std::make_unique<CanonicalIntegrator<LobattoLagrangian>>(
      LobattoLagrangian(std::get<LagrangianModel>(m).problem, h));
}

}  // namespace vilab
