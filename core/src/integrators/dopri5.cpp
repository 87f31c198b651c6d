// Integrator `dopri5`: adaptive Dormand–Prince 5(4) on the equations of motion, with
// substeps inside the fixed step h, projected onto the model's manifold after every
// accepted substep. The method is in vilab/integrators/runge_kutta.hpp, the equations
// and projections in vilab/integrators/odes.hpp; this file is its registry entry.
#include "vilab/integrators/runge_kutta.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_dopri5Integrator() {
  IntegratorEntry e;
  e.id = "dopri5";
  e.title = "Dormand–Prince 5(4), adaptive, with projection (baseline)";
  e.family = IntegratorFamily::Baseline;
  e.order = 5;
  e.symplectic = false;
  e.symmetric = false;
  e.forces = true;  // damping, torque, driving forces (discrete Lagrange–d'Alembert / the forced ODE)
  e.conserves = {{ClaimKind::Constraints, "constraints (projected after every substep)"},
                 {ClaimKind::Constraints, "|q| = 1 (normalized after every substep)"}};
  e.summary = "The adaptive Runge–Kutta method behind ode45 and RK45: substeps chosen to meet a local error "
              "tolerance, projected onto the constraint manifold; the energy still drifts.";
  e.docs =
      "Dormand–Prince 5(4) is what ode45 and scipy's RK45 run: seven stages, the last one at the new point (first "
      "same as last), a fifth-order solution and an embedded fourth-order one whose difference estimates the local "
      "error. A substep is accepted when that error, in the RMS norm with scales tol + tol·|y_i| (one absolute and "
      "relative tolerance for positions and momenta alike, as with scalar tolerances in ode45), is at most 1; the "
      "next substep is h·min(10, max(0.2, 0.9·err^(−1/5))), not larger right after a rejection. The simulation "
      "still advances by the scenario's h, so plots share one time grid: inside a step DOPRI5 takes as many "
      "substeps as it needs to land exactly on t + h (the last one shortened), carries its proposed substep size "
      "on to the next step, and reports the substeps as the step's iterations. After every accepted substep the "
      "state is projected as for rk4 (positions onto the links in the mass metric, momenta onto the tangent "
      "space; q normalized for rigid bodies), and where that moved the state the first stage is evaluated again "
      "there (the oscillator, with nothing to project, reuses the last stage). "
      "Adaptivity bounds the local error of each substep, not the energy: the method is neither symplectic nor "
      "symmetric, so the energy error still accumulates into a drift, smaller for a tighter tol but with no bound "
      "in time.";
  e.equations =
      "k_i = f\\!\\left(y + h_s\\textstyle\\sum_{j<i} a_{ij}k_j\\right),\\ i = 1..7,\\quad "
      "y_1 = y + h_s\\textstyle\\sum_i b_i k_i,\\quad \\hat e = h_s\\textstyle\\sum_i (b_i - \\hat b_i)k_i\\\\"
      "\\mathrm{err} = \\sqrt{\\tfrac1n\\textstyle\\sum_i \\left(\\hat e_i / (\\mathrm{tol} + "
      "\\mathrm{tol}\\max(|y_i|, |y_{1,i}|))\\right)^2} \\le 1\\\\"
      "h_s \\leftarrow h_s\\min\\!\\left(10, \\max\\!\\left(0.2,\\ 0.9\\,\\mathrm{err}^{-1/5}\\right)\\right),\\quad "
      "\\textstyle\\sum h_s = h\\ \\text{per step},\\quad y \\leftarrow P(y_1)";
  e.citation = "J. R. Dormand & P. J. Prince, A family of embedded Runge–Kutta formulae (1980); E. Hairer, "
               "S. P. Nørsett & G. Wanner, Solving Ordinary Differential Equations I, §II.4–II.5; E. Hairer, "
               "C. Lubich & G. Wanner, Geometric Numerical Integration, §IV.4 (projection methods)";
  e.options = {ParamSpec::number("tol", "tolerance", "",
                                 "absolute and relative tolerance of each substep's local error (atol = rtol)", 1e-6,
                                 1e-12, 1e-2, false)};
  return e;
}

const IntegratorEntry& dopri5Entry() {
  static const IntegratorEntry e = make_dopri5Integrator();
  return e;
}

std::unique_ptr<Integrator> dopri5OnOscillator(const Model& m, const Options& o, double h) {
  return std::make_unique<DormandPrince<OscillatorOde>>(OscillatorOde(std::get<OscillatorModel>(m)), h, o.get("tol"));
}
std::unique_ptr<Integrator> dopri5OnChain(const Model& m, const Options& o, double h) {
  return std::make_unique<DormandPrince<ChainIndex1Ode>>(ChainIndex1Ode(std::get<ChainModel>(m)), h, o.get("tol"));
}
std::unique_ptr<Integrator> dopri5OnLagrangian(const Model& m, const Options& o, double h) {
  return std::make_unique<DormandPrince<LagrangianOde>>(LagrangianOde(std::get<LagrangianModel>(m)), h, o.get("tol"));
}
std::unique_ptr<Integrator> dopri5OnRigidBody(const Model& m, const Options& o, double h) {
  return std::make_unique<DormandPrince<RigidBodyOde>>(RigidBodyOde(std::get<RigidBodyModel>(m)), h, o.get("tol"));
}

}  // namespace vilab
