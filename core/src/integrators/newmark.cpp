// Integrator `newmark`: the Newmark family with options γ and β
// (vilab/integrators/newmark.hpp).
#include "vilab/integrators/newmark.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_newmarkIntegrator() {
  IntegratorEntry e;
  e.id = "newmark";
  e.title = "Newmark (γ, β)";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  // The claims hold at the default γ = ½, β = 0 (the property tests use the defaults).
  e.symplectic = true;
  e.symmetric = true;
  e.conserves = {{ClaimKind::Symplectic, "symplectic form (γ = ½)"},
                 {ClaimKind::Momentum, "momentum map (γ = ½, β = 0)"},
                 {ClaimKind::EnergyBounded, "energy (bounded, no drift; γ = ½)"}};
  e.summary = "Structural dynamics' workhorse: γ = ½, β = 0 is variational (Verlet, explicit); γ > ½ damps.";
  e.docs =
      "Newmark's scheme advances positions with the weight β and velocities with the weight γ on the new "
      "acceleration, which solves M a = f(q, q̇) at the new state. With γ = ½ and β = 0 it is the discrete "
      "Euler–Lagrange map of L_d = ½h v̄ᵀMv̄ − (h/2)[V(q_k) + V(q_{k+1})], i.e. Störmer–Verlet: explicit, symplectic "
      "in the canonical form, momentum-conserving, with bounded energy. Every γ = ½ is still variational and "
      "symplectic, but for a non-canonical symplectic form (Kane, Marsden, Ortiz & West); β = ¼ (average "
      "acceleration) is implicit and unconditionally stable. Any γ ≠ ½ is only first order and not symplectic: "
      "γ > ½ adds numerical dissipation, the energy decays. Applies to systems with a constant mass matrix and no "
      "constraints (with constraints use RATTLE).";
  e.equations =
      "q_{k+1} = q_k + h\\dot q_k + \\tfrac{h^2}{2}\\left[(1-2\\beta)a_k + 2\\beta a_{k+1}\\right]\\\\"
      "\\dot q_{k+1} = \\dot q_k + h\\left[(1-\\gamma)a_k + \\gamma a_{k+1}\\right],\\quad "
      "M a_{k+1} = f(q_{k+1}, \\dot q_{k+1})\\\\"
      "(\\gamma,\\beta) = (\\tfrac12, 0):\\ L_d = \\tfrac h2\\left(\\tfrac{q_{k+1}-q_k}{h}\\right)^{\\mathsf T}M"
      "\\left(\\tfrac{q_{k+1}-q_k}{h}\\right) - \\tfrac h2\\left[V(q_k)+V(q_{k+1})\\right]";
  e.citation = "N. M. Newmark (1959); Marsden & West §1.1 and §2.7 (variational Newmark, Fig. 1); Kane, Marsden, "
               "Ortiz & West (2000)";
  e.options = {ParamSpec::number("gamma", "γ", "", "velocity weight: ½ is second order and symplectic, > ½ damps",
                                 0.5, 0, 1, false),
               ParamSpec::number("beta", "β", "", "position weight: 0 is explicit (Verlet), ¼ average acceleration",
                                 0, 0, 0.5, false)};
  return e;
}

const IntegratorEntry& newmarkEntry() {
  static const IntegratorEntry e = make_newmarkIntegrator();
  return e;
}

std::unique_ptr<Integrator> newmarkOnOscillator(const Model& m, const Options& o, double h) {
  return std::make_unique<NewmarkIntegrator<OscillatorForces>>(OscillatorForces{std::get<OscillatorModel>(m)},
                                                               o.get("gamma"), o.get("beta"), h);
}
std::unique_ptr<Integrator> newmarkOnLagrangian(const Model& m, const Options& o, double h) {
  const auto& problem = std::get<LagrangianModel>(m).problem;
  if (problem->c > 0)
    throw InputError(InputErrorCode::NotApplicable, "integrator", "newmark has no constraints: this system has " + std::to_string(problem->c) +
                                       " (use rattle, its constrained relative)");
  if (problem->usesTime())
    throw InputError(InputErrorCode::NotApplicable, "integrator", "newmark integrates an autonomous M q̈ = f(q, q̇): this system depends on t (use "
                                   "midpoint or trapezoid)");
  if (!problem->constantMass)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "newmark needs a constant mass matrix (∂²L/∂q̇² constant): this L's depends on q (use midpoint)");
  return std::make_unique<NewmarkIntegrator<LagrangianForces>>(LagrangianForces(problem), o.get("gamma"),
                                                               o.get("beta"), h);
}

}  // namespace vilab
