// Integrator `energy-momentum`: Gonzalez's discrete-gradient scheme. The
// methods are in vilab/integrators/{chain,rigid}_energy_momentum.hpp; this file is the
// registry entry.
#include "vilab/integrators/chain_energy_momentum.hpp"
#include "vilab/integrators/lagrangian_energy_momentum.hpp"
#include "vilab/integrators/rigid_energy_momentum.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_energyMomentumIntegrator() {
  IntegratorEntry e;
  e.id = "energy-momentum";
  e.title = "Energy–momentum (Gonzalez)";
  e.family = IntegratorFamily::EnergyMomentum;
  e.order = 2;
  e.symplectic = false;
  e.symmetric = true;
  e.stateRules.tangentMomentum = false;  // tangent only at midpoints (see docs)
  e.conserves = {{ClaimKind::Energy, "energy (exactly, to rounding)"},
                 {ClaimKind::Momentum, "momentum map"},
                 {ClaimKind::Constraints, "constraints (positions)"},
                 {ClaimKind::Casimir, "|Π| and RᵀR = I (rigid bodies)"}};
  e.summary = "Hamilton's equations discretized with a discrete gradient: energy and momentum are conserved "
              "exactly, but the map is not symplectic.";
  e.docs =
      "Instead of a discrete action, Gonzalez's scheme discretizes Hamilton's equations with a discrete gradient "
      "∇̄H(x, y), which satisfies H(y) − H(x) = ∇̄H·(y − x): the energy is conserved exactly, whatever h. On these "
      "systems the Hamiltonian is quadratic plus linear (uniform gravity) and the constraints are quadratic, so "
      "the discrete gradient is the gradient at the midpoint and the scheme is the implicit midpoint rule, with the "
      "constraint impulse Dg(q̄)ᵀΛ taken at the midpoint q̄ (Gonzalez 1999): g(q_{k+1}) = 0 holds at every step, "
      "and the constraint does no work because Dg(q̄)(q_{k+1} − q_k) = g(q_{k+1}) − g(q_k) = 0. Momentum maps of "
      "symmetries that act linearly (J_z; RΠ, |Π| and e₃·RΠ for rigid bodies) are kept exactly too. The price: the "
      "map is not symplectic, and the velocities meet the hidden constraint Dg(q)M⁻¹p = 0 only at the midpoints, "
      "so p_k has an O(h²) component normal to the manifold (projecting it away would cost the energy). Rigid "
      "bodies use the Lie–Poisson form in Π and Γ = Rᵀe₃, with R_{k+1} = R_k cay(hΩ̄/2), orthogonal by "
      "construction. For the oscillator, whose equations are linear, it coincides with the midpoint rule. On a "
      "system defined by data (L quadratic in the velocities, so that H(q, p) is available) the discrete gradient "
      "carries its correction term along Δz, and the constraints use their own discrete gradients ∇̄g(q_k, "
      "q_{k+1}), so the constraint impulse does no work for any g.";
  e.equations =
      "\\bar\\nabla H(x,y) = \\nabla H(\\bar x) + \\frac{H(y)-H(x)-\\nabla H(\\bar x)\\cdot(y-x)}{|y-x|^2}(y-x)\\\\"
      "q_{k+1}-q_k = hM^{-1}\\bar p,\\quad p_{k+1}-p_k = -h\\nabla V + Dg(\\bar q)^{\\mathsf T}\\Lambda,\\quad "
      "g(q_{k+1}) = 0\\\\"
      "\\Pi_{k+1}-\\Pi_k = h\\,\\bar\\Pi\\times\\bar\\Omega + h\\,mg\\,\\bar\\Gamma\\times\\rho,\\quad "
      "R_{k+1} = R_k\\,\\mathrm{cay}(\\tfrac h2\\bar\\Omega)";
  e.citation = "O. Gonzalez, Time integration and discrete Hamiltonian systems (1996); Mechanical systems subject to "
               "holonomic constraints: differential-algebraic formulations and conservative integration (1999)";
  return e;
}

const IntegratorEntry& energyMomentumEntry() {
  static const IntegratorEntry e = make_energyMomentumIntegrator();
  return e;
}

// The oscillator's equations are linear: the discrete gradient is ∇H(x̄), the midpoint rule.
std::unique_ptr<Integrator> energyMomentumOnOscillator(const Model& m, const Options&, double h) {
  return discreteRuleOnOscillator(m, DiscreteRule::midpoint(), h);
}
std::unique_ptr<Integrator> energyMomentumOnChain(const Model& m, const Options&, double h) {
  return std::make_unique<CanonicalIntegrator<ChainEnergyMomentumIntegrator>>(
      ChainEnergyMomentumIntegrator(std::get<ChainModel>(m), h));
}
std::unique_ptr<Integrator> energyMomentumOnRigidBody(const Model& m, const Options&, double h) {
  return std::make_unique<RotationIntegrator<RigidEnergyMomentumStepper>>(
      RigidEnergyMomentumStepper(std::get<RigidBodyModel>(m), h));
}

// A system defined by data: the general discrete gradient, where H(q, p) exists.
std::unique_ptr<Integrator> energyMomentumOnLagrangian(const Model& model, const Options&, double h) {
  const LagrangianModel& m = std::get<LagrangianModel>(model);
  // A time-dependent L has no conserved H(q, p) for the discrete gradient to keep.
  if (m.problem->timeDependent)
    throw InputError(InputErrorCode::NotApplicable, "integrator", "energy-momentum conserves H(q, p), and this L depends on t (a driven system "
                                   "whose energy is not conserved): use midpoint, trapezoid or rk4");
  if (!m.problem->quadratic)
    throw InputError(InputErrorCode::NotApplicable, "integrator", "energy-momentum needs H(q, p), which this L does not give in closed form: L must "
                                   "be quadratic in the velocities (∂²L/∂q'² independent of q')");
  return std::make_unique<CanonicalIntegrator<LagrangianEnergyMomentum>>(LagrangianEnergyMomentum(m.problem, h));
}

}  // namespace vilab
