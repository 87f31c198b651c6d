// Integrator `euler`: explicit Euler on the equations of motion, projected onto the
// model's manifold after every step. The method is in vilab/integrators/runge_kutta.hpp,
// the equations and projections in vilab/integrators/odes.hpp; this file is its
// registry entry.
#include "vilab/integrators/runge_kutta.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_eulerIntegrator() {
  IntegratorEntry e;
  e.id = "euler";
  e.title = "Explicit Euler with projection (baseline)";
  e.family = IntegratorFamily::Baseline;
  e.order = 1;
  e.symplectic = false;
  e.symmetric = false;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = {{ClaimKind::Constraints, "constraints (projected after every step)"},
                 {ClaimKind::Constraints, "|q| = 1 (normalized after every step)"}};
  e.summary = "Explicit Euler on the equations of motion, projected back onto the constraint manifold after every "
              "step: the simplest method; the constraints hold, the energy drifts fast.";
  e.docs =
      "Explicit Euler takes the slope at the start of the step, y_{k+1} = y_k + h f(y_k). It uses the same "
      "equations and projections as rk4: pendulums and chains in Cartesian index-1 form with the positions "
      "projected onto the links in the mass metric (Newton to rounding) and the momenta onto the tangent space "
      "after every step; rigid bodies by Euler's equations and quaternion kinematics with q normalized after every "
      "step. The projection keeps the constraints to rounding and the method first order, but does nothing for "
      "the energy, whose O(h) error per unit time accumulates: on the oscillator every step multiplies the energy "
      "by exactly 1 + h²ω², so orbits spiral outward. The growth speeds up as the motion does: on the double "
      "spherical pendulum and the chain at their default h the energy runs away within five seconds, until a "
      "step carries the bobs too far off the links to project them back and is refused (reduce h).";
  e.equations =
      "\\tilde y = y_k + h\\,f(y_k),\\quad y_{k+1} = P(\\tilde y)\\\\"
      "\\dot q = M^{-1}p,\\quad \\dot p = -\\nabla V(q) + Dg(q)^{\\mathsf T}\\lambda,\\quad \\ddot g(q) = 0\\\\"
      "P:\\ q = \\tilde q + M^{-1}Dg(\\tilde q)^{\\mathsf T}\\mu,\\ g(q) = 0;\\quad "
      "p = \\tilde p - Dg(q)^{\\mathsf T}\\nu,\\ Dg(q)M^{-1}p = 0";
  e.citation = "E. Hairer, S. P. Nørsett & G. Wanner, Solving Ordinary Differential Equations I, §I.7; E. Hairer, "
               "C. Lubich & G. Wanner, Geometric Numerical Integration, §IV.4 (projection methods)";
  return e;
}

const IntegratorEntry& eulerEntry() {
  static const IntegratorEntry e = make_eulerIntegrator();
  return e;
}

std::unique_ptr<Integrator> eulerOnOscillator(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<OscillatorOde, OscillatorModel>(m, RungeKuttaMethod::Euler, h);
}
std::unique_ptr<Integrator> eulerOnChain(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<ChainIndex1Ode, ChainModel>(m, RungeKuttaMethod::Euler, h);
}
std::unique_ptr<Integrator> eulerOnLagrangian(const Model& m, const Options&, double h) {
  return rungeKuttaOnLagrangian(m, RungeKuttaMethod::Euler, h);
}
std::unique_ptr<Integrator> eulerOnRigidBody(const Model& m, const Options&, double h) {
  return makeExplicitRungeKutta<RigidBodyOde, RigidBodyModel>(m, RungeKuttaMethod::Euler, h);
}

}  // namespace vilab
