// Integrator `symplectic-euler`: the two first-order ends of the α-family, α = 0 and
// α = 1, which are each other's adjoints and Lu's type-3 and type-2 generating functions.
#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_symplecticEulerIntegrator() {
  IntegratorEntry e;
  e.id = "symplectic-euler";
  e.title = "Symplectic Euler (both adjoints)";
  e.family = IntegratorFamily::Variational;
  e.order = 1;
  e.symplectic = true;
  e.symmetric = false;  // the two variants are each other's adjoints
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = {{ClaimKind::Symplectic, "symplectic form"},
                 {ClaimKind::Momentum, "momentum map"},
                 {ClaimKind::Constraints, "constraints"},
                 {ClaimKind::EnergyBounded, "energy (bounded, no drift)"}};
  e.summary = "Kick then drift (variant A) or drift then kick (variant B): first order, symplectic, explicit when "
              "L = ½q̇ᵀMq̇ − V(q).";
  e.docs =
      "Sampling the Lagrangian at one end of the step, L_d = h L(q_k, v̄) (variant A) or h L(q_{k+1}, v̄) (variant B), "
      "gives the α-family at α = 0 and α = 1. For L = ½q̇ᵀMq̇ − V(q) variant A is p_{k+1} = p_k − h∇V(q_k), "
      "q_{k+1} = q_k + hM⁻¹p_{k+1} (kick, drift) and variant B is q_{k+1} = q_k + hM⁻¹p_k, "
      "p_{k+1} = p_k − h∇V(q_{k+1}) (drift, kick). They are also Lu's generating functions of type 3, "
      "S(q_k, p_{k+1}), and type 2, S(q_{k+1}, p_k) = p_k·q_{k+1} − hH(q_{k+1}, p_k). Each is symplectic and keeps "
      "the momentum map, but only first order; they are each other's adjoints, so half a step of one followed by "
      "half a step of the other is symmetric and of order 2: the Störmer–Verlet (trapezoid) method.";
  e.equations =
      "\\text{A: } L_d = h\\,L\\!\\left(q_k,\\tfrac{q_{k+1}-q_k}{h}\\right):\\quad p_{k+1} = p_k - h\\nabla V(q_k),\\ "
      "q_{k+1} = q_k + hM^{-1}p_{k+1}\\\\"
      "\\text{B: } L_d = h\\,L\\!\\left(q_{k+1},\\tfrac{q_{k+1}-q_k}{h}\\right):\\quad q_{k+1} = q_k + hM^{-1}p_k,\\ "
      "p_{k+1} = p_k - h\\nabla V(q_{k+1})\\\\"
      "\\Phi^{B}_{h/2}\\circ\\Phi^{A}_{h/2} = \\text{Störmer–Verlet}";
  e.citation = "Marsden & West §2.5 (adjoints, symplectic Euler); J. Lu, Conserving integrators by generating "
               "function, eqs. 11–12; Wendlandt & Marsden eqs. 4.4–4.5 (constraints)";
  e.options = {ParamSpec::whole("variant", "variant", "0: A, kick then drift (α = 0); 1: B, drift then kick (α = 1)",
                                0, 0, 1)};
  return e;
}

const IntegratorEntry& symplecticEulerEntry() {
  static const IntegratorEntry e = make_symplecticEulerIntegrator();
  return e;
}

// Variant A is α = 0, variant B is α = 1.
static DiscreteRule endpointRule(const Options& o) { return DiscreteRule::alphaFamily(o.get("variant")); }

std::unique_ptr<Integrator> symplecticEulerOnOscillator(const Model& m, const Options& o, double h) {
  return discreteRuleOnOscillator(m, endpointRule(o), h);
}
std::unique_ptr<Integrator> symplecticEulerOnChain(const Model& m, const Options& o, double h) {
  return discreteRuleOnChain(m, endpointRule(o), h);
}
std::unique_ptr<Integrator> symplecticEulerOnLagrangian(const Model& m, const Options& o, double h) {
  return discreteRuleOnLagrangian(m, endpointRule(o), h);
}

}  // namespace vilab
