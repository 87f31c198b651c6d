// Integrator `lie-group`: Lee–Leok–McClamroch's Lie-group variational integrator on
// SO(3) (Moser–Veselov for the free body). The method is in
// vilab/integrators/lie_group.hpp; this file is its registry entry.
#include "vilab/integrators/lie_group.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_lieGroupIntegrator() {
  IntegratorEntry e;
  e.id = "lie-group";
  e.title = "Lie-group variational (SO(3), Moser–Veselov)";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = {{ClaimKind::Symplectic, "symplectic form"},
                 {ClaimKind::Momentum, "spatial angular momentum (free body) / its vertical component (heavy top)"},
                 {ClaimKind::Casimir, "|Π| (free body)"},
                 {ClaimKind::Constraints, "orthonormality of R (by construction)"},
                 {ClaimKind::Momentum, "Π₃ (symmetric top)"},
                 {ClaimKind::EnergyBounded, "energy (free body: to rounding; heavy top: bounded, no drift)"}};
  e.summary = "Works with the rotation itself: each step multiplies the orientation by a small rotation, found "
              "by solving one implicit equation, so the body never stops being a true rotation.";
  e.docs =
      "The configuration is the rotation matrix R itself and a step multiplies it by a relative rotation F_k, "
      "R_{k+1} = R_k F_k. F_k solves the discrete Euler–Poincaré equation h(Π_k + (h/2)M_k)^ = F_k J_d − J_d F_kᵀ, "
      "with J_d = ½ tr(J) I − J, found by Newton in Cayley coordinates F = (I + f̂)(I − f̂)⁻¹, which is orthogonal "
      "for every f: R stays a rotation by construction, never re-orthonormalized, so ‖RᵀR − I‖ only collects "
      "rounding. The update comes from a discrete Hamilton principle on the group, so it is symplectic; the "
      "discrete Lagrangian is invariant under rotations of space (about the vertical for the heavy top), so the "
      "discrete Noether theorem conserves RΠ (its vertical component) exactly, and for the free body "
      "Π_{k+1} = F_kᵀΠ_k keeps |Π| exactly. For the free body it is the Moser–Veselov integrable discretization, "
      "which also keeps the energy to rounding; for the heavy top the energy oscillates within O(h²) without drift. "
      "Forcing (the discrete Lagrange–d'Alembert principle): an external torque τ (space frame) and a damping torque "
      "−c ω join the moments at both ends of the step, M_k ∋ R_kᵀτ − c ω̄ and M_{k+1} ∋ R_{k+1}ᵀτ − c ω̄, with "
      "ω̄ = 2f/h the step's mean body angular velocity; this symmetric split keeps the order 2, and RΠ changes by "
      "exactly h τ − 2c R_k f per step (the discrete Noether theorem with forcing).";
  e.equations =
      "J_d = \\tfrac12\\mathrm{tr}(J)\\,I_3 - J,\\quad M(R) = m g\\,(R^{\\mathsf T}e_3)\\times\\rho\\\\"
      "h\\left(\\Pi_k + \\tfrac h2 M_k\\right)^{\\wedge} = F_kJ_d - J_dF_k^{\\mathsf T},\\quad "
      "F_k = (I+\\hat f)(I-\\hat f)^{-1}\\\\"
      "g + g\\times f + (g^{\\mathsf T}f)f - 2Jf = 0,\\quad g = h\\Pi_k + \\tfrac{h^2}{2}M_k\\\\"
      "R_{k+1} = R_kF_k,\\quad \\Pi_{k+1} = F_k^{\\mathsf T}\\left(\\Pi_k + \\tfrac h2 M_k\\right) + \\tfrac h2 M_{k+1}";
  e.citation = "T. Lee, M. Leok & N. H. McClamroch, A Lie group variational integrator for the attitude dynamics of a "
               "rigid body with applications to the 3D pendulum (2005); J. Moser & A. P. Veselov (1991)";
  return e;
}

const IntegratorEntry& lieGroupEntry() {
  static const IntegratorEntry e = make_lieGroupIntegrator();
  return e;
}

std::unique_ptr<Integrator> lieGroupOnRigidBody(const Model& model, const Options&, double h) {
  return std::make_unique<RotationIntegrator<LieGroupStepper>>(LieGroupStepper(std::get<RigidBodyModel>(model), h));
}

}  // namespace vilab
