// Integrator `rk4`: classical Runge–Kutta 4 on the equations of motion, projected onto
// the model's manifold after every step. The method is in
// vilab/integrators/runge_kutta.hpp, the equations and projections in
// vilab/integrators/odes.hpp; this file is its registry entry.
#include "vilab/integrators/runge_kutta.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_rk4Integrator() {
  IntegratorEntry e;
  e.id = "rk4";
  e.title = "Runge–Kutta 4 with projection (baseline)";
  e.family = IntegratorFamily::Baseline;
  e.order = 4;
  e.symplectic = false;
  e.symmetric = false;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = {{ClaimKind::Constraints, "constraints (projected after every step)"},
                 {ClaimKind::Constraints, "|q| = 1 (normalized after every step)"}};
  e.summary = "Classical fourth-order Runge–Kutta on the equations of motion, projected back onto the constraint "
              "manifold after every step: the constraints hold, the energy still drifts.";
  e.docs =
      "RK4 is what most simulators use, here set up to do its best. Pendulums and chains integrate the Cartesian "
      "equations of motion in index-1 form (the link constraints differentiated twice, the multipliers from an "
      "O(N) tridiagonal solve at every stage); after every step the positions are projected back onto the links "
      "in the mass metric, x ← x̃ + M⁻¹Dg(x̃)ᵀμ with g(x) = 0 solved by Newton to rounding, and the momenta onto "
      "the tangent space, p ← p − Dgᵀν with Dg M⁻¹p = 0. Rigid bodies integrate Euler's equations with the "
      "quaternion kinematics q̇ = ½ q ⊗ (0, ω) and normalize q after every step. The projection keeps the order "
      "and holds the constraints to rounding, so nothing drifts off the manifold; but it acts on the constraints "
      "only. The map is neither symplectic nor symmetric, so the O(h⁴) energy error of each step accumulates "
      "into a secular drift instead of oscillating, and so do the errors in J_z (a quadratic invariant, which "
      "only symplectic Runge–Kutta methods keep) and, for the free body, in |Π| and RΠ (Euler's equations are "
      "integrated in R³, not on the sphere |Π| = const). On the oscillator it is plain RK4, whose energy decays "
      "slowly.";
  e.equations =
      "k_1 = f(y_k),\\ k_2 = f(y_k + \\tfrac h2 k_1),\\ k_3 = f(y_k + \\tfrac h2 k_2),\\ k_4 = f(y_k + h k_3)\\\\"
      "\\tilde y = y_k + \\tfrac h6 (k_1 + 2k_2 + 2k_3 + k_4),\\quad y_{k+1} = P(\\tilde y)\\\\"
      "\\dot q = M^{-1}p,\\quad \\dot p = -\\nabla V(q) + Dg(q)^{\\mathsf T}\\lambda,\\quad \\ddot g(q) = 0\\\\"
      "P:\\ q = \\tilde q + M^{-1}Dg(\\tilde q)^{\\mathsf T}\\mu,\\ g(q) = 0;\\quad "
      "p = \\tilde p - Dg(q)^{\\mathsf T}\\nu,\\ Dg(q)M^{-1}p = 0";
  e.citation = "E. Hairer, S. P. Nørsett & G. Wanner, Solving Ordinary Differential Equations I, §II.1; E. Hairer, "
               "C. Lubich & G. Wanner, Geometric Numerical Integration, §IV.4 (projection methods)";
  return e;
}

const IntegratorEntry& rk4Entry() {
  static const IntegratorEntry e = make_rk4Integrator();
  return e;
}

std::unique_ptr<Integrator> rk4OnOscillator(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<OscillatorOde, OscillatorModel>(m, RungeKuttaMethod::RK4, h);
}
std::unique_ptr<Integrator> rk4OnChain(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<ChainIndex1Ode, ChainModel>(m, RungeKuttaMethod::RK4, h);
}
std::unique_ptr<Integrator> rk4OnLagrangian(const Model& m, const Options&, double h) {
  return rungeKuttaOnLagrangian(m, RungeKuttaMethod::RK4, h);
}
std::unique_ptr<Integrator> rk4OnRigidBody(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<RigidBodyOde, RigidBodyModel>(m, RungeKuttaMethod::RK4, h);
}

}  // namespace vilab
