// Integrator `dopri5`: adaptive Dormand–Prince 5(4) on the equations of motion, with
// substeps inside the fixed step h, projected onto the model's manifold after every
// accepted substep. The method is in vilab/integrators/runge_kutta.hpp, the equations
// and projections in vilab/integrators/odes.hpp; this file is its registry entry.
#include "common.hpp"
#include "vilab/integrators/field_steppers.hpp"
#include "vilab/integrators/mechanism_baselines.hpp"
#include "vilab/integrators/runge_kutta.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_dopri5Integrator() {
  IntegratorEntry e;
  e.id = "dopri5";
  e.family = IntegratorFamily::Baseline;
  e.order = 5;
  e.symplectic = false;
  e.symmetric = false;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = claims({ClaimKind::Constraints, ClaimKind::Constraints});
  e.options = {ParamSpec::number("tol", "", 1e-6, 1e-12, 1e-2, false)};
  return e;
}

const IntegratorEntry& dopri5Entry() {
  static const IntegratorEntry e = withProse(make_dopri5Integrator());
  return e;
}

std::unique_ptr<Integrator> dopri5OnOscillator(const Model& m, const Options& o, double h) {
  return std::make_unique<DormandPrince<OscillatorOde>>(OscillatorOde(std::get<OscillatorModel>(m)), h, o.get("tol"));
}
std::unique_ptr<Integrator> dopri5OnChain(const Model& m, const Options& o, double h) {
  return std::make_unique<DormandPrince<ChainIndex1Ode>>(ChainIndex1Ode(std::get<ChainModel>(m)), h, o.get("tol"));
}
std::unique_ptr<Integrator> dopri5OnLagrangian(const Model& m, const Options& o, double h) {
  return std::make_unique<DormandPrince<LagrangianOde>>(LagrangianOde(std::get<LagrangianModel>(m)), h, o.get("tol"));
}
std::unique_ptr<Integrator> dopri5OnRigidBody(const Model& m, const Options& o, double h) {
  return std::make_unique<DormandPrince<RigidBodyOde>>(RigidBodyOde(std::get<RigidBodyModel>(m)), h, o.get("tol"));
}

std::unique_ptr<Integrator> dopri5OnMechanism(const Model& m, const Options& o, double h) {
  return std::make_unique<DormandPrince<MechanismCanonicalOde>>(MechanismCanonicalOde(std::get<MechanismModel>(m)), h,
                                                                o.get("tol"));
}

std::unique_ptr<Integrator> dopri5OnField(const Model& m, const Options& o, double h) {
  const FieldModel& field = std::get<FieldModel>(m);
  if (field.isTyped()) return std::make_unique<FieldMultiDopri5>(field, h, "dopri5", h, o.get("tol"));
  return std::make_unique<FieldDopri5>(field, h, o.get("tol"));
}

}  // namespace vilab
