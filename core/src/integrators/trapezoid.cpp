#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_trapezoidIntegrator() {
  IntegratorEntry e;
  e.id = "trapezoid";
  e.title = "Trapezoid (SHAKE / Verlet)";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = {{ClaimKind::Symplectic, "symplectic form"},
                 {ClaimKind::Momentum, "momentum map"},
                 {ClaimKind::Constraints, "constraints"},
                 {ClaimKind::EnergyBounded, "energy (bounded, no drift)"}};
  e.summary = "Trapezoidal discrete Lagrangian: Störmer–Verlet when unconstrained, SHAKE/RATTLE with multipliers.";
  e.docs =
      "Approximating the action by the trapezoidal rule, L_d = (h/2)[L(q_k, v) + L(q_{k+1}, v)], gives for a constant "
      "mass matrix the Störmer–Verlet method, and with constraints SHAKE (RATTLE once the momentum is projected onto "
      "the constraint manifold, as vilab does). It is variational, hence symplectic and momentum-conserving. Under "
      "uniform gravity the potential is linear, so on the pendulums it coincides with the midpoint rule; on the "
      "oscillator it differs.";
  e.equations =
      "L_d(q_k,q_{k+1}) = \\tfrac{h}{2}\\left[L\\!\\left(q_k,\\tfrac{q_{k+1}-q_k}{h}\\right) + "
      "L\\!\\left(q_{k+1},\\tfrac{q_{k+1}-q_k}{h}\\right)\\right]\\\\"
      "M\\frac{q_{k+1}-2q_k+q_{k-1}}{h^2} + \\nabla V(q_k) + Dg(q_k)^{\\mathsf T}\\lambda_k = 0";
  e.citation = "Wendlandt & Marsden, eq. 4.20 (SHAKE); Marsden & West §1.1 (Verlet)";
  return e;
}

const IntegratorEntry& trapezoidEntry() {
  static const IntegratorEntry e = make_trapezoidIntegrator();
  return e;
}
std::unique_ptr<Integrator> trapezoidOnOscillator(const Model& m, const Options&, double h) {
  return discreteRuleOnOscillator(m, DiscreteRule::trapezoid(), h);
}
std::unique_ptr<Integrator> trapezoidOnChain(const Model& m, const Options&, double h) {
  return discreteRuleOnChain(m, DiscreteRule::trapezoid(), h);
}
std::unique_ptr<Integrator> trapezoidOnLagrangian(const Model& m, const Options&, double h) {
  return discreteRuleOnLagrangian(m, DiscreteRule::trapezoid(), h);
}

}  // namespace vilab
