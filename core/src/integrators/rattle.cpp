// Integrator `rattle`: Andersen's RATTLE, the constrained Störmer–Verlet method.
#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_rattleIntegrator() {
  IntegratorEntry e;
  e.id = "rattle";
  e.title = "RATTLE (constrained Verlet)";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = {{ClaimKind::Symplectic, "symplectic form"},
                 {ClaimKind::Momentum, "momentum map"},
                 {ClaimKind::Constraints, "constraints g(q) = 0"},
                 {ClaimKind::Constraints, "hidden constraints Dg(q)M⁻¹p = 0"},
                 {ClaimKind::EnergyBounded, "energy (bounded, no drift)"}};
  e.summary = "Half kick with a position multiplier, drift onto g = 0, half kick with a velocity multiplier onto "
              "Dg M⁻¹p = 0.";
  e.docs =
      "RATTLE imposes both the constraints g(q) = 0 and their time derivatives, the hidden constraints "
      "Dg(q)M⁻¹p = 0, at every step: a half kick with the multiplier λ that puts q_{k+1} on the manifold, then a "
      "half kick with the multiplier μ that makes p_{k+1} tangent. It is the discrete Euler–Lagrange map of the "
      "trapezoidal discrete Lagrangian with multipliers (SHAKE) followed by the projection of the momentum onto "
      "the cotangent bundle of the constraint manifold, so it is symplectic there, symmetric, second order, and "
      "keeps every momentum map whose symmetry preserves the constraints. For a constant mass matrix it is the "
      "same map as `trapezoid` (which vilab also stores with tangent momenta): the two are identical bit for bit. "
      "It needs a constant mass matrix: with M(q) the trapezoid rule and the generalized Störmer–Verlet method differ.";
  e.equations =
      "p_{k+1/2} = p_k - \\tfrac h2\\left[\\nabla V(q_k) + Dg(q_k)^{\\mathsf T}\\lambda_k\\right]\\\\"
      "q_{k+1} = q_k + hM^{-1}p_{k+1/2},\\quad g(q_{k+1}) = 0\\\\"
      "p_{k+1} = p_{k+1/2} - \\tfrac h2\\left[\\nabla V(q_{k+1}) + Dg(q_{k+1})^{\\mathsf T}\\mu_k\\right],\\quad "
      "Dg(q_{k+1})M^{-1}p_{k+1} = 0";
  e.citation = "H. C. Andersen, Rattle (1983); Marsden & West §3.5 (constrained variational integrators); "
               "Wendlandt & Marsden eq. 4.20 (SHAKE)";
  return e;
}

const IntegratorEntry& rattleEntry() {
  static const IntegratorEntry e = make_rattleIntegrator();
  return e;
}

// The chains' trapezoid path is RATTLE already: multipliers on λ (O(N)), the impulse
// p_k + Dg(q_k)ᵀλ − h∇V, then the projection onto tangent momenta (the μ half kick).
std::unique_ptr<Integrator> rattleOnOscillator(const Model& m, const Options&, double h) {
  return discreteRuleOnOscillator(m, DiscreteRule::trapezoid(), h);
}
std::unique_ptr<Integrator> rattleOnChain(const Model& m, const Options&, double h) {
  return discreteRuleOnChain(m, DiscreteRule::trapezoid(), h);
}
std::unique_ptr<Integrator> rattleOnLagrangian(const Model& m, const Options&, double h) {
  const auto& problem = *std::get<LagrangianModel>(m).problem;
  if (!problem.constantMass)
    throw InputError(InputErrorCode::NotApplicable, "integrator", "rattle needs a constant mass matrix (∂²L/∂q̇² constant): this L's depends on q; "
                                   "use trapezoid or midpoint");
  return discreteRuleOnLagrangian(m, DiscreteRule::trapezoid(), h);
}

}  // namespace vilab
