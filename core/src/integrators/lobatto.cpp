// Integrator `lobatto`: the 3-stage Lobatto IIIA–IIIB pair with SPARK/RATTLE multipliers.
#include "common.hpp"
#include "vilab/integrators/lobatto.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_lobattoIntegrator() {
  IntegratorEntry e;
  e.id = "lobatto";
  e.title = "Lobatto IIIA–IIIB (order 4)";
  e.family = IntegratorFamily::Variational;
  e.order = 4;
  e.symplectic = true;
  e.symmetric = true;
  e.conserves = {{ClaimKind::Symplectic, "symplectic form"},
                 {ClaimKind::Momentum, "momentum map"},
                 {ClaimKind::Constraints, "constraints g(q) = 0"},
                 {ClaimKind::Constraints, "hidden constraints Dg(q)M⁻¹p = 0"},
                 {ClaimKind::EnergyBounded, "energy (bounded, no drift)"}};
  e.summary = "Galerkin discrete Lagrangian of quadratic paths with Simpson's rule: the Lobatto IIIA–IIIB pair, "
              "constraints at every node and a RATTLE projection of the momentum.";
  e.docs =
      "The discrete Lagrangian is the action of the quadratic polynomial through q_k, q_{k+1/2}, q_{k+1}, "
      "integrated with the 3-point Lobatto (Simpson) rule and extremized over the inner point. Simpson's rule is "
      "exact for cubics, so L_d approximates the exact discrete Lagrangian to O(h⁵) and the discrete "
      "Euler–Lagrange map is of order 4 (Marsden & West, Thm 2.3.1 and §2.6); for L = ½q̇ᵀMq̇ − V it is the "
      "Lobatto IIIA–IIIB partitioned Runge–Kutta pair. Being the flow of a discrete Lagrangian it is symplectic, "
      "it keeps the momentum maps of the symmetries of L (J_z for the chains, by the discrete Noether theorem), "
      "and the symmetric quadrature makes it time-reversible; energy oscillates within O(h⁴) without drift. "
      "Constraints g(q) = 0 are imposed at the inner node and at q_{k+1}, each with its own multiplier (as in "
      "Jay's SPARK methods), so they hold to rounding; a last multiplier projects p_{k+1} onto the hidden "
      "constraint Dg(q_{k+1})M⁻¹p_{k+1} = 0, as in RATTLE, which keeps order 4 in both q and p. On chains the "
      "Newton matrix is block tridiagonal (8 unknowns per link), so a step costs O(N); systems defined by data "
      "use the Galerkin form with L's compiled gradient and Hessian (any regular L).";
  e.equations =
      "L_d(q_k,q_{k+1}) = \\operatorname{ext}_{q_{k+1/2}}\\, h\\left[\\tfrac16 L(Q_0,\\dot Q_0) + \\tfrac23 "
      "L(Q_1,\\dot Q_1) + \\tfrac16 L(Q_2,\\dot Q_2)\\right]\\\\"
      "\\dot Q_0 = \\tfrac{-3q_k + 4q_{k+1/2} - q_{k+1}}{h},\\ \\dot Q_1 = \\tfrac{q_{k+1}-q_k}{h},\\ "
      "\\dot Q_2 = \\tfrac{q_k - 4q_{k+1/2} + 3q_{k+1}}{h}\\\\"
      "p_k + \\tfrac{\\partial L_d}{\\partial Q_0} + Dg(q_k)^{\\mathsf T}\\lambda_k = 0,\\quad "
      "\\tfrac{\\partial L_d}{\\partial Q_1} + Dg(q_{k+1/2})^{\\mathsf T}\\lambda_{k+1/2} = 0\\\\"
      "g(q_{k+1/2}) = 0,\\quad g(q_{k+1}) = 0\\\\"
      "p_{k+1} = \\tfrac{\\partial L_d}{\\partial Q_2} + Dg(q_{k+1})^{\\mathsf T}\\mu_k,\\quad "
      "Dg(q_{k+1})M^{-1}p_{k+1} = 0";
  e.citation = "Marsden & West §2.6 (Galerkin and Lobatto variational integrators); L. O. Jay, Symplectic "
               "partitioned Runge–Kutta methods for constrained Hamiltonian systems, SIAM J. Numer. Anal. 33 (1996)";
  return e;
}

const IntegratorEntry& lobattoEntry() {
  static const IntegratorEntry e = make_lobattoIntegrator();
  return e;
}

std::unique_ptr<Integrator> lobattoOnOscillator(const Model& m, const Options&, double h) {
  return std::make_unique<CanonicalIntegrator<LobattoOscillator>>(
      LobattoOscillator(std::get<OscillatorModel>(m), h));
}
std::unique_ptr<Integrator> lobattoOnChain(const Model& m, const Options&, double h) {
  return std::make_unique<CanonicalIntegrator<LobattoChain>>(LobattoChain(std::get<ChainModel>(m), h));
}
std::unique_ptr<Integrator> lobattoOnLagrangian(const Model& m, const Options&, double h) {
  return std::make_unique<CanonicalIntegrator<LobattoLagrangian>>(
      LobattoLagrangian(std::get<LagrangianModel>(m).problem, h));
}

}  // namespace vilab
