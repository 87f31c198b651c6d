#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_alphaIntegrator() {
  IntegratorEntry e;
  e.id = "alpha";
  e.title = "α-family (variational)";
  e.family = IntegratorFamily::Variational;
  e.order = 1;
  e.symplectic = true;
  e.symmetric = false;  // its adjoint is the rule with 1 − α
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = {{ClaimKind::Symplectic, "symplectic form"},
                 {ClaimKind::Momentum, "momentum map"},
                 {ClaimKind::Constraints, "constraints"},
                 {ClaimKind::EnergyBounded, "energy (bounded, no drift)"}};
  e.summary = "Lu's family: the Lagrangian is evaluated at the point a fraction α along each step. First order, "
              "except the symmetric choice α = ½ (second order).";
  e.docs =
      "Evaluating the Lagrangian at the point (1−α)q_k + αq_{k+1} still gives a discrete Lagrangian, so the method is "
      "symplectic and conserves the momentum map for every α. It is first order unless α = ½ (the midpoint rule, "
      "order 2): a symmetric quadrature point is what buys the second order, not the variational structure.";
  e.equations =
      "L_d(q_k,q_{k+1}) = h\\,L\\!\\left((1-\\alpha)q_k+\\alpha q_{k+1},\\tfrac{q_{k+1}-q_k}{h}\\right)\\\\"
      "p_k + D_1L_d + Dg(q_k)^{\\mathsf T}\\lambda_k = 0,\\quad g(q_{k+1})=0,\\quad p_{k+1} = D_2L_d";
  e.citation = "J. Lu, Conserving integrators by generating function, eq. 4";
  e.options = {ParamSpec::number("alpha", "α", "", "quadrature point; order 2 only at α = ½", 0.25, 0, 1, false)};
  return e;
}

const IntegratorEntry& alphaEntry() {
  static const IntegratorEntry e = make_alphaIntegrator();
  return e;
}
std::unique_ptr<Integrator> alphaOnOscillator(const Model& m, const Options& o, double h) {
  return discreteRuleOnOscillator(m, DiscreteRule::alphaFamily(o.get("alpha")), h);
}
std::unique_ptr<Integrator> alphaOnChain(const Model& m, const Options& o, double h) {
  return discreteRuleOnChain(m, DiscreteRule::alphaFamily(o.get("alpha")), h);
}
std::unique_ptr<Integrator> alphaOnLagrangian(const Model& m, const Options& o, double h) {
  return discreteRuleOnLagrangian(m, DiscreteRule::alphaFamily(o.get("alpha")), h);
}

}  // namespace vilab
