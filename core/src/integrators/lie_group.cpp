// Integrator `lie-group`: Lee–Leok–McClamroch's Lie-group variational integrator on
// SO(3) (Moser–Veselov for the free body). The method is in
// vilab/integrators/lie_group.hpp; this file is its registry entry.
#include "vilab/integrators/lie_group.hpp"

#include "common.hpp"
#include "vilab/integrators/mechanism_lgvi.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_lieGroupIntegrator() {
  IntegratorEntry e;
  e.id = "lie-group";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Casimir, ClaimKind::Constraints,
                        ClaimKind::Momentum, ClaimKind::EnergyBounded});
  return e;
}

const IntegratorEntry& lieGroupEntry() {
  static const IntegratorEntry e = withProse(make_lieGroupIntegrator());
  return e;
}

std::unique_ptr<Integrator> lieGroupOnRigidBody(const Model& model, const Options&, double h) {
  return std::make_unique<RotationIntegrator<LieGroupStepper>>(LieGroupStepper(std::get<RigidBodyModel>(model), h));
}

std::unique_ptr<Integrator> lieGroupOnMechanism(const Model& model, const Options&, double h) {
  return std::make_unique<MechanismIntegrator>(std::get<MechanismModel>(model), h);
}

}  // namespace vilab
