// Integrator `newmark`: the Newmark family with options γ and β
// (vilab/integrators/newmark.hpp).
#include "vilab/integrators/newmark.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_newmarkIntegrator() {
  IntegratorEntry e;
  e.id = "newmark";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  // The claims hold at the default γ = ½, β = 0 (the property tests use the defaults).
  e.symplectic = true;
  e.symmetric = true;
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::EnergyBounded});
  e.options = {ParamSpec::number("gamma", "", 0.5, 0, 1, false), ParamSpec::number("beta", "", 0, 0, 0.5, false)};
  return e;
}

const IntegratorEntry& newmarkEntry() {
  static const IntegratorEntry e = withProse(make_newmarkIntegrator());
  return e;
}

std::unique_ptr<Integrator> newmarkOnOscillator(const Model& m, const Options& o, double h) {
  return std::make_unique<NewmarkIntegrator<OscillatorForces>>(OscillatorForces{std::get<OscillatorModel>(m)},
                                                               o.get("gamma"), o.get("beta"), h);
}
std::unique_ptr<Integrator> newmarkOnLagrangian(const Model& m, const Options& o, double h) {
  const auto& problem = std::get<LagrangianModel>(m).problem;
  if (problem->c > 0)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "newmark has no constraints: this system has " + std::to_string(problem->c) +
                         " (use rattle, its constrained relative)");
  if (problem->usesTime())
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "newmark integrates an autonomous M q̈ = f(q, q̇): this system depends on t (use "
                     "midpoint or trapezoid)");
  if (!problem->constantMass)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "newmark needs a constant mass matrix (∂²L/∂q̇² constant): this L's depends on q (use midpoint)");
  // Newmark integrates M q̈ = f(q, q̇) as if f were a force −∇V(q); velocity-linear terms
  // (L_q̇q ≠ 0: magnetic, Coriolis) make f depend on q̇, and the map is then not
  // symplectic (its one-step defect is O(h³): tests/native/test_properties.cpp).
  if (problem->gyroscopic)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "newmark is symplectic only for forces of q alone, and this L has velocity-linear "
                     "(gyroscopic) terms, ∂²L/∂q∂q' ≠ 0 (use midpoint or trapezoid)");
  return std::make_unique<NewmarkIntegrator<LagrangianForces>>(LagrangianForces(problem), o.get("gamma"), o.get("beta"),
                                                               h);
}

}  // namespace vilab
