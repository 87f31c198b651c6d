// Integrators `composition4` and `composition6`: Yoshida's compositions of the symmetric
// second-order variational step of each model (vilab/integrators/composition.hpp).
#include "vilab/integrators/composition.hpp"

#include "common.hpp"

namespace vilab {

// The symmetric base step of each model.
std::unique_ptr<Integrator> midpointOnOscillator(const Model&, const Options&, double);
std::unique_ptr<Integrator> midpointOnChain(const Model&, const Options&, double);
std::unique_ptr<Integrator> midpointOnLagrangian(const Model&, const Options&, double);
std::unique_ptr<Integrator> lieGroupOnRigidBody(const Model&, const Options&, double);

namespace {
VILAB_COLD IntegratorEntry compositionEntry(int order) {
  IntegratorEntry e;
  e.id = "composition" + std::to_string(order);
  e.family = IntegratorFamily::Variational;
  e.order = order;
  e.symplectic = true;
  e.symmetric = true;
  e.forces = true;  // the forced midpoint and Lie-group steps (symmetric split) compose alike
  e.conserves = {{ClaimKind::Symplectic, "symplectic form"},
                 {ClaimKind::Momentum, "momentum map"},
                 {ClaimKind::Constraints, "constraints"},
                 {ClaimKind::EnergyBounded, "energy (bounded, no drift)"}};
  e.citation = "H. Yoshida, Construction of higher order symplectic integrators, Phys. Lett. A 150 (1990); "
               "Marsden & West §2.5; Hairer, Lubich & Wanner §II.4";
  const std::string base =
      "The base step is each model's symmetric second-order variational step: the midpoint DEL (RATTLE on "
      "the constraint manifold for the pendulums and chains, whose uniform gravity makes the midpoint and "
      "trapezoid rules coincide) and the Lie-group step for rigid bodies. A composition of symplectic maps is "
      "symplectic, and a palindromic composition of symmetric maps is symmetric, so the odd terms of the "
      "error cancel and every substep's invariants (constraints, momentum map) are kept exactly. The energy "
      "error stays bounded, now O(h^" +
      std::to_string(order) + "): halving h shrinks its band " + (order == 4 ? "16" : "64") + "-fold.";
  if (order == 4) {
    e.title = "Composition, order 4 (triple jump)";
    e.summary = "Three substeps γ₁h, γ₂h, γ₁h of the midpoint/RATTLE step, the middle one backwards: order 4.";
    e.docs = "Yoshida's triple jump: γ₁ = 1/(2 − 2^{1/3}) ≈ 1.3512 and γ₂ = 1 − 2γ₁ ≈ −1.7024 solve Σγ = 1 and "
             "Σγ³ = 0, which removes the h³ error term of the symmetric base step. " + base +
             " Each step costs three base steps, one of them of size 1.7h backwards.";
    e.equations =
        "\\Psi_h = \\Phi_{\\gamma_1 h}\\circ\\Phi_{\\gamma_2 h}\\circ\\Phi_{\\gamma_1 h},\\quad "
        "\\gamma_1 = \\frac{1}{2-2^{1/3}},\\ \\gamma_2 = -\\frac{2^{1/3}}{2-2^{1/3}}\\\\"
        "2\\gamma_1+\\gamma_2 = 1,\\quad 2\\gamma_1^3+\\gamma_2^3 = 0";
  } else {
    e.title = "Composition, order 6 (Yoshida)";
    e.summary = "Seven palindromic substeps of the midpoint/RATTLE step (Yoshida's solution A): order 6.";
    e.docs = "Yoshida's solution A: w₁ ≈ −1.1777, w₂ ≈ 0.2356, w₃ ≈ 0.7845 and w₀ = 1 − 2(w₁+w₂+w₃) ≈ 1.3152, "
             "taken as w₃ w₂ w₁ w₀ w₁ w₂ w₃, solve the order conditions up to h⁶. " + base +
             " Each step costs seven base steps; at tight accuracy it beats the order-4 composition.";
    e.equations =
        "\\Psi_h = \\Phi_{w_3h}\\circ\\Phi_{w_2h}\\circ\\Phi_{w_1h}\\circ\\Phi_{w_0h}\\circ\\Phi_{w_1h}\\circ"
        "\\Phi_{w_2h}\\circ\\Phi_{w_3h}\\\\ w_0 = 1-2(w_1+w_2+w_3)";
  }
  return e;
}

IntegratorFactory baseOf(const Model& model) {
  switch (kindOf(model)) {
    case ModelKind::Oscillator: return &midpointOnOscillator;
    case ModelKind::Chain: return &midpointOnChain;
    case ModelKind::Lagrangian: return &midpointOnLagrangian;
    case ModelKind::RigidBody: return &lieGroupOnRigidBody;
  }
  return &midpointOnOscillator;
}

std::unique_ptr<Integrator> composed(const Model& model, const CompositionScheme& scheme, double h) {
  return std::make_unique<CompositionIntegrator>(model, baseOf(model), scheme, h);
}
}  // namespace

const IntegratorEntry& composition4Entry() {
  static const IntegratorEntry e = compositionEntry(4);
  return e;
}
const IntegratorEntry& composition6Entry() {
  static const IntegratorEntry e = compositionEntry(6);
  return e;
}
std::unique_ptr<Integrator> composition4OnModel(const Model& m, const Options&, double h) {
  return composed(m, CompositionScheme::tripleJump(), h);
}
std::unique_ptr<Integrator> composition6OnModel(const Model& m, const Options&, double h) {
  return composed(m, CompositionScheme::yoshida6(), h);
}

}  // namespace vilab
